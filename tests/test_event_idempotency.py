"""An organiser's penalty, withdrawal and late entry take an idempotency key as a table's writes
do (issue 41): a phone that sends the same action again with its key records nothing new (200,
the action recorded the first time), the same key for another action is refused (409), and
the command line passes a key too."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from companion.ledger import db
from companion.ledger.errors import IdempotencyConflictError
from companion.ledger.event_book.service import EventBook
from companion.ledger.repository import Ledger
from test_event_api import bearer, new_event
from test_ledger_cli import ok, run

TEN = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jim"]

ACTIONS = [
    ("penalties", {"player": "Ann", "amount": "-5", "reason": "late"}, {"amount": "-4"}),
    ("withdrawals", {"player": "Ivy", "after_round": 1}, {"player": "Jim"}),
    ("players", {"name": "Kim", "joins": 2}, {"joins": 3}),
]
"""Each action's endpoint, its body, and what another action under the same key changes."""


def _kinds(client: TestClient, event: str) -> list[str]:
    audit = client.get(f"/api/events/{event}/audit").json()["audit"]
    return [entry["kind"] for entry in audit]


@pytest.mark.parametrize(("path", "body", "other"), ACTIONS, ids=[a[0] for a in ACTIONS])
def test_an_organisers_action_sent_again_with_its_key_records_once(
    client: TestClient, path: str, body: dict[str, Any], other: dict[str, Any]
) -> None:
    event, token = new_event(client, players=TEN, rounds=3, leftover="substitutes")
    assert client.post(
        f"/api/events/{event}/rounds", json={"round": 1}, headers=bearer(token)
    ).status_code == (201)
    url = f"/api/events/{event}/{path}"
    before = _kinds(client, event)

    first = client.post(url, json=body | {"key": "phone-1"}, headers=bearer(token))
    assert first.status_code == 201, first.text
    again = client.post(url, json=body | {"key": "phone-1"}, headers=bearer(token))
    assert again.status_code == 200, again.text
    assert again.json() == first.json()
    assert len(_kinds(client, event)) == len(before) + 1, "recorded once"

    refused = client.post(url, json=body | other | {"key": "phone-1"}, headers=bearer(token))
    assert refused.status_code == 409
    assert refused.json()["error"] == (
        "the key 'phone-1' was already used for another action of this event (action "
        f"{len(before) + 1}): nothing recorded"
    )
    assert len(_kinds(client, event)) == len(before) + 1

    # Without a key, the same action is another action (refused or recorded on its merits).
    client.post(url, json=body, headers=bearer(token))
    too_long = client.post(url, json=body | {"key": "k" * 201}, headers=bearer(token))
    assert too_long.status_code == 422


def test_the_book_takes_a_key_and_tells_a_repeat(tmp_path: Any) -> None:
    with Ledger.open(f"sqlite:///{tmp_path / 'ledger.sqlite3'}") as ledger:
        book = EventBook(ledger)
        created = book.create_event("Cup", "sg", {}, TEN[:8], 2, first_round="listed")
        book.seat_round(created.id, 1)
        first = book.adjust(created.id, "Ann", -5, "late", key="k")
        again = book.adjust(created.id, "Ann", -5, "late", key="k")
        assert (again.seq, again.duplicate, first.duplicate) == (first.seq, True, False)
        with pytest.raises(IdempotencyConflictError):
            book.adjust(created.id, "Ann", -6, "late", key="k")
        assert [entry.kind for entry in book.audit(created.id)].count("adjust") == 1
        # A key is the event's own: another event may use it.
        other = book.create_event("Cup 2", "sg", {}, TEN[:8], 2, first_round="listed")
        book.seat_round(other.id, 1)
        assert not book.adjust(other.id, "Ann", -5, "late", key="k").duplicate


def test_the_command_line_sends_a_key(
    tmp_path: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(db.ENV_URL, raising=False)
    url = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    with Ledger.open(url) as ledger:
        book = EventBook(ledger)
        created = book.create_event("Cup", "sg", {}, TEN[:8], 2, first_round="listed")
        book.seat_round(created.id, 1)
    penalty = ("event", "penalty", created.id, "--player", "Ann", "--amount", "-5")
    for _ in range(2):
        assert ok(capsys, *penalty, "--reason", "late", "--key", "k", "--db", url) == (
            "Ann: -5 (late)\n"
        )
    code, _, err = run(capsys, *penalty, "--reason", "later", "--key", "k", "--db", url)
    assert code != 0 and "the key 'k' was already used for another action" in err
    with Ledger.open(url) as ledger:
        kinds = [entry.kind for entry in EventBook(ledger).audit(created.id)]
    assert kinds.count("adjust") == 1

"""An organiser's penalty amount goes through the options' bounded reader (issue 41, item 1):
`Fraction` alone expands an exponent in full (`"1e10000000"`, ten characters, froze the server
for 10 s; `"1e5000"` was a 500 past the 4,300-digit limit) and reads `"1_000"`, `"٣"`, a
fullwidth 5 and `"1e3"` as numbers. Each is refused at once, over HTTP (422) and from the
command line (exit 2), with the message of an amount that is not a plain number."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from companion.ledger import db
from companion.ledger.event_book.service import EventBook
from companion.ledger.repository import Ledger
from test_event_api import bearer, new_event
from test_ledger_cli import run

REFUSED = ["1e10000000", "1e5000", "1_000", "٣", "\uff15", "1e3", "1E3", "0x10", "inf", "nan", " "]


def said(amount: str) -> str:
    return f"an amount is a number such as -10, 2.5 or 5/2; got {amount!r}"


@pytest.mark.parametrize("amount", REFUSED)
def test_a_penalty_amount_that_is_not_a_plain_number_is_a_422(
    client: TestClient, amount: str
) -> None:
    event, token = new_event(client, first_round="listed")
    client.post(f"/api/events/{event}/rounds", json={"round": 1}, headers=bearer(token))
    body = {"player": "Ann", "amount": amount, "reason": "late"}
    refused = client.post(f"/api/events/{event}/penalties", json=body, headers=bearer(token))
    assert refused.status_code == 422
    assert refused.json() == {
        "error": said(amount),
        "error_key": "refusal.event_bad_amount",
        "error_params": {"amount": amount},
    }
    assert client.get("/api/health").status_code == 200


def test_plain_amounts_are_still_read_exactly(client: TestClient) -> None:
    event, token = new_event(client, first_round="listed")
    client.post(f"/api/events/{event}/rounds", json={"round": 1}, headers=bearer(token))
    for amount, exact in (("-10", "-10"), ("2.5", "5/2"), ("-5/2", "-5/2"), ("+3", "3")):
        body = {"player": "Ann", "amount": amount, "reason": "late"}
        done = client.post(f"/api/events/{event}/penalties", json=body, headers=bearer(token))
        assert (done.status_code, done.json()["amount_exact"]) == (201, exact)


@pytest.mark.parametrize("amount", ["1e10000000", "1_000", "٣", "\uff15", "1e3"])
def test_the_command_lines_penalty_refuses_them_too(
    tmp_path: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, amount: str
) -> None:
    monkeypatch.delenv(db.ENV_URL, raising=False)
    url = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    with Ledger.open(url) as ledger:
        book = EventBook(ledger)
        created = book.create_event("Cup", "sg", {}, [f"P{n}" for n in range(8)], 2)
        book.seat_round(created.id, 1)
    code, out, err = run(
        capsys,
        "event",
        "penalty",
        created.id,
        "--player",
        "P0",
        "--amount",
        amount,
        "--reason",
        "late",
        "--db",
        url,
    )
    assert (code, out) == (2, "")
    assert said(amount) in err

"""An event's heavy reads and its seating under limits, and its export streamed (issue 41,
item 2): reads limited per client address (429, `Retry-After`, the page in the reader's
language), the tables a seating creates counted per client address (given back when the
seating is refused), and the export written a few tables at a time with the rows it had."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from companion.api import create_app
from companion.api.limits import Rate, RateLimiter, RateLimits
from companion.ledger.event_book.service import EventBook
from companion.ledger.repository import Ledger

EIGHT = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
OFF = RateLimits(create=None, write=None, seat=None, read=None)


def app_client(tmp_path: Any, limits: RateLimits) -> tuple[TestClient, str]:
    """The app with `limits`, its buckets on a clock that stands still (nothing refills)."""
    url = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    app = create_app(url, rate_limits=limits)
    app.state.rate_limiter = RateLimiter(limits, clock=lambda: 0.0)
    return TestClient(app), url


def make_event(client: TestClient, rounds: int = 3) -> tuple[str, dict[str, str]]:
    body = {"name": "Club night", "players": EIGHT, "rounds": rounds, "seed": 5, "hands": 4}
    created = client.post("/api/events", json=body)
    assert created.status_code == 201, created.text
    answer = created.json()
    return answer["id"], {"Authorization": f"Bearer {answer['token']}"}


def seat(client: TestClient, event_id: str, bearer: dict[str, str], number: int) -> Any:
    body = {"round": number, "confirm": True}
    return client.post(f"/api/events/{event_id}/rounds", json=body, headers=bearer)


# ---------------------------------------------------------------------------------------------
# The export


@pytest.fixture
def played(tmp_path: Any) -> Iterator[tuple[TestClient, Ledger, str]]:
    """Eight players, two rounds seated, a few hands and a penalty."""
    client, url = app_client(tmp_path, OFF)
    with client, Ledger.open(url) as ledger:
        event_id, bearer = make_event(client)
        for number in (1, 2):
            assert seat(client, event_id, bearer, number).status_code == 201
        book = EventBook(ledger)
        tokens = client.get(f"/api/events/{event_id}/tokens", headers=bearer).json()["tables"]
        for table in tokens[:3]:
            players = ledger.setup(table["table"]).players
            hand = {"kind": "win", "winner": players[0], "from": players[1], "tai": 2}
            headers = {"Authorization": f"Bearer {table['token']}"}
            response = client.post(
                f"/api/tables/{table['table']}/hands", json=hand, headers=headers
            )
            assert response.status_code == 201, response.text
        book.adjust(event_id, EIGHT[0], -3, "late", by="Mia")
        yield client, ledger, event_id


def test_the_export_is_streamed_with_the_rows_it_had(
    played: tuple[TestClient, Ledger, str],
) -> None:
    client, ledger, event_id = played
    book = EventBook(ledger)
    response = client.get(f"/api/events/{event_id}/export")
    assert response.status_code == 200
    # Streamed: written as it is made, so no length is known before the first byte.
    assert "content-length" not in response.headers
    assert response.headers["content-type"] == "application/json"
    assert 'filename="' in response.headers["content-disposition"]
    view = book.event(event_id)
    # The document as the export built it whole before (every table's own export in turn).
    before = {
        "format": "companion-event",
        "version": 1,
        "event": view.to_json(),
        "standings": book.standings(event_id).to_json(),
        "audit": [entry.to_json() for entry in book.audit(event_id)],
        "tables": [
            {"round": round_.number, "number": table.number} | ledger.export_json(table.table)
            for round_ in view.seated
            for table in round_.tables
        ],
    }
    exported = response.json()
    assert exported == before
    assert [len(table["events"]) for table in exported["tables"]] == [1, 1, 1, 0]
    assert book.export_json(event_id) == before
    csv = client.get(f"/api/events/{event_id}/export?format=csv")
    assert csv.status_code == 200 and "content-length" not in csv.headers
    assert csv.text == book.export_csv(event_id)
    lines = csv.text.splitlines()
    assert lines[0] == "rank,name,total,tied,tables,withdrawn,provisional,adjustments"
    assert len(lines) == 1 + len(EIGHT)
    assert client.get("/api/events/nosuchid/export").status_code == 404


# ---------------------------------------------------------------------------------------------
# Reads per client address


def test_an_events_reads_are_limited_per_client_address(tmp_path: Any) -> None:
    client, _ = app_client(tmp_path, RateLimits(create=None, read=Rate(3, 60)))
    with client:
        event_id, _ = make_event(client)
        for path in (f"/e/{event_id}", f"/api/events/{event_id}", f"/e/{event_id}/board"):
            assert client.get(path).status_code == 200
        page = client.get(f"/e/{event_id}?lang=zh-Hans")
        assert page.status_code == 429
        assert page.headers["retry-after"] == "20"  # 3 a minute: one every 20 s
        assert "您的地址刚才请求太多了。" in page.text
        assert "此地址读取赛事太频繁：请 20 秒后再试。" in page.text  # noqa: RUF001
        english = client.get(f"/e/{event_id}?lang=en")
        assert english.status_code == 429
        assert "Too many reads of events from this address: try again in 20 s." in english.text
        standings = client.get(f"/api/events/{event_id}/standings")
        assert standings.status_code == 429 and standings.headers["retry-after"] == "20"
        answer = standings.json()
        assert answer["error_key"] == "refusal.too_many_reads"
        assert answer["error_params"] == {"seconds": 20}
        assert answer["error"].startswith("too many reads of events from this address")
        export = client.get(f"/api/events/{event_id}/export")  # 20 tokens: never within 3
        assert export.status_code == 429
        # The organiser's writes are not reads: still answered.
        assert client.get("/api/health").status_code == 200


# ---------------------------------------------------------------------------------------------
# Seating per client address


def test_the_tables_a_seating_creates_count_per_client_address(tmp_path: Any) -> None:
    client, _ = app_client(tmp_path, RateLimits(create=None, seat=Rate(6, 3600)))
    with client:
        event_id, bearer = make_event(client)
        for number in (1, 2, 3):  # two tables each: six
            assert seat(client, event_id, bearer, number).status_code == 201
        other, other_bearer = make_event(client)
        refused = seat(client, other, other_bearer, 1)
        assert refused.status_code == 429
        assert refused.headers["retry-after"] == "1200"  # two tables at 6 an hour
        answer = refused.json()
        assert answer["error_key"] == "refusal.too_many_seated"
        assert answer["error_params"] == {"seconds": 1200, "tables": 2}
        assert client.get(f"/api/events/{other}").json()["seated"] == []  # nothing seated


def test_a_refused_seating_gives_its_tables_back(tmp_path: Any) -> None:
    client, _ = app_client(tmp_path, RateLimits(create=None, seat=Rate(4, 3600)))
    with client:
        event_id, bearer = make_event(client)
        assert seat(client, event_id, bearer, 1).status_code == 201  # 2 of 4
        assert seat(client, event_id, bearer, 1).status_code == 409  # seated: given back
        assert seat(client, event_id, bearer, 3).status_code == 409  # out of order: given back
        assert seat(client, event_id, bearer, 2).status_code == 201  # 4 of 4
        assert seat(client, event_id, bearer, 3).status_code == 429


def test_the_default_seating_limit_passes_the_largest_event() -> None:
    from companion.ledger.event_book.checks import MAX_EVENT_PLAYERS, MAX_EVENT_ROUNDS

    seat_rate = RateLimits().seat
    assert seat_rate is not None
    largest = MAX_EVENT_PLAYERS // 4 * MAX_EVENT_ROUNDS
    assert largest == 4000
    assert largest <= seat_rate.count < 2 * largest

"""The organiser's seat fixes, early ends and reopens where an event's reads are kept (issue 39
with issue 41's reads): the event and its standings are kept by the event's version and each
table's standings by its last entry, its players and where it was ended "as it stands". A swap
changes a table's players and an end or a reopen what the same record counts, without a new
entry: each must show at once in the standings, the event's JSON and the page, read twice (the
second read the kept one) before and after, and equal what a ledger that kept nothing reads."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from companion.api import create_app
from companion.ledger.event_book.service import EventBook
from companion.ledger.repository import Ledger
from event_day_helpers import http_event, seated_event, win

Rows = dict[str, tuple[Fraction, bool]]


def kept_rows(book: EventBook, event_id: str) -> Rows:
    """The standings read twice: the second read is the one kept for the version."""
    first = book.current(event_id)
    again = book.current(event_id)
    assert again is first  # kept, not worked out anew
    return {row.name: (row.total, row.provisional) for row in first.board.rows}


def fresh_rows(url: str, event_id: str) -> Rows:
    """The standings as a ledger opened anew reads them (nothing kept)."""
    with Ledger.open(url) as ledger:
        board = EventBook(ledger).standings(event_id)
    return {row.name: (row.total, row.provisional) for row in board.rows}


def test_a_swap_an_end_a_void_and_a_reopen_show_at_once_in_the_kept_standings(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    with Ledger.open(url) as ledger:
        book = EventBook(ledger)
        event_id = seated_event(book)
        one, two = (table.table for table in book.event(event_id).seated[0].tables)
        win(ledger, one, "Ann", "Ben", 3)  # Ann sits East
        win(ledger, two, "Eve", "Fay", 2)
        before = kept_rows(book, event_id)
        assert before == fresh_rows(url, event_id)
        assert before["Ann"][0] > 0 and before["Cat"][0] < 0 and before["Ann"][1]

        # Ann sat West and Cat East: the first hand is Cat's.
        book.fix_seats(event_id, 1, players=["Ann", "Cat"])
        swapped = kept_rows(book, event_id)
        assert (swapped["Cat"][0], swapped["Ann"][0]) == (before["Ann"][0], before["Cat"][0])
        assert swapped == fresh_rows(url, event_id)
        assert book.current(event_id).view.seated[0].tables[0].players == (
            "Cat",
            "Ben",
            "Ann",
            "Dan",
        )

        # Table 1 ended as it stands: the same totals, no longer provisional.
        book.end_table(event_id, 1, "as-it-stands", "out of time")
        ended = kept_rows(book, event_id)
        assert {name: ended[name][0] for name in ended} == {
            name: swapped[name][0] for name in swapped
        }
        assert not ended["Cat"][1] and ended["Eve"][1]
        assert ended == fresh_rows(url, event_id)
        assert book.current(event_id).view.seated[0].tables[0].finished

        # Table 2 void (the void score, 0): Eve's win no longer counts.
        book.end_table(event_id, 2, "void", "fire alarm")
        voided = kept_rows(book, event_id)
        assert voided["Eve"] == voided["Fay"] == (Fraction(0), False)
        assert voided == fresh_rows(url, event_id)

        # Both reopened: provisional again, as their records stand.
        book.reopen_table(event_id, 2)
        book.reopen_table(event_id, 1)
        reopened = kept_rows(book, event_id)
        assert reopened == swapped
        assert reopened == fresh_rows(url, event_id)
        assert not book.current(event_id).view.seated[0].tables[0].finished


def test_the_api_and_the_page_show_a_swap_and_an_end_at_once(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    with TestClient(create_app(url), raise_server_exceptions=False) as client:
        event_id, auth, tables = http_event(client)
        with Ledger.open(url) as ledger:  # a hand at table 2, as another worker records it
            win(ledger, tables[1], "Eve", "Fay", 2)

        def read() -> tuple[dict[str, Any], str, list[str]]:
            standings = client.get(f"/api/events/{event_id}/standings").json()
            again = client.get(f"/api/events/{event_id}/standings").json()
            assert again == standings
            totals = {row["name"]: row["total"] for row in standings["rows"]}
            page = client.get(f"/e/{event_id}").text
            assert client.get(f"/e/{event_id}").text == page
            event = client.get(f"/api/events/{event_id}").json()
            return totals, page, event["seated"][0]["tables"][1]["players"]

        before, page, players = read()
        assert players == ["Eve", "Fay", "Gus", "Hal"]
        assert float(before["Eve"]) > 0 and float(before["Gus"]) < 0
        seats = {"table": 2, "players": ["Eve", "Gus"]}
        assert client.post(f"/api/events/{event_id}/seats", json=seats, headers=auth).is_success
        swapped, page, players = read()
        assert players == ["Gus", "Fay", "Eve", "Hal"]
        assert (swapped["Gus"], swapped["Eve"]) == (before["Eve"], before["Gus"])
        end = {"table": 2, "mode": "void", "reason": "fire alarm"}
        assert client.post(f"/api/events/{event_id}/endings", json=end, headers=auth).is_success
        voided, page, _ = read()
        assert voided["Gus"] == voided["Eve"] == 0
        assert "ended early: void · hands: 1" in page
        reopen = {"table": 2}
        assert client.post(
            f"/api/events/{event_id}/endings/reopen", json=reopen, headers=auth
        ).is_success
        reopened, page, _ = read()
        assert reopened == swapped
        assert "ended early: void · hands: 1" not in page

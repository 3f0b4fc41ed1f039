"""Seat fixes after hands are recorded (issue 39): two players of a table swapped, or its four
given in order; the table's record is replayed with the seats fixed (every hand re-attributed
from the first), the standings follow, and the organiser's record says who fixed what. Through
the service, the API and the command line; refusals write nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from companion.api import create_app
from companion.ledger.event_book.service import EventBook
from companion.ledger.repository import Ledger
from event_day_helpers import EIGHT, http_event, refused, seated_event, win
from test_ledger_cli import ok, run


@pytest.fixture
def book(tmp_path: Path) -> Iterator[EventBook]:
    with Ledger.open(f"sqlite:///{tmp_path / 'ledger.sqlite3'}") as ledger:
        yield EventBook(ledger)


def totals(book: EventBook, event_id: str) -> dict[str, int]:
    return {row.name: int(row.total) for row in book.standings(event_id).rows}


def test_a_swap_replays_the_table_with_the_seats_fixed(book: EventBook) -> None:
    event_id = seated_event(book)
    one = book.event(event_id).seated[0].tables[0]
    # East (seat 0, "Ann") wins 3 tai off South ("Ben"), then West ("Cat") 1 tai off East.
    win(book.ledger, one.table, "Ann", "Ben", 3)
    win(book.ledger, one.table, "Cat", "Ann", 1)
    before = totals(book, event_id)
    # Ann really sat West and Cat East: the hands were theirs the other way round.
    entry = book.fix_seats(event_id, 1, players=["ann", "Cat"], by="Mia")
    assert (entry.kind, entry.round, entry.by) == ("swap", 1, "Mia")
    assert entry.details == {
        "table": 1,
        "table_id": one.table,
        "before": ["Ann", "Ben", "Cat", "Dan"],
        "after": ["Cat", "Ben", "Ann", "Dan"],
    }
    after = totals(book, event_id)
    assert (after["Cat"], after["Ann"]) == (before["Ann"], before["Cat"])
    assert {name: after[name] for name in EIGHT if name not in ("Ann", "Cat")} == {
        name: before[name] for name in EIGHT if name not in ("Ann", "Cat")
    }
    table = book.ledger.standings(one.table)
    assert [player["name"] for player in table["players"]] == ["Cat", "Ben", "Ann", "Dan"]
    assert book.event(event_id).seated[0].tables[0].players == ("Cat", "Ben", "Ann", "Dan")
    history = book.ledger.history(one.table)
    assert history[0].after.totals[0] > 0  # the first hand is East's, Cat's now
    # The four in their order, East first: back as they were.
    book.fix_seats(event_id, 1, round_number=1, order=["Ann", "Ben", "Cat", "Dan"])
    assert totals(book, event_id) == before


def test_a_riichi_table_is_replayed_with_its_points(book: EventBook) -> None:
    event_id = book.create_event(
        "Riichi", "riichi", None, EIGHT[:4], 1, seed=1, first_round="listed"
    ).id
    table = book.seat_round(event_id, 1).tables[0].table
    from companion.ledger.records import WinnerRecord, WinRecord

    book.ledger.record(table, WinRecord((WinnerRecord("Ann", han=3, fu=30),), "Ben"))
    before = {
        player["name"]: player["points"] for player in book.ledger.standings(table)["players"]
    }
    book.fix_seats(event_id, 1, players=["Ann", "Dan"])
    after = {player["name"]: player["points"] for player in book.ledger.standings(table)["players"]}
    assert (after["Dan"], after["Ann"], after["Ben"]) == (
        before["Ann"],
        before["Dan"],
        before["Ben"],
    )


def test_a_sanma_table_of_three_takes_its_three_in_order(book: EventBook) -> None:
    from companion.ledger.records import WinnerRecord, WinRecord

    event_id = book.create_event(
        "Sanma", "sanma", {}, EIGHT[:6], 1, seed=1, first_round="listed"
    ).id
    table = book.seat_round(event_id, 1).tables[0].table
    book.ledger.record(table, WinRecord((WinnerRecord("Ann", han=3, fu=30),), "Ben"))
    before = book.standings(event_id)
    totals = {row.name: row.total for row in before.rows}
    book.fix_seats(event_id, 1, order=["Cat", "Ben", "Ann"])
    assert book.event(event_id).seated[0].tables[0].players == ("Cat", "Ben", "Ann")
    after = {row.name: row.total for row in book.standings(event_id).rows}
    assert (after["Cat"], after["Ann"], after["Ben"]) == (
        totals["Ann"],
        totals["Cat"],
        totals["Ben"],
    )
    four = refused(lambda: book.fix_seats(event_id, 1, order=["Ann", "Ben", "Cat", "Dan"]))
    assert (four.key, four.params) == (
        "refusal.day_swap_other_table",
        {"player": "Dan", "table": 2, "round": 1, "number": 1},
    )
    two = refused(lambda: book.fix_seats(event_id, 1, order=["Ann", "Ben"]))
    assert (two.key, two.params) == ("refusal.day_order_players", {"most": 3})


def test_bad_seat_fixes_are_refused_and_nothing_is_written(book: EventBook) -> None:
    event_id = seated_event(book)
    one = book.event(event_id).seated[0].tables[0]
    win(book.ledger, one.table, "Ann", "Ben", 3)
    audit = book.audit(event_id)
    other = refused(lambda: book.fix_seats(event_id, 1, players=["Ann", "Eve"]))
    assert (other.key, str(other)) == (
        "refusal.day_swap_other_table",
        "Eve plays at table 2 of round 1, not table 1: only players of one table swap seats",
    )
    assert refused(lambda: book.fix_seats(event_id, 3, players=["Ann", "Ben"])).key == (
        "refusal.day_no_table"
    )
    assert refused(lambda: book.fix_seats(event_id, 1, players=["Ann", "ANN"])).key == (
        "refusal.day_swap_same"
    )
    assert refused(lambda: book.fix_seats(event_id, 1, order=["Ann", "Ben", "Cat"])).key == (
        "refusal.day_order_players"
    )
    assert refused(lambda: book.fix_seats(event_id, 1, order=EIGHT[:4])).key == (
        "refusal.day_order_same"
    )
    assert refused(lambda: book.fix_seats(event_id, 1)).key == "refusal.day_swap_what"
    assert refused(lambda: book.fix_seats(event_id, 1, players=["Zed", "Ann"])).key == (
        "refusal.event_unknown_player"
    )
    assert book.audit(event_id) == audit
    assert book.event(event_id).seated[0].tables[0].players == tuple(EIGHT[:4])


def test_seats_over_http_and_on_the_organisers_page(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    with TestClient(create_app(url), raise_server_exceptions=False) as client:
        event_id, auth, _ = http_event(client)
        seats = f"/api/events/{event_id}/seats"
        swap = {"table": 2, "players": ["Eve", "Gus"], "by": "Mia"}
        assert client.post(seats, json=swap).status_code == 401
        assert client.post(
            seats, json=swap, headers={"authorization": "Bearer no"}
        ).status_code == (403)
        other = client.post(seats, json={"table": 2, "players": ["Ann", "Gus"]}, headers=auth)
        assert other.status_code == 422
        assert other.json()["error_key"] == "refusal.day_swap_other_table"
        assert other.json()["error_params"] == {
            "player": "Ann",
            "table": 1,
            "round": 1,
            "number": 2,
        }
        zh = client.post(
            seats,
            json={"table": 2, "players": ["Ann", "Gus"]},
            headers=auth | {"accept-language": "zh-Hans"},
        )
        assert zh.json()["error_key"] == "refusal.day_swap_other_table"
        done = client.post(seats, json=swap, headers=auth)
        assert done.status_code == 201
        assert done.json()["details"]["after"] == ["Gus", "Fay", "Eve", "Hal"]
        event = client.get(f"/api/events/{event_id}").json()
        assert event["seated"][0]["tables"][1]["players"] == ["Gus", "Fay", "Eve", "Hal"]
        panel = client.get(f"/e/{event_id}/organiser/panel", headers=auth).text
        assert "table 2 of round 1: seats fixed to Gus, Fay, Eve, Hal" in panel
        assert '<form class="action-form" data-action="swap" data-round="1">' in panel
        assert "/api/events/{event_id}/seats" in client.get("/openapi.json").json()["paths"]


def test_swap_from_the_command_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'cli.sqlite3'}"
    with Ledger.open(url) as ledger:
        event_id = seated_event(EventBook(ledger))
    base = ("event", "swap", event_id, "--table", "1", "--db", url)
    assert ok(capsys, *base, "--players", "Ann, Cat", "--by", "Mia") == (
        "Round 1, table 1: Ann, Ben, Cat, Dan -> Cat, Ben, Ann, Dan (East first); its hands "
        "are replayed with the seats fixed.\n"
    )
    code, _, err = run(capsys, *base, "--players", "Ann,Eve")
    assert (code, err) == (
        2,
        "companion: Eve plays at table 2 of round 1, not table 1: only players of one table "
        "swap seats\n",
    )
    assert '"kind": "swap"' in ok(capsys, *base, "--order", "Ann,Ben,Cat,Dan", "--json")

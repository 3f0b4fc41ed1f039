"""Taking a round's seating back (`EventBook.unseat_round`, issue 37): only the last seated
round, only while no hand has been recorded at its tables, in one write with its line in the
organiser's record; the ledger tables stay in the ledger, but the event no longer lists them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from companion.api.event_stream import read_event_state
from companion.ledger.event_book import store
from companion.ledger.event_book.errors import RoundOrderError
from companion.ledger.event_book.service import EventBook
from companion.ledger.records import WinnerRecord, WinRecord
from companion.ledger.repository import Ledger

EIGHT = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


@pytest.fixture
def ledger(ledger_url: str) -> Iterator[Ledger]:
    with Ledger.open(ledger_url) as opened:
        yield opened


def night(book: EventBook) -> tuple[str, list[str], list[str]]:
    """Eight over three rounds, rounds 1 and 2 seated (round 2 while round 1 plays, confirmed),
    a hand at round 1's first table; its id and each round's table ids."""
    event = book.create_event("Night", "sg", None, EIGHT, 3, seed=7, first_round="listed").id
    first = [table.table for table in book.seat_round(event, 1, by="Mia").tables]
    book.ledger.record(first[0], WinRecord((WinnerRecord("Cat", tai=2),), "Ann"))
    second = [table.table for table in book.seat_round(event, 2, confirm=True).tables]
    return event, first, second


def test_the_last_seating_is_taken_back_before_its_first_hand(ledger: Ledger) -> None:
    book = EventBook(ledger)
    event, first, second = night(book)
    book.start_timer(event, 2, 60)
    seating = [table.players for table in book.event(event).seated[1].tables]
    version = read_event_state(ledger, event).version

    entry = book.unseat_round(event, 2, by="Mia")
    assert (entry.kind, entry.round, entry.by) == ("unseat", 2, "Mia")
    assert entry.details == {"tables": {"1": second[0], "2": second[1]}}
    view = book.event(event)
    assert ([round_.number for round_ in view.seated], view.current_round) == ([1], 1)
    assert [kind.kind for kind in book.audit(event)] == [
        "create", "seat", "seat", "timer", "unseat"
    ]  # fmt: skip
    # The ledger keeps its tables; the event no longer lists them anywhere.
    assert ledger.setup(second[0]).players == seating[0]
    assert [book.event_of_table(table) for table in second] == [None, None]
    assert set(book.table_tokens(event)) == set(first)
    assert {table for _, table in book.standings(event).unfinished} == set(first)
    assert {table["table"]["id"] for table in book.export_json(event)["tables"]} == set(first)
    assert read_event_state(ledger, event).version > version  # the pages follow

    # Seated again: the same round from the same rounds before, new tables, no old timer.
    again = book.seat_round(event, 2, confirm=True)
    assert [table.players for table in again.tables] == seating
    assert not {table.table for table in again.tables} & set(second)
    assert again.timer is None


def test_only_the_last_round_before_its_first_hand(ledger: Ledger) -> None:
    book = EventBook(ledger)
    event, _, second = night(book)
    before = book.audit(event)
    with pytest.raises(RoundOrderError) as refused:
        book.unseat_round(event, 1)
    assert (str(refused.value), refused.value.http_status, refused.value.key) == (
        "round 2 is seated after it: only the last seated round can be taken back; got round 1",
        409,
        "refusal.event_unseat_not_last",
    )
    with pytest.raises(RoundOrderError, match=r"^round 3 is not seated: there is nothing to"):
        book.unseat_round(event, 3)
    # A hand at table 2 of round 2, then undone: recorded all the same, so refused, naming it.
    ledger.record(second[1], WinRecord((WinnerRecord("Gus", tai=1),), "Ann"))
    ledger.void(second[1], 1, reason="wrong table")
    with pytest.raises(RoundOrderError) as refused:
        book.unseat_round(event, 2)
    assert str(refused.value) == (
        "table 2 of round 2 has a hand recorded: a round's seating is taken back only before "
        "any of its tables records one"
    )
    assert dict(refused.value.params) == {"round": 2, "number": 2, "table": second[1]}
    assert book.audit(event) == before
    assert len(book.event(event).seated) == 2


def test_nothing_is_taken_back_when_the_write_fails(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    book = EventBook(ledger)
    event, _, second = night(book)

    def fails(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the disk is full")

    # The record's line is written after the rows go: a failure there undoes all of it.
    monkeypatch.setattr(store, "audit_row", fails)
    with pytest.raises(RuntimeError):
        book.unseat_round(event, 2)
    monkeypatch.undo()
    assert [table.table for table in book.event(event).seated[1].tables] == second
    assert [book.event_of_table(table) for table in second] == [event, event]
    assert [entry.kind for entry in book.audit(event)][-1] == "seat"


def test_nothing_seated_nothing_to_take_back(ledger: Ledger) -> None:
    book = EventBook(ledger)
    event = book.create_event("Night", "sg", None, EIGHT, 2, seed=7).id
    with pytest.raises(RoundOrderError) as refused:
        book.unseat_round(event, 1)
    assert (refused.value.key, dict(refused.value.params)) == (
        "refusal.event_unseat_not_seated",
        {"round": 1},
    )

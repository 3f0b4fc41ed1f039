"""The ledger's cached replays agree with replaying the whole record from the database."""

from __future__ import annotations

from companion.ledger.records import DrawRecord, WinnerRecord, WinRecord
from companion.ledger.replay import replay
from companion.ledger.repository import Ledger

NAMES = ["Ann", "Ben", "Cat", "Dan"]


def fresh(url: str, table: str) -> tuple[object, ...]:
    """The record replayed by a ledger that has cached nothing."""
    with Ledger.open(url) as cold:
        replayed = cold.replay(table)
    return (replayed.state, replayed.entries)


def test_two_ledgers_on_one_database_see_each_others_writes(ledger_url: str) -> None:
    with Ledger.open(ledger_url) as first, Ledger.open(ledger_url) as second:
        table = first.create_table("tw", NAMES).id
        first.record(table, WinRecord((WinnerRecord("Ann", tai=3),), discarder="Ben"))
        assert first.replay(table).state.hands == 1
        second.record(table, WinRecord((WinnerRecord("Ann", tai=2),)))
        second.record(table, DrawRecord())
        first.record(table, WinRecord((WinnerRecord("Cat", tai=4),), discarder="Ann"))
        for ledger in (first, second):
            replayed = ledger.replay(table)
            assert (replayed.state, replayed.entries) == fresh(ledger_url, table)
        assert first.replay(table).state.hands == 4


def test_a_correction_by_another_ledger_is_replayed_anew(ledger_url: str) -> None:
    with Ledger.open(ledger_url) as first, Ledger.open(ledger_url) as second:
        table = first.create_table("sg", NAMES).id
        first.record(table, WinRecord((WinnerRecord("Ben", tai=2),), discarder="Ann"))
        first.record(table, WinRecord((WinnerRecord("Cat", tai=1),)))
        before = first.replay(table)
        second.void(table, 1, reason="wrong hand", by="Dan")
        after = first.replay(table)
        assert after.entry(1).status == "voided"
        assert after.state.totals != before.state.totals
        assert (after.state, after.entries) == fresh(ledger_url, table)
        first.record(table, DrawRecord())
        final = first.replay(table)
        assert final == replay(final.setup, [entry.stored for entry in final.entries])

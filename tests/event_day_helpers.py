"""What the tests of a tournament's day (issue 39) share: an event on a ledger, its round's
timer moved into the past (its time up), and a hand recorded at a table."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import select

from companion.ledger.event_book.reads import kept_reads
from companion.ledger.event_book.service import EventBook
from companion.ledger.models import EntryRow, EventTimerRow
from companion.ledger.records import WinnerRecord, WinRecord
from companion.ledger.repository import Ledger

EIGHT = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


def age_timers(ledger: Ledger, minutes: int) -> None:
    """Every timer of the ledger started `minutes` earlier than it was (its time up sooner)."""
    with ledger._session() as session, session.begin():
        for row in session.scalars(select(EventTimerRow)):
            row.started_at = row.started_at - timedelta(minutes=minutes)
    # The rows changed behind the service's back (no action moved the event's version): the
    # events' reads kept by version would go on showing the timers as they were.
    kept_reads(ledger).items.clear()


def age_entries(ledger: Ledger, minutes: int) -> None:
    """Every hand recorded so far recorded `minutes` earlier than it was."""
    with ledger._session() as session, session.begin():
        for row in session.scalars(select(EntryRow)):
            row.created_at = row.created_at - timedelta(minutes=minutes)
    ledger._replays.clear()  # the cached replays hold the times as they were


def win(ledger: Ledger, table: str, winner: str, loser: str, tai: int = 1) -> None:
    ledger.record(table, WinRecord((WinnerRecord(winner, tai=tai),), loser))


def seated_event(book: EventBook, *, hands: int = 8, rounds: int = 3) -> str:
    """An sg event of the eight, listed first round, round 1 seated: Ann, Ben, Cat, Dan at
    table 1 and Eve, Fay, Gus, Hal at table 2."""
    event_id = book.create_event(
        "Night", "sg", None, EIGHT, rounds, seed=1, hands=hands, first_round="listed"
    ).id
    book.seat_round(event_id, 1)
    return event_id


def refused(action: Callable[[], Any]) -> Any:
    """The refusal `action` raises (a `CompanionError`)."""
    from companion.errors import CompanionError

    with pytest.raises(CompanionError) as raised:
        action()
    return raised.value


def http_event(client: Any) -> tuple[str, dict[str, str], list[str]]:
    """Over HTTP, the eight listed over two rounds of eight hands a table, round 1 seated: the
    event's id, the organiser's header, the tables' ids."""
    body = {"name": "N", "players": EIGHT, "rounds": 2, "first_round": "listed", "hands": 8}
    created = client.post("/api/events", json=body).json()
    event_id, auth = created["id"], {"authorization": f"Bearer {created['token']}"}
    seated = client.post(f"/api/events/{event_id}/rounds", json={"round": 1}, headers=auth)
    return event_id, auth, [table["table"] for table in seated.json()["tables"]]

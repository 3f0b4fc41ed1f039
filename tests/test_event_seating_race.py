"""Seating a round is one transaction (issue 41): eight organiser's tabs seating the same round
at once seat it once, and the requests that lose leave no ledger table behind (each used to
create its round's tables first and find the round seated after, 16 to 56 orphans a round)."""

from __future__ import annotations

import secrets
import threading

from sqlalchemy import func, select

from companion.ledger.event_book.errors import RoundOrderError
from companion.ledger.event_book.service import EventBook
from companion.ledger.models import TableRow
from companion.ledger.repository import Ledger

SIXTEEN = [f"P{number:02d}" for number in range(16)]
RACERS = 8


def test_eight_requests_seating_one_round_leave_no_orphan_tables(ledger_url: str) -> None:
    with Ledger.open(ledger_url) as ledger:
        book = EventBook(ledger)
        # A name of its own: this session's PostgreSQL database holds other tests' tables.
        name = f"Race {secrets.token_hex(4)}"
        created = book.create_event(name, "sg", {}, SIXTEEN, 3, first_round="listed")
        start = threading.Barrier(RACERS)
        seated: list[int] = []
        refused: list[str] = []

        def seat() -> None:
            start.wait()
            try:
                seated.append(len(book.seat_round(created.id, 1).tables))
            except RoundOrderError as error:
                refused.append(error.message)

        racers = [threading.Thread(target=seat) for _ in range(RACERS)]
        for racer in racers:
            racer.start()
        for racer in racers:
            racer.join()

        assert seated == [4], "seated once"
        assert refused == ["round 1 is already seated"] * (RACERS - 1)
        with ledger._session() as session:
            tables = session.scalar(
                select(func.count()).select_from(TableRow).where(TableRow.name.startswith(name))
            )
        assert tables == 4, f"{tables - 4} ledger tables left behind"
        assert [round_.number for round_ in book.event(created.id).seated] == [1]

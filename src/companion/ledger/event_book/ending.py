"""Tables ended early (issue 39): the organiser ends a table whose game is not over, with a
reason, either "as it stands" (its result as if the game ended after its last entry then: a
riichi table's uma and oka on its points, an MCR table's table points on the hands played, a
money table's totals) or "void" (no result: its players get the event's void score, or their
average of their other tables). Both count in the standings and stand in the organiser's record;
the organiser may reopen the table while its round is not closed (no later round seated). How
an ended table counts is `ended`."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from companion.ledger.event_book.checks import checked_text
from companion.ledger.event_book.ended import MODES
from companion.ledger.event_book.errors import EventError, RoundOrderError
from companion.ledger.event_book.records import Snapshot
from companion.ledger.event_book.store import EventStore
from companion.ledger.event_book.swap import table_of
from companion.ledger.event_book.views import AuditEntry
from companion.ledger.models import EntryRow, EventEndingRow, EventTableRow, TableRow
from companion.ledger.rows import now


class EndingError(RoundOrderError):
    """A table that cannot be ended (its game is over, or it was ended already) or reopened."""


class EventEndings(EventStore):
    """The part of `EventBook` that ends a table early and reopens it."""

    def end_table(
        self,
        event_id: str,
        number: int,
        mode: str,
        reason: str,
        *,
        round_number: int | None = None,
        by: str = "",
    ) -> AuditEntry:
        """End table `number` (of `round_number`, by default the latest seated round) before
        its game is over: `as-it-stands` or `void`, with a reason."""
        if mode not in MODES:
            raise EventError(
                f"a table is ended {' or '.join(MODES)}; got {mode!r}",
                key="refusal.day_end_mode",
                params={"mode": mode},
            )
        why = checked_text(reason, "the reason for ending a table", "refusal.day_end_reason")
        # The table's game read before the event is locked (a table's record is read in a
        # session of its own, which the lock would keep waiting on SQLite).
        before = self._read(event_id)
        seated = table_of(before, round_number, number)
        finished = bool(self.ledger.standings(seated.table_id)["finished"])

        def act(session: Session, snapshot: Snapshot) -> dict[str, Any]:
            table = table_of(snapshot, round_number, number)
            if any(row.table_id == table.table_id for row in snapshot.endings):
                raise EndingError(
                    f"table {table.number} of round {table.round} is ended already: reopen it "
                    "first to end it another way",
                    key="refusal.day_end_ended",
                    params={"round": table.round, "number": table.number},
                )
            if finished:
                raise EndingError(
                    f"table {table.number} of round {table.round} has finished its game: there "
                    "is nothing to end",
                    key="refusal.day_end_finished",
                    params={"round": table.round, "number": table.number},
                )
            last_seq = _lock_table(session, table)
            session.add(
                EventEndingRow(
                    table_id=table.table_id,
                    event_id=snapshot.record.id,
                    round=table.round,
                    number=table.number,
                    mode=mode,
                    last_seq=last_seq,
                    reason=why,
                    ended_at=now(),
                )
            )
            return {
                "round": table.round,
                "reason": why,
                "details": {
                    "table": table.number,
                    "table_id": table.table_id,
                    "mode": mode,
                    "last_seq": last_seq,
                },
            }

        return self._write(event_id, "end", act, by)

    def reopen_table(
        self, event_id: str, number: int, *, round_number: int | None = None, by: str = ""
    ) -> AuditEntry:
        """Take back a table's early end, while its round is not closed (no later round is
        seated): it plays on, and counts as its game stands."""

        def act(session: Session, snapshot: Snapshot) -> dict[str, Any]:
            table = table_of(snapshot, round_number, number)
            ending = next((row for row in snapshot.endings if row.table_id == table.table_id), None)
            if ending is None:
                raise EndingError(
                    f"table {table.number} of round {table.round} was not ended early: there is "
                    "nothing to reopen",
                    key="refusal.day_reopen_not_ended",
                    params={"round": table.round, "number": table.number},
                )
            if len(snapshot.rounds) > table.round:
                raise EndingError(
                    f"round {table.round} is closed (round {table.round + 1} is seated): its "
                    "tables' ends stand",
                    key="refusal.day_reopen_closed",
                    params={"round": table.round, "next": table.round + 1},
                )
            session.execute(delete(EventEndingRow).where(EventEndingRow.table_id == table.table_id))
            return {
                "round": table.round,
                "details": {"table": table.number, "table_id": table.table_id, "mode": ending.mode},
            }

        return self._write(event_id, "reopen", act, by)


def _lock_table(session: Session, table: EventTableRow) -> int:
    """The table locked as a hand's write locks it, and its last entry's number (0: none)."""
    session.scalars(
        select(TableRow.id).where(TableRow.id == table.table_id).with_for_update()
    ).all()
    last = session.scalar(select(func.max(EntryRow.seq)).where(EntryRow.table_id == table.table_id))
    return int(last or 0)

"""Taking a round's seating back: the last seated round, while no hand has been recorded at any
of its tables (issue 37: a round seated too early could not be undone). Its rows go in one
transaction, with its line in the organiser's record; the ledger tables it created stay in the
ledger, which is append-only, but no page of the event lists them any more."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from companion.ledger.event_book.errors import RoundOrderError
from companion.ledger.event_book.records import Snapshot
from companion.ledger.event_book.store import EventStore
from companion.ledger.event_book.views import AuditEntry
from companion.ledger.models import (
    EntryRow,
    EventRoundRow,
    EventTableRow,
    EventTimerRow,
    TableRow,
)


class EventUnseat(EventStore):
    """The part of `EventBook` that takes the last seating back."""

    def unseat_round(self, event_id: str, round_number: int, *, by: str = "") -> AuditEntry:
        """Take round `round_number`'s seating back: the last seated round, before a hand is
        recorded at any of its tables (a hand undone counts: its record is kept)."""

        def act(session: Session, snapshot: Snapshot) -> dict[str, Any]:
            last = len(snapshot.rounds)
            if not 1 <= round_number <= last:
                raise RoundOrderError(
                    f"round {round_number} is not seated: there is nothing to take back",
                    key="refusal.event_unseat_not_seated",
                    params={"round": round_number},
                )
            if round_number != last:
                raise RoundOrderError(
                    f"round {last} is seated after it: only the last seated round can be taken "
                    f"back; got round {round_number}",
                    key="refusal.event_unseat_not_last",
                    params={"round": round_number, "last": last},
                )
            tables = [table for table in snapshot.tables if table.round == round_number]
            ids = [table.table_id for table in tables]
            # The tables locked as a hand's write locks its table: no hand lands at a table
            # between this look and the seating's rows going.
            session.scalars(select(TableRow.id).where(TableRow.id.in_(ids)).with_for_update()).all()
            recorded = dict(
                session.execute(
                    select(EntryRow.table_id, func.count())
                    .where(EntryRow.table_id.in_(ids))
                    .group_by(EntryRow.table_id)
                ).all()
            )
            for table in tables:
                if recorded.get(table.table_id):
                    raise RoundOrderError(
                        f"table {table.number} of round {round_number} has a hand recorded: a "
                        "round's seating is taken back only before any of its tables records one",
                        key="refusal.event_unseat_played",
                        params={
                            "round": round_number,
                            "number": table.number,
                            "table": table.table_id,
                        },
                    )
            event = snapshot.record.id
            for model in (EventTableRow, EventTimerRow, EventRoundRow):
                session.execute(
                    delete(model).where(model.event_id == event, model.round == round_number)
                )
            return {
                "round": round_number,
                "details": {"tables": {str(table.number): table.table_id for table in tables}},
            }

        return self._write(event_id, "unseat", act, by)

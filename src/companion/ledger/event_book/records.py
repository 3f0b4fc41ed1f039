"""An event's rows on the ledger, read together in one transaction (`snapshot_of`), and the row
each organiser action adds to the event's record (`audit_row`). The tables of the database
are declared with the ledger's own in `companion.ledger.models`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from companion.events.plan import (
    Entrant,
    FirstRound,
    Leftover,
    Round,
    SeatingError,
    SeatingPlan,
    Table,
)
from companion.ledger.event_book.checks import LATER_ROUNDS
from companion.ledger.event_book.errors import UnknownEntrantError
from companion.ledger.models import (
    EventAuditRow,
    EventEndingRow,
    EventEntryRow,
    EventRecordRow,
    EventRoundRow,
    EventTableRow,
    EventTimerRow,
)
from companion.ledger.rows import now
from companion.names import clean_name, name_key
from companion.rules import get_profile


@dataclass(frozen=True)
class Snapshot:
    """An event's rows, read in one transaction."""

    record: EventRecordRow
    entries: tuple[EventEntryRow, ...]
    rounds: tuple[EventRoundRow, ...]
    tables: tuple[EventTableRow, ...]
    timers: tuple[EventTimerRow, ...]
    adjustments: tuple[EventAuditRow, ...]
    """The organiser's penalties and corrections, in the record's order."""
    endings: tuple[EventEndingRow, ...] = ()
    """The tables the organiser ended early (issue 39)."""

    def plan(self, entries: Sequence[Entrant] | None = None) -> SeatingPlan:
        record = self.record
        return SeatingPlan(
            tuple(entries_of(self.entries) if entries is None else entries),
            record.rounds,
            record.seed,
            FirstRound(record.first_round),
            LATER_ROUNDS[record.later_rounds],
            None if record.leftover is None else Leftover(record.leftover),
            len(get_profile(record.profile).seats),  # tables of three for sanma
        )

    def problem(self) -> SeatingError | None:
        """The seating's refusal of the field as it stands, or None."""
        try:
            self.plan()
        except SeatingError as refused:
            return refused
        return None

    def seated(self) -> list[Round]:
        """The rounds seated so far, as the seating reads them."""
        found = []
        for row in self.rounds:
            tables = sorted(
                (table for table in self.tables if table.round == row.round),
                key=lambda table: table.number,
            )
            found.append(
                Round(
                    row.round,
                    tuple(Table(table.number, tuple(table.players)) for table in tables),
                    tuple(row.byes),
                    tuple(row.substitutes),
                    row.repeats,
                    row.seat_repeats,
                )
            )
        return found

    def entrant(self, name: str) -> EventEntryRow:
        key = name_key(name)
        for entry in self.entries:
            if name_key(entry.name) == key:
                return entry
        raise UnknownEntrantError(
            f"no player named {clean_name(name) or repr(name)} in this event",
            key="refusal.event_unknown_player",
            params={"player": clean_name(name)},
        )

    def has_played(self, name: str) -> bool:
        return any(name in table.players for table in self.tables)


def snapshot_of(session: Session, record: EventRecordRow) -> Snapshot:
    """The rows of the event `record` holds, as they stand in `session`."""

    def rows(model: Any, *order: Any) -> tuple[Any, ...]:
        query = select(model).where(model.event_id == record.id).order_by(*order)
        return tuple(session.scalars(query))

    return Snapshot(
        record,
        rows(EventEntryRow, EventEntryRow.position),
        rows(EventRoundRow, EventRoundRow.round),
        rows(EventTableRow, EventTableRow.round, EventTableRow.number),
        rows(EventTimerRow, EventTimerRow.id),
        tuple(
            session.scalars(
                select(EventAuditRow)
                .where(EventAuditRow.event_id == record.id, EventAuditRow.kind == "adjust")
                .order_by(EventAuditRow.seq)
            )
        ),
        rows(EventEndingRow, EventEndingRow.round, EventEndingRow.number),
    )


def entries_of(rows: Sequence[EventEntryRow]) -> list[Entrant]:
    return [Entrant(row.name, row.joins, row.withdraws_after) for row in rows]


def audit_row(
    session: Session, event_id: str, kind: str, by: str, fields: Mapping[str, Any]
) -> EventAuditRow:
    last = session.scalar(
        select(func.max(EventAuditRow.seq)).where(EventAuditRow.event_id == event_id)
    )
    return EventAuditRow(
        event_id=event_id,
        seq=(last or 0) + 1,
        kind=kind,
        player=fields.get("player"),
        round=fields.get("round"),
        amount=fields.get("amount"),
        reason=fields.get("reason"),
        by_name=by,
        details=dict(fields.get("details") or {}),
        created_at=now(),
    )

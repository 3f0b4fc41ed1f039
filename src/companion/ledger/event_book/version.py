"""An event's version for its live streams, read in one transaction of three queries: its
tables, its organiser's last action, and the sum of its tables' last entries. The streams read
it on every write to any of its tables (issue 39: fifty tables' records replayed for each hand
were the day's bottleneck)."""

from __future__ import annotations

from sqlalchemy import func, select

from companion.ledger.event_book.store import EventStore
from companion.ledger.models import EntryRow, EventAuditRow, EventTableRow


class EventVersions(EventStore):
    """The part of `EventBook` that tells an event's version."""

    def version(self, event_id: str) -> tuple[int, frozenset[str], int]:
        """The event's version (its organiser's last action's number plus each seated table's
        last entry number: it only grows, and every change moves it), its tables' ids and
        that last action's number."""
        with self._guard(), self._session() as session, session.begin():
            record = self._record(session, event_id)
            tables = frozenset(
                session.scalars(
                    select(EventTableRow.table_id).where(EventTableRow.event_id == record.id)
                )
            )
            actions = session.scalar(
                select(func.max(EventAuditRow.seq)).where(EventAuditRow.event_id == record.id)
            )
            last = (
                select(func.max(EntryRow.seq).label("last"))
                .where(
                    EntryRow.table_id.in_(
                        select(EventTableRow.table_id).where(EventTableRow.event_id == record.id)
                    )
                )
                .group_by(EntryRow.table_id)
                .subquery()
            )
            entries = session.scalar(select(func.coalesce(func.sum(last.c.last), 0)))
        return int(actions or 0) + int(entries or 0), tables, int(actions or 0)

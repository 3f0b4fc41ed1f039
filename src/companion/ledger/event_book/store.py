"""Where an event's rows are read and written: each read in one transaction, and each organiser
action in one transaction that locks the event, checks the action against the record as it
stands, adds its rows and its line in the organiser's record, and tells the ledger's
listeners (the live streams) that the event moved on."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import replace
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from companion.ledger.checks import check_storable, idempotency_key
from companion.ledger.errors import IdempotencyConflictError
from companion.ledger.event_book.checks import checked_text
from companion.ledger.event_book.errors import EventError, UnknownEventRecordError
from companion.ledger.event_book.reads import EventRead, current_read
from companion.ledger.event_book.records import Snapshot, audit_row, snapshot_of
from companion.ledger.event_book.tables import (
    reading_session,
    standings_from,
    table_standings,
    version_query,
)
from companion.ledger.event_book.views import (
    AuditEntry,
    EventPlayer,
    EventView,
    audit_entry,
    event_view,
)
from companion.ledger.models import (
    EventAuditRow,
    EventRecordRow,
    EventTableRow,
)
from companion.ledger.repository import Ledger
from companion.ledger.state import table_key
from companion.ledger.store import WRITE_ATTEMPTS

EVENT_NOTICE = "event:"
"""How the news of an organiser's write names its event among the tables' (`event_notice`)."""


def event_notice(event_id: str) -> str:
    """What the ledger's listeners hear (`Ledger.add_listener`: `(name, seq)`) when the
    organiser writes to an event: `event:<id>` with the record's new number, beside the tables'
    ids. No table id holds a colon, so a listener for tables never mistakes one for a table."""
    return EVENT_NOTICE + event_id


def noticed_event(name: str) -> str | None:
    """The event a notice names, or None for a table's."""
    return name.removeprefix(EVENT_NOTICE) if name.startswith(EVENT_NOTICE) else None


def _fingerprint(asked: Mapping[str, Any]) -> str:
    """A stable digest of what an action asked for, kept with its key (as a table's write's)."""
    text = json.dumps(asked, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _seen(session: Session, event_id: str, key: str, digest: str) -> AuditEntry | None:
    """The action recorded under `key`, as a repeat; refused when it asked for another."""
    row = session.scalars(
        select(EventAuditRow).where(
            EventAuditRow.event_id == event_id, EventAuditRow.idempotency_key == key
        )
    ).one_or_none()
    if row is None:
        return None
    if row.fingerprint != digest:
        raise IdempotencyConflictError(
            f"the key '{key}' was already used for another action of this event (action "
            f"{row.seq}): nothing recorded",
            key="refusal.event_key_reused",
            params={"used": key, "seq": row.seq},
        )
    return replace(audit_entry(row), duplicate=True)


def _unknown(event_id: str) -> UnknownEventRecordError:
    return UnknownEventRecordError(
        f"no event with id {event_id.strip()!r}",
        key="refusal.event_unknown",
        params={"event": event_id.strip()},
    )


class EventStore:
    """An event's rows on one ledger: the base of `EventBook`, whose parts (rounds, players,
    the leaderboard, access) read and write through it. Thread-safe: each call uses its own
    session."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self.engine = ledger.engine

    # -- sessions ------------------------------------------------------------------------------

    def _session(self) -> Session:
        return self.ledger._session()

    def _reading(self) -> Session:
        """A session that only reads (`reading_session`)."""
        return reading_session(self.ledger)

    def _guard(self) -> AbstractContextManager[None]:
        """Database failures as one line for a player, as the ledger says them."""
        return self.ledger._guard()

    def _record(self, session: Session, event_id: str, *, lock: bool = False) -> EventRecordRow:
        check_storable(event_id, "an event id")
        query = select(EventRecordRow).where(EventRecordRow.id == table_key(event_id))
        if lock:
            query = query.with_for_update()
        row = session.scalars(query).one_or_none()
        if row is None:
            raise _unknown(event_id)
        return row

    def _snapshot(self, session: Session, event_id: str, *, lock: bool = False) -> Snapshot:
        return snapshot_of(session, self._record(session, event_id, lock=lock))

    def _read(self, event_id: str) -> Snapshot:
        with self._guard(), self._reading() as session, session.begin():
            return self._snapshot(session, event_id)

    def _write(
        self,
        event_id: str,
        kind: str,
        act: Callable[[Session, Snapshot], dict[str, Any]],
        by: str,
        *,
        key: str | None = None,
        asked: Mapping[str, Any] | None = None,
    ) -> AuditEntry:
        """One organiser action in one transaction: the event locked, `act` checks it against
        the record as it stands and adds its rows, and the action joins the audit record
        (`act` returns the audit row's fields).

        With an idempotency `key` (a phone that sends again what it may have sent), an action
        recorded under it before is the answer and nothing new is recorded (`duplicate`); the
        same key for another action (`asked` differs) is refused. The key is looked up with
        the event locked, so two copies sent at once record one action."""
        by = checked_text(by, "by (who decides)", "refusal.event_by", required=False)
        check_storable(key, "an idempotency key")
        key = idempotency_key(key)
        digest = _fingerprint({"kind": kind, "by": by, **(asked or {})})
        for attempt in range(WRITE_ATTEMPTS):
            try:
                with self._guard(), self._session() as session, session.begin():
                    snapshot = self._snapshot(session, event_id, lock=True)
                    if key is not None:
                        seen = _seen(session, snapshot.record.id, key, digest)
                        if seen is not None:
                            return seen
                    fields = act(session, snapshot)
                    audit = audit_row(session, snapshot.record.id, kind, by, fields)
                    if key is not None:
                        audit.idempotency_key, audit.fingerprint = key, digest
                    session.add(audit)
                    session.flush()
                    # The ledger's own news of writes carries the event's too (see
                    # `event_notice`): on PostgreSQL inside this transaction, to every process.
                    self.ledger._notify(session, event_notice(snapshot.record.id), audit.seq)
                self.ledger._announce(event_notice(snapshot.record.id), audit.seq)
                return audit_entry(audit)
            except IntegrityError:
                if attempt == WRITE_ATTEMPTS - 1:
                    raise EventError("the event is busy: try again") from None
                time.sleep(0.005 * 2**attempt)
        raise AssertionError("unreachable")

    def _entrant_now(self, event_id: str, name: str) -> EventPlayer:
        """A player as the record stands (the answer to a join or withdrawal sent again)."""
        entry = self._read(event_id).entrant(name)
        return EventPlayer(entry.name, entry.joins, entry.withdraws_after, duplicate=True)

    def event(self, event_id: str) -> EventView:
        """The event as it stands: its setup, its players and every round seated so far."""
        return self.current(event_id).view

    def version(self, event_id: str) -> int:
        """The event's version (`tables.version_query`), in one statement."""
        return self.progress(event_id)[0]

    def progress(
        self, event_id: str, *, with_tables: bool = False
    ) -> tuple[int, int, frozenset[str]]:
        """The event's version (`tables.version_query`: the organiser's last action's number
        plus the sum of its tables' last entries' numbers), that last action's number, and
        (asked for, as the live streams do) the ids of its tables: one reading transaction,
        no table read or replayed. Pages, the API and the streams read this one version."""
        check_storable(event_id, "an event id")
        key = table_key(event_id)
        with self._guard(), self._reading() as session, session.begin():
            found = session.execute(version_query(key)).one_or_none()
            if found is None:
                raise _unknown(event_id)
            tables = (
                frozenset(
                    session.scalars(
                        select(EventTableRow.table_id).where(EventTableRow.event_id == key)
                    )
                )
                if with_tables
                else frozenset()
            )
        actions, entries = int(found[0]), int(found[1])
        return actions + entries, actions, tables

    def current(self, event_id: str) -> EventRead:
        """The event and its standings at its version: kept from the read before when the
        version has not moved (`reads`), else read with its tables (`tables`); the event's own
        rows are read again only when an organiser's action moved it (else a hand did)."""

        def work_out(before: EventRead | None) -> EventRead:
            if before is not None and before.actions == actions:
                snapshot = before.snapshot
            else:
                snapshot = self._read(event_id)
            tables = table_standings(self.ledger, snapshot)
            view = event_view(snapshot, tables)
            board = standings_from(snapshot, tables)
            return EventRead(
                version, view, board, view.to_json(), board.to_json(), snapshot, actions
            )

        version, actions, _ = self.progress(event_id)
        return current_read(self.ledger, table_key(event_id), version, work_out)

    def audit(self, event_id: str) -> tuple[AuditEntry, ...]:
        """The organiser's record of the event, oldest first."""
        with self._guard(), self._reading() as session, session.begin():
            record = self._record(session, event_id)
            rows = session.scalars(
                select(EventAuditRow)
                .where(EventAuditRow.event_id == record.id)
                .order_by(EventAuditRow.seq)
            )
            return tuple(audit_entry(row) for row in rows)

"""The database under the ledger: sessions, database failures as one line for a player, a
table's rows and its replay (cached), the one write transaction, and the news of each write.

Every write is one transaction: lock the table (PostgreSQL: `SELECT ... FOR UPDATE` on its row;
SQLite: the whole database, by `BEGIN IMMEDIATE`), look up the idempotency key, replay the
record, build the new entry against the state at its place, append it with the next entry
number, commit. The unique constraints on (table, entry number) and (table, key) are the last
line of defence: a write that meets one rolls back and runs again from the start.
"""

from __future__ import annotations

import random
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, select, text
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session

from companion.ledger import db
from companion.ledger.checks import check_storable, check_totals, idempotency_key, unstorable
from companion.ledger.entries import Correction, Entry, Outcome
from companion.ledger.errors import (
    IdempotencyConflictError,
    TableBusyError,
    TableEndedError,
    UnknownTableError,
)
from companion.ledger.models import EntryRow, EventEndingRow, TableRow
from companion.ledger.records import fingerprint
from companion.ledger.replay import HistoryEntry, Replay, check_planned, extend, replay
from companion.ledger.rows import entry_of, entry_row, now, setup_of
from companion.ledger.state import TableSetup, table_key

WRITE_ATTEMPTS = 8
"""How often a write is tried when it meets a unique constraint (a concurrent writer)."""
_CACHED_TABLES = 256

EntryMaker = Callable[[Replay], Outcome | Correction]
"""What a write appends, built from the record as it stands (inside the write's transaction)."""

NOTIFY_CHANNEL = "companion_ledger_events"
"""The PostgreSQL channel writes are announced on (see `TableStore.notify_channel`); its name
stays, as every running server listens on it."""


@dataclass(frozen=True)
class Recorded:
    """The result of a write: the entry and the replayed record that includes it."""

    stored: Entry
    replay: Replay
    duplicate: bool = False
    """True when the idempotency key had been seen: nothing new was recorded, and `stored` is
    the one recorded the first time."""

    @property
    def entry(self) -> HistoryEntry:
        return self.replay.entry(self.stored.seq)


class TableStore:
    """The tables and entries on one database, and the last replay of each recently used table.
    Thread-safe: each call uses its own session. `Ledger` (`ledger/repository.py`) builds the
    service on it."""

    def __init__(self, engine: Engine, *, migrate: bool = True) -> None:
        self.engine = engine
        # The last replay of each recently used table. The record is append-only, so a cached
        # replay stays true up to its last entry and only newer entries need reading.
        self._replays: OrderedDict[str, Replay] = OrderedDict()
        self._replays_lock = threading.Lock()
        self._listeners: list[Callable[[str, int], None]] = []
        self._listeners_lock = threading.Lock()
        if migrate:
            db.migrate(engine)

    # -- news of writes (the live streams) ----------------------------------------------------

    @property
    def notify_channel(self) -> str | None:
        """The PostgreSQL channel every write is announced on (`NOTIFY`, payload "table:seq");
        None on SQLite, where only this process's listeners hear of writes."""
        return NOTIFY_CHANNEL if self.engine.dialect.name == "postgresql" else None

    def libpq_url(self) -> str:
        """The database's address as psycopg takes it (for a `LISTEN` connection)."""
        url = self.engine.url.set(drivername="postgresql")
        return url.render_as_string(hide_password=False)

    def add_listener(self, listener: Callable[[str, int], None]) -> None:
        """Call `listener(table_id, seq)` after each write this process commits."""
        with self._listeners_lock:
            self._listeners.append(listener)

    def remove_listener(self, listener: Callable[[str, int], None]) -> None:
        with self._listeners_lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    def _notify(self, session: Session, table_id: str, seq: int) -> None:
        """On PostgreSQL, announce the write inside its own transaction: the notice is delivered
        (to every process listening) only if the write commits."""
        channel = self.notify_channel
        if channel is not None:
            session.execute(
                text("SELECT pg_notify(:channel, :payload)"),
                {"channel": channel, "payload": f"{table_id}:{seq}"},
            )

    def _announce(self, table_id: str, seq: int) -> None:
        with self._listeners_lock:
            listeners = list(self._listeners)
        for listener in listeners:
            listener(table_id, seq)

    # -- reading -----------------------------------------------------------------------------

    def _session(self) -> Session:
        return Session(self.engine, expire_on_commit=False)

    @contextmanager
    def _guard(self) -> Iterator[None]:
        """Database failures (server gone, file unreadable) as one line for a player."""
        try:
            yield
        except IntegrityError:
            raise
        except DBAPIError as error:
            raise db.DatabaseError(db.describe_error(self.engine, error)) from error

    def _table(self, session: Session, table_id: str, *, lock: bool = False) -> TableRow:
        if unstorable(table_id):  # no table has such an id: not a question for the database
            raise UnknownTableError(f"no table with id {table_id.strip()!r}")
        query = select(TableRow).where(TableRow.id == table_key(table_id))
        if lock:
            query = query.with_for_update()
        row = session.scalars(query).one_or_none()
        if row is None:
            raise UnknownTableError(f"no table with id {table_id.strip()!r}")
        return row

    def _entries(self, session: Session, table_id: str, after: int = 0) -> list[Entry]:
        rows = session.scalars(
            select(EntryRow)
            .where(EntryRow.table_id == table_id, EntryRow.seq > after)
            .order_by(EntryRow.seq)
        )
        return [entry_of(row) for row in rows]

    def _replayed(self, session: Session, table_id: str, setup: TableSetup) -> Replay:
        """The whole record replayed: the cached replay extended by the entries recorded since,
        or, when one of those is a correction (it rewrites earlier entries), replayed anew."""
        with self._replays_lock:
            cached = self._replays.get(table_id)
        if cached is not None and cached.setup == setup:
            last = cached.entries[-1].stored.seq if cached.entries else 0
            newer = self._entries(session, table_id, after=last)
            if not any(isinstance(stored.body, Correction) for stored in newer):
                replayed = cached
                for stored in newer:
                    replayed = extend(replayed, stored)
                self._remember(table_id, replayed)
                return replayed
        replayed = replay(setup, self._entries(session, table_id))
        self._remember(table_id, replayed)
        return replayed

    def _remember(self, table_id: str, replayed: Replay) -> None:
        with self._replays_lock:
            self._replays[table_id] = replayed
            self._replays.move_to_end(table_id)
            while len(self._replays) > _CACHED_TABLES:
                self._replays.popitem(last=False)

    # -- writing -----------------------------------------------------------------------------

    def _append(
        self,
        table_id: str,
        operation: Mapping[str, Any],
        key: str | None,
        make: EntryMaker,
    ) -> Recorded:
        """Append the entry `make` builds from the record as it stands, in one transaction; a
        key seen before records nothing new (`operation` tells a reuse for another entry)."""
        check_storable(key, "an idempotency key")
        check_storable(operation, "the entry")
        key = idempotency_key(key)
        digest = fingerprint(operation)
        for attempt in range(WRITE_ATTEMPTS):
            try:
                with self._session() as session, session.begin():
                    table = self._table(session, table_id, lock=True)
                    setup = setup_of(table)
                    if key is not None:
                        seen = session.scalars(
                            select(EntryRow).where(
                                EntryRow.table_id == table.id, EntryRow.idempotency_key == key
                            )
                        ).one_or_none()
                        if seen is not None:
                            return self._seen(session, table.id, setup, seen, digest)
                    replayed = self._replayed(session, table.id, setup)
                    body = make(replayed)
                    if not isinstance(body, Correction):
                        _refuse_ended(session, table.id)
                    entries = replayed.entries
                    new = Entry(entries[-1].stored.seq + 1 if entries else 1, now(), body, key)
                    after = (
                        replay(setup, [*(entry.stored for entry in entries), new])
                        if isinstance(body, Correction)
                        else extend(replayed, new)
                    )
                    check_planned(after)
                    check_totals(setup.players, after.state.totals)
                    session.add(entry_row(table.id, new, digest))
                    session.flush()
                    self._notify(session, table.id, new.seq)
                self._remember(table.id, after)
                self._announce(table.id, new.seq)
                return Recorded(new, after)
            except IntegrityError:
                if attempt == WRITE_ATTEMPTS - 1:
                    raise TableBusyError(
                        "the table is busy: another entry was being recorded; try again"
                    ) from None
                # Let the writers that collided come apart: a short, growing, random pause.
                time.sleep(random.uniform(0, 0.005 * 2**attempt))
            except DBAPIError as error:
                raise db.DatabaseError(db.describe_error(self.engine, error)) from error
        raise AssertionError("unreachable")

    def _seen(
        self, session: Session, table_id: str, setup: TableSetup, row: EntryRow, digest: str
    ) -> Recorded:
        _refuse_another_entry(row, digest)
        return Recorded(entry_of(row), self._replayed(session, table_id, setup), True)

    def _check_key(self, table_id: str, operation: Mapping[str, Any], key: str | None) -> None:
        """Refuse, as `_append` would, a key already used for another entry: what a preview
        asks before it says an entry is recordable."""
        check_storable(key, "an idempotency key")
        key = idempotency_key(key)
        if key is None:
            return
        with self._guard(), self._session() as session, session.begin():
            table = self._table(session, table_id)
            seen = session.scalars(
                select(EntryRow).where(
                    EntryRow.table_id == table.id, EntryRow.idempotency_key == key
                )
            ).one_or_none()
            if seen is not None:
                _refuse_another_entry(seen, fingerprint(operation))


def _refuse_ended(session: Session, table_id: str) -> None:
    """`TableEndedError` when an event's organiser ended the table early (issue 39): a hand
    recorded after would not count, so none is taken until the table is reopened. Read under
    the table's lock, which ending a table takes too. A correction of an earlier hand is still
    taken: it counts in the result as it stands."""
    ended = session.scalars(
        select(EventEndingRow).where(EventEndingRow.table_id == table_id)
    ).one_or_none()
    if ended is not None:
        raise TableEndedError(
            f"table {ended.number} of round {ended.round} was ended early by the event's "
            "organiser: no hand is recorded at it unless they reopen it",
            key="refusal.day_table_ended",
            params={"round": ended.round, "number": ended.number},
        )


def _refuse_another_entry(row: EntryRow, digest: str) -> None:
    """`IdempotencyConflictError` when the entry recorded under a key asked for something else."""
    if row.fingerprint != digest:
        raise IdempotencyConflictError(
            f"the key {row.idempotency_key!r} was already used for entry {row.seq} "
            f"({row.kind}), which asked for something else: nothing recorded"
        )

"""The ledger's persistence and service API: what the command line and the web app call.

Every write is one transaction: lock the table (PostgreSQL: `SELECT ... FOR UPDATE` on its row;
SQLite: the whole database, by `BEGIN IMMEDIATE`), look up the idempotency key, replay the
record, build the new event against the state at its place, append it with the next event
number, commit. The unique constraints on (table, event number) and (table, key) are the last
line of defence: a write that meets one rolls back and runs again from the start.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, select, text
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session

from companion.ledger import db
from companion.ledger.build import build_outcome
from companion.ledger.checks import (
    check_storable,
    corrected_by,
    correction_reason,
    idempotency_key,
    unstorable,
)
from companion.ledger.entries import (
    Correction,
    DrawInput,
    Entry,
    Event,
    Outcome,
    PayoutInput,
    WinInput,
    WinnerInput,
    fingerprint,
    outcome_from_json,
)
from companion.ledger.errors import (
    IdempotencyConflictError,
    LedgerError,
    LimitError,
    StaleWriteError,
    TableBusyError,
    TableFinishedError,
    UnknownEventError,
    UnknownTableError,
)
from companion.ledger.export import export_csv, export_json
from companion.ledger.models import EventRow, PlayerRow, TableRow
from companion.ledger.replay import HistoryEntry, Replay, correction_target, extend, replay
from companion.ledger.settle import Transfer, settle_up
from companion.ledger.state import (
    MAX_EVENTS,
    TableSetup,
    new_setup,
    table_key,
)

WRITE_ATTEMPTS = 8
_CACHED_TABLES = 256
"""How often a write is tried when it meets a unique constraint (a concurrent writer)."""

NOTIFY_CHANNEL = "companion_ledger_events"
"""The PostgreSQL channel writes are announced on (see `Ledger.notify_channel`)."""

_ID_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
_ID_LENGTH = 8


@dataclass(frozen=True)
class NewTable:
    id: str
    token: str
    """The write token, shown once: only its SHA-256 is stored."""
    setup: TableSetup


@dataclass(frozen=True)
class Recorded:
    """The result of a write: the event and the replayed record that includes it."""

    event: Event
    replay: Replay
    duplicate: bool = False
    """True when the idempotency key had been seen: nothing new was recorded, and `event` is
    the one recorded the first time."""

    @property
    def entry(self) -> HistoryEntry:
        return self.replay.entry(self.event.seq)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Ledger:
    """The table ledger on one database. Thread-safe: each call uses its own session."""

    def __init__(self, engine: Engine, *, migrate: bool = True) -> None:
        self.engine = engine
        # The last replay of each recently used table. The record is append-only, so a cached
        # replay stays true up to its last event and only newer events need reading.
        self._replays: OrderedDict[str, Replay] = OrderedDict()
        self._replays_lock = threading.Lock()
        self._listeners: list[Callable[[str, int], None]] = []
        self._listeners_lock = threading.Lock()
        if migrate:
            db.migrate(engine)

    @classmethod
    def open(cls, url: str | None = None) -> Ledger:
        """Open (and migrate) the database at `url`, `COMPANION_DATABASE_URL` or the default."""
        return cls(db.create_ledger_engine(db.resolve_url(url)))

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # -- tables ------------------------------------------------------------------------------

    def create_table(
        self,
        profile: str,
        players: Sequence[str],
        *,
        options: Mapping[str, Any] | None = None,
        hands: int | None = None,
        name: str = "",
        rounds: int | None = None,
    ) -> NewTable:
        """A new table; players in seat order, the first is East and deals first."""
        check_storable(list(players), "a player's name")
        check_storable(options, "an option")
        check_storable(name, "the table's name")
        setup = new_setup(profile, players, options, hands, name, rounds)
        token = secrets.token_urlsafe(24)
        for _ in range(WRITE_ATTEMPTS):
            table_id = "".join(secrets.choice(_ID_ALPHABET) for _ in range(_ID_LENGTH))
            try:
                with self._guard(), self._session() as session, session.begin():
                    session.add(
                        TableRow(
                            id=table_id,
                            profile=setup.profile,
                            options=dict(setup.options),
                            planned_hands=setup.planned_hands,
                            planned_rounds=setup.planned_rounds,
                            name=setup.name or None,
                            token_hash=hash_token(token),
                            created_at=_now(),
                            players=[
                                PlayerRow(seat=seat, name=name)
                                for seat, name in enumerate(setup.players)
                            ],
                        )
                    )
                return NewTable(table_id, token, setup)
            except IntegrityError:
                continue
        raise LedgerError("could not find a free table id; try again")

    def verify_token(self, table_id: str, token: str) -> bool:
        """Whether `token` is the table's write token (constant-time comparison)."""
        with self._guard(), self._session() as session, session.begin():
            row = self._table(session, table_id)
            return hmac.compare_digest(row.token_hash, hash_token(token))

    def setup(self, table_id: str) -> TableSetup:
        with self._guard(), self._session() as session, session.begin():
            return _setup(self._table(session, table_id))

    def replay(self, table_id: str) -> Replay:
        """The record replayed: setup, current state, and every event as corrected."""
        with self._guard(), self._session() as session, session.begin():
            table = self._table(session, table_id)
            return self._replayed(session, table.id, _setup(table))

    def standings(self, table_id: str) -> dict[str, Any]:
        replayed = self.replay(table_id)
        return {"id": table_key(table_id), "profile": replayed.setup.profile} | (
            replayed.state.to_json()
        )

    def history(self, table_id: str) -> tuple[HistoryEntry, ...]:
        return self.replay(table_id).entries

    # -- writes ------------------------------------------------------------------------------

    def record(
        self,
        table_id: str,
        entry: Entry,
        *,
        key: str | None = None,
        expect_hand: int | None = None,
    ) -> Recorded:
        """Record a win, a drawn hand or an instant payout as the next event.

        `expect_hand`: the hand number the writer believes it is recording (an instant payout:
        the hand it happened in). When another writer has recorded that hand meanwhile, the
        write is refused (`StaleWriteError`) instead of recording the hand twice."""

        def make(replayed: Replay) -> Outcome:
            return next_outcome(replayed, entry, expect_hand)

        return self._write(table_id, {"op": "record", **entry.to_json()}, key, make)

    def preview(
        self, table_id: str, entry: Entry, *, expect_hand: int | None = None
    ) -> tuple[Outcome, Replay]:
        """What `record` would record now, without recording it: the outcome, scored and
        settled exactly as a write would be, and the record it would follow."""
        replayed = self.replay(table_id)
        return next_outcome(replayed, entry, expect_hand), replayed

    def record_win(
        self,
        table_id: str,
        winners: Sequence[WinnerInput],
        *,
        discarder: str | None = None,
        liable: str | None = None,
        key: str | None = None,
        expect_hand: int | None = None,
    ) -> Recorded:
        """A win: one winner (several on one discard in `tw`), each with agreed tai or a hand.
        `discarder` None is a self-draw."""
        entry = WinInput(tuple(winners), discarder, liable)
        return self.record(table_id, entry, key=key, expect_hand=expect_hand)

    def record_draw(
        self, table_id: str, *, key: str | None = None, expect_hand: int | None = None
    ) -> Recorded:
        return self.record(table_id, DrawInput(), key=key, expect_hand=expect_hand)

    def record_payout(
        self,
        table_id: str,
        player: str,
        event: str,
        *,
        at_start: bool = False,
        key: str | None = None,
        expect_hand: int | None = None,
    ) -> Recorded:
        entry = PayoutInput(player, event, at_start)
        return self.record(table_id, entry, key=key, expect_hand=expect_hand)

    def void(
        self,
        table_id: str,
        seq: int,
        *,
        reason: str,
        by: str = "",
        key: str | None = None,
        expect: int | None = None,
    ) -> Recorded:
        """Void the outcome recorded as event `seq`: it stays in the history and counts for
        nothing; rotation and totals follow the record without it. `expect`: the event's version
        the writer saw (refused when it was corrected since)."""
        reason, by = correction_reason(reason), corrected_by(by)

        def make(replayed: Replay) -> Correction:
            target = correction_target(replayed, seq, expect)
            if target.status == "voided":
                raise UnknownEventError(
                    f"event {seq} is already void (event {target.corrected_by})"
                )
            return Correction(seq, None, reason, by)

        operation = {"op": "void", "target": seq, "reason": reason, "by": by}
        return self._write(table_id, operation, key, make)

    def amend(
        self,
        table_id: str,
        seq: int,
        entry: Entry,
        *,
        reason: str,
        by: str = "",
        key: str | None = None,
        expect: int | None = None,
    ) -> Recorded:
        """Replace the outcome recorded as event `seq` by `entry`, scored against the state at
        that place in the record. The original stays in the history. `expect` as for `void`."""
        reason, by = correction_reason(reason), corrected_by(by)

        def make(replayed: Replay) -> Correction:
            target = correction_target(replayed, seq, expect)
            outcome = build_outcome(replayed.setup, target.before, entry)
            return Correction(seq, outcome, reason, by)

        operation = {"op": "amend", "target": seq, "reason": reason, "by": by, **entry.to_json()}
        return self._write(table_id, operation, key, make)

    # -- settle-up and export ----------------------------------------------------------------

    def settle_up(self, table_id: str) -> list[Transfer]:
        """The fewest transfers that square the table now."""
        return settle_up(self.replay(table_id).state.totals)

    def export_json(self, table_id: str) -> dict[str, Any]:
        with self._guard(), self._session() as session, session.begin():
            table = self._table(session, table_id)
            replayed = self._replayed(session, table.id, _setup(table))
            created = _aware(table.created_at)
        return export_json(table.id, created, replayed)

    def export_csv(self, table_id: str) -> str:
        return export_csv(self.replay(table_id))

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

    # -- internals ---------------------------------------------------------------------------

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

    def _events(self, session: Session, table_id: str, after: int = 0) -> list[Event]:
        rows = session.scalars(
            select(EventRow)
            .where(EventRow.table_id == table_id, EventRow.seq > after)
            .order_by(EventRow.seq)
        )
        return [_event(row) for row in rows]

    def _replayed(self, session: Session, table_id: str, setup: TableSetup) -> Replay:
        """The whole record replayed: the cached replay extended by the events recorded since,
        or, when one of those is a correction (it rewrites earlier entries), replayed anew."""
        with self._replays_lock:
            cached = self._replays.get(table_id)
        if cached is not None and cached.setup == setup:
            last = cached.entries[-1].event.seq if cached.entries else 0
            newer = self._events(session, table_id, after=last)
            if not any(isinstance(event.body, Correction) for event in newer):
                replayed = cached
                for event in newer:
                    replayed = extend(replayed, event)
                self._remember(table_id, replayed)
                return replayed
        replayed = replay(setup, self._events(session, table_id))
        self._remember(table_id, replayed)
        return replayed

    def _remember(self, table_id: str, replayed: Replay) -> None:
        with self._replays_lock:
            self._replays[table_id] = replayed
            self._replays.move_to_end(table_id)
            while len(self._replays) > _CACHED_TABLES:
                self._replays.popitem(last=False)

    def _write(
        self,
        table_id: str,
        operation: Mapping[str, Any],
        key: str | None,
        make: Callable[[Replay], Outcome | Correction],
    ) -> Recorded:
        check_storable(key, "an idempotency key")
        check_storable(operation, "the entry")
        key = idempotency_key(key)
        digest = fingerprint(operation)
        for attempt in range(WRITE_ATTEMPTS):
            try:
                with self._session() as session, session.begin():
                    table = self._table(session, table_id, lock=True)
                    setup = _setup(table)
                    if key is not None:
                        seen = session.scalars(
                            select(EventRow).where(
                                EventRow.table_id == table.id, EventRow.idempotency_key == key
                            )
                        ).one_or_none()
                        if seen is not None:
                            return self._seen(session, table.id, setup, seen, digest)
                    replayed = self._replayed(session, table.id, setup)
                    if len(replayed.entries) >= MAX_EVENTS:
                        raise LimitError(
                            f"a table holds at most {MAX_EVENTS:,} events: this one is full; "
                            "start a new table"
                        )
                    body = make(replayed)
                    entries = replayed.entries
                    new = Event(entries[-1].event.seq + 1 if entries else 1, _now(), body, key)
                    after = (
                        replay(setup, [*(entry.event for entry in entries), new])
                        if isinstance(body, Correction)
                        else extend(replayed, new)
                    )
                    _check_planned(after)
                    session.add(_row(table.id, new, digest))
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
        self, session: Session, table_id: str, setup: TableSetup, row: EventRow, digest: str
    ) -> Recorded:
        if row.fingerprint != digest:
            raise IdempotencyConflictError(
                f"the key {row.idempotency_key!r} was already used for event {row.seq} "
                f"({row.kind}), which asked for something else: nothing recorded"
            )
        return Recorded(_event(row), self._replayed(session, table_id, setup), True)


def next_outcome(replayed: Replay, entry: Entry, expect_hand: int | None) -> Outcome:
    """The outcome `entry` records as the record's next event; refused when the table is
    finished or `expect_hand` is not the hand being played."""
    state = replayed.state
    if state.finished:
        raise TableFinishedError(state.finished_text)
    if expect_hand is not None and expect_hand < state.next_hand:
        raise StaleWriteError(
            f"hand {expect_hand} is already recorded and the next is hand "
            f"{state.next_hand}: see the history before recording it again"
        )
    if expect_hand is not None and expect_hand > state.next_hand:
        raise StaleWriteError(
            f"hand {expect_hand} is not being played yet: the next is hand {state.next_hand}"
        )
    return build_outcome(replayed.setup, state, entry)


# ---------------------------------------------------------------------------------------------
# Rows and values


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; every stored one is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _check_planned(after: Replay) -> None:
    planned = after.state.planned_hands
    if planned is not None and after.state.hands > planned:
        raise TableFinishedError(f"the table's {planned} hands are all played")


def _setup(row: TableRow) -> TableSetup:
    return TableSetup(
        row.profile,
        tuple(player.name for player in row.players),
        dict(row.options),
        row.planned_hands,
        row.name or "",
        row.planned_rounds,
    )


def _event(row: EventRow) -> Event:
    body: Outcome | Correction
    if row.kind in ("void", "amend"):
        assert row.target_seq is not None
        replacement = outcome_from_json(row.payload) if row.kind == "amend" else None
        body = Correction(row.target_seq, replacement, row.reason or "", row.by_name)
    else:
        body = outcome_from_json(row.payload)
    return Event(row.seq, _aware(row.created_at), body, row.idempotency_key)


def _row(table_id: str, event: Event, digest: str) -> EventRow:
    body = event.body
    if isinstance(body, Correction):
        payload = {} if body.replacement is None else body.replacement.to_json()
        target, reason, by = body.target, body.reason, body.by
    else:
        payload = body.to_json()
        target, reason, by = None, None, ""
    return EventRow(
        table_id=table_id,
        seq=event.seq,
        kind=body.kind,
        payload=payload,
        target_seq=target,
        reason=reason,
        by_name=by,
        idempotency_key=event.key,
        fingerprint=digest if event.key is not None else None,
        created_at=event.at,
    )

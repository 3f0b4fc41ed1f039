"""An event's tables read together: each seated table's standings from a few queries for all of
them (not a session and three queries a table), kept by the table's last entry number, and the
event's version in one statement.

A big event (400 players seated for 40 rounds: 4,000 ledger tables) read its tables one at a
time for every page, leaderboard and stream message (issue 41): 15 s a read. Here the event's
tables, their players and the entries of the tables that changed are each one query, joined to
the event's rows, and a table's standings are kept (per ledger, for the few events read lately)
with the number of its last entry and its players: the record is append-only and every change
to a table's standings is an entry, so a table whose last entry is the one kept is not read or
replayed again. A hand recorded at one table costs one table's replay at the next read.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any, Generic, TypeVar
from weakref import WeakKeyDictionary

from sqlalchemy import func, select
from sqlalchemy.orm import Session, lazyload

from companion.events.standings import (
    Adjustment,
    StandingRule,
    Standings,
    standing_rule,
    standings,
    table_result,
)
from companion.ledger.db import READ_ONLY
from companion.ledger.entries import Entry
from companion.ledger.event_book.ended import counted_standings, stands_at, with_voids
from companion.ledger.event_book.records import Snapshot
from companion.ledger.models import (
    EntryRow,
    EventAuditRow,
    EventRecordRow,
    EventTableRow,
    PlayerRow,
    TableRow,
)
from companion.ledger.replay import Replay, replay
from companion.ledger.repository import Ledger
from companion.ledger.rows import aware, entry_of, setup_of
from companion.rules import get_profile

KEPT_EVENTS = 16
"""Events whose tables' standings a ledger keeps (least recently read first out)."""
FEW_TABLES = 200
"""Up to this many tables that changed are read by their ids; more, with the whole event."""

T = TypeVar("T")

TableKey = tuple[int, tuple[str, ...], int | None]
"""What a kept table's standings are kept by: its last entry number, its players (a seat fix
sets them anew) and the entry after which it was ended "as it stands" (`ended.stands_at`: an end
or a reopen changes what the same record counts)."""


class _Kept:
    """One ledger's kept standings: event id -> table id -> (key, standings)."""

    def __init__(self) -> None:
        self.events: OrderedDict[str, dict[str, tuple[TableKey, dict[str, Any]]]] = OrderedDict()
        self.lock = threading.Lock()

    def tables(self, event_id: str) -> dict[str, tuple[TableKey, dict[str, Any]]]:
        with self.lock:
            found = self.events.pop(event_id, None)
            self.events[event_id] = found = {} if found is None else found
            while len(self.events) > KEPT_EVENTS:
                self.events.popitem(last=False)
            return found


class PerLedger(Generic[T]):
    """One `T` for each open ledger, made on first use (and gone with the ledger)."""

    def __init__(self, make: Callable[[], T]) -> None:
        self._make = make
        self._items: WeakKeyDictionary[Ledger, T] = WeakKeyDictionary()
        self._lock = threading.Lock()

    def __call__(self, ledger: Ledger) -> T:
        with self._lock:
            found = self._items.get(ledger)
            if found is None:
                self._items[ledger] = found = self._make()
            return found


_kept = PerLedger(_Kept)


def reading_session(ledger: Ledger) -> Session:
    """A session for reads alone: on SQLite its transaction takes no write lock (`db.READ_ONLY`),
    so the readers of a big event never keep a table's write waiting."""
    return Session(ledger.engine.execution_options(**READ_ONLY), expire_on_commit=False)


def last_entries(session: Session, event_id: str) -> dict[str, int]:
    """Each of the event's tables with the number of its last entry (0 before its first), in
    one query."""
    rows = session.execute(
        select(EventTableRow.table_id, func.coalesce(func.max(EntryRow.seq), 0))
        .outerjoin(EntryRow, EntryRow.table_id == EventTableRow.table_id)
        .where(EventTableRow.event_id == event_id)
        .group_by(EventTableRow.table_id)
    )
    return {table_id: int(last) for table_id, last in rows}


def version_query(event_id: str) -> Any:
    """The event's version in one statement, as its two parts (no row for no such event): the
    organiser's last action's number, and the sum of every table's last entry number. Their sum
    only grows, and every change to the event or one of its tables moves it; the event's own
    rows change only with an organiser's action."""
    last = (
        select(func.max(EntryRow.seq).label("last"))
        .join(EventTableRow, EventTableRow.table_id == EntryRow.table_id)
        .where(EventTableRow.event_id == event_id)
        .group_by(EntryRow.table_id)
        .subquery()
    )
    entries = select(func.coalesce(func.sum(last.c.last), 0)).scalar_subquery()
    actions = (
        select(func.coalesce(func.max(EventAuditRow.seq), 0))
        .where(EventAuditRow.event_id == event_id)
        .scalar_subquery()
    )
    return select(actions, entries).where(EventRecordRow.id == event_id)


def _chunks(items: Sequence[str], size: int = FEW_TABLES) -> Iterator[Sequence[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def read_replays(
    session: Session, event_id: str, table_ids: Sequence[str]
) -> Iterator[tuple[str, Replay, Any]]:
    """Each of `table_ids` (tables of the event) replayed, with its row's creation moment: the
    tables, their players and their entries each one query (by the ids when they are few, else
    joined to the event's rows), in the order asked."""
    if not table_ids:
        return
    whole = len(table_ids) > FEW_TABLES
    groups: Iterable[Sequence[str]] = [table_ids] if whole else _chunks(table_ids)
    for group in groups:
        by_event = EventTableRow.event_id == event_id
        tables_query = select(TableRow).options(lazyload(TableRow.players))
        players_query = select(PlayerRow.table_id, PlayerRow.name).order_by(
            PlayerRow.table_id, PlayerRow.seat
        )
        entries_query = select(EntryRow).order_by(EntryRow.table_id, EntryRow.seq)
        if whole:
            tables_query = tables_query.join(
                EventTableRow, EventTableRow.table_id == TableRow.id
            ).where(by_event)
            players_query = players_query.join(
                EventTableRow, EventTableRow.table_id == PlayerRow.table_id
            ).where(by_event)
            entries_query = entries_query.join(
                EventTableRow, EventTableRow.table_id == EntryRow.table_id
            ).where(by_event)
        else:
            tables_query = tables_query.where(TableRow.id.in_(group))
            players_query = players_query.where(PlayerRow.table_id.in_(group))
            entries_query = entries_query.where(EntryRow.table_id.in_(group))
        rows = {row.id: row for row in session.scalars(tables_query)}
        players: dict[str, list[str]] = {}
        for table_id, name in session.execute(players_query):
            players.setdefault(table_id, []).append(name)
        entries: dict[str, list[Entry]] = {}
        for entry in session.scalars(entries_query):
            entries.setdefault(entry.table_id, []).append(entry_of(entry))
        for table_id in group:
            row = rows.get(table_id)
            if row is None:  # taken back meanwhile (`unseat`): no longer the event's
                continue
            setup = setup_of(row, tuple(players.get(table_id, ())))
            yield table_id, replay(setup, entries.get(table_id, [])), aware(row.created_at)


def table_standings(ledger: Ledger, snapshot: Snapshot) -> dict[str, Mapping[str, Any]]:
    """Each seated table's standings (`Ledger.standings`'s JSON) by table id, as the event
    counts them (a table ended "as it stands" as it stood then, `ended.counted_standings`):
    those kept whose key (`TableKey`) is the one kept, the others read together."""
    event_id = snapshot.record.id
    kept = _kept(ledger).tables(event_id)
    endings = {row.table_id: row for row in snapshot.endings}
    found: dict[str, Mapping[str, Any]] = {}
    with ledger._guard(), reading_session(ledger) as session, session.begin():
        last = last_entries(session, event_id)
        keys: dict[str, TableKey] = {
            table.table_id: (
                last.get(table.table_id, -1),
                tuple(table.players),
                stands_at(endings.get(table.table_id)),
            )
            for table in snapshot.tables
        }
        stale = []
        for table_id, key in keys.items():
            held = kept.get(table_id)
            if held is not None and held[0] == key:
                found[table_id] = held[1]
            else:
                stale.append(table_id)
        for table_id, replayed, _ in read_replays(session, event_id, stale):
            standings = counted_standings(table_id, replayed, endings.get(table_id))
            seq = replayed.entries[-1].stored.seq if replayed.entries else 0
            _, players, stands = keys[table_id]
            kept[table_id] = ((seq, players, stands), standings)
            found[table_id] = standings
    for table_id in keys:
        if table_id not in found:  # taken back since the snapshot: read as the ledger has it
            found[table_id] = ledger.standings(table_id)
    return found


def standings_from(snapshot: Snapshot, tables: Mapping[str, Mapping[str, Any]]) -> Standings:
    """The leaderboard from the event's rows and each seated table's standings (by table id,
    `table_standings`), a voided table scoring the event's void score (`ended.with_voids`)."""
    rule = standing_rule(get_profile(snapshot.record.profile))
    adjustments = [
        Adjustment(row.player or "", Fraction(row.amount or 0), row.reason or "", row.by_name)
        for row in snapshot.adjustments
    ]
    withdrawn = [
        entry.name
        for entry in snapshot.entries
        if entry.withdraws_after is not None and snapshot.has_played(entry.name)
    ]
    seated = [(table.round, table.table_id, tables[table.table_id]) for table in snapshot.tables]
    return event_standings(rule, with_voids(snapshot, rule, seated), adjustments, withdrawn)


def event_standings(
    rule: StandingRule,
    tables: Sequence[tuple[int, str, Mapping[str, Any]]],
    adjustments: Sequence[Adjustment],
    withdrawn: Sequence[str],
) -> Standings:
    """The leaderboard from each seated table's standings JSON as its table gives it
    ((round, table id, standings), a money or riichi table's from the ledger, an MCR table's
    with table points), the organiser's adjustments and the players who withdrew."""
    results = [
        table_result(table_id, round_number, rule, data) for round_number, table_id, data in tables
    ]
    return standings(results, adjustments, withdrawn)

"""Events on the ledger: several tables over several rounds, one leaderboard (docs/events.md).

`EventBook` keeps an event's record beside the tables it plays at: the event (its profile and
options, rounds and how they are seated), its players with their late entries and
withdrawals, each seated round with its tables (ordinary ledger tables, created by the event),
round timers, and the organiser's append-only record of what they did (`event_audit`). The
seating and the standings are the pure `companion.events` modules: a round is seated from the
rounds stored before it, and the leaderboard is worked out from the tables' own standings and
the adjustments replayed from the record, every time it is asked for.

The organiser's token is shown once and kept only as a hash, like a table's write token. The
tables' write tokens are kept as they are (`event_tables.write_token`) and given out only to
whoever shows the event's token (`write_tokens`): the organiser hands out the tables' write
links from the seating page.
"""

from __future__ import annotations

import csv
import hmac
import io
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager, suppress
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any, TypeVar

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from companion.errors import InvalidRequestError, Params
from companion.events.seating import (
    Entry,
    FirstRound,
    LaterRounds,
    Leftover,
    Round,
    SeatingError,
    SeatingPlan,
    Table,
    UnevenFieldError,
    seat_round,
)
from companion.events.standings import (
    Adjustment,
    StandingRule,
    Standings,
    StandingsError,
    standing_rule,
    standings,
    table_result,
)
from companion.ledger.checks import check_storable, unstorable
from companion.ledger.errors import LedgerError, LimitError
from companion.ledger.export import spreadsheet_text
from companion.ledger.models import (
    EventAuditRow,
    EventEntryRow,
    EventRecordRow,
    EventRoundRow,
    EventTableRow,
    EventTimerRow,
)
from companion.ledger.repository import Ledger, hash_token, new_id
from companion.ledger.rows import aware, now
from companion.ledger.state import (
    MAX_CORRECTION_TEXT,
    MAX_PLAYER_NAME,
    MAX_TABLE_NAME,
    new_setup,
    table_key,
)
from companion.ledger.store import WRITE_ATTEMPTS
from companion.rules import get_profile
from companion.settlement import amount_json

T = TypeVar("T")

MAX_EVENT_PLAYERS = 400
"""The most players one event may enter (a hundred tables)."""
MAX_EVENT_ROUNDS = 40
MAX_TIMER_MINUTES = 600
MAX_SEED = 2**63 - 1
MAX_AMOUNT = 60
"""The most characters of an adjustment's amount as an exact fraction."""
_PLACEHOLDERS = ("East", "South", "West", "North")
"""Names a table's setup is checked with before the event has seated anyone."""

FIRST_ROUNDS = {mode.value: mode for mode in FirstRound}
LATER_ROUNDS = {"no-repeats": LaterRounds.NO_REPEATS, "by-standing": LaterRounds.STANDING}
LEFTOVERS = {mode.value: mode for mode in Leftover}


# ---------------------------------------------------------------------------------------------
# Errors


class EventError(LedgerError):
    """An event request that cannot be carried out; the message says why."""


class UnknownEventRecordError(EventError):
    """No event has that id."""

    http_status = 404


class RoundOrderError(EventError):
    """A round seated twice, or before the round before it."""

    http_status = 409


class EventAccessError(EventError):
    """A token that is not the event's organiser token."""

    http_status = 403


class UnknownEntrantError(EventError):
    """A name that is not one of the event's players."""


# ---------------------------------------------------------------------------------------------
# What the service hands out


@dataclass(frozen=True)
class NewEvent:
    id: str
    token: str
    """The organiser's token, shown once: only its SHA-256 is stored."""


@dataclass(frozen=True)
class EventPlayer:
    name: str
    joins: int
    withdraws_after: int | None

    @property
    def withdrawn(self) -> bool:
        return self.withdraws_after is not None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "joins": self.joins,
            "withdraws_after": self.withdraws_after,
            "withdrawn": self.withdrawn,
        }


@dataclass(frozen=True)
class RoundTimer:
    round: int
    started_at: datetime
    minutes: int

    @property
    def ends_at(self) -> datetime:
        return self.started_at + timedelta(minutes=self.minutes)

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "started_at": self.started_at.isoformat(),
            "minutes": self.minutes,
            "ends_at": self.ends_at.isoformat(),
        }


@dataclass(frozen=True)
class SeatedTable:
    number: int
    table: str
    """The ledger table's id (its page is /t/{id})."""
    players: tuple[str, ...]
    """East, South, West, North."""
    finished: bool
    hands: int

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "table": self.table,
            "players": list(self.players),
            "finished": self.finished,
            "hands": self.hands,
        }


@dataclass(frozen=True)
class SeatedRound:
    number: int
    tables: tuple[SeatedTable, ...]
    byes: tuple[str, ...]
    substitutes: tuple[str, ...]
    repeats: int
    seat_repeats: int
    timer: RoundTimer | None

    @property
    def finished(self) -> int:
        """How many of its tables have finished their game."""
        return sum(1 for table in self.tables if table.finished)

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.number,
            "tables": [table.to_json() for table in self.tables],
            "byes": list(self.byes),
            "substitutes": list(self.substitutes),
            "repeats": self.repeats,
            "seat_repeats": self.seat_repeats,
            "timer": None if self.timer is None else self.timer.to_json(),
        }


@dataclass(frozen=True)
class EventView:
    """An event as it stands: its setup, its players, and every round seated so far."""

    id: str
    name: str
    profile: str
    options: Mapping[str, Any]
    table_hands: int | None
    table_rounds: int | None
    rounds: int
    seed: int
    first_round: str
    later_rounds: str
    leftover: str | None
    created_at: datetime
    players: tuple[EventPlayer, ...]
    seated: tuple[SeatedRound, ...]
    problem: SeatingError | None = None
    """Why a round still to seat cannot be seated as the field stands (after a withdrawal or
    a late entry made it uneven), or None."""

    @property
    def current_round(self) -> int | None:
        """The latest round seated, or None before round 1 is."""
        return self.seated[-1].number if self.seated else None

    @property
    def progress(self) -> dict[str, int] | None:
        """The latest seated round's tables: how many have finished of how many."""
        if not self.seated:
            return None
        latest = self.seated[-1]
        return {"round": latest.number, "finished": latest.finished, "tables": len(latest.tables)}

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "profile": self.profile,
            "options": dict(self.options),
            "table_hands": self.table_hands,
            "table_rounds": self.table_rounds,
            "rounds": self.rounds,
            "seed": self.seed,
            "first_round": self.first_round,
            "later_rounds": self.later_rounds,
            "leftover": self.leftover,
            "created_at": self.created_at.isoformat(),
            "players": [player.to_json() for player in self.players],
            "seated": [round_.to_json() for round_ in self.seated],
            "current_round": self.current_round,
            "progress": self.progress,
            "problem": None if self.problem is None else problem_json(self.problem),
        }


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


def problem_json(problem: SeatingError) -> dict[str, Any]:
    """A refusal as the API words one: the English, and its key and parameters when it has
    them (for a page in another language)."""
    return {
        "error": problem.message,
        "error_key": problem.key,
        "error_params": dict(problem.params),
    }


@dataclass(frozen=True)
class AuditEntry:
    """One organiser action, as recorded."""

    seq: int
    kind: str
    at: datetime
    by: str
    player: str | None = None
    round: int | None = None
    amount: Fraction | None = None
    reason: str | None = None
    details: Mapping[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "kind": self.kind,
            "at": self.at.isoformat(),
            "by": self.by,
            "player": self.player,
            "round": self.round,
            "amount": None if self.amount is None else amount_json(self.amount),
            "amount_exact": None if self.amount is None else str(self.amount),
            "reason": self.reason,
            "details": dict(self.details or {}),
        }


@dataclass(frozen=True)
class _Snapshot:
    """An event's rows, read in one transaction."""

    record: EventRecordRow
    entries: tuple[EventEntryRow, ...]
    rounds: tuple[EventRoundRow, ...]
    tables: tuple[EventTableRow, ...]
    timers: tuple[EventTimerRow, ...]
    adjustments: tuple[EventAuditRow, ...]
    """The organiser's penalties and corrections, in the record's order."""

    def plan(self, entries: Sequence[Entry] | None = None) -> SeatingPlan:
        record = self.record
        return SeatingPlan(
            tuple(_entries(self.entries) if entries is None else entries),
            record.rounds,
            record.seed,
            FirstRound(record.first_round),
            LATER_ROUNDS[record.later_rounds],
            None if record.leftover is None else Leftover(record.leftover),
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
        key = name.strip().casefold()
        for entry in self.entries:
            if entry.name.casefold() == key:
                return entry
        raise UnknownEntrantError(
            f"no player named {name.strip() or repr(name)} in this event",
            key="refusal.event_unknown_player",
            params={"player": name.strip()},
        )

    def has_played(self, name: str) -> bool:
        return any(name in table.players for table in self.tables)


def _entries(rows: Sequence[EventEntryRow]) -> list[Entry]:
    return [Entry(row.name, row.joins, row.withdraws_after) for row in rows]


# ---------------------------------------------------------------------------------------------
# Checks of what an organiser sends


def _mode(value: str, modes: Mapping[str, T], what: str) -> T:
    found = modes.get(value)
    if found is None:
        raise InvalidRequestError(f"{what} must be one of {', '.join(modes)}; got {value!r}")
    return found


def _checked_text(
    text: str, what: str, key: str, *, required: bool = True, params: Params | None = None
) -> str:
    """The text trimmed; refused empty (when `required`) or too long, under `key` with `_empty`
    or `_long` (and `most`) added."""
    check_storable(text, what)
    text = text.strip()
    if required and not text:
        raise EventError(f"{what} cannot be empty", key=f"{key}_empty", params=params)
    if len(text) > MAX_CORRECTION_TEXT:
        raise LimitError(
            f"{what} can have at most {MAX_CORRECTION_TEXT} characters",
            key=f"{key}_long",
            params={**(params or {}), "most": MAX_CORRECTION_TEXT},
        )
    return text


def _checked_name(name: str) -> None:
    check_storable(name, "a player's name")
    if len(name.strip()) > MAX_PLAYER_NAME:
        start = name.strip()[:20]
        raise LimitError(
            f"a player's name can have at most {MAX_PLAYER_NAME} characters: {start}...",
            key="refusal.event_player_long",
            params={"most": MAX_PLAYER_NAME, "start": start},
        )


def _too_many_players() -> LimitError:
    return LimitError(
        f"an event can have at most {MAX_EVENT_PLAYERS} players",
        key="refusal.event_many_players",
        params={"most": MAX_EVENT_PLAYERS},
    )


def exact_amount(value: Fraction | int | str) -> Fraction:
    """An adjustment's amount: a whole number, a decimal or a fraction ("-10", "2.5", "5/2")."""
    try:
        amount = Fraction(value.strip() if isinstance(value, str) else value)
    except (ValueError, ZeroDivisionError):
        raise EventError(
            f"an amount is a number such as -10, 2.5 or 5/2; got {value!r}",
            key="refusal.event_bad_amount",
            params={"amount": str(value)},
        ) from None
    if amount == 0:
        raise EventError("an adjustment of 0 changes nothing", key="refusal.event_zero_amount")
    if len(str(amount)) > MAX_AMOUNT:
        raise LimitError(
            f"an amount can have at most {MAX_AMOUNT} characters as a fraction",
            key="refusal.event_amount_long",
            params={"most": MAX_AMOUNT},
        )
    return amount


def table_name(event_name: str, round_number: int, number: int) -> str:
    """A table's name: the event's, shortened when needed so the round and table still show."""
    tail = f" · round {round_number} · table {number}"
    room = MAX_TABLE_NAME - len(tail)
    head = event_name if len(event_name) <= room else event_name[: room - 1].rstrip() + "…"
    return head + tail


def standing_order(board: Standings, playing: Sequence[str]) -> list[str]:
    """The players of a round by standing, best first; those without a result yet (late
    entries) after everyone placed, in the order they were entered."""
    placed = {row.name.casefold(): index for index, row in enumerate(board.rows)}
    ranked = [name for name in playing if name.casefold() in placed]
    ranked.sort(key=lambda name: placed[name.casefold()])
    return ranked + [name for name in playing if name.casefold() not in placed]


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


# ---------------------------------------------------------------------------------------------
# The service


class EventBook:
    """Events on one ledger. Thread-safe: each call uses its own session, and the tables are
    the ledger's own (their writes, streams and corrections are the ledger's)."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self.engine = ledger.engine

    # -- sessions ------------------------------------------------------------------------------

    def _session(self) -> Session:
        return self.ledger._session()

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
            raise UnknownEventRecordError(
                f"no event with id {event_id.strip()!r}",
                key="refusal.event_unknown",
                params={"event": event_id.strip()},
            )
        return row

    def _snapshot(self, session: Session, event_id: str, *, lock: bool = False) -> _Snapshot:
        record = self._record(session, event_id, lock=lock)

        def rows(model: Any, *order: Any) -> tuple[Any, ...]:
            query = select(model).where(model.event_id == record.id).order_by(*order)
            return tuple(session.scalars(query))

        return _Snapshot(
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
        )

    def _read(self, event_id: str) -> _Snapshot:
        with self._guard(), self._session() as session, session.begin():
            return self._snapshot(session, event_id)

    def _write(
        self,
        event_id: str,
        kind: str,
        act: Callable[[Session, _Snapshot], dict[str, Any]],
        by: str,
    ) -> AuditEntry:
        """One organiser action in one transaction: the event locked, `act` checks it against
        the record as it stands and adds its rows, and the action joins the audit record
        (`act` returns the audit row's fields)."""
        by = _checked_text(by, "by (who decides)", "refusal.event_by", required=False)
        for attempt in range(WRITE_ATTEMPTS):
            try:
                with self._guard(), self._session() as session, session.begin():
                    snapshot = self._snapshot(session, event_id, lock=True)
                    fields = act(session, snapshot)
                    audit = _audit_row(session, snapshot.record.id, kind, by, fields)
                    session.add(audit)
                    session.flush()
                    # The ledger's own news of writes carries the event's too (see
                    # `event_notice`): on PostgreSQL inside this transaction, to every process.
                    self.ledger._notify(session, event_notice(snapshot.record.id), audit.seq)
                self.ledger._announce(event_notice(snapshot.record.id), audit.seq)
                return _audit_entry(audit)
            except IntegrityError:
                if attempt == WRITE_ATTEMPTS - 1:
                    raise EventError("the event is busy: try again") from None
                time.sleep(0.005 * 2**attempt)
        raise AssertionError("unreachable")

    # -- events --------------------------------------------------------------------------------

    def create_event(
        self,
        name: str,
        profile: str,
        options: Mapping[str, Any] | None,
        players: Sequence[str | Entry],
        rounds: int,
        *,
        seed: int | None = None,
        first_round: str = "random",
        later_rounds: str = "no-repeats",
        leftover: str | None = None,
        hands: int | None = None,
        table_rounds: int | None = None,
        by: str = "",
    ) -> NewEvent:
        """A new event and its organiser's token. Its tables will play `profile` with
        `options` (and `hands` or `table_rounds` each, as a table plans them)."""
        # Not `_checked_text`: its bound is a reason's (200), past the 60 of a name.
        check_storable(name, "an event's name")
        event_name = name.strip()
        if not event_name:
            raise EventError("an event's name cannot be empty", key="refusal.event_name_empty")
        if len(event_name) > MAX_TABLE_NAME:
            raise LimitError(
                f"an event's name can have at most {MAX_TABLE_NAME} characters",
                key="refusal.event_name_long",
                params={"most": MAX_TABLE_NAME},
            )
        check_storable(dict(options or {}), "an option")
        # The tables' own checks, before anyone is seated: profile, options, game length.
        setup = new_setup(profile, _PLACEHOLDERS, options, hands, "", table_rounds)
        if len(players) > MAX_EVENT_PLAYERS:
            raise _too_many_players()
        if rounds > MAX_EVENT_ROUNDS:
            raise LimitError(
                f"an event can have at most {MAX_EVENT_ROUNDS} rounds",
                key="refusal.event_many_rounds",
                params={"most": MAX_EVENT_ROUNDS},
            )
        for player in players:
            _checked_name(player if isinstance(player, str) else player.name)
        if seed is None:
            seed = secrets.randbelow(2**31)
        if not 0 <= seed <= MAX_SEED:
            # The largest seed as text: past 2^53 a page's script would round the number.
            raise EventError(
                f"a seed is a whole number from 0 to {MAX_SEED}",
                key="refusal.event_seed",
                params={"most": str(MAX_SEED)},
            )
        plan = SeatingPlan.of(
            players,
            rounds,
            seed=seed,
            first_round=_mode(first_round, FIRST_ROUNDS, "first_round"),
            later_rounds=_mode(later_rounds, LATER_ROUNDS, "later_rounds"),
            leftover=None if leftover is None else _mode(leftover, LEFTOVERS, "leftover"),
        )
        by = _checked_text(by, "by (who decides)", "refusal.event_by", required=False)
        token = secrets.token_urlsafe(24)
        for _ in range(WRITE_ATTEMPTS):
            event_id = new_id()
            try:
                with self._guard(), self._session() as session, session.begin():
                    session.add(
                        EventRecordRow(
                            id=event_id,
                            name=event_name,
                            profile=setup.profile,
                            options=dict(setup.options),
                            table_hands=setup.planned_hands,
                            table_rounds=setup.planned_rounds,
                            rounds=rounds,
                            seed=seed,
                            first_round=first_round,
                            later_rounds=later_rounds,
                            leftover=leftover,
                            token_hash=hash_token(token),
                            created_at=now(),
                        )
                    )
                    session.flush()  # the event's row before the rows that refer to it
                    session.add_all(
                        EventEntryRow(
                            event_id=event_id,
                            position=position,
                            name=entry.name,
                            joins=entry.joins,
                            withdraws_after=entry.withdraws_after,
                        )
                        for position, entry in enumerate(plan.players)
                    )
                    session.flush()
                    details = {"players": [entry.name for entry in plan.players], "rounds": rounds}
                    session.add(_audit_row(session, event_id, "create", by, {"details": details}))
                return NewEvent(event_id, token)
            except IntegrityError:
                continue
        raise EventError("could not find a free event id; try again")

    def verify_token(self, event_id: str, token: str) -> bool:
        """Whether `token` is the event's organiser token (constant-time comparison)."""
        with self._guard(), self._session() as session, session.begin():
            row = self._record(session, event_id)
            return hmac.compare_digest(row.token_hash, hash_token(token))

    def event(self, event_id: str) -> EventView:
        snapshot = self._read(event_id)
        record = snapshot.record
        timers: dict[int, RoundTimer] = {}
        for timer in snapshot.timers:  # in the order started: a restart replaces the one before
            timers[timer.round] = RoundTimer(timer.round, aware(timer.started_at), timer.minutes)
        seated = []
        for row in snapshot.rounds:
            tables = []
            for table in snapshot.tables:
                if table.round != row.round:
                    continue
                state = self.ledger.standings(table.table_id)
                tables.append(
                    SeatedTable(
                        table.number,
                        table.table_id,
                        tuple(table.players),
                        bool(state["finished"]),
                        int(state["hands"]),
                    )
                )
            seated.append(
                SeatedRound(
                    row.round,
                    tuple(tables),
                    tuple(row.byes),
                    tuple(row.substitutes),
                    row.repeats,
                    row.seat_repeats,
                    timers.get(row.round),
                )
            )
        return EventView(
            record.id,
            record.name,
            record.profile,
            dict(record.options),
            record.table_hands,
            record.table_rounds,
            record.rounds,
            record.seed,
            record.first_round,
            record.later_rounds,
            record.leftover,
            aware(record.created_at),
            tuple(
                EventPlayer(entry.name, entry.joins, entry.withdraws_after)
                for entry in snapshot.entries
            ),
            tuple(seated),
            snapshot.problem(),
        )

    def event_of_table(self, table_id: str) -> str | None:
        """The event a ledger table was seated by, or None for a table of its own."""
        if unstorable(table_id):  # no table has such an id
            return None
        with self._guard(), self._session() as session, session.begin():
            return session.scalars(
                select(EventTableRow.event_id).where(EventTableRow.table_id == table_key(table_id))
            ).one_or_none()

    def write_tokens(self, event_id: str, token: str) -> dict[str, str]:
        """Each seated table's write token by table id, for the organiser only."""
        if not self.verify_token(event_id, token):
            raise EventAccessError("the token does not match this event", key="refusal.event_token")
        return self.table_tokens(event_id)

    def table_tokens(self, event_id: str) -> dict[str, str]:
        """Each seated table's write token by table id, unchecked: for whoever holds the
        database itself (the command line on a local ledger), as table writes need no token
        there."""
        return {table.table_id: table.write_token for table in self._read(event_id).tables}

    # -- rounds --------------------------------------------------------------------------------

    def seat_round(self, event_id: str, round_number: int, *, by: str = "") -> SeatedRound:
        """Seat round `round_number` (the next one) and create its tables on the ledger."""
        snapshot = self._read(event_id)
        record = snapshot.record
        _check_next(snapshot, round_number)
        plan = snapshot.plan()
        previous = snapshot.seated()
        standing = None
        if round_number > 1 and plan.later_rounds is LaterRounds.STANDING:
            board = self._standings(snapshot)
            standing = standing_order(board, plan.playing(round_number))
        seated = seat_round(plan, previous, standing)
        created = [
            self.ledger.create_table(
                record.profile,
                table.players,
                options=record.options,
                hands=record.table_hands,
                rounds=record.table_rounds,
                name=table_name(record.name, round_number, table.number),
            )
            for table in seated.tables
        ]

        def act(session: Session, now_: _Snapshot) -> dict[str, Any]:
            # Another organiser's tab may have seated it meanwhile: the tables just created
            # are then left unused (no page lists them).
            _check_next(now_, round_number)
            session.add(
                EventRoundRow(
                    event_id=record.id,
                    round=round_number,
                    byes=list(seated.byes),
                    substitutes=list(seated.substitutes),
                    repeats=seated.repeats,
                    seat_repeats=seated.seat_repeats,
                    seated_at=now(),
                )
            )
            for table, new in zip(seated.tables, created, strict=True):
                session.add(
                    EventTableRow(
                        event_id=record.id,
                        round=round_number,
                        number=table.number,
                        table_id=new.id,
                        players=list(table.players),
                        write_token=new.token,
                    )
                )
            tables = {
                str(table.number): new.id for table, new in zip(seated.tables, created, strict=True)
            }
            return {"round": round_number, "details": {"tables": tables}}

        self._write(event_id, "seat", act, by)
        return next(
            round_ for round_ in self.event(event_id).seated if round_.number == round_number
        )

    def start_timer(
        self, event_id: str, round_number: int, minutes: int, *, by: str = ""
    ) -> RoundTimer:
        """Start (or restart) a seated round's timer: it runs `minutes` from now."""
        if not 1 <= minutes <= MAX_TIMER_MINUTES:
            raise EventError(
                f"a round's timer runs 1 to {MAX_TIMER_MINUTES} minutes; got {minutes}",
                key="refusal.event_timer_minutes",
                params={"minutes": minutes, "most": MAX_TIMER_MINUTES},
            )
        started = now()

        def act(session: Session, snapshot: _Snapshot) -> dict[str, Any]:
            if not any(row.round == round_number for row in snapshot.rounds):
                raise RoundOrderError(
                    f"round {round_number} is not seated: seat it before starting its timer",
                    key="refusal.event_round_not_seated",
                    params={"round": round_number},
                )
            session.add(
                EventTimerRow(
                    event_id=snapshot.record.id,
                    round=round_number,
                    started_at=started,
                    minutes=minutes,
                )
            )
            return {"round": round_number, "details": {"minutes": minutes}}

        self._write(event_id, "timer", act, by)
        return RoundTimer(round_number, started, minutes)

    # -- players -------------------------------------------------------------------------------

    def add_player(self, event_id: str, name: str, joins: int, *, by: str = "") -> EventPlayer:
        """A late entry: `name` plays from round `joins` on (a round not seated yet)."""
        _checked_name(name)
        name = name.strip()

        def act(session: Session, snapshot: _Snapshot) -> dict[str, Any]:
            seated = len(snapshot.rounds)
            if joins <= seated:
                raise RoundOrderError(
                    f"round {seated} is already seated: a late entry joins in round "
                    f"{seated + 1} or later",
                    key="refusal.event_join_seated",
                    params={"round": seated, "next": seated + 1},
                )
            if len(snapshot.entries) >= MAX_EVENT_PLAYERS:
                raise _too_many_players()
            _check_change(snapshot, [*_entries(snapshot.entries), Entry(name, joins)])
            position = max((entry.position for entry in snapshot.entries), default=-1) + 1
            session.add(
                EventEntryRow(
                    event_id=snapshot.record.id, position=position, name=name, joins=joins
                )
            )
            return {"player": name, "round": joins}

        self._write(event_id, "join", act, by)
        return EventPlayer(name, joins, None)

    def withdraw(
        self, event_id: str, player: str, after_round: int, *, by: str = ""
    ) -> EventPlayer:
        """`player` plays up to round `after_round` and no more; they stay on the leaderboard
        with what they played."""
        found: list[EventPlayer] = []

        def act(session: Session, snapshot: _Snapshot) -> dict[str, Any]:
            entry = snapshot.entrant(player)
            if entry.withdraws_after is not None:
                raise EventError(
                    f"{entry.name} has already withdrawn (after round {entry.withdraws_after})",
                    key="refusal.event_already_withdrawn",
                    params={"player": entry.name, "round": entry.withdraws_after},
                )
            seated = [
                table.round
                for table in snapshot.tables
                if entry.name in table.players and table.round > after_round
            ]
            if seated:
                raise RoundOrderError(
                    f"{entry.name} is seated in round {seated[0]}: withdraw after round "
                    f"{seated[-1]} or later",
                    key="refusal.event_withdraw_seated",
                    params={"player": entry.name, "first_round": seated[0], "round": seated[-1]},
                )
            if not 0 <= after_round < snapshot.record.rounds:
                raise EventError(
                    f"a player withdraws after one of rounds 0 to {snapshot.record.rounds - 1}; "
                    f"got {after_round}",
                    key="refusal.event_withdraw_round",
                    params={"round": after_round, "last": snapshot.record.rounds - 1},
                )
            changed = [
                replace(item, withdraws_after=after_round) if item.name == entry.name else item
                for item in _entries(snapshot.entries)
            ]
            _check_change(snapshot, changed)
            entry.withdraws_after = after_round
            found.append(EventPlayer(entry.name, entry.joins, after_round))
            return {"player": entry.name, "round": after_round}

        self._write(event_id, "withdraw", act, by)
        return found[0]

    # -- standings -----------------------------------------------------------------------------

    def adjust(
        self,
        event_id: str,
        player: str,
        amount: Fraction | int | str,
        reason: str,
        by: str = "",
    ) -> AuditEntry:
        """A penalty (a negative amount) or a correction of a player's total, with a reason."""
        exact = exact_amount(amount)

        def act(session: Session, snapshot: _Snapshot) -> dict[str, Any]:
            entry = snapshot.entrant(player)
            why = _checked_text(
                reason,
                f"the reason for {entry.name}'s adjustment",
                "refusal.event_reason",
                params={"player": entry.name},
            )
            if not snapshot.has_played(entry.name):
                raise StandingsError(
                    f"{entry.name} played no table of the event",
                    key="refusal.event_not_played",
                    params={"player": entry.name},
                )
            return {"player": entry.name, "amount": str(exact), "reason": why}

        return self._write(event_id, "adjust", act, by)

    def audit(self, event_id: str) -> tuple[AuditEntry, ...]:
        """The organiser's record of the event, oldest first."""
        with self._guard(), self._session() as session, session.begin():
            record = self._record(session, event_id)
            rows = session.scalars(
                select(EventAuditRow)
                .where(EventAuditRow.event_id == record.id)
                .order_by(EventAuditRow.seq)
            )
            return tuple(_audit_entry(row) for row in rows)

    def standings(self, event_id: str) -> Standings:
        return self._standings(self._read(event_id))

    def _standings(self, snapshot: _Snapshot) -> Standings:
        rule = standing_rule(get_profile(snapshot.record.profile))
        tables = [
            (table.round, table.table_id, self.ledger.standings(table.table_id))
            for table in snapshot.tables
        ]
        adjustments = [
            Adjustment(row.player or "", Fraction(row.amount or 0), row.reason or "", row.by_name)
            for row in snapshot.adjustments
        ]
        withdrawn = [
            entry.name
            for entry in snapshot.entries
            if entry.withdraws_after is not None and snapshot.has_played(entry.name)
        ]
        return event_standings(rule, tables, adjustments, withdrawn)

    # -- exports -------------------------------------------------------------------------------

    def export_json(self, event_id: str) -> dict[str, Any]:
        """The event, its standings, the organiser's record and every table's own export
        (the tables' write tokens are not in it)."""
        view = self.event(event_id)
        board = self.standings(event_id)
        tables = [
            {"round": round_.number, "number": table.number} | self.ledger.export_json(table.table)
            for round_ in view.seated
            for table in round_.tables
        ]
        return {
            "format": "companion-event",
            "version": 1,
            "event": view.to_json(),
            "standings": board.to_json(),
            "audit": [entry.to_json() for entry in self.audit(event_id)],
            "tables": tables,
        }

    def export_csv(self, event_id: str) -> str:
        """The standings, one row per player, first place first."""
        return standings_csv(self.standings(event_id))


SECOND_KEY = {StandingRule.FINALS: "points", StandingRule.TABLE_POINTS: "score"}
"""The name of the standings' second key in the CSV, by rule (money has none)."""


def standings_csv(board: Standings) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    second = SECOND_KEY.get(board.rule)
    header = ["rank", "name", "total", *([second] if second else [])]
    writer.writerow([*header, "tied", "tables", "withdrawn", "provisional", "adjustments"])
    for row in board.rows:
        # Names and reasons are the organiser's text: never a formula in a spreadsheet.
        adjustments = "; ".join(
            f"{penalty.reason}{f' ({penalty.by})' if penalty.by else ''}: {penalty.amount}"
            for penalty in row.penalties
        )
        writer.writerow(
            [
                row.rank,
                spreadsheet_text(row.name),
                str(row.total),
                *([str(row.secondary) if row.secondary is not None else ""] if second else []),
                "yes" if row.tied else "",
                row.tables,
                "yes" if row.withdrawn else "",
                "yes" if row.provisional else "",
                spreadsheet_text(adjustments),
            ]
        )
    return out.getvalue()


def _check_change(snapshot: _Snapshot, entries: Sequence[Entry]) -> None:
    """The seating's checks of a changed field (names, rounds, a round too few), all but an
    uneven field: a swap is a withdrawal and a late entry, one after the other, and the field
    between the two is uneven. The event then says so (`EventView.problem`), and seating the
    round is refused with the seating's message until the field is whole again."""
    with suppress(UnevenFieldError):
        snapshot.plan(entries)


def _check_next(snapshot: _Snapshot, round_number: int) -> None:
    """Refuse a round seated twice or out of order."""
    seated = len(snapshot.rounds)
    if round_number <= seated and round_number >= 1:
        raise RoundOrderError(
            f"round {round_number} is already seated",
            key="refusal.event_round_seated",
            params={"round": round_number},
        )
    if round_number != seated + 1:
        raise RoundOrderError(
            f"round {seated + 1} is the next to seat; got round {round_number}",
            key="refusal.event_round_order",
            params={"round": round_number, "next": seated + 1},
        )


def _audit_row(
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


def _audit_entry(row: EventAuditRow) -> AuditEntry:
    return AuditEntry(
        row.seq,
        row.kind,
        aware(row.created_at),
        row.by_name,
        row.player,
        row.round,
        None if row.amount is None else Fraction(row.amount),
        row.reason,
        dict(row.details),
    )

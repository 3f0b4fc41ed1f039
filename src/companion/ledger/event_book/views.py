"""What the event service hands out: an event as it stands (its players, its seated rounds with
their tables and timers), a new event's id and token, and the organiser's record, each with
the JSON the API and the exports give."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any

from companion.events.plan import SeatingError
from companion.events.repeats import plan_repeats
from companion.ledger.event_book.records import Snapshot
from companion.ledger.models import EventAuditRow
from companion.ledger.rows import aware
from companion.settlement import amount_json


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
    duplicate: bool = field(default=False, compare=False)
    """The answer to an action sent again with its key: nothing new was recorded."""

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
    paused_at: datetime | None = None
    """When it was paused (it stands still since), or None while it runs (issue 39)."""

    @property
    def ends_at(self) -> datetime:
        return self.started_at + timedelta(minutes=self.minutes)

    def left_at(self, at: datetime) -> timedelta:
        """The time left at `at` (negative once it is up); a paused timer's stands still."""
        return self.ends_at - (self.paused_at or at)

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "started_at": self.started_at.isoformat(),
            "minutes": self.minutes,
            "ends_at": self.ends_at.isoformat(),
            "paused_at": None if self.paused_at is None else self.paused_at.isoformat(),
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
    ended: str | None = None
    """How the organiser ended it early (`as-it-stands`, `void`), or None (issue 39)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "table": self.table,
            "players": list(self.players),
            "finished": self.finished,
            "hands": self.hands,
            "ended": self.ended,
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
    total_repeats: int = 0
    """The repeats of every round up to this one."""
    unavoidable_repeats: int | None = None
    """Of `total_repeats`, how many no seating could avoid (`companion.events.repeats`); None
    when the field as it stands cannot be seated."""

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
            "total_repeats": self.total_repeats,
            "unavoidable_repeats": self.unavoidable_repeats,
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
    unavoidable_repeats: tuple[int, ...] = ()
    """For each round of the plan, the repeats no seating can avoid by its end (empty when the
    field cannot be seated)."""
    time_up_hands: int = 0
    """Hands played after the one in play when a round's time is up (issue 39)."""
    void_score: str = "0"
    """What a voided table gives its players: an exact amount, or "average"."""

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
            "unavoidable_repeats": list(self.unavoidable_repeats),
            "time_up_hands": self.time_up_hands,
            "void_score": self.void_score,
        }


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
    duplicate: bool = field(default=False, compare=False)
    """The action recorded before under the key sent again: nothing new was recorded."""

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


def audit_entry(row: EventAuditRow) -> AuditEntry:
    """One organiser action as its row in the record holds it."""
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


def event_view(snapshot: Snapshot, tables: Mapping[str, Mapping[str, Any]]) -> EventView:
    """The event as its rows stand, each seated table's progress from its standings (`tables`,
    by table id: `event_book.tables.table_standings`)."""
    record = snapshot.record
    timers: dict[int, RoundTimer] = {}
    for timer in snapshot.timers:  # in the order started: a restart replaces the one before
        timers[timer.round] = RoundTimer(
            timer.round,
            aware(timer.started_at),
            timer.minutes,
            None if timer.paused_at is None else aware(timer.paused_at),
        )
    # The plan read once: its refusal, or the repeats it cannot avoid.
    problem: SeatingError | None = None
    unavoidable: tuple[int, ...] = ()
    try:
        unavoidable = plan_repeats(snapshot.plan())
    except SeatingError as refused:
        problem = refused
    ended = {row.table_id: row.mode for row in snapshot.endings}
    by_round: dict[int, list[SeatedTable]] = {}
    for table in snapshot.tables:
        state = tables[table.table_id]
        by_round.setdefault(table.round, []).append(
            SeatedTable(
                table.number,
                table.table_id,
                tuple(table.players),
                bool(state["finished"]) or table.table_id in ended,
                int(state["hands"]),
                ended.get(table.table_id),
            )
        )
    seated = []
    total_repeats = 0
    for row in snapshot.rounds:
        tables_of_round = by_round.get(row.round, [])
        total_repeats += row.repeats
        seated.append(
            SeatedRound(
                row.round,
                tuple(tables_of_round),
                tuple(row.byes),
                tuple(row.substitutes),
                row.repeats,
                row.seat_repeats,
                timers.get(row.round),
                total_repeats,
                unavoidable[row.round - 1] if row.round <= len(unavoidable) else None,
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
        problem,
        unavoidable,
        record.time_up_hands,
        record.void_score,
    )

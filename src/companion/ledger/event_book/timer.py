"""A round's timer on the day (issue 39): extended by some minutes, paused and resumed; the
event's rules for time-up and void tables; and the tables still playing after their time ran
out, each with the hands it has left (`companion.events.day`).

Each change of a timer adds a row, as a restart does, and the latest row of a round is its
timer: a pause keeps the start and length and says when it stood still; a resume moves the
start on by the time it stood; an extension adds to the length."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

# Named again for the edge (api/, web/), which reaches the pure events only through here.
from companion.events.day import MAX_TIME_UP_HANDS as MAX_TIME_UP_HANDS
from companion.events.day import VOID_AVERAGE as VOID_AVERAGE
from companion.events.day import TimeUp as TimeUp
from companion.events.day import time_up as time_up
from companion.ledger.event_book.checks import MAX_TIMER_MINUTES
from companion.ledger.event_book.errors import EventError, RoundOrderError
from companion.ledger.event_book.records import Snapshot
from companion.ledger.event_book.store import EventStore
from companion.ledger.event_book.views import RoundTimer, SeatedTable
from companion.ledger.models import EntryRow, EventTimerRow
from companion.ledger.repository import Ledger
from companion.ledger.rows import aware, now
from companion.ledger.state import table_key
from companion.rules.options import plain_number


class TimerStateError(RoundOrderError):
    """A timer asked to change that does not run (or is not paused, for a resume)."""


@dataclass(frozen=True)
class DayRules:
    """The event's rules for the day."""

    time_up_hands: int
    void_score: str
    """An exact amount ("0", "-5/2"), or "average"."""

    def to_json(self) -> dict[str, Any]:
        return {"time_up_hands": self.time_up_hands, "void_score": self.void_score}


@dataclass(frozen=True)
class LateTable:
    """A table still playing after its round's time ran out."""

    round: int
    number: int
    table: str
    players: tuple[str, ...]
    time_up: TimeUp

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "number": self.number,
            "table": self.table,
            "players": list(self.players),
            "hands_since": self.time_up.hands_since,
            "left": self.time_up.left,
            "state": self.time_up.state,
        }


def timer_of(row: EventTimerRow) -> RoundTimer:
    return RoundTimer(
        row.round,
        aware(row.started_at),
        row.minutes,
        None if row.paused_at is None else aware(row.paused_at),
    )


def _latest(snapshot: Snapshot, round_number: int) -> EventTimerRow:
    """The round's timer as it stands; refused when the round has none."""
    rows = [row for row in snapshot.timers if row.round == round_number]
    if not rows:
        raise TimerStateError(
            f"round {round_number} has no timer: start one first",
            key="refusal.day_no_timer",
            params={"round": round_number},
        )
    return rows[-1]


def _check_running(timer: RoundTimer, at: datetime, *, paused_ok: bool) -> None:
    if timer.paused_at is not None:
        if paused_ok:
            return
        raise TimerStateError(
            f"round {timer.round}'s timer is paused already",
            key="refusal.day_timer_paused",
            params={"round": timer.round},
        )
    if timer.left_at(at) <= timedelta(0):
        raise TimerStateError(
            f"round {timer.round}'s time is up: its timer does not run; start a new one",
            key="refusal.day_timer_not_running",
            params={"round": timer.round},
        )


def hands_since(ledger: Ledger, table_id: str, since: datetime) -> int:
    """Hands recorded at a table since `since`, as its corrected record counts them: the
    record's first entry from then on read from the database, the hands before it from the
    replay."""
    with ledger._guard(), ledger._session() as session, session.begin():
        first = session.scalar(
            select(func.min(EntryRow.seq)).where(
                EntryRow.table_id == table_key(table_id), EntryRow.created_at >= since
            )
        )
    if first is None:
        return 0
    replayed = ledger.replay(table_id)
    before = replayed.entry(first - 1).after.hands if first > 1 else 0
    return max(0, replayed.state.hands - before)


class EventTimers(EventStore):
    """The part of `EventBook` that changes a running timer and keeps the day's rules."""

    def _change_timer(
        self,
        event_id: str,
        round_number: int,
        change: str,
        by: str,
        make: Any,
        details: dict[str, Any],
    ) -> RoundTimer:
        made: list[RoundTimer] = []

        def act(session: Session, snapshot: Snapshot) -> dict[str, Any]:
            at = now()
            row = _latest(snapshot, round_number)
            timer: RoundTimer = make(timer_of(row), at)
            session.add(
                EventTimerRow(
                    event_id=snapshot.record.id,
                    round=round_number,
                    started_at=timer.started_at,
                    minutes=timer.minutes,
                    paused_at=timer.paused_at,
                )
            )
            made.append(timer)
            return {"round": round_number, "details": {"change": change, **details}}

        self._write(event_id, "timer", act, by)
        return made[0]

    def extend_timer(
        self, event_id: str, round_number: int, minutes: int, *, by: str = ""
    ) -> RoundTimer:
        """Add `minutes` to a running (or paused) round's timer."""
        if not 1 <= minutes <= MAX_TIMER_MINUTES:
            raise EventError(
                f"a timer is extended by 1 to {MAX_TIMER_MINUTES} minutes; got {minutes}",
                key="refusal.day_extend_minutes",
                params={"minutes": minutes, "most": MAX_TIMER_MINUTES},
            )

        def make(timer: RoundTimer, at: datetime) -> RoundTimer:
            _check_running(timer, at, paused_ok=True)
            if timer.minutes + minutes > 2 * MAX_TIMER_MINUTES:
                raise EventError(
                    f"a round's timer runs at most {2 * MAX_TIMER_MINUTES} minutes in all",
                    key="refusal.day_timer_total",
                    params={"most": 2 * MAX_TIMER_MINUTES},
                )
            return RoundTimer(
                timer.round, timer.started_at, timer.minutes + minutes, timer.paused_at
            )

        return self._change_timer(event_id, round_number, "extend", by, make, {"minutes": minutes})

    def pause_timer(self, event_id: str, round_number: int, *, by: str = "") -> RoundTimer:
        """Stop a running round's timer where it stands."""

        def make(timer: RoundTimer, at: datetime) -> RoundTimer:
            _check_running(timer, at, paused_ok=False)
            return RoundTimer(timer.round, timer.started_at, timer.minutes, at)

        return self._change_timer(event_id, round_number, "pause", by, make, {})

    def resume_timer(self, event_id: str, round_number: int, *, by: str = "") -> RoundTimer:
        """Run a paused round's timer again from where it stood."""

        def make(timer: RoundTimer, at: datetime) -> RoundTimer:
            if timer.paused_at is None:
                raise TimerStateError(
                    f"round {timer.round}'s timer is not paused",
                    key="refusal.day_timer_not_paused",
                    params={"round": timer.round},
                )
            return RoundTimer(
                timer.round, timer.started_at + (at - timer.paused_at), timer.minutes, None
            )

        return self._change_timer(event_id, round_number, "resume", by, make, {})

    def day_rules(self, event_id: str) -> DayRules:
        record = self._read(event_id).record
        return DayRules(record.time_up_hands, record.void_score)

    def set_day_rules(
        self,
        event_id: str,
        *,
        time_up_hands: int | None = None,
        void_score: str | None = None,
        by: str = "",
    ) -> DayRules:
        """The hands played after the one in play when time is up, and what a voided table
        gives its players (an amount, or "average"); either left as it is when None."""
        if time_up_hands is not None and not 0 <= time_up_hands <= MAX_TIME_UP_HANDS:
            raise EventError(
                f"after time is up a table plays 0 to {MAX_TIME_UP_HANDS} more hands; got "
                f"{time_up_hands}",
                key="refusal.day_time_up_hands",
                params={"hands": time_up_hands, "most": MAX_TIME_UP_HANDS},
            )
        score = None if void_score is None else checked_void_score(void_score)

        def act(session: Session, snapshot: Snapshot) -> dict[str, Any]:
            record = snapshot.record
            if time_up_hands is not None:
                record.time_up_hands = time_up_hands
            if score is not None:
                record.void_score = score
            details = {"time_up_hands": record.time_up_hands, "void_score": record.void_score}
            return {"details": details}

        self._write(event_id, "rules", act, by)
        return self.day_rules(event_id)

    def late_tables(self, event_id: str, at: datetime | None = None) -> tuple[LateTable, ...]:
        """The tables whose round's time is up and whose game goes on, round by round."""
        at = at or now()
        read = self.current(event_id)
        view, hands = read.view, read.snapshot.record.time_up_hands
        found = []
        for seated in view.seated:
            timer = seated.timer
            if timer is None or timer.left_at(at) > timedelta(0):
                continue
            for table in seated.tables:
                if table.finished:
                    continue
                state = time_up(hands, hands_since(self.ledger, table.table, timer.ends_at))
                found.append(
                    LateTable(seated.number, table.number, table.table, table.players, state)
                )
        return tuple(found)

    def table_time_up(self, event_id: str, table: SeatedTable, timer: RoundTimer) -> TimeUp:
        """What `table` still plays, its round's time being up."""
        hands = self._read(event_id).record.time_up_hands
        return time_up(hands, hands_since(self.ledger, table.table, timer.ends_at))


def checked_void_score(text: str) -> str:
    """A void score as stored: "average", or an exact amount read by the bounded reader."""
    cleaned = text.strip().lower()
    if cleaned == VOID_AVERAGE:
        return VOID_AVERAGE
    amount = plain_number(cleaned, digits=16)
    if amount is None:
        raise EventError(
            f'a void score is a number (0, -5, 2.5) or "average"; got {text!r}',
            key="refusal.day_void_score",
            params={"score": text},
        )
    return str(Fraction(amount))

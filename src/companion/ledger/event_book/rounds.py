"""An event's rounds: seating the next one (from the rounds stored before it, by standing when
the event says so) with its tables created on the ledger, and each round's timer."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy.orm import Session

from companion.events.plan import LaterRounds, SeatingError
from companion.events.seating import seat_round
from companion.events.standings import Standings
from companion.ledger.event_book.checks import MAX_TIMER_MINUTES
from companion.ledger.event_book.errors import EventError, RoundOrderError, TablesPlayingError
from companion.ledger.event_book.leaderboard import standings_of
from companion.ledger.event_book.records import Snapshot
from companion.ledger.event_book.store import EventStore
from companion.ledger.event_book.tables import table_standings
from companion.ledger.event_book.views import RoundTimer, SeatedRound
from companion.ledger.models import EventRoundRow, EventTableRow, EventTimerRow
from companion.ledger.repository import Ledger
from companion.ledger.rows import now
from companion.ledger.state import MAX_TABLE_NAME
from companion.names import name_key


class EventRounds(EventStore):
    """The part of `EventBook` that seats rounds and times them."""

    def seat_round(
        self, event_id: str, round_number: int, *, by: str = "", confirm: bool = False
    ) -> SeatedRound:
        """Seat round `round_number` (the next one) and create its tables on the ledger, in one
        transaction: a request that finds the round seated meanwhile leaves nothing behind.
        While a table of the rounds before still plays, only when `confirm` says so."""
        snapshot = self._read(event_id)
        record = snapshot.record
        _check_next(snapshot, round_number)
        plan = snapshot.plan()
        if not confirm and round_number <= plan.rounds:
            _check_played(self.ledger, snapshot, round_number)
        previous = snapshot.seated()
        standing = None
        if round_number > 1 and plan.later_rounds is LaterRounds.STANDING:
            board = standings_of(self.ledger, snapshot)
            standing = standing_order(board, plan.playing(round_number))
        seated = seat_round(plan, previous, standing)

        def act(session: Session, now_: Snapshot) -> dict[str, Any]:
            # Another organiser's tab may have seated it meanwhile: refused before any table
            # is made. The tables are added here, in the event's locked transaction, so that a
            # refusal or a failure rolls them back with the round (new ids on a retry).
            _check_next(now_, round_number)
            created = []
            for table in seated.tables:
                row, new = self.ledger.table_row(
                    record.profile,
                    table.players,
                    options=record.options,
                    hands=record.table_hands,
                    rounds=record.table_rounds,
                    name=table_name(record.name, round_number, table.number),
                )
                session.add(row)
                created.append(new)
            session.flush()  # the tables before the event's rows that name them
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

    def tables_to_seat(self, event_id: str, round_number: int) -> int:
        """The most tables seating round `round_number` can create: one for every four of its
        players, and one for those over a multiple of four (should substitutes fill it); 0 when
        the field cannot be seated (the seating refuses it)."""
        try:
            playing = self._read(event_id).plan().playing_count(round_number)
        except SeatingError:
            return 0
        return -(-playing // 4)

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

        def act(session: Session, snapshot: Snapshot) -> dict[str, Any]:
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


def table_name(event_name: str, round_number: int, number: int) -> str:
    """A table's name: the event's, shortened when needed so the round and table still show."""
    tail = f" · round {round_number} · table {number}"
    room = MAX_TABLE_NAME - len(tail)
    head = event_name if len(event_name) <= room else event_name[: room - 1].rstrip() + "…"
    return head + tail


def standing_order(board: Standings, playing: Sequence[str]) -> list[str]:
    """The players of a round by standing, best first; those without a result yet (late
    entries) after everyone placed, in the order they were entered."""
    placed = {name_key(row.name): index for index, row in enumerate(board.rows)}
    ranked = [name for name in playing if name_key(name) in placed]
    ranked.sort(key=lambda name: placed[name_key(name)])
    return ranked + [name for name in playing if name_key(name) not in placed]


def playing_tables(ledger: Ledger, snapshot: Snapshot) -> list[dict[str, Any]]:
    """The seated tables whose game is not over (nor ended early by the organiser), round by
    round: `round`, `number`, `table`."""
    ended = {row.table_id for row in snapshot.endings}
    states = table_standings(ledger, snapshot)
    return [
        {"round": table.round, "number": table.number, "table": table.table_id}
        for table in snapshot.tables
        if table.table_id not in ended and not states[table.table_id]["finished"]
    ]


def playing_text(playing: Sequence[Mapping[str, Any]]) -> str:
    """ "table 2 of round 1, table 1 of round 2": the tables `playing_tables` lists."""
    return ", ".join(f"table {table['number']} of round {table['round']}" for table in playing)


def _check_played(ledger: Ledger, snapshot: Snapshot, round_number: int) -> None:
    """Refuse the next round, unconfirmed, while a table of the rounds before still plays: one
    tap must not seat it while they play (issue 37). Asked after the refusals that no
    confirmation lifts (a round out of order, a field that cannot be seated)."""
    playing = playing_tables(ledger, snapshot)
    if playing:
        raise TablesPlayingError(
            f"still playing: {playing_text(playing)}; confirm to seat round {round_number} "
            "all the same",
            key="refusal.event_tables_playing",
            params={"round": round_number, "playing": playing},
        )


def _check_next(snapshot: Snapshot, round_number: int) -> None:
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

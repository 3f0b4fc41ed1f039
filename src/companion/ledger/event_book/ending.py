"""Tables ended early (issue 39): the organiser ends a table whose game is not over, with a
reason, either "as it stands" (its result as if the game ended after its last entry then: a
riichi table's uma and oka on its points, an MCR table's table points on the hands played, a
money table's totals) or "void" (no result: its players get the event's void score, or their
average of their other tables). Both count in the standings and stand in the organiser's record;
the organiser may reopen the table while its round is not closed (no later round seated)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from companion.events.day import VOID_AVERAGE, average
from companion.events.standings import StandingRule, table_result
from companion.ledger.event_book.checks import checked_text
from companion.ledger.event_book.errors import EventError, RoundOrderError
from companion.ledger.event_book.records import Snapshot
from companion.ledger.event_book.store import EventStore
from companion.ledger.event_book.swap import table_of
from companion.ledger.event_book.views import AuditEntry
from companion.ledger.models import EntryRow, EventEndingRow, EventTableRow, TableRow
from companion.ledger.replay import Replay
from companion.ledger.repository import Ledger
from companion.ledger.rows import now
from companion.ledger.state import TableState, initial_state
from companion.names import name_key

AS_IT_STANDS = "as-it-stands"
VOID = "void"
MODES = (AS_IT_STANDS, VOID)

TableData = tuple[int, str, Mapping[str, Any]]
"""A seated table's (round, ledger table id, standings JSON), as the leaderboard reads it."""


class EndingError(RoundOrderError):
    """A table that cannot be ended (its game is over, or it was ended already) or reopened."""


def state_at(replayed: Replay, last_seq: int) -> TableState:
    """The table after its entries up to `last_seq`, as its corrected record counts them (a
    correction recorded later to a hand played before counts; a hand played after does not)."""
    state = initial_state(replayed.setup)
    for entry in replayed.entries:
        if entry.stored.seq > last_seq:
            break
        state = entry.after
    return state


def as_it_stands(replayed: Replay, last_seq: int) -> dict[str, Any]:
    """A table's standings JSON as if its game ended after entry `last_seq`: finished, and in a
    points game each player's result with uma and oka on the points as they stood."""
    state = state_at(replayed, last_seq)
    data = state.to_json()
    data["finished"] = True
    if state.game is not None:
        data["results"] = [
            {"name": standing.name, "place": standing.place, "final_exact": str(standing.result)}
            for standing in state.game.standings()
        ]
    return data


def _void_data(
    rule: StandingRule,
    data: Mapping[str, Any],
    scores: Mapping[str, Fraction],
) -> dict[str, Any]:
    """A voided table's standings JSON: each player scores `scores[name]`, and the second key
    nothing won or lost (a points game's players keep the start points)."""
    players = [str(player["name"]) for player in data["players"]]
    start = data.get("start_points", 0)
    found: dict[str, Any] = {"finished": True, "hands": 1, "start_points": start}
    if rule is StandingRule.MONEY:
        found["players"] = [{"name": name, "total_exact": str(scores[name])} for name in players]
    elif rule is StandingRule.FINALS:
        found["players"] = [{"name": name, "points": start} for name in players]
        found["results"] = [{"name": name, "final_exact": str(scores[name])} for name in players]
    else:
        found["players"] = [
            {"name": name, "table_points": str(scores[name]), "score": 0} for name in players
        ]
    return found


def with_endings(
    ledger: Ledger, snapshot: Snapshot, rule: StandingRule, tables: Sequence[TableData]
) -> list[TableData]:
    """The leaderboard's tables with those ended early counted as ended: "as it stands" from
    their record up to the ending, void with the event's void score (or each player's average
    of their other tables that are not void)."""
    endings = {row.table_id: row for row in snapshot.endings}
    if not endings:
        return list(tables)
    found: list[TableData] = []
    for round_number, table_id, data in tables:
        ending = endings.get(table_id)
        if ending is not None and ending.mode == AS_IT_STANDS:
            data = as_it_stands(ledger.replay(table_id), ending.last_seq)
        found.append((round_number, table_id, data))
    void_score = snapshot.record.void_score
    results: dict[str, list[Fraction]] = {}
    if void_score == VOID_AVERAGE:
        for round_number, table_id, data in found:
            ending = endings.get(table_id)
            if ending is None or ending.mode != VOID:
                result = table_result(table_id, round_number, rule, data)
                for player in result.players:
                    results.setdefault(name_key(player.name), []).append(player.primary)
    voided: list[TableData] = []
    for round_number, table_id, data in found:
        ending = endings.get(table_id)
        if ending is not None and ending.mode == VOID:
            names = [str(player["name"]) for player in data["players"]]
            scores = {
                name: average(results.get(name_key(name), ()))
                if void_score == VOID_AVERAGE
                else Fraction(void_score)
                for name in names
            }
            data = _void_data(rule, data, scores)
        voided.append((round_number, table_id, data))
    return voided


class EventEndings(EventStore):
    """The part of `EventBook` that ends a table early and reopens it."""

    def end_table(
        self,
        event_id: str,
        number: int,
        mode: str,
        reason: str,
        *,
        round_number: int | None = None,
        by: str = "",
    ) -> AuditEntry:
        """End table `number` (of `round_number`, by default the latest seated round) before
        its game is over: `as-it-stands` or `void`, with a reason."""
        if mode not in MODES:
            raise EventError(
                f"a table is ended {' or '.join(MODES)}; got {mode!r}",
                key="refusal.day_end_mode",
                params={"mode": mode},
            )
        why = checked_text(reason, "the reason for ending a table", "refusal.day_end_reason")
        # The table's game read before the event is locked (a table's record is read in a
        # session of its own, which the lock would keep waiting on SQLite).
        before = self._read(event_id)
        seated = table_of(before, round_number, number)
        finished = bool(self.ledger.standings(seated.table_id)["finished"])

        def act(session: Session, snapshot: Snapshot) -> dict[str, Any]:
            table = table_of(snapshot, round_number, number)
            if any(row.table_id == table.table_id for row in snapshot.endings):
                raise EndingError(
                    f"table {table.number} of round {table.round} is ended already: reopen it "
                    "first to end it another way",
                    key="refusal.day_end_ended",
                    params={"round": table.round, "number": table.number},
                )
            if finished:
                raise EndingError(
                    f"table {table.number} of round {table.round} has finished its game: there "
                    "is nothing to end",
                    key="refusal.day_end_finished",
                    params={"round": table.round, "number": table.number},
                )
            last_seq = _lock_table(session, table)
            session.add(
                EventEndingRow(
                    table_id=table.table_id,
                    event_id=snapshot.record.id,
                    round=table.round,
                    number=table.number,
                    mode=mode,
                    last_seq=last_seq,
                    reason=why,
                    ended_at=now(),
                )
            )
            return {
                "round": table.round,
                "reason": why,
                "details": {
                    "table": table.number,
                    "table_id": table.table_id,
                    "mode": mode,
                    "last_seq": last_seq,
                },
            }

        return self._write(event_id, "end", act, by)

    def reopen_table(
        self, event_id: str, number: int, *, round_number: int | None = None, by: str = ""
    ) -> AuditEntry:
        """Take back a table's early end, while its round is not closed (no later round is
        seated): it plays on, and counts as its game stands."""

        def act(session: Session, snapshot: Snapshot) -> dict[str, Any]:
            table = table_of(snapshot, round_number, number)
            ending = next((row for row in snapshot.endings if row.table_id == table.table_id), None)
            if ending is None:
                raise EndingError(
                    f"table {table.number} of round {table.round} was not ended early: there is "
                    "nothing to reopen",
                    key="refusal.day_reopen_not_ended",
                    params={"round": table.round, "number": table.number},
                )
            if len(snapshot.rounds) > table.round:
                raise EndingError(
                    f"round {table.round} is closed (round {table.round + 1} is seated): its "
                    "tables' ends stand",
                    key="refusal.day_reopen_closed",
                    params={"round": table.round, "next": table.round + 1},
                )
            session.execute(delete(EventEndingRow).where(EventEndingRow.table_id == table.table_id))
            return {
                "round": table.round,
                "details": {"table": table.number, "table_id": table.table_id, "mode": ending.mode},
            }

        return self._write(event_id, "reopen", act, by)


def _lock_table(session: Session, table: EventTableRow) -> int:
    """The table locked as a hand's write locks it, and its last entry's number (0: none)."""
    session.scalars(
        select(TableRow.id).where(TableRow.id == table.table_id).with_for_update()
    ).all()
    last = session.scalar(select(func.max(EntryRow.seq)).where(EntryRow.table_id == table.table_id))
    return int(last or 0)

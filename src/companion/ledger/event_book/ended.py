"""How a table ended early counts (issue 39): "as it stands", its result as if its game ended
after its last entry then (a riichi table's uma and oka on its points, an MCR table's table
points on the hands played, a money table's totals; a hand recorded later does not count), or
"void", no result (its players get the event's void score, or their average of their other
tables). The event's reads (`tables.table_standings`, `tables.standings_from`) count them so;
ending and reopening a table is `ending.EventEndings`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from companion.events.day import VOID_AVERAGE, average
from companion.events.standings import StandingRule, table_result
from companion.ledger.event_book.records import Snapshot
from companion.ledger.models import EventEndingRow
from companion.ledger.replay import Replay
from companion.ledger.repository import standings_json
from companion.ledger.state import TableState, initial_state
from companion.names import name_key

AS_IT_STANDS = "as-it-stands"
VOID = "void"
MODES = (AS_IT_STANDS, VOID)

TableData = tuple[int, str, Mapping[str, Any]]
"""A seated table's (round, ledger table id, standings JSON), as the leaderboard reads it."""


def stands_at(ending: EventEndingRow | None) -> int | None:
    """The entry after which a table ended "as it stands" stops counting (None: it counts as
    its record stands, or it is void). What a table's kept standings are kept by beside its
    last entry and its players: an end or a reopen changes what the same record counts."""
    return ending.last_seq if ending is not None and ending.mode == AS_IT_STANDS else None


def counted_standings(
    table_id: str, replayed: Replay, ending: EventEndingRow | None
) -> dict[str, Any]:
    """A table's standings JSON as the event counts it: as its record stands, or as it stood
    when it was ended "as it stands" (a void table's are replaced by `with_voids`)."""
    last_seq = stands_at(ending)
    if last_seq is None:
        return standings_json(table_id, replayed)
    return as_it_stands(replayed, last_seq)


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


def with_voids(
    snapshot: Snapshot, rule: StandingRule, tables: Sequence[TableData]
) -> list[TableData]:
    """The leaderboard's tables with those voided scoring the event's void score (or each
    player's average of their other tables that are not void); the others as given (a table
    ended "as it stands" counted so already, `counted_standings`)."""
    voids = {row.table_id for row in snapshot.endings if row.mode == VOID}
    if not voids:
        return list(tables)
    void_score = snapshot.record.void_score
    results: dict[str, list[Fraction]] = {}
    if void_score == VOID_AVERAGE:
        for round_number, table_id, data in tables:
            if table_id not in voids:
                result = table_result(table_id, round_number, rule, data)
                for player in result.players:
                    results.setdefault(name_key(player.name), []).append(player.primary)
    found: list[TableData] = []
    for round_number, table_id, data in tables:
        if table_id in voids:
            names = [str(player["name"]) for player in data["players"]]
            scores = {
                name: average(results.get(name_key(name), ()))
                if void_score == VOID_AVERAGE
                else Fraction(void_score)
                for name in names
            }
            data = _void_data(rule, data, scores)
        found.append((round_number, table_id, data))
    return found

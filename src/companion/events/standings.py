"""An event's standings: the results of its tables, round by round, as one leaderboard
(docs/events.md, *Standings*).

Pure: the tables' standings as the ledger gives them (or as plain results), the organiser's
penalties and corrections, and the players who withdrew give the leaderboard, the same every
time. Which standing rule a table follows is declared by its profile's capabilities
(`STANDING_RULES`), never asked of a profile by id. Amounts stay exact (Fractions) to the end."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from functools import lru_cache
from typing import Any

from companion.errors import InvalidRequestError
from companion.names import name_key
from companion.rules.profile import Profile
from companion.settlement import amount_json

_SUBSTITUTE = re.compile(r"Substitute \d+")
"""The seating's placeholders (`seating.SUBSTITUTE`): each stands for a different person each
time, so their results are nobody's and are left out of the leaderboard."""


class StandingRule(Enum):
    """What a table's result counts in the event."""

    MONEY = "money"
    """The net amount each player won or lost (the sum of their totals); no second key."""
    FINALS = "finals"
    """A points game: the final results (uma and oka included), then the points as a second
    key. A table still playing counts its points against the start, in thousands; a table
    before its first hand counts nothing in either."""
    TABLE_POINTS = "table-points"
    """Table points (4, 2, 1, 0 by place, shared on ties), then the table's scores."""


STANDING_RULES: tuple[tuple[Callable[[Profile[Any, Any]], bool], StandingRule], ...] = (
    (lambda profile: profile.table_points, StandingRule.TABLE_POINTS),
    (lambda profile: profile.points_game, StandingRule.FINALS),
)
"""The capability that selects each rule, the first that holds; a profile declaring none
of them is ranked by money."""


def standing_rule(profile: Profile[Any, Any]) -> StandingRule:
    """The rule by which an event counts a table of this profile."""
    for declared, rule in STANDING_RULES:
        if declared(profile):
            return rule
    return StandingRule.MONEY


class StandingsError(InvalidRequestError):
    """Results that do not make one leaderboard; the message says why."""


@dataclass(frozen=True)
class PlayerResult:
    """One player's result at one table: what ranks them, and the second key (or None)."""

    name: str
    primary: Fraction
    secondary: Fraction | None = None


@dataclass(frozen=True)
class TableResult:
    """One table of one round: its players' results, and whether its game is over."""

    table_id: str
    round: int
    rule: StandingRule
    players: tuple[PlayerResult, ...]
    finished: bool = True


@dataclass(frozen=True)
class Adjustment:
    """An organiser's penalty (a negative amount) or correction, with its reason and who
    decided it."""

    player: str
    amount: Fraction
    reason: str
    by: str

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "amount": amount_json(self.amount),
            "amount_exact": str(self.amount),
            "reason": self.reason,
            "by": self.by,
        }


def _exact(value: Any, what: str) -> Fraction:
    """A JSON number or exact string ("3/2", "1.5") as a Fraction; floats through their
    shortest text, so 23.1 is 231/10 and not the binary fraction."""
    if isinstance(value, bool) or value is None:
        raise StandingsError(f"{what} is not a number: {value!r}")
    try:
        return _fraction(str(value))
    except ValueError:
        raise StandingsError(f"{what} is not a number: {value!r}") from None


@lru_cache(maxsize=8192)
def _fraction(text: str) -> Fraction:
    """`Fraction(text)`, remembered (a Fraction is immutable): the tables of a big event repeat
    the same few amounts, and reading one from its text is slow."""
    return Fraction(text)


def table_result(
    table_id: str, round_number: int, rule: StandingRule, standings: Mapping[str, Any]
) -> TableResult:
    """A table's result from its standings JSON (the ledger's `TableState.to_json`, or an MCR
    table's with `table_points` and `score` for each player)."""
    finished = bool(standings.get("finished", False))
    players = standings["players"]
    results: list[PlayerResult] = []
    if rule is StandingRule.MONEY:
        for player in players:
            total = player.get("total_exact", player.get("total"))
            results.append(PlayerResult(player["name"], _exact(total, "a total")))
    elif rule is StandingRule.FINALS:
        # The exact finals sit in `results` (`final` per player is rounded for display).
        finals = {
            result["name"]: _exact(result["final_exact"], "a final result")
            for result in standings.get("results") or ()
        }
        start = _exact(standings.get("start_points", 0), "the start points")
        # A game seated but before its first hand counts nothing in either column: its start
        # points were not played for, and added to a finished table's they would read as
        # points won (36,400 and an unplayed 30,000 are not 66,400).
        started = finished or int(standings.get("hands", 1)) > 0
        for player in players:
            points = _exact(player["points"], "a player's points")
            name = player["name"]
            final = finals.get(name) if finished else None
            # A game still playing counts as it stands: its points against the start, in
            # thousands like a final result, with no uma or oka yet.
            primary = (points - start) / 1000 if final is None else final
            results.append(
                PlayerResult(name, primary, points)
                if started
                else PlayerResult(name, Fraction(0), Fraction(0))
            )
    else:
        # A table seated but before its first hand has its four level on 0, and table points
        # shared four ways would give each 7/4: it counts nothing until a hand is played, as a
        # money or riichi table does, so that an early table does not move its players ahead
        # of a table that starts later or of a player with a bye.
        started = finished or int(standings.get("hands", 1)) > 0
        for player in players:
            results.append(
                PlayerResult(
                    player["name"],
                    _exact(player["table_points"], "table points") if started else Fraction(0),
                    _exact(player["score"], "a score"),
                )
            )
    return TableResult(table_id, round_number, rule, tuple(results), finished)


@dataclass(frozen=True)
class Row:
    """One player of the leaderboard."""

    name: str
    total: Fraction
    secondary: Fraction | None
    rank: int
    tied: bool
    tables: int
    penalties: tuple[Adjustment, ...]
    withdrawn: bool
    provisional: bool
    """Whether a table of theirs is still playing: the total may change."""

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "rank": self.rank,
            "tied": self.tied,
            "total": amount_json(self.total),
            "total_exact": str(self.total),
            "secondary": None if self.secondary is None else amount_json(self.secondary),
            "secondary_exact": None if self.secondary is None else str(self.secondary),
            "tables": self.tables,
            "penalties": [penalty.to_json() for penalty in self.penalties],
            "withdrawn": self.withdrawn,
            "provisional": self.provisional,
        }


@dataclass(frozen=True)
class Standings:
    """The leaderboard, first place first, and the tables still playing."""

    rule: StandingRule
    rows: tuple[Row, ...]
    unfinished: tuple[tuple[int, str], ...]
    """(round, table id) of each table counted as it stands."""

    def to_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule.value,
            "rows": [row.to_json() for row in self.rows],
            "unfinished": [{"round": number, "table": table} for number, table in self.unfinished],
        }


@dataclass
class _Tally:
    name: str
    total: Fraction
    secondary: Fraction | None
    tables: int = 0
    provisional: bool = False
    whole_total: int = 0
    """The whole-number results summed apart (an int adds in nanoseconds, a Fraction in
    microseconds: a big event adds 16,000 of them); `settle` adds them to `total`."""
    whole_secondary: int = 0

    def add(self, primary: Fraction, secondary: Fraction | None) -> None:
        if primary.denominator == 1:
            self.whole_total += primary.numerator
        else:
            self.total += primary
        if self.secondary is not None and secondary is not None:
            if secondary.denominator == 1:
                self.whole_secondary += secondary.numerator
            else:
                self.secondary += secondary

    def settle(self) -> None:
        self.total += self.whole_total
        if self.secondary is not None:
            self.secondary += self.whole_secondary
        self.whole_total = self.whole_secondary = 0


def standings(
    tables: Iterable[TableResult],
    adjustments: Iterable[Adjustment] = (),
    withdrawn: Iterable[str] = (),
) -> Standings:
    """The event's leaderboard: each player's results summed over the tables they played,
    the organiser's adjustments added, ranked by total and then the second key. Players equal
    on both share the best rank (1, 2, 2, 4). Names are matched as the seating tells them
    apart: letter case aside."""
    tallies: dict[str, _Tally] = {}
    seen: set[tuple[int, str]] = set()
    rules: set[StandingRule] = set()
    unfinished: list[tuple[int, str]] = []
    for table in tables:
        rules.add(table.rule)
        key = (table.round, table.table_id)
        if key in seen:
            raise StandingsError(f"table {table.table_id} of round {table.round} is given twice")
        seen.add(key)
        if not table.finished:
            unfinished.append(key)
        for player in table.players:
            if _SUBSTITUTE.fullmatch(player.name):
                continue
            tally = tallies.get(name_key(player.name))
            if tally is None:
                tally = tallies[name_key(player.name)] = _Tally(
                    player.name, Fraction(0), None if player.secondary is None else Fraction(0)
                )
            tally.add(player.primary, player.secondary)
            tally.tables += 1
            tally.provisional = tally.provisional or not table.finished
    for tally in tallies.values():
        tally.settle()
    if len(rules) > 1:
        names = ", ".join(sorted(rule.value for rule in rules))
        raise StandingsError(f"an event's tables are counted one way; these mix {names}")
    penalties: dict[str, list[Adjustment]] = {}
    for adjustment in adjustments:
        tally = tallies.get(name_key(adjustment.player))
        if tally is None:
            raise StandingsError(f"{adjustment.player} played no table of the event")
        if not adjustment.reason.strip():
            raise StandingsError(f"a penalty or correction of {adjustment.player} needs a reason")
        tally.total += adjustment.amount
        penalties.setdefault(name_key(adjustment.player), []).append(adjustment)
    gone: set[str] = set()
    for name in withdrawn:
        if name_key(name) not in tallies:
            raise StandingsError(f"{name} withdrew but played no table of the event")
        gone.add(name_key(name))

    def order(tally: _Tally) -> tuple[Fraction, Fraction]:
        return (tally.total, tally.secondary if tally.secondary is not None else Fraction(0))

    # Equal players are listed by name, so the order never depends on the tables' order.
    ranked = sorted(
        tallies.values(),
        key=lambda tally: (-order(tally)[0], -order(tally)[1], name_key(tally.name)),
    )
    rows: list[Row] = []
    for index, tally in enumerate(ranked):
        rank = index + 1
        if index and order(ranked[index - 1]) == order(tally):
            rank = rows[-1].rank
        tied = any(
            order(other) == order(tally)
            for other in ranked[max(0, index - 1) : index + 2]
            if other is not tally
        )
        rows.append(
            Row(
                tally.name,
                tally.total,
                tally.secondary,
                rank,
                tied,
                tally.tables,
                tuple(penalties.get(name_key(tally.name), ())),
                name_key(tally.name) in gone,
                tally.provisional,
            )
        )
    rule = rules.pop() if rules else StandingRule.MONEY
    return Standings(rule, tuple(rows), tuple(unfinished))

"""`sg-table`: the full Singapore table (the Singapore table guides; docs/rules-sg-table.md).

Built on what the Singapore profiles share (`companion.rules.singapore`): the Singapore pattern
table with a few patterns changed and a few added, as data (`SG_TABLE_CHANGES`,
`SG_TABLE_ADDITIONS`), the Singapore options with the house rules Singapore tables commonly
change (`SgTableOptions`), and a settlement with pay-for-all and 10-tai limit hands paid at the
next doubling. The instant payouts are separate from the hand: `companion.payouts`.
`docs/rules-sg-table.md` says how each rule is read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from companion.context import FlowerWin, WinContext
from companion.errors import InvalidRequestError
from companion.hand import Hand
from companion.rules import predicates as p
from companion.rules.base import Pattern, PatternScore, no_reading, parse_amount
from companion.rules.patterns import PatternChanges, derive_patterns, ids
from companion.rules.singapore import (
    SINGAPORE_PATTERNS,
    SingaporeOptions,
    SingaporeRules,
    ping_hu,
)
from companion.rules.value import Count
from companion.settlement import (
    Amount,
    Payments,
    amount_json,
    collect,
    doubling,
    doubling_share,
    others,
)
from companion.tiles import Wind

# ---------------------------------------------------------------------------------------------
# The pattern table: the Singapore table, changed and extended by id.


LIMIT_TAI = 10
"""The value of a limit hand (Big dragons, Big winds), and the highest cap a table may set."""

SG_TABLE_CHANGES: PatternChanges = {
    # Animals count as bonus tiles: Little Ping Hu allows them, Ping Hu does not. Neither is
    # awarded when all four chows are declared (the table guides say it of Little Ping Hu;
    # a hand that does not get the small one cannot get the big one).
    "little_ping_hu": {
        "predicate": ping_hu(bonus_allowed=True, animals_count=True, declared_chows_allowed=False)
    },
    "ping_hu": {
        "predicate": ping_hu(bonus_allowed=False, animals_count=True, declared_chows_allowed=False)
    },
    # The flower set stacks with the seat tile: all four flowers for East = 2 + 1.
    "flower_set": {"includes": frozenset()},
    "mixed_terminals_honors": {"replaces": ids("all_pungs", "dragon_set", "valued_wind")},
    "little_winds": {"replaces": ids("valued_wind", "half_flush", "full_flush")},
    # 10-tai limit hands: worth their value alone, so they include the sets they are made of.
    "big_dragons": {
        "name": "Big dragons (Three Great Scholars)",
        "tai": LIMIT_TAI,
        "limit": True,
        "includes": ids("dragon_set"),
    },
    "big_winds": {
        "name": "Big winds (Four Great Blessings)",
        "tai": LIMIT_TAI,
        "limit": True,
        "includes": ids("valued_wind"),
    },
    "thirteen_orphans": {"settles_as_self_draw": True},
}
"""What `sg-table` changes in the Singapore patterns, by pattern id: `Pattern.with_changes`
arguments."""

SG_TABLE_ADDITIONS: tuple[Pattern, ...] = (
    Pattern("animal", "Animal", 1, p.each_animal),
    Pattern("animal_set", "Animal set", 5, p.all_animals, includes=ids("animal")),
)
"""Patterns `sg-table` adds to the Singapore table (its flower wins are in
`SG_TABLE_FLOWER_WINS`)."""


SG_TABLE_PATTERNS = derive_patterns(SINGAPORE_PATTERNS, SG_TABLE_CHANGES, SG_TABLE_ADDITIONS)

SG_TABLE_FLOWER_WINS: Mapping[FlowerWin, Pattern] = {
    FlowerWin.SEVEN_CAPTURE: Pattern("seven_bonus", "Seven bonus tiles", 5, no_reading),
    FlowerWin.EIGHT: Pattern("eight_bonus", "All eight bonus tiles", 5, no_reading),
}


# ---------------------------------------------------------------------------------------------
# Payout charts: an amount per tai instead of the doubling share.


@dataclass(frozen=True)
class PayoutChart:
    """Amounts per tai, in units of the one-tai share V: entry n-1 is for n tai.

    On a discard win the discarder pays `discarder[n-1]` and each other opponent `others[n-1]`;
    on a self-draw each opponent pays `self_draw[n-1]`. A hand at 0 tai pays half the 1-tai
    amounts; a hand beyond the cap (a limit hand) pays twice the amounts at the cap.
    """

    name: str
    discarder: tuple[Fraction, ...]
    others: tuple[Fraction, ...]
    self_draw: tuple[Fraction, ...]

    def rows(self) -> dict[str, tuple[Fraction, ...]]:
        return {"discarder": self.discarder, "others": self.others, "self_draw": self.self_draw}

    def amount(self, row: tuple[Fraction, ...], tai: int, cap: int) -> Fraction:
        if tai <= 0:
            return row[0] / 2
        if tai > cap:
            return 2 * row[cap - 1]
        return row[tai - 1]

    def to_json(self) -> dict[str, list[int | float]]:
        return {name: [amount_json(a) for a in row] for name, row in self.rows().items()}


def _amounts(*values: int) -> tuple[Fraction, ...]:
    return tuple(Fraction(value) for value in values)


CHART_PRESETS: Mapping[str, PayoutChart] = {
    "3/6": PayoutChart(
        "3/6",
        discarder=_amounts(4, 7, 11, 20, 40),
        others=_amounts(0, 0, 0, 0, 0),
        self_draw=_amounts(2, 3, 5, 10, 20),
    ),
    "1/2": PayoutChart(
        "1/2",
        discarder=_amounts(4, 8, 16, 32, 64),
        others=_amounts(0, 0, 0, 0, 0),
        self_draw=_amounts(2, 4, 8, 16, 32),
    ),
}
"""Two charts common in Singapore, both shooter-pays: the discarder pays the whole win."""

_CHART_ROWS = ("discarder", "others", "self_draw")


def parse_chart(value: Any) -> PayoutChart | None:
    """The `chart` option: null, a preset name, or an object of amount lists per tai
    (`discarder` and `self_draw` required, `others` all 0 when left out)."""
    if value is None:
        return None
    if isinstance(value, str):
        preset = CHART_PRESETS.get(value.strip())
        if preset is None:
            known = ", ".join(f'"{name}"' for name in CHART_PRESETS)
            raise InvalidRequestError(
                f'option chart: unknown preset "{value}": use {known}, or an object of '
                "discarder, others and self_draw amounts per tai"
            )
        return preset
    if not isinstance(value, Mapping):
        raise InvalidRequestError(
            "option chart must be a preset name or an object of discarder, others and "
            "self_draw amounts per tai"
        )
    unknown = sorted(str(key) for key in value if key not in _CHART_ROWS)
    if unknown:
        raise InvalidRequestError(
            f"option chart: unknown row {', '.join(unknown)}: the rows are "
            + ", ".join(_CHART_ROWS)
        )
    rows: dict[str, tuple[Fraction, ...]] = {}
    for name in ("discarder", "self_draw"):
        if name not in value:
            raise InvalidRequestError(f"option chart needs a {name} row: an amount per tai")
        rows[name] = _chart_row(name, value[name])
    if "others" in value:
        rows["others"] = _chart_row("others", value["others"])
    else:
        rows["others"] = tuple(Fraction(0) for _ in rows["discarder"])
    return PayoutChart("custom", rows["discarder"], rows["others"], rows["self_draw"])


def _chart_row(name: str, value: Any) -> tuple[Fraction, ...]:
    if not isinstance(value, list | tuple) or not value:
        raise InvalidRequestError(
            f"option chart: {name} must be a list of amounts, one per tai from 1 tai up"
        )
    amounts = tuple(parse_amount(item, f"option chart: {name} amount") for item in value)
    if any(amount < 0 for amount in amounts):
        raise InvalidRequestError(f"option chart: {name} amounts cannot be negative")
    return amounts


# ---------------------------------------------------------------------------------------------
# Options


MAX_CAP = LIMIT_TAI


@dataclass(frozen=True)
class SgTableOptions(SingaporeOptions):
    """The Singapore options (`min_tai`, `share`, `tai_overrides`) and the house rules of the
    table."""

    cap: int = 5
    """The most tai a hand settles at (1-10); a limit hand beyond it pays the next doubling."""
    shooter_pays: bool = False
    """On a discard win the discarder pays every share, the other opponents nothing."""
    chart: PayoutChart | None = None
    """A payout chart instead of doubling shares: a preset name ("3/6", "1/2") or amounts."""
    readers: ClassVar[Mapping[str, Callable[[Any], Any]]] = {"chart": parse_chart}

    def problems(self, pattern_ids: frozenset[str]) -> list[str]:
        problems = super().problems(pattern_ids)
        if not 1 <= self.cap <= MAX_CAP:
            problems.append(f"option cap must be from 1 to {MAX_CAP}")
        elif self.min_tai > self.cap:
            problems.append(f"option min_tai cannot be above the cap ({self.cap})")
        if self.chart is not None and 1 <= self.cap <= MAX_CAP:
            for name, row in self.chart.rows().items():
                if len(row) < self.cap:
                    problems.append(
                        f"option chart: {name} has amounts for 1 to {len(row)} tai, but the cap "
                        f"is {self.cap}"
                    )
        return problems


# ---------------------------------------------------------------------------------------------
# The profile


class SgTableProfile(SingaporeRules[SgTableOptions]):
    id = "sg-table"
    name = "Singapore table (animals, 10-tai limits, pay-for-all)"
    patterns = SG_TABLE_PATTERNS
    flower_wins = SG_TABLE_FLOWER_WINS
    options_type = SgTableOptions
    cap = 5
    """The default cap; the `cap` option changes it per request."""
    pay_for_all = True
    animals = True
    instant_payouts = True

    def cap_of(self, options: SgTableOptions) -> int:
        return options.cap

    def value_of(self, raw: int, scores: Sequence[PatternScore], options: SgTableOptions) -> Count:
        """The raw total capped; a limit hand is worth its limit, or the capped total when the
        table's cap and tai values make that more."""
        limits = [s.tai for s in scores if s.id in self._limit_ids]
        return Count(max([min(raw, options.cap), *limits]), raw)

    def check_hand(self, hand: Hand, context: WinContext, options: SgTableOptions) -> list[str]:
        if context.flower_win is not None and any(tile.is_animal for tile in hand.bonus):
            return ["A flower win is worth its own pattern: animal tiles add nothing to it"]
        return []

    def share(self, tai: int, options: SgTableOptions) -> Fraction:
        """V x 2^(tai-1) up to the cap (V/2 at 0 tai); a limit hand beyond the cap pays the next
        doubling, V x 2^cap (32V with the cap at 5)."""
        return doubling_share(min(tai, options.cap + 1), options.share)

    def share_amount(self, tai: int, options: SgTableOptions) -> Amount:
        return doubling(min(tai, options.cap + 1), options.share)

    def settle(self, value: Count, context: WinContext, options: SgTableOptions) -> Payments:
        """What each opponent owes (shares or the chart), then pay-for-all: the liable seat pays
        the whole of it and nobody else pays."""
        owed = self.owed(value.tai, context, options)
        if context.liable is not None:
            owed = {context.liable: sum(owed.values(), 0)}
        return collect(context.seat, owed)

    def owed(self, tai: int, context: WinContext, options: SgTableOptions) -> dict[Wind, Amount]:
        """Each opponent's debt before pay-for-all. Discard: the discarder 2 shares and the others
        1 each (or the chart's discarder and others amounts); with shooter pays the discarder
        pays all of it. Self-draw: every opponent 2 shares (or the chart's self-draw amount)."""
        payers = others(context.seat)
        chart = options.chart
        by_discarder: Amount
        by_other: Amount
        by_drawn: Amount
        if chart is None:
            share = self.share_amount(tai, options)
            by_discarder, by_other, by_drawn = 2 * share, share, 2 * share
        else:
            cap = options.cap
            by_discarder = chart.amount(chart.discarder, tai, cap) * options.share
            by_other = chart.amount(chart.others, tai, cap) * options.share
            by_drawn = chart.amount(chart.self_draw, tai, cap) * options.share
        if context.self_drawn:
            return dict.fromkeys(payers, by_drawn)
        owed = {payer: by_discarder if payer is context.discarder else by_other for payer in payers}
        if options.shooter_pays and context.discarder is not None:
            owed = {context.discarder: sum(owed.values(), 0)}
        return owed


SG_TABLE = SgTableProfile()

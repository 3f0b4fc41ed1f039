"""`hk`: Hong Kong old style, counted in faan (`docs/rules-hk.md`).

Four sets and a pair or Thirteen Orphans (seven pairs as a house rule); a 3-faan minimum counted
without the flower faan; a 13-faan maximum that limit hands score alone; one payment is
base x M(faan) on the half-spicy or spicy curve, with full or half gun on a discard.

The checks of a win's circumstances are Singapore's (the same events, heavenly and earthly
hands, a robbed kong entered as a discard), so the profile builds on `SingaporeRules`; its
pattern table, options and settlement are its own.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from companion.context import Event, WinContext
from companion.errors import NotAWinError
from companion.hand import Hand, MeldKind
from companion.rules import predicates as p
from companion.rules.facts import Facts, match_all
from companion.rules.features import Feature
from companion.rules.options import Options
from companion.rules.patterns import Match, Pattern, PatternScore, Predicate, ids, needs
from companion.rules.profile import HouseRule
from companion.rules.singapore import SingaporeRules, hidden_treasure
from companion.rules.value import Count, Shortfall
from companion.settlement import Amount, Payments, collect, others
from companion.shapes import FOUR_SETS, Shape
from companion.tiles import Wind, english_list

MAX_FAAN = 13
"""The highest maximum a table plays with, and the faan of a limit hand in the table."""

FAAN_MAXIMA = (8, 10, 13)
"""The maximum faan a table may choose (`max_faan`)."""

CURVES: Mapping[str, tuple[int, ...]] = {
    "half_spicy": (1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384),
    "spicy": tuple(2**faan for faan in range(MAX_FAAN + 1)),
}
"""M(faan) for 0 to 13 faan: one payment is base x M(faan)."""


@dataclass(frozen=True, slots=True)
class Gun:
    """What a discard win costs, in payments P: the discarder's part and each other player's."""

    discarder: Fraction
    others: Fraction


GUNS: Mapping[str, Gun] = {
    "full": Gun(Fraction(2), Fraction(0)),
    "half": Gun(Fraction(1), Fraction(1, 2)),
}
"""Full gun: the discarder alone pays 2P. Half gun: the discarder P, each other player P/2."""

FLOWER_FAAN: frozenset[str] = frozenset({"no_flowers", "seat_flower", "flower_set"})
"""The flower faan, which do not count towards the minimum unless `flowers_count_to_minimum`."""


@dataclass(frozen=True)
class HkOptions(Options):
    """The hk options (docs/rules-hk.md). `min_tai` mirrors `min_faan` for the shared code."""

    min_faan: int = 3
    """The fewest faan, flower faan apart, a hand must have to be paid."""
    max_faan: int = MAX_FAAN
    """The most faan a hand settles at (8, 10 or 13); limit hands score it."""
    flowers_count_to_minimum: bool = False
    """Whether No flowers, Seat flower and flower sets count towards the minimum."""
    great_dragons_limit: bool = False
    """Whether Great dragons is a limit hand instead of 8 faan."""
    seven_pairs: bool = False
    """Whether seven pairs is a winning hand (4 faan)."""
    base: Fraction = Fraction(1)
    """The stake: one payment is base x M(faan); 0.5, 1 and 2 are usual."""
    curve: str = "half_spicy"
    """M(faan): `half_spicy` (1, 2, 4, 8, 16, 24, 32, ...) or `spicy` (2^faan)."""
    gun: str = "full"
    """A discard win: `full` (the discarder pays 2P) or `half` (P, and P/2 from each other)."""
    derived: ClassVar[frozenset[str]] = frozenset({"min_tai"})

    def __post_init__(self) -> None:
        object.__setattr__(self, "min_tai", self.min_faan)

    def problems(self, pattern_ids: frozenset[str]) -> list[str]:
        problems = super().problems(pattern_ids)
        if self.max_faan not in FAAN_MAXIMA:
            problems.append("option max_faan must be 8, 10 or 13")
        elif not 0 <= self.min_faan <= self.max_faan:
            problems.append(f"option min_faan must be from 0 to the maximum ({self.max_faan})")
        if self.base <= 0:
            problems.append("option base must be more than 0")
        if self.curve not in CURVES:
            problems.append(f'option curve must be "half_spicy" or "spicy", not "{self.curve}"')
        if self.gun not in GUNS:
            problems.append(f'option gun must be "full" or "half", not "{self.gun}"')
        return problems


# --- predicates --------------------------------------------------------------------------------


@needs(Feature.ONE_SUIT, decided=True)
def one_suit(facts: Facts) -> tuple[Match, ...]:
    """One numbered suit, honors or not (All one suit replaces it when there are none)."""
    return match_all(facts) if len(facts.suits) == 1 else p.NONE


@needs(Feature.ONLY_CONCEALED_KONGS, decided=True)
def concealed_hand(facts: Facts) -> tuple[Match, ...]:
    """No claimed group: only concealed kongs are declared."""
    melds = facts.hand.melds
    if all(meld.kind is MeldKind.CONCEALED_KONG for meld in melds):
        return match_all(facts)
    return p.NONE


@needs(Feature.SELF_DRAWN, decided=True)
def self_draw(facts: Facts) -> tuple[Match, ...]:
    return p.winning_tile_match(facts) if facts.context.self_drawn else p.NONE


def wind_pung(wind_of: Callable[[WinContext], Wind], held: int) -> Predicate:
    """A pung or kong of the wind `wind_of` names (the seat's, or the prevailing one); `held`
    is the feature bit of a reading that holds one (a hand holds at most one)."""

    @needs(held, decided=True)
    def predicate(facts: Facts) -> tuple[Match, ...]:
        wind = wind_of(facts.context).tile
        return tuple(Match((g,)) for g in facts.pungs if g.tile is wind)

    return predicate


def bonus_tiles(count: int) -> Predicate:
    """Exactly `count` flowers and seasons."""

    # The bits count flowers exactly at none, seven and eight: they decide those counts.
    @needs(
        {0: Feature.NO_FLOWER, 7: Feature.FLOWERS_7, 8: Feature.FLOWERS_8}.get(
            count, Feature.FLOWER
        ),
        decided=count in (0, 7, 8),
    )
    def predicate(facts: Facts) -> tuple[Match, ...]:
        return (Match(facts.flowers),) if len(facts.flowers) == count else p.NONE

    return predicate


def _limit(pattern_id: str, name: str, predicate: Predicate) -> Pattern:
    """A limit hand: the maximum, alone (`with_limits` makes it replace every other pattern)."""
    return Pattern(pattern_id, name, MAX_FAAN, predicate, limit=True)


PATTERNS: tuple[Pattern, ...] = (
    # The hand's shape and suits
    Pattern("chow_hand", "Common hand", 1, p.all_chows),
    Pattern("all_triplets", "All triplets", 3, p.all_pungs),
    Pattern("half_flush", "Mixed one suit", 3, one_suit),
    Pattern("full_flush", "All one suit", 7, p.full_flush, replaces=ids("half_flush")),
    Pattern("mixed_terminals_honors", "Mixed orphans", 1, p.terminals_and_honors),
    Pattern("seven_pairs", "Seven pairs", 4, p.seven_pairs),
    # Honor sets
    Pattern("dragon_set", "Dragon pung", 1, p.dragon_pungs),
    Pattern(
        "seat_wind", "Seat wind", 1, wind_pung(lambda context: context.seat, Feature.SEAT_WIND_PUNG)
    ),
    Pattern(
        "prevailing_wind",
        "Prevailing wind",
        1,
        wind_pung(lambda context: context.round, Feature.ROUND_WIND_PUNG),
    ),
    Pattern("little_dragons", "Small dragons", 5, p.little_dragons, includes=ids("dragon_set")),
    Pattern("big_dragons", "Great dragons", 8, p.big_dragons, replaces=ids("dragon_set")),
    # How it was won
    Pattern("self_draw", "Self-draw", 1, self_draw),
    Pattern("concealed_hand", "Concealed hand", 1, concealed_hand),
    Pattern("robbing_kong", "Robbing a kong", 1, p.event(Event.ROBBING_KONG)),
    Pattern("last_tile", "Last tile", 1, p.event(Event.LAST_TILE)),
    Pattern(
        "replacement_win",
        "Win on a kong replacement",
        2,
        p.event(Event.REPLACEMENT),
        # A replacement tile comes from the kong's end of the wall, never as the last tile.
        replaces=ids("self_draw", "last_tile"),
    ),
    Pattern(
        "kong_on_kong",
        "Win on a second kong's replacement",
        9,
        p.event(Event.KONG_ON_KONG),
        replaces=ids("self_draw", "replacement_win", "last_tile"),
    ),
    # Flowers and seasons
    Pattern("no_flowers", "No flowers", 1, p.no_flowers),
    Pattern("seat_flower", "Seat flower or season", 1, p.seat_bonus),
    Pattern("flower_set", "Flower set", 2, p.flower_families, includes=ids("seat_flower")),
    Pattern(
        "seven_flowers",
        "Seven bonus tiles",
        3,
        bonus_tiles(7),
        replaces=ids("seat_flower", "flower_set"),
    ),
    # Limit hands
    _limit("thirteen_orphans", "Thirteen orphans", p.thirteen_orphans),
    _limit("nine_gates", "Nine gates", p.nine_gates),
    _limit("big_winds", "Great winds", p.big_winds),
    _limit("little_winds", "Small winds", p.little_winds),
    _limit("all_honors", "All honors", p.all_honors),
    _limit("all_terminals", "Orphans", p.all_terminals),
    _limit("four_kongs", "All kongs", p.kong_count(4)),
    _limit("hidden_treasure", "Four concealed pungs", hidden_treasure),
    _limit("heavenly", "Heavenly hand", p.event(Event.HEAVENLY)),
    _limit("earthly", "Earthly hand", p.event(Event.EARTHLY)),
    _limit("eight_bonus", "All eight bonus tiles", bonus_tiles(8)),
)
"""The hk table with its defaults; `patterns_for` applies the options that change it."""

HOUSE_RULES = (
    HouseRule("great_dragons_limit", changes={"big_dragons": {"limit": True, "tai": MAX_FAAN}}),
    # Seven pairs is in the table, and scores only where the shape is a win.
    HouseRule("seven_pairs", allows=frozenset({Shape.SEVEN_PAIRS}), about="seven_pairs"),
)
"""hk's options that change its shapes or its table (the maximum is `finish_patterns`)."""


def with_limits(patterns: Sequence[Pattern], maximum: int) -> tuple[Pattern, ...]:
    """The table with each limit hand worth `maximum` and replacing every other pattern that
    is not a limit hand: a limit hand scores the maximum alone."""
    ordinary = frozenset(pattern.id for pattern in patterns if not pattern.limit)
    return tuple(
        pattern.with_changes(tai=maximum, replaces=ordinary) if pattern.limit else pattern
        for pattern in patterns
    )


def payment(faan: int, options: HkOptions) -> Amount:
    """P = base x M(faan), an int when it is whole."""
    multiple = CURVES[options.curve][min(faan, MAX_FAAN)]
    if options.base.denominator == 1:
        return options.base.numerator * multiple
    return options.base * multiple


class HkProfile(SingaporeRules[HkOptions]):
    id = "hk"
    name = "Hong Kong old style (faan)"
    structure = FOUR_SETS
    patterns = with_limits(PATTERNS, MAX_FAAN)
    options_type = HkOptions
    house_rules = HOUSE_RULES
    cap = MAX_FAAN
    """The default maximum; the `max_faan` option changes it per request."""
    unit = "faan"
    pay_for_all = True

    def house_rules_key(self, options: HkOptions) -> Hashable:
        return (super().house_rules_key(options), options.max_faan)

    def finish_patterns(
        self, patterns: tuple[Pattern, ...], options: HkOptions
    ) -> tuple[Pattern, ...]:
        """Every limit hand, Great dragons too under `great_dragons_limit`, worth the table's
        maximum alone."""
        return with_limits(patterns, options.max_faan)

    def cap_of(self, options: HkOptions) -> int:
        return options.max_faan

    def value_of(self, raw: int, scores: Sequence[PatternScore], options: HkOptions) -> Count:
        """The total cut to the maximum (a limit hand, alone, is worth the maximum)."""
        return Count(min(raw, options.max_faan), raw)

    def under_minimum(
        self, value: Count, scores: Sequence[PatternScore], options: HkOptions
    ) -> Shortfall | None:
        """The settled faan against the minimum, less the flower faan among the scores unless
        they count (an agreed count has no scores: all of it counts)."""
        counted = value.tai
        left_out: tuple[tuple[str, str], ...] = ()
        if not options.flowers_count_to_minimum:
            flowers = sum(score.tai for score in scores if score.id in FLOWER_FAAN)
            counted = min(value.raw_tai - flowers, counted)
            if counted < options.min_tai:
                left_out = tuple(
                    (score.id, score.name)
                    for score in scores
                    if score.id in FLOWER_FAAN and score.tai
                )
        if counted >= options.min_tai:
            return None
        return self.short_of_minimum(value, counted, options, left_out)

    def check_hand(self, hand: Hand, context: WinContext, options: HkOptions) -> list[str]:
        animals = [tile for tile in hand.bonus if tile.is_animal]
        if animals:
            raise NotAWinError(
                f"animal tiles are not Hong Kong tiles: take out {english_list(animals)}",
                key="refusal.hk_animals",
                params={"tiles": [tile.mpsz for tile in animals]},
            )
        # The shared checks let a bonus tile's replacement count too (and want two kongs for
        # kong_on_kong); hk scores only a kong's replacement tile.
        if context.has(Event.REPLACEMENT) and not any(meld.kind.is_kong for meld in hand.melds):
            raise NotAWinError(
                "replacement in hk is a win on a kong's replacement tile: melds hold no kong "
                "(a bonus tile's replacement scores nothing here)",
                key="refusal.hk_replacement",
            )
        return []

    def settle(self, value: Count, context: WinContext, options: HkOptions) -> Payments:
        """Self-draw: each of the other three pays P. Discard (a robbed kong too): the gun's
        parts of P from the discarder and the others. A liable seat pays all of it."""
        amount = payment(value.tai, options)
        if context.self_drawn:
            owed = dict.fromkeys(others(context.seat), amount)
        else:
            gun = GUNS[options.gun]
            owed = {
                payer: amount * (gun.discarder if payer is context.discarder else gun.others)
                for payer in others(context.seat)
            }
        if context.liable is not None:
            owed = {context.liable: sum(owed.values(), 0)}
        return collect(context.seat, owed)


HK = HkProfile()

__all__ = ["CURVES", "GUNS", "HK", "PATTERNS", "HkOptions", "HkProfile", "payment"]

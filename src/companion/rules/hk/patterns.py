"""hk's pattern table, its limit hands and the house rules that change it."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from companion.context import Circumstance, WinContext
from companion.hand import MeldKind
from companion.rules import predicates as p
from companion.rules.facts import Facts, match_all
from companion.rules.features import Feature
from companion.rules.hk.options import MAX_FAAN
from companion.rules.house_rules import HouseRule
from companion.rules.patterns import Match, Pattern, Predicate, ids, needs
from companion.rules.singapore.patterns import hidden_treasure
from companion.shapes import Shape
from companion.tiles import Wind


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
    Pattern("robbing_kong", "Robbing a kong", 1, p.circumstance(Circumstance.ROBBING_KONG)),
    Pattern("last_tile", "Last tile", 1, p.circumstance(Circumstance.LAST_TILE)),
    Pattern(
        "replacement_win",
        "Win on a kong replacement",
        2,
        p.circumstance(Circumstance.REPLACEMENT),
        # A replacement tile comes from the kong's end of the wall, never as the last tile.
        replaces=ids("self_draw", "last_tile"),
    ),
    Pattern(
        "kong_on_kong",
        "Win on a second kong's replacement",
        9,
        p.circumstance(Circumstance.KONG_ON_KONG),
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
    _limit("heavenly", "Heavenly hand", p.circumstance(Circumstance.HEAVENLY)),
    _limit("earthly", "Earthly hand", p.circumstance(Circumstance.EARTHLY)),
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

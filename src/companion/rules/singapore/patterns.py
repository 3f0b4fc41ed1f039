"""The Singapore pattern tables: the one `sg` plays as it is, `sg-table`'s changes and additions
to it by pattern id, sg's house rule, and the predicates of their own."""

from __future__ import annotations

from collections.abc import Mapping

from companion.context import Circumstance, FlowerWin, WinType
from companion.rules import predicates as p
from companion.rules.facts import Facts, match_all, no_reading
from companion.rules.features import Feature
from companion.rules.house_rules import HouseRule
from companion.rules.patterns import (
    Match,
    Pattern,
    PatternChanges,
    Predicate,
    derive_patterns,
    ids,
    needs,
)
from companion.shapes import Shape
from companion.tiles import Tile


def ping_hu(*, bonus_allowed: bool, animals_count: bool, declared_chows_allowed: bool) -> Predicate:
    """Four chows and a pair that is not a dragon, the seat wind or the round wind; on a discard
    the hand must have waited on two or more kinds. Without `bonus_allowed`, no flowers or
    seasons (nor animals, when they count as bonus tiles)."""

    # Four chows are the bit in a hand of four sets (a standard reading, its pair last).
    @needs(Feature.CHOWS_4 if bonus_allowed else Feature.CHOWS_4 | Feature.NO_FLOWER)
    def predicate(facts: Facts) -> tuple[Match, ...]:
        if not bonus_allowed and animals_count and facts.animals:
            return p.NONE
        context = facts.context
        pair = facts.groups[-1].tile
        if pair >= Tile.WHITE or pair == context.seat.tile or pair == context.round.tile:
            return p.NONE
        if context.win is WinType.DISCARD and len(facts.waits) < 2:
            return p.NONE
        if not declared_chows_allowed and all(chow.declared for chow in facts.chows):
            return p.NONE
        return match_all(facts)

    return predicate


@needs(Feature.SELF_DRAWN | Feature.CONCEALED_PUNGS_4, decided=True)
def hidden_treasure(facts: Facts) -> tuple[Match, ...]:
    """Four concealed pungs or kongs and a self-drawn win."""
    concealed = facts.concealed_pungs
    if facts.context.self_drawn and len(concealed) >= 4:
        return (Match(concealed),)
    return p.NONE


@needs(Feature.SELF_DRAWN | Feature.NO_MELDS, decided=True)
def fully_concealed(facts: Facts) -> tuple[Match, ...]:
    """No declared group at all (a concealed kong is declared) and a self-drawn win."""
    if facts.context.self_drawn and not facts.hand.melds:
        return match_all(facts)
    return p.NONE


SINGAPORE_PATTERNS: tuple[Pattern, ...] = (
    Pattern("seat_flower", "Seat flower or season", 1, p.seat_bonus),
    Pattern("flower_set", "Flower set", 2, p.flower_families, includes=ids("seat_flower")),
    Pattern("dragon_set", "Dragon set", 1, p.dragon_pungs),
    Pattern("valued_wind", "Valued wind set", 1, p.valued_wind_pungs),
    Pattern(
        "little_ping_hu",
        "Little Ping Hu",
        1,
        ping_hu(bonus_allowed=True, animals_count=False, declared_chows_allowed=True),
    ),
    Pattern(
        "ping_hu",
        "Ping Hu",
        4,
        ping_hu(bonus_allowed=False, animals_count=False, declared_chows_allowed=True),
        replaces=ids("little_ping_hu"),
    ),
    Pattern("fully_concealed", "Fully concealed hand", 1, fully_concealed),
    # A replacement tile is never the last-tile win, so a win on one (or on a second kong's
    # replacement) replaces it.
    Pattern(
        "replacement_win",
        "Replacement-tile win",
        1,
        p.circumstance(Circumstance.REPLACEMENT),
        replaces=ids("last_tile"),
    ),
    Pattern("robbing_kong", "Robbing a kong", 1, p.circumstance(Circumstance.ROBBING_KONG)),
    Pattern("last_tile", "Last-tile win", 1, p.circumstance(Circumstance.LAST_TILE)),
    Pattern("half_flush", "Half flush", 2, p.half_flush),
    Pattern("all_pungs", "All pungs", 2, p.all_pungs),
    Pattern("little_dragons", "Little dragons", 3, p.little_dragons, includes=ids("dragon_set")),
    Pattern("full_flush", "Full flush", 4, p.full_flush),
    Pattern(
        "mixed_terminals_honors",
        "Mixed terminals and honors",
        4,
        p.terminals_and_honors,
        replaces=ids("all_pungs"),
    ),
    Pattern("little_winds", "Little winds", 4, p.little_winds),
    Pattern("big_dragons", "Big dragons", 5, p.big_dragons),
    Pattern("big_winds", "Big winds", 5, p.big_winds),
    Pattern("all_honors", "All honors", 5, p.all_honors),
    Pattern("all_terminals", "All terminals", 5, p.all_terminals),
    Pattern("hidden_treasure", "Hidden treasure", 5, hidden_treasure),
    Pattern(
        "thirteen_orphans",
        "Thirteen orphans",
        5,
        p.thirteen_orphans,
        replaces=ids("mixed_terminals_honors"),
    ),
    Pattern("all_green", "All green", 5, p.all_green),
    Pattern("nine_gates", "Nine gates", 5, p.nine_gates),
    Pattern("four_kongs", "Four kongs", 5, p.kong_count(4)),
    Pattern(
        "kong_on_kong",
        "Kong on kong",
        5,
        p.circumstance(Circumstance.KONG_ON_KONG),
        replaces=ids("replacement_win", "last_tile"),
    ),
    Pattern("heavenly", "Heavenly hand", 5, p.circumstance(Circumstance.HEAVENLY)),
    Pattern("earthly", "Earthly hand", 5, p.circumstance(Circumstance.EARTHLY)),
)
"""The Singapore pattern table: sg's as it is, sg-table's changed and added to by id."""

SG_HOUSE_RULES = (
    HouseRule(
        "seven_pairs",
        adds=(Pattern("seven_pairs", "Seven pairs", 3, p.seven_pairs),),
        allows=frozenset({Shape.SEVEN_PAIRS}),
    ),
)
"""sg's options that change its shapes or its table."""


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

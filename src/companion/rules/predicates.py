"""Predicates shared by several profiles. Each takes the `Facts` of one reading and returns the
matches that earned the pattern (an empty tuple when it does not apply).

Predicates that need a parameter are made by a factory
(`circumstance(Circumstance.ROBBING_KONG)`). Each declares what a reading must have before it can
match (`needs`, feature bits), so that a compiled table skips it on every other reading.
"""

from __future__ import annotations

from collections.abc import Callable

from companion.context import Circumstance
from companion.rules.facts import Facts
from companion.rules.features import (
    DRAGON_PUNGS_AT_LEAST,
    WIND_PUNGS_AT_LEAST,
    Feature,
    circumstance_bit,
    dragon_pungs_in,
    honor_pungs_in,
)
from companion.rules.patterns import Match, Predicate, needs
from companion.shapes import Group, GroupKind, Shape
from companion.tiles import (
    ANIMALS,
    DRAGONS,
    FLOWERS,
    SEASONS,
    WIND_TILES,
    Tile,
    bonus_seat,
)

NONE: tuple[Match, ...] = ()
_EAST, _WHITE = int(Tile.EAST), int(Tile.WHITE)
"""The first honor and the first dragon, as ints: a pung's tile compared with them is an honor
or a dragon (the faster test on the hot path)."""
GREEN_TILES = frozenset((Tile.S2, Tile.S3, Tile.S4, Tile.S6, Tile.S8, Tile.GREEN))


def _whole_hand(
    *alternatives: int, decided: bool = False
) -> Callable[[Callable[[Facts], bool]], Predicate]:
    """A whole-hand pattern from a condition, needing the given feature bits (`decided`: and
    the condition holds on every reading that has them)."""

    def make(condition: Callable[[Facts], bool]) -> Predicate:
        @needs(*alternatives, decided=decided)
        def predicate(facts: Facts) -> tuple[Match, ...]:
            return (Match(facts.groups),) if condition(facts) else NONE

        predicate.__name__ = condition.__name__
        predicate.__doc__ = condition.__doc__
        return predicate

    return make


def _has(facts: Facts, bits: int) -> bool:
    """Whether the reading has every one of these feature bits (hand-wide tests as bit tests:
    `Feature` is worked out once per hand)."""
    return facts.features & bits == bits


def winning_tile_match(facts: Facts) -> tuple[Match, ...]:
    tile = facts.hand.winning_tile
    return (Match((tile,) if tile is not None else ()),)


def circumstance(required: Circumstance) -> Predicate:
    """The request names this circumstance; earned by the winning tile."""

    @needs(circumstance_bit(required), decided=True)
    def predicate(facts: Facts) -> tuple[Match, ...]:
        return winning_tile_match(facts) if facts.context.has(required) else NONE

    predicate.__name__ = f"circumstance_{required.value}"
    return predicate


# --- bonus tiles -------------------------------------------------------------------------------


@needs(Feature.FLOWER)
def seat_bonus(facts: Facts) -> tuple[Match, ...]:
    """Each flower or season of the winner's seat."""
    return tuple(Match((t,)) for t in facts.flowers if bonus_seat(t) is facts.seat)


@needs(Feature.FLOWERS_4)
def flower_families(facts: Facts) -> tuple[Match, ...]:
    """All four flowers; all four seasons: one match per complete family."""
    held = set(facts.bonus)
    return tuple(Match(family) for family in (FLOWERS, SEASONS) if held >= set(family))


@needs(Feature.ANIMAL)
def each_animal(facts: Facts) -> tuple[Match, ...]:
    return tuple(Match((t,)) for t in facts.animals)


# Four different animals are the four animals.
@needs(Feature.ANIMALS_4, decided=True)
def all_animals(facts: Facts) -> tuple[Match, ...]:
    if set(facts.animals) >= set(ANIMALS):
        return (Match(ANIMALS),)
    return NONE


@needs(Feature.NO_FLOWER, decided=True)
def no_flowers(facts: Facts) -> tuple[Match, ...]:
    return (Match(()),) if not facts.flowers else NONE


@needs(Feature.FLOWER)
def each_flower(facts: Facts) -> tuple[Match, ...]:
    return tuple(Match((t,)) for t in facts.flowers)


# --- sets --------------------------------------------------------------------------------------


@needs(Feature.DRAGON_PUNG, decided=True, count=dragon_pungs_in)
def dragon_pungs(facts: Facts) -> tuple[Match, ...]:
    return tuple([Match((g,)) for g in facts.pungs if g.tile >= _WHITE])


@needs(Feature.DRAGON_PUNG, Feature.WIND_PUNG, decided=True, count=honor_pungs_in)
def honor_pungs(facts: Facts) -> tuple[Match, ...]:
    return tuple([Match((g,)) for g in facts.pungs if g.tile >= _EAST])


def _valued_wind_variants(features: int) -> tuple[str | None, ...]:
    """A reading holds at most one pung of each wind: "seat" when it holds the seat wind's,
    "round" when it holds the round wind's (both of one pung when the two winds are one)."""
    seat = ("seat",) if features & Feature.SEAT_WIND_PUNG else ()
    return (*seat, "round") if features & Feature.ROUND_WIND_PUNG else seat


@needs(
    Feature.SEAT_WIND_PUNG,
    Feature.ROUND_WIND_PUNG,
    decided=True,
    variants=_valued_wind_variants,
)
def valued_wind_pungs(facts: Facts) -> tuple[Match, ...]:
    """A wind pung or kong: one match if it is the seat wind, one if it is the round wind."""
    matches: list[Match] = []
    for group in facts.pungs:
        if group.tile is facts.context.seat.tile:
            matches.append(Match((group,), "seat"))
        if group.tile is facts.context.round.tile:
            matches.append(Match((group,), "round"))
    return tuple(matches)


def kongs(declared_kinds: frozenset[object]) -> Predicate:
    """Each kong declared as one of `declared_kinds` (MeldKind values)."""

    @needs(Feature.KONG)
    def predicate(facts: Facts) -> tuple[Match, ...]:
        return tuple(
            Match((g,)) for g in facts.sets if g.kind is GroupKind.KONG and g.meld in declared_kinds
        )

    return predicate


def _pungs_of(facts: Facts, family: tuple[Tile, ...]) -> list[Group]:
    return [g for g in facts.pungs if g.tile in family]


def _pair_in(facts: Facts, family: tuple[Tile, ...]) -> Group | None:
    pair = facts.pair
    return pair if pair is not None and pair.tile in family else None


def _kinds_of(family: tuple[Tile, ...]) -> int:
    """The family's kinds as bits of a hand's kind mask (`Facts.kind_mask`)."""
    return sum(1 << int(tile) for tile in family)


def _family_pungs(family: tuple[Tile, ...], pungs: int) -> int:
    """The feature bit of at least `pungs` pungs of the dragons or the winds."""
    if family == DRAGONS:
        return DRAGON_PUNGS_AT_LEAST[pungs]
    if family == WIND_TILES:
        return WIND_PUNGS_AT_LEAST[pungs]
    return 0


def honor_family(pungs: int, with_pair: bool, family: tuple[Tile, ...]) -> Predicate:
    """At least `pungs` pungs/kongs of the family, and (if `with_pair`) the pair from it too.
    Without the pair, the bits of "at least so many pungs of the family" decide it."""

    needed = _family_pungs(family, pungs)

    kinds_needed = pungs + 1 if with_pair else 0
    family_kinds = _kinds_of(family)

    @needs(needed, decided=not with_pair and needed != 0)
    def predicate(facts: Facts) -> tuple[Match, ...]:
        if (facts.kind_mask & family_kinds).bit_count() < kinds_needed:
            return NONE  # the pair is a kind of the family other than its pungs'
        sets = _pungs_of(facts, family)
        pair = _pair_in(facts, family)
        if len(sets) < pungs or (with_pair and pair is None):
            return NONE
        return (Match((*sets, pair) if with_pair and pair else tuple(sets)),)

    return predicate


little_dragons = honor_family(2, True, DRAGONS)
big_dragons = honor_family(3, False, DRAGONS)
big_winds = honor_family(4, False, WIND_TILES)


def exact_honor_family(pungs: int, family: tuple[Tile, ...]) -> Predicate:
    """Exactly `pungs` pungs/kongs of the family and the pair from the family."""
    family_kinds = _kinds_of(family)

    @needs(_family_pungs(family, pungs))
    def predicate(facts: Facts) -> tuple[Match, ...]:
        if (facts.kind_mask & family_kinds).bit_count() <= pungs:
            return NONE  # the pair is a kind of the family other than its pungs'
        sets = _pungs_of(facts, family)
        pair = _pair_in(facts, family)
        if len(sets) != pungs or pair is None:
            return NONE
        return (Match((*sets, pair)),)

    return predicate


little_winds = exact_honor_family(3, WIND_TILES)


# --- whole-hand shapes -------------------------------------------------------------------------


def _standard(facts: Facts) -> bool:
    return facts.shape is Shape.STANDARD


@_whole_hand(Feature.ALL_CHOWS, decided=True)
def all_chows(facts: Facts) -> bool:
    return _standard(facts) and len(facts.chows) == len(facts.sets)


@_whole_hand(Feature.ALL_PUNGS, decided=True)
def all_pungs(facts: Facts) -> bool:
    return _standard(facts) and len(facts.pungs) == len(facts.sets)


@_whole_hand(Feature.ONE_SUIT | Feature.HONORS, decided=True)
def half_flush(facts: Facts) -> bool:
    """One numbered suit plus honors, both present."""
    return _has(facts, Feature.ONE_SUIT | Feature.HONORS)


@_whole_hand(Feature.ONE_SUIT | Feature.NO_HONORS, decided=True)
def full_flush(facts: Facts) -> bool:
    return _has(facts, Feature.ONE_SUIT | Feature.NO_HONORS)


@_whole_hand(Feature.NO_HONORS, decided=True)
def no_honors(facts: Facts) -> bool:
    return not facts.has_honors


@_whole_hand(Feature.NO_SUIT, decided=True)
def all_honors(facts: Facts) -> bool:
    return _has(facts, Feature.NO_SUIT)


@_whole_hand(Feature.TERMINALS_ONLY, decided=True)
def all_terminals(facts: Facts) -> bool:
    return _has(facts, Feature.TERMINALS_ONLY)


@_whole_hand(Feature.TERMINALS_HONORS_ONLY | Feature.HONORS)
def terminals_and_honors(facts: Facts) -> bool:
    """Only terminals and honors, at least one of each: a terminal is there whenever a
    numbered tile is (they are all terminals), so the hand's bits answer it."""
    return _has(facts, Feature.TERMINALS_HONORS_ONLY | Feature.HONORS) and not _has(
        facts, Feature.NO_SUIT
    )


@_whole_hand(Feature.GREEN_ONLY, decided=True)
def all_green(facts: Facts) -> bool:
    return _has(facts, Feature.GREEN_ONLY)


@_whole_hand(Feature.THIRTEEN_ORPHANS, decided=True)
def thirteen_orphans(facts: Facts) -> bool:
    return facts.shape is Shape.THIRTEEN_ORPHANS


@_whole_hand(Feature.SEVEN_PAIRS_TRIPLET, decided=True)
def seven_pairs_triplet(facts: Facts) -> bool:
    return facts.shape is Shape.SEVEN_PAIRS_TRIPLET


@_whole_hand(Feature.SEVEN_PAIRS, decided=True)
def seven_pairs(facts: Facts) -> bool:
    """Seven pairs of seven kinds (a win only where a house rule allows the shape)."""
    return facts.shape is Shape.SEVEN_PAIRS


NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)
_NINE_KINDS = (1 << 9) - 1


@_whole_hand(Feature.NINE_GATES, decided=True)
def nine_gates(facts: Facts) -> bool:
    """The 13 tiles held before the winning tile are exactly a concealed 1112345678999 of one
    suit; the winning tile, of that suit, is the extra one."""
    winning = facts.hand.winning_tile
    if facts.hand.melds or winning is None or len(facts.suits) != 1 or facts.has_honors:
        return False
    first = winning // 9 * 9
    if facts.kind_mask >> first & _NINE_KINDS != _NINE_KINDS:
        return False  # nine gates holds every kind of its suit
    held = list(facts.counts[first : first + 9])
    held[winning - first] -= 1
    return tuple(held) == NINE_GATES


@_whole_hand(Feature.NO_MELDS, decided=True)
def no_declared_groups(facts: Facts) -> bool:
    return not facts.hand.melds


def kong_count(count: int) -> Predicate:
    """At least `count` kongs, declared or concealed."""

    # The bits count kongs as none, at least one, at least four: they decide 0, 1 and 4.
    @needs(
        Feature.KONGS_4 if count >= 4 else Feature.KONG if count >= 1 else 0,
        decided=count in (0, 1, 4),
    )
    def predicate(facts: Facts) -> tuple[Match, ...]:
        found = [g for g in facts.sets if g.kind is GroupKind.KONG]
        return (Match(tuple(found)),) if len(found) >= count else NONE

    return predicate

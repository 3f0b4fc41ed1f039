"""Predicates shared by several profiles. Each takes the `Facts` of one reading and returns the
matches that earned the pattern (an empty tuple when it does not apply).

Predicates that need a parameter are made by a factory (`event(Event.ROBBING_KONG)`).
"""

from __future__ import annotations

from collections.abc import Callable

from companion.context import Event
from companion.tiles import (
    ANIMALS,
    DRAGONS,
    FLOWERS,
    SEASONS,
    WIND_TILES,
    Tile,
    bonus_seat,
)
from reference_scorer.rules.base import Facts, Match, Predicate, match_all
from reference_scorer.shapes import Group, GroupKind, Shape

NONE: tuple[Match, ...] = ()
GREEN_TILES = frozenset((Tile.S2, Tile.S3, Tile.S4, Tile.S6, Tile.S8, Tile.GREEN))


def _whole_hand(condition: Callable[[Facts], bool]) -> Predicate:
    def predicate(facts: Facts) -> tuple[Match, ...]:
        return match_all(facts) if condition(facts) else NONE

    predicate.__name__ = condition.__name__
    predicate.__doc__ = condition.__doc__
    return predicate


def winning_tile_match(facts: Facts) -> tuple[Match, ...]:
    tile = facts.hand.winning_tile
    return (Match((tile,) if tile is not None else ()),)


def event(required: Event) -> Predicate:
    """The request names this event; earned by the winning tile."""

    def predicate(facts: Facts) -> tuple[Match, ...]:
        return winning_tile_match(facts) if facts.context.has(required) else NONE

    predicate.__name__ = f"event_{required.value}"
    return predicate


# --- bonus tiles -------------------------------------------------------------------------------


def seat_bonus(facts: Facts) -> tuple[Match, ...]:
    """Each flower or season of the winner's seat."""
    return tuple(Match((t,)) for t in facts.flowers if bonus_seat(t) is facts.seat)


def flower_families(facts: Facts) -> tuple[Match, ...]:
    """All four flowers; all four seasons: one match per complete family."""
    held = set(facts.bonus)
    return tuple(Match(family) for family in (FLOWERS, SEASONS) if held >= set(family))


def each_animal(facts: Facts) -> tuple[Match, ...]:
    return tuple(Match((t,)) for t in facts.animals)


def all_animals(facts: Facts) -> tuple[Match, ...]:
    if set(facts.animals) >= set(ANIMALS):
        return (Match(ANIMALS),)
    return NONE


def no_flowers(facts: Facts) -> tuple[Match, ...]:
    return (Match(()),) if not facts.flowers else NONE


def each_flower(facts: Facts) -> tuple[Match, ...]:
    return tuple(Match((t,)) for t in facts.flowers)


# --- sets --------------------------------------------------------------------------------------


def dragon_pungs(facts: Facts) -> tuple[Match, ...]:
    return tuple(Match((g,)) for g in facts.pungs if g.tile.is_dragon)


def honor_pungs(facts: Facts) -> tuple[Match, ...]:
    return tuple(Match((g,)) for g in facts.pungs if g.tile.is_honor)


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


def honor_family(pungs: int, with_pair: bool, family: tuple[Tile, ...]) -> Predicate:
    """At least `pungs` pungs/kongs of the family, and (if `with_pair`) the pair from it too."""

    def predicate(facts: Facts) -> tuple[Match, ...]:
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

    def predicate(facts: Facts) -> tuple[Match, ...]:
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


@_whole_hand
def all_chows(facts: Facts) -> bool:
    return _standard(facts) and len(facts.chows) == len(facts.sets)


@_whole_hand
def all_pungs(facts: Facts) -> bool:
    return _standard(facts) and len(facts.pungs) == len(facts.sets)


@_whole_hand
def half_flush(facts: Facts) -> bool:
    """One numbered suit plus honors, both present."""
    return len(facts.suits) == 1 and facts.has_honors


@_whole_hand
def full_flush(facts: Facts) -> bool:
    return len(facts.suits) == 1 and not facts.has_honors


@_whole_hand
def no_honors(facts: Facts) -> bool:
    return not facts.has_honors


@_whole_hand
def all_honors(facts: Facts) -> bool:
    return not facts.suits


@_whole_hand
def all_terminals(facts: Facts) -> bool:
    return all(tile.is_terminal for tile in facts.kinds)


@_whole_hand
def terminals_and_honors(facts: Facts) -> bool:
    """Only terminals and honors, at least one of each."""
    kinds = facts.kinds
    return (
        all(tile.is_terminal or tile.is_honor for tile in kinds)
        and any(tile.is_terminal for tile in kinds)
        and facts.has_honors
    )


@_whole_hand
def all_green(facts: Facts) -> bool:
    return facts.kinds <= GREEN_TILES


@_whole_hand
def thirteen_orphans(facts: Facts) -> bool:
    return facts.shape is Shape.THIRTEEN_ORPHANS


@_whole_hand
def seven_pairs_triplet(facts: Facts) -> bool:
    return facts.shape is Shape.SEVEN_PAIRS_TRIPLET


NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


@_whole_hand
def nine_gates(facts: Facts) -> bool:
    """The 13 tiles held before the winning tile are exactly a concealed 1112345678999 of one
    suit; the winning tile, of that suit, is the extra one."""
    winning = facts.hand.winning_tile
    if facts.hand.melds or winning is None or len(facts.suits) != 1 or facts.has_honors:
        return False
    first = winning // 9 * 9
    held = list(facts.counts[first : first + 9])
    held[winning - first] -= 1
    return tuple(held) == NINE_GATES


@_whole_hand
def no_declared_groups(facts: Facts) -> bool:
    return not facts.hand.melds


def kong_count(count: int) -> Predicate:
    """At least `count` kongs, declared or concealed."""

    def predicate(facts: Facts) -> tuple[Match, ...]:
        found = [g for g in facts.sets if g.kind is GroupKind.KONG]
        return (Match(tuple(found)),) if len(found) >= count else NONE

    return predicate

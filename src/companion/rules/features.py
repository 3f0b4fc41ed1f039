"""The feature bits of a reading: what a pattern may need of it before it can match.

`Feature` names each bit (a dragon pung, one suit, a self-draw, a circumstance...); the tables
below turn counts, roles, shapes and circumstances into bits. `companion.rules.facts` works a
reading's bits out, and `companion.rules.compiled` tests a pattern table against them.
"""

from __future__ import annotations

from companion.context import Circumstance
from companion.shapes import Shape, WinRole


class Feature:
    """Feature bits of a reading. Each is a necessary condition some pattern declares."""

    # How the hand was won, and its declared groups
    SELF_DRAWN = 1 << 0
    BY_DISCARD = 1 << 1
    NO_MELDS = 1 << 2
    ONLY_CONCEALED_KONGS = 1 << 3
    """No declared group but concealed kongs (or none at all)."""
    DISCARDS_KNOWN = 1 << 4
    """The table's discard count is given, or implied by a heavenly or earthly hand."""
    # Bonus tiles
    FLOWER = 1 << 5
    """At least one flower or season."""
    NO_FLOWER = 1 << 6
    FLOWERS_4 = 1 << 7
    FLOWERS_7 = 1 << 8
    """Exactly seven flowers and seasons."""
    FLOWERS_8 = 1 << 9
    ANIMAL = 1 << 10
    ANIMALS_4 = 1 << 11
    # The hand's kinds
    HONORS = 1 << 12
    NO_HONORS = 1 << 13
    ONE_SUIT = 1 << 14
    NO_SUIT = 1 << 15
    TERMINALS_HONORS_ONLY = 1 << 16
    TERMINALS_ONLY = 1 << 17
    GREEN_ONLY = 1 << 18
    # The reading's shape
    STANDARD = 1 << 19
    THIRTEEN_ORPHANS = 1 << 20
    SEVEN_PAIRS_TRIPLET = 1 << 21
    SEVEN_PAIRS = 1 << 22
    # The reading's sets
    DRAGON_PUNG = 1 << 23
    DRAGON_PUNGS_2 = 1 << 24
    DRAGON_PUNGS_3 = 1 << 25
    WIND_PUNG = 1 << 26
    WIND_PUNGS_2 = 1 << 27
    WIND_PUNGS_3 = 1 << 28
    WIND_PUNGS_4 = 1 << 29
    SEAT_WIND_PUNG = 1 << 30
    ROUND_WIND_PUNG = 1 << 31
    KONG = 1 << 32
    KONGS_4 = 1 << 33
    CHOWS_3 = 1 << 34
    CHOWS_4 = 1 << 35
    ALL_CHOWS = 1 << 36
    """A standard reading whose sets are all chows."""
    ALL_PUNGS = 1 << 37
    """A standard reading whose sets are all pungs or kongs."""
    CONCEALED_PUNGS_2 = 1 << 38
    CONCEALED_PUNGS_3 = 1 << 39
    CONCEALED_PUNGS_4 = 1 << 40
    CONCEALED_PUNGS_5 = 1 << 41
    # The winning tile's role
    ROLE_PAIR = 1 << 42
    ROLE_CLOSED = 1 << 43
    ROLE_EDGE = 1 << 44
    ROLE_TWO_SIDED = 1 << 45
    ROLE_PUNG = 1 << 46
    ROLE_SINGLE = 1 << 47
    # Circumstances: one bit each, from bit 48 on (`circumstance_bit`)
    # Whole-hand shapes, from bit 56 on
    NINE_GATES = 1 << 56
    """No declared group, and the 13 tiles before the winning tile are 1112345678999 of the
    winning tile's suit."""
    ALL_NINE = 1 << 57
    """A numbered suit of which the hand holds all nine kinds, concealed or declared (a pure
    straight needs them)."""


CIRCUMSTANCE_BITS = {
    circumstance: 1 << (48 + index) for index, circumstance in enumerate(Circumstance)
}
ROLE_BITS = {
    WinRole.PAIR: Feature.ROLE_PAIR,
    WinRole.CLOSED: Feature.ROLE_CLOSED,
    WinRole.EDGE: Feature.ROLE_EDGE,
    WinRole.TWO_SIDED: Feature.ROLE_TWO_SIDED,
    WinRole.PUNG: Feature.ROLE_PUNG,
    WinRole.SINGLE: Feature.ROLE_SINGLE,
}
SHAPE_BITS = {
    Shape.STANDARD: Feature.STANDARD,
    Shape.THIRTEEN_ORPHANS: Feature.THIRTEEN_ORPHANS,
    Shape.SEVEN_PAIRS_TRIPLET: Feature.SEVEN_PAIRS_TRIPLET,
    Shape.SEVEN_PAIRS: Feature.SEVEN_PAIRS,
}


def _cumulative(*bits: int) -> tuple[int, ...]:
    """Bits by count, each with the bits of every smaller count: "at least n"."""
    found = [0]
    for bit in bits:
        found.append(found[-1] | bit)
    return tuple(found)


DRAGON_COUNT_BITS = _cumulative(Feature.DRAGON_PUNG, Feature.DRAGON_PUNGS_2, Feature.DRAGON_PUNGS_3)
WIND_COUNT_BITS = _cumulative(
    Feature.WIND_PUNG, Feature.WIND_PUNGS_2, Feature.WIND_PUNGS_3, Feature.WIND_PUNGS_4
)
CONCEALED_PUNG_BITS = _cumulative(
    0,
    Feature.CONCEALED_PUNGS_2,
    Feature.CONCEALED_PUNGS_3,
    Feature.CONCEALED_PUNGS_4,
    Feature.CONCEALED_PUNGS_5,
)


def circumstance_bit(circumstance: Circumstance) -> int:
    return CIRCUMSTANCE_BITS[circumstance]


def role_bit(role: WinRole) -> int:
    return ROLE_BITS[role]


DRAGON_PUNGS_AT_LEAST = (0, Feature.DRAGON_PUNG, Feature.DRAGON_PUNGS_2, Feature.DRAGON_PUNGS_3)
WIND_PUNGS_AT_LEAST = (
    0,
    Feature.WIND_PUNG,
    Feature.WIND_PUNGS_2,
    Feature.WIND_PUNGS_3,
    Feature.WIND_PUNGS_4,
)


def dragon_pungs_in(features: int) -> int:
    """How many dragon pungs or kongs a reading with these feature bits holds."""
    return sum(1 for bit in DRAGON_PUNGS_AT_LEAST[1:] if features & bit)


def honor_pungs_in(features: int) -> int:
    """How many honor (dragon or wind) pungs or kongs a reading with these bits holds."""
    return dragon_pungs_in(features) + sum(1 for bit in WIND_PUNGS_AT_LEAST[1:] if features & bit)


CONCEALED_PUNGS_AT_LEAST = (
    0,
    0,
    Feature.CONCEALED_PUNGS_2,
    Feature.CONCEALED_PUNGS_3,
    Feature.CONCEALED_PUNGS_4,
    Feature.CONCEALED_PUNGS_5,
)
"""The feature bit of "at least n" such sets, by n."""
COUNT_BITS = (
    sum(DRAGON_PUNGS_AT_LEAST)
    | sum(WIND_PUNGS_AT_LEAST)
    | sum(CONCEALED_PUNGS_AT_LEAST)
    | Feature.CHOWS_3
    | Feature.CHOWS_4
    | Feature.KONG
    | Feature.KONGS_4
    | Feature.FLOWERS_4
    | Feature.FLOWERS_7
    | Feature.FLOWERS_8
)
"""The bits that count sets and bonus tiles: besides its needs, these are all that a decided
pattern's `count` or `variants` may read (`CompiledTable.reads`)."""

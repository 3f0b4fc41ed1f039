"""The feature bits of an MCR reading: what a fan needs of it before it can match.

Each fan declares the bits it needs (`Fan.needs`); a reading whose bits lack one of them is not
given to the fan's predicate at all, and a fan whose bits are also enough (`Fan.decided`) is
counted from the bits alone, once, as a fan of the whole hand. Most of the 81 are ruled out on a
reading by a few bits (its shape, the suits and honors it holds, how many chows and pungs it
has), so that a reading runs a dozen predicates rather than 81 (tests/test_mcr_features.py
holds every fan's bits to its predicate).

The bits of the tiles and of the win are the same for every reading of a hand (every reading
holds all of its tiles), so they are worked out once a hand (`hand_bits`); those of the sets
once a reading (`reading_bits`).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress

from companion.rules.mcr.facts import GREEN, REVERSIBLE, McrCircumstance, McrContext
from companion.rules.mcr.shapes import (
    TALLY_CHOWS,
    TALLY_CONCEALED,
    TALLY_DRAGONS,
    TALLY_EXPOSED,
    TALLY_KONGS,
    TALLY_PUNGS,
    TALLY_WINDS,
    McrReading,
    McrShape,
)
from companion.shapes.blocks import remember
from companion.tiles import KINDS, Tile


class McrFeature:
    """Feature bits of an MCR reading, each a necessary condition some fan declares."""

    # The reading's shape
    STANDARD = 1 << 0
    SEVEN_PAIRS = 1 << 1
    THIRTEEN_ORPHANS = 1 << 2
    HONORS_AND_KNITTED = 1 << 3
    KNITTED_STRAIGHT = 1 << 4
    SETS = 1 << 5
    """Four sets and a pair, or a knitted straight with a set and a pair: sets to count."""
    TILE_SHAPE = 1 << 6
    """Four sets and a pair, or seven pairs: the shapes the fan of all the tiles allow."""
    KNITTED = 1 << 7
    """A knitted straight, or honors and knitted tiles."""
    # The hand's kinds
    HONORS = 1 << 8
    NO_HONORS = 1 << 9
    WINDS = 1 << 10
    DRAGONS = 1 << 11
    ONE_SUIT = 1 << 12
    TWO_SUITS = 1 << 13
    THREE_SUITS = 1 << 14
    GREEN_ONLY = 1 << 15
    TERMINALS_ONLY = 1 << 16
    HONORS_ONLY = 1 << 17
    TERMINALS_HONORS_ONLY = 1 << 18
    SIMPLES_ONLY = 1 << 19
    REVERSIBLE_ONLY = 1 << 20
    UPPER_TILES = 1 << 21
    """Numbered tiles of ranks 7 to 9 alone; the next four likewise for their ranks."""
    MIDDLE_TILES = 1 << 22
    LOWER_TILES = 1 << 23
    UPPER_FOUR = 1 << 24
    LOWER_FOUR = 1 << 25
    TERMINAL_OR_HONOR = 1 << 26
    """At least one terminal or honor."""
    FIVE = 1 << 27
    """At least one five."""
    HOG = 1 << 28
    """A kind held four times."""
    # The reading's sets (pungs count kongs too); "_2" and up: at least that many
    CHOWS_2 = 1 << 29
    CHOWS_3 = 1 << 30
    CHOWS_4 = 1 << 31
    NO_PUNGS = 1 << 32
    PUNG = 1 << 33
    PUNGS_2 = 1 << 34
    PUNGS_3 = 1 << 35
    PUNGS_4 = 1 << 36
    WIND_PUNG = 1 << 37
    WIND_PUNGS_3 = 1 << 38
    DRAGON_PUNG = 1 << 39
    DRAGON_PUNGS_2 = 1 << 40
    DRAGON_PUNGS_3 = 1 << 41
    KONG = 1 << 42
    KONGS_2 = 1 << 43
    KONGS_3 = 1 << 44
    KONGS_4 = 1 << 45
    CONCEALED_PUNGS_2 = 1 << 46
    CONCEALED_PUNGS_3 = 1 << 47
    CONCEALED_PUNGS_4 = 1 << 48
    NO_EXPOSED_MELDS = 1 << 49
    """No claimed group (a concealed kong is none)."""
    EXPOSED_MELDS_4 = 1 << 50
    NO_MELDS = 1 << 51
    """No declared group at all, concealed kongs included."""
    WIND_PUNGS_4 = 1 << 52
    # The win
    SELF_DRAWN = 1 << 53
    BY_DISCARD = 1 << 54
    LAST_TILE = 1 << 55
    REPLACEMENT = 1 << 56
    ROBBING_KONG = 1 << 57
    LAST_COPY = 1 << 58
    """The winning tile is the last of its kind (`McrContext.last_copy`)."""


F = McrFeature


def _mask(kinds: Sequence[int] | frozenset[Tile]) -> int:
    return sum(1 << kind for kind in set(kinds))


def _ranks_mask(low: int, high: int) -> int:
    return _mask([suit * 9 + rank - 1 for suit in range(3) for rank in range(low, high + 1)])


ALL = (1 << KINDS) - 1
SUIT_MASKS = tuple(_mask(range(suit * 9, suit * 9 + 9)) for suit in range(3))
HONOR_MASK = _mask(range(Tile.EAST, KINDS))
WIND_MASK = _mask(range(Tile.EAST, Tile.NORTH + 1))
DRAGON_MASK = _mask(range(Tile.WHITE, KINDS))
TERMINAL_MASK = _mask([suit * 9 + rank for suit in range(3) for rank in (0, 8)])
FIVE_MASK = _ranks_mask(5, 5)
ONLY: tuple[tuple[int, int], ...] = (
    (_mask(GREEN), F.GREEN_ONLY),
    (TERMINAL_MASK, F.TERMINALS_ONLY),
    (HONOR_MASK, F.HONORS_ONLY),
    (TERMINAL_MASK | HONOR_MASK, F.TERMINALS_HONORS_ONLY),
    (ALL & ~(TERMINAL_MASK | HONOR_MASK), F.SIMPLES_ONLY),
    (_mask(REVERSIBLE), F.REVERSIBLE_ONLY),
    (_ranks_mask(7, 9), F.UPPER_TILES),
    (_ranks_mask(4, 6), F.MIDDLE_TILES),
    (_ranks_mask(1, 3), F.LOWER_TILES),
    (_ranks_mask(6, 9), F.UPPER_FOUR),
    (_ranks_mask(1, 4), F.LOWER_FOUR),
)
"""Kinds a hand must hold no other than, and the bit it then has."""
SUIT_COUNT_BITS = (0, F.ONE_SUIT, F.TWO_SUITS, F.THREE_SUITS)
SHAPE_BITS = {
    McrShape.STANDARD: F.STANDARD | F.SETS | F.TILE_SHAPE,
    McrShape.SEVEN_PAIRS: F.SEVEN_PAIRS | F.TILE_SHAPE,
    McrShape.THIRTEEN_ORPHANS: F.THIRTEEN_ORPHANS,
    McrShape.HONORS_AND_KNITTED: F.HONORS_AND_KNITTED | F.KNITTED,
    McrShape.KNITTED_STRAIGHT: F.KNITTED_STRAIGHT | F.SETS | F.KNITTED,
}
CIRCUMSTANCE_BITS = {
    McrCircumstance.LAST_TILE: F.LAST_TILE,
    McrCircumstance.REPLACEMENT: F.REPLACEMENT,
    McrCircumstance.ROBBING_KONG: F.ROBBING_KONG,
    McrCircumstance.LAST_COPY: 0,  # read as `McrContext.last_copy`, which also counts melded copies
}


def _at_least(*bits: int) -> tuple[int, ...]:
    """Bits by count, each with the bits of every smaller count: "at least n"."""
    found = [0]
    for bit in bits:
        found.append(found[-1] | bit)
    return tuple(found)


CHOW_BITS = _at_least(0, F.CHOWS_2, F.CHOWS_3, F.CHOWS_4)
PUNG_BITS = (F.NO_PUNGS, *_at_least(F.PUNG, F.PUNGS_2, F.PUNGS_3, F.PUNGS_4)[1:])
WIND_BITS = _at_least(F.WIND_PUNG, 0, F.WIND_PUNGS_3, F.WIND_PUNGS_4)
DRAGON_BITS = _at_least(F.DRAGON_PUNG, F.DRAGON_PUNGS_2, F.DRAGON_PUNGS_3)
KONG_BITS = _at_least(F.KONG, F.KONGS_2, F.KONGS_3, F.KONGS_4)
CONCEALED_BITS = _at_least(0, F.CONCEALED_PUNGS_2, F.CONCEALED_PUNGS_3, F.CONCEALED_PUNGS_4)


KIND_BITS = tuple(1 << kind for kind in range(KINDS))


def _tile_bits(kinds: int) -> int:
    """The bits of the kinds a hand holds (`kinds`, a bit a kind), a kind held four times
    aside."""
    bits = 0
    if kinds & HONOR_MASK:
        bits |= F.HONORS
        bits |= F.WINDS if kinds & WIND_MASK else 0
        bits |= F.DRAGONS if kinds & DRAGON_MASK else 0
    else:
        bits |= F.NO_HONORS
    bits |= SUIT_COUNT_BITS[sum(1 for mask in SUIT_MASKS if kinds & mask)]
    for allowed, bit in ONLY:
        if not kinds & ~allowed:
            bits |= bit
    if kinds & (TERMINAL_MASK | HONOR_MASK):
        bits |= F.TERMINAL_OR_HONOR
    if kinds & FIVE_MASK:
        bits |= F.FIVE
    return bits


_ONLY_BITS = sum(bit for _, bit in ONLY)
_ANY_BITS = F.HONORS | F.WINDS | F.DRAGONS | F.TERMINAL_OR_HONOR | F.FIVE
"""The kinds' bits that any one block brings alone (no honors is the honor block's alone)."""


def _block_tables(start: int, width: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """For each set of kinds of one block (a suit, or the honors: `width` kinds from `start`,
    a bit a kind), read off `_tile_bits` of those kinds alone: the "only" bits (`ONLY`) it
    leaves standing, and the bits it brings alone (honors or none, a terminal or honor, a
    five)."""
    brings = _ANY_BITS | (F.NO_HONORS if start == Tile.EAST else 0)
    alone = [_tile_bits(value << start) for value in range(1 << width)]
    return tuple(bits & _ONLY_BITS for bits in alone), tuple(bits & brings for bits in alone)


# The kinds' bits block by block: an "only" bit stands where every block leaves it standing,
# the others come from any block, and the suits are counted. Tables of every set of kinds of
# each block, made at import (3 x 512 + 128 entries), never miss; the bits kept by the whole
# hand's kinds missed on two hands in three (2,388 masks in 3,000 hands), each miss a pass over
# the eleven "only" masks. tests/test_mcr_features.py holds them to `_tile_bits`.
(_EVERY_M, _SOME_M), (_EVERY_P, _SOME_P), (_EVERY_S, _SOME_S), (_EVERY_Z, _SOME_Z) = (
    _block_tables(0, 9),
    _block_tables(9, 9),
    _block_tables(18, 9),
    _block_tables(Tile.EAST, KINDS - Tile.EAST),
)


def tile_bits(kinds: int) -> int:
    """`_tile_bits` from the block tables."""
    characters = kinds & 511
    circles = kinds >> 9 & 511
    bamboo = kinds >> 18 & 511
    honors = kinds >> 27
    return (
        (_EVERY_M[characters] & _EVERY_P[circles] & _EVERY_S[bamboo] & _EVERY_Z[honors])
        | _SOME_M[characters]
        | _SOME_P[circles]
        | _SOME_S[bamboo]
        | _SOME_Z[honors]
        | SUIT_COUNT_BITS[(characters > 0) + (circles > 0) + (bamboo > 0)]
    )


def hand_bits(counts: Sequence[int], context: McrContext, melds: int) -> int:
    """The bits of a hand's tiles (`counts`, declared groups included), of its win and of its
    declared groups' number, shared by all its readings."""
    # The kinds held as a mask from the counts at C speed (`compress`), a kind held four
    # times by `in`.
    bits = tile_bits(sum(compress(KIND_BITS, counts)))
    if 4 in counts:
        bits |= F.HOG
    bits |= F.BY_DISCARD if context.by_discard else F.SELF_DRAWN
    for circumstance in context.circumstances:
        bits |= CIRCUMSTANCE_BITS[circumstance]
    if context.last_copy:
        bits |= F.LAST_COPY
    if not melds:
        bits |= F.NO_MELDS
    return bits


_TALLY_BITS: dict[int, int] = {}


def _tally_bits(tally: int) -> int:
    """The bits of a reading's counts of sets (`McrSet.tally` summed)."""
    exposed = tally >> TALLY_EXPOSED & 7
    return (
        CHOW_BITS[tally >> TALLY_CHOWS & 7]
        | PUNG_BITS[tally >> TALLY_PUNGS & 7]
        | WIND_BITS[tally >> TALLY_WINDS & 7]
        | DRAGON_BITS[tally >> TALLY_DRAGONS & 7]
        | KONG_BITS[tally >> TALLY_KONGS & 7]
        | CONCEALED_BITS[tally >> TALLY_CONCEALED & 7]
        | (F.NO_EXPOSED_MELDS if not exposed else F.EXPOSED_MELDS_4 if exposed == 4 else 0)
    )


def reading_bits(reading: McrReading) -> int:
    """The bits of a reading's shape and sets (`hand_bits` holds the rest)."""
    # The sets' counts summed from what each set adds, kept on the set (`McrSet.tally`), and
    # their bits kept by the sum (a few dozen sums in all), rather than each set's kind, tile
    # and state tested on every reading: 3k of 473k instructions a hand.
    tally = 0
    for group in reading.sets:
        tally += group.tally
    bits = _TALLY_BITS.get(tally)
    if bits is None:
        bits = remember(_TALLY_BITS, tally, _tally_bits(tally))
    return SHAPE_BITS[reading.shape] | bits

"""What decides a reading's yaku, as the bits of one integer (its features).

The yaku are patterns whose predicates read `RiichiFacts`; each also declares the feature bits
that decide it (`yaku.py`, with `companion.rules.patterns.needs`). The scorer works out a
reading's features in one pass over its groups and the hand's once a hand, and looks the
reading's yaku up by them (`table.RiichiTable`): two readings alike in these bits score the
same yaku, whatever their tiles. `tests/test_riichi_table.py` holds the outcome by bits against
the predicates on every reading of seeded hands.

A feature is a fact of the win (`context_features`), of the hand's tiles (`hand_features`, from
its block keys) or of one reading (`reading_features`). Each bit is one declaration below (its
name, its place, what it says, and for an event the event); a yaku the bits cannot decide runs
its own predicate on the readings its bits admit (`yaku.py`), so that a new yaku needs a new bit
only where it is played often enough for the speed to matter.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.rules.riichi.facts import RiichiCircumstance, RiichiContext
from companion.shapes import Group, GroupKind, Shape, WinRole
from companion.shapes.blocks import UNIT
from companion.shapes.groups import SUMMARY_FIELD
from companion.tiles import Tile

_DECLARED: list[int] = []
"""Every bit declared, in order (`BIT` names them)."""
CIRCUMSTANCE_BITS: dict[RiichiCircumstance, int] = {}
"""The bit of each event a request may name (`context_features`)."""


def _bit(event: RiichiCircumstance | None = None) -> int:
    """The next bit, in the order of the declarations below; an `event`'s bit is the win's
    fact that the request named it."""
    found = 1 << len(_DECLARED)
    _DECLARED.append(found)
    if event is not None:
        CIRCUMSTANCE_BITS[event] = found
    return found


# Each bit is declared once, below, with what it says. The win's bits are worked out by
# `context_features`, the hand's by `hand_features` (from its block keys) and a reading's by
# `reading_features` (one pass over its groups): each function tests for all of its bits at
# once, which is the scorer's hot path, rather than a function a bit.

# The win.
SELF_DRAW = _bit()
"""The winning tile was self-drawn."""
RIICHI = _bit(RiichiCircumstance.RIICHI)
DOUBLE_RIICHI = _bit(RiichiCircumstance.DOUBLE_RIICHI)
IPPATSU = _bit(RiichiCircumstance.IPPATSU)
LAST_TILE = _bit(RiichiCircumstance.LAST_TILE)
LAST_DISCARD = _bit(RiichiCircumstance.LAST_DISCARD)
REPLACEMENT = _bit(RiichiCircumstance.REPLACEMENT)
ROBBING_KONG = _bit(RiichiCircumstance.ROBBING_KONG)
HEAVENLY = _bit(RiichiCircumstance.HEAVENLY)
EARTHLY = _bit(RiichiCircumstance.EARTHLY)
RENHOU = _bit(RiichiCircumstance.RENHOU)
# The hand's tiles.
CLOSED = _bit()
"""No declared group but concealed kongs."""
ALL_SIMPLES = _bit()
"""Every tile a simple."""
ALL_OUTSIDE = _bit()
"""Every tile a terminal or an honor."""
ALL_HONORS = _bit()
"""Every tile an honor."""
ALL_TERMINALS = _bit()
"""Every tile a terminal."""
ALL_GREEN = _bit()
"""Every tile a green one (2s 3s 4s 6s 8s, the green dragon)."""
HALF_FLUSH = _bit()
"""One suit and honors."""
FULL_FLUSH = _bit()
"""One suit, no honors."""
NINE_GATES = _bit()
"""No declared group, and 1112345678999 of one suit among the tiles."""
PURE_NINE_GATES = _bit()
"""Nine gates, and those thirteen were the tiles before the winning one."""
# One reading (a standard reading has neither shape bit).
SEVEN_PAIRS = _bit()
THIRTEEN_ORPHANS = _bit()
PINFU_SHAPE = _bit()
"""Four chows, a pair of no value tile and a two-sided wait."""
ONE_TWIN = _bit()
"""One pair of identical chows."""
TWO_TWINS = _bit()
"""Two pairs of identical chows."""
OUTSIDE_GROUPS = _bit()
"""A standard reading with a chow whose every group holds a terminal or an honor, an honor
among them."""
TERMINAL_GROUPS = _bit()
"""A standard reading with a chow whose every group holds a terminal."""
STRAIGHT = _bit()
"""123 456 789 of a suit."""
THREE_CHOWS = _bit()
"""One chow in each suit at one rank."""
THREE_PUNGS = _bit()
"""One pung in each suit at one rank."""
ALL_PUNGS = _bit()
"""Four pungs or kongs."""
THREE_CONCEALED = _bit()
"""Three concealed pungs or kongs."""
FOUR_CONCEALED = _bit()
"""Four concealed pungs or kongs."""
FOUR_CONCEALED_PAIR_WAIT = _bit()
"""Four concealed, and the winning tile made the pair."""
THREE_KONGS = _bit()
FOUR_KONGS = _bit()
LITTLE_DRAGONS = _bit()
"""Two dragon pungs and a dragon pair."""
BIG_DRAGONS = _bit()
"""Three dragon pungs."""
LITTLE_WINDS = _bit()
"""Three wind pungs and a wind pair."""
BIG_WINDS = _bit()
"""Four wind pungs."""
SEAT_PUNG = _bit()
"""A pung of the seat wind."""
ROUND_PUNG = _bit()
"""A pung of the round wind."""
DRAGON_PUNG = _bit()
"""A dragon pung at least (how many: `dragon_pungs`)."""

BIT = {name: bit for name, bit in list(globals().items()) if name.isupper() and bit in _DECLARED}
"""Each feature's bit by name (what a failing test names), in the order declared."""

# A bit says only what some yaku needs, so that readings alike in what scores share one
# feature set: the winning tile's pair role is a bit only beside four concealed pungs, an
# honor only in an outside hand.

DRAGON_SHIFT = len(_DECLARED)
"""Where the count of dragon pungs (0-3) sits, above the named bits."""
DRAGON_COUNT = 3 << DRAGON_SHIFT
"""The bits of that count."""
EVERY = (1 << DRAGON_SHIFT + 2) - 1
"""Every bit a feature set may have."""


def dragon_pungs(features: int) -> int:
    """How many dragon pungs a reading has (yakuhai of dragons, one han each)."""
    return features >> DRAGON_SHIFT & 3


def context_features(context: RiichiContext) -> int:
    found = 0 if context.by_discard else SELF_DRAW
    for circumstance in context.circumstances:
        found |= CIRCUMSTANCE_BITS[circumstance]
    return found


# Masks on a block key (`companion.shapes.blocks`: three bits a kind, the suit's 1 lowest).
_TERMINALS = 7 | 7 << 24
_SIMPLES = sum(7 << 3 * offset for offset in range(1, 8))
_NOT_GREEN_BAMBOO = sum(7 << 3 * offset for offset in (0, 4, 6, 8))
"""1s 5s 7s 9s: of the bamboo, 2s 3s 4s 6s 8s are green."""
_NOT_GREEN_HONORS = sum(7 << 3 * offset for offset in (0, 1, 2, 3, 4, 6))
"""Every honor but the green dragon."""


_NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)
_NINE_GATES_KEY = sum(count << 3 * offset for offset, count in enumerate(_NINE_GATES))


def hand_features(keys: Sequence[int], closed: bool, melds: bool, winning_tile: int) -> int:
    """The hand's features from its four block keys, the declared groups' tiles included
    (`melds`: whether it has declared groups)."""
    characters, circles, bamboo, honors = keys
    numbered = characters | circles | bamboo
    found = CLOSED if closed else 0
    if not numbered & _SIMPLES:
        found |= ALL_OUTSIDE if honors else ALL_OUTSIDE | ALL_TERMINALS
    if not numbered:
        found |= ALL_HONORS
    if not honors and not numbered & _TERMINALS:
        found |= ALL_SIMPLES
    if (
        not characters
        and not circles
        and not bamboo & _NOT_GREEN_BAMBOO
        and not honors & _NOT_GREEN_HONORS
    ):
        found |= ALL_GREEN
    if (characters != 0) + (circles != 0) + (bamboo != 0) == 1:
        found |= HALF_FLUSH if honors else FULL_FLUSH
        suit = characters or circles or bamboo
        if (
            not honors
            and not melds
            and all(suit >> 3 * offset & 7 >= count for offset, count in enumerate(_NINE_GATES))
        ):
            found |= NINE_GATES
            if suit - UNIT[winning_tile] == _NINE_GATES_KEY:
                found |= PURE_NINE_GATES
    return found


_CHOW = GroupKind.CHOW
_PAIR = GroupKind.PAIR
_TWO_SIDED = WinRole.TWO_SIDED
_PAIR_ROLE = WinRole.PAIR
_OUTSIDE_CHOW = tuple(tile < Tile.EAST and tile % 9 in (0, 6) for tile in range(34))
"""By a chow's lowest tile: whether it holds a terminal (123 or 789)."""
_TERMINAL = tuple(tile < Tile.EAST and tile % 9 in (0, 8) for tile in range(34))
_STRAIGHTS = tuple(0b1001001 << first for first in (0, 9, 18))
_SUMMARY_SHIFTS = (0, 4, 8, 12, 16, 20)
_WHITE, _EAST = int(Tile.WHITE), int(Tile.EAST)


def reading_features(
    shape: Shape,
    groups: tuple[Group, ...],
    counts: int,
    role: WinRole,
    seat_tile: int,
    round_tile: int,
) -> int:
    """A reading's own features: its shape, and for a standard one what its groups make
    (`counts`: the reading's `companion.shapes.groups.summary`)."""
    if shape is not Shape.STANDARD:
        if shape is Shape.SEVEN_PAIRS:
            return SEVEN_PAIRS
        return THIRTEEN_ORPHANS if shape is Shape.THIRTEEN_ORPHANS else 0
    chow_count = counts & SUMMARY_FIELD
    pungs = counts >> 4 & SUMMARY_FIELD
    concealed = counts >> 8 & SUMMARY_FIELD
    kongs = counts >> 12 & SUMMARY_FIELD
    dragons = counts >> 16 & SUMMARY_FIELD
    winds = counts >> 20 & SUMMARY_FIELD
    found = dragons << DRAGON_SHIFT
    if dragons:
        found |= DRAGON_PUNG | (BIG_DRAGONS if dragons == 3 else 0)
    if pungs == 4:
        found |= ALL_PUNGS
    if concealed >= 3:
        found |= THREE_CONCEALED if concealed == 3 else FOUR_CONCEALED
        if concealed == 4 and role is _PAIR_ROLE:
            found |= FOUR_CONCEALED_PAIR_WAIT
    if kongs >= 3:
        found |= THREE_KONGS if kongs == 3 else FOUR_KONGS
    if winds == 4:
        found |= BIG_WINDS
    # One pass over the groups: the chows' lowest tiles (a second alike is a twin), the
    # numbered pungs' tiles, whether every group holds a terminal (or an honor), the pair.
    chows = once = pung_tiles = twins = 0
    outside = terminal = True
    honor = False
    pair = 0
    for group in groups:
        tile = group.tile
        if group.kind is _CHOW:
            bit = 1 << tile
            if once & bit:
                twins += 1
                once ^= bit
            else:
                once |= bit
            chows |= bit
            if not _OUTSIDE_CHOW[tile]:
                outside = terminal = False
        else:
            if group.kind is _PAIR:
                pair = tile
            elif tile < _EAST:
                pung_tiles |= 1 << tile
            elif tile in (seat_tile, round_tile):
                found |= (SEAT_PUNG if tile == seat_tile else 0) | (
                    ROUND_PUNG if tile == round_tile else 0
                )
            if tile >= _EAST:
                honor = True
                terminal = False
            elif not _TERMINAL[tile]:
                outside = terminal = False
    if chow_count:
        if twins:
            found |= ONE_TWIN if twins == 1 else TWO_TWINS
        if outside:
            found |= TERMINAL_GROUPS if terminal else OUTSIDE_GROUPS if honor else 0
        if chow_count >= 3:
            for straight in _STRAIGHTS:
                if chows & straight == straight:
                    found |= STRAIGHT
            if chows & chows >> 9 & chows >> 18 & 0x7F:
                found |= THREE_CHOWS
        if (
            chow_count == 4
            and role is _TWO_SIDED
            and pair < _WHITE
            and pair != seat_tile
            and pair != round_tile
        ):
            found |= PINFU_SHAPE
    if pung_tiles & pung_tiles >> 9 & pung_tiles >> 18 & 0x1FF:
        found |= THREE_PUNGS
    if pair >= _WHITE:
        if dragons == 2:
            found |= LITTLE_DRAGONS
    elif pair >= _EAST and winds == 3:
        found |= LITTLE_WINDS
    return found

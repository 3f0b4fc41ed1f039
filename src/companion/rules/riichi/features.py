"""What decides a reading's yaku, as the bits of one integer (its features).

The yaku are patterns whose predicates read `RiichiFacts`; each also declares the feature bits
that decide it (`yaku.py`, with `companion.rules.patterns.needs`). The scorer works out a
reading's features in one pass over its groups and the hand's once a hand, and looks the
reading's yaku up by them (`table.RiichiTable`): two readings alike in these bits score the
same yaku, whatever their tiles. `tests/test_riichi.py` holds the outcome by bits against the
predicates on every reading of seeded hands.

A feature is a fact of the win (`context_features`), of the hand's tiles (`hand_features`, from
its block keys) or of one reading (`reading_features`).
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.rules.riichi.facts import RiichiContext, RiichiEvent
from companion.shapes import Group, GroupKind, Shape, WinRole
from companion.shapes.blocks import UNIT
from companion.shapes.groups import SUMMARY_FIELD
from companion.tiles import Tile

_NAMES = (
    # The win.
    "SELF_DRAW",
    "RIICHI",
    "DOUBLE_RIICHI",
    "IPPATSU",
    "LAST_TILE",
    "LAST_DISCARD",
    "REPLACEMENT",
    "ROBBING_KONG",
    "HEAVENLY",
    "EARTHLY",
    "RENHOU",
    # The hand's tiles.
    "CLOSED",
    "ALL_SIMPLES",
    "ALL_OUTSIDE",
    "ALL_HONORS",
    "ALL_TERMINALS",
    "ALL_GREEN",
    "HALF_FLUSH",
    "FULL_FLUSH",
    "NINE_GATES",
    "PURE_NINE_GATES",
    # One reading.
    "SEVEN_PAIRS",
    "THIRTEEN_ORPHANS",
    "PINFU_SHAPE",
    "ONE_TWIN",
    "TWO_TWINS",
    "OUTSIDE_GROUPS",
    "TERMINAL_GROUPS",
    "STRAIGHT",
    "THREE_CHOWS",
    "THREE_PUNGS",
    "ALL_PUNGS",
    "THREE_CONCEALED",
    "FOUR_CONCEALED",
    "FOUR_CONCEALED_PAIR_WAIT",
    "THREE_KONGS",
    "FOUR_KONGS",
    "LITTLE_DRAGONS",
    "BIG_DRAGONS",
    "LITTLE_WINDS",
    "BIG_WINDS",
    "SEAT_PUNG",
    "ROUND_PUNG",
    "DRAGON_PUNG",
)
BIT = {name: 1 << index for index, name in enumerate(_NAMES)}
"""Each feature's bit by name (what a failing test names)."""

(
    SELF_DRAW,
    RIICHI,
    DOUBLE_RIICHI,
    IPPATSU,
    LAST_TILE,
    LAST_DISCARD,
    REPLACEMENT,
    ROBBING_KONG,
    HEAVENLY,
    EARTHLY,
    RENHOU,
    CLOSED,
    ALL_SIMPLES,
    ALL_OUTSIDE,
    ALL_HONORS,
    ALL_TERMINALS,
    ALL_GREEN,
    HALF_FLUSH,
    FULL_FLUSH,
    NINE_GATES,
    PURE_NINE_GATES,
    SEVEN_PAIRS,
    THIRTEEN_ORPHANS,
    PINFU_SHAPE,
    ONE_TWIN,
    TWO_TWINS,
    OUTSIDE_GROUPS,
    TERMINAL_GROUPS,
    STRAIGHT,
    THREE_CHOWS,
    THREE_PUNGS,
    ALL_PUNGS,
    THREE_CONCEALED,
    FOUR_CONCEALED,
    FOUR_CONCEALED_PAIR_WAIT,
    THREE_KONGS,
    FOUR_KONGS,
    LITTLE_DRAGONS,
    BIG_DRAGONS,
    LITTLE_WINDS,
    BIG_WINDS,
    SEAT_PUNG,
    ROUND_PUNG,
    DRAGON_PUNG,
) = BIT.values()
"""`SELF_DRAW`...`RENHOU`: the win (`SELF_DRAW`, and each event). `CLOSED` no declared group
but concealed kongs; `ALL_*` every tile a simple, a terminal or honor, an honor, a terminal, a
green tile; `HALF_FLUSH`/`FULL_FLUSH` one suit with honors / without; `NINE_GATES` no declared
group and 1112345678999 of one suit among the tiles, `PURE_NINE_GATES` those thirteen before
the winning tile. A reading's special shape (a standard reading has neither bit);
`PINFU_SHAPE` four chows, a pair of no value tile and a two-sided wait; `ONE_TWIN`/`TWO_TWINS`
one or two pairs of identical chows; `OUTSIDE_GROUPS` a standard reading with a chow whose
every group holds a terminal or an honor, an honor among them, `TERMINAL_GROUPS` one whose
every group holds a terminal; `STRAIGHT` 123 456 789 of a suit; `THREE_CHOWS`/`THREE_PUNGS`
one chow / pung in each suit at one rank; `ALL_PUNGS` four pungs or kongs,
`THREE_CONCEALED`/`FOUR_CONCEALED` that many concealed, `FOUR_CONCEALED_PAIR_WAIT` four and the
winning tile made the pair; kongs, dragon and wind pungs by count; `SEAT_PUNG`/`ROUND_PUNG` a
pung of that wind; `DRAGON_PUNG` a dragon pung at least (how many: `dragon_pungs`).

A bit says only what some yaku needs, so that readings alike in what scores share one feature
set: the winning tile's pair role is a bit only beside four concealed pungs, an honor only in
an outside hand."""

DRAGON_SHIFT = len(_NAMES)
"""Where the count of dragon pungs (0-3) sits, above the named bits."""
DRAGON_COUNT = 3 << DRAGON_SHIFT
"""The bits of that count."""
EVERY = (1 << DRAGON_SHIFT + 2) - 1
"""Every bit a feature set may have."""


def dragon_pungs(features: int) -> int:
    """How many dragon pungs a reading has (yakuhai of dragons, one han each)."""
    return features >> DRAGON_SHIFT & 3


EVENT_BITS = {
    RiichiEvent.RIICHI: RIICHI,
    RiichiEvent.DOUBLE_RIICHI: DOUBLE_RIICHI,
    RiichiEvent.IPPATSU: IPPATSU,
    RiichiEvent.LAST_TILE: LAST_TILE,
    RiichiEvent.LAST_DISCARD: LAST_DISCARD,
    RiichiEvent.REPLACEMENT: REPLACEMENT,
    RiichiEvent.ROBBING_KONG: ROBBING_KONG,
    RiichiEvent.HEAVENLY: HEAVENLY,
    RiichiEvent.EARTHLY: EARTHLY,
    RiichiEvent.RENHOU: RENHOU,
}


def context_features(context: RiichiContext) -> int:
    found = 0 if context.by_discard else SELF_DRAW
    for event in context.events:
        found |= EVENT_BITS[event]
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

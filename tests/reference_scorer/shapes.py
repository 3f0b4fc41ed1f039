"""Every reading of a hand into sets and a pair, and the waits of a hand one tile short.

The work is done per suit: a suit's tile counts have a fixed set of decompositions into chows,
pungs and at most one pair, memoised by those counts, and a hand's arrangements are the
combinations of its four blocks (characters, circles, bamboo, honors) with exactly one pair.
Declared groups are fixed and never re-read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache
from itertools import product

from companion.hand import Hand, MeldKind
from companion.tiles import KINDS, TERMINALS_AND_HONORS, Tile, format_tiles


class GroupKind(Enum):
    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"
    PAIR = "pair"
    SINGLE = "single"
    """One tile of Thirteen Orphans."""

    __hash__ = object.__hash__  # members are singletons; Enum's default hash is slow


@dataclass(frozen=True, slots=True)
class Group:
    """A set, a pair, or a single orphan in a reading.

    `concealed` as the rules have it: not declared (a concealed kong is concealed) and, on a discard
    win, not completed by the winning tile.
    """

    kind: GroupKind
    tile: Tile
    """The lowest tile of the group."""
    concealed: bool
    meld: MeldKind | None = None
    """The declared group this came from; None for a group read from the concealed tiles."""

    @property
    def declared(self) -> bool:
        return self.meld is not None

    @property
    def tiles(self) -> tuple[Tile, ...]:
        tile = self.tile
        if self.kind is GroupKind.CHOW:
            return (tile, Tile(tile + 1), Tile(tile + 2))
        return (tile,) * _GROUP_SIZE[self.kind]

    @property
    def is_set(self) -> bool:
        return self.kind in (GroupKind.CHOW, GroupKind.PUNG, GroupKind.KONG)

    @property
    def is_pung_or_kong(self) -> bool:
        return self.kind in (GroupKind.PUNG, GroupKind.KONG)

    def __str__(self) -> str:
        return format_tiles(self.tiles)


_GROUP_SIZE = {
    GroupKind.CHOW: 3,
    GroupKind.PUNG: 3,
    GroupKind.KONG: 4,
    GroupKind.PAIR: 2,
    GroupKind.SINGLE: 1,
}


class WinRole(Enum):
    """What the winning tile did in a reading."""

    PAIR = "pair"
    PUNG = "pung"
    TWO_SIDED = "two_sided"
    """One end of a chow whose other end was also a wait (45 waiting on 3 or 6)."""
    CLOSED = "closed"
    """The middle tile of a chow."""
    EDGE = "edge"
    """The 3 of 1-2-3 or the 7 of 7-8-9."""
    SINGLE = "single"
    """A Thirteen Orphans tile that is not the pair."""


class Shape(Enum):
    STANDARD = "standard"
    THIRTEEN_ORPHANS = "thirteen_orphans"
    SEVEN_PAIRS_TRIPLET = "seven_pairs_triplet"
    SEVEN_PAIRS = "seven_pairs"


@dataclass(frozen=True, slots=True)
class Structure:
    """The winning shapes a profile accepts."""

    sets: int = 4
    thirteen_orphans: bool = False
    seven_pairs_triplet: bool = False
    seven_pairs: bool = False
    """Seven pairs of seven different kinds, no declared group (a house rule in `hk`)."""


FOUR_SETS = Structure(sets=4, thirteen_orphans=True)
"""Singapore: four sets and a pair, or Thirteen Orphans."""
FIVE_SETS = Structure(sets=5, seven_pairs_triplet=True)
"""Taiwan: five sets and a pair, or seven different pairs and a triplet."""


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read a complete hand, with the winning tile's place in it."""

    shape: Shape
    groups: tuple[Group, ...]
    """Declared groups in the order given, then concealed sets by tile, then the pair."""
    winning_index: int
    role: WinRole

    @property
    def winning_group(self) -> Group:
        return self.groups[self.winning_index]

    @property
    def sets(self) -> tuple[Group, ...]:
        return tuple(group for group in self.groups if group.is_set)

    @property
    def pair(self) -> Group | None:
        pairs = [group for group in self.groups if group.kind is GroupKind.PAIR]
        return pairs[0] if len(pairs) == 1 else None

    def __str__(self) -> str:
        return " ".join(str(group) for group in self.groups)


# A block decomposition: sorted (kind, offset) pairs, kind 0 chow, 1 pung, 2 pair.
_CHOW, _PUNG, _PAIR = 0, 1, 2
_BlockReading = tuple[tuple[int, int], ...]
_BLOCKS = ((0, 9, False), (9, 9, False), (18, 9, False), (27, 7, True))
"""(first kind, size, honors) of each block."""


@cache
def _block_readings(counts: tuple[int, ...], honors: bool) -> tuple[_BlockReading, ...]:
    """Every decomposition of one block's tiles into chows, pungs and at most one pair."""
    found: set[_BlockReading] = set()
    work = list(counts)
    chosen: list[tuple[int, int]] = []

    def walk(start: int, pair_used: bool) -> None:
        index = start
        while index < len(work) and work[index] == 0:
            index += 1
        if index == len(work):
            found.add(tuple(sorted(chosen)))
            return
        if work[index] >= 3:
            work[index] -= 3
            chosen.append((_PUNG, index))
            walk(index, pair_used)
            chosen.pop()
            work[index] += 3
        if not honors and index + 2 < len(work) and work[index + 1] and work[index + 2]:
            for offset in (0, 1, 2):
                work[index + offset] -= 1
            chosen.append((_CHOW, index))
            walk(index, pair_used)
            chosen.pop()
            for offset in (0, 1, 2):
                work[index + offset] += 1
        if not pair_used and work[index] >= 2:
            work[index] -= 2
            chosen.append((_PAIR, index))
            walk(index, True)
            chosen.pop()
            work[index] += 2

    walk(0, False)
    return tuple(sorted(found))


@cache
def _block_fits(counts: tuple[int, ...], honors: bool) -> bool:
    """Whether the block decomposes completely: with a pair when its size is 2 mod 3."""
    want_pair = sum(counts) % 3 == 2
    return any(
        any(kind == _PAIR for kind, _ in reading) == want_pair
        for reading in _block_readings(counts, honors)
    )


def _standard_complete(counts: Sequence[int]) -> bool:
    pairs = 0
    for first, size, honors in _BLOCKS:
        block = tuple(counts[first : first + size])
        total: int = sum(block)
        if total % 3 == 1:
            return False
        if total % 3 == 2:
            pairs += 1
            if pairs > 1:
                return False
        if total and not _block_fits(block, honors):
            return False
    return pairs == 1


def _is_thirteen_orphans(counts: Sequence[int]) -> bool:
    return (
        sum(counts) == 14
        and all(counts[tile] >= 1 for tile in TERMINALS_AND_HONORS)
        and all(counts[kind] == 0 for kind in range(KINDS) if kind not in _ORPHAN_KINDS)
    )


def _is_seven_pairs_triplet(counts: Sequence[int]) -> bool:
    held = sorted(count for count in counts if count)
    return held == [2] * 7 + [3]


def _is_seven_pairs(counts: Sequence[int]) -> bool:
    held = [count for count in counts if count]
    return len(held) == 7 and all(count == 2 for count in held)


_ORPHAN_KINDS = frozenset(TERMINALS_AND_HONORS)


def is_complete(hand: Hand, structure: Structure, extra: Tile | None = None) -> bool:
    """Whether the concealed tiles (plus `extra`) complete the hand in any enabled shape."""
    counts = hand.concealed_counts()
    if extra is not None:
        counts[extra] += 1
    if _standard_complete(counts):
        return True
    if hand.melds:
        return False
    if structure.thirteen_orphans and _is_thirteen_orphans(counts):
        return True
    if structure.seven_pairs and _is_seven_pairs(counts):
        return True
    return structure.seven_pairs_triplet and _is_seven_pairs_triplet(counts)


def arrangements(hand: Hand, structure: Structure) -> list[tuple[Shape, tuple[Group, ...]]]:
    """Every way to read the hand's tiles, before the winning tile is placed.

    Concealed groups are marked concealed; the winning tile's group is adjusted per reading.
    """
    declared = tuple(_declared_group(meld.kind, meld.first) for meld in hand.melds)
    counts = hand.concealed_counts()
    found: list[tuple[Shape, tuple[Group, ...]]] = []
    block_options: list[tuple[_BlockGroups, ...]] = []
    pair_blocks = 0
    for first, size, honors in _BLOCKS:
        block = tuple(counts[first : first + size])
        remainder = sum(block) % 3
        options = _block_groups(block, first, honors) if remainder != 1 else ()
        if not options:
            break
        pair_blocks += remainder == 2
        block_options.append(options)
    else:
        if pair_blocks == 1:
            for combination in product(*block_options):
                sets = tuple(group for block_sets, _ in combination for group in block_sets)
                (pair,) = (block_pair for _, block_pair in combination if block_pair is not None)
                found.append((Shape.STANDARD, (*declared, *sets, pair)))
    if not hand.melds:
        if structure.thirteen_orphans and _is_thirteen_orphans(counts):
            groups = tuple(
                Group(GroupKind.PAIR if counts[tile] == 2 else GroupKind.SINGLE, tile, True)
                for tile in TERMINALS_AND_HONORS
            )
            found.append((Shape.THIRTEEN_ORPHANS, groups))
        if structure.seven_pairs_triplet and _is_seven_pairs_triplet(counts):
            triplet = [Group(GroupKind.PUNG, Tile(k), True) for k in range(KINDS) if counts[k] == 3]
            pairs = [Group(GroupKind.PAIR, Tile(k), True) for k in range(KINDS) if counts[k] == 2]
            found.append((Shape.SEVEN_PAIRS_TRIPLET, (*triplet, *pairs)))
        if structure.seven_pairs and _is_seven_pairs(counts):
            pairs = [Group(GroupKind.PAIR, Tile(k), True) for k in range(KINDS) if counts[k] == 2]
            found.append((Shape.SEVEN_PAIRS, tuple(pairs)))
    return found


_BlockGroups = tuple[tuple[Group, ...], Group | None]


@cache
def _block_groups(counts: tuple[int, ...], first: int, honors: bool) -> tuple[_BlockGroups, ...]:
    """Each complete decomposition of one block as concealed groups: its sets in tile order
    (a pung before a chow of the same tile) and its pair, if the block's size asks for one."""
    want_pair = sum(counts) % 3 == 2
    found: list[_BlockGroups] = []
    for reading in _block_readings(counts, honors):
        pair = [offset for kind, offset in reading if kind == _PAIR]
        if bool(pair) != want_pair:
            continue
        sets = sorted((offset, kind == _CHOW) for kind, offset in reading if kind != _PAIR)
        groups = tuple(
            Group(GroupKind.CHOW if chow else GroupKind.PUNG, _TILES[first + offset], True)
            for offset, chow in sets
        )
        found.append(
            (groups, Group(GroupKind.PAIR, _TILES[first + pair[0]], True) if pair else None)
        )
    return tuple(found)


def _declared_group(kind: MeldKind, first: Tile) -> Group:
    if kind is MeldKind.CHOW:
        return Group(GroupKind.CHOW, first, False, kind)
    if kind is MeldKind.PUNG:
        return Group(GroupKind.PUNG, first, False, kind)
    return Group(GroupKind.KONG, first, kind is MeldKind.CONCEALED_KONG, kind)


def win_role(group: Group, winning_tile: Tile) -> WinRole:
    """The role of `winning_tile` in `group`, which must contain it."""
    if group.kind is GroupKind.PAIR:
        return WinRole.PAIR
    if group.kind is GroupKind.SINGLE:
        return WinRole.SINGLE
    if group.kind is not GroupKind.CHOW:
        return WinRole.PUNG
    if winning_tile == group.tile + 1:
        return WinRole.CLOSED
    rank = group.tile.rank
    if (rank == 1 and winning_tile == group.tile + 2) or (rank == 7 and winning_tile == group.tile):
        return WinRole.EDGE
    return WinRole.TWO_SIDED


def readings(hand: Hand, structure: Structure, *, discard: bool) -> list[Reading]:
    """Every reading of a complete hand with every distinct role of its winning tile.

    An empty list means the tiles are not a win in any enabled shape.
    """
    winning_tile = hand.winning_tile
    if winning_tile is None:
        raise ValueError("readings need a complete hand with a winning tile")
    found: list[Reading] = []
    chow = GroupKind.CHOW
    for shape, groups in arrangements(hand, structure):
        seen: set[tuple[GroupKind, Tile]] = set()
        for index, group in enumerate(groups):
            kind, tile = group.kind, group.tile
            if group.meld is not None:
                continue
            if not (tile <= winning_tile <= tile + 2 if kind is chow else tile == winning_tile):
                continue
            if (kind, tile) in seen:
                continue
            seen.add((kind, tile))
            placed = groups
            if discard:
                exposed = Group(kind, tile, False)
                placed = (*groups[:index], exposed, *groups[index + 1 :])
            found.append(Reading(shape, placed, index, win_role(group, winning_tile)))
    return found


@cache
def _block_completions(counts: tuple[int, ...], honors: bool) -> tuple[tuple[int, bool], ...]:
    """The offsets whose one more tile lets this block decompose completely, each with whether
    the block then holds the pair. Memoised per block like `_block_readings`."""
    found: list[tuple[int, bool]] = []
    work = list(counts)
    for offset in range(len(work)):
        if work[offset] >= 4:
            continue
        work[offset] += 1
        total = sum(work)
        if total % 3 != 1 and _block_fits(tuple(work), honors):
            found.append((offset, total % 3 == 2))
        work[offset] -= 1
    return tuple(found)


def waits(hand: Hand, structure: Structure) -> tuple[Tile, ...]:
    """The tile kinds that would complete a hand one tile short, in tile order.

    A kind already held four times (counting declared groups) is not a wait.
    """
    if hand.is_complete:
        raise ValueError("waits are asked of a hand one tile short")
    counts = hand.concealed_counts()
    held = hand.counts() if hand.melds else counts
    # One more tile changes one block only: that block must then decompose (pair or not, by
    # its size) and every other block must already, with exactly one pair in all.
    blocks = [tuple(counts[first : first + size]) for first, size, _ in _BLOCKS]
    states: list[tuple[int, bool]] = []
    for block, (_, _, honors) in zip(blocks, _BLOCKS, strict=True):
        total = sum(block)
        states.append((total % 3, total == 0 or (total % 3 != 1 and _block_fits(block, honors))))
    found: set[int] = set()
    for index, (first, _, honors) in enumerate(_BLOCKS):
        others = [state for other, state in enumerate(states) if other != index]
        if not all(fits for _, fits in others):
            continue
        pairs = sum(1 for remainder, _ in others if remainder == 2)
        for offset, with_pair in _block_completions(blocks[index], honors):
            if pairs + with_pair == 1 and held[first + offset] < 4:
                found.add(first + offset)
    special = structure.thirteen_orphans or structure.seven_pairs_triplet or structure.seven_pairs
    if not hand.melds and special:
        found.update(_special_waits(structure, counts, held))
    return tuple(_TILES[kind] for kind in sorted(found))


def _special_waits(structure: Structure, counts: list[int], held: list[int]) -> set[int]:
    """Waits of Thirteen Orphans, seven pairs, and seven pairs and a triplet, read off the
    counts."""
    found: set[int] = set()
    kinds = [kind for kind in range(KINDS) if counts[kind]]
    if structure.thirteen_orphans and sum(counts) == 13 and set(kinds) <= _ORPHAN_KINDS:
        if len(kinds) == 13:
            found.update(TERMINALS_AND_HONORS)
        elif len(kinds) == 12 and max(counts) == 2:
            found.update(_ORPHAN_KINDS - set(kinds))
    if structure.seven_pairs_triplet and sum(counts) == 16:
        shape = sorted(counts[kind] for kind in kinds)
        if shape == [2] * 8:
            found.update(kinds)
        elif shape == [1] + [2] * 6 + [3]:
            found.update(kind for kind in kinds if counts[kind] == 1)
    if structure.seven_pairs and sum(counts) == 13:
        shape = sorted(counts[kind] for kind in kinds)
        if shape == [1] + [2] * 6:
            found.update(kind for kind in kinds if counts[kind] == 1)
    return {kind for kind in found if held[kind] < 4}


_TILES = tuple(Tile)


def clear_memos() -> None:
    """Forget every memoised suit block (for benchmarks that time a cold start)."""
    for memo in (_block_readings, _block_fits, _block_groups, _block_completions):
        memo.cache_clear()

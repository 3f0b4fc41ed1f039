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
            return (tile, _TILES[tile + 1], _TILES[tile + 2])
        return (tile,) * _GROUP_SIZE[self.kind]

    @property
    def is_set(self) -> bool:
        return self.kind in (GroupKind.CHOW, GroupKind.PUNG, GroupKind.KONG)

    @property
    def is_pung_or_kong(self) -> bool:
        return self.kind in (GroupKind.PUNG, GroupKind.KONG)

    def __str__(self) -> str:
        key = (self.kind, self.tile)
        text = _GROUP_TEXT.get(key)
        if text is None:
            text = _GROUP_TEXT[key] = format_tiles(self.tiles)
        return text


_GROUP_TEXT: dict[tuple[GroupKind, Tile], str] = {}
"""The MPSZ of each kind of group on each tile, made once (a few hundred in all)."""
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

    __hash__ = object.__hash__  # members are singletons; Enum's default hash is slow


class Shape(Enum):
    STANDARD = "standard"
    THIRTEEN_ORPHANS = "thirteen_orphans"
    SEVEN_PAIRS_TRIPLET = "seven_pairs_triplet"
    SEVEN_PAIRS = "seven_pairs"

    __hash__ = object.__hash__  # members are singletons; Enum's default hash is slow


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

# A block's tile counts as one integer key, three bits a kind: adding a tile of offset `o` adds
# `1 << 3 * o`. Every memo below is keyed by it, one dict per block (the honors block has no
# chows, and a block's groups carry its tiles).
_BLOCK_OF = tuple(min(kind // 9, 3) for kind in range(KINDS))
_UNIT = tuple(1 << 3 * (kind - _BLOCKS[_BLOCK_OF[kind]][0]) for kind in range(KINDS))
_SIMPLES = sum(7 << 3 * offset for offset in range(1, 8))
"""The 2-8 of a numbered block: a hand with none of them may be Thirteen Orphans."""


def block_keys(tiles: Sequence[Tile]) -> list[int]:
    """The four block keys (characters, circles, bamboo, honors) of some playing tiles."""
    keys = [0, 0, 0, 0]
    block_of, unit = _BLOCK_OF, _UNIT
    for tile in tiles:
        keys[block_of[tile]] += unit[tile]
    return keys


def _counts_of(key: int, size: int) -> list[int]:
    return [(key >> 3 * offset) & 7 for offset in range(size)]


_DECOMPOSITIONS: tuple[dict[tuple[int, bool], tuple[_BlockReading, ...]], ...] = ({}, {})
"""By block key and whether a pair may still be used (numbered blocks, then honors)."""


def _decompositions(key: int, honors: bool, pair_allowed: bool) -> tuple[_BlockReading, ...]:
    """Every decomposition of a block key into chows, pungs and (when allowed) one pair: at the
    lowest kind held, a pung, a chow or the pair, then the decompositions of what is left,
    memoised in turn (so blocks share their tails)."""
    memo = _DECOMPOSITIONS[honors]
    found = memo.get((key, pair_allowed))
    if found is not None:
        return found
    if not key:
        found = memo[(key, pair_allowed)] = ((),)
        return found
    shift = 0
    while not (key >> shift) & 7:
        shift += 3
    index = shift // 3
    count = (key >> shift) & 7
    parts: list[_BlockReading] = []
    if count >= 3:
        pung = (_PUNG, index)
        rest_key = key - (3 << shift)
        parts += [(pung, *rest) for rest in _decompositions(rest_key, honors, pair_allowed)]
    if not honors and (key >> (shift + 3)) & 7 and (key >> (shift + 6)) & 7:
        chow = (_CHOW, index)
        rest_key = key - (1 << shift) - (1 << (shift + 3)) - (1 << (shift + 6))
        parts += [(chow, *rest) for rest in _decompositions(rest_key, honors, pair_allowed)]
    if pair_allowed and count >= 2:
        pair = (_PAIR, index)
        parts += [(pair, *rest) for rest in _decompositions(key - (2 << shift), honors, False)]
    found = memo[(key, pair_allowed)] = tuple(parts)
    return found


def _low_shift(key: int) -> int:
    """The shift of the lowest kind held in a block key (not 0). Decomposing is the same
    wherever in the suit the tiles sit, so the memos below are keyed by the key shifted down by
    it: 234m and 678p share their entries."""
    return ((key & -key).bit_length() - 1) // 3 * 3


_READINGS: tuple[dict[int, tuple[_BlockReading, ...]], ...] = ({}, {})


def _block_readings(key: int, honors: bool) -> tuple[_BlockReading, ...]:
    """Every decomposition of one block's tiles into chows, pungs and at most one pair, each
    as sorted (kind, offset) pairs, in sorted order."""
    if not key:
        return ((),)
    shift = _low_shift(key)
    base = key >> shift
    memo = _READINGS[honors]
    readings = memo.get(base)
    if readings is None:
        found = {tuple(sorted(found)) for found in _decompositions(base, honors, True)}
        readings = memo[base] = tuple(sorted(found))
    low = shift // 3
    if not low:
        return readings
    return tuple([tuple([(kind, offset + low) for kind, offset in found]) for found in readings])


_SETS_ONLY: tuple[dict[int, bool], dict[int, bool]] = ({0: True}, {0: True})
"""By block key (numbered blocks, then honors): whether its tiles are all chows and pungs."""


def _sets_only(key: int, honors: bool) -> bool:
    """Whether the block's tiles are all chows and pungs. At the lowest kind held, three chows
    use the same tiles as three pungs, so only `count % 3` chows start there; what is left is
    another key, memoised in turn."""
    memo = _SETS_ONLY[honors]
    found = memo.get(key)
    if found is not None:
        return found
    base = key >> _low_shift(key)
    found = memo.get(base)
    if found is None:
        count = base & 7
        rest = base - count
        chows = count % 3
        if chows and (honors or (rest >> 3) & 7 < chows or (rest >> 6) & 7 < chows):
            found = False
        else:
            found = _sets_only(rest - (chows << 3) - (chows << 6), honors)
        memo[base] = found
    memo[key] = found
    return found


def _fits_of(key: int, honors: bool) -> bool:
    """Whether a block decomposes completely: with a pair when its size is 2 mod 3."""
    remainder = _size(key) % 3
    if remainder == 1:
        return False
    if remainder == 0:
        return _sets_only(key, honors)
    return _sets_and_pair(key, honors)


def _sets_and_pair(key: int, honors: bool) -> bool:
    """Whether the block is chows and pungs and one pair: a pair out of a kind held twice or
    more, the rest sets only."""
    pairs = (key | key >> 1) & _TWICE
    while pairs:
        low = pairs & -pairs
        if _sets_only(key - (2 << (low.bit_length() - 2)), honors):
            return True
        pairs ^= low
    return False


_TWICE = sum(2 << 3 * offset for offset in range(13))
"""The middle bit of every kind's count: set in `key | key >> 1` where a kind is held twice or
more."""


_STATES: tuple[dict[int, int], dict[int, int]] = ({}, {})
"""By block key (numbered blocks, then honors): the block's size mod 3 (0, or 2 with the pair)
when it decomposes completely, else -1."""


def _block_state(key: int, honors: bool) -> int:
    memo = _STATES[honors]
    state = memo.get(key)
    if state is None:
        state = memo[key] = _size(key) % 3 if _fits_of(key, honors) else -1
    return state


def _block_fits(key: int, honors: bool) -> bool:
    return _block_state(key, honors) >= 0


def _standard_complete(keys: Sequence[int]) -> bool:
    pairs = 0
    for block, key in enumerate(keys):
        if not key:
            continue
        state = _block_state(key, block == 3)
        if state < 0:
            return False
        if state == 2:
            pairs += 1
            if pairs > 1:
                return False
    return pairs == 1


def _size(key: int) -> int:
    """The number of tiles in a block key."""
    chunks = _SIZE_OF[key & 0xFFF] + _SIZE_OF[(key >> 12) & 0xFFF]
    return chunks + _SIZE_OF[(key >> 24) & 0xFFF] + _SIZE_OF[key >> 36]


_SIZE_OF = tuple(sum((chunk >> shift) & 7 for shift in (0, 3, 6, 9)) for chunk in range(1 << 12))
"""The tiles in four kinds' worth (12 bits) of a block key."""


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
    tiles = hand.concealed if extra is None else (*hand.concealed, extra)
    if _standard_complete(block_keys(tiles)):
        return True
    if hand.melds:
        return False
    counts = hand.concealed_counts()
    if extra is not None:
        counts[extra] += 1
    if structure.thirteen_orphans and _is_thirteen_orphans(counts):
        return True
    if structure.seven_pairs and _is_seven_pairs(counts):
        return True
    return structure.seven_pairs_triplet and _is_seven_pairs_triplet(counts)


def arrangements(
    hand: Hand, structure: Structure, keys: Sequence[int] | None = None
) -> list[tuple[Shape, tuple[Group, ...]]]:
    """Every way to read the hand's tiles, before the winning tile is placed (`keys`: the
    concealed tiles' `block_keys`, when the caller has them).

    Concealed groups are marked concealed; the winning tile's group is adjusted per reading.
    """
    if keys is None:
        keys = block_keys(hand.concealed)
    declared = tuple(_declared_group(meld.kind, meld.first) for meld in hand.melds)
    found: list[tuple[Shape, tuple[Group, ...]]] = []
    block_options: list[tuple[_BlockGroups, ...]] = []
    pair_blocks = 0
    several = False
    for block, key in enumerate(keys):
        memo = _GROUPS[block]
        entry = memo.get(key)
        if entry is None:
            entry = memo[key] = _block_groups(block, key)
        with_pair, options = entry
        if not options:
            break
        pair_blocks += with_pair
        several = several or len(options) > 1
        block_options.append(options)
    else:
        if pair_blocks == 1 and not several:
            # One decomposition of every block, the usual case.
            sets_found: list[Group] = [*declared]
            pair_found: Group | None = None
            for ((block_sets, block_pair),) in block_options:
                sets_found += block_sets
                if block_pair is not None:
                    pair_found = block_pair
            assert pair_found is not None
            sets_found.append(pair_found)
            found.append((Shape.STANDARD, tuple(sets_found)))
        elif pair_blocks == 1:
            for combination in product(*block_options):
                sets = tuple(group for block_sets, _ in combination for group in block_sets)
                (pair,) = (block_pair for _, block_pair in combination if block_pair is not None)
                found.append((Shape.STANDARD, (*declared, *sets, pair)))
    if not hand.melds and (
        ((structure.seven_pairs_triplet or structure.seven_pairs) and _pairs_like(keys, 1))
        or (structure.thirteen_orphans and not (keys[0] | keys[1] | keys[2]) & _SIMPLES)
    ):
        counts = hand.concealed_counts()
        if structure.thirteen_orphans and _is_thirteen_orphans(counts):
            groups = tuple(
                [
                    Group(GroupKind.PAIR if counts[tile] == 2 else GroupKind.SINGLE, tile, True)
                    for tile in TERMINALS_AND_HONORS
                ]
            )
            found.append((Shape.THIRTEEN_ORPHANS, groups))
        if structure.seven_pairs_triplet and _is_seven_pairs_triplet(counts):
            triplet = [
                Group(GroupKind.PUNG, _TILES[k], True) for k in range(KINDS) if counts[k] == 3
            ]
            pairs = [Group(GroupKind.PAIR, _TILES[k], True) for k in range(KINDS) if counts[k] == 2]
            found.append((Shape.SEVEN_PAIRS_TRIPLET, (*triplet, *pairs)))
        if structure.seven_pairs and _is_seven_pairs(counts):
            pairs = [Group(GroupKind.PAIR, _TILES[k], True) for k in range(KINDS) if counts[k] == 2]
            found.append((Shape.SEVEN_PAIRS, tuple(pairs)))
    return found


_BlockGroups = tuple[tuple[Group, ...], Group | None]
_GROUPS: tuple[dict[int, tuple[bool, tuple[_BlockGroups, ...]]], ...] = ({}, {}, {}, {})
"""Per block, by key: whether the block holds the pair, and its complete decompositions."""


def _block_groups(block: int, key: int) -> tuple[bool, tuple[_BlockGroups, ...]]:
    """Whether the block's size asks for the pair, and each complete decomposition of the block
    as concealed groups: its sets in tile order (a pung before a chow of the same tile) and its
    pair, if the block's size asks for one. No decomposition when the size is 1 mod 3."""
    first, _, honors = _BLOCKS[block]
    remainder = _size(key) % 3
    want_pair = remainder == 2
    if remainder == 1:
        return want_pair, ()
    found: list[_BlockGroups] = []
    for reading in _block_readings(key, honors):
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
    return want_pair, tuple(found)


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


def readings(
    hand: Hand, structure: Structure, *, discard: bool, keys: Sequence[int] | None = None
) -> list[Reading]:
    """Every reading of a complete hand with every distinct role of its winning tile (`keys`:
    the concealed tiles' `block_keys`, when the caller has them).

    An empty list means the tiles are not a win in any enabled shape.
    """
    winning_tile = hand.winning_tile
    if winning_tile is None:
        raise ValueError("readings need a complete hand with a winning tile")
    found: list[Reading] = []
    chow = GroupKind.CHOW
    for shape, groups in arrangements(hand, structure, keys):
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


_COMPLETIONS: tuple[dict[int, tuple[tuple[int, bool], ...]], ...] = ({}, {})
"""By block key (numbered blocks, then honors): the offsets whose one more tile lets the block
decompose completely, each with whether the block then holds the pair."""


def _block_completions(key: int, honors: bool) -> tuple[tuple[int, bool], ...]:
    memo = _COMPLETIONS[honors]
    found = memo.get(key)
    if found is not None:
        return found
    if not key:
        found = memo[key] = ()
        return found
    # Worked out on the key moved to start two kinds up (the room for a tile below it), then
    # moved back and cut to the block.
    shift = _low_shift(key)
    room = 0 if honors else 2
    size = 7 if honors else 9
    low = shift // 3 - room
    found = memo[key] = tuple(
        [
            (low + offset, with_pair)
            for offset, with_pair in _relative_completions(key >> shift << 3 * room, honors)
            if 0 <= low + offset < size
        ]
    )
    return found


_RELATIVE: tuple[dict[int, tuple[tuple[int, bool], ...]], ...] = ({}, {})


def _relative_completions(key: int, honors: bool) -> tuple[tuple[int, bool], ...]:
    memo = _RELATIVE[honors]
    found = memo.get(key)
    if found is not None:
        return found
    completions: list[tuple[int, bool]] = []
    total = _size(key) + 1
    with_pair = total % 3 == 2
    if total % 3 != 1:
        # A tile with no other within two kinds of it (honors: of its own kind) joins nothing.
        near = key if honors else key | key << 3 | key << 6 | key >> 3 | key >> 6
        for offset in range(7 if honors else 13):
            shift = 3 * offset
            if not (near >> shift) & 7 or (key >> shift) & 7 == 4:
                continue
            grown = key + (1 << shift)
            if _sets_and_pair(grown, honors) if with_pair else _sets_only(grown, honors):
                completions.append((offset, with_pair))
    found = memo[key] = tuple(completions)
    return found


def waits(hand: Hand, structure: Structure) -> tuple[Tile, ...]:
    """The tile kinds that would complete a hand one tile short, in tile order.

    A kind already held four times (counting declared groups) is not a wait.
    """
    if hand.is_complete:
        raise ValueError("waits are asked of a hand one tile short")
    keys = block_keys(hand.concealed)
    return _waits(hand, keys, structure)


def waits_before(hand: Hand, structure: Structure, keys: Sequence[int]) -> tuple[Tile, ...]:
    """The waits of a complete hand before its winning tile arrived (`keys`: the complete
    hand's concealed `block_keys`), read without copying the hand."""
    winning = hand.winning_tile
    if winning is None:
        raise ValueError("waits_before needs a complete hand")
    waiting = list(keys)
    waiting[_BLOCK_OF[winning]] -= _UNIT[winning]
    return _waits(hand, waiting, structure)


def _waits(hand: Hand, keys: Sequence[int], structure: Structure) -> tuple[Tile, ...]:
    found: list[int] = []
    held = keys
    if hand.melds:
        declared = block_keys([tile for meld in hand.melds for tile in meld.tiles])
        held = [key + more for key, more in zip(keys, declared, strict=True)]
    # One more tile changes one block only: that block must then decompose (pair or not, by
    # its size) and every other block must already, with exactly one pair in all.
    pairs = 0
    broken = -1
    states = [0, 0, 0, 0]
    numbered = _STATES[False]
    for block, key in enumerate(keys):
        if key:
            state = numbered.get(key) if block < 3 else None
            if state is None:
                state = _block_state(key, block == 3)
            states[block] = state
            if state < 0:
                if broken >= 0:
                    break
                broken = block
            elif state:
                pairs += 1
    else:
        for block in (broken,) if broken >= 0 else range(4):
            key = keys[block]
            first = _BLOCKS[block][0]
            others = pairs - (states[block] == 2)  # the pairs among the other blocks
            for offset, with_pair in _block_completions(key, block == 3):
                if others + with_pair == 1 and (held[block] >> 3 * offset) & 7 < 4:
                    found.append(first + offset)
    special = (structure.seven_pairs_triplet or structure.seven_pairs) and _pairs_like(keys, 2)
    if structure.thirteen_orphans and not (keys[0] | keys[1] | keys[2]) & _SIMPLES:
        special = True
    if special and not hand.melds:
        counts = [
            count
            for block, key in enumerate(keys)
            for count in _counts_of(key, 9 - 2 * (block == 3))
        ]
        extra = _special_waits(structure, counts, counts)
        if extra:
            found = sorted(set(found) | extra)
    return tuple(_TILES[kind] for kind in found)


_ODD = sum(1 << 3 * offset for offset in range(9))
"""The low bit of every kind's count: set where a kind is held once or three times."""
_FOUR = _ODD << 2
"""The high bit of every kind's count: set where a kind is held four times."""


def _pairs_like(keys: Sequence[int], odd: int) -> bool:
    """Whether the tiles may be seven pairs (and a triplet): no kind held four times, and at
    most `odd` kinds held once or three times."""
    odd_kinds = 0
    for key in keys:
        if key & _FOUR:
            return False
        odd_kinds += (key & _ODD).bit_count()
    return odd_kinds <= odd


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
    for decompositions in _DECOMPOSITIONS:
        decompositions.clear()
    for states in _STATES:
        states.clear()
    for sets_only in _SETS_ONLY:
        sets_only.clear()
        sets_only[0] = True
    for groups in _GROUPS:
        groups.clear()
    for completions in (*_COMPLETIONS, *_RELATIVE):
        completions.clear()
    for readings in _READINGS:
        readings.clear()

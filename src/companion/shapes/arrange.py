"""Every reading of a complete hand into sets and a pair (or a special shape), and whether a
hand is complete at all.

A hand's arrangements are the combinations of its four blocks' decompositions with exactly one
pair; each block's decompositions are memoised by its key as ready-made concealed groups.
Declared groups are fixed and never re-read.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

from companion.hand import Hand
from companion.shapes.blocks import (
    BLOCK_OF,
    BLOCKS,
    FOUR,
    LOW,
    SIMPLES,
    block_keys,
    block_state,
    low_shift,
    remember,
    size,
)
from companion.shapes.groups import (
    CHOW_ROLES,
    CONCEALED_CHOW,
    CONCEALED_PAIR,
    CONCEALED_PUNG,
    EXPOSED,
    TILES,
    Group,
    GroupKind,
    Reading,
    Shape,
    Structure,
    WinRole,
    declared_group,
    win_role,
)
from companion.shapes.special import (
    is_seven_pairs,
    is_seven_pairs_triplet,
    is_thirteen_orphans,
    pairs_like,
)
from companion.tiles import KINDS, TERMINALS_AND_HONORS, Tile

# A block decomposition: sorted (kind, offset) pairs, kind 0 chow, 1 pung, 2 pair.
_CHOW, _PUNG, _PAIR = 0, 1, 2
_BlockReading = tuple[tuple[int, int], ...]

_DECOMPOSITIONS: dict[tuple[int, bool], tuple[_BlockReading, ...]] = {}
"""By numbered key and whether a pair may still be used."""


def _decompositions(key: int, pair_allowed: bool) -> tuple[_BlockReading, ...]:
    """Every decomposition of a numbered key into chows, pungs and (when allowed) one pair: at
    the lowest kind held, a pung, a chow or the pair, then the decompositions of what is left,
    memoised in turn (so keys share their tails)."""
    memo = _DECOMPOSITIONS
    found = memo.get((key, pair_allowed))
    if found is not None:
        return found
    if not key:
        return remember(memo, (key, pair_allowed), ((),))
    shift = 0
    while not (key >> shift) & 7:
        shift += 3
    index = shift // 3
    count = (key >> shift) & 7
    parts: list[_BlockReading] = []
    if count >= 3:
        pung = (_PUNG, index)
        rest_key = key - (3 << shift)
        parts += [(pung, *rest) for rest in _decompositions(rest_key, pair_allowed)]
    if (key >> (shift + 3)) & 7 and (key >> (shift + 6)) & 7:
        chow = (_CHOW, index)
        rest_key = key - (1 << shift) - (1 << (shift + 3)) - (1 << (shift + 6))
        parts += [(chow, *rest) for rest in _decompositions(rest_key, pair_allowed)]
    if pair_allowed and count >= 2:
        pair = (_PAIR, index)
        parts += [(pair, *rest) for rest in _decompositions(key - (2 << shift), False)]
    return remember(memo, (key, pair_allowed), tuple(parts))


_Layout = tuple[tuple[int, ...], int]
"""A complete decomposition of a run: its sets as `2 * offset + is a chow`, ascending (a pung
before a chow of the same tile), and its pair's offset (-1 for none)."""
_RUN_LAYOUTS: dict[int, tuple[_Layout, ...]] = {}
"""By numbered run moved down to offset 0, whichever suit: `_run_layouts`."""


def _run_layouts(run: int) -> tuple[_Layout, ...]:
    """Every complete decomposition of a numbered run moved down to offset 0, with the pair when
    its size asks for one, in the order of their sorted (kind, offset) pairs."""
    want_pair = size(run) % 3 == 2
    found: list[_Layout] = []
    for reading in sorted({tuple(sorted(found)) for found in _decompositions(run, True)}):
        pair = [offset for kind, offset in reading if kind == _PAIR]
        if bool(pair) != want_pair:
            continue
        sets = sorted(2 * offset + (kind == _CHOW) for kind, offset in reading if kind != _PAIR)
        found.append((tuple(sets), pair[0] if pair else -1))
    return remember(_RUN_LAYOUTS, run, tuple(found))


_SET_AT = tuple(group for tile in TILES for group in (CONCEALED_PUNG[tile], CONCEALED_CHOW[tile]))
"""By `2 * lowest tile + is a chow`: the concealed pung or chow there (`_Layout`'s sets)."""

_BlockGroups = tuple[tuple[Group, ...], Group | None]
_GROUPS: tuple[dict[int, tuple[int, tuple[_BlockGroups, ...]]], ...] = ({}, {}, {}, {})
"""Per block, by key: its code (1 when the block holds the pair, plus 2 unless it decomposes in
exactly one way, so that four codes sum to 1 just when a hand has one arrangement), and its
complete decompositions."""


def _block_groups(block: int, key: int) -> tuple[int, tuple[_BlockGroups, ...]]:
    """The block's code (see `_GROUPS`) and each complete decomposition of the block as
    concealed groups: its sets in tile order and its pair, if the block's size asks for one.
    No decomposition when the size is 1 mod 3 or the block does not decompose."""
    first = BLOCKS[block][0]
    if block == 3:
        return remember(_GROUPS[3], key, _honors_groups(first, key))
    if not key:
        return remember(_GROUPS[block], key, (0, (((), None),)))
    shift = low_shift(key)
    moved = key >> shift
    code, layouts = _SHAPES.get(moved) or _block_shape(moved)
    tile = first + shift // 3
    base = 2 * tile
    found = tuple(
        [
            (
                tuple([_SET_AT[base + set_code] for set_code in codes]),
                CONCEALED_PAIR[tile + pair] if pair >= 0 else None,
            )
            for codes, pair in layouts
        ]
    )
    return remember(_GROUPS[block], key, (code, found))


_SHAPES: dict[int, tuple[int, tuple[_Layout, ...]]] = {}
"""By numbered key moved down to offset 0, whichever suit: its code (see `_GROUPS`) and its
complete decompositions."""


def _block_shape(key: int) -> tuple[int, tuple[_Layout, ...]]:
    """A numbered key's code and decompositions (`_SHAPES`), read run by run (see `blocks`):
    its decompositions are those of its runs side by side, with one pair at most among them."""
    remainder = size(key) % 3
    want_pair = int(remainder == 2)
    none = (want_pair + 2, ())
    if remainder == 1:
        return remember(_SHAPES, key, none)
    per_run: list[tuple[int, tuple[_Layout, ...]]] = []
    pairs = 0
    several = False
    occupied = (key | key >> 1 | key >> 2) & LOW
    while occupied:
        low = occupied & -occupied
        above = LOW & ~occupied & -low
        end = above & -above
        shift = low.bit_length() - 1
        run = (key & (end - low)) >> shift
        layouts = _RUN_LAYOUTS.get(run) or _run_layouts(run)
        if not layouts:
            return remember(_SHAPES, key, none)
        pairs += layouts[0][1] >= 0
        several = several or len(layouts) > 1
        per_run.append((shift // 3, layouts))
        occupied &= -end
    if pairs > 1:
        return remember(_SHAPES, key, none)
    if several:
        return remember(_SHAPES, key, (want_pair + 2, _combined(per_run)))
    sets: list[int] = []
    pair = -1
    for start, ((codes, pair_offset),) in per_run:
        sets += [2 * start + code for code in codes]
        if pair_offset >= 0:
            pair = start + pair_offset
    return remember(_SHAPES, key, (want_pair, ((tuple(sets), pair),)))


def _combined(per_run: list[tuple[int, tuple[_Layout, ...]]]) -> tuple[_Layout, ...]:
    """The decompositions of runs (by first offset) side by side, in the order of their sorted
    (kind, offset) pairs, kind 0 chow, 1 pung, 2 pair, as the key's own would be."""
    found: list[tuple[list[tuple[int, int]], _Layout]] = []
    for combination in product(*[layouts for _, layouts in per_run]):
        order: list[tuple[int, int]] = []
        sets: list[int] = []
        pair = -1
        for (start, _), (codes, pair_offset) in zip(per_run, combination, strict=True):
            sets += [2 * start + code for code in codes]
            order += [(_PUNG - (code & 1), start + (code >> 1)) for code in codes]
            if pair_offset >= 0:
                pair = start + pair_offset
                order.append((_PAIR, pair))
        found.append((sorted(order), (tuple(sets), pair)))
    found.sort(key=lambda item: item[0])
    return tuple([layout for _, layout in found])


def _honors_groups(first: int, key: int) -> tuple[int, tuple[_BlockGroups, ...]]:
    """An honors block's code and decomposition: no chows, so every kind is a pung (held three
    times) or the pair (twice), read off the count bits; it decomposes in one way or none."""
    remainder = size(key) % 3
    want_pair = int(remainder == 2)
    if remainder == 1:
        return want_pair + 2, ()
    twice = (key >> 1) & LOW & ~key
    if key & FOUR or key & LOW & ~(key >> 1) or twice.bit_count() != want_pair:
        return want_pair + 2, ()
    thrice = key & (key >> 1) & LOW
    pungs: list[Group] = []
    while thrice:
        low = thrice & -thrice
        pungs.append(CONCEALED_PUNG[first + (low.bit_length() - 1) // 3])
        thrice ^= low
    pair = CONCEALED_PAIR[first + (twice.bit_length() - 1) // 3] if twice else None
    return want_pair, ((tuple(pungs), pair),)


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
    if structure.thirteen_orphans and is_thirteen_orphans(counts):
        return True
    if structure.seven_pairs and is_seven_pairs(counts):
        return True
    return structure.seven_pairs_triplet and is_seven_pairs_triplet(counts)


def _standard_complete(keys: Sequence[int]) -> bool:
    pairs = 0
    for block, key in enumerate(keys):
        state = block_state(key, block == 3)
        if state < 0:
            return False
        pairs += state
    return pairs == 1


def arrangements(
    hand: Hand, structure: Structure, keys: Sequence[int] | None = None
) -> list[tuple[Shape, tuple[Group, ...]]]:
    """Every way to read the hand's tiles, before the winning tile is placed (`keys`: the
    concealed tiles' `block_keys`, when the caller has them).

    Concealed groups are marked concealed; the winning tile's group is adjusted per reading.
    """
    if keys is None:
        keys = block_keys(hand.concealed)
    melds = hand.melds
    declared = tuple([declared_group(meld.kind, meld.first) for meld in melds]) if melds else ()
    found: list[tuple[Shape, tuple[Group, ...]]] = []
    block_options: list[tuple[_BlockGroups, ...]] = []
    pair_blocks = 0
    several = False
    for memo, key, block in zip(_GROUPS, keys, range(4), strict=True):
        entry = memo.get(key)
        if entry is None:
            entry = _block_groups(block, key)
        code, options = entry
        with_pair = code & 1
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
    if not melds and _maybe_special(structure, keys):
        found += _special_arrangements(hand, structure)
    return found


def _special_arrangements(
    hand: Hand, structure: Structure
) -> list[tuple[Shape, tuple[Group, ...]]]:
    found: list[tuple[Shape, tuple[Group, ...]]] = []
    counts = hand.concealed_counts()
    if structure.thirteen_orphans and is_thirteen_orphans(counts):
        groups = tuple(
            [
                Group(GroupKind.PAIR if counts[tile] == 2 else GroupKind.SINGLE, tile, True)
                for tile in TERMINALS_AND_HONORS
            ]
        )
        found.append((Shape.THIRTEEN_ORPHANS, groups))
    if structure.seven_pairs_triplet and is_seven_pairs_triplet(counts):
        triplet = [CONCEALED_PUNG[kind] for kind in range(KINDS) if counts[kind] == 3]
        pairs = [CONCEALED_PAIR[kind] for kind in range(KINDS) if counts[kind] == 2]
        found.append((Shape.SEVEN_PAIRS_TRIPLET, (*triplet, *pairs)))
    if structure.seven_pairs and is_seven_pairs(counts):
        pairs = [CONCEALED_PAIR[kind] for kind in range(KINDS) if counts[kind] == 2]
        found.append((Shape.SEVEN_PAIRS, tuple(pairs)))
    return found


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
    if keys is None:
        keys = block_keys(hand.concealed)
    key0, key1, key2, key3 = keys
    memo0, memo1, memo2, memo3 = _GROUPS
    code0, options0 = memo0.get(key0) or _block_groups(0, key0)
    code1, options1 = memo1.get(key1) or _block_groups(1, key1)
    code2, options2 = memo2.get(key2) or _block_groups(2, key2)
    code3, options3 = memo3.get(key3) or _block_groups(3, key3)
    if code0 + code1 + code2 + code3 == 1 and (hand.melds or not _maybe_special(structure, keys)):
        # The usual case: one arrangement, and the winning tile in one block of it.
        return _single_readings(
            hand, winning_tile, (options0[0], options1[0], options2[0], options3[0]), discard
        )
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
                exposed = EXPOSED[kind][tile]
                placed = (*groups[:index], exposed, *groups[index + 1 :])
            found.append(Reading(shape, placed, index, win_role(group, winning_tile)))
    return found


def _maybe_special(structure: Structure, keys: Sequence[int]) -> bool:
    """Whether the concealed tiles may be a special shape (a cheap test on the keys)."""
    return bool(
        ((structure.seven_pairs_triplet or structure.seven_pairs) and pairs_like(keys, 1))
        or (structure.thirteen_orphans and not (keys[0] | keys[1] | keys[2]) & SIMPLES)
    )


def _single_readings(
    hand: Hand,
    winning_tile: Tile,
    blocks: tuple[_BlockGroups, _BlockGroups, _BlockGroups, _BlockGroups],
    discard: bool,
) -> list[Reading]:
    """The readings of the one arrangement of the blocks' only decompositions: the same as the
    general loop, but only the winning tile's block is searched for its group."""
    melds = hand.melds
    declared = tuple([declared_group(meld.kind, meld.first) for meld in melds]) if melds else ()
    (sets0, pair0), (sets1, pair1), (sets2, pair2), (sets3, pair3) = blocks
    pair = pair0 or pair1 or pair2 or pair3
    assert pair is not None
    arranged = (*declared, *sets0, *sets1, *sets2, *sets3, pair)
    winning_block = BLOCK_OF[winning_tile]
    start = len(declared)
    if winning_block:
        start += len(sets0)
        if winning_block > 1:
            start += len(sets1)
            if winning_block > 2:
                start += len(sets2)
    found: list[Reading] = []
    chow = GroupKind.CHOW
    previous = None
    for index, group in enumerate(blocks[winning_block][0], start):
        # Groups are shared objects (`CONCEALED_*`), so a repeated set is the one before it.
        if group is previous:
            continue
        tile = group.tile
        if group.kind is chow:
            if not tile <= winning_tile <= tile + 2:
                continue
            role = CHOW_ROLES[tile][winning_tile - tile]
        elif tile == winning_tile:
            role = WinRole.PUNG
        else:
            continue
        previous = group
        found.append(_reading(arranged, index, group, role, discard))
    if pair.tile == winning_tile:
        found.append(_reading(arranged, len(arranged) - 1, pair, WinRole.PAIR, discard))
    return found


def _reading(
    groups: tuple[Group, ...], index: int, group: Group, role: WinRole, discard: bool
) -> Reading:
    if discard:
        groups = (*groups[:index], EXPOSED[group.kind][group.tile], *groups[index + 1 :])
    return Reading(Shape.STANDARD, groups, index, role)


def clear_memos() -> None:
    """Forget every memoised block decomposition (for benchmarks that time a cold start)."""
    _DECOMPOSITIONS.clear()
    _RUN_LAYOUTS.clear()
    _SHAPES.clear()
    for groups in _GROUPS:
        groups.clear()

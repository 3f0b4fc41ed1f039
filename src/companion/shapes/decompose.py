"""A block's complete decompositions into sets and a pair, as ready-made concealed groups.

`GROUPS` holds them per block by key, with a code that tells at a glance whether the hand has
one arrangement. A miss goes to a table by the key moved down to offset 0 (shared by the three
suits), and a miss there reads the key run by run (see `blocks`): runs repeat far more often
than whole keys, so a fresh suit pattern is mostly put together from runs already known. Honors
have no chows and are read off their count bits.
"""

from __future__ import annotations

from itertools import product

from companion.shapes.blocks import BLOCKS, FOUR, LOW, remember, size
from companion.shapes.groups import (
    CONCEALED_CHOW,
    CONCEALED_PAIR,
    CONCEALED_PUNG,
    TILES,
    Group,
    summary,
)

_Layout = tuple[tuple[int, ...], int]
"""A complete decomposition of a run: its sets as `2 * offset + is a chow`, ascending (a pung
before a chow of the same tile), and its pair's offset (-1 for none)."""
_RUN_LAYOUTS: dict[int, tuple[_Layout, ...]] = {}
"""By numbered run moved down to offset 0, whichever suit: `_run_layouts`."""
_CHOW, _PUNG, _PAIR = 0, 1, 2
"""A decomposition's order is that of its sorted (kind, offset) pairs, kinds ranked so."""


def _run_layouts(run: int) -> tuple[_Layout, ...]:
    """Every complete decomposition of a numbered run moved down to offset 0, with the pair when
    its size asks for one, in the order of their sorted (kind, offset) pairs."""
    remainder = size(run) % 3
    found: list[tuple[list[tuple[int, int]], _Layout]] = []
    if remainder != 1:
        _fill(run, 0, remainder == 2, [], [], -1, found)
    if len(found) > 1:
        found.sort(key=lambda item: item[0])
    return remember(_RUN_LAYOUTS, run, tuple([layout for _, layout in found]))


def _fill(
    key: int,
    offset: int,
    pair_wanted: bool,
    chows: list[int],
    pungs: list[int],
    pair: int,
    found: list[tuple[list[tuple[int, int]], _Layout]],
) -> None:
    """Add to `found` every decomposition of what is left of a key, from `offset` up, after the
    chows, pungs and pair chosen below it. Every tile of the lowest kind left starts a group:
    `chows` chows (as many as the next two kinds allow), and what remains is nothing, the pair
    or a pung. Each choice is a different set of groups, so none is found twice."""
    while key:
        shift = 3 * offset
        count = (key >> shift) & 7
        if not count:
            offset += 1
            continue
        if count == 1 or (count == 2 and not pair_wanted):
            # The usual case: the kind's tiles can only start chows.
            if (key >> shift + 3) & 7 < count or (key >> shift + 6) & 7 < count:
                return
            chows = [*chows, *[offset] * count]
            key -= (count << shift) + (count << shift + 3) + (count << shift + 6)
            offset += 1
            continue
        rest = key - (count << shift)
        most = min(count, (rest >> shift + 3) & 7, (rest >> shift + 6) & 7)
        for chow_count in range(most + 1):
            left = count - chow_count
            if left == 1 or (left == 2 and not pair_wanted) or left > 3:
                continue
            after = rest - (chow_count << shift + 3) - (chow_count << shift + 6)
            more = [*chows, *[offset] * chow_count]
            if left == 3:
                _fill(after, offset + 1, pair_wanted, more, [*pungs, offset], pair, found)
            elif left == 2:
                _fill(after, offset + 1, False, more, pungs, offset, found)
            else:
                _fill(after, offset + 1, pair_wanted, more, pungs, pair, found)
        return
    order = [(_CHOW, start) for start in chows] + [(_PUNG, start) for start in pungs]
    if pair >= 0:
        order.append((_PAIR, pair))
    sets = sorted([2 * start + 1 for start in chows] + [2 * start for start in pungs])
    found.append((order, (tuple(sets), pair)))


_SET_AT = tuple(group for tile in TILES for group in (CONCEALED_PUNG[tile], CONCEALED_CHOW[tile]))
"""By `2 * lowest tile + is a chow`: the concealed pung or chow there (`_Layout`'s sets)."""

BlockGroups = tuple[tuple[Group, ...], Group | None, int]
"""A block's decomposition: its sets in tile order, its pair (None when it has none) and the
sets' `summary`."""
BlockEntry = tuple[int, tuple[Group, ...], Group | None, tuple[BlockGroups, ...], int]
"""A block's code, then its one decomposition's sets and pair when it has exactly one (else
empty, and None), then its decompositions when it has none or several (else empty), then the
one decomposition's `summary` (else 0). The one decomposition is kept flat because it is what
nearly every hand reads: an entry is then two objects the garbage collector tracks, not four."""
GROUPS: tuple[dict[int, BlockEntry], ...] = ({}, {}, {}, {})
"""Per block, by key: its `BlockEntry`. The code is 1 when the block holds the pair, plus 2
unless it decomposes in exactly one way, so that four codes sum to 1 just when a hand has one
arrangement."""
_NONE: tuple[BlockGroups, ...] = ()


def block_groups(block: int, key: int) -> BlockEntry:
    """The block's `BlockEntry`, memoised in `GROUPS` (look there first). No decomposition
    when the size is 1 mod 3 or the block does not decompose."""
    first = BLOCKS[block][0]
    if block == 3:
        return remember(GROUPS[3], key, _honors_groups(first, key))
    if not key:
        return remember(GROUPS[block], key, (0, (), None, _NONE, 0))
    shift = ((key & -key).bit_length() - 1) // 3 * 3
    moved = key >> shift
    code, layouts = _SHAPES.get(moved) or _block_shape(moved)
    tile = first + shift // 3
    base = 2 * tile
    if code < 2:
        ((codes, pair),) = layouts
        sets = tuple([_SET_AT[base + set_code] for set_code in codes])
        entry = (
            code,
            sets,
            CONCEALED_PAIR[tile + pair] if pair >= 0 else None,
            _NONE,
            _SUMMARIES.get(codes) or _numbered_summary(codes, sets),
        )
        return remember(GROUPS[block], key, entry)
    found = []
    for codes, pair in layouts:
        sets = tuple([_SET_AT[base + set_code] for set_code in codes])
        pair_group = CONCEALED_PAIR[tile + pair] if pair >= 0 else None
        found.append((sets, pair_group, _SUMMARIES.get(codes) or _numbered_summary(codes, sets)))
    return remember(GROUPS[block], key, (code, (), None, tuple(found), 0))


def _numbered_summary(codes: tuple[int, ...], sets: tuple[Group, ...]) -> int:
    """The `summary` of a numbered block's concealed sets (`codes`, as `_Layout` has them),
    remembered in `_SUMMARIES` by the codes' own tuple, which the shapes' tables share between
    every block and suit that reads alike (look there first): in a numbered suit the summary
    depends on the number of chows and pungs only."""
    return remember(_SUMMARIES, codes, summary(sets))


_SUMMARIES: dict[tuple[int, ...], int] = {}


_SHAPES: dict[int, tuple[int, tuple[_Layout, ...]]] = {}
"""By numbered key moved down to offset 0, whichever suit: its code (see `GROUPS`) and its
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
        layouts = _RUN_LAYOUTS.get(run)
        if layouts is None:
            layouts = _run_layouts(run)
        if not layouts:
            return remember(_SHAPES, key, none)
        if run == key:
            # One run, at offset 0: its decompositions are the key's.
            return remember(_SHAPES, key, (want_pair + 2 * (len(layouts) > 1), layouts))
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


def _honors_groups(first: int, key: int) -> BlockEntry:
    """An honors block's entry: no chows, so every kind is a pung (held three times) or the
    pair (twice), read off the count bits; it decomposes in one way or none."""
    remainder = size(key) % 3
    want_pair = int(remainder == 2)
    twice = (key >> 1) & LOW & ~key
    if remainder == 1 or key & FOUR or key & LOW & ~(key >> 1) or twice.bit_count() != want_pair:
        return want_pair + 2, (), None, _NONE, 0
    thrice = key & (key >> 1) & LOW
    pungs: list[Group] = []
    while thrice:
        low = thrice & -thrice
        pungs.append(CONCEALED_PUNG[first + (low.bit_length() - 1) // 3])
        thrice ^= low
    pair = CONCEALED_PAIR[first + (twice.bit_length() - 1) // 3] if twice else None
    return want_pair, tuple(pungs), pair, _NONE, summary(pungs)


def clear_memos() -> None:
    """Forget every memoised decomposition (for benchmarks that time a cold start)."""
    _RUN_LAYOUTS.clear()
    _SHAPES.clear()
    _SUMMARIES.clear()
    for groups in GROUPS:
        groups.clear()

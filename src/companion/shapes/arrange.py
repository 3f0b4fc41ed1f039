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
from companion.shapes.blocks import BLOCK_OF, FOUR, LOW, SIMPLES, block_keys, block_state
from companion.shapes.decompose import GROUPS, BlockGroups, block_groups
from companion.shapes.groups import (
    CHOW_ROLES,
    CONCEALED_PAIR,
    CONCEALED_PUNG,
    CONCEALED_PUNGS,
    CONCEALED_SINGLE,
    EXPOSED,
    Group,
    GroupKind,
    Reading,
    Shape,
    Structure,
    WinRole,
    declared_group,
    summary,
    win_role,
)
from companion.shapes.special import (
    is_seven_pairs,
    is_seven_pairs_triplet,
    is_thirteen_orphans,
    pairs_like,
)
from companion.tiles import KINDS, TERMINALS_AND_HONORS, Tile


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
    block_options: list[tuple[BlockGroups, ...]] = []
    pair_blocks = 0
    for block, key in enumerate(keys):
        code, sets, pair, options, counts = GROUPS[block].get(key) or block_groups(block, key)
        block_options.append(options if code & 2 else ((sets, pair, counts),))
        pair_blocks += code & 1
    if all(block_options) and pair_blocks == 1:
        for combination in product(*block_options):
            sets = tuple(group for block_sets, _, _ in combination for group in block_sets)
            (pair,) = (block_pair for _, block_pair, _ in combination if block_pair is not None)
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
                CONCEALED_PAIR[tile] if counts[tile] == 2 else CONCEALED_SINGLE[tile]
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
    return [
        Reading(shape, groups, index, role)
        for shape, groups, index, role, _ in candidates(hand, structure, discard=discard, keys=keys)
    ]


Candidate = tuple[Shape, tuple[Group, ...], int, WinRole, int]
"""A reading not yet made a `Reading`: its shape, groups, the winning tile's index and role,
and its sets' `summary` (-1 for a special shape, whose groups are walked instead). The scorer
makes a `Reading` of the one it keeps only."""


def candidates(
    hand: Hand, structure: Structure, *, discard: bool, keys: Sequence[int] | None = None
) -> list[Candidate]:
    """`readings`, each as a `Candidate`, in the same order."""
    winning_tile = hand.winning_tile
    if winning_tile is None:
        raise ValueError("readings need a complete hand with a winning tile")
    if keys is None:
        keys = block_keys(hand.concealed)
    key0, key1, key2, key3 = keys
    memo0, memo1, memo2, memo3 = GROUPS
    code0, sets0, pair0, options0, counts0 = memo0.get(key0) or block_groups(0, key0)
    code1, sets1, pair1, options1, counts1 = memo1.get(key1) or block_groups(1, key1)
    code2, sets2, pair2, options2, counts2 = memo2.get(key2) or block_groups(2, key2)
    code3, sets3, pair3, options3, counts3 = memo3.get(key3) or block_groups(3, key3)
    melds = hand.melds
    if melds:
        declared = tuple([declared_group(meld.kind, meld.first) for meld in melds])
        declared_counts = summary(declared)
        special = False
    else:
        declared = ()
        declared_counts = 0
        special = bool(
            (structure.thirteen_orphans and not (key0 | key1 | key2) & SIMPLES)
            or (
                (structure.seven_pairs_triplet or structure.seven_pairs)
                and not (key0 | key1 | key2 | key3) & FOUR
                and (key0 & LOW).bit_count()
                + (key1 & LOW).bit_count()
                + (key2 & LOW).bit_count()
                + (key3 & LOW).bit_count()
                <= 1
            )
        )
    if code0 + code1 + code2 + code3 == 1 and not special:
        # The usual case: one arrangement.
        pair = pair0 or pair1 or pair2 or pair3
        assert pair is not None
        counts = declared_counts + counts0 + counts1 + counts2 + counts3
        return _standard_candidates(
            declared, sets0, sets1, sets2, sets3, pair, counts, winning_tile, discard
        )
    found: list[Candidate] = []
    pairs = (code0 & 1) + (code1 & 1) + (code2 & 1) + (code3 & 1)
    # A block's decompositions, its one kept flat in its entry (see `BlockEntry`).
    blocks0 = options0 if code0 & 2 else ((sets0, pair0, counts0),)
    blocks1 = options1 if code1 & 2 else ((sets1, pair1, counts1),)
    blocks2 = options2 if code2 & 2 else ((sets2, pair2, counts2),)
    blocks3 = options3 if code3 & 2 else ((sets3, pair3, counts3),)
    if blocks0 and blocks1 and blocks2 and blocks3 and pairs == 1:
        # Every block decomposes, one of them with the pair: each combination of their
        # decompositions is an arrangement, in the order of `arrangements`.
        for (
            (sets0, pair0, counts0),
            (sets1, pair1, counts1),
            (sets2, pair2, counts2),
            (sets3, pair3, counts3),
        ) in product(blocks0, blocks1, blocks2, blocks3):
            pair = pair0 or pair1 or pair2 or pair3
            assert pair is not None
            counts = declared_counts + counts0 + counts1 + counts2 + counts3
            found += _standard_candidates(
                declared, sets0, sets1, sets2, sets3, pair, counts, winning_tile, discard
            )

    if special:
        for shape, groups in _special_arrangements(hand, structure):
            seen: set[GroupKind] = set()
            for index, group in enumerate(groups):
                kind, tile = group.kind, group.tile
                if tile != winning_tile or kind in seen:
                    continue
                seen.add(kind)
                placed = groups
                if discard:
                    exposed = EXPOSED[kind][tile]
                    placed = (*groups[:index], exposed, *groups[index + 1 :])
                found.append((shape, placed, index, win_role(group, winning_tile), -1))
    return found


def _maybe_special(structure: Structure, keys: Sequence[int]) -> bool:
    """Whether the concealed tiles may be a special shape (a cheap test on the keys)."""
    return bool(
        ((structure.seven_pairs_triplet or structure.seven_pairs) and pairs_like(keys, 1))
        or (structure.thirteen_orphans and not (keys[0] | keys[1] | keys[2]) & SIMPLES)
    )


def _standard_candidates(
    declared: tuple[Group, ...],
    sets0: tuple[Group, ...],
    sets1: tuple[Group, ...],
    sets2: tuple[Group, ...],
    sets3: tuple[Group, ...],
    pair: Group,
    counts: int,
    winning_tile: Tile,
    discard: bool,
) -> list[Candidate]:
    """The readings of one standard arrangement, the blocks' sets side by side and the pair:
    only the winning tile's block can hold its group (declared groups are never the winning
    tile's), or the pair, last. `counts`: the arrangement's `summary`."""
    arranged = (*declared, *sets0, *sets1, *sets2, *sets3, pair)
    block = BLOCK_OF[winning_tile]
    start = len(declared)
    if block == 0:
        own = sets0
    elif block == 1:
        own, start = sets1, start + len(sets0)
    elif block == 2:
        own, start = sets2, start + len(sets0) + len(sets1)
    else:
        own, start = sets3, start + len(sets0) + len(sets1) + len(sets2)
    found: list[Candidate] = []
    previous = None
    for index, group in enumerate(own, start):
        # Groups are shared objects (`CONCEALED_*`), so a repeated set is the one before it.
        if group is previous:
            continue
        tile = group.tile
        if group.kind is _CHOW_KIND:
            if not tile <= winning_tile <= tile + 2:
                continue
            role = CHOW_ROLES[tile][winning_tile - tile]
        elif tile == winning_tile:
            role = _PUNG_ROLE
        else:
            continue
        previous = group
        if discard:
            if group.kind is _CHOW_KIND:
                exposed, placed_counts = _EXPOSED_CHOW[tile], counts
            else:
                # A pung completed by a discard is not concealed.
                exposed, placed_counts = _EXPOSED_PUNG[tile], counts - CONCEALED_PUNGS
            placed = (*arranged[:index], exposed, *arranged[index + 1 :])
            found.append((_STANDARD, placed, index, role, placed_counts))
        else:
            found.append((_STANDARD, arranged, index, role, counts))
    pair = arranged[-1]
    if pair.tile == winning_tile:
        index = len(arranged) - 1
        if discard:
            arranged = (*arranged[:index], _EXPOSED_PAIR[winning_tile])
        found.append((_STANDARD, arranged, index, _PAIR_ROLE, counts))
    return found


_CHOW_KIND = GroupKind.CHOW
_STANDARD = Shape.STANDARD
_PUNG_ROLE, _PAIR_ROLE = WinRole.PUNG, WinRole.PAIR
_EXPOSED_CHOW, _EXPOSED_PUNG, _EXPOSED_PAIR = (
    EXPOSED[GroupKind.CHOW],
    EXPOSED[GroupKind.PUNG],
    EXPOSED[GroupKind.PAIR],
)

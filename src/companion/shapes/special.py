"""The shapes that are not sets and a pair: Thirteen Orphans, seven pairs, and seven pairs and
a triplet, read off a hand's counts by kind.

They are rare, so the readings and waits only come here when a cheap test on the block keys
(`pairs_like`, no simples) says the hand might be one.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.shapes.blocks import FOUR, LOW
from companion.shapes.groups import Structure
from companion.tiles import KINDS, TERMINALS_AND_HONORS

ORPHAN_KINDS = frozenset(TERMINALS_AND_HONORS)


def is_thirteen_orphans(counts: Sequence[int]) -> bool:
    # Every orphan held, and the fourteen tiles all orphans.
    orphans = [counts[tile] for tile in TERMINALS_AND_HONORS]
    return 0 not in orphans and sum(orphans) == 14 == sum(counts)


def is_seven_pairs_triplet(counts: Sequence[int]) -> bool:
    held = sorted(count for count in counts if count)
    return held == [2] * 7 + [3]


def is_seven_pairs(counts: Sequence[int]) -> bool:
    held = [count for count in counts if count]
    return len(held) == 7 and all(count == 2 for count in held)


_ODD = LOW & ((1 << 27) - 1)
"""The low bit of every kind's count in a block: set where it is held once or three times."""


def pairs_like(keys: Sequence[int], odd: int) -> bool:
    """Whether the tiles may be seven pairs (and a triplet): no kind held four times, and at
    most `odd` kinds held once or three times."""
    odd_kinds = 0
    for key in keys:
        if key & FOUR:
            return False
        odd_kinds += (key & _ODD).bit_count()
    return odd_kinds <= odd


def special_waits(structure: Structure, counts: list[int], held: list[int]) -> set[int]:
    """Waits of Thirteen Orphans, seven pairs, and seven pairs and a triplet, read off the
    counts (`held`: counting declared groups, for the four-of-a-kind limit)."""
    found: set[int] = set()
    kinds = [kind for kind in range(KINDS) if counts[kind]]
    if structure.thirteen_orphans and sum(counts) == 13 and set(kinds) <= ORPHAN_KINDS:
        if len(kinds) == 13:
            found.update(TERMINALS_AND_HONORS)
        elif len(kinds) == 12 and max(counts) == 2:
            found.update(ORPHAN_KINDS - set(kinds))
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

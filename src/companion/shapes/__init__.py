"""Every reading of a hand into sets and a pair, and the waits of a hand one tile short.

The work is done per suit: a suit's tiles are one integer key, and what a hand needs of a suit
(its decompositions as groups, whether it decomposes, the tiles that would let it) is memoised
by that key, so that in a long-running process most hands cost a few dict lookups. The modules:
`groups` (the values: groups, readings, shapes), `blocks` (the per-suit tables), `decompose`
(a block's decompositions as groups), `special` (Thirteen Orphans and seven pairs), `arrange`
(readings) and `wait` (waits).
"""

from __future__ import annotations

from companion.shapes import blocks, decompose
from companion.shapes.arrange import arrangements, is_complete, readings
from companion.shapes.blocks import block_keys
from companion.shapes.groups import (
    FIVE_SETS,
    FOUR_SETS,
    Group,
    GroupKind,
    Reading,
    Shape,
    Structure,
    WinRole,
    declared_group,
    win_role,
)
from companion.shapes.wait import waits, waits_before, waits_of_keys


def clear_memos() -> None:
    """Forget every memoised suit block (for benchmarks that time a cold start)."""
    blocks.clear_memos()
    decompose.clear_memos()


__all__ = [
    "FIVE_SETS",
    "FOUR_SETS",
    "Group",
    "GroupKind",
    "Reading",
    "Shape",
    "Structure",
    "WinRole",
    "arrangements",
    "block_keys",
    "clear_memos",
    "declared_group",
    "is_complete",
    "readings",
    "waits",
    "waits_before",
    "waits_of_keys",
    "win_role",
]

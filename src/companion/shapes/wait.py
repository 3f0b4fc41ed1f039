"""The waits of a hand one tile short: the kinds that would complete it.

One more tile changes one block only, so the waits are read off each block's `WaitEntry` (its
state and the tiles that would let it decompose, memoised by block key): every other block must
decompose already, with exactly one pair in all. In the steady state that is four dict lookups;
the hand is never copied, nor a tile tried.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.hand import Hand, Meld
from companion.shapes.blocks import (
    BLOCK_OF,
    BLOCKS,
    SIMPLES,
    UNIT,
    WAIT_ENTRIES,
    block_keys,
    counts_of,
    keys_with_melds,
    wait_entry,
)
from companion.shapes.groups import TILES, Structure
from companion.shapes.special import pairs_like, special_waits
from companion.tiles import Tile


def waits(hand: Hand, structure: Structure) -> tuple[Tile, ...]:
    """The tile kinds that would complete a hand one tile short, in tile order.

    A kind already held four times (counting declared groups) is not a wait.
    """
    if hand.winning_tile is not None:
        raise ValueError("waits are asked of a hand one tile short")
    return waits_of_keys(block_keys(hand.concealed), hand.melds, structure)


def waits_before(hand: Hand, structure: Structure, keys: Sequence[int]) -> tuple[Tile, ...]:
    """The waits of a complete hand before its winning tile arrived (`keys`: the complete
    hand's concealed `block_keys`), read without copying the hand."""
    winning = hand.winning_tile
    if winning is None:
        raise ValueError("waits_before needs a complete hand")
    waiting = list(keys)
    waiting[BLOCK_OF[winning]] -= UNIT[winning]
    return waits_of_keys(waiting, hand.melds, structure)


def waits_of_keys(
    keys: Sequence[int], melds: Sequence[Meld], structure: Structure
) -> tuple[Tile, ...]:
    """The waits of concealed tiles one short of complete, given as their `block_keys`, beside
    declared `melds`."""
    # Unrolled over the four blocks: this is the whole cost of a hand once the memos are warm.
    key0, key1, key2, key3 = keys
    memo0, memo1, memo2, memo3 = WAIT_ENTRIES
    state0, pair0, tiles0 = memo0.get(key0) or wait_entry(0, key0)
    state1, pair1, tiles1 = memo1.get(key1) or wait_entry(1, key1)
    state2, pair2, tiles2 = memo2.get(key2) or wait_entry(2, key2)
    state3, pair3, tiles3 = memo3.get(key3) or wait_entry(3, key3)
    found: tuple[Tile, ...] = ()
    if state0 >= 0 and state1 >= 0 and state2 >= 0 and state3 >= 0:
        # Every block decomposes: the tile goes to a block whose size then calls for the pair
        # exactly when no other block holds it.
        pairs = state0 + state1 + state2 + state3
        if tiles0 and pairs - state0 + pair0 == 1:
            found = tiles0
        if tiles1 and pairs - state1 + pair1 == 1:
            found += tiles1
        if tiles2 and pairs - state2 + pair2 == 1:
            found += tiles2
        if tiles3 and pairs - state3 + pair3 == 1:
            found += tiles3
    elif (state0 < 0) + (state1 < 0) + (state2 < 0) + (state3 < 0) == 1:
        # One block broken: the tile must mend it, with one pair in all.
        pairs = (state0 > 0) + (state1 > 0) + (state2 > 0) + (state3 > 0)
        if state0 < 0:
            found = tiles0 if pairs + pair0 == 1 else ()
        elif state1 < 0:
            found = tiles1 if pairs + pair1 == 1 else ()
        elif state2 < 0:
            found = tiles2 if pairs + pair2 == 1 else ()
        else:
            found = tiles3 if pairs + pair3 == 1 else ()
    if melds:
        return _unheld(found, keys, melds) if found else found
    if ((structure.seven_pairs_triplet or structure.seven_pairs) and pairs_like(keys, 2)) or (
        structure.thirteen_orphans and not (key0 | key1 | key2) & SIMPLES
    ):
        counts = [
            count for block, key in enumerate(keys) for count in counts_of(key, BLOCKS[block][1])
        ]
        extra = special_waits(structure, counts, counts)
        if extra:
            found = tuple([TILES[kind] for kind in sorted(extra.union(found))])
    return found


def _unheld(
    found: tuple[Tile, ...], keys: Sequence[int], melds: Sequence[Meld]
) -> tuple[Tile, ...]:
    """The waits of which fewer than four are held, counting the declared groups."""
    held = keys_with_melds(keys, melds)
    return tuple([tile for tile in found if (held[BLOCK_OF[tile]] // UNIT[tile]) & 7 < 4])

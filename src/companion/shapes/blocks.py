"""Per-suit tables: a block's tiles as one integer key, and what is memoised by that key.

A block is one suit (characters, circles, bamboo) or the honors. Its key holds three bits a
kind: adding a tile of offset `o` adds `1 << 3 * o`. A numbered block falls apart into runs,
kinds held side by side with an empty kind (or the block's end) either side; no chow crosses an
empty kind, so a block decomposes exactly when each run does, with one pair at most among them.
The run tables are keyed by the run moved down to offset 0, so 234m, 678p and the 234 of 234m 67m
share one entry, and far fewer keys ever miss than whole blocks.

Every memo is process-wide and bounded: one that reaches `MEMO_LIMIT` entries is emptied before
the next is added (`remember`), so a long-running server never holds more than that per table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeVar

from companion.shapes.groups import TILES
from companion.tiles import KINDS, Tile

if TYPE_CHECKING:
    from companion.hand import Meld

BLOCKS = ((0, 9, False), (9, 9, False), (18, 9, False), (27, 7, True))
"""(first kind, size, honors) of each block."""
BLOCK_OF = tuple(min(kind // 9, 3) for kind in range(KINDS))
UNIT = tuple(1 << 3 * (kind - BLOCKS[BLOCK_OF[kind]][0]) for kind in range(KINDS))
"""What a tile of each kind adds to its block's key."""
SIMPLES = sum(7 << 3 * offset for offset in range(1, 8))
"""The 2-8 of a numbered block: a hand with none of them may be Thirteen Orphans."""
LOW = sum(1 << 3 * offset for offset in range(13))
"""The low bit of every kind's count: set where a kind is held once or three times."""
FOUR = LOW << 2
"""The high bit of every kind's count: set where a kind is held four times."""

MEMO_LIMIT = 100_000
"""Entries at most in any one memo. The keys a table can see are finite (four of a kind at
most, 17 tiles at most), but far more than real play reaches; the limit keeps a server that is
fed adversarial hands from growing without end."""

K = TypeVar("K")
V = TypeVar("V")


def remember(memo: dict[K, V], key: K, value: V) -> V:
    """Store `value` in `memo` (emptied first when full) and return it."""
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    memo[key] = value
    return value


def block_keys(tiles: Sequence[Tile]) -> list[int]:
    """The four block keys (characters, circles, bamboo, honors) of some playing tiles."""
    keys = [0, 0, 0, 0]
    block_of, unit = BLOCK_OF, UNIT
    for tile in tiles:
        keys[block_of[tile]] += unit[tile]
    return keys


def keys_with_melds(keys: Sequence[int], melds: Sequence[Meld]) -> list[int]:
    """Block keys with the tiles of declared groups added (the hand's kinds as held)."""
    found = list(keys)
    for meld in melds:
        for tile in meld.tiles:
            found[BLOCK_OF[tile]] += UNIT[tile]
    return found


def counts_of(key: int, size: int) -> list[int]:
    """The count of each kind of a block key."""
    return [(key >> 3 * offset) & 7 for offset in range(size)]


def size(key: int) -> int:
    """The number of tiles in a block key."""
    chunks = _SIZE_OF[key & 0xFFF] + _SIZE_OF[(key >> 12) & 0xFFF]
    return chunks + _SIZE_OF[(key >> 24) & 0xFFF] + _SIZE_OF[key >> 36]


_SIZE_OF = tuple(sum((chunk >> shift) & 7 for shift in (0, 3, 6, 9)) for chunk in range(1 << 12))
"""The tiles in four kinds' worth (12 bits) of a block key."""


def low_shift(key: int) -> int:
    """The shift of the lowest kind held in a block key (not 0). Decomposing is the same
    wherever in the suit the tiles sit, so memos are keyed by the key shifted down by it."""
    return ((key & -key).bit_length() - 1) // 3 * 3


# --- Whether tiles decompose ------------------------------------------------------------------

_SETS_ONLY: dict[int, bool] = {}
"""By numbered key moved down to offset 0: whether its tiles are all chows and pungs."""


def sets_only(key: int) -> bool:
    """Whether a numbered key's tiles are all chows and pungs. At the lowest kind held, three
    chows use the same tiles as three pungs, so only `count % 3` chows start there; what is
    left is another key, memoised in turn."""
    if not key:
        return True
    base = key >> low_shift(key)
    found = _SETS_ONLY.get(base)
    if found is None:
        count = base & 7
        rest = base - count
        chows = count % 3
        if chows and ((rest >> 3) & 7 < chows or (rest >> 6) & 7 < chows):
            found = False
        else:
            found = sets_only(rest - (chows << 3) - (chows << 6))
        remember(_SETS_ONLY, base, found)
    return found


_TWICE = sum(2 << 3 * offset for offset in range(13))
"""The middle bit of every kind's count: set in `key | key >> 1` where a kind is held twice or
more."""


def sets_and_pair(key: int) -> bool:
    """Whether a numbered key is chows and pungs and one pair: a pair out of a kind held twice
    or more, the rest sets only."""
    pairs = (key | key >> 1) & _TWICE
    while pairs:
        low = pairs & -pairs
        if sets_only(key - (2 << (low.bit_length() - 2))):
            return True
        pairs ^= low
    return False


_RUN_STATES: dict[int, int] = {}
"""By run moved down to offset 0: its state (see `run_state`)."""


def run_state(run: int) -> int:
    """A numbered run's state, moved down to offset 0: 0 when it is all sets, 1 when it is sets
    and one pair, -1 when it does not decompose."""
    state = _RUN_STATES.get(run)
    if state is None:
        remainder = size(run) % 3
        if remainder == 1:
            state = -1
        elif remainder == 0:
            state = 0 if sets_only(run) else -1
        else:
            state = 1 if sets_and_pair(run) else -1
        remember(_RUN_STATES, run, state)
    return state


def runs(key: int) -> list[tuple[int, int]]:
    """(first offset, end offset) of each run of a numbered key, low to high."""
    found: list[tuple[int, int]] = []
    offset = 0
    while key:
        while not key & 7:
            key >>= 3
            offset += 1
        start = offset
        while key & 7:
            key >>= 3
            offset += 1
        found.append((start, offset))
    return found


def mirror(key: int, length: int) -> int:
    """A key read from its other end (`length` kinds long): 1-9 as 9-1. Chows read the same
    either way, so what completes a key mirrors what completes its mirror, and a miss can often
    be answered from the mirror's entry."""
    found = 0
    for _ in range(length):
        found = found << 3 | key & 7
        key >>= 3
    return found


def run_key(key: int, start: int, end: int) -> int:
    """The kinds `start` to `end` (not included) of a key, moved down to offset 0."""
    return (key >> 3 * start) & ((1 << 3 * (end - start)) - 1)


def honors_state(key: int) -> int:
    """An honors key's state as in `run_state`: no chows, so every kind held is a pung or the
    pair, read off the count bits at once."""
    once = key & LOW & ~(key >> 1)
    twice = (key >> 1) & LOW & ~key
    if once or key & FOUR:
        return -1
    pairs = twice.bit_count()
    return pairs if pairs <= 1 else -1


_STATES: tuple[dict[int, int], dict[int, int]] = ({0: 0}, {0: 0})
"""By block key (numbered blocks, then honors): its state as in `run_state`."""


def block_state(key: int, honors: bool) -> int:
    """A block key's state as in `run_state`, the pair counted over all its runs."""
    memo = _STATES[honors]
    state = memo.get(key)
    if state is None:
        if honors:
            state = honors_state(key)
        else:
            state = 0
            for start, end in runs(key):
                found = run_state(run_key(key, start, end))
                if found < 0 or state + found > 1:
                    state = -1
                    break
                state += found
        remember(memo, key, state)
    return state


# --- The tiles that complete a block ----------------------------------------------------------

_RUN_COMPLETIONS: dict[int, tuple[tuple[int, int], ...]] = {}
"""By numbered run moved down to offset 0: (offset, state) of each tile that lets it decompose,
from -1 (the kind below it) to its length (the kind above)."""


def run_completions(run: int) -> tuple[tuple[int, int], ...]:
    found = _RUN_COMPLETIONS.get(run)
    if found is None:
        length = (run.bit_length() + 2) // 3
        known = _RUN_COMPLETIONS.get(mirror(run, length))
        if known is not None:
            flipped = tuple([(length - 1 - offset, state) for offset, state in reversed(known)])
            return remember(_RUN_COMPLETIONS, run, flipped)
        moved = run << 3  # room for the kind below it
        completions: list[tuple[int, int]] = []
        for offset in range(-1, length + 1):
            if 0 <= offset < length and (run >> 3 * offset) & 7 == 4:
                continue
            grown = moved + (1 << 3 * (offset + 1))
            state = run_state(grown >> low_shift(grown))
            if state >= 0:
                completions.append((offset, state))
        found = remember(_RUN_COMPLETIONS, run, tuple(completions))
    return found


WaitEntry = tuple[int, int, tuple[Tile, ...]]
"""A block's state (as in `run_state`), 1 when one more tile makes its size call for the pair,
and the tiles, in order, that let it decompose with one more."""

WAIT_ENTRIES: tuple[dict[int, WaitEntry], ...] = ({}, {}, {}, {})
"""Per block, by key: its `WaitEntry`."""


def wait_entry(block: int, key: int) -> WaitEntry:
    """The block's `WaitEntry`, memoised in `WAIT_ENTRIES` (look there first)."""
    first, _, honors = BLOCKS[block]
    with_pair = int(size(key) % 3 == 1)
    if honors:
        offsets = _honors_completions(key)
        state = honors_state(key)
    else:
        shift = low_shift(key) if key else 0
        found = _SUIT_COMPLETIONS.get(key >> shift)
        if found is None:
            found = remember(_SUIT_COMPLETIONS, key >> shift, _suit_completions(key >> shift))
        moved, state = found
        low = shift // 3
        offsets = [low + offset for offset in moved if 0 <= low + offset <= 8]
    entry = (state, with_pair, tuple([TILES[first + offset] for offset in offsets]))
    return remember(WAIT_ENTRIES[block], key, entry)


def _honors_completions(key: int) -> list[int]:
    """An honors block decomposes with one more tile when it has one single (which becomes the
    pair) and no pair, or no single, a pair or two, and the tile makes a pair a pung."""
    if key & FOUR:
        return []
    once = key & LOW & ~(key >> 1)
    twice = (key >> 1) & LOW & ~key
    if once:
        return [] if once & (once - 1) or twice else [(once.bit_length() - 1) // 3]
    if not twice or twice.bit_count() > 2:
        return []
    return [offset for offset in range(7) if twice >> 3 * offset & 1]


_SUIT_COMPLETIONS: dict[int, tuple[tuple[int, ...], int]] = {}
"""By numbered key moved down to offset 0, whichever suit: `_numbered_completions`."""


def _suit_completions(key: int) -> tuple[tuple[int, ...], int]:
    """`_numbered_completions` of a key moved down to offset 0, from its mirror's entry when
    there is one."""
    length = (key.bit_length() + 2) // 3
    known = _SUIT_COMPLETIONS.get(mirror(key, length))
    if known is None:
        return _numbered_completions(key)
    offsets, state = known
    return tuple([length - 1 - offset for offset in reversed(offsets)]), state


def _numbered_completions(key: int) -> tuple[tuple[int, ...], int]:
    """The offsets whose one more tile lets a numbered key decompose, from -1 up and not cut to
    the suit, and its state. A tile changes the run it falls in or beside, or joins the two runs
    either side of a lone empty kind; every other run must decompose already, with one pair at
    most in all."""
    spans = runs(key)
    if len(spans) == 1:
        # One run, moved down to offset 0 already: its own completions, nothing else to mend.
        return tuple([offset for offset, _ in run_completions(key)]), run_state(key)
    states = [run_state(run_key(key, start, end)) for start, end in spans]
    broken = sum(state < 0 for state in states)
    pairs = sum(state > 0 for state in states)
    state = -1 if broken or pairs > 1 else pairs
    found: list[int] = []
    last = len(spans) - 1
    for index, (start, end) in enumerate(spans):
        own = states[index]
        joins_below = index > 0 and spans[index - 1][1] == start - 1
        joins_above = index < last and spans[index + 1][0] == end + 1
        if not broken - (own < 0):
            others = pairs - (own > 0)
            for offset, grown in run_completions(run_key(key, start, end)):
                tile = start + offset
                if others + grown > 1:
                    continue
                if (offset < 0 and joins_below) or (tile == end and joins_above):
                    continue
                found.append(tile)
        if joins_above:
            below, above = states[index], states[index + 1]
            if broken - (below < 0) - (above < 0):
                continue
            others = pairs - (below > 0) - (above > 0)
            stop = spans[index + 1][1]
            joined = run_state(run_key(key + (1 << 3 * end), start, stop))
            if joined >= 0 and others + joined <= 1:
                found.append(end)
    return tuple(found), state


def clear_memos() -> None:
    """Forget every per-suit table (for benchmarks that time a cold start)."""
    _SETS_ONLY.clear()
    _RUN_STATES.clear()
    _RUN_COMPLETIONS.clear()
    _SUIT_COMPLETIONS.clear()
    for states in _STATES:
        states.clear()
        states[0] = 0
    for entries in WAIT_ENTRIES:
        entries.clear()

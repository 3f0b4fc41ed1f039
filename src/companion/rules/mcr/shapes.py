"""The readings of an MCR hand: four sets and a pair, seven pairs (four alike are two pairs),
thirteen orphans, honors and knitted tiles (lesser and greater), and a knitted straight with a
set and a pair.

MCR reads its own shapes: seven pairs may hold four alike, and the knitted shapes are MCR's
alone, so this reader stands beside `companion.shapes` rather than changing it. Readings of
four sets come in the order of their sets read from the lowest tile, pungs before chows: when
two readings are worth the same, the first is reported.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cached_property
from itertools import permutations

from companion.hand import Hand, MeldKind
from companion.shapes.groups import TILES
from companion.tiles import KINDS, TERMINALS_AND_HONORS, Tile, format_tiles

HONORS = tuple(range(Tile.EAST, Tile.RED + 1))
_EAST = int(Tile.EAST)
"""The first honor as a plain number, for the reading's inner loop (an enum member read from
its class costs more than the comparison)."""
KNITTED: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        suit * 9 + rank
        for suit, start in zip(order, (0, 1, 2), strict=True)
        for rank in (start, start + 3, start + 6)
    )
    for order in permutations(range(3))
)
"""The six knitted straights (组合龙): 147 in one suit, 258 in another, 369 in the third."""


PAIR_TEXT = tuple(format_tiles((tile, tile)) for tile in TILES)
"""Each kind's pair, written."""


class McrShape(Enum):
    STANDARD = "standard"
    SEVEN_PAIRS = "seven_pairs"
    THIRTEEN_ORPHANS = "thirteen_orphans"
    HONORS_AND_KNITTED = "honors_and_knitted"
    KNITTED_STRAIGHT = "knitted_straight"


class SetKind(Enum):
    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"


CHOW, PUNG, KONG = SetKind.CHOW, SetKind.PUNG, SetKind.KONG
"""The kinds as plain names: a member read from its enum class costs eight times the `is` it
serves, and every reading's facts and bits test each set's kind."""


@dataclass(frozen=True)
class McrSet:
    kind: SetKind
    tile: Tile
    """The lowest tile."""
    declared: bool
    """Declared before the win (a concealed kong too)."""
    exposed: bool
    """Not concealed: claimed, or a pung completed by the winning discard."""

    @property
    def is_pung(self) -> bool:
        return self.kind is not CHOW

    @property
    def tiles(self) -> tuple[Tile, ...]:
        if self.kind is CHOW:
            return (self.tile, TILES[self.tile + 1], TILES[self.tile + 2])
        return (self.tile,) * (4 if self.kind is KONG else 3)

    def __str__(self) -> str:
        # Every result names its groups: each kind of set on each tile is written once.
        key = (self.kind, self.tile)
        text = _GROUP_TEXT.get(key)
        if text is None:
            text = _GROUP_TEXT[key] = format_tiles(self.tiles)
        return text


_GROUP_TEXT: dict[tuple[SetKind, Tile], str] = {}


@dataclass(frozen=True)
class McrReading:
    shape: McrShape
    sets: tuple[McrSet, ...] = ()
    pair: Tile | None = None
    pairs: tuple[Tile, ...] = ()
    """Seven pairs: each pair's tile (four alike appear twice)."""
    knitted: tuple[Tile, ...] = ()
    """The knitted straight's nine tiles, or the single tiles of honors and knitted tiles and
    of thirteen orphans."""

    @cached_property
    def groups(self) -> tuple[str, ...]:
        """The groups' text (read by every fan of the whole hand that names its tiles)."""
        found = [str(group) for group in self.sets]
        if self.knitted:
            found.append(format_tiles(self.knitted))
        found.extend(PAIR_TEXT[tile] for tile in self.pairs)
        if self.pair is not None:
            found.append(PAIR_TEXT[self.pair])
        return tuple(found)


def _declared(hand: Hand) -> list[McrSet]:
    found = []
    for meld in hand.melds:
        kind = CHOW if meld.kind is MeldKind.CHOW else KONG if meld.kind.is_kong else PUNG
        exposed = meld.kind is not MeldKind.CONCEALED_KONG
        found.append(McrSet(kind, meld.first, True, exposed))
    return found


def sets_and_pair(
    counts: list[int], sets: int
) -> Iterator[tuple[tuple[tuple[int, int], ...], int]]:
    """Every way to read the counts as `sets` sets and a pair: (sets as (tile, 0 pung or 1
    chow) in non-decreasing order, pair tile), in lexicographic order of the sets."""
    counts = list(counts)  # a caller may stop early: its counts stay as they were
    chosen: list[tuple[int, int]] = []

    def walk(start: tuple[int, int]) -> Iterator[tuple[tuple[tuple[int, int], ...], int]]:
        if len(chosen) == sets:
            held = [kind for kind in range(KINDS) if counts[kind]]
            if len(held) == 1 and counts[held[0]] == 2:
                yield tuple(chosen), held[0]
            return
        passed = 0
        for tile in range(start[0], KINDS):
            have = counts[tile]
            if not have:
                continue
            if have >= 3 and (tile, 0) >= start:
                counts[tile] -= 3
                chosen.append((tile, 0))
                yield from walk((tile, 0))
                chosen.pop()
                counts[tile] += 3
            if tile < _EAST and tile % 9 < 7 and counts[tile + 1] and counts[tile + 2]:
                for step in range(3):
                    counts[tile + step] -= 1
                chosen.append((tile, 1))
                yield from walk((tile, 1))
                chosen.pop()
                for step in range(3):
                    counts[tile + step] += 1
            # A tile passed by is never used by a later set: it can only be the pair.
            passed += 1
            if have != 2 or passed > 1:
                return

    yield from walk((0, 0))


def _concealed_sets(
    found: tuple[tuple[int, int], ...], winning: Tile, by_discard: bool
) -> tuple[McrSet, ...]:
    """The sets read from the concealed tiles. On a discard a pung of the winning tile is
    exposed, unless the winning tile can be read into one of the chows instead."""
    in_chow = any(kind == 1 and tile <= winning <= tile + 2 for tile, kind in found)
    sets = []
    for tile, kind in found:
        if kind == 1:
            sets.append(McrSet(CHOW, TILES[tile], False, False))
        else:
            exposed = by_discard and tile == winning and not in_chow
            sets.append(McrSet(PUNG, TILES[tile], False, exposed))
    return tuple(sets)


def _knitted_in(counts: Sequence[int]) -> tuple[int, ...] | None:
    for straight in KNITTED:
        if all(counts[tile] for tile in straight):
            return straight
    return None


def mcr_readings(hand: Hand, by_discard: bool) -> list[McrReading]:
    """Every reading of a complete hand: the knitted and special shapes first, then four sets
    and a pair in the order the module describes."""
    winning = hand.winning_tile
    assert winning is not None
    counts = hand.concealed_counts()
    declared = _declared(hand)
    found: list[McrReading] = []
    held = sorted(hand.concealed)
    if len(declared) <= 1:
        straight = _knitted_in(counts)
        if straight is not None:
            rest = list(counts)
            for tile in straight:
                rest[tile] -= 1
            for sets, pair in sets_and_pair(rest, 1 - len(declared)):
                found.append(
                    McrReading(
                        McrShape.KNITTED_STRAIGHT,
                        (*declared, *_concealed_sets(sets, winning, by_discard)),
                        TILES[pair],
                        knitted=tuple([TILES[tile] for tile in straight]),
                    )
                )
    if not declared:
        if all(count in (0, 2, 4) for count in counts):
            pairs = tuple(TILES[tile] for tile in range(KINDS) for _ in range(counts[tile] // 2))
            found.append(McrReading(McrShape.SEVEN_PAIRS, pairs=pairs))
        elif all(tile in TERMINALS_AND_HONORS for tile in held) and all(
            counts[tile] for tile in TERMINALS_AND_HONORS
        ):
            pair = next(tile for tile in TERMINALS_AND_HONORS if counts[tile] == 2)
            singles = tuple(tile for tile in TERMINALS_AND_HONORS if tile != pair)
            found.append(McrReading(McrShape.THIRTEEN_ORPHANS, pair=pair, knitted=singles))
        elif max(counts) == 1:
            numbered = [tile for tile in held if tile < Tile.EAST]
            if 7 <= len(numbered) <= 9 and any(
                set(numbered) <= set(straight) for straight in KNITTED
            ):
                found.append(McrReading(McrShape.HONORS_AND_KNITTED, knitted=tuple(held)))
    for sets, pair in sets_and_pair(counts, 4 - len(declared)):
        found.append(
            McrReading(
                McrShape.STANDARD,
                (*declared, *_concealed_sets(sets, winning, by_discard)),
                TILES[pair],
            )
        )
    return found


def complete_as_shape(counts: list[int], sets: int) -> bool:
    """Whether the counts (copies unlimited) read as `sets` sets and a pair."""
    return next(sets_and_pair(counts, sets), None) is not None

"""The readings of an MCR hand: four sets and a pair, seven pairs (four alike are two pairs),
thirteen orphans, honors and knitted tiles (lesser and greater), and a knitted straight with a
set and a pair.

MCR reads its own shapes: seven pairs may hold four alike, and the knitted shapes are MCR's
alone, so this reader stands beside `companion.shapes` rather than changing it. Readings of
four sets come in the order of their sets read from the lowest tile, pungs before chows: when
two readings are worth the same, the first is reported.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import Enum
from itertools import permutations, product
from typing import Any, Generic, TypeVar, overload

from companion.hand import Hand, Meld, MeldKind
from companion.shapes.blocks import remember, size
from companion.shapes.groups import TILES
from companion.tiles import KINDS, TERMINALS_AND_HONORS, Tile, format_tiles

T = TypeVar("T")


class cached(Generic[T]):  # noqa: N801 (named as the decorator it stands for)
    """`functools.cached_property` without its lock: a value worked out on first access and
    kept in the instance's dict, which answers every later access. Python 3.11's takes an
    `RLock` on each first access, and the facts make six or seven a reading: 22k of 759k
    instructions a hand (`bench/instructions.py`)."""

    def __init__(self, func: Callable[[Any], T]) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> cached[T]: ...
    @overload
    def __get__(self, instance: object, owner: type | None = None) -> T: ...
    def __get__(self, instance: object | None, owner: type | None = None) -> T | cached[T]:
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.func(instance)
        return value


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

    # Hashed by identity (a member is equal to itself alone): `Enum.__hash__` hashes the
    # member's name in Python, a call each time one is a key or in a set.
    __hash__ = object.__hash__


class SetKind(Enum):
    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"

    # Hashed by identity (a member is equal to itself alone): `Enum.__hash__` hashes the
    # member's name in Python, a call each time one is a key or in a set.
    __hash__ = object.__hash__


CHOW, PUNG, KONG = SetKind.CHOW, SetKind.PUNG, SetKind.KONG
"""The kinds as plain names: a member read from its enum class costs eight times the `is` it
serves, and every reading's facts and bits test each set's kind."""


TALLY_CHOWS, TALLY_PUNGS, TALLY_WINDS, TALLY_DRAGONS, TALLY_KONGS = 0, 3, 6, 9, 12
TALLY_CONCEALED, TALLY_EXPOSED = 15, 18
"""The shifts of `McrSet.tally`'s counts: chows; pungs and kongs; wind and dragon pungs and
kongs; kongs; concealed pungs and kongs (not exposed); declared groups exposed."""
_WHITE = int(Tile.WHITE)


@dataclass(frozen=True)
class McrSet:
    kind: SetKind
    tile: Tile
    """The lowest tile."""
    declared: bool
    """Declared before the win (a concealed kong too)."""
    exposed: bool
    """Not concealed: claimed, or a pung completed by the winning discard."""

    # `is_pung` and `tiles` kept on the set like `text` (each set is made once, `mcr_set`,
    # and the facts and fans read them on every reading): an attribute in the set's dict
    # rather than a property's call each time: 20k of 494k instructions a hand.
    @cached
    def is_pung(self) -> bool:
        return self.kind is not CHOW

    @cached
    def tiles(self) -> tuple[Tile, ...]:
        if self.kind is CHOW:
            return (self.tile, TILES[self.tile + 1], TILES[self.tile + 2])
        return (self.tile,) * (4 if self.kind is KONG else 3)

    @cached
    def tally(self) -> int:
        """What the set adds to a reading's counts of sets, three bits a count (a reading has
        four sets at most), at the `TALLY_` shifts: kept on the set, so that a reading's
        counts are its sets' tallies summed (`features.reading_bits`)."""
        found = 1 << TALLY_EXPOSED if self.declared and self.exposed else 0
        if self.kind is CHOW:
            return found + (1 << TALLY_CHOWS)
        found += 1 << TALLY_PUNGS
        if self.tile >= _WHITE:
            found += 1 << TALLY_DRAGONS
        elif self.tile >= _EAST:
            found += 1 << TALLY_WINDS
        if self.kind is KONG:
            found += 1 << TALLY_KONGS
        if not self.exposed:
            found += 1 << TALLY_CONCEALED
        return found

    def __str__(self) -> str:
        return self.text

    @cached
    def text(self) -> str:
        """The set written (every result names its groups): kept on the set, as each set is
        made once (`mcr_set`)."""
        return format_tiles(self.tiles)


_SETS: dict[tuple[SetKind, int, bool, bool], McrSet] = {}


def mcr_set(kind: SetKind, tile: int, declared: bool, exposed: bool) -> McrSet:
    """The set, made once for each kind, tile and state (a few hundred in all) and shared:
    a frozen dataclass of four fields costs about a microsecond to make, and every reading
    made four (part of the readings' 38k below)."""
    key = (kind, tile, declared, exposed)
    found = _SETS.get(key)
    if found is None:
        found = _SETS[key] = McrSet(kind, TILES[tile], declared, exposed)
    return found


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

    @cached
    def groups(self) -> tuple[str, ...]:
        """The groups' text (read by every fan of the whole hand that names its tiles)."""
        # Each set's text read from the set rather than through `str` (a Python call each),
        # and the pairs in a loop rather than a generator: 5k of 498k instructions a hand.
        found = [group.text for group in self.sets]
        if self.knitted:
            found.append(format_tiles(self.knitted))
        for tile in self.pairs:
            found.append(PAIR_TEXT[tile])
        if self.pair is not None:
            found.append(PAIR_TEXT[self.pair])
        return tuple(found)


_DECLARED: dict[tuple[MeldKind, tuple[Tile, ...]], McrSet] = {}


def _declared(melds: tuple[Meld, ...]) -> tuple[McrSet, ...]:
    """The declared groups' sets."""
    # Each kept by the meld's kind and tiles (a few hundred in all): the meld's kind tested
    # against enum members read from their class, its `is_kong` and `first` properties and
    # `mcr_set` for each meld cost 8k of 515k instructions a hand.
    found = []
    for meld in melds:
        key = (meld.kind, meld.tiles)
        group = _DECLARED.get(key)
        if group is None:
            group = remember(_DECLARED, key, _declared_set(meld))
        found.append(group)
    return tuple(found)


def _declared_set(meld: Meld) -> McrSet:
    kind = CHOW if meld.kind is MeldKind.CHOW else KONG if meld.kind.is_kong else PUNG
    exposed = meld.kind is not MeldKind.CONCEALED_KONG
    return mcr_set(kind, meld.first, True, exposed)


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
            sets.append(mcr_set(CHOW, tile, False, False))
        else:
            exposed = by_discard and tile == winning and not in_chow
            sets.append(mcr_set(PUNG, tile, False, exposed))
    return tuple(sets)


def _knitted_in(kinds: int) -> tuple[int, ...] | None:
    """The knitted straight among the kinds held (`kinds`, the low bit of each kind's count
    in a hand's key), if any."""
    for straight, mask in _KNITTED_MASKS:
        if kinds & mask == mask:
            return straight
    return None


_UNITS = tuple(1 << 3 * kind for kind in range(KINDS))
"""What a tile of each kind adds to a hand's key: three bits a kind, a suit's nine kinds (27
bits) a block's key (as `companion.shapes.blocks` keys a block)."""
_LOW = sum(_UNITS)
"""The low bit of every kind's count in a hand's key."""
_KNITTED_MASKS = tuple((straight, sum(_UNITS[tile] for tile in straight)) for straight in KNITTED)
_NUMBERED = sum(_UNITS[:_EAST])
"""The numbered kinds, as low bits of a hand's key."""
_ORPHANS = sum(_UNITS[tile] for tile in TERMINALS_AND_HONORS)
"""Thirteen orphans' kinds, as low bits of a hand's key."""
_SUIT = (1 << 27) - 1
"""A suit's block key within a hand's key."""


def _counts_of(key: int) -> list[int]:
    """The count of each kind in a hand's key."""
    return [(key >> 3 * kind) & 7 for kind in range(KINDS)]


BlockReading = tuple[tuple[McrSet, ...], tuple[Tile, ...]]
"""A block's sets, and its pair as a tuple of one tile (or none), so that the pairs of a
hand's blocks are their sum."""
_BLOCK_READINGS: tuple[dict[int, tuple[BlockReading, ...]], ...] = ({}, {}, {}, {})
_CHARACTERS, _CIRCLES, _BAMBOO, _HONORS = _BLOCK_READINGS


Shape = tuple[tuple[int, ...], int]
"""A block's reading by offsets from its lowest kind held: its sets' codes in order (a code a
set, `2 * offset + 1` for a chow, `2 * offset` for a pung), and its pair's offset (-1 for
none)."""
_SHAPES: tuple[dict[int, tuple[Shape, ...]], dict[int, tuple[Shape, ...]]] = ({}, {})
"""A block's shapes by its key moved down to its lowest kind held: the honors' (no chows),
then the suits' (one memo for the three)."""
_CONCEALED = tuple(
    mcr_set(kind, tile, False, False) for tile in range(KINDS) for kind in (PUNG, CHOW)
)
"""By `2 * lowest tile + 1 for a chow`: the concealed set there, as `mcr_set` has it (the
chows on an honor, an eight or a nine are never read)."""


def _fill(
    key: int,
    offset: int,
    chows: bool,
    pair_wanted: bool,
    codes: list[int],
    pair: int,
    found: list[Shape],
) -> None:
    """Add to `found` every reading of what is left of a block key (its lowest three bits the
    kind at `offset`) after the sets (`codes`) and pair chosen below it, in order. The
    tiles of the lowest kind left start chows (as many as the next two kinds allow), and what
    remains of them is nothing, a pung or the pair: the readings with a pung there come
    first, then those without, each with more chows first (the codes' order). A kind whose
    tiles can be read one way only is read in the loop, without a call."""
    while key:
        count = key & 7
        if not count:
            key >>= 3
            offset += 1
            continue
        most = min(count, key >> 3 & 7, key >> 6 & 7) if chows else 0
        # The chows each way starts there: a pung and the rest, all of them, the pair and the
        # rest (no comprehensions: each is a function made and called).
        choices = []
        if 3 <= count <= most + 3:
            choices.append(count - 3)
        if count <= most:
            choices.append(count)
        if pair_wanted and 2 <= count <= most + 2:
            choices.append(count - 2)
        if not choices:
            return
        if len(choices) == 1:
            (chowed,) = choices
            left = count - chowed
            if left == 3:
                codes.append(2 * offset)
            codes += [2 * offset + 1] * chowed
            if left == 2:
                pair_wanted = False
                pair = offset
            key = (key >> 3) - chowed - (chowed << 3)
            offset += 1
            continue
        for chowed in choices:
            left = count - chowed
            more = codes + [2 * offset] * (left == 3) + [2 * offset + 1] * chowed
            rest = (key >> 3) - chowed - (chowed << 3)
            if left == 2:
                _fill(rest, offset + 1, chows, False, more, offset, found)
            else:
                _fill(rest, offset + 1, chows, pair_wanted, more, pair, found)
        return
    if not pair_wanted:
        found.append((tuple(codes), pair))


def _block_readings(start: int, key: int) -> tuple[BlockReading, ...]:
    """Every way to read one suit's (or the honors') block key, from kind `start`, as sets
    and at most one pair (a pair when their number leaves two over), in the order of
    `sets_and_pair`; the sets concealed and not exposed."""
    # The walk of `sets_and_pair` over the block's kinds (a generator a set, every kind
    # passed over) cost about 20 µs a new block, and a fresh hand held one in two: the
    # shapes are read from the key by the lowest kind held, kept by the key moved down to it
    # (the three suits share them, and 234m and 567p share one), and only the sets are made
    # for each suit: 19k of 533k instructions a hand (256 blocks were new in the 500 hands
    # counted, 89 once moved down and shared). The shapes read by `_fill` as codes, a kind
    # read one way only without a call, and the sets taken from a table by their codes, with
    # no comprehension (3.11 makes a function for each): 8k of 507k more.
    if not key:
        return (((), ()),)
    shift = ((key & -key).bit_length() - 1) // 3
    moved = key >> 3 * shift
    memo = _SHAPES[start < _EAST]
    shapes = memo.get(moved)
    if shapes is None:
        found: list[Shape] = []
        remainder = size(moved) % 3
        if remainder != 1:
            _fill(moved, 0, start < _EAST, remainder == 2, [], -1, found)
        shapes = remember(memo, moved, tuple(found))
    base = start + shift
    first = 2 * base
    readings: list[BlockReading] = []
    for codes, pair in shapes:
        sets: list[McrSet] = []
        for code in codes:
            sets.append(_CONCEALED[first + code])
        readings.append((tuple(sets), () if pair < 0 else (TILES[base + pair],)))
    return tuple(readings)


def _standard_readings(key: int) -> list[tuple[tuple[McrSet, ...], Tile]]:
    """Every reading of a hand's concealed tiles (`key`, three bits a kind) as sets and a
    pair, in the order of `sets_and_pair` over the whole hand, the sets concealed and not
    exposed."""
    # Chows stay within a suit, so a hand's readings are those of its suits and honors
    # combined, and each block's are kept by its counts (1,594 blocks in 3,000 hands), their
    # sets made once (`mcr_set`): the walk over the whole hand, a generator a set, and the
    # sets made for each reading cost 38k of 714k instructions a hand more than this. The
    # blocks' readings in their own order, combined block after block, are the whole walk's
    # (lexicographic) order.
    # Each block's key read from the hand's by a shift and a mask (a slice of the counts and a
    # tuple each before), the four written out, and each block's pair a tuple of one tile or
    # none, so that the pairs are summed (with the hand's key below: 3k of 536k instructions
    # a hand).
    characters = _CHARACTERS.get(part := key & _SUIT)
    if characters is None:
        characters = remember(_CHARACTERS, part, _block_readings(0, part))
    circles = _CIRCLES.get(part := key >> 27 & _SUIT)
    if circles is None:
        circles = remember(_CIRCLES, part, _block_readings(9, part))
    bamboo = _BAMBOO.get(part := key >> 54 & _SUIT)
    if bamboo is None:
        bamboo = remember(_BAMBOO, part, _block_readings(18, part))
    honors = _HONORS.get(part := key >> 81)
    if honors is None:
        honors = remember(_HONORS, part, _block_readings(_EAST, part))
    if len(characters) == len(circles) == len(bamboo) == len(honors) == 1:
        (((sets, pairs),), ((circle_sets, circle_pairs),)) = characters, circles
        (((bamboo_sets, bamboo_pairs),), ((honor_sets, honor_pairs),)) = bamboo, honors
        pairs += circle_pairs + bamboo_pairs + honor_pairs
        if len(pairs) != 1:
            return []
        return [(sets + circle_sets + bamboo_sets + honor_sets, pairs[0])]
    readings: list[tuple[tuple[McrSet, ...], Tile]] = []
    for combined in product(characters, circles, bamboo, honors):
        pairs = sum((block_pairs for _, block_pairs in combined), ())
        if len(pairs) == 1:
            readings.append((sum((block_sets for block_sets, _ in combined), ()), pairs[0]))
    return readings


def _exposed(sets: tuple[McrSet, ...], winning: Tile) -> tuple[McrSet, ...]:
    """On a discard, the concealed pung of the winning tile exposed, unless the winning tile
    can be read into one of the chows instead (as `_concealed_sets`)."""
    if any(group.kind is CHOW and group.tile <= winning <= group.tile + 2 for group in sets):
        return sets
    return tuple(
        [
            mcr_set(PUNG, group.tile, False, True)
            if group.kind is PUNG and not group.declared and group.tile == winning
            else group
            for group in sets
        ]
    )


def mcr_readings(hand: Hand, by_discard: bool) -> list[McrReading]:
    """Every reading of a complete hand: the knitted and special shapes first, then four sets
    and a pair in the order the module describes."""
    winning = hand.winning_tile
    assert winning is not None
    concealed = hand.concealed
    melds = hand.melds
    # The hand's key, three bits a kind: the blocks' keys are parts of it, and the kinds held
    # its low bits where a count is not 0; the counts are made for a knitted straight alone,
    # and seven pairs read from the tiles in order. Summing the key at C speed,
    # `sum(map(_UNITS.__getitem__, concealed))`, cost 30k more: each call of the
    # method-wrapper is a generic call with its own tuple of arguments.
    key = 0
    units = _UNITS
    for tile in concealed:
        key += units[tile]
    kinds = (key | key >> 1 | key >> 2) & _LOW
    found: list[McrReading] = []
    # The knitted straights are masks of kinds, and the special shapes are ruled out by how
    # many kinds are held (a hand holds four copies of a kind at most), rather than by
    # sorting the tiles and testing each one; with no `_declared` call for a hand without
    # melds: 11k of 547k instructions a hand.
    declared = _declared(melds) if melds else ()
    if len(melds) <= 1 and (kinds & _NUMBERED).bit_count() >= 9:
        straight = _knitted_in(kinds)
        if straight is not None:
            rest = _counts_of(key)
            for kind in straight:
                rest[kind] -= 1
            for sets, pair in sets_and_pair(rest, 1 - len(declared)):
                found.append(
                    McrReading(
                        McrShape.KNITTED_STRAIGHT,
                        (*declared, *_concealed_sets(sets, winning, by_discard)),
                        TILES[pair],
                        knitted=tuple([TILES[tile] for tile in straight]),
                    )
                )
    if not melds:
        held = kinds.bit_count()
        if held * 2 <= len(concealed):
            # Seven pairs hold each kind twice or four times (half as many kinds as tiles at
            # most): the tiles in order pair off, and every other one is a pair's.
            ordered = sorted(concealed)
            pairs = ordered[::2]
            if pairs == ordered[1::2]:
                found.append(McrReading(McrShape.SEVEN_PAIRS, pairs=tuple(pairs)))
        elif kinds == _ORPHANS:
            # The kind held twice: its count's middle bit.
            pair = TILES[(key & _LOW << 1).bit_length() // 3]
            singles = tuple(tile for tile in TERMINALS_AND_HONORS if tile != pair)
            found.append(McrReading(McrShape.THIRTEEN_ORPHANS, pair=pair, knitted=singles))
        elif held == len(concealed):
            # Each kind held once: honors and knitted tiles if the numbered ones are seven to
            # nine of one knitted straight.
            numbered = kinds & _NUMBERED
            if numbered.bit_count() >= 7 and any(
                not numbered & ~mask for _, mask in _KNITTED_MASKS
            ):
                found.append(
                    McrReading(McrShape.HONORS_AND_KNITTED, knitted=tuple(sorted(concealed)))
                )
    exposing = by_discard and key >> 3 * winning & 7 >= 3
    for own, last in _standard_readings(key):
        if exposing:
            own = _exposed(own, winning)
        # The reading's dict filled at once, as `McrReading(...)` fills it (defaults
        # included), rather than through the frozen dataclass's five setattr calls.
        reading = object.__new__(McrReading)
        reading.__dict__.update(
            shape=McrShape.STANDARD,
            sets=(*declared, *own),
            pair=last,
            pairs=(),
            knitted=(),
        )
        found.append(reading)
    return found


def complete_as_shape(counts: list[int], sets: int) -> bool:
    """Whether the counts (copies unlimited) read as `sets` sets and a pair."""
    return next(sets_and_pair(counts, sets), None) is not None

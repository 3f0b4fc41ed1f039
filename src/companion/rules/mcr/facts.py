"""What the fan predicates read of one reading: its sets, its tiles, the win and the wait."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from enum import Enum

from companion.rules.mcr.shapes import (
    CHOW,
    KONG,
    PAIR_TEXT,
    McrReading,
    McrSet,
    McrShape,
    cached,
)
from companion.shapes.blocks import BLOCK_OF, UNIT, block_keys
from companion.shapes.groups import Structure
from companion.shapes.wait import waits_of_keys
from companion.tiles import KINDS, Tile, Wind, format_tiles

GREEN = frozenset({Tile.S2, Tile.S3, Tile.S4, Tile.S6, Tile.S8, Tile.GREEN})
REVERSIBLE = frozenset(
    {
        *(Tile(Tile.P1 + rank - 1) for rank in (1, 2, 3, 4, 5, 8, 9)),
        *(Tile(Tile.S1 + rank - 1) for rank in (2, 4, 5, 6, 8, 9)),
        Tile.WHITE,
    }
)
"""推不倒: the tiles that look the same upside down."""
SETS_AND_A_PAIR = Structure(sets=4)
"""The shape whose waits the wait fan read (the number of sets is the tiles' own)."""
_ODD = sum(1 << 3 * kind for kind in range(KINDS))
"""The low bit of each kind's count in the four block keys side by side (27 bits a suit):
set where a kind is held once or three times."""


class McrCircumstance(Enum):
    LAST_COPY = "last_copy"
    LAST_TILE = "last_tile"
    REPLACEMENT = "replacement"
    ROBBING_KONG = "robbing_kong"

    # Hashed by identity (a member is equal to itself alone): `Enum.__hash__` hashes the
    # member's name in Python, and every hand's events are read from a set.
    __hash__ = object.__hash__


@dataclass(frozen=True)
class McrContext:
    seat: Wind
    round: Wind
    by_discard: bool
    circumstances: frozenset[McrCircumstance]
    winning: Tile
    last_copy: bool
    """The winning tile is the last of its kind: asked for, or three already in the melds."""

    def has(self, circumstance: McrCircumstance) -> bool:
        return circumstance in self.circumstances


EAST = int(Tile.EAST)
NORTH = int(Tile.NORTH)
WHITE = int(Tile.WHITE)
"""The first honor, the last wind and the first dragon as plain numbers: an enum member read
from its class costs three times the comparison it is in, and the fan's tests make such
comparisons on every group of every reading."""


def rank(tile: int) -> int:
    return tile % 9 + 1


def suit(tile: int) -> int:
    return tile // 9


def is_terminal(tile: int) -> bool:
    return tile < EAST and tile % 9 in (0, 8)


def is_honor(tile: int) -> bool:
    return tile >= EAST


def is_dragon(tile: int) -> bool:
    return tile >= WHITE


def is_wind(tile: int) -> bool:
    return EAST <= tile <= NORTH


@dataclass(frozen=True)
class McrFacts:
    reading: McrReading
    context: McrContext
    concealed_before: tuple[Tile, ...]
    """The concealed tiles before the winning one."""
    melds: int
    """Declared groups, concealed kongs included."""
    held_before: tuple[int, ...]
    """How many of each kind the hand held before the winning tile, declared groups included."""

    @property
    def shape(self) -> McrShape:
        return self.reading.shape

    @property
    def sets(self) -> tuple[McrSet, ...]:
        return self.reading.sets

    @cached
    def tiles(self) -> tuple[Tile, ...]:
        reading = self.reading
        found: list[Tile] = [tile for group in reading.sets for tile in group.tiles]
        found.extend(reading.knitted)
        found.extend(tile for pair in reading.pairs for tile in (pair, pair))
        if reading.pair is not None:
            found.extend((reading.pair, reading.pair))
        return tuple(found)

    @cached
    def counts(self) -> list[int]:
        # Every reading holds all of the hand's tiles: its counts are those held before the
        # winning tile and that tile (not the reading's tiles written out and counted).
        counts = list(self.held_before)
        counts[self.context.winning] += 1
        return counts

    @cached
    def kinds(self) -> frozenset[Tile]:
        return frozenset(self.tiles)

    @cached
    def numbered_ranks(self) -> frozenset[int] | None:
        """The ranks of the tiles, or None when there is an honor."""
        if any(is_honor(tile) for tile in self.kinds):
            return None
        return frozenset(rank(tile) for tile in self.kinds)

    @cached
    def suits(self) -> frozenset[int]:
        return frozenset(suit(tile) for tile in self.kinds if not is_honor(tile))

    def family(self, family: str) -> tuple[list[int], tuple[int, ...]]:
        """The family's sets (`chows` or `pungs`) in the order of their lowest tiles: their
        indices, and those tiles (all that the fan combining them read)."""
        # Worked out on each call, not kept: the engine asks once a reading for each family
        # (`Combination`'s own calls are the tests'), and a kept value cost two calls more on
        # its one use. With no declared group the sets come in the order of their lowest tiles
        # already (`mcr_readings` reads them block after block, each block's in order, tested),
        # so that only a hand with declared groups, which come first, is sorted. With the
        # chows read off the sets: 496,375 to 489,485 instructions a hand; uncached (with
        # tile hog off the counts held before): 484,178 to 481,140.
        sets = self.reading.sets
        if family == "chows":
            members = [index for index, group in enumerate(sets) if group.kind is CHOW]
        else:
            members = self.pungs
        if not self.melds or len(members) < 2:
            return members, tuple([sets[index].tile for index in members])
        # By (tile, index): the order of a sort by tile alone, which keeps equal tiles in
        # their indices' order, without a Python key call for each set.
        ordered = sorted([(sets[index].tile, index) for index in members])
        return [index for _, index in ordered], tuple([tile for tile, _ in ordered])

    @cached
    def chows(self) -> list[int]:
        return [index for index, group in enumerate(self.reading.sets) if group.kind is CHOW]

    @cached
    def pungs(self) -> list[int]:
        return [index for index, group in enumerate(self.reading.sets) if group.kind is not CHOW]

    @property
    def standard(self) -> bool:
        return self.shape is McrShape.STANDARD

    @property
    def exposed_melds(self) -> int:
        return sum(group.declared and group.exposed for group in self.sets)

    @cached
    def kongs(self) -> list[McrSet]:
        return [group for group in self.reading.sets if group.kind is KONG]

    @property
    def concealed_pungs(self) -> int:
        return sum(group.is_pung and not group.exposed for group in self.sets)

    @cached
    def wait_position(self) -> str | None:
        """ "edge", "closed" or "single" when the hand waited on one kind alone and the
        winning tile sits there in this reading; None otherwise."""
        reading = self.reading
        shape = reading.shape
        winning = self.context.winning
        if shape is McrShape.STANDARD:
            pass
        elif shape is McrShape.KNITTED_STRAIGHT:
            if self.melds:
                return "single" if reading.pair == winning else None
        else:
            return None
        # Where the winning tile sits first: the hand's waits, the costly part (a reading of
        # the tiles for each kind), are read only when it sits in a wait's place, which the
        # answer needs anyway (in the bench's hands, about half the readings skip them).
        # One pass over the sets with the ranks as offsets in a suit, rather than two `any`
        # over a list of the concealed ones calling `rank`, and the odd kinds of seven pairs
        # from the block keys' low bits rather than a pass over the 34 counts: with
        # `winning_place` likewise, 512,831 to 496,375 instructions a hand.
        position = None
        for group in reading.sets:
            if group.kind is not CHOW or group.declared:
                continue
            low = group.tile
            if winning == low + 1:
                position = "closed"
            elif (winning == low + 2 and low % 9 == 0) or (winning == low and low % 9 == 6):
                # The 3 of 12 or the 7 of 89: a two-sided wait whose other side is gone is
                # none; an edge comes before a closed wait in another chow.
                position = "edge"
                break
        if position is None:
            if reading.pair != winning:
                return None
            position = "single"
        # The waits of four sets and a pair from the shared per-suit tables (`waits_of_keys`,
        # memoised by each suit's tiles): a reading of the tiles for each kind near one held
        # cost a fifth of a hand here, and a memo of whole hands missed on every fresh one.
        keys = block_keys(self.concealed_before)
        if shape is McrShape.KNITTED_STRAIGHT:
            # The knitted tiles are neither a chow nor the pair: only the rest may wait.
            for tile in reading.knitted:
                block, unit = BLOCK_OF[tile], UNIT[tile]
                if not keys[block] // unit & 7:
                    return None
                keys[block] -= unit
            waits: Collection[int] = waits_of_keys(keys, (), SETS_AND_A_PAIR)
        else:
            waits = waits_of_keys(keys, (), SETS_AND_A_PAIR)
            if not self.melds:
                # With no declared group, the block keys are the counts held before; a kind
                # held once or three times has its count's low bit set (`_ODD`): one integer
                # rather than a list of the four keys' and their bit counts summed, 475,742 to
                # 474,504 instructions a hand.
                key0, key1, key2, key3 = keys
                odd = (key0 | key1 << 27 | key2 << 54 | key3 << 81) & _ODD
                if odd and not odd & (odd - 1):
                    # Seven pairs (four alike are two) waits on the single tile too.
                    waits = {*waits, (odd.bit_length() - 1) // 3}
        # A kind whose four copies the hand holds is no wait.
        held = self.held_before
        if len([tile for tile in waits if held[tile] < 4]) != 1:
            return None
        return position

    @cached
    def winning_place(self) -> tuple[str, str]:
        """The group of this reading that the winning tile completed (as `groups` writes it)
        and the tile's role there (the contract's `wait`): the group a wait fan names when the
        hand waited on that kind alone; else a chow holding it, a pung of it (on a discard the
        one the discard exposed), the pair; else the knitted tiles or the singles, "single"."""
        reading, winning = self.reading, self.context.winning
        position = self.wait_position
        if position == "single" or reading.shape is McrShape.SEVEN_PAIRS:
            return PAIR_TEXT[winning], "pair"
        sets = reading.sets
        for group in sets:
            if group.kind is CHOW and not group.declared:
                role = _chow_role(group.tile, winning)
                if role is not None and (position is None or role == position):
                    return group.text, role
        for group in sets:
            if group.kind is not CHOW and group.tile == winning and not group.declared:
                return group.text, "pung"
        if reading.pair == winning:
            return PAIR_TEXT[winning], "pair"
        return format_tiles(reading.knitted), "single"


def _chow_role(low: Tile, winning: Tile) -> str | None:
    """The winning tile's role in the chow from `low` (None when the chow lacks it)."""
    if not low <= winning <= low + 2:
        return None
    if winning == low + 1:
        return "closed"
    if (rank(low) == 1 and winning == low + 2) or (rank(low) == 7 and winning == low):
        return "edge"
    return "two_sided"

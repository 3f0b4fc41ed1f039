"""What riichi's yaku and fu ask of one reading of one hand (`RiichiFacts`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from companion.hand import Hand, MeldKind
from companion.shapes import Group, GroupKind, Reading, Shape, WinRole
from companion.tiles import KINDS, Tile, Wind


class RiichiCircumstance(Enum):
    """What happened in the hand, as a request's `events` names it."""

    RIICHI = "riichi"
    DOUBLE_RIICHI = "double_riichi"
    IPPATSU = "ippatsu"
    REPLACEMENT = "replacement"
    ROBBING_KONG = "robbing_kong"
    LAST_TILE = "last_tile"
    LAST_DISCARD = "last_discard"
    HEAVENLY = "heavenly"
    EARTHLY = "earthly"
    RENHOU = "renhou"


DRAGONS = frozenset({Tile.WHITE, Tile.GREEN, Tile.RED})
WINDS = frozenset({Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH})
GREEN_TILES = frozenset({Tile.S2, Tile.S3, Tile.S4, Tile.S6, Tile.S8, Tile.GREEN})


def is_terminal_or_honor(tile: int) -> bool:
    return tile >= Tile.EAST or tile % 9 in (0, 8)


@dataclass(frozen=True)
class RiichiContext:
    """The win as the request gives it: who won, how, and what happened."""

    seat: Wind = Wind.EAST
    round: Wind = Wind.EAST
    by_discard: bool = False
    discarder: Wind | None = None
    circumstances: frozenset[RiichiCircumstance] = frozenset()

    @property
    def dealer(self) -> bool:
        """East's seat deals."""
        return self.seat is Wind.EAST

    def has(self, circumstance: RiichiCircumstance) -> bool:
        return circumstance in self.circumstances


class RiichiFacts:
    """One reading of a hand, split as the yaku and the fu read it.

    Made lazily: the scorer decides most readings by their feature bits (`features`) and makes
    facts only for the readings it keeps (their fu) and the hands a bit cannot decide (nine
    gates); each attribute but the reading's own is worked out on first access and kept."""

    hand: Hand
    reading: Reading
    context: RiichiContext
    shape: Shape
    role: WinRole
    groups: tuple[Group, ...]
    seat_tile: Tile
    round_tile: Tile
    winning_tile: Tile
    pair: Group | None
    sets: tuple[Group, ...]
    chows: tuple[Group, ...]
    pungs: tuple[Group, ...]
    """Pungs and kongs."""
    kongs: tuple[Group, ...]
    concealed_pungs: tuple[Group, ...]
    """`Group.concealed` is false for a pung completed by a discard: it is not concealed."""
    closed: bool
    """No declared group but concealed kongs."""
    counts: list[int]
    """Every kind's count, a kong's counted as three (what a shape reads)."""
    kinds: frozenset[int]
    """Kinds as plain numbers (a Tile equals its number)."""

    def __init__(self, hand: Hand, reading: Reading, context: RiichiContext) -> None:
        self.hand = hand
        self.reading = reading
        self.context = context
        self.shape = reading.shape
        self.role = reading.role
        self.groups = reading.groups
        self.seat_tile = context.seat.tile
        self.round_tile = context.round.tile

    def __getattr__(self, name: str) -> Any:
        # Only a missing attribute comes here: each lazy one is made once, then found as a
        # plain attribute.
        make = _LAZY.get(name)
        if make is None:
            raise AttributeError(name)
        value = make(self)
        self.__dict__[name] = value
        return value

    @property
    def standard(self) -> bool:
        return self.shape is Shape.STANDARD

    @property
    def seven_pairs(self) -> bool:
        return self.shape is Shape.SEVEN_PAIRS

    def is_value_tile(self, tile: Tile) -> bool:
        """A dragon, the seat wind or the round wind: its pung is a yakuhai, its pair has fu."""
        return tile in DRAGONS or tile == self.seat_tile or tile == self.round_tile

    def suits(self) -> frozenset[int]:
        return frozenset(kind // 9 for kind in self.kinds if kind < Tile.EAST)

    @property
    def has_honors(self) -> bool:
        return any(kind >= Tile.EAST for kind in self.kinds)

    def waiting_counts(self) -> list[int]:
        """The concealed tiles' counts before the winning tile arrived."""
        counts = [0] * KINDS
        for tile in self.hand.concealed:
            counts[tile] += 1
        counts[self.winning_tile] -= 1
        return counts


def _counts(facts: RiichiFacts) -> list[int]:
    counts = [0] * KINDS
    for tile in facts.hand.concealed:
        counts[tile] += 1
    for meld in facts.hand.melds:
        for tile in meld.tiles[:3]:
            counts[tile] += 1
    return counts


def _winning_tile(facts: RiichiFacts) -> Tile:
    tile = facts.hand.winning_tile
    return tile if tile is not None else Tile.M1


_LAZY: dict[str, Callable[[RiichiFacts], Any]] = {
    "winning_tile": _winning_tile,
    "pair": lambda f: next((g for g in f.groups if g.kind is GroupKind.PAIR), None),
    "sets": lambda f: tuple(group for group in f.groups if group.is_set),
    "chows": lambda f: tuple(group for group in f.sets if group.kind is GroupKind.CHOW),
    "pungs": lambda f: tuple(group for group in f.sets if group.kind is not GroupKind.CHOW),
    "kongs": lambda f: tuple(group for group in f.sets if group.kind is GroupKind.KONG),
    "concealed_pungs": lambda f: tuple(group for group in f.pungs if group.concealed),
    "closed": lambda f: all(meld.kind is MeldKind.CONCEALED_KONG for meld in f.hand.melds),
    "counts": _counts,
    "kinds": lambda f: frozenset(kind for kind in range(KINDS) if f.counts[kind]),
}
"""How each lazy attribute of `RiichiFacts` is made."""

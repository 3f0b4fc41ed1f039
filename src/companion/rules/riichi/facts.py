"""What riichi's yaku and fu ask of one reading of one hand (`RiichiFacts`)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from companion.hand import Hand, MeldKind
from companion.shapes import Group, GroupKind, Reading, Shape, WinRole
from companion.tiles import KINDS, Tile, Wind


class RiichiEvent(Enum):
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
    events: frozenset[RiichiEvent] = frozenset()

    @property
    def dealer(self) -> bool:
        """East's seat deals."""
        return self.seat is Wind.EAST

    def has(self, event: RiichiEvent) -> bool:
        return event in self.events


class RiichiFacts:
    """One reading of a hand, split as the yaku and the fu read it."""

    def __init__(self, hand: Hand, reading: Reading, context: RiichiContext) -> None:
        self.hand = hand
        self.reading = reading
        self.context = context
        self.shape = reading.shape
        self.role: WinRole = reading.role
        self.groups = reading.groups
        self.winning_tile: Tile = hand.winning_tile if hand.winning_tile is not None else Tile.M1
        self.pair: Group | None = next((g for g in self.groups if g.kind is GroupKind.PAIR), None)
        self.sets = tuple(group for group in self.groups if group.is_set)
        self.chows = tuple(group for group in self.sets if group.kind is GroupKind.CHOW)
        self.pungs = tuple(group for group in self.sets if group.kind is not GroupKind.CHOW)
        self.kongs = tuple(group for group in self.sets if group.kind is GroupKind.KONG)
        # `Group.concealed` is false for a pung completed by a discard: it is not concealed.
        self.concealed_pungs = tuple(group for group in self.pungs if group.concealed)
        self.closed = all(meld.kind is MeldKind.CONCEALED_KONG for meld in hand.melds)
        counts = [0] * KINDS
        for tile in hand.concealed:
            counts[tile] += 1
        for meld in hand.melds:
            for tile in meld.tiles[:3]:
                counts[tile] += 1
        self.counts = counts
        """Every kind's count, a kong's counted as three (what a shape reads)."""
        # Kinds as plain numbers (a Tile equals its number): made for every reading.
        self.kinds: frozenset[int] = frozenset(kind for kind in range(KINDS) if counts[kind])
        self.seat_tile = context.seat.tile
        self.round_tile = context.round.tile

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

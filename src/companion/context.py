"""The context of a win: how it was won, by which seat, in which round, and its circumstances
(`Circumstance`: robbing a kong, the last tile...)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from enum import Enum
from typing import TypeVar

from companion.tiles import Wind


class WinType(Enum):
    SELF_DRAW = "self_draw"
    DISCARD = "discard"

    __hash__ = object.__hash__  # members are singletons; Enum's default hash is slow


class Circumstance(Enum):
    REPLACEMENT = "replacement"
    KONG_ON_KONG = "kong_on_kong"
    ROBBING_KONG = "robbing_kong"
    LAST_TILE = "last_tile"
    LAST_DISCARD = "last_discard"
    HEAVENLY = "heavenly"
    EARTHLY = "earthly"
    ORIGINAL_READY = "original_ready"

    __hash__ = object.__hash__  # members are singletons; Enum's default hash is slow


class FlowerWin(Enum):
    SEVEN_CAPTURE = "seven_capture"
    """Seven bonus tiles robbing the eighth from its holder: settled like a discard win."""
    EIGHT = "eight"
    """All eight bonus tiles: settled like a self-draw."""


@dataclass(frozen=True, slots=True, eq=False)
class WinContext:
    win: WinType = WinType.SELF_DRAW
    seat: Wind = Wind.EAST
    round: Wind = Wind.EAST
    discarder: Wind | None = None
    """Who discarded the winning tile, declared the robbed kong, or holds the eighth bonus tile."""
    dealer: Wind = Wind.EAST
    dealer_streak: int = 0
    table_discards: int | None = None
    circumstances: frozenset[Circumstance] = frozenset()
    flower_win: FlowerWin | None = None
    liable: Wind | None = None
    key: tuple[object, ...] = field(init=False, repr=False, compare=False, hash=False)
    """The context's fields as one tuple: a memo key that hashes and compares at C speed."""
    _hash: int = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if type(self.circumstances) is not frozenset:
            # Any collection of circumstances will do; the context keeps them as a frozenset.
            object.__setattr__(self, "circumstances", frozenset(self.circumstances))
        # The scorer looks its plans up by context for every hand: a context's value is
        # made and hashed once, not on every lookup (a dataclass hashes its fields each time).
        key = (
            self.win,
            self.seat,
            self.round,
            self.discarder,
            self.dealer,
            self.dealer_streak,
            self.table_discards,
            self.circumstances,
            self.flower_win,
            self.liable,
        )
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "_hash", hash(key))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if other.__class__ is not WinContext:
            return NotImplemented
        assert isinstance(other, WinContext)
        return self._hash == other._hash and self.key == other.key

    @property
    def self_drawn(self) -> bool:
        return self.win is WinType.SELF_DRAW

    @property
    def by_discard(self) -> bool:
        return self.win is WinType.DISCARD

    def has(self, circumstance: Circumstance) -> bool:
        return circumstance in self.circumstances


Seat = TypeVar("Seat")


def next_deal(
    dealer: Seat, streak: int, winners: Collection[Seat], *, draw_repeats: bool = False
) -> tuple[bool, int]:
    """Whether the deal passes to the next player, and the next hand's dealer streak: a drawn
    hand (no winner) keeps both (or, `draw_repeats`, keeps the deal and the streak grows, as a
    dealer win would), a win that includes the dealer keeps the deal and the streak grows, any
    other win passes the deal on and resets the streak. Seats are winds or a ledger's player
    numbers."""
    if not winners:
        return False, streak + 1 if draw_repeats else streak
    if dealer in winners:
        return False, streak + 1
    return True, 0

"""Red fives, read before the shared tile reader: riichi's `0m 0p 0s`; and the dora each
indicator makes (`DORA_OF`).

The shared reader (`companion.tiles`) is every profile's hot path and knows no red five. A
riichi hand's text is read here first: each red five (a `0` in a run of m, p or s digits, or
"red five of circles" by name) becomes its plain five, and is counted by suit, so that the
shapes and the patterns see a five and the dora count sees one more.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from companion.errors import InvalidRequestError
from companion.tiles import KINDS, Tile

_RUN = re.compile(r"([0-9]+)([mps])")
_NAMED = re.compile(r"red five of (characters|circles|bamboo)", re.IGNORECASE)
_SUIT_OF_NAME = {"characters": "m", "circles": "p", "bamboo": "s"}


@dataclass(frozen=True)
class RedFives:
    """The text with each red five made a plain five, and the red fives of each suit."""

    text: str
    by_suit: tuple[tuple[str, int], ...] = ()

    @property
    def count(self) -> int:
        return sum(count for _, count in self.by_suit)


def read_red_fives(text: str, field: str = "hand") -> RedFives:
    """`text` (MPSZ or names) with its red fives read out; more than one red five of a suit in
    one field is refused (a table has one of each)."""
    found = {"m": 0, "p": 0, "s": 0}

    def plain_run(match: re.Match[str]) -> str:
        digits, suit = match.group(1), match.group(2)
        found[suit] += digits.count("0")
        return digits.replace("0", "5") + suit

    def plain_name(match: re.Match[str]) -> str:
        suit = _SUIT_OF_NAME[match.group(1).lower()]
        found[suit] += 1
        return f"5{suit}"

    plain = _RUN.sub(plain_run, _NAMED.sub(plain_name, text))
    doubled = [suit for suit, count in found.items() if count > 1]
    if doubled:
        raise InvalidRequestError(
            f"{field}: {found[doubled[0]]} red fives of {doubled[0]}; a table has one of each suit"
        )
    return RedFives(plain, tuple((suit, count) for suit, count in found.items() if count))


def _indicated(indicator: int) -> Tile:
    """The dora an indicator makes: the next kind (9→1, North→East, Red→White)."""
    if indicator < Tile.EAST:
        return Tile(indicator // 9 * 9 + (indicator % 9 + 1) % 9)
    if indicator <= Tile.NORTH:
        return Tile(Tile.EAST + (indicator - Tile.EAST + 1) % 4)
    return Tile(Tile.WHITE + (indicator - Tile.WHITE + 1) % 3)


DORA_OF: tuple[Tile, ...] = tuple(_indicated(kind) for kind in range(KINDS))
"""By indicator, the dora it makes: the next kind of its suit (9 makes 1), East→South→West→
North→East, White→Green→Red→White. A variant with other tiles in play has its own table
(`RiichiOptions.dora_of`)."""

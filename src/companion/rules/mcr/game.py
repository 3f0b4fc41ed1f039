"""An MCR table's game: what a hand is worth, how long the game is, and how it ends.

A hand is worth 8 + its fan (`engine.settle`); a drawn hand pays nothing. The deal passes after
every hand, won or drawn, so a game is four rounds (East, South, West, North prevalent wind)
of four hands: 16 hands, then the game is over. At its end each player takes table points by
place: 4, 2, 1 and 0, players tied on score sharing the points of the places they fill.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from companion.errors import InvalidRequestError
from companion.rules.mcr.engine import MINIMUM

GAME_HANDS = 16
"""Four rounds of four hands: the deal passes every hand."""
PLACE_POINTS = (4, 2, 1, 0)
"""The table points of first, second, third and fourth place."""


def check_fan(fan: int) -> None:
    """Refuse a hand's fan (flowers apart) under the 8-fan minimum, which flowers never count
    toward: it is no win."""
    if fan < MINIMUM:
        raise InvalidRequestError(
            f"a win needs at least {MINIMUM} fan, flowers not counted; {fan} were entered",
            key="refusal.mcr_minimum",
            params={"minimum": MINIMUM, "count": fan},
        )


def table_points(scores: Sequence[Fraction | int]) -> tuple[Fraction, ...]:
    """Each player's table points for these scores: 4, 2, 1, 0 by place, players tied on score
    sharing equally the points of the places they fill together (two tied first take 3 each,
    three tied first 7/3 each)."""
    points = []
    for score in scores:
        above = sum(other > score for other in scores)
        tied = sum(other == score for other in scores)
        points.append(Fraction(sum(PLACE_POINTS[above : above + tied]), tied))
    return tuple(points)

"""A player's rating game by game as a chart, and their places as a histogram: SVG geometry
that `club_player.html` draws, in the style of a table's running totals (`table_chart`)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from companion.clubs.ratings import PlayerRatings, RatingOrder, RatingPoint
from companion.clubs.stats import Share
from companion.web.table_chart import CHART_POINTS, sample_indices, y_axis

WIDTH, HEIGHT = 400, 210
LEFT, RIGHT, TOP, BOTTOM = 38.0, 392.0, 10.0, 184.0


@dataclass(frozen=True)
class RatingChart:
    """One line: the rating after each game (0 is the start, before the first)."""

    width: int
    height: int
    left: float
    right: float
    top: float
    bottom: float
    points: str
    end_x: float
    end_y: float
    y_ticks: tuple[tuple[float, str], ...]
    x_ticks: tuple[tuple[float, str], ...]


START = {RatingOrder.OPENSKILL: 0.0, RatingOrder.TENHOU: 1500.0, RatingOrder.TOTAL: 0.0}
"""Each rating before a player's first game (OpenSkill's ordinal: 25 - 3 * 25/3)."""


def _value(point: RatingPoint, order: RatingOrder) -> float:
    found: float | Decimal | Fraction = (
        point.ordinal
        if order is RatingOrder.OPENSKILL
        else point.tenhou_r
        if order is RatingOrder.TENHOU
        else point.total
    )
    return float(found)


def rating_chart(ratings: PlayerRatings, order: RatingOrder) -> RatingChart:
    """The player's `order` rating from the start through every game (sampled when long)."""
    values = [START[order], *(_value(point, order) for point in ratings.history)]
    low, high, tick_values, labels, left = y_axis(min(values), max(values), LEFT)
    count = len(values) - 1

    def y_of(value: float) -> float:
        return round(BOTTOM - (value - low) / (high - low) * (BOTTOM - TOP), 2)

    def x_of(index: int) -> float:
        return round(left + index / count * (RIGHT - left), 2)

    points = [(x_of(i), y_of(values[i])) for i in sample_indices(count, CHART_POINTS)]
    every = max(1, math.ceil(count / 6))
    x_ticks = [(x_of(i), str(i)) for i in range(count + 1) if i % every == 0 or i == count]
    if len(x_ticks) > 1 and x_ticks[-1][0] - x_ticks[-2][0] < 24:
        del x_ticks[-2]  # the last game's number would overlap the tick before it
    return RatingChart(
        WIDTH,
        HEIGHT,
        left,
        RIGHT,
        TOP,
        BOTTOM,
        " ".join(f"{x},{y}" for x, y in points),
        points[-1][0],
        points[-1][1],
        tuple((y_of(value), label) for value, label in zip(tick_values, labels, strict=True)),
        tuple(x_ticks),
    )


@dataclass(frozen=True)
class Bar:
    place: int
    count: int
    percent: int
    x: float
    y: float
    height: float


@dataclass(frozen=True)
class Histogram:
    width: int
    height: int
    bar_width: float
    base: float
    bars: tuple[Bar, ...]


def place_histogram(places: tuple[Share, ...]) -> Histogram:
    """A bar per place, its height the share of games at that place (the tallest full)."""
    width, height, base, top = 240, 150, 122.0, 18.0
    most = max((share.count for share in places), default=0) or 1
    slot = width / len(places)
    bars = []
    for index, share in enumerate(places):
        tall = round((base - top) * share.count / most, 2)
        percent = 0 if share.over == 0 else round(100 * share.count / share.over)
        bars.append(
            Bar(
                index + 1,
                share.count,
                percent,
                round(index * slot + slot * 0.2, 2),
                base - tall,
                tall,
            )
        )
    return Histogram(width, height, round(slot * 0.6, 2), base, tuple(bars))

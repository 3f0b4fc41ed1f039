"""A table's running totals as a chart: SVG geometry (one line per player, ticks, a summary
for screen readers) that `components/board_cards.html` draws. A long table's lines are sampled,
so its page stays small."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from companion.ledger.entries import Correction
from companion.ledger.replay import Replay
from companion.settlement import signed_amount
from companion.web import i18n

CHART_POINTS = 120
"""The most points a chart line has: a long table's chart is sampled, so its page stays small."""


@dataclass(frozen=True)
class Series:
    index: int
    name: str
    points: str
    end_x: float
    end_y: float


@dataclass(frozen=True)
class Chart:
    """A running-total chart as SVG geometry (drawn by `components/board_cards.html`)."""

    width: int
    height: int
    left: float
    right: float
    top: float
    bottom: float
    zero_y: float
    series: tuple[Series, ...]
    y_ticks: tuple[tuple[float, str], ...]
    x_ticks: tuple[tuple[float, str], ...]
    summary: str


def nice_step(span: float, ticks: int = 4) -> float:
    raw = span / ticks
    power = 10.0 ** math.floor(math.log10(raw))
    for factor in (1.0, 2.0, 2.5, 5.0, 10.0):
        if factor * power >= raw:
            return factor * power
    return 10.0 * power


def tick_label(value: float) -> str:
    # Thousands separators: a riichi table's axis runs in tens of thousands of points.
    text = f"{value:,.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def y_axis(
    low: float, high: float, left: float
) -> tuple[float, float, list[float], list[str], float]:
    """The axis from `low` to `high` widened to round steps: its ends, its ticks' values and
    labels, and the chart's left edge moved right for the longest label."""
    if high == low:
        high, low = high + 1, low - 1
    step = nice_step(high - low)
    low = math.floor(low / step) * step
    high = math.ceil(high / step) * step
    tick_values = []
    value = low
    while value <= high + step / 2:
        tick_values.append(value)
        value += step
    labels = [tick_label(value) for value in tick_values]
    # Room for the longest label ("-25,000" on a riichi table) at the phone's 14 px digits,
    # which are about 8 px wide; the default margin fits the money tables' short amounts.
    return low, high, tick_values, labels, max(left, 8.0 * max(map(len, labels)) + 6.0)


def sample_indices(count: int, most: int) -> list[int]:
    """0..count, or `most` + 1 of them evenly spread (the first and the last always in)."""
    if count <= most:
        return list(range(count + 1))
    return sorted({round(k * count / most) for k in range(most + 1)})


def chart(t: i18n.Translator, replayed: Replay) -> Chart | None:
    """Each player's running total after every outcome that counts; None before the first."""
    players = replayed.setup.players
    start = tuple(Fraction(0) for _ in players)
    steps: list[tuple[int | None, tuple[Fraction, ...]]] = [(0, start)]
    for entry in replayed.entries:
        if entry.effective is None or isinstance(entry.stored.body, Correction):
            continue
        if not entry.effective.is_hand and entry.after.totals == steps[-1][1]:
            continue  # a stop moves no total: the line ends at the last hand, not past it
        steps.append((entry.hand if entry.effective.is_hand else None, entry.after.totals))
    if len(steps) < 2:
        return None
    width, height = 400, 210
    left, right, top, bottom = 38.0, 392.0, 10.0, 184.0
    values = [float(total) for _, totals in steps for total in totals]
    low, high, tick_values, labels, left = y_axis(min(0.0, *values), max(0.0, *values), left)

    def y_of(value: float) -> float:
        return round(bottom - (value - low) / (high - low) * (bottom - top), 2)

    count = len(steps) - 1

    def x_of(index: int) -> float:
        return round(left + index / count * (right - left), 2)

    sampled = sample_indices(count, CHART_POINTS)
    series = []
    for player, name in enumerate(players):
        points = [(x_of(i), y_of(float(steps[i][1][player]))) for i in sampled]
        series.append(
            Series(
                player,
                name,
                " ".join(f"{x},{y}" for x, y in points),
                points[-1][0],
                points[-1][1],
            )
        )
    y_ticks = [(y_of(value), label) for value, label in zip(tick_values, labels, strict=True)]
    every = max(1, math.ceil(count / 8))
    x_ticks = [(x_of(0), "0")]
    for index, (hand, _) in enumerate(steps[1:], start=1):
        if hand is not None and (index % every == 0 or index == count):
            x_ticks.append((x_of(index), str(hand)))
    totals = replayed.state.totals
    summary = t(
        "table.chart_summary",
        n=replayed.state.hands,
        totals=", ".join(
            f"{name} {signed_amount(total)}" for name, total in zip(players, totals, strict=True)
        ),
    )
    return Chart(
        width,
        height,
        left,
        right,
        top,
        bottom,
        y_of(0.0),
        tuple(series),
        tuple(y_ticks),
        tuple(x_ticks),
        summary,
    )

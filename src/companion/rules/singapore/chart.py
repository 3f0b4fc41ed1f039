"""sg-table's payout charts: an amount per tai instead of the doubling share (the option
`chart`, docs/rules-sg-table.md)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from companion.errors import InvalidRequestError
from companion.rules.options import parse_amount
from companion.settlement import amount_json


@dataclass(frozen=True)
class PayoutChart:
    """Amounts per tai, in units of the one-tai share V: entry n-1 is for n tai.

    On a discard win the discarder pays `discarder[n-1]` and each other opponent `others[n-1]`;
    on a self-draw each opponent pays `self_draw[n-1]`. A hand at 0 tai pays half the 1-tai
    amounts; a hand beyond the cap (a limit hand) pays twice the amounts at the cap.
    """

    name: str
    discarder: tuple[Fraction, ...]
    others: tuple[Fraction, ...]
    self_draw: tuple[Fraction, ...]

    def rows(self) -> dict[str, tuple[Fraction, ...]]:
        return {"discarder": self.discarder, "others": self.others, "self_draw": self.self_draw}

    def amount(self, row: tuple[Fraction, ...], tai: int, cap: int) -> Fraction:
        if tai <= 0:
            return row[0] / 2
        if tai > cap:
            return 2 * row[cap - 1]
        return row[tai - 1]

    def to_json(self) -> dict[str, list[int | float]]:
        return {name: [amount_json(a) for a in row] for name, row in self.rows().items()}


def _amounts(*values: int) -> tuple[Fraction, ...]:
    return tuple(Fraction(value) for value in values)


CHART_PRESETS: Mapping[str, PayoutChart] = {
    "3/6": PayoutChart(
        "3/6",
        discarder=_amounts(4, 7, 11, 20, 40),
        others=_amounts(0, 0, 0, 0, 0),
        self_draw=_amounts(2, 3, 5, 10, 20),
    ),
    "1/2": PayoutChart(
        "1/2",
        discarder=_amounts(4, 8, 16, 32, 64),
        others=_amounts(0, 0, 0, 0, 0),
        self_draw=_amounts(2, 4, 8, 16, 32),
    ),
}
"""Two charts common in Singapore, both shooter-pays: the discarder pays the whole win."""

_CHART_ROWS = ("discarder", "others", "self_draw")


def parse_chart(value: Any) -> PayoutChart | None:
    """The `chart` option: null, a preset name, or an object of amount lists per tai
    (`discarder` and `self_draw` required, `others` all 0 when left out)."""
    if value is None:
        return None
    if isinstance(value, str):
        preset = CHART_PRESETS.get(value.strip())
        if preset is None:
            known = ", ".join(f'"{name}"' for name in CHART_PRESETS)
            raise InvalidRequestError(
                f'option chart: unknown preset "{value}": use {known}, or an object of '
                "discarder, others and self_draw amounts per tai"
            )
        return preset
    if not isinstance(value, Mapping):
        raise InvalidRequestError(
            "option chart must be a preset name or an object of discarder, others and "
            "self_draw amounts per tai"
        )
    unknown = sorted(str(key) for key in value if key not in _CHART_ROWS)
    if unknown:
        raise InvalidRequestError(
            f"option chart: unknown row {', '.join(unknown)}: the rows are "
            + ", ".join(_CHART_ROWS)
        )
    rows: dict[str, tuple[Fraction, ...]] = {}
    for name in ("discarder", "self_draw"):
        if name not in value:
            raise InvalidRequestError(f"option chart needs a {name} row: an amount per tai")
        rows[name] = _chart_row(name, value[name])
    if "others" in value:
        rows["others"] = _chart_row("others", value["others"])
    else:
        rows["others"] = tuple(Fraction(0) for _ in rows["discarder"])
    return PayoutChart("custom", rows["discarder"], rows["others"], rows["self_draw"])


def _chart_row(name: str, value: Any) -> tuple[Fraction, ...]:
    if not isinstance(value, list | tuple) or not value:
        raise InvalidRequestError(
            f"option chart: {name} must be a list of amounts, one per tai from 1 tai up"
        )
    amounts = tuple(parse_amount(item, f"option chart: {name} amount") for item in value)
    if any(amount < 0 for amount in amounts):
        raise InvalidRequestError(f"option chart: {name} amounts cannot be negative")
    return amounts

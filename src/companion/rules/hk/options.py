"""hk's options: the minimum and maximum faan, the payment curve and the gun."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from companion.rules.options import Options

MAX_FAAN = 13
"""The highest maximum a table plays with, and the faan of a limit hand in the table."""

FAAN_MAXIMA = (8, 10, 13)
"""The maximum faan a table may choose (`max_faan`)."""

CURVES: Mapping[str, tuple[int, ...]] = {
    "half_spicy": (1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384),
    "spicy": tuple(2**faan for faan in range(MAX_FAAN + 1)),
}
"""M(faan) for 0 to 13 faan: one payment is base x M(faan)."""


@dataclass(frozen=True, slots=True)
class Gun:
    """What a discard win costs, in payments P: the discarder's part and each other player's."""

    discarder: Fraction
    others: Fraction


GUNS: Mapping[str, Gun] = {
    "full": Gun(Fraction(2), Fraction(0)),
    "half": Gun(Fraction(1), Fraction(1, 2)),
}
"""Full gun: the discarder alone pays 2P. Half gun: the discarder P, each other player P/2."""

FLOWER_FAAN: frozenset[str] = frozenset({"no_flowers", "seat_flower", "flower_set"})
"""The flower faan, which do not count towards the minimum unless `flowers_count_to_minimum`."""


@dataclass(frozen=True)
class HkOptions(Options):
    """The hk options (docs/rules-hk.md). `min_tai` mirrors `min_faan` for the shared code."""

    min_faan: int = 3
    """The fewest faan, flower faan apart, a hand must have to be paid."""
    max_faan: int = MAX_FAAN
    """The most faan a hand settles at (8, 10 or 13); limit hands score it."""
    flowers_count_to_minimum: bool = False
    """Whether No flowers, Seat flower and flower sets count towards the minimum."""
    great_dragons_limit: bool = False
    """Whether Great dragons is a limit hand instead of 8 faan."""
    seven_pairs: bool = False
    """Whether seven pairs is a winning hand (4 faan)."""
    base: Fraction = Fraction(1)
    """The stake: one payment is base x M(faan); 0.5, 1 and 2 are usual."""
    curve: str = "half_spicy"
    """M(faan): `half_spicy` (1, 2, 4, 8, 16, 24, 32, ...) or `spicy` (2^faan)."""
    gun: str = "full"
    """A discard win: `full` (the discarder pays 2P) or `half` (P, and P/2 from each other)."""
    derived: ClassVar[frozenset[str]] = frozenset({"min_tai"})

    def __post_init__(self) -> None:
        object.__setattr__(self, "min_tai", self.min_faan)

    def problems(self, pattern_ids: frozenset[str]) -> list[str]:
        problems = super().problems(pattern_ids)
        if self.max_faan not in FAAN_MAXIMA:
            problems.append("option max_faan must be 8, 10 or 13")
        elif not 0 <= self.min_faan <= self.max_faan:
            problems.append(f"option min_faan must be from 0 to the maximum ({self.max_faan})")
        if self.base <= 0:
            problems.append("option base must be more than 0")
        if self.curve not in CURVES:
            problems.append(f'option curve must be "half_spicy" or "spicy", not "{self.curve}"')
        if self.gun not in GUNS:
            problems.append(f'option gun must be "full" or "half", not "{self.gun}"')
        return problems

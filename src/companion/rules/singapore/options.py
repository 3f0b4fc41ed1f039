"""The Singapore family's options, each declared once: those both profiles have
(`SingaporeOptions`), the cap a profile may take (`CappedSingaporeOptions`), and each profile's
own (`SgOptions`, `SgTableOptions`). A profile takes an option by extending the class that
declares it; the option's checks and what reads it (`SingaporeProfile`'s cap, shares and
payments) come with it. docs/contract.md describes them all."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from companion.rules.options import Options
from companion.rules.singapore.chart import PayoutChart, parse_chart
from companion.rules.singapore.patterns import LIMIT_TAI

GUIDE_CAP = 5
"""The most tai a hand settles at in the Singapore guides, limit hands apart."""

MAX_CAP = LIMIT_TAI
"""The highest cap a table may set (`cap`)."""


@dataclass(frozen=True)
class SingaporeOptions(Options):
    """The options both Singapore profiles have (with `tai_overrides`, every profile's)."""

    min_tai: int = 1
    """The fewest tai a hand must have to be paid (0-5)."""
    share: Fraction = Fraction(1)
    """V, the one-tai share: one share is V x 2^(tai-1), V/2 at 0 tai."""

    @property
    def tai_cap(self) -> int:
        """The most tai a hand settles at, limit hands apart: the guides' cap, unless the
        profile takes the `cap` option."""
        return GUIDE_CAP

    def problems(self, pattern_ids: frozenset[str]) -> list[str]:
        problems = super().problems(pattern_ids)
        if not 0 <= self.min_tai <= GUIDE_CAP:
            problems.append(f"option min_tai must be from 0 to {GUIDE_CAP}")
        if self.share <= 0:
            problems.append("option share must be more than 0")
        return problems


@dataclass(frozen=True)
class CappedSingaporeOptions(SingaporeOptions):
    """The Singapore options and `cap`, the table's own cap."""

    cap: int = GUIDE_CAP
    """The most tai a hand settles at (1-10); a limit hand beyond it pays the next doubling."""

    @property
    def tai_cap(self) -> int:
        return self.cap

    def problems(self, pattern_ids: frozenset[str]) -> list[str]:
        problems = super().problems(pattern_ids)
        if not 1 <= self.cap <= MAX_CAP:
            problems.append(f"option cap must be from 1 to {MAX_CAP}")
        elif self.min_tai > self.cap:
            problems.append(f"option min_tai cannot be above the cap ({self.cap})")
        return problems


@dataclass(frozen=True)
class SgOptions(SingaporeOptions):
    """sg's options: the Singapore options and sg's house rule."""

    seven_pairs: bool = False
    """Whether seven pairs is a win (3 tai)."""


@dataclass(frozen=True)
class SgTableOptions(CappedSingaporeOptions):
    """sg-table's options: the Singapore options, `cap`, and how the table pays."""

    shooter_pays: bool = False
    """On a discard win the discarder pays every share, the other opponents nothing."""
    chart: PayoutChart | None = None
    """A payout chart instead of doubling shares: a preset name ("3/6", "1/2") or amounts."""
    readers: ClassVar[Mapping[str, Callable[[Any], Any]]] = {"chart": parse_chart}

    def problems(self, pattern_ids: frozenset[str]) -> list[str]:
        problems = super().problems(pattern_ids)
        if self.chart is not None and 1 <= self.cap <= MAX_CAP:
            for name, row in self.chart.rows().items():
                if len(row) < self.cap:
                    problems.append(
                        f"option chart: {name} has amounts for 1 to {len(row)} tai, but the cap "
                        f"is {self.cap}"
                    )
        return problems

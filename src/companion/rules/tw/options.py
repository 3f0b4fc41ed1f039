"""tw's options: the stake, the wait rule and the table's house rules (docs/contract.md)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from companion.rules.options import Options

WAIT_RULES = ("role", "single")
"""`role`: the winning tile's role in the chosen reading decides a pair or closed/edge wait.
`single`: the role decides, and the hand must also have waited on one kind only."""


MAX_STAKE = 1_000_000
"""The most `base` and `per_tai` may be: tai add up without a cap here, so the stake bounds what
a hand pays (with the bounds on tai, `companion.rules.options.MAX_PATTERN_TAI`)."""


@dataclass(frozen=True)
class TwOptions(Options):
    """The tw options (docs/rules-tw.md): the stake, the wait rule, and the generic ones."""

    base: Fraction = Fraction(0)
    """Paid on every payment whatever the tai."""
    per_tai: Fraction = Fraction(1)
    """Paid per tai (hand tai plus that payment's dealer tai)."""
    wait_rule: str = "role"
    """How Pair wait and Closed or edge wait are judged: one of `WAIT_RULES`."""
    exposed_self_draw: bool = False
    """Whether a hand with all five sets declared may win by self-drawing its pair (scored
    without Exposed hand). Refused by default: the source's Exposed hand has the pair won on a
    discard."""
    drawn_hand_repeats: bool = False
    """Whether a drawn hand counts as a dealer repeat (連莊): the dealer keeps the deal and the
    streak grows by one, so the next hand's dealer tai grow too. By default a draw keeps the
    dealer and the streak as they were."""
    table_rules = frozenset({"drawn_hand_repeats"})

    @property
    def draw_repeats_deal(self) -> bool:
        return self.drawn_hand_repeats

    def problems(self, pattern_ids: frozenset[str]) -> list[str]:
        problems = super().problems(pattern_ids)
        if self.min_tai < 0:
            problems.append("option min_tai cannot be negative")
        if self.base < 0:
            problems.append("option base cannot be negative")
        if self.per_tai < 0:
            problems.append("option per_tai cannot be negative")
        for name, stake in (("base", self.base), ("per_tai", self.per_tai)):
            if stake > MAX_STAKE:
                problems.append(f"option {name} can be at most {MAX_STAKE:,}")
        if self.base == 0 and self.per_tai == 0:
            problems.append("option per_tai: with base 0 as well, no hand would ever pay")
        if self.wait_rule not in WAIT_RULES:
            problems.append(f'option wait_rule must be "role" or "single", not "{self.wait_rule}"')
        return problems

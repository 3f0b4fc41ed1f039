"""`sg`: the Singaporean Mahjong Reference profile, as docs/rules.md reads it.

Four sets and a pair or Thirteen Orphans; 0-5 tai; one share is V x 2^(tai-1); animals ignored.
The pattern table, the options and the checks it shares with sg-table are
`companion.rules.singapore`'s; what is here is sg's alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from companion.context import WinContext
from companion.rules import predicates as p
from companion.rules.patterns import Pattern
from companion.rules.profile import HouseRule
from companion.rules.singapore import SINGAPORE_PATTERNS, SingaporeOptions, SingaporeRules
from companion.rules.value import Count
from companion.settlement import Amount, Payments, collect, doubling, doubling_share, others
from companion.shapes import Shape

PATTERNS = SINGAPORE_PATTERNS
"""sg's table: the Singapore table as it is (its house rules add to it)."""


@dataclass(frozen=True)
class SgOptions(SingaporeOptions):
    """The Singapore options (`min_tai`, `share`, `tai_overrides`) and sg's house rules."""

    seven_pairs: bool = False
    """Whether seven pairs is a win (3 tai)."""


HOUSE_RULES = (
    HouseRule(
        "seven_pairs",
        adds=(Pattern("seven_pairs", "Seven pairs", 3, p.seven_pairs),),
        allows=frozenset({Shape.SEVEN_PAIRS}),
    ),
)
"""sg's options that change its shapes or its table."""


class SgProfile(SingaporeRules[SgOptions]):
    id = "sg"
    name = "Singapore (Companion guide, 0-5 tai)"
    patterns = PATTERNS
    options_type = SgOptions
    house_rules = HOUSE_RULES
    cap = 5

    def share(self, tai: int, options: SgOptions) -> Fraction:
        return doubling_share(tai, options.share)

    def share_amount(self, tai: int, options: SgOptions) -> Amount:
        """`share`, as an int when it is whole."""
        return doubling(tai, options.share)

    def settle(self, value: Count, context: WinContext, options: SgOptions) -> Payments:
        """Discard: the discarder pays two shares and the others one each. Self-draw: every
        opponent pays two shares."""
        share = self.share_amount(value.tai, options)
        double = share * 2
        owed = {
            payer: double if context.self_drawn or payer is context.discarder else share
            for payer in others(context.seat)
        }
        return collect(context.seat, owed)


SG = SgProfile()

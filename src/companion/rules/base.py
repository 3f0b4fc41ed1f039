"""What every profile is made of, by concern: patterns as data (`companion.rules.patterns`)
and their compiled tables (`companion.rules.compiled`), the facts a pattern asks of a reading
(`companion.rules.facts`), options (`companion.rules.options`) and the profile itself
(`companion.rules.profile`).

Kept so that `from companion.rules.base import ...` keeps working for every name it held.
"""

from __future__ import annotations

from companion.rules.compiled import CompiledTable, compiled, evaluate
from companion.rules.facts import Facts, HandFacts, match_all, no_reading, tiles_item
from companion.rules.features import Feature
from companion.rules.options import (
    MAX_AMOUNT,
    MAX_DENOMINATOR,
    Options,
    parse_amount,
    parse_options,
)
from companion.rules.patterns import Match, Pattern, PatternScore, Predicate, needs
from companion.rules.profile import Profile

__all__ = [
    "MAX_AMOUNT",
    "MAX_DENOMINATOR",
    "CompiledTable",
    "Facts",
    "Feature",
    "HandFacts",
    "Match",
    "Options",
    "Pattern",
    "PatternScore",
    "Predicate",
    "Profile",
    "compiled",
    "evaluate",
    "match_all",
    "needs",
    "no_reading",
    "parse_amount",
    "parse_options",
    "tiles_item",
]

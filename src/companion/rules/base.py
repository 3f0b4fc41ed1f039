"""What every profile is made of, by concern: patterns as data and their compiled tables
(`companion.rules.patterns`), the facts a pattern asks of a reading (`companion.rules.facts`),
options (`companion.rules.options`) and the profile itself (`companion.rules.profile`).

Kept so that `from companion.rules.base import ...` keeps working for every name it held.
"""

from __future__ import annotations

from companion.rules.facts import Facts, Feature, HandFacts, match_all, no_reading, tiles_item
from companion.rules.options import (
    MAX_AMOUNT,
    MAX_DENOMINATOR,
    Options,
    parse_amount,
    parse_options,
)
from companion.rules.patterns import (
    CompiledTable,
    Match,
    Pattern,
    PatternScore,
    Predicate,
    compiled,
    evaluate,
    needs,
)
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

"""The riichi profile's engine: options and presets, red fives, yaku and yakuman as pattern
data, fu, limits and payments (docs/rules-riichi.md). The registered profile, `RIICHI`, is in
`companion.rules.riichi.profile`."""

from companion.rules.riichi.engine import (
    RiichiRequest,
    RiichiResult,
    RiichiScore,
    RiichiWait,
    read_riichi_request,
    riichi_waits,
    score_riichi,
    score_riichi_request,
    score_several_riichi,
)
from companion.rules.riichi.options import PRESETS, RiichiOptions, read_options

__all__ = [
    "PRESETS",
    "RiichiOptions",
    "RiichiRequest",
    "RiichiResult",
    "RiichiScore",
    "RiichiWait",
    "read_options",
    "read_riichi_request",
    "riichi_waits",
    "score_riichi",
    "score_riichi_request",
    "score_several_riichi",
]

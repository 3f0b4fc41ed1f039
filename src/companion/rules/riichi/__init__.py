"""The riichi profile's engine: options and presets, red fives, yaku and yakuman as pattern
data, fu, limits and payments (docs/rules-riichi.md). The registered profile, `RIICHI`, is in
`companion.rules.riichi.profile`."""

from companion.rules.riichi.engine import (
    RiichiResult,
    RiichiScore,
    RiichiWait,
    riichi_waits,
    score_riichi,
    score_riichi_request,
    score_several_riichi,
)
from companion.rules.riichi.options import PRESETS, RiichiOptions, read_options
from companion.rules.riichi.request import RiichiRequest, read_riichi_request

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

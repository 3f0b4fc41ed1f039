"""The mcr profile's engine (Mahjong Competition Rules, Chinese Official, 81 fan): its shapes,
the fan as data, the principles applied by `companion.rules.principles`, the minimum and the
settlement (docs/rules-mcr.md). The registered profile, `MCR`, is in
`companion.rules.mcr.profile`."""

from companion.rules.mcr.engine import MINIMUM, McrWait, mcr_waits, score_mcr
from companion.rules.mcr.fans import BY_ID, FANS, FLOWER, Fan
from companion.rules.mcr.result import McrResult, McrScore

__all__ = [
    "BY_ID",
    "FANS",
    "FLOWER",
    "MINIMUM",
    "Fan",
    "McrResult",
    "McrScore",
    "McrWait",
    "mcr_waits",
    "score_mcr",
]

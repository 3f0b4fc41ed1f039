"""Three-player riichi (`sanma`), built from the riichi profile's parts: its tiles (the 2m-8m
out of play, 1m indicating 9m), its options (riichi's switches, the self-draw's payment
`tsumo`, honba of 200) and its request (riichi's, with `kita` and the refusals of a table of
three), scored by riichi's engine (docs/rules-sanma.md). The registered profile, `SANMA`, is in
`companion.rules.sanma.profile`."""

from companion.rules.sanma.options import TSUMO_PAYMENTS, SanmaOptions, read_options
from companion.rules.sanma.request import read_sanma_request, score_sanma

__all__ = [
    "TSUMO_PAYMENTS",
    "SanmaOptions",
    "read_options",
    "read_sanma_request",
    "score_sanma",
]

"""The `sanma` profile (three-player riichi) as the calculator, the command line and the HTTP
API see it: riichi's profile (`RiichiProfile`) with sanma's request, options and scorer.

A sanma request is riichi's with seats E, S and W and one more field, `kita` (docs/contract.md);
its result is riichi's, the absent North's payment 0. Its tables are riichi's points game for
the three seats the profile declares (`seats`), its game's options sanma's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from companion.errors import InvalidRequestError
from companion.hand import Meld
from companion.rules.own_request import RequestShape
from companion.rules.profile import SetAside
from companion.rules.riichi.engine import RiichiResult, RiichiWait, riichi_waits
from companion.rules.riichi.profile import FIELDS as RIICHI_FIELDS
from companion.rules.riichi.profile import MAX_COUNTERS, REFUSED_FIELDS, RiichiProfile
from companion.rules.riichi.tiles import read_red_fives
from companion.rules.sanma.options import SEATS, SanmaOptions, read_options
from companion.rules.sanma.request import MAX_KITA, score_sanma
from companion.rules.sanma.tiles import OUT_OF_PLAY
from companion.tiles import Tile, Wind, parse_tiles

FIELDS = RIICHI_FIELDS | {"kita"}
"""The request fields a sanma hand reads: riichi's and `kita` (docs/contract.md)."""
REQUEST = RequestShape(
    "sanma",
    FIELDS,
    read_options,
    lists=("melds", "dora", "ura_dora", "events"),
    counts={"honba": MAX_COUNTERS, "riichi_sticks": MAX_COUNTERS, "kita": MAX_KITA},
    refused={**REFUSED_FIELDS, "bonus": "sanma has no flowers or animals"},
)
"""A sanma request's fields and their kinds."""


class SanmaProfile(RiichiProfile):
    """Three-player riichi: riichi's engine under sanma's options, its request read by
    `read_sanma_request`."""

    id = "sanma"
    name = "Sanma (three-player riichi)"
    options_type = SanmaOptions
    request_fields: ClassVar[tuple[str, ...]] = (*RiichiProfile.request_fields, "kita")
    seats: ClassVar[tuple[Wind, ...]] = SEATS
    out_of_play: ClassVar[frozenset[Tile]] = OUT_OF_PLAY
    claimed_chows: ClassVar[bool] = False
    set_aside: ClassVar[SetAside | None] = SetAside("kita", Tile.NORTH, MAX_KITA)

    def read_options(self, data: Mapping[str, Any]) -> SanmaOptions:
        return read_options(data)

    def read_fields(self, data: Any) -> dict[str, Any]:
        return REQUEST.read(data)

    def score_fields(self, hand: str, **fields: Any) -> RiichiResult:
        return score_sanma(hand, **fields)

    def waits_of(self, hand: str, fields: Mapping[str, Any]) -> tuple[RiichiWait, ...]:
        """Riichi's waits, less a North when the hand and the kita hold all four."""
        kita = fields.get("kita", 0)
        gone: frozenset[Tile] = frozenset()
        if kita:
            held = list(parse_tiles(read_red_fives(hand).text))
            for text in fields.get("melds", ()):
                held += Meld.parse(read_red_fives(text, "melds").text).tiles
            norths = held.count(Tile.NORTH) + kita
            if norths > MAX_KITA:
                raise InvalidRequestError(
                    f"kita: {kita} set aside and {norths - kita} in the hand make {norths} North "
                    "tiles; there are four"
                )
            if norths == MAX_KITA:
                gone = frozenset({Tile.NORTH})
        return riichi_waits(hand, score=self.score_fields, gone=gone, **fields)


SANMA = SanmaProfile()

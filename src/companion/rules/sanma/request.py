"""A sanma request read and checked: riichi's reading (`read_riichi_request`) under sanma's
options, with the kita, and the refusals of a table of three: a 2m-8m tile anywhere, a
declared chow, a North seat (or round, discarder or liable seat), `kita` outside 0-4, more
than four North tiles counting the hand and the kita."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from companion.errors import InvalidHandError, InvalidRequestError, NotAWinError
from companion.hand import MeldKind
from companion.rules.riichi.engine import RiichiResult, score_riichi_request
from companion.rules.riichi.request import RiichiRequest, read_riichi_request
from companion.rules.sanma.options import SanmaOptions, read_options
from companion.rules.sanma.tiles import OUT_OF_PLAY
from companion.tiles import Tile, Wind

MAX_KITA = 4
"""Four North tiles: the most a player can set aside."""
_RED_CHARACTERS = re.compile(r"[0-9]*0[0-9]*m|red five of characters", re.IGNORECASE)


def _seat(name: str, text: str | None) -> None:
    """Refuse North as a seat: nobody sits there at a table of three."""
    if text is None or Wind.parse(text) is not Wind.NORTH:
        return
    if name == "round":
        raise InvalidRequestError(
            "round: sanma has no North round; North is never a round wind (the rounds are "
            "E and S, and W when a game runs over)"
        )
    raise InvalidRequestError(f"{name}: sanma has no North seat; the three seats are E, S and W")


def _out_of_play(field: str, tiles: Sequence[Tile], text: str) -> None:
    """Refuse a 2m-8m tile among `tiles` (what `field` held, written `text`)."""
    for tile in tiles:
        if tile in OUT_OF_PLAY:
            if tile == Tile.M5 and _RED_CHARACTERS.search(text):
                raise InvalidRequestError(
                    f"{field}: 0m, the red five of characters, is not in play in sanma: its red "
                    "fives are 0p and 0s"
                )
            raise InvalidRequestError(
                f"{field}: {tile.mpsz} is not in play in sanma: the 2m-8m are taken out, and "
                "of the characters only 1m and 9m remain"
            )


def _texts(value: str | Sequence[str]) -> str:
    return value if isinstance(value, str) else " ".join(value)


def read_sanma_request(
    hand: str,
    *,
    kita: int = 0,
    seat: str = "E",
    round: str = "E",
    discarder: str | None = None,
    melds: Sequence[str] = (),
    dora: str | Sequence[str] = (),
    ura_dora: str | Sequence[str] = (),
    liable: str | None = None,
    options: Mapping[str, Any] | SanmaOptions | None = None,
    **fields: Any,
) -> RiichiRequest:
    """`score_sanma`'s fields read and checked: riichi's (`read_riichi_request`, whose other
    `fields` these are) and sanma's refusals, before any reading of the tiles is looked at."""
    if isinstance(kita, bool) or not isinstance(kita, int) or not 0 <= kita <= MAX_KITA:
        raise InvalidRequestError(
            f"kita: the North tiles set aside are a whole number from 0 to {MAX_KITA} "
            f"(got {kita!r})"
        )
    for name, text in (("seat", seat), ("round", round), ("discarder", discarder)):
        _seat(name, text)
    _seat("liable", liable)
    rules = options if isinstance(options, SanmaOptions) else read_options(options or {})
    request = read_riichi_request(
        hand,
        seat=seat,
        round=round,
        discarder=discarder,
        melds=melds,
        dora=dora,
        ura_dora=ura_dora,
        liable=liable,
        options=rules,
        kita=kita,
        **fields,
    )
    built = request.hand
    _out_of_play("hand", built.concealed, hand)
    _out_of_play("melds", [tile for meld in built.melds for tile in meld.tiles], _texts(melds))
    _out_of_play("dora", request.dora, _texts(dora))
    _out_of_play("ura_dora", request.ura_dora, _texts(ura_dora))
    for meld in built.melds:
        if meld.kind is MeldKind.CHOW:
            raise NotAWinError(
                f"melds: {meld} is a claimed chow, and sanma has none: a chow may only be "
                "drawn into the concealed hand"
            )
    norths = sum(tile == Tile.NORTH for tile in built.concealed) + sum(
        meld.tiles.count(Tile.NORTH) for meld in built.melds
    )
    if kita and norths + kita > MAX_KITA:
        raise InvalidHandError(
            [
                f"kita: {kita} set aside and {norths} in the hand make {norths + kita} North "
                "tiles; there are four"
            ]
        )
    return request


def score_sanma(hand: str, **fields: Any) -> RiichiResult:
    """Score a sanma hand given as the request's fields (riichi's, and `kita`):
    `read_sanma_request`, then riichi's `score_riichi_request` under sanma's options."""
    return score_riichi_request(read_sanma_request(hand, **fields))

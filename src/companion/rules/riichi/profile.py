"""The `riichi` profile as the calculator, the command line and the HTTP API see it.

Riichi reads a request of its own: the contract's request with `dora`, `ura_dora`, `honba`,
`riichi_sticks` and riichi's events, red fives in the tiles (docs/contract.md). The profile says
so (`reads_own_requests`), and the scorer hands such a request to `score_request` whole; the
engine behind it is `companion.rules.riichi.engine`, whose answer becomes a `RiichiScoreResult`:
the shared result with the fields a riichi hand adds (han, fu and its items, yakuman, the limit,
the call, the deposits).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, ClassVar

from companion.errors import (
    CompanionError,
    InvalidHandError,
    InvalidRequestError,
    NotAWinError,
    TileParseError,
)
from companion.hand import Hand, Meld
from companion.result import MultiResult, ScoreResult
from companion.rules.own_request import RequestShape, waits_answer
from companion.rules.patterns import PatternScore
from companion.rules.profile import Profile
from companion.rules.riichi import yaku as table
from companion.rules.riichi.engine import (
    STRUCTURE,
    RiichiResult,
    RiichiWait,
    in_turn_after,
    riichi_waits,
    score_riichi,
    score_several_riichi,
)
from companion.rules.riichi.facts import RiichiCircumstance
from companion.rules.riichi.options import RiichiOptions, read_options
from companion.rules.riichi.points import RiichiValue
from companion.rules.riichi.tiles import read_red_fives
from companion.shapes import waits
from companion.tiles import Tile, Wind, parse_tile, parse_tiles

FIELDS = frozenset(
    {
        "profile",
        "hand",
        "win_tile",
        "melds",
        "win",
        "seat",
        "round",
        "discarder",
        "dora",
        "ura_dora",
        "events",
        "honba",
        "riichi_sticks",
        "liable",
        "options",
    }
)
"""The request fields a riichi hand reads (docs/contract.md)."""
REFUSED_FIELDS = {
    "dealer": "East is always the dealer in riichi: the field is not read",
    "dealer_streak": "riichi counts repeats as honba: use honba",
    "table_discards": "riichi has no early-win count: use the events heavenly, earthly, renhou",
    "flower_win": "riichi has no flowers",
}
"""Fields of the other profiles a riichi request may not carry, and why."""
MAX_COUNTERS = 1000
"""The most honba or deposits a request may carry: far beyond any table, and a payment that
stays small."""


class RiichiScoreResult(ScoreResult):
    """A scored riichi hand: the shared result (`tai` holds the han, `payments` every seat's
    net change) and the engine's answer whole (`riichi`), which the JSON adds."""

    riichi: RiichiResult
    winning_tile: Tile

    @property
    def groups(self) -> tuple[str, ...]:
        return self.riichi.groups

    def to_json(self) -> dict[str, Any]:
        riichi = self.riichi
        payments = riichi.payments
        winner = self.winner
        assert winner is not None
        data: dict[str, Any] = {
            "valid": True,
            "profile": self.profile,
            "unit": "han",
            "han": riichi.han,
            "fu": riichi.fu,
            "fu_items": [item.to_json() for item in riichi.fu_items],
            "yakuman": riichi.yakuman,
            "limit": riichi.limit,
            "call": riichi.call,
            "patterns": [score.to_json() for score in riichi.patterns],
            "groups": list(riichi.groups),
            "waits": [tile.mpsz for tile in self.waits],
            "payments": {wind.value: payments[wind] for wind in Wind},
            "deposits": riichi.deposits,
            "notes": list(self.notes),
            "winner": winner.value,
            "transfers": [
                {"from": seat.value, "to": winner.value, "amount": -amount}
                for seat, amount in payments.items()
                if amount < 0
            ],
        }
        return data


class RiichiProfile(Profile[RiichiOptions, RiichiValue]):
    """Japanese riichi: its own request, its own engine, the shared result."""

    id = "riichi"
    name = "Riichi (Japanese)"
    family: ClassVar[str] = "riichi"
    structure = STRUCTURE
    patterns = (*table.YAKU, *table.YAKUMAN, *[entry.listed for entry in table.OPTIONAL_YAKU])
    options_type = RiichiOptions
    several_winners = True
    unit = "han"
    pay_for_all = True
    reads_own_requests: ClassVar[bool] = True
    bonus_tiles: ClassVar[bool] = False
    points_game: ClassVar[bool] = True
    event_names: ClassVar[tuple[str, ...]] = tuple(event.value for event in RiichiCircumstance)
    request_fields: ClassVar[tuple[str, ...]] = ("dora", "ura_dora", "honba", "riichi_sticks")

    # What a variant of riichi on other tiles or seats (`sanma`) gives of its own: its request
    # read into fields (`read_fields`), its scorer of those fields (`score_fields`) and its
    # reader of options (`read_options`). Riichi's own are these.

    def read_options(self, data: Mapping[str, Any]) -> RiichiOptions:
        return read_options(data)

    def read_fields(self, data: Any) -> dict[str, Any]:
        """A request's fields as `score_fields` takes them, their types checked."""
        return read_request(data)

    def score_fields(self, hand: str, **fields: Any) -> RiichiResult:
        """Score a hand given as the request's fields (`score_riichi`)."""
        return score_riichi(hand, **fields)

    # -- one hand --------------------------------------------------------------------------

    def score_request(self, data: Mapping[str, Any]) -> ScoreResult:
        """Score a riichi request (a JSON object); `InvalidRequestError` when it is not
        well-formed, a result with `valid` false when it is no win."""
        fields = self.read_fields(data)
        try:
            return self._result(self.score_fields(**fields), fields)
        except (NotAWinError, InvalidHandError, TileParseError) as refusal:
            return refused(refusal, self.id)

    def _result(self, found: RiichiResult, fields: Mapping[str, Any]) -> RiichiScoreResult:
        winner = Wind.parse(fields.get("seat", "E"))
        result = RiichiScoreResult(
            True,
            self.id,
            tai=found.han,
            raw_tai=found.han,
            meets_minimum=True,
            payments={wind: Fraction(found.payments[wind]) for wind in Wind},
            winner=winner,
            unit="han",
            found_waits=lambda: _waits_of(fields),
        )
        result.__dict__["riichi"] = found
        result.__dict__["patterns"] = tuple(
            PatternScore(
                score.id, score.name, score.yakuman or score.han, score.count, (), _kind(score)
            )
            for score in found.patterns
        )
        return result

    # -- several winners on one discard ----------------------------------------------------

    def score_several_requests(self, requests: Sequence[Any]) -> MultiResult:
        """Every winner of one discard (a list of riichi requests, each a discard win from the
        same discarder, sharing `round`, `dora`, `ura_dora`, `honba`, `riichi_sticks` and
        `options`), as `score_several_riichi` settles them: in turn after the discarder, the
        honba and the deposits to the first, and with `head_bump` the first alone."""
        readings = [self.read_fields(request) for request in requests]
        first = readings[0]
        discarder = first.get("discarder")
        if first.get("win") != "discard" or discarder is None:
            raise InvalidRequestError(
                "several winners share a discard: every request is a discard win"
            )
        shared = ("win", "discarder", "round", "dora", "ura_dora", "honba", "riichi_sticks")
        for name in (*shared, "options"):
            if any(fields.get(name) != first.get(name) for fields in readings):
                raise InvalidRequestError(f"the winners of one discard must agree on {name}")
        payer = Wind.parse(discarder)
        winners = [
            {name: value for name, value in fields.items() if name not in _SHARED_SEVERAL}
            for fields in readings
        ]
        try:
            found = score_several_riichi(
                winners,
                discarder=discarder,
                honba=first.get("honba", 0),
                riichi_sticks=first.get("riichi_sticks", 0),
                options=first.get("options"),
                score=self.score_fields,
                read=self.read_options,
            )
        except (NotAWinError, InvalidHandError, TileParseError) as refusal:
            results = tuple(self.score_request(request) for request in requests)
            named = [
                f"{fields.get('seat', 'E')}: {result.error}"
                for fields, result in zip(readings, results, strict=True)
                if not result.valid
            ]
            return MultiResult(
                False, self.id, payer, results, error="; ".join(named) or refusal.message
            )
        by_seat = {Wind.parse(fields.get("seat", "E")): fields for fields in readings}
        turn = in_turn_after(payer, self.read_options(first.get("options") or {}).seats)
        seats = sorted(by_seat, key=turn.__getitem__)
        results = tuple(
            self._result(result, by_seat[seat]) for seat, result in zip(seats, found, strict=False)
        )
        total = dict.fromkeys(Wind, Fraction(0))
        for result in results:
            for wind, amount in result.payments.items():
                total[wind] += amount
        return MultiResult(True, self.id, payer, results, total)

    # -- a hand one tile short -------------------------------------------------------------

    def waits_request(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """The waits of a riichi hand one tile short and what each scores (the `waits` API)."""
        for name in ("win_tile",):
            if data.get(name) is not None:
                raise InvalidRequestError(f"a hand one tile short has no {name}")
        fields = self.read_fields(data)
        hand = fields.pop("hand", None)
        if hand is None:
            raise InvalidRequestError("hand is required: the concealed tiles, one tile short")
        try:
            found = self.waits_of(hand, fields)
        except (NotAWinError, InvalidHandError, TileParseError) as refusal:
            raise InvalidRequestError(refusal.message) from refusal

        def result_json(wait: Any) -> dict[str, Any]:
            with_tile = {**fields, "hand": hand + wait.tile, "win_tile": wait.tile}
            return self._result(wait.result, with_tile).to_json()

        return waits_answer(self.id, found, result_json)

    def waits_of(self, hand: str, fields: Mapping[str, Any]) -> tuple[RiichiWait, ...]:
        """The waits of `hand` (one tile short) under the request's other `fields`."""
        return riichi_waits(hand, score=self.score_fields, **fields)


_SHARED_SEVERAL = frozenset({"win", "discarder", "honba", "riichi_sticks", "options"})


def _kind(score: Any) -> str | None:
    """A yakuman's pattern score says so in its variant (its `tai` is then the yakuman)."""
    return "yakuman" if score.yakuman else None


def refused(refusal: CompanionError, profile: str = "riichi") -> ScoreResult:
    return ScoreResult(
        False,
        profile,
        error=refusal.message,
        error_key=refusal.key,
        error_params=refusal.params if refusal.key else None,
    )


def _waits_of(fields: Mapping[str, Any]) -> tuple[Tile, ...]:
    """The tiles the hand waited on before its winning tile (a complete hand's `waits`)."""
    hand = read_red_fives(str(fields.get("hand", ""))).text
    tiles = list(parse_tiles(hand))
    win_tile = fields.get("win_tile")
    winning = parse_tile(read_red_fives(win_tile).text) if win_tile else tiles[-1]
    tiles.remove(winning)
    melds = tuple(
        Meld.parse(read_red_fives(text, "melds").text) for text in fields.get("melds", ())
    )
    return waits(Hand.build(tiles, melds, sets=4, complete=False), STRUCTURE)


REQUEST = RequestShape(
    "riichi",
    FIELDS,
    read_options,
    lists=("melds", "dora", "ura_dora", "events"),
    counts={"honba": MAX_COUNTERS, "riichi_sticks": MAX_COUNTERS},
    refused={**REFUSED_FIELDS, "bonus": "riichi has no flowers or animals"},
)
"""A riichi request's fields and their kinds (docs/contract.md, "Riichi")."""


def read_request(data: Any) -> dict[str, Any]:
    """A riichi request's fields as `score_riichi` takes them, their types checked
    (`InvalidRequestError` names the field at fault); tiles and events are the engine's."""
    return REQUEST.read(data)


RIICHI = RiichiProfile()

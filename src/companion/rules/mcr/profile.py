"""The `mcr` profile as the calculator, the command line and the HTTP API see it.

MCR reads a request of its own (`reads_own_requests`: its events `last_copy` and `last_tile`,
no dealer, no pay-for-all), declared in `REQUEST`; the engine behind it is
`companion.rules.mcr.engine`, whose answer becomes a `McrScoreResult`: the shared result with
`tai` holding the fan, `unit` "fan", each fan's value and its Chinese names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar, cast

from companion.context import WinContext
from companion.errors import (
    CompanionError,
    InvalidHandError,
    InvalidRequestError,
    NotAWinError,
    TileParseError,
)
from companion.hand import Hand, Meld
from companion.result import MultiResult, ScoreResult
from companion.rules.mcr.engine import MINIMUM, mcr_waits, score_mcr, settle, wait_kinds
from companion.rules.mcr.facts import McrCircumstance
from companion.rules.mcr.fans import FANS, FLOWER
from companion.rules.mcr.game import GAME_HANDS, check_fan, table_points
from companion.rules.mcr.result import McrResult
from companion.rules.options import Options
from companion.rules.own_request import RequestShape, waits_answer
from companion.rules.patterns import Pattern, PatternScore, Predicate
from companion.rules.profile import CountingProfile, Profile
from companion.rules.value import Count, Shortfall
from companion.settlement import Payments
from companion.shapes import Structure
from companion.tiles import Tile, Wind, parse_tile, parse_tiles


@dataclass(frozen=True)
class McrOptions(Options):
    """MCR's one switch: whether flowers are played (1 fan each, never toward the minimum)."""

    flowers: bool = False

    form_hidden: ClassVar[frozenset[str]] = frozenset({"min_tai", "tai_overrides"})
    """Not offered by a form: the minimum is 8 fan and the fan are the rule book's."""

    def problems(self, pattern_ids: frozenset[str]) -> list[str]:
        problems = super().problems(pattern_ids)
        if self.min_tai:
            problems.append(f"option min_tai: the minimum of mcr is {MINIMUM} fan, never another")
        if self.tai_overrides:
            problems.append("option tai_overrides: the fan of mcr are the rule book's")
        return problems


FIELDS = frozenset(
    {
        "profile",
        "hand",
        "win_tile",
        "melds",
        "bonus",
        "win",
        "seat",
        "round",
        "discarder",
        "events",
        "options",
    }
)
"""The request fields an MCR hand reads (docs/contract.md)."""


def _read_options(data: Mapping[str, Any]) -> McrOptions:
    from companion.rules.options import parse_options

    options = parse_options(McrOptions, data)
    problems = options.problems(frozenset())
    if problems:
        raise InvalidRequestError("; ".join(problems))
    return options


REQUEST = RequestShape(
    "mcr",
    FIELDS,
    _read_options,
    winds=("seat", "round", "discarder"),
    refused={
        "dealer": "mcr has no dealer bonus: the field is not read",
        "dealer_streak": "mcr has no dealer bonus: the deal passes every hand",
        "table_discards": "mcr has no early-win count",
        "flower_win": "mcr has no flower wins",
        "liable": "mcr has no pay-for-all",
    },
)
"""An MCR request's fields and their kinds."""


class McrScoreResult(ScoreResult):
    """A scored MCR hand: the shared result (`tai` the fan, flowers included) and the engine's
    answer whole (`mcr`)."""

    mcr: McrResult

    @property
    def groups(self) -> tuple[str, ...]:
        return self.mcr.groups

    def to_json(self) -> dict[str, Any]:
        data = self.mcr.to_json()
        winner = self.winner
        assert winner is not None
        data["waits"] = [tile.mpsz for tile in self.waits]
        data["winner"] = winner.value
        data["notes"] = list(self.notes)
        short = self.short_of_minimum
        if short is not None:
            data["short_of_minimum"] = short.to_json()
        data["transfers"] = [
            {"from": seat.value, "to": winner.value, "amount": -amount}
            for seat, amount in self.mcr.payments.items()
            if amount < 0
        ]
        return data


def _pattern(fan: Any) -> Pattern:
    """A fan as the profile declares it to the adapters (id, English name, value). The shared
    scorer never runs it: the engine applies the fan and their principles."""
    return Pattern(fan.id, fan.english, fan.value, cast(Predicate, fan.predicate))


class McrProfile(Profile[McrOptions, Count]):
    """The Chinese Official rules: their own request, their own engine, the shared result."""

    id = "mcr"
    name = "MCR (Chinese Official)"
    structure = Structure(sets=4, thirteen_orphans=True, seven_pairs=True)
    patterns = tuple(_pattern(fan) for fan in (*FANS, FLOWER))
    options_type = McrOptions
    unit = "fan"
    reads_own_requests: ClassVar[bool] = True
    table_points: ClassVar[bool] = True
    deal_passes: ClassVar[bool] = True
    game_hands: ClassVar[int | None] = GAME_HANDS
    names_dealer: ClassVar[bool] = False

    # A table's quick entry: the fan agreed without the hand, settled as the engine settles a
    # scored hand (`rules/mcr/game.py`).

    def agreed_minimum(self, options: McrOptions) -> int:
        return MINIMUM

    def agreed_flowers(self, options: McrOptions) -> bool:
        return options.flowers

    def agreed_counts(self, options: McrOptions) -> tuple[int | None, frozenset[int]]:
        return None, frozenset()

    def agreed_value(self, count: int, options: McrOptions) -> Count:
        # A count no hand has (negative, beyond any) is refused as every uncapped profile's.
        value = CountingProfile.agreed_value(cast(Any, self), count, options)
        check_fan(count)
        return value

    def under_minimum(
        self, value: Count, scores: Sequence[PatternScore], options: McrOptions
    ) -> Shortfall | None:
        if value.tai >= MINIMUM:
            return None
        return Shortfall(value.tai, value.tai, MINIMUM, self.unit)

    def settle(self, value: Count, context: WinContext, options: McrOptions) -> Payments:
        paid = settle(value.tai, context.seat, context.discarder, True)
        return {seat: Fraction(amount) for seat, amount in paid.items()}

    def table_points_of(self, scores: Sequence[Fraction]) -> tuple[Fraction, ...]:
        return table_points(scores)

    @property
    def event_names(self) -> tuple[str, ...]:
        return tuple(event.value for event in McrCircumstance)

    def read_options(self, data: Mapping[str, Any]) -> McrOptions:
        return _read_options(data)

    def score_request(self, data: Mapping[str, Any]) -> ScoreResult:
        """Score an MCR request (a JSON object); `InvalidRequestError` when it is not
        well-formed, a result with `valid` false when it is no win."""
        fields = _engine_fields(REQUEST.read(data))
        try:
            return _result(score_mcr(**fields), fields)
        except (NotAWinError, InvalidHandError, TileParseError) as refusal:
            return _refused(refusal)

    def score_several_requests(self, requests: Sequence[Any]) -> MultiResult:
        raise InvalidRequestError("the mcr profile has one winner per discard")

    def waits_request(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """The waits of an MCR hand one tile short and what each scores (the `waits` API)."""
        if data.get("win_tile") is not None:
            raise InvalidRequestError("a hand one tile short has no win_tile")
        fields = _engine_fields(REQUEST.read(data))
        hand = fields.pop("hand")
        try:
            found = mcr_waits(hand, **fields)
        except (NotAWinError, InvalidHandError, TileParseError) as refusal:
            raise InvalidRequestError(refusal.message) from refusal

        def result_json(wait: Any) -> dict[str, Any]:
            with_tile = {**fields, "hand": hand + wait.tile, "win_tile": wait.tile}
            return _result(wait.result, with_tile).to_json()

        return waits_answer(self.id, found, result_json)


def _engine_fields(fields: dict[str, Any]) -> dict[str, Any]:
    """The request's fields as `score_mcr` takes them: the options it reads (`flowers`)."""
    options = fields.pop("options", None)
    if options is not None:
        fields["options"] = {"flowers": _read_options(options).flowers}
    return fields


def _shortfall(found: McrResult) -> Shortfall | None:
    """How a hand under 8 fan falls short: flowers are fan of the hand, never toward the
    minimum, so they are the left-out pattern."""
    if found.meets_minimum:
        return None
    left_out = ((FLOWER.id, FLOWER.english),) if found.flowers else ()
    return Shortfall(found.fan - found.flowers, found.fan, MINIMUM, "fan", left_out)


def _result(found: McrResult, fields: Mapping[str, Any]) -> McrScoreResult:
    short = _shortfall(found)
    result = McrScoreResult(
        True,
        "mcr",
        tai=found.fan,
        raw_tai=found.fan,
        meets_minimum=found.meets_minimum,
        patterns=tuple(
            PatternScore(score.id, score.name, score.fan, score.count, score.items)
            for score in found.patterns
        ),
        payments={wind: Fraction(found.payments[wind]) for wind in Wind},
        winner=Wind.parse(fields.get("seat", "E")),
        unit="fan",
        found_waits=lambda: _waits_of(fields),
        notes=() if short is None else (short.note,),
        short_of_minimum=short,
    )
    result.__dict__["mcr"] = found
    return result


def _refused(refusal: CompanionError) -> ScoreResult:
    return ScoreResult(
        False,
        "mcr",
        error=refusal.message,
        error_key=refusal.key,
        error_params=refusal.params if refusal.key else None,
        unit="fan",
    )


def _waits_of(fields: Mapping[str, Any]) -> tuple[Tile, ...]:
    """The kinds the hand waited on before its winning tile (a kind whose four copies the hand
    holds is none)."""
    tiles = list(parse_tiles(str(fields.get("hand", ""))))
    win_tile = fields.get("win_tile")
    tiles.remove(parse_tile(win_tile) if win_tile else tiles[-1])
    melds = tuple(Meld.parse(text) for text in fields.get("melds", ()))
    return wait_kinds(Hand.build(tiles, melds, sets=4, complete=False))


MCR = McrProfile()

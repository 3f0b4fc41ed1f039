"""The scoring request (docs/contract.md), read from JSON-like data into typed values.

Only the shape of the request is checked here (field names, types, known values). Whether the
tiles make a hand and the hand a win is the engine's business, reported as `valid: false`.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import Enum
from typing import Any, TypeVar

from companion.context import Circumstance, FlowerWin, WinContext, WinType
from companion.errors import InvalidRequestError
from companion.tiles import Wind

MAX_STREAK = 100_000
"""The most hands a dealer may have kept the deal (`dealer_streak`): far beyond any table (the
ledger holds at most 20,000 events), and what keeps dealer tai, and a payment, bounded."""

_E = TypeVar("_E", bound=Enum)


@dataclass(frozen=True, init=False)
class ScoreRequest:
    profile: str = "sg"
    hand: str | None = None
    win_tile: str | None = None
    melds: tuple[str, ...] = ()
    bonus: str = ""
    win: WinType = WinType.SELF_DRAW
    seat: Wind = Wind.EAST
    round: Wind = Wind.EAST
    discarder: Wind | None = None
    dealer: Wind = Wind.EAST
    dealer_streak: int = 0
    table_discards: int | None = None
    events: frozenset[Circumstance] = frozenset()
    flower_win: FlowerWin | None = None
    liable: Wind | None = None
    options: Mapping[str, Any] = field(default_factory=dict)

    def __init__(
        self,
        profile: str = "sg",
        hand: str | None = None,
        win_tile: str | None = None,
        melds: tuple[str, ...] = (),
        bonus: str = "",
        win: WinType = WinType.SELF_DRAW,
        seat: Wind = Wind.EAST,
        round: Wind = Wind.EAST,
        discarder: Wind | None = None,
        dealer: Wind = Wind.EAST,
        dealer_streak: int = 0,
        table_discards: int | None = None,
        events: frozenset[Circumstance] = frozenset(),
        flower_win: FlowerWin | None = None,
        liable: Wind | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        # One update of the instance's dict rather than a frozen dataclass's sixteen
        # object.__setattr__ calls (about half of reading a request): one is made per request.
        self.__dict__.update(
            profile=profile,
            hand=hand,
            win_tile=win_tile,
            melds=melds,
            bonus=bonus,
            win=win,
            seat=seat,
            round=round,
            discarder=discarder,
            dealer=dealer,
            dealer_streak=dealer_streak,
            table_discards=table_discards,
            events=events,
            flower_win=flower_win,
            liable=liable,
            options={} if options is None else options,
        )

    @property
    def context(self) -> WinContext:
        """The win's circumstances: the request's fields that `WinContext` has. Equal
        circumstances give the same (immutable) `WinContext`: a table sends the same few."""
        key = _context_values(self)
        if len(self.events) > 1:
            # Equal sets of circumstances may list them in other orders: each keeps its own.
            return WinContext(*key)
        try:
            context = _CONTEXTS.get(key)
        except TypeError:  # a caller's unhashable value: no memo
            return WinContext(*key)
        if context is None:
            if len(_CONTEXTS) >= _MAX_CONTEXTS:
                _CONTEXTS.clear()
            context = _CONTEXTS[key] = WinContext(*key)
        return context

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"profile": self.profile}
        if self.hand is not None:
            data["hand"] = self.hand
        if self.win_tile is not None:
            data["win_tile"] = self.win_tile
        if self.melds:
            data["melds"] = list(self.melds)
        if self.bonus:
            data["bonus"] = self.bonus
        data["win"] = self.win.value
        data["seat"] = self.seat.value
        data["round"] = self.round.value
        for name in ("discarder", "liable"):
            wind = getattr(self, name)
            if wind is not None:
                data[name] = wind.value
        data["dealer"] = self.dealer.value
        data["dealer_streak"] = self.dealer_streak
        if self.table_discards is not None:
            data["table_discards"] = self.table_discards
        if self.events:
            data["events"] = sorted(circumstance.value for circumstance in self.events)
        if self.flower_win is not None:
            data["flower_win"] = self.flower_win.value
        if self.options:
            data["options"] = dict(self.options)
        return data


FIELDS = frozenset(ScoreRequest.__dataclass_fields__)
_CONTEXT_FIELDS = tuple(
    "events" if field.name == "circumstances" else field.name
    for field in fields(WinContext)
    if field.init
)
"""The request's fields that make its `WinContext`, in the order of the context's fields: the
same names, but for the circumstances, which the request holds as its `events` field."""
_context_values = operator.attrgetter(*_CONTEXT_FIELDS)
"""A request's values of `WinContext`'s fields, in their order: its positional arguments."""
_CONTEXTS: dict[tuple[Any, ...], WinContext] = {}
_MAX_CONTEXTS = 4096
"""Past this many different circumstances the memo is forgotten and made again."""


def parse_request(data: Any) -> ScoreRequest:
    """A `ScoreRequest` from decoded JSON; `InvalidRequestError` names the field at fault."""
    if isinstance(data, ScoreRequest):
        return data
    if not isinstance(data, Mapping):
        raise InvalidRequestError("a scoring request must be a JSON object")
    unknown = [] if FIELDS.issuperset(data) else sorted(str(k) for k in data if k not in FIELDS)
    if unknown:
        raise InvalidRequestError(
            f"unknown field {', '.join(repr(k) for k in unknown)}: the request fields are "
            + ", ".join(sorted(FIELDS))
        )
    get = data.get
    # Read in this order, so that of several faults the same one is named as ever. A value of
    # None is the field left out.
    flower_win = _optional_enum(get("flower_win"), "flower_win", FlowerWin)
    profile = _string(get("profile"), "profile") or "sg"
    hand = _string(get("hand"), "hand")
    win_tile = _string(get("win_tile"), "win_tile")
    melds = _melds(get("melds"))
    bonus = _bonus(get("bonus"))
    win = _optional_enum(get("win"), "win", WinType)
    if win is None:
        win = WinType.DISCARD if flower_win is FlowerWin.SEVEN_CAPTURE else WinType.SELF_DRAW
    return ScoreRequest(
        profile,
        hand,
        win_tile,
        melds,
        bonus,
        win,
        _wind(get("seat"), "seat") or Wind.EAST,
        _wind(get("round"), "round") or Wind.EAST,
        _wind(get("discarder"), "discarder"),
        _wind(get("dealer"), "dealer") or Wind.EAST,
        _count(get("dealer_streak"), "dealer_streak", MAX_STREAK) or 0,
        _count(get("table_discards"), "table_discards"),
        _events(get("events")),
        flower_win,
        _wind(get("liable"), "liable"),
        _options(get("options")),
    )


def _string(value: Any, name: str) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise InvalidRequestError(f"{name} must be a string")


def _melds(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise InvalidRequestError('melds must be a list of groups such as "pung 777z"')
    return tuple(value)


def _bonus(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return " ".join(value)
    if not isinstance(value, str):
        raise InvalidRequestError('bonus must be a string of tiles such as "1f5f"')
    return value


_MEMBERS: dict[type[Enum], dict[str, Any]] = {
    kind: {member.value: member for member in kind} for kind in (WinType, FlowerWin, Circumstance)
}
"""Each request enum's members by their text, for looking a value up at once."""


def _optional_enum(value: Any, name: str, kind: type[_E]) -> _E | None:
    if value is None:
        return None
    if isinstance(value, str):
        member: _E | None = _MEMBERS[kind].get(value)
        if member is not None:
            return member
    known = ", ".join(str(member.value) for member in kind)
    raise InvalidRequestError(f"unknown {name} {value!r}: use one of {known}")


_WIND_LETTERS = {wind.value: wind for wind in Wind}
"""The winds as a request mostly writes them: `E`, `S`, `W`, `N`."""


def _wind(value: Any, name: str) -> Wind | None:
    if value is None:
        return None
    if isinstance(value, str):
        wind = _WIND_LETTERS.get(value) or Wind.from_letter(value)
        if wind is not None:
            return wind
    raise InvalidRequestError(f"{name} must be a wind: E, S, W or N (got {value!r})")


def _count(value: Any, name: str, most: int | None = None) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidRequestError(f"{name} must be a whole number")
    if value < 0:
        raise InvalidRequestError(f"{name} cannot be negative", key=f"refusal.{name}_negative")
    if most is not None and value > most:
        raise InvalidRequestError(f"{name} can be at most {most:,}", key=f"refusal.{name}_at_most")
    return value


def _events(value: Any) -> frozenset[Circumstance]:
    """The field `events`: the circumstances of the win, by name."""
    if value is None:
        return frozenset()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        raise InvalidRequestError("events must be a list")
    members = _MEMBERS[Circumstance]
    circumstances: set[Circumstance] = set()
    for item in value:
        circumstance = members.get(item) if isinstance(item, str) else None
        if circumstance is None:
            known = ", ".join(member.value for member in Circumstance)
            raise InvalidRequestError(f"unknown event {item!r}: use any of {known}")
        circumstances.add(circumstance)
    return frozenset(circumstances)


def _options(value: Any) -> Mapping[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise InvalidRequestError("options must be an object of option names and values")
    return dict(value)

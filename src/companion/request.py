"""The scoring request (docs/contract.md), read from JSON-like data into typed values.

Only the shape of the request is checked here (field names, types, known values). Whether the
tiles make a hand and the hand a win is the engine's business, reported as `valid: false`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import Enum
from typing import Any, TypeVar

from companion.context import Event, FlowerWin, WinContext, WinType
from companion.errors import InvalidRequestError
from companion.tiles import Wind

_E = TypeVar("_E", bound=Enum)


@dataclass(frozen=True)
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
    events: frozenset[Event] = frozenset()
    flower_win: FlowerWin | None = None
    liable: Wind | None = None
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def context(self) -> WinContext:
        """The win's circumstances: the request's fields that `WinContext` has."""
        return WinContext(**{name: getattr(self, name) for name in _CONTEXT_FIELDS})

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
            data["events"] = sorted(event.value for event in self.events)
        if self.flower_win is not None:
            data["flower_win"] = self.flower_win.value
        if self.options:
            data["options"] = dict(self.options)
        return data


FIELDS = frozenset(ScoreRequest.__dataclass_fields__)
_CONTEXT_FIELDS = tuple(field.name for field in fields(WinContext) if field.init)


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
    flower_win = _optional_enum(data, "flower_win", FlowerWin)
    default_win = WinType.DISCARD if flower_win is FlowerWin.SEVEN_CAPTURE else WinType.SELF_DRAW
    return ScoreRequest(
        profile=_string(data, "profile") or "sg",
        hand=_string(data, "hand"),
        win_tile=_string(data, "win_tile"),
        melds=_melds(data),
        bonus=_bonus(data),
        win=_optional_enum(data, "win", WinType) or default_win,
        seat=_wind(data, "seat") or Wind.EAST,
        round=_wind(data, "round") or Wind.EAST,
        discarder=_wind(data, "discarder"),
        dealer=_wind(data, "dealer") or Wind.EAST,
        dealer_streak=_count(data, "dealer_streak") or 0,
        table_discards=_count(data, "table_discards"),
        events=_events(data),
        flower_win=flower_win,
        liable=_wind(data, "liable"),
        options=_options(data),
    )


def _string(data: Mapping[str, Any], name: str) -> str | None:
    value = data.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidRequestError(f"{name} must be a string")
    return value


def _melds(data: Mapping[str, Any]) -> tuple[str, ...]:
    value = data.get("melds")
    if value is None:
        return ()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise InvalidRequestError('melds must be a list of groups such as "pung 777z"')
    return tuple(value)


def _bonus(data: Mapping[str, Any]) -> str:
    value = data.get("bonus")
    if value is None:
        return ""
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return " ".join(value)
    if not isinstance(value, str):
        raise InvalidRequestError('bonus must be a string of tiles such as "1f5f"')
    return value


def _optional_enum(data: Mapping[str, Any], name: str, kind: type[_E]) -> _E | None:
    value = data.get(name)
    if value is None:
        return None
    if isinstance(value, str):
        for member in kind:
            if member.value == value:
                return member
    known = ", ".join(str(member.value) for member in kind)
    raise InvalidRequestError(f"unknown {name} {value!r}: use one of {known}")


def _wind(data: Mapping[str, Any], name: str) -> Wind | None:
    value = data.get(name)
    if value is None:
        return None
    wind = Wind.from_letter(value) if isinstance(value, str) else None
    if wind is not None:
        return wind
    raise InvalidRequestError(f"{name} must be a wind: E, S, W or N (got {value!r})")


def _count(data: Mapping[str, Any], name: str) -> int | None:
    value = data.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidRequestError(f"{name} must be a whole number")
    if value < 0:
        raise InvalidRequestError(f"{name} cannot be negative")
    return value


def _events(data: Mapping[str, Any]) -> frozenset[Event]:
    value = data.get("events")
    if value is None:
        return frozenset()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        raise InvalidRequestError("events must be a list")
    events: set[Event] = set()
    for item in value:
        for event in Event:
            if event.value == item:
                events.add(event)
                break
        else:
            known = ", ".join(event.value for event in Event)
            raise InvalidRequestError(f"unknown event {item!r}: use any of {known}")
    return frozenset(events)


def _options(data: Mapping[str, Any]) -> Mapping[str, Any]:
    value = data.get("options")
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise InvalidRequestError("options must be an object of option names and values")
    return dict(value)

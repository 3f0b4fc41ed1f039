"""The faster reading of a scoring request against the former one.

`parse_request` looks enum values up by their text, skips the fields left out, and makes
`ScoreRequest` with one update of its dict; `ScoreRequest.context` gives equal circumstances the
same `WinContext` (docs/performance.md, the HTTP section). The former reading is kept here, as it
was, and both read the same seeded requests of every profile, and requests with wrong values of
every kind: the same `ScoreRequest` (its repr too, which shows each value's type), or the same
refusal.

The body of a request is read by orjson first (`json_body`), by the standard decoder
(`decode_json`, the former reading) whenever the two could differ: both read any JSON and any
bytes to the same value (its repr) or the same refusal.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from enum import Enum
from typing import Any, TypeVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.api.scoring import decode_json, json_body
from companion.context import Circumstance, FlowerWin, WinContext, WinType
from companion.errors import CompanionError, InvalidRequestError
from companion.request import FIELDS, ScoreRequest, parse_request
from companion.tiles import Wind
from test_seeded_hands import PROFILES, random_request

_E = TypeVar("_E", bound=Enum)


def former_parse_request(data: Any) -> ScoreRequest:
    """`parse_request` as it was before its faster reading."""
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


def _events(data: Mapping[str, Any]) -> frozenset[Circumstance]:
    value = data.get("events")
    if value is None:
        return frozenset()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        raise InvalidRequestError("events must be a list")
    circumstances: set[Circumstance] = set()
    for item in value:
        for circumstance in Circumstance:
            if circumstance.value == item:
                circumstances.add(circumstance)
                break
        else:
            known = ", ".join(circumstance.value for circumstance in Circumstance)
            raise InvalidRequestError(f"unknown event {item!r}: use any of {known}")
    return frozenset(circumstances)


def _options(data: Mapping[str, Any]) -> Mapping[str, Any]:
    value = data.get("options")
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise InvalidRequestError("options must be an object of option names and values")
    return dict(value)


def _read(parse: Any, data: Any) -> str:
    try:
        request = parse(data)
    except InvalidRequestError as error:
        return f"refused: {error.message}"
    return repr(request)


@pytest.mark.parametrize("profile", PROFILES)
def test_seeded_requests_are_read_as_before(profile: str) -> None:
    rng = random.Random(f"http-requests-{profile}")
    for _ in range(2000):
        request = random_request(rng, profile)
        ours, theirs = parse_request(request), former_parse_request(request)
        assert ours == theirs
        assert repr(ours) == repr(theirs)
        assert ours.context == theirs.context
        # The request's `events` are the context's circumstances.
        made = {"circumstances" if n == "events" else n: getattr(theirs, n) for n in _NAMES}
        assert repr(ours.context) == repr(WinContext(**made))


_NAMES = ("win", "seat", "round", "discarder", "dealer", "dealer_streak", "table_discards",
          "events", "flower_win", "liable")  # fmt: skip
_TEXTS = st.sampled_from(
    ["", "E", "s", " W ", "n", "X", "east", "1z", "sg", "tw", "hk", "123m", "pung 777z",
     "discard", "self_draw", "seven_capture", "eight", "replacement", "last_tile", "heavenly",
     "Discard", "1f", "\ud800"]
)  # fmt: skip
_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.floats(allow_nan=True) | _TEXTS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXTS, inner, max_size=2),
    max_leaves=5,
)
_NAMES_SENT = st.sampled_from([*sorted(FIELDS), "extra", "Hand"])


@given(st.dictionaries(_NAMES_SENT, _VALUES, max_size=6))
def test_any_request_is_read_or_refused_as_before(data: dict[str, Any]) -> None:
    assert _read(parse_request, data) == _read(former_parse_request, data)


@pytest.mark.parametrize(
    "data",
    [None, [], "sg", 3, {"events": "heavenly"}, {"events": ["heavenly", "heavenly"]},
     {"events": [["heavenly"]]}, {"events": [{"a": 1}]}, {"melds": "pung 777z"},
     {"bonus": ["1f", "2f"]}, {"bonus": ["1f", 2]}, {"win": "discard", "flower_win": "x"},
     {"flower_win": "seven_capture"}, {"flower_win": "seven_capture", "win": "self_draw"},
     {"profile": ""}, {"seat": " s "}, {"seat": "South"}, {"dealer_streak": True},
     {"dealer_streak": -1, "table_discards": "3"}, {"options": []}, {"options": {"a": 1}},
     {"zz": 1, "aa": 2}, {1: 2}],
)  # fmt: skip
def test_odd_requests_are_read_or_refused_as_before(data: Any) -> None:
    assert _read(parse_request, data) == _read(former_parse_request, data)


def test_equal_circumstances_share_one_context() -> None:
    first = parse_request({"hand": "123m", "seat": "S", "events": ["last_tile"]})
    second = parse_request({"hand": "456p", "seat": "S", "events": ["last_tile"]})
    assert first.context is second.context
    assert first.context != parse_request({"hand": "123m", "seat": "W"}).context
    # A set of circumstances (not the frozenset a request holds) still makes a context.
    odd = ScoreRequest(events={Circumstance.LAST_TILE})  # type: ignore[arg-type]
    assert odd.context.circumstances == {Circumstance.LAST_TILE}


# --- The body: orjson first, the standard decoder whenever the two could differ ---------------


def _body_outcome(read: Any, body: bytes) -> str:
    try:
        data = read(body)
    except CompanionError as error:
        return (
            f"refused {type(error).__name__} {getattr(error, 'http_status', 422)}: {error.message}"
        )
    return f"read {data!r}"


_JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.sampled_from([2**53, -(2**53), 2**53 + 1, 2**63, 2**64, -(2**63) - 1, 10**30])
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=6)
    | st.sampled_from(["\ud800", "a\udc00", "😀", "é", "\x00", "\x7f"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=12,
)


@given(_JSON_VALUES, st.booleans(), st.booleans())
def test_any_json_body_is_read_as_the_standard_decoder_reads_it(
    value: Any, ascii_only: bool, spaced: bool
) -> None:
    separators = (", ", ": ") if spaced else (",", ":")
    text = json.dumps(value, ensure_ascii=ascii_only, separators=separators)
    body = text.encode("utf-8", errors="surrogatepass")
    assert _body_outcome(json_body, body) == _body_outcome(decode_json, body)


@given(st.binary(max_size=40))
def test_any_bytes_are_read_or_refused_as_before(body: bytes) -> None:
    assert _body_outcome(json_body, body) == _body_outcome(decode_json, body)


def _nested(depth: int, inner: str) -> bytes:
    return ("[" * depth + inner + "]" * depth).encode()


@pytest.mark.parametrize(
    "body",
    [b"", b"  ", b"\xef\xbb\xbf{}", b'{"a":1,"a":2}', b"1e400", b"NaN", b"-Infinity",
     b"123456789012345678901234567890", b"18446744073709551616", b"9007199254740993",
     b"-9007199254740992", b'"\\ud800"', b'"\xed\xa0\x80"', b'"\x01"', b"-0", b"-0.0",
     b"1.0", b"0.1000000000000000055511151231257827", b"[1,]", b"01", b'{"a":1}x',
     _nested(8, "1"), _nested(9, "1"), _nested(8, "[]"), _nested(9, "[]"), _nested(8, '"a"'),
     _nested(9, '"a"'), _nested(8, "{}"), _nested(9, "{}"), _nested(2000, ""),
     b'{"hand": "123m456p55s", "melds": ["pung 777z"], "options": {"min_tai": 1}}'],
)  # fmt: skip
def test_odd_bodies_are_read_or_refused_as_before(body: bytes) -> None:
    assert _body_outcome(json_body, body) == _body_outcome(decode_json, body)

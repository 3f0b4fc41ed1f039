"""`POST /api/score`, `POST /api/waits`, `GET /api/profiles`: thin adapters over the engine."""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Mapping
from typing import Any

import orjson
from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect

from companion.api.profiles import all_profiles
from companion.api.schemas import (
    ERROR_RESPONSES,
    WAITS_ERROR_RESPONSES,
    ProfileDoc,
    ScoreRequestDoc,
    ScoreResultDoc,
    WaitsRequestDoc,
    WaitsResultDoc,
    inline_schema,
)
from companion.errors import CompanionError, InvalidRequestError
from companion.hand import Hand, parse_hand
from companion.request import ScoreRequest, parse_request
from companion.rules import get_profile
from companion.rules.profile import AnyProfile
from companion.scoring import own_reader, score, score_json, waits_json
from companion.shapes import Structure, waits

router = APIRouter(prefix="/api", tags=["scoring"])

MAX_DEPTH = 8
"""How deeply a request's JSON may nest (a scoring request needs 3)."""
MAX_NUMBER = 2**53
"""The largest whole number a request may hold."""
TOO_DEEP = "the request is nested too deeply"
TOO_LARGE = "a number in the request is too large"


_ORJSON_OPTIONS = (
    orjson.OPT_PASSTHROUGH_SUBCLASS
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_DATETIME
)
"""Types beyond JSON's own (a subclass of str or int, a dataclass, a date) make orjson refuse, so
that the standard encoder decides what to do with them, as it did before."""
_DIGITS = frozenset(b"0123456789")


def _written_otherwise(body: bytes) -> bool:
    """Whether orjson's bytes could differ from `json.dumps`'s: a float below 1e-4 (orjson
    writes `0.00001` and `1.5e-7`, `json.dumps` `1e-05` and `1.5e-07`), or NaN or infinity (orjson
    writes `null`, `json.dumps` refuses them). Every other float, and every string, integer, list
    and object, comes out in the same bytes (tests/test_api_scoring.py compares them). A scoring
    result holds none of these (its amounts are exact, and it leaves out what it has not got).
    Substring searches: a regular expression took longer than orjson's writing."""
    if b"null" in body or b"0.0000" in body:
        return True
    at = body.find(b"e-")
    while at > 0:
        if body[at - 1] in _DIGITS:
            return True
        at = body.find(b"e-", at + 2)
    return False


def encode_json(content: Any) -> bytes:
    """`content` in the very bytes `JSONResponse` sends (`json.dumps`, compact, UTF-8), written by
    orjson, which is about 20 times faster on a scoring result. Where orjson would write
    something else (see `_written_otherwise`), or refuses (text that is not Unicode, a number
    beyond 64 bits, a key that is not text), the standard encoder writes it, or fails as it did
    before. (orjson also writes what `json.dumps` refuses, an enum or a UUID: results hold none.)"""
    try:
        body = orjson.dumps(content, option=_ORJSON_OPTIONS)
    except orjson.JSONEncodeError:
        return _encode_standard(content)
    if _written_otherwise(body):
        return _encode_standard(content)
    return body


def _encode_standard(content: Any) -> bytes:
    return json.dumps(
        content, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")
    ).encode("utf-8")


def json_response(content: Any) -> Response:
    """A 200 JSON response, with the headers `JSONResponse` gives it."""
    return _JSONBody(encode_json(content))


class _JSONBody(Response):
    """`Response(body, media_type="application/json")` made directly: the same status, body
    and headers in the same order (content-length, content-type), without the general
    constructor's steps (render, header checks), which cost more than the fields."""

    media_type = "application/json"

    def __init__(self, body: bytes) -> None:
        self.status_code = 200
        self.background = None
        self.body = body
        self.raw_headers = [
            (b"content-length", str(len(body)).encode("latin-1")),
            (b"content-type", b"application/json"),
        ]


class BadJSONError(CompanionError):
    """The body is not JSON (400)."""

    http_status = 400


class NotJSONError(CompanionError):
    """The body was not sent as JSON (415)."""

    http_status = 415


async def read_json(request: Request) -> Any:
    """The request body as JSON, refused when it is not JSON or holds unreasonable values."""
    content_type = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if content_type != "application/json" and not content_type.endswith("+json"):
        raise NotJSONError("send the request as JSON, with Content-Type: application/json")
    return json_body(await request_body(request))


async def request_body(request: Request) -> bytes:
    """What `await request.body()` reads, without its async generator, which cost more than
    the rest of reading a scoring request's body (about 10 us)."""
    chunks: list[bytes] = []
    while True:
        message = await request.receive()
        if message["type"] == "http.request":
            chunk = message.get("body", b"")
            if chunk:
                chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)
        elif message["type"] == "http.disconnect":
            raise ClientDisconnect


def json_body(body: bytes) -> Any:
    """A request's body as JSON, refused as `read_json` says. orjson reads it first, about
    four times faster than the standard decoder, whose reading decides whenever the two
    could differ."""
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError:
        return decode_json(body)  # not JSON, or beyond what orjson reads: the refusal, or not
    # Values orjson reads as the standard decoder does, and check_values allows: most
    # requests. Anything else (a float, a number or a nesting beyond the limits) is read
    # again the standard way, which makes it the same value or refuses it in the same words.
    if _plain(data):
        return data
    return decode_json(body)


def decode_json(body: bytes) -> Any:
    """`body` read by the standard decoder and checked (`check_values`), refused with the
    status and message that tell what is wrong with it."""
    if not body.strip():
        raise BadJSONError("the request body is empty: send a JSON object")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise BadJSONError("the request body is not UTF-8 text") from None
    try:
        data = json.loads(text, parse_int=_bounded_int)
    except json.JSONDecodeError as error:
        # Some of the decoder's messages end in "at" ("Unterminated string starting at"): the
        # place follows once.
        what = error.msg.removesuffix(" at")
        raise BadJSONError(
            f"the request is not valid JSON: {what} at line {error.lineno} column {error.colno}"
        ) from None
    except RecursionError:
        # Well-formed JSON beyond the nesting limit, however far beyond: the same 422 as one
        # level too deep (docs/web.md).
        raise InvalidRequestError(TOO_DEEP) from None
    except ValueError:
        raise BadJSONError("the request is not JSON that Companion can read") from None
    check_values(data)
    return data


def _bounded_int(digits: str) -> int:
    """A JSON integer; one with more digits than 2^53 has (16) is read as 2^53 + 1 without
    `int` reading it (`int` refuses 4,301 digits and more, in time that grows with the square
    of the length): `check_values` then refuses it, in its place among the request's values,
    with the same 422 as a number just beyond, however many digits it has."""
    if len(digits) > 17:
        return -(MAX_NUMBER + 1) if digits[0] == "-" else MAX_NUMBER + 1
    return int(digits)


def _plain(data: Any, depth: int = 0) -> bool:
    """Whether orjson's `data` is what the standard decoder reads from the same bytes, and
    `check_values` allows: objects, lists, text, booleans, null and whole numbers within
    limits. orjson reads a float in its own way, and an integer beyond 64 bits as a float; its
    text is always Unicode (it refuses a lone surrogate escape, which the standard decoder
    reads), so the text check is not needed."""
    kind = type(data)
    if kind is dict or kind is list:
        if depth >= MAX_DEPTH:
            return not data  # what it holds would be nested too deeply
        values = data.values() if kind is dict else data
        return all(type(value) is str or _plain(value, depth + 1) for value in values)
    if depth > MAX_DEPTH:
        return False
    if kind is str or kind is bool or data is None:
        return True
    if kind is int:
        whole: int = data
        return -MAX_NUMBER <= whole <= MAX_NUMBER
    return False


def check_values(data: Any, depth: int = 0) -> None:
    """Refuse deep nesting, numbers beyond 2^53, NaN or infinity, and text that is not
    Unicode (a lone surrogate escape, which no response could echo back) (422)."""
    if depth > MAX_DEPTH:
        raise InvalidRequestError(TOO_DEEP)
    if isinstance(data, str):
        _check_text(data)
        return
    if isinstance(data, bool) or data is None:
        return
    if isinstance(data, int):
        if abs(data) > MAX_NUMBER:
            raise InvalidRequestError(TOO_LARGE)
        return
    if isinstance(data, float):
        if not math.isfinite(data) or abs(data) > MAX_NUMBER:
            raise InvalidRequestError("a number in the request is too large or not a number")
        return
    if isinstance(data, list):
        for item in data:
            check_values(item, depth + 1)
        return
    if isinstance(data, dict):
        for name, value in data.items():
            _check_text(str(name))
            check_values(value, depth + 1)


def _check_text(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidRequestError(
            "the request holds text that is not valid Unicode (a lone surrogate escape)"
        ) from None


@router.post(
    "/score",
    summary="Score a winning hand",
    description="A scoring request in, a result out (docs/contract.md). A hand that is not a "
    'legal win is still a 200, with `"valid": false` and the reason in `error`.',
    response_model=None,
    responses={200: {"model": ScoreResultDoc}, **ERROR_RESPONSES},
    openapi_extra=inline_schema(ScoreRequestDoc),
)
async def score_hand(request: Request) -> Response:
    data = await read_json(request)
    # Scoring a hand is short and bounded (a fraction of a millisecond), so it runs on the event
    # loop: a hop to the thread pool cost more than the scoring itself. Its result is plain JSON
    # already, so it skips FastAPI's encoder, and orjson writes it (bench/load.py,
    # docs/performance.md).
    return json_response(score_json(data))


_WAITS_REFUSED = ("win_tile", "flower_win")


@router.post(
    "/waits",
    summary="The waits of a hand one tile short, and what each would score",
    description="`hand` (with `melds` and `bonus`) is one tile short of a win. The result lists "
    "every tile kind that completes it and, under `scores`, the result of winning on each in the "
    "request's context (`win`, `seat`, `options`...).",
    response_model=None,
    responses={200: {"model": WaitsResultDoc}, **WAITS_ERROR_RESPONSES},
    openapi_extra=inline_schema(WaitsRequestDoc),
)
async def hand_waits(request: Request) -> Response:
    data = await read_json(request)
    if isinstance(data, Mapping) and own_reader(data.get("profile")) is not None:
        # A profile that reads its own requests (riichi) answers the whole of it.
        return json_response(await run_in_threadpool(waits_json, data))
    if isinstance(data, Mapping):
        for name in _WAITS_REFUSED:
            if data.get(name) is not None:
                raise InvalidRequestError(f"a hand one tile short has no {name}")
    parsed = parse_request(data)
    if parsed.hand is None:
        raise InvalidRequestError("hand is required: the concealed tiles, one tile short")
    profile = get_profile(parsed.profile)
    options = profile.parse_options(parsed.options)
    hand = parse_hand(
        parsed.hand,
        parsed.melds,
        parsed.bonus,
        sets=profile.structure.sets,
        complete=False,
    )
    structure = profile.structure_for(options)
    # Every wait is scored, which can take a while: in the thread pool, off the event loop.
    return json_response(
        await run_in_threadpool(_waits_and_scores, parsed, profile, hand, structure)
    )


def _waits_and_scores(
    parsed: ScoreRequest, profile: AnyProfile, hand: Hand, structure: Structure
) -> dict[str, Any]:
    found = waits(hand, structure)
    scores = {
        tile.mpsz: score(
            dataclasses.replace(parsed, hand=f"{parsed.hand} {tile.mpsz}", win_tile=tile.mpsz)
        ).to_json()
        for tile in found
    }
    return {"profile": profile.id, "waits": [tile.mpsz for tile in found], "scores": scores}


@router.get(
    "/profiles",
    summary="The scoring profiles, their options, events and extra fields",
    response_model=None,
    responses={200: {"model": list[ProfileDoc]}},
)
async def list_profiles() -> list[dict[str, Any]]:
    return list(all_profiles())


@router.get("/health", summary="Is Companion up", response_model=None)
async def health() -> dict[str, str]:
    return {"status": "ok"}

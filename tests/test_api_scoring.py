"""`POST /api/score`, `POST /api/waits`, `GET /api/profiles`: the contract over HTTP, and every
refusal a 4xx with a JSON message."""

from __future__ import annotations

import json
import math
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.responses import JSONResponse

from companion.api import create_app
from companion.api.scoring import encode_json
from companion.api.security import SECURITY_HEADERS
from companion.request import FIELDS
from companion.scoring import score
from contract_example import CONTRACT_EXAMPLE


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(), raise_server_exceptions=False)


def post_raw(
    client: TestClient,
    path: str,
    body: bytes,
    content_type: str = "application/json",
    encoding: str = "identity",
):  # type: ignore[no-untyped-def]
    """A request as written; its answer as sent, uncompressed (`encoding`: what it accepts)."""
    headers = {"content-type": content_type, "accept-encoding": encoding}
    return client.post(path, content=body, headers=headers)


# --- /api/score ------------------------------------------------------------------------------


def test_score_is_the_contract_result(client: TestClient) -> None:
    response = client.post("/api/score", json=CONTRACT_EXAMPLE)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    data = response.json()
    assert data == score(CONTRACT_EXAMPLE).to_json()
    assert data["valid"] is True
    assert data["tai"] == 3
    assert data["payments"] == {"E": 16, "S": -8, "W": -4, "N": -4}
    assert {p["id"] for p in data["patterns"]} == {"dragon_set", "seat_flower"}


def test_a_hand_that_is_not_a_win_is_a_200_with_the_reason(client: TestClient) -> None:
    response = client.post("/api/score", json={"hand": "123m456p789s11357z"})
    assert response.status_code == 200
    data = response.json()
    assert data["valid"] is False
    assert "not a winning hand" in data["error"]


def test_tiles_that_cannot_be_read_are_a_result_not_an_error(client: TestClient) -> None:
    data = client.post("/api/score", json={"hand": "123x"}).json()
    assert data["valid"] is False
    assert "unknown tile" in data["error"]


def test_one_tile_short_lists_the_waits(client: TestClient) -> None:
    data = client.post("/api/score", json={"hand": "789m1223333445s"}).json()
    assert data["valid"] is False
    assert data["waits"] == ["6s"]


def test_other_profiles(client: TestClient) -> None:
    tw = client.post(
        "/api/score", json={"profile": "tw", "hand": "123m456m789m123p456p11s", "bonus": "1f"}
    )
    assert tw.status_code == 200
    assert tw.json()["valid"] is True
    assert tw.json()["profile"] == "tw"
    flower = client.post(
        "/api/score", json={"profile": "sg-table", "flower_win": "eight", "bonus": "12345678f"}
    )
    assert flower.status_code == 200
    assert flower.json()["valid"] is True


@pytest.mark.parametrize(
    ("request_data", "words"),
    [
        ({"hand": "123m456p789s11z22z", "colour": "red"}, "unknown field 'colour'"),
        ({"profile": "jp", "hand": "123m"}, 'unknown profile "jp"'),
        ({"hand": 5}, "hand must be a string"),
        ({"hand": "123m456p789s11z22z", "win": "ron"}, "unknown win 'ron'"),
        ({"hand": "123m456p789s11z22z", "seat": "X"}, "seat must be a wind"),
        ({"hand": "123m456p789s11z22z", "win": "discard"}, "needs the discarder"),
        ({"hand": "123m456p789s11z22z", "options": {"min_tai": "two"}}, "whole number"),
        ({"hand": "123m456p789s11z22z", "options": {"colour": 1}}, 'unknown option "colour"'),
        ({"hand": "123m456p789s11z22z", "events": ["lucky"]}, "unknown event 'lucky'"),
        ({"hand": "123m456p789s11z22z", "dealer_streak": -1}, "cannot be negative"),
        ({"hand": "123m456p789s11z22z", "dealer_streak": True}, "whole number"),
        ([1, 2, 3], "must be a JSON object"),
        ("hello", "must be a JSON object"),
        ({"hand": "1m", "table_discards": 2**60}, "too large"),
        ({"hand": "1m", "options": {"share": 1e300}}, "too large"),
    ],
)
def test_a_request_that_is_not_well_formed_is_a_422(
    client: TestClient, request_data: Any, words: str
) -> None:
    response = client.post("/api/score", json=request_data)
    assert response.status_code == 422
    assert words in response.json()["error"]


@pytest.mark.parametrize(
    ("body", "content_type", "status", "words"),
    [
        (b'{"hand": "123m"', "application/json", 400, "not valid JSON"),
        (b"", "application/json", 400, "empty"),
        (b"\xff\xfe{}", "application/json", 400, "UTF-8"),
        (b'{"hand": "123m"}', "text/plain", 415, "Content-Type: application/json"),
        (b"hand=123m", "application/x-www-form-urlencoded", 415, "send the request as JSON"),
        (b'{"hand": NaN}', "application/json", 422, "not a number"),
        (b"[" * 20 + b"]" * 20, "application/json", 422, "nested too deeply"),
        (b"[" * 100_000, "application/json", 413, "larger than 64 KiB"),
    ],
)
def test_a_body_that_is_not_json_is_refused(
    client: TestClient, body: bytes, content_type: str, status: int, words: str
) -> None:
    response = post_raw(client, "/api/score", body, content_type)
    assert response.status_code == status
    assert words in response.json()["error"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        # However far beyond the limits, the same 422 as just beyond (docs/web.md): these were
        # a 400 "not JSON that Companion can read" while 9 levels or 2^53 + 1 were a 422.
        (b"[" * 30_000 + b"]" * 30_000, "the request is nested too deeply"),
        (b"[" * 5000 + b"]" * 5000, "the request is nested too deeply"),
        (b"[" * 10 + b"]" * 10, "the request is nested too deeply"),
        (b'{"n": ' + b"9" * 4301 + b"}", "a number in the request is too large"),
        (b'{"n": -' + b"9" * 5000 + b"}", "a number in the request is too large"),
        (b'{"n": 9007199254740993}', "a number in the request is too large"),
        (b'{"n": 1.5, "m": 12345678901234567}', "a number in the request is too large"),
    ],
)
def test_json_beyond_the_limits_is_a_422_however_far(
    client: TestClient, body: bytes, message: str
) -> None:
    for path in ("/api/score", "/api/waits", "/api/tables"):
        response = post_raw(client, path, body, "application/json")
        assert (response.status_code, response.json()) == (422, {"error": message}), path


def test_a_syntax_error_says_where_once(client: TestClient) -> None:
    response = post_raw(client, "/api/score", b'{"hand": "123m', "application/json")
    assert response.status_code == 400
    assert response.json() == {
        "error": "the request is not valid JSON: Unterminated string starting at line 1 column 10"
    }


def test_a_json_subtype_is_accepted(client: TestClient) -> None:
    response = post_raw(
        client, "/api/score", json.dumps({"hand": "789m1223333445s6s"}).encode(), "text/x+json"
    )
    assert response.status_code == 200
    assert response.json()["valid"] is True


def test_the_wrong_method_is_a_json_405(client: TestClient) -> None:
    response = client.get("/api/score")
    assert response.status_code == 405
    assert "GET is not allowed" in response.json()["error"]


def test_an_unknown_api_path_is_a_json_404(client: TestClient) -> None:
    response = client.get("/api/scores")
    assert response.status_code == 404
    assert response.json() == {"error": "there is nothing at /api/scores"}


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
tile_text = st.text(alphabet="0123456789mpszfa ,", max_size=24)
field_values = st.one_of(
    json_values,
    tile_text,
    st.sampled_from(["E", "S", "W", "N", "self_draw", "discard", "sg", "sg-table", "tw"]),
    st.lists(st.sampled_from(["pung 777z", "chow 123m", "kong 5s", "ckong 1p", "x"]), max_size=4),
)
requests = st.dictionaries(st.sampled_from(sorted(FIELDS)), field_values, max_size=8)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.one_of(requests, json_values))
def test_no_request_makes_a_server_error(client: TestClient, data: Any) -> None:
    for path in ("/api/score", "/api/waits"):
        response = client.post(path, json=data)
        allowed = (415,) if data is None else (200, 400, 422)  # None: no body at all
        assert response.status_code in allowed, response.text
        body = response.json()
        if response.status_code == 200:
            assert "valid" in body or "waits" in body
        else:
            assert isinstance(body["error"], str) and body["error"]


# --- The exact bytes (orjson writes the responses; they must not change) ---------------------

PINNED: list[tuple[str, bytes, int, bytes]] = [
    (
        "/api/score",
        json.dumps(CONTRACT_EXAMPLE).encode(),
        200,
        b'{"valid":true,"profile":"sg","tai":3,"unit":"tai","raw_tai":3,"meets_minimum":true,'
        b'"patterns":[{"id":"seat_flower","name":"Seat flower or season","tai":1,"count":1,'
        b'"earned_by":["1f"]},{"id":"dragon_set","name":"Dragon set","tai":2,"count":2,'
        b'"earned_by":["777z","666z"]}],"groups":["777z","666z","123m","456p","55s"],'
        b'"waits":["5s"],"payments":{"E":16,"S":-8,"W":-4,"N":-4},"notes":[],'
        b'"winning_group":"55s","wait":"pair","winner":"E","transfers":[{"from":"S","to":"E",'
        b'"amount":8},{"from":"W","to":"E","amount":4},{"from":"N","to":"E","amount":4}]}',
    ),
    (
        # Thirds: the longest decimals an amount is written with.
        "/api/score",
        b'{"profile": "tw", "hand": "123m456m789p222s678s5m5m", "options": {"base": "1/3"}}',
        200,
        b'{"valid":true,"profile":"tw","tai":11,"unit":"tai","raw_tai":11,"meets_minimum":true,'
        b'"patterns":[{"id":"winning_hand","name":"Winning hand","tai":2,"count":1,'
        b'"earned_by":["123m","456m","789p","222s","678s","55m"]},{"id":"no_flowers",'
        b'"name":"No flowers","tai":1,"count":1,"earned_by":[]},'
        b'{"id":"fully_concealed_self_draw","name":"Fully concealed self draw","tai":3,"count":1,'
        b'"earned_by":["123m","456m","789p","222s","678s","55m"]},{"id":"pair_wait",'
        b'"name":"Pair wait","tai":1,"count":1,"earned_by":["55m"]},{"id":"no_honors",'
        b'"name":"No honors","tai":1,"count":1,"earned_by":["123m","456m","789p","222s","678s",'
        b'"55m"]},{"id":"no_honors_or_flowers","name":"No honors or flowers","tai":3,"count":1,'
        b'"earned_by":["123m","456m","789p","222s","678s","55m"]}],'
        b'"groups":["123m","456m","789p","222s","678s","55m"],"waits":["5m"],'
        b'"payments":{"E":37,"S":-12.333333333333334,"W":-12.333333333333334,'
        b'"N":-12.333333333333334},"notes":[],"winning_group":"55m","wait":"pair","dealer_tai":1,'
        b'"winner":"E","transfers":[{"from":"S","to":"E","amount":12.333333333333334},'
        b'{"from":"W","to":"E","amount":12.333333333333334},'
        b'{"from":"N","to":"E","amount":12.333333333333334}]}',
    ),
    (
        # Millionths: amounts below 1e-4 are written as Python writes them (1.2e-05), not as
        # orjson would (0.000012).
        "/api/score",
        b'{"hand": "123m456p55s", "melds": ["pung 777z", "pung 666z"],'
        b' "options": {"share": "0.000001"}}',
        200,
        b'{"valid":true,"profile":"sg","tai":2,"unit":"tai","raw_tai":2,"meets_minimum":true,'
        b'"patterns":[{"id":"dragon_set","name":"Dragon set","tai":2,"count":2,'
        b'"earned_by":["777z","666z"]}],"groups":["777z","666z","123m","456p","55s"],'
        b'"waits":["5s"],"payments":{"E":1.2e-05,"S":-4e-06,"W":-4e-06,"N":-4e-06},"notes":[],'
        b'"winning_group":"55s","wait":"pair","winner":"E","transfers":[{"from":"S","to":"E",'
        b'"amount":4e-06},{"from":"W","to":"E","amount":4e-06},{"from":"N","to":"E",'
        b'"amount":4e-06}]}',
    ),
    (
        # Text that is not ASCII goes out as UTF-8, unescaped.
        "/api/score",
        '{"hand": "é1m"}'.encode(),
        200,
        '{"valid":false,"profile":"sg","error":"unknown tile \\"é\\" at position 1",'
        '"error_key":"refusal.unknown_tile","error_params":{"text":"é","position":1}}'.encode(),
    ),
    (
        "/api/score",
        '{"profile": "麻雀"}'.encode(),
        422,
        (
            '{"error":"unknown profile \\"麻雀\\": use one of sg, sg-table, tw, hk, riichi, '
            'sanma, mcr"}'
        ).encode(),
    ),
    (
        "/api/score",
        b'{"hand": ',
        400,
        b'{"error":"the request is not valid JSON: Expecting value at line 1 column 10"}',
    ),
    (
        "/api/waits",
        b'{"hand": "789m1223333445s", "options": {"share": "1/2"}}',
        200,
        b'{"profile":"sg","waits":["6s"],"scores":{"6s":{"valid":true,"profile":"sg","tai":5,'
        b'"unit":"tai","raw_tai":5,"meets_minimum":true,"patterns":[{"id":"ping_hu",'
        b'"name":"Ping Hu","tai":4,"count":1,"earned_by":["789m","123s","234s","456s","33s"]},'
        b'{"id":"fully_concealed","name":"Fully concealed hand","tai":1,"count":1,'
        b'"earned_by":["789m","123s","234s","456s","33s"]}],'
        b'"groups":["789m","123s","234s","456s","33s"],"waits":["6s"],'
        b'"payments":{"E":48,"S":-16,"W":-16,"N":-16},"notes":[],"winning_group":"456s",'
        b'"wait":"two_sided","winner":"E","transfers":[{"from":"S","to":"E","amount":16},'
        b'{"from":"W","to":"E","amount":16},{"from":"N","to":"E","amount":16}]}}}',
    ),
]


@pytest.mark.parametrize(("path", "body", "status", "expected"), PINNED)
def test_the_exact_bytes_and_headers_of_responses(
    client: TestClient, path: str, body: bytes, status: int, expected: bytes
) -> None:
    response = post_raw(client, path, body)
    assert response.status_code == status
    assert response.content == expected
    headers = list(response.headers.raw)
    assert headers[:2] == [
        (b"content-length", str(len(expected)).encode()),
        (b"content-type", b"application/json"),
    ]
    # The module's client keeps its CSRF cookie: only its first response sets one. A body long
    # enough to be compressed for another client says that it varies with Accept-Encoding.
    vary = [(b"vary", b"Accept-Encoding")] if len(expected) >= 500 else []
    assert [item for item in headers[2:] if item[0] != b"set-cookie"] == [
        *SECURITY_HEADERS,
        *vary,
    ]


@pytest.mark.parametrize(("path", "body", "status", "expected"), PINNED)
def test_a_client_that_accepts_gzip_gets_the_same_bytes_compressed(
    client: TestClient, path: str, body: bytes, status: int, expected: bytes
) -> None:
    response = post_raw(client, path, body, encoding="gzip")
    assert (response.status_code, response.content) == (status, expected)  # decoded by httpx
    compressed = len(expected) >= 500  # companion.api.app.COMPRESS_FROM
    assert response.headers.get("content-encoding") == ("gzip" if compressed else None)
    assert ("accept-encoding" in response.headers.get("vary", "").lower()) == compressed
    if compressed:
        assert int(response.headers["content-length"]) < len(expected)


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats()
    | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=500, deadline=None)
@given(JSON_VALUES)
def test_orjson_writes_what_the_standard_encoder_writes(value: Any) -> None:
    # JSONResponse is the reference: the bytes it sends, or the exception it raises (NaN, a
    # lone surrogate). What orjson refuses or writes otherwise (a float below 1e-4, NaN) goes to
    # json.dumps.
    try:
        expected: bytes | type[Exception] = bytes(JSONResponse(value).body)
    except (ValueError, UnicodeEncodeError) as error:
        expected = type(error)
    if isinstance(expected, bytes):
        assert encode_json(value) == expected
    else:
        with pytest.raises(expected):
            encode_json(value)


def test_orjson_writes_every_magnitude_of_float_as_python_does() -> None:
    rng = random.Random(16)
    floats = [
        mantissa * 10.0**exponent
        for exponent in range(-320, 309)
        for mantissa in (1, 1.5, 3.3333333333333335, 9.999999999999998)
        if math.isfinite(mantissa * 10.0**exponent)
    ]
    floats += [rng.uniform(-1, 1) * 10.0 ** rng.randint(-12, 15) for _ in range(20_000)]
    floats += [numerator / denominator for numerator in range(1, 200) for denominator in
               (3, 7, 16, 1000, 10**6, 3 * 10**6)]  # fmt: skip
    for number in floats:
        assert encode_json([number, -number]) == bytes(JSONResponse([number, -number]).body)


def test_score_results_of_every_profile_are_written_as_before() -> None:
    rng = random.Random(6)
    hands = [
        {"hand": "123m456p55s", "melds": ["pung 777z", "pung 666z"], "bonus": "1f"},
        {"hand": "123456789m123p55s", "win": "discard", "discarder": "S"},
        {"hand": "111m222p333s444m77p", "win_tile": "4m"},
        {"profile": "tw", "hand": "123m456m789p222s678s5m5m", "table_discards": 20},
        {"profile": "sg-table", "hand": "19m19p19s1234567z1m", "win": "discard", "discarder": "W"},
        {"profile": "hk", "hand": "111m222p333s444m77p", "win": "discard", "discarder": "N"},
        {"hand": "789m1223333445s"},
        {"hand": "123x"},
    ]
    amounts = ["1", "2", "0.5", "1/3", "1/7", "0.000001", "0.0001", "123456.789", "999999/1000000"]
    option = {"sg": "share", "sg-table": "share", "tw": "base", "hk": "base"}
    for _ in range(400):
        request = dict(rng.choice(hands))
        request["options"] = {option[request.get("profile", "sg")]: rng.choice(amounts)}
        result = score(request).to_json()
        assert encode_json(result) == bytes(JSONResponse(result).body)


# --- /api/waits ------------------------------------------------------------------------------


def test_waits_with_what_each_would_score(client: TestClient) -> None:
    response = client.post("/api/waits", json={"profile": "sg", "hand": "789m1223333445s"})
    assert response.status_code == 200
    data = response.json()
    assert data["profile"] == "sg"
    assert data["waits"] == ["6s"]
    won = data["scores"]["6s"]
    assert won == score({"profile": "sg", "hand": "789m1223333445s 6s", "win_tile": "6s"}).to_json()
    assert won["valid"] is True


def test_waits_are_scored_in_the_request_context(client: TestClient) -> None:
    request = {
        "hand": "123m456p5s",
        "melds": ["pung 777z", "pung 666z"],
        "bonus": "1f",
        "win": "discard",
        "discarder": "S",
        "round": "S",
    }
    data = client.post("/api/waits", json=request).json()
    assert data["waits"] == ["5s"]
    assert data["scores"]["5s"]["tai"] == 3
    assert data["scores"]["5s"]["payments"]["S"] == -8


def test_waits_of_a_many_sided_hand_and_of_taiwan(client: TestClient) -> None:
    nine_gates = client.post("/api/waits", json={"hand": "1112345678999m"}).json()
    assert nine_gates["waits"] == [f"{rank}m" for rank in range(1, 10)]
    assert all(result["valid"] for result in nine_gates["scores"].values())
    tw = client.post("/api/waits", json={"profile": "tw", "hand": "123m456m789m123p456p1s"})
    assert tw.status_code == 200
    assert tw.json()["waits"] == ["1s"]


def test_a_hand_with_no_wait(client: TestClient) -> None:
    data = client.post("/api/waits", json={"hand": "1357m1357p1357s9s"}).json()
    assert data == {"profile": "sg", "waits": [], "scores": {}}


@pytest.mark.parametrize(
    ("request_data", "status", "words"),
    [
        ({"hand": "123m"}, 400, "one tile short of four sets"),
        ({"hand": "789m1223333445sx"}, 400, "unknown tile"),
        ({"hand": "11111m22223333p"}, 400, "1 of characters (1m) appears 5 times"),
        ({}, 422, "hand is required"),
        ({"hand": "789m1223333445s", "win_tile": "6s"}, 422, "no win_tile"),
        ({"hand": "789m1223333445s", "flower_win": "eight"}, 422, "no flower_win"),
        ({"hand": "789m1223333445s", "profile": "jp"}, 422, "unknown profile"),
        ({"hand": "789m1223333445s", "options": {"min_tai": 9}}, 422, "min_tai"),
        ({"hand": ["1m"]}, 422, "hand must be a string"),
        ([], 422, "must be a JSON object"),
    ],
)
def test_waits_refusals(client: TestClient, request_data: Any, status: int, words: str) -> None:
    response = client.post("/api/waits", json=request_data)
    assert response.status_code == status
    assert words in response.json()["error"]


# --- /api/profiles, /api/health, OpenAPI ----------------------------------------------------


def test_profiles_describe_each_profile(client: TestClient) -> None:
    profiles = {profile["id"]: profile for profile in client.get("/api/profiles").json()}
    assert {"sg", "sg-table", "tw"} <= set(profiles)
    sg = profiles["sg"]
    assert sg["sets"] == 4 and sg["tiles"] == 14
    assert {"name": "min_tai", "type": "int", "default": 1} in sg["options"]
    assert "last_discard" not in sg["events"] and "robbing_kong" in sg["events"]
    assert sg["flower_wins"] == [] and sg["fields"] == []
    assert profiles["tw"]["tiles"] == 17
    assert "dealer" in profiles["tw"]["fields"]
    assert profiles["tw"]["animals"] is False
    assert "liable" in profiles["sg-table"]["fields"]
    assert "eight" in profiles["sg-table"]["flower_wins"]
    assert any(p["id"] == "dragon_set" for p in sg["patterns"])


def test_health(client: TestClient) -> None:
    assert client.get("/api/health").json() == {"status": "ok"}


def test_openapi_documents_the_endpoints(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    paths = document["paths"]
    assert {"/api/score", "/api/waits", "/api/profiles"} <= set(paths)
    body = paths["/api/score"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert {"profile", "hand", "melds", "win", "options"} <= set(body["properties"])
    assert "422" in paths["/api/score"]["post"]["responses"]
    assert "/" not in paths and "/docs" not in paths


def test_the_openapi_text_says_which_endpoint_answers_unreadable_tiles_with_400() -> None:
    # /api/score refuses unreadable tiles as a hand (200, valid: false); /api/waits answers 400.
    paths = TestClient(create_app("sqlite:///:memory:")).get("/openapi.json").json()["paths"]
    score_400 = paths["/api/score"]["post"]["responses"]["400"]["description"]
    waits_400 = paths["/api/waits"]["post"]["responses"]["400"]["description"]
    assert score_400 == "the body is not JSON that Companion can read"
    assert waits_400 == "not JSON that Companion can read, or tiles that cannot be read"

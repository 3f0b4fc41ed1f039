"""Hostile input: any JSON value in any field, any string as a hand, through every door.

- Python API: `companion.scoring.score` (and `score_several`) answer a `ScoreResult` or raise a
  `CompanionError` with a message; the result always serialises as the CLI and HTTP API do it.
- Command line: `companion score` with a request on standard input, and `score` / `waits` with
  random arguments, exit 0 or 2; a refusal is one line on standard error, never a traceback.
- HTTP: `/api/score` answers what the Python API answers (the result, or a 422 with its
  message); `/api/waits` and the table endpoints answer one of their documented statuses, with
  the exact message where the contract fixes it (a body that is not JSON, values out of range,
  not an object) and a one-line `{"error": ...}` reason on every other 4xx.

The generators mix arbitrary JSON (`st.recursive`) with field-aware values (tiles from the
MPSZ alphabet and by name, melds, winds, events, options) so that both the parser's refusals and
the engine's deeper paths are reached. docs/reliability.md has the example counts.
"""

from __future__ import annotations

import io
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.api import create_app
from companion.api.limits import RateLimits
from companion.api.scoring import check_values
from companion.api.table_bodies import (
    ENTRY_BODIES,
    Correction,
    CreateTable,
    Recording,
    body_fields,
)
from companion.cli import main
from companion.errors import CompanionError
from companion.request import FIELDS
from companion.scoring import MultiResult, ScoreResult, score, score_json, score_several

SCALE = float(os.environ.get("COMPANION_PROPERTY_SCALE", "1"))
"""Multiplies every example count: `COMPANION_PROPERTY_SCALE=20` is the long run of
docs/reliability.md."""


def examples(count: int) -> int:
    return max(1, round(count * SCALE))


EXAMPLES = settings(
    max_examples=examples(300),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
HTTP_EXAMPLES = settings(EXAMPLES, max_examples=examples(150))

# --- generators ------------------------------------------------------------------------------

# Text a JSON document can carry. Lone surrogates ("\ud800" escapes) are valid JSON syntax but
# not Unicode text; they have their own tests below (see BUGS in docs/reliability.md).
TEXT = st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=24)

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | TEXT
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(TEXT, children, max_size=4),
    max_leaves=12,
)
"""Any JSON value (as Python's json module reads it: NaN and Infinity included)."""

SUITS = "mpsz"
TILE_CODES = [f"{rank}{suit}" for suit in "mps" for rank in range(1, 10)]
TILE_CODES += [f"{rank}z" for rank in range(1, 8)]
TILE_CODES += [f"{rank}f" for rank in range(1, 9)] + [f"{rank}a" for rank in range(1, 5)]
BAD_CODES = ["0m", "8z", "9f", "5a", "10p", "m", "z9"]
TILE_NAMES = ["East", "south", "red dragon", "White", "5 of circles", "spring", "cat", "plum"]

tile_word = st.sampled_from(TILE_CODES) | st.sampled_from(BAD_CODES + TILE_NAMES)
hands = st.one_of(
    st.text(alphabet="0123456789mpszfa ,-", max_size=30),
    st.lists(tile_word, max_size=18).map("".join),
    st.lists(tile_word, max_size=18).map(" ".join),
    # four sets and a pair (often a legal win): the engine's deeper paths
    st.lists(
        st.sampled_from(["123m", "456p", "789s", "111z", "555z", "234s", "999m", "777p"]),
        min_size=4,
        max_size=5,
    ).flatmap(
        lambda sets: st.sampled_from(["11m", "55s", "22z", "77z"]).map(
            lambda pair: "".join(sets) + pair
        )
    ),
    TEXT,
)
meld_kinds = st.sampled_from(["chow", "pung", "kong", "akong", "ckong", "Pung", "bogus", ""])
melds = st.lists(
    st.one_of(
        st.builds(lambda kind, tiles: f"{kind} {tiles}", meld_kinds, hands),
        st.sampled_from(["pung 777z", "chow 123m", "kong 5555s", "ckong 1111p", "akong 9999m"]),
        TEXT,
    ),
    max_size=5,
)
winds = st.sampled_from(["E", "S", "W", "N", "e", " s ", "East", "X", "", "EE"])
counts = st.integers(-3, 10**6) | st.integers(-(2**64), 2**64)
events = st.lists(
    st.sampled_from(
        [
            "replacement",
            "kong_on_kong",
            "robbing_kong",
            "last_tile",
            "last_discard",
            "heavenly",
            "earthly",
            "original_ready",
            "bogus",
        ]
    ),
    max_size=4,
)
# Amounts as strings: decimals and fractions of ordinary size. Exponents of hundreds of digits
# are a known engine bug with its own test below.
amounts = st.from_regex(r"\A-?[0-9]{1,6}(\.[0-9]{1,4})?(e-?[0-9])?\Z") | st.sampled_from(
    ["1/2", "1/3", "0", "-1", "nan", "inf", "", "x"]
)
option_values = st.one_of(
    st.integers(-3, 12), amounts, st.booleans(), st.sampled_from(["role", "single", "3/6"])
)
options = st.one_of(
    st.dictionaries(
        st.sampled_from(
            [
                "min_tai",
                "share",
                "cap",
                "shooter_pays",
                "chart",
                "base",
                "per_tai",
                "wait_rule",
                "exposed_self_draw",
                "unknown",
            ]
        ),
        option_values | JSON_VALUES,
        max_size=4,
    ),
    st.fixed_dictionaries(
        {
            "tai_overrides": st.dictionaries(
                st.sampled_from(["dragon_set", "half_flush", "ping_hu", "nope", "seat_flower.x"]),
                st.integers(-2, 20) | JSON_VALUES,
                max_size=3,
            )
        }
    ),
)
FIELD_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "profile": st.sampled_from(["sg", "sg-table", "tw", "SG", "mahjong", ""]),
    "hand": hands,
    "win_tile": tile_word,
    "melds": melds | st.sampled_from(["pung 777z"]),
    "bonus": hands | st.lists(tile_word, max_size=4),
    "win": st.sampled_from(["self_draw", "discard", "DISCARD", ""]),
    "seat": winds,
    "round": winds,
    "discarder": winds,
    "dealer": winds,
    "dealer_streak": counts,
    "table_discards": counts,
    "events": events | st.sampled_from(["heavenly"]),
    "flower_win": st.sampled_from(["seven_capture", "eight", "nine"]),
    "liable": winds,
    "options": options,
}
assert set(FIELD_VALUES) == FIELDS

requests = st.fixed_dictionaries(
    {},
    optional={name: values | JSON_VALUES for name, values in FIELD_VALUES.items()},
)
hostile_requests = st.one_of(
    requests,
    requests.flatmap(lambda r: st.dictionaries(TEXT, JSON_VALUES, max_size=2).map(r.__or__)),
    JSON_VALUES,
)
"""A request: mostly field-aware, sometimes with unknown fields, sometimes not even an object."""


def dumps(data: Any) -> str:
    return json.dumps(data, allow_nan=True)


# --- the Python API --------------------------------------------------------------------------


def check_result(result: ScoreResult | MultiResult) -> None:
    data = result.to_json()
    json.dumps(data, allow_nan=False, ensure_ascii=False).encode("utf-8")  # as CLI and HTTP do
    if not result.valid:
        assert isinstance(result.error, str) and result.error
    elif isinstance(result, ScoreResult):
        assert sum(result.payments.values()) == 0


@EXAMPLES
@given(request=hostile_requests)
def test_the_python_api_answers_a_result_or_a_companion_error(request: Any) -> None:
    try:
        result = score(request)
    except CompanionError as refusal:
        assert isinstance(refusal.message, str) and refusal.message
        return
    assert isinstance(result, ScoreResult)
    check_result(result)


@settings(EXAMPLES, max_examples=examples(100))
@given(requests=st.lists(requests, max_size=3) | JSON_VALUES)
def test_several_winners_answer_a_result_or_a_companion_error(requests: Any) -> None:
    try:
        result = score_several(requests)
    except CompanionError as refusal:
        assert refusal.message
        return
    assert isinstance(result, MultiResult)
    check_result(result)


# --- the command line ------------------------------------------------------------------------


def run_cli(
    argv: list[str], capsys: pytest.CaptureFixture[str], stdin: str = ""
) -> tuple[int, str, str]:
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        code = main(argv)
    except SystemExit as leave:  # argparse's own exits (usage errors, --help)
        code = leave.code if isinstance(leave.code, int) else 2
    finally:
        sys.stdin = old_stdin
    out, err = capsys.readouterr()
    return code, out, err


def assert_clean(code: int, out: str, err: str) -> None:
    """Exit 0 with output, or exit 2 with one line on standard error; never a traceback."""
    assert "Traceback" not in out + err, err
    assert code in (0, 2), (code, err)
    if code == 2:
        assert not out
        lines = err.splitlines()
        assert len(lines) == 1 and lines[0].startswith("companion"), err


@EXAMPLES
@given(request=hostile_requests)
def test_cli_score_reads_any_json_request_cleanly(
    capsys: pytest.CaptureFixture[str], request: Any
) -> None:
    code, out, err = run_cli(["score"], capsys, dumps(request))
    assert_clean(code, out, err)
    if code == 0:
        assert not err
        assert "valid" in json.loads(out)


@settings(EXAMPLES, max_examples=examples(100))
@given(text=st.text(max_size=60))
def test_cli_score_refuses_text_that_is_not_a_json_object(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    for argv in (["score"], ["score", "--multi"]):
        code, out, err = run_cli(argv, capsys, text)
        assert_clean(code, out, err)


@settings(EXAMPLES, max_examples=examples(100))
@given(requests=st.lists(requests, max_size=3) | JSON_VALUES)
def test_cli_score_multi_reads_any_json_cleanly(
    capsys: pytest.CaptureFixture[str], requests: Any
) -> None:
    code, out, err = run_cli(["score", "--multi"], capsys, dumps(requests))
    assert_clean(code, out, err)


# Arguments as a shell passes them: any text but NUL (argv cannot carry it), and bytes that are
# not UTF-8, which Python hands over as lone surrogates U+DC80..U+DCFF (surrogateescape).
ARG_TEXT = st.text(
    alphabet=st.one_of(
        st.characters(exclude_categories=("Cs",), exclude_characters="\x00"),
        st.characters(min_codepoint=0xDC80, max_codepoint=0xDCFF),
    ),
    max_size=16,
)
arg_values = st.one_of(hands, ARG_TEXT, winds, st.sampled_from(TILE_CODES))
SCORE_FLAGS = [
    "--profile",
    "--win-tile",
    "--melds",
    "--bonus",
    "--win",
    "--from",
    "--seat",
    "--round",
    "--dealer",
    "--dealer-streak",
    "--table-discards",
    "--event",
    "--flower-win",
    "--liable",
    "--option",
]
score_flags = st.lists(
    st.one_of(
        st.tuples(st.sampled_from(SCORE_FLAGS), arg_values),
        st.just(("--json",)),
        st.tuples(st.just("--option"), st.builds("{}={}".format, ARG_TEXT, ARG_TEXT)),
    ),
    max_size=6,
)
waits_flags = st.lists(
    st.one_of(
        st.tuples(st.sampled_from(["--melds", "--bonus", "--profile"]), arg_values),
        st.just(("--json",)),
    ),
    max_size=4,
)


def flatten(flags: list[tuple[str, ...]]) -> list[str]:
    return [item for flag in flags for item in flag]


@EXAMPLES
@given(hand=arg_values, flags=score_flags)
def test_cli_score_takes_any_arguments_cleanly(
    capsys: pytest.CaptureFixture[str], hand: str, flags: list[tuple[str, ...]]
) -> None:
    code, out, err = run_cli(["score", hand, *flatten(flags)], capsys)
    assert_clean(code, out, err)


@EXAMPLES
@given(hand=arg_values, flags=waits_flags)
def test_cli_waits_takes_any_arguments_cleanly(
    capsys: pytest.CaptureFixture[str], hand: str, flags: list[tuple[str, ...]]
) -> None:
    code, out, err = run_cli(["waits", hand, *flatten(flags)], capsys)
    assert_clean(code, out, err)


@pytest.mark.parametrize(
    "stdin",
    [
        '{"hand": "\\ud800"}',  # a lone surrogate escape: valid JSON, not printable as UTF-8
        '{"hand": "123m456p789s11z\\udfff"}',
        '{"profile": "\\udc80"}',
    ],
)
def test_cli_answers_json_holding_lone_surrogates_cleanly(
    capsys: pytest.CaptureFixture[str], stdin: str
) -> None:
    code, out, err = run_cli(["score"], capsys, stdin)
    assert_clean(code, out, err)
    if code == 0:
        assert json.loads(out)["valid"] is False


def test_cli_refuses_a_request_file_that_is_not_utf8(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "request.json"
    path.write_bytes(b'{"hand": "\xff\xfe"}')
    code, out, err = run_cli(["score", "--json", str(path)], capsys)
    assert_clean(code, out, err)
    assert code == 2 and "UTF-8" in err


def test_cli_refuses_standard_input_that_is_not_utf8(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A terminal with a strict UTF-8 locale decodes standard input strictly.
    stdin = io.TextIOWrapper(io.BytesIO(b'{"hand": "\xff"}'), encoding="utf-8", errors="strict")
    monkeypatch.setattr(sys, "stdin", stdin)
    try:
        code = main(["score"])
    except SystemExit as leave:  # pragma: no cover - the assertion below reports it
        code = leave.code if isinstance(leave.code, int) else 2
    out, err = capsys.readouterr()
    assert_clean(code, out, err)
    assert code == 2 and "UTF-8" in err


@pytest.mark.parametrize(
    ("env", "stdin", "code"),
    [
        ({"LC_ALL": "C.UTF-8"}, b'{"hand": "\\ud800"}', 0),  # C locale: surrogateescape
        ({"PYTHONIOENCODING": "utf-8:strict"}, b'{"hand": "\\ud800"}', 0),
        ({"PYTHONIOENCODING": "utf-8:strict"}, b'{"hand": "\xff"}', 2),
        ({"LC_ALL": "C.UTF-8"}, b'{"hand": "\xff"}', 2),
    ],
)
def test_the_real_command_never_prints_a_traceback(
    env: dict[str, str], stdin: bytes, code: int
) -> None:
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "score"],
        input=stdin,
        capture_output=True,
        env={**os.environ, **env},
        timeout=60,
        check=False,
    )
    out, err = done.stdout.decode(), done.stderr.decode()
    assert_clean(done.returncode, out, err)
    assert done.returncode == code, err
    if code == 0:
        assert json.loads(out)["error"] == 'unknown tile "\ud800" at position 1'


def test_cli_table_refuses_names_no_database_can_store(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    for players in ("\udcff,Ben,Cat,Dan", "Ann\x00,Ben,Cat,Dan"):
        code, out, err = run_cli(["table", "new", "--players", players, "--db", url], capsys)
        assert_clean(code, out, err)
        assert code == 2 and "player's name" in err


# --- HTTP --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    url = f"sqlite:///{tmp_path_factory.mktemp('input') / 'ledger.sqlite3'}"
    # No rate limits: thousands of bodies at three tables would otherwise test the limiter
    # (429, tests/test_reliability_hardening.py) instead of the endpoints.
    app = create_app(url, rate_limits=RateLimits(create=None, write=None))
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client
    from companion.api.deps import close_ledgers

    close_ledgers(app)


def assert_clean_http(response: Any) -> None:
    """A JSON answer; a refusal carries its reason, one line a player can read."""
    assert response.headers["content-type"].startswith("application/json"), response.text
    data = response.json()
    if response.status_code >= 400:
        assert isinstance(data, dict) and isinstance(data.get("error"), str), response.text
        message = data["error"]
        assert message and "\n" not in message, response.text
        assert "unexpected error" not in message and "Traceback" not in message, response.text


def assert_answer(response: Any, allowed: dict[int, str | None]) -> None:
    """The status is one of `allowed`, whose value is the exact message of that refusal (None:
    any reason, or a success)."""
    assert response.status_code in allowed, (
        f"status {response.status_code}, expected one of {sorted(allowed)}: {response.text}"
    )
    assert_clean_http(response)
    message = allowed[response.status_code]
    if message is not None:
        assert response.json()["error"] == message, response.text


def body_refusal(body: bytes, not_an_object: str) -> tuple[int, str] | None:
    """The refusal every JSON endpoint owes a body before it reads any field, or None: the body is
    JSON (a copy of what docs/contract.md promises, worked out independently of the server)."""
    if not body.strip():
        return 400, "the request body is empty: send a JSON object"
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return 400, "the request body is not UTF-8 text"
    try:
        data = json.loads(text, parse_int=_at_most_16_digits)
    except json.JSONDecodeError as error:
        where = f"at line {error.lineno} column {error.colno}"
        return 400, f"the request is not valid JSON: {error.msg.removesuffix(' at')} {where}"
    except RecursionError:
        return 422, "the request is nested too deeply"
    except ValueError:
        return 400, "the request is not JSON that Companion can read"
    return value_refusal(data, not_an_object)


def _at_most_16_digits(digits: str) -> int:
    """2^53 has 16 digits: an integer with more is beyond it however many it has (and `int`
    refuses 4,301 and more)."""
    if len(digits.lstrip("-")) > 16:
        return 2**60
    return int(digits)


def value_refusal(data: Any, not_an_object: str) -> tuple[int, str] | None:
    """422 for JSON with unreasonable values (docs/contract.md), else for one that is not an
    object; None for an object the endpoint goes on to read."""
    try:
        check_values(data)
    except CompanionError as error:
        return 422, error.message
    if not isinstance(data, dict):
        return 422, not_an_object
    return None


NOT_A_REQUEST = "a scoring request must be a JSON object"
NOT_AN_ENTRY = "the request must be a JSON object"
NOT_AN_EVENT_NUMBER = (
    "path.seq: Input should be a valid integer, unable to parse string as an integer"
)
WAITS_REFUSED = ("win_tile", "flower_win")
"""What a hand one tile short cannot have: `/api/waits` refuses it by name."""


def post(client: TestClient, path: str, data: Any, token: str | None = None) -> Any:
    headers = {"content-type": "application/json"}
    if token is not None:
        headers["authorization"] = f"Bearer {token}"
    return client.post(path, content=dumps(data).encode(), headers=headers)


@HTTP_EXAMPLES
@given(request=hostile_requests)
def test_http_scoring_answers_any_request_as_the_engine_does(
    http: TestClient, request: Any
) -> None:
    data = json.loads(dumps(request))
    refusal = value_refusal(data, NOT_A_REQUEST)
    response = post(http, "/api/score", request)
    if refusal is not None:
        assert_answer(response, {refusal[0]: refusal[1]})
    else:
        try:
            expected = score_json(data)
        except CompanionError as error:
            assert_answer(response, {422: error.message})
        else:
            assert_answer(response, {200: None})
            assert response.json() == expected
    response = post(http, "/api/waits", request)
    if refusal is not None:
        assert_answer(response, {refusal[0]: refusal[1]})
    elif refused := [name for name in WAITS_REFUSED if data.get(name) is not None]:
        assert_answer(response, {422: f"a hand one tile short has no {refused[0]}"})
    else:
        # 400: tiles that make no hand one tile short; 422: a request that is not well-formed.
        assert_answer(response, {200: None, 400: None, 422: None})


@settings(HTTP_EXAMPLES, max_examples=examples(60))
@given(body=st.binary(max_size=80) | TEXT.map(str.encode))
def test_http_scoring_answers_any_body_with_the_reason(http: TestClient, body: bytes) -> None:
    for path, not_an_object in (
        ("/api/score", NOT_A_REQUEST),
        ("/api/waits", NOT_A_REQUEST),
        ("/api/tables", NOT_AN_ENTRY),
    ):
        response = http.post(path, content=body, headers={"content-type": "application/json"})
        refusal = body_refusal(body, not_an_object)
        if refusal is not None:
            assert_answer(response, {refusal[0]: refusal[1]})
        else:
            assert_answer(response, {200: None, 201: None, 400: None, 422: None})


# The table endpoints: a table to write to, then hostile bodies for every write.
names = st.one_of(
    st.sampled_from(["Ann", "Ben", "Cat", "Dan", "ann ", "Eve", ""]),
    TEXT,
    JSON_VALUES,
)
ENTRY_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "kind": st.sampled_from(["win", "draw", "payout", "WIN", "void"]) | JSON_VALUES,
    "winner": names,
    "winners": st.lists(
        st.fixed_dictionaries(
            {"name": names},
            optional={"tai": st.integers(-2, 12) | JSON_VALUES, "hand": requests},
        ),
        max_size=3,
    )
    | JSON_VALUES,
    "from": names,
    "hand": requests | JSON_VALUES,
    "liable": names,
    "player": names,
    "event": st.sampled_from(["bite", "own_flowers", "exposed_kong", "nope"]) | JSON_VALUES,
    "key": st.sampled_from(["k1", "k2", ""]) | TEXT | JSON_VALUES,
    "expect_hand": st.integers(-1, 5) | JSON_VALUES,
    "reason": TEXT | JSON_VALUES,
    "by": TEXT | JSON_VALUES,
}
"""Values chosen for the entry fields where a field's type alone would rarely hit a case."""
BY_TYPE: dict[str, st.SearchStrategy[Any]] = {
    "a string": TEXT | JSON_VALUES,
    "a whole number": st.integers(-2, 12) | JSON_VALUES,
    "true or false": st.booleans() | JSON_VALUES,
    "a JSON object": JSON_VALUES,
}
entries = st.fixed_dictionaries(
    {},
    optional={
        # Every field the write bodies declare: a new one is sent without an edit here.
        field.name: ENTRY_VALUES.get(field.name, BY_TYPE.get(field.demand, JSON_VALUES))
        for model in (*ENTRY_BODIES, Recording, Correction)
        for field in body_fields(model)
    },
)
TABLE_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "profile": st.sampled_from(["sg", "sg-table", "tw", "x"]) | JSON_VALUES,
    "players": st.lists(names, min_size=3, max_size=5) | JSON_VALUES,
    "options": options | JSON_VALUES,
    "hands": st.integers(-1, 20) | JSON_VALUES,
}
tables = st.fixed_dictionaries(
    {},
    optional={
        field.name: TABLE_VALUES.get(field.name, BY_TYPE.get(field.demand, JSON_VALUES))
        for field in body_fields(CreateTable)
    },
)


@pytest.fixture(scope="module")
def made_tables(http: TestClient) -> list[dict[str, str]]:
    """One table per profile, each with a drawn hand recorded (so there is an event 1)."""
    made = []
    for profile in ("sg", "sg-table", "tw"):
        players = ["Ann", "Ben", "Cat", "Dan"]
        response = post(http, "/api/tables", {"profile": profile, "players": players})
        assert response.status_code == 201, response.text
        created = response.json()
        hands = f"/api/tables/{created['id']}/hands"
        assert post(http, hands, {"kind": "draw"}, created["token"]).status_code == 201
        made.append({"id": created["id"], "token": created["token"]})
    return made


@settings(HTTP_EXAMPLES, max_examples=examples(60))
@given(body=tables | JSON_VALUES)
def test_http_table_creation_answers_with_the_reason(http: TestClient, body: Any) -> None:
    response = post(http, "/api/tables", body)
    refusal = value_refusal(json.loads(dumps(body)), NOT_AN_ENTRY)
    if refusal is not None:
        assert_answer(response, {refusal[0]: refusal[1]})
    else:
        assert_answer(response, {201: None, 422: None})


@HTTP_EXAMPLES
@given(
    which=st.integers(0, 2),
    body=entries | JSON_VALUES,
    seq=st.integers(-1, 4) | st.sampled_from(["x", "1.5", "9" * 30]),
)
def test_http_table_writes_answer_with_the_reason(
    http: TestClient, made_tables: list[dict[str, str]], which: int, body: Any, seq: Any
) -> None:
    table = made_tables[which]
    base = f"/api/tables/{table['id']}"
    body_refused = value_refusal(json.loads(dumps(body)), NOT_AN_ENTRY)
    # The event number in the path is read before the body.
    seq_refused = (422, NOT_AN_EVENT_NUMBER) if seq in ("x", "1.5") else body_refused
    # 409: a key used for another entry, or an event corrected already.
    answers: dict[int, str | None] = {200: None, 201: None, 409: None, 422: None}
    for path, refusal, allowed in (
        (f"{base}/hands", body_refused, answers),
        # An event number the table does not have is a 404, like an unknown table.
        (
            f"{base}/events/{seq}/void",
            seq_refused,
            answers | {404: f"this table has no entry {seq}"},
        ),
        (
            f"{base}/events/{seq}/amend",
            seq_refused,
            answers | {404: f"this table has no entry {seq}"},
        ),
    ):
        response = post(http, path, body, table["token"])
        if refusal is not None:
            assert_answer(response, {refusal[0]: refusal[1]})
        else:
            assert_answer(response, allowed)
    for path in (base, f"{base}/history", f"{base}/export"):
        response = http.get(path)
        assert response.status_code == 200, response.text


@settings(HTTP_EXAMPLES, max_examples=examples(60))
@given(table_id=TEXT, suffix=st.sampled_from(["", "/history", "/export", "/export?format=csv"]))
def test_http_any_table_id_is_a_404_or_an_answer(
    http: TestClient, table_id: str, suffix: str
) -> None:
    from urllib.parse import quote

    response = http.get(f"/api/tables/{quote(table_id, safe='')}{suffix}")
    assert_answer(response, {200: None, 404: None, 405: None})
    if response.status_code == 404:
        assert response.json()["error"].startswith(("no table with id", "there is nothing at"))


# --- text no database can hold, and known bugs -------------------------------------------------

# "\ud800" in these bodies is a JSON escape for a lone surrogate: valid JSON, not Unicode text.


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/tables", '{"players": ["\\ud800", "Ben", "Cat", "Dan"]}'),
        ("/api/tables", '{"players": ["Ann\\u0000", "Ben", "Cat", "Dan"]}'),
        (
            "/api/tables",
            '{"players": ["Ann", "Ben", "Cat", "Dan"], "options": {"\\ud800": 1}}',
        ),
        ("{table}/hands", '{"kind": "win", "winner": "\\ud800", "self_draw": true, "tai": 1}'),
        ("{table}/hands", '{"kind": "draw", "key": "\\ud800"}'),
        ("{table}/hands", '{"kind": "draw", "key": "k\\u0000"}'),
        ("{table}/events/1/void", '{"reason": "\\ud800"}'),
        ("{table}/events/1/void", '{"reason": "why", "by": "Dan\\u0000"}'),
    ],
)
def test_http_text_no_database_can_store_is_a_422(
    http: TestClient, made_tables: list[dict[str, str]], path: str, body: str
) -> None:
    table = made_tables[0]
    headers = {"content-type": "application/json", "authorization": f"Bearer {table['token']}"}
    url = path.format(table=f"/api/tables/{table['id']}")
    response = http.post(url, content=body.encode(), headers=headers)
    assert response.status_code == 422, response.text
    assert_clean_http(response)


def test_http_table_ids_no_database_can_store_are_a_404(http: TestClient) -> None:
    for path in ("/api/tables/x%00", "/api/tables/x%00/history", "/t/x%00"):
        assert http.get(path).status_code == 404


@pytest.mark.parametrize("path", ["/api/score", "/api/waits"])
def test_http_scoring_refuses_lone_surrogates_cleanly(http: TestClient, path: str) -> None:
    body = b'{"hand": "\\ud800"}'
    response = http.post(path, content=body, headers={"content-type": "application/json"})
    assert response.status_code == 422
    assert_clean_http(response)


HUGE_SHARES = ["1e5000", "1" + "0" * 400 + ".1"]


@pytest.mark.parametrize("share", HUGE_SHARES)
def test_huge_amount_options_are_refused_or_serialised(share: str) -> None:
    request = {"hand": "123m456p55s", "melds": ["pung 777z", "pung 666z"], "win": "discard"}
    request |= {"discarder": "S", "options": {"share": share}}
    with pytest.raises(CompanionError, match="share must be a plain number"):
        score(request)


@pytest.mark.parametrize("kind", [["win"], {"win": 1}])
@pytest.mark.parametrize("path", ["hands", "events/1/amend"])
def test_http_a_kind_that_is_not_text_is_a_422(
    http: TestClient, made_tables: list[dict[str, str]], kind: Any, path: str
) -> None:
    """Found by the property above: an unhashable kind was a 500 (TypeError) once."""
    table = made_tables[0]
    response = post(http, f"/api/tables/{table['id']}/{path}", {"kind": kind}, table["token"])
    assert response.status_code == 422, response.text

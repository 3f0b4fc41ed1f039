"""Hostile text in every form field, query and header the server reads (beside the JSON fuzzing
of tests/test_reliability_input.py): digits of other scripts (`²`, `٣`), strings of thousands of
digits, exponents, NaN and infinities, signs, whitespace, nothing. Each answers an exact 4xx
whose message names the field, or what a good value gets; never a 500, and never slowly (a
number is read by the bounded parser, `parse_whole` / `parse_amount`, never by `Fraction` or
`int` on whatever came in). `Last-Event-ID` and the stream's `after` belong to the live stream's
own tests."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markupsafe import escape

from companion.api import create_app
from companion.api.deps import close_ledgers
from companion.api.limits import RateLimits
from test_reliability_input import examples

FIELD_EXAMPLES = settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
SLOW = 4.0
"""Seconds, a hang bound: any answer here takes milliseconds, `Fraction("1e10000000")` took 10 s;
a refused form's page once took 1.5 s on a loaded 2-core machine running the whole suite."""

HOSTILE_NUMBERS = st.sampled_from(
    [
        "²",
        "³",
        "٣",
        "\uff11\uff12",  # fullwidth 12
        "1²",
        "9" * 5000,
        "9" * 4301,
        "9223372036854775808",
        str(2**53 + 1),
        "1e10000000",
        "1E5",
        "1e-7",
        "NaN",
        "nan",
        "inf",
        "-inf",
        "Infinity",
        "-1",
        "-0",
        "+3",
        "0",
        " 7 ",
        "\t",
        " ",
        "",
        "1_000",
        "0x10",
        "1/0",
        "1/3",
        "0.5",
        "3",
        "20000",
        "20001",
        "5001",
    ]
)
HOSTILE_TEXT = (
    HOSTILE_NUMBERS
    | st.integers(-(10**30), 10**30).map(str)
    | st.text(alphabet=st.characters(exclude_categories=["Cs"]), max_size=12)
)
PLAYERS = {"player0": "Ann", "player1": "Ben", "player2": "Cat", "player3": "Dan"}
WHOLE = re.compile(r"[+-]?[0-9]{1,16}")


@pytest.fixture(scope="module")
def http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    url = f"sqlite:///{tmp_path_factory.mktemp('fields') / 'ledger.sqlite3'}"
    app = create_app(url, rate_limits=RateLimits(create=None, write=None))
    with TestClient(app, raise_server_exceptions=False) as client:
        client.get("/tables")
        yield client
    close_ledgers(app)


@pytest.fixture(scope="module")
def table_id(http: TestClient) -> str:
    response = http.post("/api/tables", json={"profile": "sg", "players": list(PLAYERS.values())})
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def create_form(http: TestClient, fields: dict[str, str]) -> Any:
    form = {"csrf_token": http.cookies["companion_csrf"], "lang": "en", **PLAYERS, **fields}
    started = time.monotonic()
    response = http.post("/tables?lang=en", data=form, follow_redirects=False)
    assert time.monotonic() - started < SLOW, f"{fields!r} took too long"
    assert response.status_code < 500, response.text
    return response


def whole(text: str) -> int | None:
    """The oracle: ASCII digits (a sign allowed), within 2^53."""
    text = text.strip()
    if not WHOLE.fullmatch(text) or abs(int(text)) > 2**53:
        return None
    return int(text)


def shown_error(page: str) -> str:
    """The create page's refusal, as the page shows it (escaped)."""
    found = re.search(r'id="create-error">.*?<p>.*?</p>\s*<p>(.*?)</p>', page, re.S)
    return found.group(1) if found else ""


def refused_with(response: Any, message: str) -> None:
    assert response.status_code == 422, response.text
    assert shown_error(response.text) == str(escape(message)), shown_error(response.text)


@FIELD_EXAMPLES
@given(text=HOSTILE_TEXT, field=st.sampled_from(["hands", "rounds"]))
def test_the_planned_hands_and_rounds_answer_exactly(
    http: TestClient, text: str, field: str
) -> None:
    response = create_form(http, {"profile": "sg", field: text})
    number = whole(text)
    most = 20_000 if field == "hands" else 5_000
    if not text.strip():
        assert response.status_code == 303, response.text
    elif number is None or number < (0 if field == "hands" else 1):
        words = {
            "hands": "The number of hands must be a whole number, or blank.",
            "rounds": "The number of rounds must be a whole number, at least 1.",
        }
        refused_with(response, words[field])
    elif number == 0:
        refused_with(response, "the planned number of hands must be at least 1")
    elif number > most:
        refused_with(response, f"The number of {field} can be at most {most:,}.")
    else:
        assert response.status_code == 303, response.text


WHOLE_OPTIONS = [("sg", "min_tai"), ("sg-table", "cap"), ("tw", "min_tai"), ("hk", "max_faan")]
AMOUNT_OPTIONS = [("sg", "share"), ("tw", "base"), ("tw", "per_tai"), ("hk", "base")]


@FIELD_EXAMPLES
@given(text=HOSTILE_TEXT, option=st.sampled_from(WHOLE_OPTIONS + AMOUNT_OPTIONS))
def test_number_options_answer_naming_the_option(
    http: TestClient, text: str, option: tuple[str, str]
) -> None:
    profile, name = option
    response = create_form(http, {"profile": profile, f"option:{profile}:{name}": text})
    shown = shown_error(response.text)
    assert response.status_code in (303, 422), (text, shown)
    if response.status_code == 422:
        # The profile's own range decides a number it reads; every refusal names the option.
        assert shown.startswith((f"option {name} ", f"option {name}:")), (text, shown)
    if not text.strip():
        assert response.status_code == 303, (text, shown)
    elif "\x00" in text:
        refused_with(response, f"option {name} cannot contain a NUL character")
    elif option in WHOLE_OPTIONS and whole(text) is None:
        refused_with(response, f"option {name} must be a whole number")
    elif option in AMOUNT_OPTIONS and re.search(r"[eEnN²٣]", text):
        assert shown.startswith(
            f"option {name} must be a plain number such as 2, 0.5 or 1/2, not "
        ), (text, shown)


def test_the_attacks_of_issue_24_answer_at_once(http: TestClient) -> None:
    """Each was a 500 with a traceback, or 10 s of the event loop."""
    cases = {
        "hands=²": ({"hands": "²"}, "The number of hands must be a whole number, or blank."),
        "rounds=³": ({"rounds": "³"}, "The number of rounds must be a whole number, at least 1."),
        "5,000 digits": (
            {"hands": "9" * 5000},
            "The number of hands must be a whole number, or blank.",
        ),
        "2^63": (
            {"hands": "9223372036854775808"},
            "The number of hands must be a whole number, or blank.",
        ),
        "Arabic-Indic 3": (
            {"hands": "٣"},
            "The number of hands must be a whole number, or blank.",
        ),
        "share=1e10000000": (
            {"option:sg:share": "1e10000000"},
            "option share must be a plain number such as 2, 0.5 or 1/2, not '1e10000000'",
        ),
    }
    for label, (fields, message) in cases.items():
        refused_with(create_form(http, {"profile": "sg", **fields}), message)
        assert label


@FIELD_EXAMPLES
@given(text=HOSTILE_TEXT)
def test_the_before_query_answers_exactly(http: TestClient, table_id: str, text: str) -> None:
    for path in (f"/t/{table_id}", f"/t/{table_id}/board"):
        started = time.monotonic()
        response = http.get(path, params={"before": text, "lang": "en"})
        assert time.monotonic() - started < SLOW
        assert response.status_code in (200, 422), response.text
        if response.status_code == 422:
            assert "before" in response.text


@FIELD_EXAMPLES
@given(text=HOSTILE_TEXT)
def test_the_format_and_lang_queries_answer_exactly(
    http: TestClient, table_id: str, text: str
) -> None:
    response = http.get(f"/api/tables/{table_id}/export", params={"format": text})
    if text in ("json", "csv"):
        assert response.status_code == 200
    else:
        assert (response.status_code, response.json()) == (
            422,
            {"error": 'format must be "json" or "csv"'},
        )
    page = http.get(f"/t/{table_id}", params={"lang": text})
    assert page.status_code == 200, page.text


HEADERS = [
    "content-length",
    "authorization",
    "cookie",
    "origin",
    "sec-fetch-site",
    "content-type",
    "accept-language",
    "if-none-match",
    "accept-encoding",
]


def latin1(text: str) -> bytes:
    """What a header can carry: text outside Latin-1 goes as its UTF-8 bytes."""
    try:
        return text.encode("latin-1")
    except UnicodeEncodeError:
        return text.encode("utf-8")


@FIELD_EXAMPLES
@given(text=HOSTILE_TEXT, name=st.sampled_from(HEADERS))
def test_every_header_answers_without_a_500(
    http: TestClient, table_id: str, text: str, name: str
) -> None:
    value = latin1(text.replace("\r", "").replace("\n", ""))
    headers = {name: value}
    for method, path in (
        ("POST", "/api/score"),
        ("POST", f"/api/tables/{table_id}/hands"),
        ("GET", f"/t/{table_id}"),
    ):
        base = {"content-type": b"application/json"} if method == "POST" else {}
        started = time.monotonic()
        response = http.request(method, path, content=b"{}", headers={**base, **headers})
        assert time.monotonic() - started < SLOW
        assert response.status_code < 500, (name, value, response.text)
    if name == "content-length":
        stripped = text.strip()
        readable = stripped.isascii() and stripped.isdigit() and len(stripped) <= 5
        if not readable or int(stripped) > 64 * 1024:
            response = http.post("/api/score", content=b"{}", headers=headers)
            assert (response.status_code, response.json()) == (
                413,
                {"error": "the request body is larger than 64 KiB"},
            )


def test_a_content_length_of_other_digits_is_refused(http: TestClient) -> None:
    for length in ("²".encode("latin-1"), "٣".encode(), b"9" * 5000):
        response = http.post("/api/score", content=b"{}", headers={"content-length": length})
        assert (response.status_code, response.json()) == (
            413,
            {"error": "the request body is larger than 64 KiB"},
        ), length[:10]

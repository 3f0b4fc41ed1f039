"""Every number a user sends goes through one bounded reader (issue 41, item 1): plain ASCII
digits, an optional sign, a decimal point or a fraction bar where a fraction is meant, a
bounded length. The walk below finds every field of every API body (`BodyModel`'s subclasses),
the query parameters, and every command-line argument that takes a number (each command's
parser from `companion.cli.build_parser`), and shows each refuses an exponent that would expand
in full, an underscore, Arabic-Indic and fullwidth digits and an exponent at all, with a clean
422 or exit 2 and a message, and takes a plain value."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

import companion.api.app
import companion.api.events  # noqa: F401
from companion.api.limits import Rate
from companion.api.scoring import json_body
from companion.api.table_bodies import BodyModel, body_fields
from companion.cli import COMMANDS, build_parser
from companion.errors import CompanionError
from companion.rules.options import parse_whole, plain_number

BAD = ["1e10000000", "1_000", "\u0663", "\uff15", "1e3"]
"""An exponent that `Fraction` expands in full, an underscore, an Arabic-Indic 3, a fullwidth 5
and an exponent at all."""

EIGHT = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


def _subclasses(model: type[BodyModel]) -> Iterator[type[BodyModel]]:
    for sub in model.__subclasses__():
        yield sub
        yield from _subclasses(sub)


MODELS = sorted(set(_subclasses(BodyModel)), key=lambda model: model.__name__)
NUMBER_FIELDS = [
    (model, field)
    for model in MODELS
    for field in body_fields(model)
    if field.demand == "a whole number"
]


def test_the_walk_finds_the_bodies() -> None:
    names = {model.__name__ for model in MODELS}
    assert {"CreateTable", "WinBody", "CreateEvent", "PenaltyBody", "TimerBody"} <= names
    assert len(NUMBER_FIELDS) >= 10


@pytest.mark.parametrize(
    ("model", "field"),
    NUMBER_FIELDS,
    ids=[f"{model.__name__}.{field.name}" for model, field in NUMBER_FIELDS],
)
def test_every_whole_number_field_refuses_text(model: type[BodyModel], field: Any) -> None:
    for bad in BAD:
        with pytest.raises(CompanionError) as refused:
            field.check(bad)
        assert refused.value.message.startswith(f"{field.name} must be")
    assert field.check(40) == 40  # (fu are at least 20)


@pytest.mark.parametrize("number", ["1e10000000", "1e400", "-1e400", "123456789" * 3])
def test_a_json_number_past_the_bounds_is_refused_when_read(number: str) -> None:
    with pytest.raises(CompanionError):
        json_body(f'{{"rounds": {number}}}'.encode())


def test_the_one_reader() -> None:
    for bad in [*BAD, "1.0", "5/1", " ", "+", "12345678901234567"]:
        assert parse_whole(bad) is None, bad
    assert parse_whole(" -42 ") == -42
    for bad in BAD:
        assert plain_number(bad) is None


def _post(client: TestClient, path: str, body: Any, token: str | None = None) -> Any:
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    return client.post(path, content=json.dumps(body), headers=headers)


def _refused(response: Any) -> str:
    assert response.status_code == 422, response.text
    message: str = response.json()["error"]
    assert message
    return message


def test_the_http_bodies_refuse_them_with_422(client: TestClient) -> None:
    event = {"name": "N", "players": EIGHT, "rounds": 2, "seed": 7}
    created = _post(client, "/api/events", event)
    assert created.status_code == 201
    event_id, token = created.json()["id"], created.json()["token"]
    assert _post(client, f"/api/events/{event_id}/rounds", {"round": 1}, token).status_code == 201
    table = {"profile": "sg", "players": EIGHT[:4], "hands": 4}
    for bad in BAD:
        _refused(_post(client, "/api/tables", {**table, "hands": bad}))
        _refused(_post(client, "/api/tables", {**table, "options": {"min_tai": bad}}))
        _refused(_post(client, "/api/events", {**event, "rounds": bad}))
        _refused(_post(client, "/api/events", {**event, "seed": bad}))
        penalty = {"player": "Ann", "amount": bad, "reason": "late"}
        _refused(_post(client, f"/api/events/{event_id}/penalties", penalty, token))
        timer = {"round": 1, "minutes": bad}
        _refused(_post(client, f"/api/events/{event_id}/timers", timer, token))
    raw = b'{"profile": "sg", "players": ["A", "B", "C", "D"], "hands": 1e10000000}'
    huge = client.post("/api/tables", content=raw, headers={"content-type": "application/json"})
    _refused(huge)
    assert _post(client, "/api/tables", table).status_code == 201


def test_the_query_parameters_refuse_them_with_422(client: TestClient) -> None:
    created = _post(client, "/api/tables", {"profile": "sg", "players": EIGHT[:4], "hands": 4})
    table_id = created.json()["id"]
    for bad in BAD:
        for path in (f"/t/{table_id}?before={bad}", f"/t/{table_id}/board?before={bad}"):
            response = client.get(path)
            assert response.status_code == 422, (path, response.status_code)
            assert "before" in response.text
    assert client.get(f"/t/{table_id}?before=1").status_code == 200


# --- The command line -------------------------------------------------------------------------

RATES = ("--create-limit", "--write-limit", "--seat-limit", "--read-limit")
"""`companion serve`'s rate limits (COUNT/SECONDS)."""
NUMBER_TEXT = {"--amount", *RATES}
"""Options read as text by argparse whose text is a number (or a rate of two): their commands
read them with the same reader."""


def _actions(
    parser: argparse.ArgumentParser, path: tuple[str, ...]
) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser, argparse.Action]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _actions(sub, (*path, name))
        else:
            yield path, parser, action


def _takes_a_number(action: argparse.Action) -> bool:
    if any(option in NUMBER_TEXT for option in action.option_strings):
        return True
    return action.type is not None and action.type is not str and action.nargs != 0


NUMBER_ARGUMENTS = [
    (command, path, action)
    for command in COMMANDS
    for path, _parser, action in _actions(build_parser(command), ())
    if _takes_a_number(action)
]


def _argv(
    path: tuple[str, ...], parser: argparse.ArgumentParser, action: Any, value: str
) -> list[str]:
    if action.option_strings:
        return [*path, action.option_strings[0], value]
    before = []
    for other in parser._actions:
        if other is action:
            break
        if not other.option_strings and not isinstance(other, argparse._SubParsersAction):
            before.append("x")
    return [*path, *before, value]


def test_the_walk_finds_the_arguments() -> None:
    options = {option for _, _, action in NUMBER_ARGUMENTS for option in action.option_strings}
    assert {"--rounds", "--hands", "--honba", "--port", "--header-timeout", "--amount"} <= options


@pytest.mark.parametrize(
    ("command", "path", "action"),
    NUMBER_ARGUMENTS,
    ids=[f"{'-'.join(path)}:{action.dest}" for _, path, action in NUMBER_ARGUMENTS],
)
def test_every_number_argument_refuses_them_with_exit_2(
    command: str, path: tuple[str, ...], action: argparse.Action, capsys: pytest.CaptureFixture[str]
) -> None:
    parser = build_parser(command)
    owner = next(
        owner for p, owner, a in _actions(parser, ()) if a.dest == action.dest and p == path
    )
    mine = next(a for p, o, a in _actions(parser, ()) if a.dest == action.dest and p == path)
    rate = mine.option_strings[:1] != [] and mine.option_strings[0] in RATES
    normal = "120/3600" if rate else "5"
    values = [shown for bad in BAD for shown in (f"{bad}/60", f"60/{bad}")] if rate else BAD
    if mine.type is not None and mine.type is not str:
        for bad in values:
            with pytest.raises(SystemExit) as left:
                parser.parse_args(_argv(path, owner, mine, bad))
            assert left.value.code == 2
            err = capsys.readouterr().err
            assert "argument" in err and "Traceback" not in err, err
            assert "invalid" in err or "not" in err, err
        assert mine.type(normal) is not None
    else:
        for bad in values:
            with pytest.raises((argparse.ArgumentTypeError, ValueError, CompanionError)):
                _read_text(mine, bad)
        assert _read_text(mine, normal) is not None


def _read_text(action: argparse.Action, text: str) -> object:
    """What the command makes of an option it reads as text."""
    if action.option_strings[0] in RATES:
        return Rate.parse(text)
    from companion.ledger.event_book.checks import exact_amount

    return exact_amount(text)


@pytest.mark.parametrize("value", ["1e10000000", "\u0663", "1_000"])
def test_the_serves_seconds_and_rates_refuse_them(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    parser = build_parser("serve")
    for option in ("--header-timeout", "--body-timeout", "--keep-alive", "--create-limit"):
        shown = f"{value}/60" if option == "--create-limit" else value
        with pytest.raises(SystemExit) as left:
            parser.parse_args(["serve", option, shown])
        assert left.value.code == 2
        assert f"argument {option}" in capsys.readouterr().err

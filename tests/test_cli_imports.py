"""The command line imports what the command it runs uses: `companion score` and `companion
waits` start without the ledger, its database, the web server or the events (tournaments), so
that they start about as fast as a Python scorer can (bench/cli_start.py times it).

Each command runs in a process of its own, `python -X importtime -m companion.cli ...`, and the
modules it imported are read from what `-X importtime` writes: the whole process, as a person
at a terminal starts it. What is asserted is the set of modules, never a time.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from companion.cli import COMMANDS, build_parser

HAND = "234m567m345p678s55s"
UNUSED = (
    "companion.ledger",
    "companion.api",
    "companion.web",
    "companion.events",
    "companion.cli.table",
    "companion.cli.event",
    "companion.cli.club",
    "companion.clubs",
    "openskill",
    "companion.cli.serve",
    "companion.cli.payout",
    "sqlalchemy",
    "alembic",
    "psycopg",
    "platformdirs",
    "fastapi",
    "pydantic",
    "starlette",
    "uvicorn",
    "jinja2",
    "segno",
    "babel",
    "orjson",
)
"""Packages and modules `score` and `waits` do not use (a name covers its submodules)."""


def imported(*words: str, stdin: str = "") -> tuple[set[str], str]:
    """The modules a `companion` process imports to run `words`, and what it printed."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "companion.cli", *words],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    modules = {
        line.rpartition("|")[2].strip()
        for line in done.stderr.splitlines()
        if line.startswith("import time:") and not line.rstrip().endswith("| package")
    }
    return modules, done.stdout


@pytest.mark.parametrize(
    ("words", "stdin", "printed"),
    [
        (("score", HAND), "", "sg: 5 tai"),
        (("score", HAND, "--json"), "", '{"valid": true'),
        (("score", "--profile", "riichi", HAND, "--win", "self_draw"), "", "riichi: 2 han 30 fu"),
        (("score",), '{"profile": "tw", "hand": "123m456m789m123p456p11s"}', '{"valid": true'),
        (("waits", "234m567m345p678s5s"), "", "Waits: 5s"),
    ],
)
def test_a_scoring_command_imports_none_of_the_ledger_web_or_events(
    words: tuple[str, ...], stdin: str, printed: str
) -> None:
    modules, output = imported(*words, stdin=stdin)
    assert output.startswith(printed)
    # The engine is in the list: the list is read, not empty.
    assert {"companion.scoring" if words[0] == "score" else "companion.shapes"} <= modules
    unused = sorted(
        module
        for module in modules
        if any(module == name or module.startswith(f"{name}.") for name in UNUSED)
    )
    assert unused == []


@pytest.mark.parametrize("command", COMMANDS)
def test_the_parser_of_one_command_is_the_whole_parsers(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`main` builds the parser of the command it runs alone: its help (every argument, its
    default and choices) is the whole parser's."""
    helps = []
    for parser in (build_parser(), build_parser(command)):
        with pytest.raises(SystemExit):
            parser.parse_args([command, "--help"])
        helps.append(capsys.readouterr().out)
    assert helps[0] == helps[1]
    assert helps[0].startswith(f"usage: companion {command} ")

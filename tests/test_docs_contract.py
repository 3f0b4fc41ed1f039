"""docs/contract.md is kept true to the code, and the repository's text stands on its own.

The tables that say what the code holds (the request's fields, the options, the result's
fields, the pattern ids) are written from the code by `make docs` and checked by
tests/test_docs_tables.py; here real results are held against them. The worked examples are run
again and their output compared with the document's.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.docs_tables.markdown import page_rows
from companion.scoring import score, score_several

ROOT = Path(__file__).resolve().parent.parent
CONTRACT = ROOT / "docs" / "contract.md"
TEXT = CONTRACT.read_text(encoding="utf-8")


# --- reading the document -----------------------------------------------------------------------


def section(heading: str) -> str:
    """The text under a heading (`### Request fields`), up to the next heading of its level or
    above."""
    level = len(heading) - len(heading.lstrip("#"))
    lines = TEXT.splitlines()
    try:
        start = lines.index(heading)
    except ValueError:
        pytest.fail(f"docs/contract.md has no heading {heading!r}")
    body: list[str] = []
    for line in lines[start + 1 :]:
        marks = len(line) - len(line.lstrip("#"))
        if 0 < marks <= level and line[marks : marks + 1] == " ":
            break
        body.append(line)
    return "\n".join(body)


def names(heading: str) -> list[str]:
    """The names a section's tables document: each row's first cell, one `code` name."""
    found = []
    for row in page_rows(section(heading)):
        assert len(row.names) == 1, f"{heading}: the row {row.cells[0]!r} does not name one field"
        found.append(row.names[0])
    return found


# --- the result ---------------------------------------------------------------------------------


TW_HAND = "123m456m789p222s678s5m5m"
RESULTS: list[dict[str, Any]] = [
    {
        "hand": "123m456p55s",
        "melds": ["pung 777z", "pung 666z"],
        "win": "discard",
        "discarder": "S",
    },
    {"hand": "123m456p5s", "melds": ["pung 777z", "pung 666z"]},
    {"profile": "tw", "hand": TW_HAND, "dealer_streak": 2},
    {"profile": "tw", "hand": "123p456p789p111z222z5s5s", "win": "discard", "discarder": "N"},
    {"profile": "sg-table", "flower_win": "eight", "seat": "S", "bonus": "1f2f3f4f5f6f7f8f1a"},
]


@pytest.mark.parametrize("request_", RESULTS)
def test_real_results_hold_only_documented_fields(request_: dict[str, Any]) -> None:
    result = score(request_).to_json()
    assert set(result) <= set(names("### Result fields"))
    for pattern in result.get("patterns", ()):
        assert set(pattern) <= set(names("### Pattern items"))
    for transfer in result.get("transfers", ()):
        assert set(transfer) == set(names("### Transfers"))


def test_a_variant_is_documented_where_it_appears() -> None:
    result = score(RESULTS[3]).to_json()
    straight = next(p for p in result["patterns"] if p["id"] == "pure_straight")
    assert straight["variant"] == "concealed"
    assert "variant" in names("### Pattern items")


def test_a_several_winners_result_holds_only_documented_fields() -> None:
    south = {"profile": "tw", "hand": TW_HAND, "win": "discard", "seat": "S", "discarder": "E"}
    north = {**south, "hand": "34m567p789p333s456s99s5m", "seat": "N"}
    claims = [south, north]
    result = score_several(claims).to_json()
    assert set(result) <= set(names("### Several-winners fields"))


# --- the worked examples ------------------------------------------------------------------------


def examples() -> Iterator[tuple[str, str]]:
    """(command, expected output) for each `$ ` line of the document's console blocks."""
    for block in re.findall(r"```console\n(.*?)```", TEXT, re.DOTALL):
        command: str | None = None
        output: list[str] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                if command is not None:
                    yield command, "\n".join(output)
                command, output = line[2:], []
            else:
                output.append(line)
        if command is not None:
            yield command, "\n".join(output)


EXAMPLES = list(examples())


def test_the_document_has_worked_examples() -> None:
    assert len(EXAMPLES) >= 10


@pytest.mark.parametrize(("command", "expected"), EXAMPLES, ids=[c[:60] for c, _ in EXAMPLES])
def test_worked_example_output_is_what_the_command_prints(
    command: str, expected: str, tmp_path: Path
) -> None:
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    env.pop("COMPANION_DATABASE_URL", None)
    done = subprocess.run(
        ["bash", "-c", command],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.stdout.rstrip("\n") == expected

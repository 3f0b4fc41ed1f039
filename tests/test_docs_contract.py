"""docs/contract.md is kept true to the code, and the repository's text stands on its own.

The code's side of every comparison is found by introspection (the request's dataclass, each
profile's options type and pattern table, the fields `to_json` writes), so a field added to or
removed from either side fails here until the other side follows. The worked examples are run
again and their output compared with the document's.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import json
import os
import re
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.request import FIELDS, parse_request
from companion.rules import profiles
from companion.rules.patterns import PatternScore
from companion.scoring import MultiResult, ScoreResult, score, score_several

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


def table_rows(heading: str) -> list[list[str]]:
    """The body rows of the tables in a section, as lists of cells (header rows left out)."""
    rows: list[list[str]] = []
    header_next = True
    for line in section(heading).splitlines():
        if not line.startswith("|"):
            header_next = True
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if header_next:
            header_next = False
            continue
        if all(set(cell) <= set("-: ") for cell in cells):
            continue
        rows.append(cells)
    return rows


def names(heading: str) -> list[str]:
    """The names a section's tables document: each row's first cell, one `code` name."""
    found = []
    for cells in table_rows(heading):
        match = re.fullmatch(r"`([^`]+)`", cells[0])
        assert match, f"{heading}: the row {cells[0]!r} does not name one field as `name`"
        found.append(match.group(1))
    return found


def documented_default(cells: list[str]) -> Any:
    """The default column's value: its first `code` span, read as JSON."""
    match = re.match(r"`([^`]+)`", cells[2])
    assert match, f"the default of {cells[0]} is not written as JSON in `code`"
    return json.loads(match.group(1))


# --- what the code writes -----------------------------------------------------------------------


def written_keys(function: Callable[..., Any]) -> tuple[set[str], set[str]]:
    """The keys a `to_json` writes: those of the returned `data` object, and those of the
    objects nested in it (dict literals built inside)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    top: set[str] = set()
    data_literals: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if (
                    isinstance(target, ast.Name)
                    and target.id == "data"
                    and isinstance(node.value, ast.Dict)
                ):
                    data_literals.add(id(node.value))
                    top |= _constant_keys(node.value)
                if (
                    isinstance(target, ast.Subscript)
                    and isinstance(target.value, ast.Name)
                    and target.value.id == "data"
                    and isinstance(target.slice, ast.Constant)
                ):
                    top.add(str(target.slice.value))
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "update"
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "data"
        ):
            top |= {keyword.arg for keyword in node.keywords if keyword.arg}
    nested: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict) and id(node) not in data_literals:
            nested |= _constant_keys(node)
    returns = [n for n in ast.walk(tree) if isinstance(n, ast.Return)]
    assert returns and all(
        isinstance(n.value, ast.Name) and n.value.id == "data" for n in returns
    ), f"{function.__qualname__} no longer builds and returns `data`: update this test"
    return top, nested


def _constant_keys(node: ast.Dict) -> set[str]:
    return {str(key.value) for key in node.keys if isinstance(key, ast.Constant)}


def _profile_ids() -> list[str]:
    return list(profiles())


# --- the request --------------------------------------------------------------------------------


def test_every_request_field_is_documented_and_every_documented_field_accepted() -> None:
    documented = names("### Request fields")
    assert len(documented) == len(set(documented)), "a request field is documented twice"
    assert set(documented) == set(FIELDS), (
        f"undocumented: {sorted(set(FIELDS) - set(documented))}; "
        f"documented but not accepted: {sorted(set(documented) - set(FIELDS))}"
    )


def test_documented_request_defaults_are_the_codes() -> None:
    empty = parse_request({})
    for cells in table_rows("### Request fields"):
        name = cells[0].strip("`")
        value = documented_default(cells)
        assert parse_request({name: value}) == empty, f"{name}: the default is not {value!r}"


@pytest.mark.parametrize("profile_id", _profile_ids())
def test_every_option_is_documented_and_every_documented_option_accepted(
    profile_id: str,
) -> None:
    profile = profiles()[profile_id]
    # A derived option mirrors another for the shared code (hk's min_tai is its min_faan):
    # a request cannot set it, so it is not documented.
    options_type = profile.options_type
    in_code = {field.name for field in dataclasses.fields(options_type)} - options_type.derived
    documented = names(f"### Options of `{profile_id}`")
    assert len(documented) == len(set(documented)), f"an option of {profile_id} is listed twice"
    assert set(documented) == in_code, (
        f"{profile_id}: undocumented {sorted(in_code - set(documented))}; "
        f"documented but not accepted {sorted(set(documented) - in_code)}"
    )


@pytest.mark.parametrize("profile_id", _profile_ids())
def test_documented_option_defaults_are_the_codes(profile_id: str) -> None:
    profile = profiles()[profile_id]
    defaults = profile.parse_options({})
    for cells in table_rows(f"### Options of `{profile_id}`"):
        name = cells[0].strip("`")
        value = documented_default(cells)
        assert profile.parse_options({name: value}) == defaults, (
            f"{profile_id}: the default of {name} is not {value!r}"
        )


def test_every_profile_is_documented() -> None:
    row = next(cells for cells in table_rows("### Request fields") if cells[0] == "`profile`")
    listed = re.findall(r'`"([^"`]+)"`', row[1])
    assert listed == _profile_ids()


# --- the result ---------------------------------------------------------------------------------


def test_result_fields_match_what_to_json_writes() -> None:
    top, nested = written_keys(ScoreResult.to_json)
    assert set(names("### Result fields")) == top
    assert set(names("### Transfers")) == nested


def test_pattern_item_fields_match_what_to_json_writes() -> None:
    top, _ = written_keys(PatternScore.to_json)
    assert set(names("### Pattern items")) == top


def test_several_winners_fields_match_what_to_json_writes() -> None:
    top, nested = written_keys(MultiResult.to_json)
    assert set(names("### Several-winners fields")) == top
    assert set(names("### Transfers")) == nested


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


# --- pattern ids --------------------------------------------------------------------------------


@pytest.mark.parametrize("profile_id", _profile_ids())
def test_pattern_ids_names_and_tai_match_the_profile(profile_id: str) -> None:
    profile = profiles()[profile_id]
    in_code = [
        (pattern.id, pattern.name, pattern.tai)
        for pattern in (*profile.patterns, *profile.flower_wins.values())
    ]
    documented = []
    for cells in table_rows(f"### Patterns of `{profile_id}`"):
        tai = re.match(r"\d+", cells[2])
        assert tai, f"{cells[0]}: tai {cells[2]!r} is not a number"
        documented.append((cells[0].strip("`"), cells[1], int(tai.group())))
    assert documented == in_code


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

"""The tables of docs/ written from the code (`companion.docs_tables`) say what the code holds:
each is made again in memory and compared with its page, and `make docs` writes it when they
differ."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from companion.docs_tables import undescribed, unknown_markers
from companion.docs_tables.markdown import COMMAND, PLACEHOLDER, Region, Table, start_marker
from companion.docs_tables.tables import regions

ROOT = Path(__file__).resolve().parents[1]
REGIONS = regions()


@pytest.mark.parametrize("region", REGIONS, ids=[f"{r.path}:{r.name}" for r in REGIONS])
def test_every_generated_table_says_what_the_code_holds(region: Region) -> None:
    text = (ROOT / region.path).read_text(encoding="utf-8")
    current, made = region.current(text), region.made(text)
    difference = "\n".join(
        difflib.unified_diff(
            current.splitlines(), made.splitlines(), region.path, "the code", lineterm=""
        )
    )
    assert current == made, (
        f"{region.path}'s table {region.name!r} is not what the code holds: run `{COMMAND}`"
        f"\n{difference}"
    )


def test_every_row_the_code_added_has_its_words() -> None:
    assert undescribed(ROOT) == [], f"write these rows' words in place of {PLACEHOLDER}"


def test_every_marker_names_a_generated_table() -> None:
    assert unknown_markers(ROOT) == []


def test_the_regions_have_names_of_their_own() -> None:
    starts = [(region.path, region.start) for region in REGIONS]
    assert len(starts) == len(set(starts))


# --- How a table written by hand row by row follows the code -------------------------------

PAGE = """
| name | kind | words |
|---|---|---|
| `b` | old | Bee. |
| `gone` | old | Left the code. |
| `a`, `e` | | Two at once. |
"""


def kinds(name: str) -> list[str | None]:
    return [name.upper(), None]


def test_a_table_by_hand_keeps_its_words_and_order_and_takes_the_code_s_cells() -> None:
    table = Table(("name", "kind", "words"), ["a", "b", "d", "e"], kinds, page_order=True)
    assert table.written(PAGE).splitlines() == [
        "| name | kind | words |",
        "|---|---|---|",
        "| `b` | B | Bee. |",
        # a new name comes after the row of the name before it in the code
        f"| `d` | D | {PLACEHOLDER} |",
        "| `a`, `e` | | Two at once. |",  # a row naming several is a person's, whole
    ]


def test_a_table_of_the_code_follows_the_code_s_order() -> None:
    table = Table(("name", "kind", "words"), ["d", "b"], kinds)
    assert table.written(PAGE).splitlines()[2:] == [
        f"| `d` | D | {PLACEHOLDER} |",
        "| `b` | B | Bee. |",
    ]


def test_a_marker_says_the_command() -> None:
    assert start_marker("patterns sg") == "<!-- generated: patterns sg (make docs) -->"

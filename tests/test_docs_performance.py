"""docs/performance.md's figures of the pattern tables are the engine's.

The table of "The pattern tables now" gives each profile's table patterns, those decided by the
bits, its flower wins and its patterns in all; every "`sg`'s 28" on the page (the size of a
profile's table, in the passes' histories too) is its table's size now.
"""

from __future__ import annotations

import re
from pathlib import Path

from shared_profiles import SHARED

PAGE = Path(__file__).parents[1] / "docs" / "performance.md"
ROW = re.compile(r"^\| `([a-z-]+)` \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$", re.MULTILINE)
SIZE = re.compile(r"`?\b(sg-table|sg|tw|hk)`?'s (\d+)\b")


def _engine_figures() -> dict[str, tuple[int, int, int, int]]:
    figures = {}
    for profile_id, profile in SHARED.items():
        table = profile.table_for(profile.parse_options({}))
        flower_wins = len(profile.flower_wins)
        patterns = len(profile.patterns)
        figures[profile_id] = (patterns, sum(table.decided), flower_wins, patterns + flower_wins)
    return figures


def test_the_pattern_tables_table_is_the_engines() -> None:
    rows = {
        profile: tuple(int(figure) for figure in figures)
        for profile, *figures in ROW.findall(PAGE.read_text())
    }
    assert rows == _engine_figures()


def test_every_size_of_a_table_on_the_page_is_the_engines() -> None:
    sizes = SIZE.findall(PAGE.read_text())
    assert len(sizes) >= 8  # the table's size is quoted in several passes
    engine = _engine_figures()
    assert [(profile, int(size)) for profile, size in sizes] == [
        (profile, engine[profile][0]) for profile, _ in sizes
    ]

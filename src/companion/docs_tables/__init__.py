"""The tables of docs/ that say what the code holds, written from the code.

`make docs` (`python -m companion.docs_tables`) rewrites each table between its markers,
`<!-- generated: NAME (make docs) -->` and `<!-- end generated -->`; tests/test_docs_tables.py
fails, naming the table and the command, while a page says something else. Nothing imports this
package at run time.

A table the code holds whole is written whole, in the code's order: each profile's patterns,
MCR's fan, the pattern tables' figures, the request bodies' fields. A table whose rows the code
names but whose words a person writes (the request's fields, the options, the result's fields,
the refusal keys) is written row by row: its names, and the cells the code knows (an option's
default), come from the code; every other cell stays as the page has it, and so does the order
of the rows. A name new in the code gets a row after the row of the name before it in the code,
its words `(to describe)` until a person writes them (the test fails until then); a row whose
names all left the code goes.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from companion.docs_tables.markdown import COMMAND, PLACEHOLDER, Region, page_rows
from companion.docs_tables.tables import regions


def rewritten(text: str, page_regions: Iterable[Region]) -> str:
    """The page with each of its regions made anew."""
    for region in page_regions:
        begin, end = region.span(text)
        text = text[:begin] + region.write(text[begin:end]) + text[end:]
    return text


def stale(root: Path) -> list[Region]:
    """The regions whose page says something else than the code."""
    found = []
    for region in regions():
        text = (root / region.path).read_text(encoding="utf-8")
        if region.current(text) != region.made(text):
            found.append(region)
    return found


def undescribed(root: Path) -> list[str]:
    """The rows the code added that still wait for a person's words, as `page: table: row`."""
    found = []
    for region in regions():
        current = region.current((root / region.path).read_text(encoding="utf-8"))
        found += [
            f"{region.path}: {region.name}: {row.cells[0]}"
            for row in page_rows(current)
            if PLACEHOLDER in row.cells
        ]
    return found


def unknown_markers(root: Path) -> list[str]:
    """Markers in docs/ of no region: a table no longer generated keeps none."""
    named = {(region.path, region.start) for region in regions()}
    found = []
    for page in sorted((root / "docs").glob("*.md")):
        path = page.relative_to(root).as_posix()
        for marker in re.findall(r"<!-- generated: .*? -->", page.read_text(encoding="utf-8")):
            if (path, marker) not in named:
                found.append(f"{path}: {marker}")
    return found


def write(root: Path) -> list[str]:
    """Rewrite every page with regions; the pages changed."""
    changed = []
    pages: dict[str, list[Region]] = {}
    for region in regions():
        pages.setdefault(region.path, []).append(region)
    for path, page_regions in pages.items():
        file = root / path
        text = file.read_text(encoding="utf-8")
        made = rewritten(text, page_regions)
        if made != text:
            file.write_text(made, encoding="utf-8")
            changed.append(path)
    return changed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m companion.docs_tables",
        description="Write the tables of docs/ that say what the code holds.",
    )
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="the repository")
    parser.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 naming each stale table"
    )
    arguments = parser.parse_args(argv)
    root: Path = arguments.root
    if arguments.check:
        problems = [f"{r.path}: {r.name} is stale" for r in stale(root)]
        problems += [f"{row}: {PLACEHOLDER}" for row in undescribed(root)]
        problems += [f"{marker}: no such table" for marker in unknown_markers(root)]
        for problem in problems:
            print(problem, file=sys.stderr)
        if problems:
            print(f"run `{COMMAND}`, then write the rows' words", file=sys.stderr)
        return 1 if problems else 0
    for path in write(root):
        print(f"wrote {path}")
    for row in undescribed(root):
        print(f"{row}: write its words in place of {PLACEHOLDER}")
    return 0

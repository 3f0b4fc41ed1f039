"""Markdown tables written from the code between a page's markers: a table's rows from the
code's names, the cells the code knows from it, every other cell as the page has it."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

COMMAND = "make docs"
END = "<!-- end generated -->"
PLACEHOLDER = "(to describe)"
"""The words of a row the code added, until a person writes them."""


def start_marker(name: str) -> str:
    return f"<!-- generated: {name} ({COMMAND}) -->"


# --- Markdown tables ----------------------------------------------------------------------------

_PIPE = re.compile(r"(?<!\\)\|")
_SEPARATOR = re.compile(r":?-+:?")


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in _PIPE.split(line.strip().removeprefix("|").removesuffix("|"))]


def _line(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _is_separator(line: str) -> bool:
    return line.startswith("|") and all(_SEPARATOR.fullmatch(cell) for cell in _cells(line))


@dataclass(frozen=True)
class PageRow:
    """A body row of a table as a page has it: the names its first cell holds in `code`."""

    names: tuple[str, ...]
    cells: tuple[str, ...]
    line: str


def page_rows(text: str) -> list[PageRow]:
    """The body rows of every table in `text` (header and separator rows left out)."""
    lines = text.splitlines()
    rows = []
    for index, line in enumerate(lines):
        if not line.startswith("|") or _is_separator(line):
            continue
        if index + 1 < len(lines) and _is_separator(lines[index + 1]):
            continue  # a header
        cells = tuple(_cells(line))
        rows.append(PageRow(tuple(re.findall(r"`([^`]+)`", cells[0])), cells, line))
    return rows


Cells = Callable[[str], Sequence[str | None]]
"""A row's cells after its name, from the code; None where a person writes the cell."""


@dataclass(frozen=True)
class Table:
    """One Markdown table: a row per name of the code (`names`, in the code's order), its first
    cell the name in `code`, the others `cells` of it (a row naming several is a person's,
    every cell kept). `page_order`: the rows keep the page's order, each new name placed after
    the row of the name before it in the code; otherwise they follow the code."""

    header: Sequence[str]
    names: Sequence[str]
    cells: Cells
    page_order: bool = False
    align: Sequence[str] = ()

    def written(self, page: str) -> str:
        """The table, from the code and what `page` (the text it replaces) says by hand."""
        rows = page_rows(page)
        known = set(self.names)
        order: list[tuple[tuple[str, ...], PageRow | None]]
        if self.page_order:
            order = [(tuple(n for n in row.names if n in known), row) for row in rows]
            order = [(names, row) for names, row in order if names]
            placed = {name for names, _ in order for name in names}
            for index, name in enumerate(self.names):
                if name in placed:
                    continue
                before = [other for other in self.names[:index] if other in placed]
                at = 0
                if before:
                    at = 1 + next(i for i, (names, _) in enumerate(order) if before[-1] in names)
                order.insert(at, ((name,), None))
                placed.add(name)
        else:
            by_name = {row.names[0]: row for row in rows if len(row.names) == 1}
            order = [((name,), by_name.get(name)) for name in self.names]
        align = self.align or ["---"] * len(self.header)
        lines = [_line(self.header), "|" + "|".join(align) + "|"]
        lines += [self._row(names, row) for names, row in order]
        return "\n".join(lines)

    def _row(self, names: tuple[str, ...], page: PageRow | None) -> str:
        width = len(self.header) - 1
        made: Sequence[str | None] = self.cells(names[0]) if len(names) == 1 else [None] * width
        if len(made) != width:
            raise ValueError(f"{names[0]}: {len(made)} cells for a table of {width} after the name")
        kept = page.cells[1:] if page is not None else ()
        cells = [", ".join(f"`{name}`" for name in names)]
        for index, cell in enumerate(made):
            if cell is None:
                cell = kept[index] if index < len(kept) else PLACEHOLDER
            cells.append(cell)
        if page is not None and tuple(cells) == page.cells:
            return page.line  # as the page spaces it
        return _line(cells)


def block(text: str) -> str:
    """A region's text between its markers: blank lines around, so that a change beside the
    markers never touches the lines of the table."""
    return f"\n\n{text}\n\n"


@dataclass(frozen=True)
class Region:
    """A generated part of a page: `write` makes its text between the markers from the text
    there now. `markers`: a pair of the region's own, where another tool writes them too."""

    path: str
    name: str
    write: Callable[[str], str]
    markers: tuple[str, str] | None = None

    @property
    def start(self) -> str:
        return self.markers[0] if self.markers else start_marker(self.name)

    @property
    def end(self) -> str:
        return self.markers[1] if self.markers else END

    def span(self, text: str) -> tuple[int, int]:
        """Where the region's text begins and ends in the page."""
        if self.start not in text:
            raise LookupError(f"{self.path} has no {self.start}: put it and {self.end} around it")
        begin = text.index(self.start) + len(self.start)
        return begin, text.index(self.end, begin)

    def current(self, text: str) -> str:
        begin, end = self.span(text)
        return text[begin:end]

    def made(self, text: str) -> str:
        return self.write(self.current(text))


def table_region(path: str, name: str, table: Callable[[], Table]) -> Region:
    """A region holding one table, made from the code each time it is written."""
    return Region(path, name, lambda page: block(table().written(page)))

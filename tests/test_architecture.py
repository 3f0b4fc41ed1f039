"""docs/architecture.md's map of the rooms is true: every module of the package is in one room,
and every import a module makes when it runs goes to its own room or to a room its row allows.

The rooms table is read from the page, so the map and this check cannot drift apart."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from test_import_graph import MODULES, graph

PAGE = Path(__file__).resolve().parent.parent / "docs" / "architecture.md"
START, END = "<!-- rooms: read by tests/test_architecture.py -->", "<!-- end rooms -->"


def rooms_table(page: str) -> dict[str, tuple[tuple[str, ...], frozenset[str]]]:
    """room -> (its modules as the page names them, the rooms it may import)."""
    region = page.split(START, 1)[1].split(END, 1)[0]
    rows = [line for line in region.splitlines() if line.startswith("| ") and "---" not in line]
    found: dict[str, tuple[tuple[str, ...], frozenset[str]]] = {}
    for row in rows[1:]:
        room, modules, _owns, allowed = (cell.strip() for cell in row.strip("|").split("|"))
        names = tuple(re.findall(r"`([a-z_/]+)`", modules))
        found[room] = (names, frozenset(name.strip() for name in allowed.split(",")))
    return found


ROOMS = rooms_table(PAGE.read_text(encoding="utf-8"))


def room_of(module: str) -> str:
    """The room a module (`companion.x.y`) lives in; the package itself is the core's."""
    parts = module.split(".")
    top = parts[1] if len(parts) > 1 else None
    for room, (names, _allowed) in ROOMS.items():
        for name in names:
            if top is None and room == "core":
                return room
            if name.endswith("/") and top == name.removesuffix("/"):
                return room
            if not name.endswith("/") and top == name and len(parts) == 2:
                return room
    raise AssertionError(f"{module} is in no room of docs/architecture.md")


def test_the_page_names_the_rooms() -> None:
    assert set(ROOMS) >= {"core", "shapes", "rules", "ledger", "api", "web", "cli"}
    for room, (_names, allowed) in ROOMS.items():
        assert allowed <= set(ROOMS), f"{room} may import a room the page does not list"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_each_module_is_in_a_room(module: str) -> None:
    assert room_of(module) in ROOMS


def test_every_import_goes_where_the_map_allows() -> None:
    crossings = set()
    for module, targets in graph().items():
        source = room_of(module)
        for target in targets:
            room = room_of(target)
            if room != source and room not in ROOMS[source][1]:
                crossings.add(f"{module} -> {target} ({source} may not import {room})")
    assert sorted(crossings) == []


def test_the_engine_imports_no_adapter() -> None:
    engine = {"core", "shapes", "rules"}
    for room in engine:
        assert ROOMS[room][1] <= engine, f"{room} may import an adapter"


def test_a_module_outside_the_map_is_found() -> None:
    with pytest.raises(AssertionError, match="in no room"):
        room_of("companion.somewhere_new")

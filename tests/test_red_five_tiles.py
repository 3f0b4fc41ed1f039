"""Riichi's red fives on the page: their faces in the tile sprite and their names."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from companion.tiles import Tile
from companion.web import i18n
from companion.web.pages import page_tile_names
from companion.web.tiles_svg import BLUE, GREEN, INK, RED, RED_FIVES, sprite, tile_art

SVG = "{http://www.w3.org/2000/svg}"


def _symbols() -> dict[str, str]:
    root = ET.fromstring(sprite())
    return {
        str(symbol.get("id")): ET.tostring(symbol, encoding="unicode")
        for symbol in root.iter(f"{SVG}symbol")
    }


def test_each_red_five_has_a_face_of_its_own_in_red() -> None:
    symbols = _symbols()
    for mpsz in RED_FIVES:
        art = symbols[f"t-{mpsz}"]
        colours = set(re.findall(r'(?:fill|stroke)="(#[0-9a-f]{6})"', art))
        assert RED in colours, mpsz
        assert not colours & {INK, GREEN, BLUE}, f"{mpsz}: every mark is red"
        assert art != symbols[f"t-5{mpsz[1]}"]


def test_the_other_tiles_are_drawn_as_before() -> None:
    """The sprite holds each tile's own art, the red fives added beside them."""
    assert sprite().count("<symbol ") == len(Tile) + len(RED_FIVES) + 1
    for tile in Tile:
        assert f'<symbol id="t-{tile.mpsz}" viewBox="0 0 60 80">{tile_art(tile)}</symbol>' in (
            sprite()
        )


@pytest.mark.parametrize(
    ("lang", "names"),
    [
        ("en", ["red 5 of characters", "red 5 of circles", "red 5 of bamboo"]),
        ("zh-Hant", ["赤五萬", "赤五筒", "赤五索"]),
        ("zh-Hans", ["赤五万", "赤五筒", "赤五索"]),
    ],
)
def test_the_pages_name_the_red_fives(lang: str, names: list[str]) -> None:
    tiles = page_tile_names(lang)
    assert [tiles[mpsz] for mpsz in RED_FIVES] == names
    # The plain tiles keep the catalogue's (or the engine's) names.
    assert {mpsz: name for mpsz, name in tiles.items() if mpsz not in RED_FIVES} == (
        i18n.tile_names(lang)
    )

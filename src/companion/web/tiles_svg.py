"""Companion's own tile art: one SVG sprite with a `<symbol id="t-5p">` for every tile.

Drawn here from shapes and text, no third-party art and no web fonts: numbered tiles carry their
suit's marks (pips for circles, sticks for bamboo, the numeral and 萬 for characters), honors and
bonus tiles their character in the device's own fonts, with a Latin corner index where it helps.
Pages use a symbol with `<svg viewBox="0 0 60 80"><use href="/assets/tiles.svg#t-5p"/></svg>`.
Only presentation attributes are used (no `style`), so the sprite is fine under a strict CSP.
"""

from __future__ import annotations

import hashlib
from functools import cache
from xml.sax.saxutils import escape, quoteattr

from companion.tiles import Tile
from companion.web.i18n import ZH_NUMERALS

WIDTH = 60
HEIGHT = 80
FONTS = (
    "'Noto Sans CJK TC','Noto Sans TC','PingFang TC','Microsoft JhengHei','Heiti TC',"
    "'WenQuanYi Zen Hei','Source Han Sans TC',system-ui,sans-serif"
)
INK = "#1b2a49"
RED = "#b3261e"
GREEN = "#1e7b4a"
BLUE = "#1f5fa8"
BROWN = "#7a4b16"
FACE = "#fffaf0"
EDGE = "#d9cfb0"
LINE = "#b9ae8c"
BACK = "#2f7d5b"


def _attrs(**values: object) -> str:
    return "".join(
        f" {name.replace('_', '-')}={quoteattr(str(value))}" for name, value in values.items()
    )


def _el(tag: str, **values: object) -> str:
    """An empty SVG element with presentation attributes (`stroke_width` -> `stroke-width`)."""
    return f"<{tag}{_attrs(**values)}/>"


def _text(x: float, y: float, text: str, size: float, fill: str, **extra: object) -> str:
    return (
        f"<text{_attrs(x=x, y=y, font_size=size, fill=fill, text_anchor='middle', **extra)}"
        f" font-family={quoteattr(FONTS)}>"
        f"{escape(text)}</text>"
    )


def _corner(text: str, fill: str = INK) -> str:
    return _text(9.5, 16, text, 13, fill, font_weight=700)


def _frame(top: str, top_line: str) -> str:
    """A tile's body: the edge below, and its top face in `top` outlined in `top_line`."""
    return _el(
        "rect",
        x=0.75,
        y=0.75,
        width=58.5,
        height=78.5,
        rx=8,
        fill=EDGE,
        stroke=LINE,
        stroke_width=1.5,
    ) + _el(
        "rect",
        x=0.75,
        y=0.75,
        width=58.5,
        height=74,
        rx=8,
        fill=top,
        stroke=top_line,
        stroke_width=1.5,
    )


def _face() -> str:
    return _frame(FACE, LINE)


def _pip(x: float, y: float, r: float, colour: str) -> str:
    return (
        _el("circle", cx=x, cy=y, r=r, fill=colour)
        + _el(
            "circle",
            cx=x,
            cy=y,
            r=round(r * 0.62, 2),
            fill="none",
            stroke=FACE,
            stroke_width=round(r * 0.18, 2),
        )
        + _el("circle", cx=x, cy=y, r=round(r * 0.22, 2), fill=FACE)
    )


_PIPS: dict[int, tuple[tuple[float, float, float, str], ...]] = {
    2: ((30, 22, 11, GREEN), (30, 54, 11, BLUE)),
    3: ((15, 17, 9, BLUE), (30, 38, 9, RED), (45, 59, 9, GREEN)),
    4: ((18, 22, 10, BLUE), (42, 22, 10, GREEN), (18, 54, 10, GREEN), (42, 54, 10, BLUE)),
    5: (
        (16, 17, 9, BLUE),
        (44, 17, 9, GREEN),
        (30, 38, 9, RED),
        (16, 59, 9, GREEN),
        (44, 59, 9, BLUE),
    ),
    6: tuple((x, y, 8.5, GREEN if y == 16 else RED) for y in (16, 38, 60) for x in (19, 41)),
    7: (
        (14, 12, 7, GREEN),
        (30, 20, 7, GREEN),
        (46, 28, 7, GREEN),
        (20, 45, 8, RED),
        (40, 45, 8, RED),
        (20, 63, 8, RED),
        (40, 63, 8, RED),
    ),
    8: tuple((x, y, 7.5, BLUE) for y in (12, 29, 46, 63) for x in (19, 41)),
    9: tuple(
        (x, y, 7.5, (BLUE, RED, GREEN)[row])
        for row, y in enumerate((15, 38, 61))
        for x in (14, 30, 46)
    ),
}


def _circles(rank: int) -> str:
    if rank == 1:
        return (
            _el("circle", cx=30, cy=38, r=20, fill=GREEN)
            + _el("circle", cx=30, cy=38, r=15, fill=FACE)
            + _el("circle", cx=30, cy=38, r=12, fill=RED)
            + _el("circle", cx=30, cy=38, r=7, fill="none", stroke=FACE, stroke_width=2)
            + _el("circle", cx=30, cy=38, r=3, fill=BLUE)
        )
    return "".join(_pip(x, y, r, colour) for x, y, r, colour in _PIPS[rank])


def _stick(x: float, y: float, colour: str, height: float = 22) -> str:
    top = y - height / 2
    return (
        _el("rect", x=x - 3.5, y=top, width=7, height=height, rx=3.5, fill=colour)
        + _el("line", x1=x - 3.5, x2=x + 3.5, y1=y, y2=y, stroke=FACE, stroke_width=1.5)
        + _el(
            "line",
            x1=x,
            x2=x,
            y1=top + 3,
            y2=top + height - 3,
            stroke=FACE,
            stroke_width=1,
            stroke_opacity=0.6,
        )
    )


_STICKS: dict[int, tuple[tuple[float, float, str], ...]] = {
    2: ((30, 24, GREEN), (30, 52, GREEN)),
    3: ((30, 24, GREEN), (20, 52, GREEN), (40, 52, GREEN)),
    4: ((20, 24, GREEN), (40, 24, BLUE), (20, 52, BLUE), (40, 52, GREEN)),
    5: ((16, 24, GREEN), (44, 24, BLUE), (30, 38, RED), (16, 52, BLUE), (44, 52, GREEN)),
    6: tuple((x, y, GREEN) for y in (24, 52) for x in (16, 30, 44)),
    8: tuple((x, y, GREEN if x in (12, 48) else BLUE) for y in (24, 52) for x in (12, 24, 36, 48)),
}


def _bamboo(rank: int) -> str:
    if rank == 1:
        return _bird()
    if rank == 7:
        sticks = [(30.0, 16.0, RED)] + [(x, y, GREEN) for y in (40, 62) for x in (16, 30, 44)]
        return "".join(_stick(x, y, colour, 19) for x, y, colour in sticks)
    if rank == 9:
        return "".join(
            _stick(x, y, RED if x == 30 else GREEN, 19) for y in (15, 38, 61) for x in (16, 30, 44)
        )
    return "".join(_stick(x, y, colour) for x, y, colour in _STICKS[rank])


def _bird() -> str:
    """The one of bamboo: a small bird standing on a stick."""
    return (
        _el("path", d="M18 50 Q14 30 30 26 Q44 24 44 40 Q44 56 26 58 Z", fill=GREEN)
        + _el("path", d="M20 52 L8 64 L14 52 L6 56 L18 46 Z", fill=BLUE)
        + _el("circle", cx=41, cy=20, r=7, fill=RED)
        + _el("path", d="M47 18 L55 21 L47 23 Z", fill="#d99a00")
        + _el("circle", cx=42.5, cy=18.5, r=1.6, fill=FACE)
        + _el("path", d="M24 36 Q32 32 38 40", fill="none", stroke=FACE, stroke_width=2)
        + _el("line", x1=28, y1=58, x2=26, y2=68, stroke=BROWN, stroke_width=2)
        + _el("line", x1=34, y1=57, x2=36, y2=68, stroke=BROWN, stroke_width=2)
        + _el("rect", x=14, y=67, width=32, height=4, rx=2, fill=BROWN)
    )


def _characters(rank: int) -> str:
    return (
        _corner(str(rank), RED)
        + _text(32, 36, ZH_NUMERALS[rank - 1], 25, INK, font_weight=700)
        + _text(30, 66, "萬", 26, RED, font_weight=700)
    )


_WINDS = (("東", "E"), ("南", "S"), ("西", "W"), ("北", "N"))


def _honor(tile: Tile) -> str:
    if tile.is_wind:
        glyph, letter = _WINDS[tile - Tile.EAST]
        return _corner(letter) + _text(31, 54, glyph, 36, INK, font_weight=700)
    if tile is Tile.RED:
        return _text(30, 52, "中", 40, RED, font_weight=700)
    if tile is Tile.GREEN:
        return _text(30, 52, "發", 36, GREEN, font_weight=700)
    return _el(
        "rect", x=12, y=10, width=36, height=56, rx=4, fill="none", stroke=BLUE, stroke_width=3
    ) + _el(
        "rect", x=17, y=15, width=26, height=46, rx=2, fill="none", stroke=BLUE, stroke_width=1.2
    )


_FLOWERS = ("梅", "蘭", "菊", "竹", "春", "夏", "秋", "冬")
_ANIMALS = ("貓", "鼠", "雞", "蜈蚣")


def _bonus(tile: Tile) -> str:
    if tile.is_flower:
        index = tile - Tile.PLUM
        colour = RED if index < 4 else BLUE
        petals = "".join(
            _el("circle", cx=48 + dx, cy=13 + dy, r=2.6, fill=colour, fill_opacity=0.55)
            for dx, dy in ((0, -3.5), (3.4, -1), (2, 3), (-2, 3), (-3.4, -1))
        )
        return (
            _corner(str(index % 4 + 1), colour)
            + petals
            + _text(30, 56, _FLOWERS[index], 32, colour, font_weight=700)
        )
    name = _ANIMALS[tile - Tile.CAT]
    if len(name) == 2:
        return _text(30, 36, name[0], 22, BROWN, font_weight=700) + _text(
            30, 62, name[1], 22, BROWN, font_weight=700
        )
    return _text(30, 54, name, 34, BROWN, font_weight=700)


def tile_art(tile: Tile) -> str:
    """The drawing of one tile, in a 60 x 80 box."""
    if tile.suit.value == "m":
        body = _characters(tile.rank)
    elif tile.suit.value == "p":
        body = _circles(tile.rank)
    elif tile.suit.value == "s":
        body = _bamboo(tile.rank)
    elif tile.is_honor:
        body = _honor(tile)
    else:
        body = _bonus(tile)
    return _face() + body


RED_FIVES = ("0m", "0p", "0s")
"""Riichi's red fives (one dora each), drawn as their five with every mark red."""


def _red_five(suit: str) -> str:
    if suit == "m":
        body = (
            _corner("5", RED)
            + _text(32, 36, ZH_NUMERALS[4], 25, RED, font_weight=700)
            + _text(30, 66, "萬", 26, RED, font_weight=700)
        )
    elif suit == "p":
        body = "".join(_pip(x, y, r, RED) for x, y, r, _ in _PIPS[5])
    else:
        body = "".join(_stick(x, y, RED) for x, y, _ in _STICKS[5])
    # Outlined in red too, so that it reads as red beside a plain five at a glance.
    return _frame(FACE, RED) + body


def _back() -> str:
    return _frame(BACK, "#23604a") + _el(
        "rect",
        x=8,
        y=8,
        width=44,
        height=60,
        rx=5,
        fill="none",
        stroke="#5fa585",
        stroke_width=1.5,
    )


@cache
def sprite() -> str:
    """The whole sprite: `t-<mpsz>` for every tile, `t-0m` `t-0p` `t-0s` for riichi's red
    fives and `t-back` for a face-down tile."""
    symbols = [
        f'<symbol id="t-{tile.mpsz}" viewBox="0 0 {WIDTH} {HEIGHT}">{tile_art(tile)}</symbol>'
        for tile in Tile
    ]
    symbols += [
        f'<symbol id="t-{mpsz}" viewBox="0 0 {WIDTH} {HEIGHT}">{_red_five(mpsz[1])}</symbol>'
        for mpsz in RED_FIVES
    ]
    symbols.append(f'<symbol id="t-back" viewBox="0 0 {WIDTH} {HEIGHT}">{_back()}</symbol>')
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
        + "".join(symbols)
        + "</svg>\n"
    )


@cache
def sprite_version() -> str:
    """A short content hash, for a cache-busting URL."""
    return hashlib.sha256(sprite().encode()).hexdigest()[:12]


def preview() -> str:
    """Every tile laid out on one page (for looking at the art)."""
    cells = []
    for index, tile in enumerate(Tile):
        x = (index % 9) * 64
        y = (index // 9) * 84
        cells.append(f'<use href="#t-{tile.mpsz}" x="{x}" y="{y}" width="60" height="80"/>')
    cells.append('<use href="#t-back" x="448" y="420" width="60" height="80"/>')
    body = sprite().removeprefix(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
    )
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="580" height="510" viewBox="0 0 580 510">'
        + body.removesuffix("</svg>\n")
        + "".join(cells)
        + "</svg>\n"
    )

"""Tile kinds, their MPSZ notation and English names, and the bonus tiles.

A tile is a `Tile` (an `IntEnum`), so it indexes count arrays directly: the 34 playing kinds are
0-33 in Tenhou order (characters, circles, bamboo, then East South West North White Green Red),
and the twelve bonus tiles follow.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from enum import Enum, IntEnum

from companion.errors import TileParseError

KINDS = 34
"""Number of playing tile kinds (bonus tiles excluded)."""


class Suit(Enum):
    CHARACTERS = "m"
    CIRCLES = "p"
    BAMBOO = "s"
    HONORS = "z"
    FLOWERS = "f"
    ANIMALS = "a"

    __hash__ = object.__hash__  # members are singletons; Enum's default hash is slow

    @property
    def is_numbered(self) -> bool:
        return self in NUMBERED_SUITS


NUMBERED_SUITS = (Suit.CHARACTERS, Suit.CIRCLES, Suit.BAMBOO)


class Tile(IntEnum):
    M1 = 0
    M2 = 1
    M3 = 2
    M4 = 3
    M5 = 4
    M6 = 5
    M7 = 6
    M8 = 7
    M9 = 8
    P1 = 9
    P2 = 10
    P3 = 11
    P4 = 12
    P5 = 13
    P6 = 14
    P7 = 15
    P8 = 16
    P9 = 17
    S1 = 18
    S2 = 19
    S3 = 20
    S4 = 21
    S5 = 22
    S6 = 23
    S7 = 24
    S8 = 25
    S9 = 26
    EAST = 27
    SOUTH = 28
    WEST = 29
    NORTH = 30
    WHITE = 31
    GREEN = 32
    RED = 33
    PLUM = 34
    ORCHID = 35
    CHRYSANTHEMUM = 36
    BAMBOO_FLOWER = 37
    SPRING = 38
    SUMMER = 39
    AUTUMN = 40
    WINTER = 41
    CAT = 42
    MOUSE = 43
    ROOSTER = 44
    CENTIPEDE = 45

    # Hash as the int it equals (Enum's default hashes the name, in Python, on every lookup).
    __hash__ = int.__hash__

    @property
    def suit(self) -> Suit:
        return _SUIT[self]

    @property
    def rank(self) -> int:
        """1-9 for numbered tiles; 1-7 for honors; 1-8 for flowers; 1-4 for animals."""
        return _RANK[self]

    @property
    def mpsz(self) -> str:
        return _MPSZ[self]

    @property
    def english(self) -> str:
        return _ENGLISH[self]

    @property
    def is_bonus(self) -> bool:
        return self >= KINDS

    @property
    def is_honor(self) -> bool:
        return Tile.EAST <= self <= Tile.RED

    @property
    def is_wind(self) -> bool:
        return Tile.EAST <= self <= Tile.NORTH

    @property
    def is_dragon(self) -> bool:
        return Tile.WHITE <= self <= Tile.RED

    @property
    def is_terminal(self) -> bool:
        return self < KINDS and not self.is_honor and _RANK[self] in (1, 9)

    @property
    def is_flower(self) -> bool:
        """A flower or a season (not an animal)."""
        return Tile.PLUM <= self <= Tile.WINTER

    @property
    def is_animal(self) -> bool:
        return self >= Tile.CAT

    def __str__(self) -> str:
        return _MPSZ[self]


_SUIT_ORDER = (Suit.CHARACTERS, Suit.CIRCLES, Suit.BAMBOO)
_SUIT: dict[int, Suit] = {}
_RANK: dict[int, int] = {}
for _tile in Tile:
    if _tile < Tile.EAST:
        _SUIT[_tile] = _SUIT_ORDER[_tile // 9]
        _RANK[_tile] = _tile % 9 + 1
    elif _tile < Tile.PLUM:
        _SUIT[_tile] = Suit.HONORS
        _RANK[_tile] = _tile - Tile.EAST + 1
    elif _tile < Tile.CAT:
        _SUIT[_tile] = Suit.FLOWERS
        _RANK[_tile] = _tile - Tile.PLUM + 1
    else:
        _SUIT[_tile] = Suit.ANIMALS
        _RANK[_tile] = _tile - Tile.CAT + 1
_MPSZ: dict[int, str] = {t: f"{_RANK[t]}{_SUIT[t].value}" for t in Tile}

_SUIT_WORDS = {Suit.CHARACTERS: "characters", Suit.CIRCLES: "circles", Suit.BAMBOO: "bamboo"}
_HONOR_NAMES = ("East", "South", "West", "North", "white dragon", "green dragon", "red dragon")
_BONUS_NAMES = (
    "plum",
    "orchid",
    "chrysanthemum",
    "bamboo flower",
    "spring",
    "summer",
    "autumn",
    "winter",
    "cat",
    "mouse",
    "rooster",
    "centipede",
)
_ENGLISH: dict[int, str] = {}
for _tile in Tile:
    if _tile < Tile.EAST:
        _ENGLISH[_tile] = f"{_RANK[_tile]} of {_SUIT_WORDS[_SUIT[_tile]]}"
    elif _tile < Tile.PLUM:
        _ENGLISH[_tile] = _HONOR_NAMES[_tile - Tile.EAST]
    else:
        _ENGLISH[_tile] = _BONUS_NAMES[_tile - Tile.PLUM]


def _name_table() -> dict[str, Tile]:
    """Every accepted spelling of a tile name, lower-case, words separated by one space."""
    names: dict[str, Tile] = {}
    suit_aliases = {
        Suit.CHARACTERS: ("characters", "character", "craks", "crak"),
        Suit.CIRCLES: ("circles", "circle", "dots", "dot"),
        Suit.BAMBOO: ("bamboo", "bamboos", "bams", "bam"),
    }
    for tile in Tile:
        names[_ENGLISH[tile].lower()] = tile
        if tile < Tile.EAST:
            for alias in suit_aliases[_SUIT[tile]]:
                names[f"{_RANK[tile]} of {alias}"] = tile
                names[f"{_RANK[tile]} {alias}"] = tile
    for wind in ("east", "south", "west", "north"):
        names[f"{wind} wind"] = names[wind]
    for dragon in ("white", "green", "red"):
        names[dragon] = names[f"{dragon} dragon"]
    names["bamboo"] = Tile.BAMBOO_FLOWER
    names["chrysanthemums"] = Tile.CHRYSANTHEMUM
    names["fall"] = Tile.AUTUMN
    names["rat"] = Tile.MOUSE
    names["chicken"] = Tile.ROOSTER
    return names


TILE_NAMES: dict[str, Tile] = _name_table()
_MAX_NAME_WORDS = max(len(name.split()) for name in TILE_NAMES)
_SUIT_BY_LETTER = {suit.value: suit for suit in Suit}
_SUIT_SIZE = {
    Suit.CHARACTERS: 9,
    Suit.CIRCLES: 9,
    Suit.BAMBOO: 9,
    Suit.HONORS: 7,
    Suit.FLOWERS: 8,
    Suit.ANIMALS: 4,
}
_FIRST_OF_SUIT = {
    Suit.CHARACTERS: Tile.M1,
    Suit.CIRCLES: Tile.P1,
    Suit.BAMBOO: Tile.S1,
    Suit.HONORS: Tile.EAST,
    Suit.FLOWERS: Tile.PLUM,
    Suit.ANIMALS: Tile.CAT,
}
_WORD = re.compile(r"[^\s,;]+")
_BY_INDEX = tuple(Tile)
_LETTER = {tile: _SUIT[tile].value for tile in Tile}
_DIGIT = {tile: str(_RANK[tile]) for tile in Tile}
_MPSZ_GROUP = re.compile(r"(\d+)([a-z])?")


def parse_tiles(text: str) -> tuple[Tile, ...]:
    """Read tiles written in MPSZ (`123m456p11z`, `1f`, `2a`) or by name, in the order written.

    Names and MPSZ groups may be mixed and separated by spaces or commas
    (`"East, East, red dragon, 5s"`). An unknown tile is refused with its position (1-based,
    counted in characters of `text`).
    """
    if text.isalnum():
        # One word, as a request's hand usually is: the same reading without the word split.
        named = TILE_NAMES.get(text.lower())
        return (named,) if named is not None else tuple(_parse_mpsz_word(text, 0))
    words = [(match.start(), match.group()) for match in _WORD.finditer(text)]
    tiles: list[Tile] = []
    index = 0
    while index < len(words):
        for width in range(min(_MAX_NAME_WORDS, len(words) - index), 0, -1):
            phrase = " ".join(word.lower() for _, word in words[index : index + width])
            named = TILE_NAMES.get(phrase)
            if named is not None:
                tiles.append(named)
                index += width
                break
        else:
            start, word = words[index]
            tiles.extend(_parse_mpsz_word(word, start))
            index += 1
    return tuple(tiles)


def _parse_mpsz_word(word: str, start: int) -> list[Tile]:
    # Every request's hand passes here: plain ASCII MPSZ is cut into its runs (`123m`) by one
    # regular expression and each run read from a memo of runs, and anything else (an error to
    # report, another script's digits) goes to the full reader.
    if _PLAIN_MPSZ.fullmatch(word) is None:
        return _read_mpsz_word(word, start)
    tiles: list[Tile] = []
    for run in _MPSZ_RUN.findall(word):
        found = _RUN_TILES.get(run)
        if found is None:
            found = _run_tiles(run)
            if not found:
                return _read_mpsz_word(word, start)
        tiles += found
    return tiles


def _run_tiles(run: str) -> tuple[Tile, ...]:
    """The tiles of one run of digits and its letter, remembered; empty when one is no tile
    (for the full reader to report)."""
    letter = run[-1]
    found: list[Tile] = []
    for digit in run[:-1]:
        tile = _MPSZ_TILES.get(digit + letter)
        if tile is None:
            return ()
        found.append(tile)
    if len(_RUN_TILES) >= _MAX_RUNS:
        _RUN_TILES.clear()
    tiles = _RUN_TILES[run] = tuple(found)
    return tiles


_PLAIN_MPSZ = re.compile(r"(?:[0-9]+[a-z])+")
_MPSZ_RUN = re.compile(r"[0-9]+[a-z]")
_RUN_TILES: dict[str, tuple[Tile, ...]] = {}
"""Runs of ASCII MPSZ read before (`123m`, `55s`), by their text."""
_MAX_RUNS = 4096
"""Past this many different runs the memo is forgotten and filled again."""


def _read_mpsz_word(word: str, start: int) -> list[Tile]:
    tiles: list[Tile] = []
    position = 0
    while position < len(word):
        match = _MPSZ_GROUP.match(word, position)
        if match is None:
            bad = re.match(r"[^\d]+", word[position:])
            token = bad.group() if bad else word[position:]
            raise TileParseError(
                f'unknown tile "{token}" at position {start + position + 1}',
                key="refusal.unknown_tile",
                params={"text": token, "position": start + position + 1},
            )
        digits, letter = match.group(1), match.group(2)
        if letter is None or letter not in _SUIT_BY_LETTER:
            shown = digits + (letter or "")
            raise TileParseError(
                f'unknown tile "{shown}" at position {start + position + 1}: digits need a '
                "suit letter m, p, s, z, f or a",
                key="refusal.unknown_tile_suit",
                params={"text": shown, "position": start + position + 1},
            )
        suit = _SUIT_BY_LETTER[letter]
        for offset, digit in enumerate(digits):
            rank = int(digit)
            if not 1 <= rank <= _SUIT_SIZE[suit]:
                raise TileParseError(
                    f'unknown tile "{digit}{letter}" at position {start + position + offset + 1}',
                    key="refusal.unknown_tile",
                    params={"text": digit + letter, "position": start + position + offset + 1},
                )
            tiles.append(_BY_INDEX[_FIRST_OF_SUIT[suit] + rank - 1])
        position = match.end()
    return tiles


_MPSZ_TILES = {
    f"{rank}{letter}": _BY_INDEX[_FIRST_OF_SUIT[suit] + rank - 1]
    for letter, suit in _SUIT_BY_LETTER.items()
    for rank in range(1, _SUIT_SIZE[suit] + 1)
}
"""One digit and its suit letter, as ASCII MPSZ writes a tile."""


def parse_tile(text: str) -> Tile:
    """Exactly one tile."""
    tiles = parse_tiles(text)
    if len(tiles) != 1:
        raise TileParseError(
            f'"{text}" is {len(tiles)} tiles, expected exactly one',
            key="refusal.not_one_tile",
            params={"text": text, "count": len(tiles)},
        )
    return tiles[0]


def format_tiles(tiles: Iterable[Tile]) -> str:
    """MPSZ in the given order, with neighbouring tiles of one suit sharing their letter.

    `parse_tiles(format_tiles(t)) == tuple(t)` for every sequence `t`.
    """
    parts: list[str] = []
    digits: list[str] = []
    letter = ""
    for tile in tiles:
        tile_letter = _LETTER[tile]
        if tile_letter != letter and digits:
            parts.append("".join(digits) + letter)
            digits = []
        letter = tile_letter
        digits.append(_DIGIT[tile])
    if digits:
        parts.append("".join(digits) + letter)
    return "".join(parts)


def english_list(tiles: Sequence[Tile]) -> str:
    return ", ".join(_ENGLISH[tile] for tile in tiles)


class Wind(Enum):
    """A seat or round wind, written `E` `S` `W` `N`."""

    EAST = "E"
    SOUTH = "S"
    WEST = "W"
    NORTH = "N"

    # Members are singletons compared by identity: hash them the same cheap way.
    __hash__ = object.__hash__

    @property
    def index(self) -> int:
        return _WIND_INDEX[self]

    @property
    def tile(self) -> Tile:
        return _WIND_TILE[self]

    @property
    def english(self) -> str:
        return _HONOR_NAMES[self.index]

    def next(self, steps: int = 1) -> Wind:
        return _WIND_ORDER[(self.index + steps) % 4]

    @classmethod
    def from_letter(cls, text: str) -> Wind | None:
        """The wind a seat letter names (`E`, `s`, ` W `), or None: the strict form a scoring
        request and a payout take (`parse` reads names and tiles too)."""
        return _WIND_BY_LETTER.get(text.strip().upper())

    @classmethod
    def parse(cls, text: str) -> Wind:
        """`E`, `east`, `East wind` or `1z`."""
        key = text.strip().lower().removesuffix(" wind")
        for wind in _WIND_ORDER:
            if key in (wind.value.lower(), wind.english.lower(), wind.tile.mpsz):
                return wind
        raise TileParseError(
            f'"{text}" is not a wind: use E, S, W or N',
            key="refusal.not_a_wind",
            params={"text": text},
        )


_WIND_ORDER = (Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH)
_WIND_INDEX = {wind: index for index, wind in enumerate(_WIND_ORDER)}
_WIND_TILE = {wind: Tile(Tile.EAST + index) for index, wind in enumerate(_WIND_ORDER)}
_WIND_BY_LETTER = {wind.value: wind for wind in _WIND_ORDER}
WINDS = _WIND_ORDER


def bonus_seat(tile: Tile) -> Wind | None:
    """The seat a flower or season belongs to (1f/5f East ... 4f/8f North); None otherwise."""
    if not tile.is_flower:
        return None
    return _WIND_ORDER[(tile.rank - 1) % 4]


FLOWERS = (Tile.PLUM, Tile.ORCHID, Tile.CHRYSANTHEMUM, Tile.BAMBOO_FLOWER)
SEASONS = (Tile.SPRING, Tile.SUMMER, Tile.AUTUMN, Tile.WINTER)
ANIMALS = (Tile.CAT, Tile.MOUSE, Tile.ROOSTER, Tile.CENTIPEDE)
DRAGONS = (Tile.WHITE, Tile.GREEN, Tile.RED)
WIND_TILES = (Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH)
TERMINALS_AND_HONORS = (
    Tile.M1,
    Tile.M9,
    Tile.P1,
    Tile.P9,
    Tile.S1,
    Tile.S9,
    *WIND_TILES,
    *DRAGONS,
)

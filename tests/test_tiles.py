from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.errors import TileParseError
from companion.tiles import (
    KINDS,
    Suit,
    Tile,
    Wind,
    bonus_seat,
    format_tiles,
    parse_tile,
    parse_tiles,
)


def test_thirty_four_kinds_in_tenhou_order() -> None:
    playing = [tile for tile in Tile if not tile.is_bonus]
    assert len(playing) == KINDS == 34
    assert [tile.mpsz for tile in playing[:9]] == [f"{n}m" for n in range(1, 10)]
    assert Tile.P1.mpsz == "1p" and Tile.S9.mpsz == "9s"
    assert [tile.english for tile in playing[27:]] == [
        "East",
        "South",
        "West",
        "North",
        "white dragon",
        "green dragon",
        "red dragon",
    ]


def test_bonus_tiles_named_as_in_rules() -> None:
    assert [tile.mpsz for tile in Tile if tile.is_bonus] == [
        *(f"{n}f" for n in range(1, 9)),
        *(f"{n}a" for n in range(1, 5)),
    ]
    assert parse_tiles("1f 4f 5f 8f") == (
        Tile.PLUM,
        Tile.BAMBOO_FLOWER,
        Tile.SPRING,
        Tile.WINTER,
    )
    assert parse_tiles("1a2a3a4a") == (Tile.CAT, Tile.MOUSE, Tile.ROOSTER, Tile.CENTIPEDE)


def test_runs_compress() -> None:
    assert parse_tiles("123m456p11z") == (
        Tile.M1,
        Tile.M2,
        Tile.M3,
        Tile.P4,
        Tile.P5,
        Tile.P6,
        Tile.EAST,
        Tile.EAST,
    )


@pytest.mark.parametrize(
    "text",
    ["123m456p11z", "1m4p2m", "19m19p19s1234567z", "58f1a", "", "999s77z"],
)
def test_parse_format_round_trip(text: str) -> None:
    tiles = parse_tiles(text)
    assert format_tiles(tiles) == text
    assert parse_tiles(format_tiles(tiles)) == tiles


def test_round_trip_over_every_tile() -> None:
    tiles = tuple(Tile)
    assert parse_tiles(format_tiles(tiles)) == tiles
    assert parse_tiles(", ".join(tile.english for tile in tiles)) == tiles


@pytest.mark.parametrize(
    ("text", "tile"),
    [
        ("East", Tile.EAST),
        ("east wind", Tile.EAST),
        ("red dragon", Tile.RED),
        ("Red", Tile.RED),
        ("spring", Tile.SPRING),
        ("cat", Tile.CAT),
        ("chicken", Tile.ROOSTER),
        ("5 of circles", Tile.P5),
        ("5 dots", Tile.P5),
        ("1 of characters", Tile.M1),
        ("3 of bamboo", Tile.S3),
        ("bamboo", Tile.BAMBOO_FLOWER),
    ],
)
def test_names(text: str, tile: Tile) -> None:
    assert parse_tile(text) == tile


def test_names_and_mpsz_mix() -> None:
    assert parse_tiles("East, East, red dragon 5s") == (Tile.EAST, Tile.EAST, Tile.RED, Tile.S5)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("123m8z", '"8z" at position 5'),
        ("0m", '"0m" at position 1'),
        ("123m 9f", '"9f" at position 6'),
        ("5a", '"5a" at position 1'),
        ("11z dragon", '"dragon" at position 5'),
        ("123", '"123" at position 1'),
        ("12x", '"12x" at position 1'),
    ],
)
def test_unknown_tile_names_it_and_its_position(text: str, fragment: str) -> None:
    with pytest.raises(TileParseError, match=fragment):
        parse_tiles(text)


def test_tile_properties() -> None:
    assert Tile.M1.is_terminal and Tile.S9.is_terminal and not Tile.M5.is_terminal
    assert not Tile.EAST.is_terminal and Tile.EAST.is_honor and Tile.EAST.is_wind
    assert Tile.GREEN.is_dragon and not Tile.GREEN.is_wind
    assert Tile.P5.suit is Suit.CIRCLES and Tile.P5.rank == 5
    assert Tile.SPRING.is_flower and Tile.SPRING.is_bonus and not Tile.SPRING.is_animal
    assert Tile.CAT.is_animal and not Tile.CAT.is_flower


def test_bonus_seats() -> None:
    assert [bonus_seat(t) for t in (Tile.PLUM, Tile.SPRING)] == [Wind.EAST, Wind.EAST]
    assert bonus_seat(Tile.BAMBOO_FLOWER) is Wind.NORTH
    assert bonus_seat(Tile.SUMMER) is Wind.SOUTH
    assert bonus_seat(Tile.CAT) is None
    assert bonus_seat(Tile.M1) is None


def test_winds() -> None:
    assert Wind.parse("E") is Wind.EAST
    assert Wind.parse("north") is Wind.NORTH
    assert Wind.parse("3z") is Wind.WEST
    assert Wind.SOUTH.tile is Tile.SOUTH
    assert Wind.NORTH.next() is Wind.EAST
    with pytest.raises(TileParseError, match="not a wind"):
        Wind.parse("X")


# The fast reader of ASCII MPSZ words must read or refuse every word exactly as the full reader
# does (the same tiles, or the same error at the same position).
_WORD_ALPHABET = "0123456789mpszfaxq٣"


def _read(reader: object, word: str) -> tuple[str, object]:
    try:
        return ("tiles", reader(word, 4))  # type: ignore[operator]
    except TileParseError as error:
        return ("error", str(error))


@given(st.text(alphabet=_WORD_ALPHABET, min_size=1, max_size=16))
def test_the_fast_mpsz_reader_agrees_with_the_full_reader(word: str) -> None:
    from companion import tiles

    fast = _read(tiles._parse_mpsz_word, word)
    assert fast == _read(tiles._read_mpsz_word, word)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("123m", (Tile.M1, Tile.M2, Tile.M3)),
        ("East", (Tile.EAST,)),
        ("7z1f4a", (Tile.RED, Tile.PLUM, Tile.CENTIPEDE)),
        ("٣m", (Tile.M3,)),
    ],
)
def test_one_word_hands_read_as_before(text: str, expected: tuple[Tile, ...]) -> None:
    assert parse_tiles(text) == expected
    assert parse_tiles(f" {text} ") == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("123m8z", 'unknown tile "8z" at position 5'),
        ("12", 'unknown tile "12" at position 1: digits need a suit letter m, p, s, z, f or a'),
        ("m12p", 'unknown tile "m" at position 1'),
        ("5a", 'unknown tile "5a" at position 1'),
    ],
)
def test_one_word_refusals_name_the_tile_and_position(text: str, message: str) -> None:
    with pytest.raises(TileParseError) as refusal:
        parse_tiles(text)
    assert str(refusal.value) == message

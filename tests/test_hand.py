from __future__ import annotations

import pytest

from companion.errors import InvalidHandError, TileParseError
from companion.hand import Hand, Meld, MeldKind, parse_hand
from companion.tiles import Tile, parse_tiles


def test_complete_hand_defaults_winning_tile_to_last_written() -> None:
    hand = parse_hand("123m456p789s111z55s")
    assert hand.winning_tile is Tile.S5
    assert hand.is_complete and hand.is_closed
    assert len(hand.concealed) == 14


def test_declared_groups_and_bonus() -> None:
    hand = parse_hand("123m456p55s", ["pung 777z", "pung 666z"], "1f", "5s")
    assert [m.kind for m in hand.melds] == [MeldKind.PUNG, MeldKind.PUNG]
    assert hand.bonus == (Tile.PLUM,)
    assert str(hand) == "123m456p55s [pung 777z] [pung 666z] +1f"


@pytest.mark.parametrize(
    ("text", "kind", "tiles"),
    [
        ("chow 123m", MeldKind.CHOW, "123m"),
        ("chow 3p", MeldKind.CHOW, "345p"),
        ("pung 777z", MeldKind.PUNG, "777z"),
        ("pong 7z", MeldKind.PUNG, "777z"),
        ("kong 5s", MeldKind.KONG, "5555s"),
        ("akong 1111m", MeldKind.ADDED_KONG, "1111m"),
        ("ckong 9999p", MeldKind.CONCEALED_KONG, "9999p"),
    ],
)
def test_meld_parse(text: str, kind: MeldKind, tiles: str) -> None:
    meld = Meld.parse(text)
    assert meld.kind is kind
    assert meld.tiles == parse_tiles(tiles)


def test_kongs_keep_the_structural_count() -> None:
    hand = parse_hand("123m456p55s", ["kong 7777z", "ckong 6666z"])
    assert hand.counts()[Tile.RED] == 4


def test_five_set_hand_needs_seventeen() -> None:
    hand = parse_hand("123m456m789m123p456p55s", sets=5)
    assert hand.sets == 5
    with pytest.raises(InvalidHandError, match="has 14 structural tiles, but a hand of five"):
        parse_hand("123m456p789s111z55s", sets=5)


def _problems(**kwargs: object) -> tuple[str, ...]:
    with pytest.raises(InvalidHandError) as caught:
        parse_hand(**kwargs)  # type: ignore[arg-type]
    return caught.value.problems


def test_wrong_count() -> None:
    (problem,) = _problems(hand="123m456p789s111z5s")
    assert "13 structural tiles" in problem and "14" in problem


def test_wrong_count_with_kong_explains_kongs() -> None:
    (problem,) = _problems(hand="123m456p55s5s", melds=["kong 7777z"])
    assert "a kong counts as three" in problem


def test_fifth_copy_counting_melds() -> None:
    (problem,) = _problems(hand="123m456p789p55s", melds=["pung 555s"])
    assert "5 of bamboo (5s) appears 5 times counting declared groups; there are four" in problem


def test_duplicated_bonus_tile() -> None:
    (problem,) = _problems(hand="123m456p789s111z55s", bonus="1f1f")
    assert "plum (1f) is listed 2 times" in problem


def test_non_bonus_in_bonus() -> None:
    (problem,) = _problems(hand="123m456p789s111z55s", bonus="5s")
    assert "5 of bamboo (5s) is not a bonus tile" in problem


def test_bonus_in_concealed() -> None:
    problems = _problems(hand="123m456p789s111z55s1f")
    assert any("bonus tiles are set aside" in p for p in problems)


@pytest.mark.parametrize("chow", ["chow 135m", "chow 89m1p", "chow 123z", "chow 9m12p"])
def test_bad_chow(chow: str) -> None:
    (problem,) = _problems(hand="123m456p55s", melds=[chow, "pung 777z"])
    assert "is not a chow" in problem


def test_unequal_pung_and_kong() -> None:
    problems = _problems(hand="123m456p55s", melds=["pung 667z", "kong 6665z"])
    assert any("pung 667z is not a pung" in p for p in problems)
    assert any("kong 6665z is not a kong" in p for p in problems)


def test_meld_size() -> None:
    (problem,) = _problems(hand="123m456p55s", melds=["pung 7777z", "pung 666z"])
    assert "must have 3 tiles, not 4" in problem


def test_winning_tile_not_in_hand() -> None:
    (problem,) = _problems(hand="123m456p789s111z55s", winning_tile="9m")
    assert "winning tile 9 of characters (9m) is not among the concealed tiles" in problem


def test_several_problems_reported_together() -> None:
    problems = _problems(hand="123m456p789s111z5s", bonus="2f2f", winning_tile="9m")
    assert len(problems) == 3


def test_unknown_meld_kind() -> None:
    with pytest.raises(TileParseError, match="unknown group"):
        Meld.parse("triple 777z")


def test_waiting_hand_round_trip() -> None:
    hand = parse_hand("123m456p789s111z55s", winning_tile="1z")
    waiting = hand.without_winning_tile()
    assert not waiting.is_complete
    assert sorted(waiting.with_winning_tile(Tile.EAST).concealed) == sorted(hand.concealed)
    built = Hand.build(waiting.concealed, complete=False)
    assert built.winning_tile is None

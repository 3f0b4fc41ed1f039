"""The `hk` profile: every pattern with its near miss, every option, the replacements, the
minimum and maximum, both curves and both guns, liability, a robbed kong, and three hands
worked out by hand."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import pytest

from companion.errors import InvalidRequestError
from companion.rules import get_profile, profiles
from companion.rules.hk.options import HkOptions
from companion.rules.hk.patterns import PATTERNS
from companion.rules.hk.profile import HK, payment
from companion.scoring import ScoreResult, score
from results import paid, pays
from results import tai_of as faan_of


def hk(hand: str | None = None, **fields: Any) -> ScoreResult:
    request = {"profile": "hk", **fields}
    if hand is not None:
        request["hand"] = hand
    return score(request)


FROM_S = {"win": "discard", "discarder": "S"}
CHOWS = "123m456p789s234m55p"
"""Four chows and a pair: the common hand, concealed."""
OPEN_PUNG = {"melds": ["pung 333p"]}
"""A claimed group: takes Concealed hand away."""
PLAIN = "123m456p789s55p"
"""With `OPEN_PUNG`: a chow hand with one pung, worth nothing but its flower faan."""
ORPHANS = "19m19p19s1234567z1m"
TRIPLETS_ON_A_DISCARD: dict[str, Any] = {
    "hand": "777m222m55m",
    "melds": ["pung 777z", "pung 444m"],
    "bonus": "2f",
    "win": "discard",
    "discarder": "N",
}
"""All triplets and one suit with a red-dragon pung, East winning on North's discard."""


# --- the three hands of the issue, worked by hand -------------------------------------------


def test_concealed_common_hand_self_drawn_for_south() -> None:
    # 123m 234m 456p 789s + 55p, no claimed group, no bonus tile, South self-draws:
    #   Common hand 1 + Self-draw 1 + Concealed hand 1 + No flowers 1 = 4 faan.
    # Without the flower faan it is 3: exactly the minimum, so it is paid.
    # Half-spicy M(4) = 16, base 1: P = 16, and each of the other three pays P.
    result = hk(CHOWS, seat="S")
    assert faan_of(result) == {"chow_hand": 1, "self_draw": 1, "concealed_hand": 1, "no_flowers": 1}
    assert (result.tai, result.raw_tai, result.meets_minimum) == (4, 4, True)
    assert paid(result) == pays(S=48, E=-16, W=-16, N=-16)
    assert result.to_json()["unit"] == "faan"


def test_all_triplets_mixed_suit_red_dragon_on_a_discard() -> None:
    # Red dragon and 444m claimed, 777m 222m concealed, 55m pair won on North's discard;
    # East holds South's flower (2f), so neither No flowers nor Seat flower.
    #   All triplets 3 + Mixed one suit 3 + Dragon pung 1 = 7 faan (no Concealed hand).
    # Half-spicy M(7) = 48; full gun: North alone pays 2P = 96.
    result = hk(**TRIPLETS_ON_A_DISCARD)
    assert faan_of(result) == {"all_triplets": 3, "half_flush": 3, "dragon_set": 1}
    assert result.tai == 7
    assert paid(result) == pays(E=96, N=-96)


def test_thirteen_orphans_self_drawn() -> None:
    # A limit hand: the maximum, 13 faan, and nothing else (not even Self-draw, Concealed
    # hand, No flowers or Mixed orphans). Half-spicy M(13) = 384: each of the three pays it.
    result = hk(ORPHANS)
    assert faan_of(result) == {"thirteen_orphans": 13}
    assert paid(result) == pays(E=3 * 384, S=-384, W=-384, N=-384)


# --- the table --------------------------------------------------------------------------------


def test_registered_with_faan_as_its_unit() -> None:
    assert get_profile("hk") is HK
    assert list(profiles()) == ["sg", "sg-table", "tw", "hk", "riichi", "sanma", "mcr"]
    assert HK.unit == "faan"
    others = {profile.unit for profile in profiles().values() if profile.id != "hk"}
    assert others == {"tai", "han", "fan"}


def test_limit_hands_replace_every_ordinary_pattern() -> None:
    ordinary = {pattern.id for pattern in PATTERNS if not pattern.limit}
    limits = [pattern for pattern in HK.patterns if pattern.limit]
    assert {pattern.id for pattern in limits} == {
        "thirteen_orphans",
        "nine_gates",
        "big_winds",
        "little_winds",
        "all_honors",
        "all_terminals",
        "four_kongs",
        "hidden_treasure",
        "heavenly",
        "earthly",
        "eight_bonus",
    }
    for pattern in limits:
        assert pattern.replaces == ordinary
        assert pattern.tai == 13


def test_the_maximum_option_makes_the_limit_hands_worth_it() -> None:
    table = HK.patterns_for(HK.parse_options({"max_faan": 8}))
    eight = {pattern.id: pattern.tai for pattern in table if pattern.limit}
    assert set(eight.values()) == {8}


# --- each pattern and its near miss -----------------------------------------------------------


def test_common_hand_and_a_pung_instead() -> None:
    assert faan_of(hk(CHOWS, **FROM_S))["chow_hand"] == 1
    assert "chow_hand" not in faan_of(hk("123m456p789s222m55p", **FROM_S))


def test_all_triplets_and_one_chow_instead() -> None:
    melds = {"melds": ["pung 111m", "pung 222p"]}
    assert faan_of(hk("333s444m55p", **melds, **FROM_S)) == {"all_triplets": 3, "no_flowers": 1}
    assert faan_of(hk("345s444m55p", **melds, **FROM_S)) == {"no_flowers": 1}


def test_mixed_one_suit_and_another_suit() -> None:
    found = faan_of(hk("123m456m789m22m", melds=["pung 333z"], **FROM_S))
    assert found == {"half_flush": 3, "no_flowers": 1}
    assert faan_of(hk("123m456m789p22m", melds=["pung 333z"], **FROM_S)) == {"no_flowers": 1}


def test_all_one_suit_replaces_mixed_one_suit() -> None:
    found = faan_of(hk("123m456m789m22m", melds=["pung 333m"], **FROM_S))
    assert found == {"full_flush": 7, "no_flowers": 1}
    # The near miss: one honor set makes it Mixed one suit.
    found = faan_of(hk("123m456m789m22m", melds=["pung 333z"], **FROM_S))
    assert found == {"half_flush": 3, "no_flowers": 1}


def test_mixed_orphans_adds_to_all_triplets() -> None:
    melds = {"melds": ["pung 111m", "pung 999p"]}
    found = faan_of(hk("333z444z55z", **melds, **FROM_S))
    assert found == {"all_triplets": 3, "mixed_terminals_honors": 1, "no_flowers": 1}
    # A 2 among them is not an orphan.
    found = faan_of(hk("333z444z55z", melds=["pung 222m", "pung 999p"], **FROM_S))
    assert found == {"all_triplets": 3, "no_flowers": 1}


def test_dragon_pung_each_and_a_dragon_pair_scores_nothing() -> None:
    found = faan_of(hk("123m456p55z666z", **OPEN_PUNG, **FROM_S))
    assert found["dragon_set"] == 1
    found = faan_of(hk("123m456p789s55z", **OPEN_PUNG, **FROM_S))
    assert "dragon_set" not in found


def test_seat_wind_and_prevailing_wind() -> None:
    south_pung = {"melds": ["pung 222z"]}
    seat = faan_of(hk("123m456p789s55p", **south_pung, seat="S", **FROM_S | {"discarder": "E"}))
    assert (seat["seat_wind"], "prevailing_wind" in seat) == (1, False)
    both = faan_of(
        hk("123m456p789s55p", **south_pung, seat="S", round="S", win="discard", discarder="E")
    )
    assert (both["seat_wind"], both["prevailing_wind"]) == (1, 1)
    prevailing = faan_of(hk("123m456p789s55p", **south_pung, seat="W", round="S", **FROM_S))
    assert ("seat_wind" in prevailing, prevailing["prevailing_wind"]) == (False, 1)
    # West's pung for South in the East round: a guest wind, nothing.
    guest = faan_of(
        hk("123m456p789s55p", melds=["pung 333z"], seat="S", win="discard", discarder="E")
    )
    assert "seat_wind" not in guest and "prevailing_wind" not in guest


def test_small_dragons_includes_its_two_dragon_pungs() -> None:
    found = faan_of(hk("123m456p77z", melds=["pung 555z", "pung 666z"], **FROM_S))
    assert found == {"little_dragons": 5, "no_flowers": 1}
    # Two dragon pungs without the third dragon's pair: two dragon pungs only.
    found = faan_of(hk("123m456p11s", melds=["pung 555z", "pung 666z"], **FROM_S))
    assert found == {"dragon_set": 2, "no_flowers": 1}


def test_great_dragons_replaces_the_dragon_pungs() -> None:
    melds = {"melds": ["pung 555z", "pung 666z", "pung 777z"]}
    found = faan_of(hk("123m55s", **melds, **FROM_S))
    assert found == {"big_dragons": 8, "no_flowers": 1}


def test_great_dragons_as_a_limit_hand() -> None:
    melds = {"melds": ["pung 555z", "pung 666z", "pung 777z"]}
    result = hk("123m55s", **melds, **FROM_S, options={"great_dragons_limit": True})
    assert faan_of(result) == {"big_dragons": 13}
    assert result.tai == 13
    capped = hk("123m55s", **melds, **FROM_S, options={"great_dragons_limit": True, "max_faan": 10})
    assert (faan_of(capped), capped.tai) == ({"big_dragons": 10}, 10)


def test_self_draw_and_concealed_hand() -> None:
    assert faan_of(hk(CHOWS)) == {
        "chow_hand": 1,
        "self_draw": 1,
        "concealed_hand": 1,
        "no_flowers": 1,
    }
    # On a discard: no Self-draw, and Concealed hand still counts.
    assert faan_of(hk(CHOWS, **FROM_S)) == {"chow_hand": 1, "concealed_hand": 1, "no_flowers": 1}


def test_a_concealed_kong_keeps_the_hand_concealed_a_claimed_group_does_not() -> None:
    concealed = faan_of(hk("123m456p789s55p", melds=["ckong 2222s"], **FROM_S))
    assert concealed["concealed_hand"] == 1
    claimed = faan_of(hk("123m456p789s55p", melds=["kong 2222s"], **FROM_S))
    assert "concealed_hand" not in claimed


def test_robbing_a_kong_is_paid_by_the_kongs_declarer_as_a_discard() -> None:
    # Two chows, a claimed pung and a pair; West robs the 6s South adds to a kong, completing
    # 456s: Robbing a kong 1 + No flowers 1 = 2 faan (the minimum lowered to 0).
    result = hk(
        "123m456p456s77p",
        win_tile="6s",
        **OPEN_PUNG,
        seat="W",
        win="discard",
        discarder="S",
        events=["robbing_kong"],
        options={"min_faan": 0},
    )
    assert faan_of(result) == {"robbing_kong": 1, "no_flowers": 1}
    # 2 faan: M(2) = 4; the declarer pays 2P = 8 (full gun), as for a discard.
    assert paid(result) == pays(W=8, S=-8)
    near = hk(
        "123m456p456s77p",
        win_tile="6s",
        **OPEN_PUNG,
        seat="W",
        win="discard",
        discarder="S",
        options={"min_faan": 0},
    )
    assert "robbing_kong" not in faan_of(near)


def test_robbing_a_kong_cannot_be_a_self_draw() -> None:
    result = hk(CHOWS, events=["robbing_kong"])
    assert not result.valid
    assert result.error == (
        "robbing_kong wins on another player's kong tile: enter it as a discard win, with the "
        "kong's declarer as discarder"
    )


def test_last_tile_is_a_self_draw() -> None:
    assert faan_of(hk(CHOWS, events=["last_tile"]))["last_tile"] == 1
    on_discard = hk(CHOWS, **FROM_S, events=["last_tile"])
    assert not on_discard.valid
    assert "cannot be a discard win" in (on_discard.error or "")


def test_win_on_a_kong_replacement_is_two_with_the_self_draw() -> None:
    found = faan_of(hk(PLAIN, melds=["kong 3333p"], events=["replacement"]))
    assert found == {"replacement_win": 2, "no_flowers": 1}
    # Without a kong there is no kong replacement tile.
    refused = hk(PLAIN, **OPEN_PUNG, events=["replacement"])
    assert not refused.valid
    assert refused.error == (
        "replacement wins on the tile drawn after a kong or a bonus tile: melds hold no kong "
        "and bonus is empty"
    )
    # A flower's replacement tile is a replacement elsewhere, but scores nothing in hk.
    with_flower = hk(PLAIN, **OPEN_PUNG, bonus="2f", events=["replacement"])
    assert with_flower.error == (
        "replacement in hk is a win on a kong's replacement tile: melds hold no kong "
        "(a bonus tile's replacement scores nothing here)"
    )


def test_win_on_a_second_kongs_replacement_is_nine_in_total() -> None:
    found = faan_of(
        hk(
            "123m456p55p",
            melds=["kong 3333p", "ckong 7777s"],
            events=["replacement", "kong_on_kong"],
        )
    )
    assert found == {"kong_on_kong": 9, "no_flowers": 1}
    refused = hk(PLAIN, melds=["kong 3333p"], events=["kong_on_kong"])
    assert not refused.valid
    assert refused.error == (
        "kong_on_kong wins on the replacement tile of a second kong: melds must hold at least "
        "two kongs, not 1"
    )


@pytest.mark.parametrize(
    ("bonus", "expected"),
    [
        ("", {"no_flowers": 1}),
        # South's flower (2f) and season (6f) for South; West's flower (3f) scores nothing.
        ("2f6f3f", {"seat_flower": 2}),
        ("3f", {}),
    ],
)
def test_no_flowers_and_seat_flowers(bonus: str, expected: dict[str, int]) -> None:
    south = {"seat": "S", "win": "discard", "discarder": "E", "options": {"min_faan": 0}}
    assert faan_of(hk(PLAIN, **OPEN_PUNG, bonus=bonus, **south)) == expected


def test_a_full_flower_set_replaces_its_seat_flower() -> None:
    # East holds all four flowers and the spring (East's season): the set is 2 and includes
    # the plum; the spring still scores as the seat season.
    result = hk(PLAIN, **OPEN_PUNG, bonus="1f2f3f4f5f", **FROM_S, options={"min_faan": 0})
    assert faan_of(result) == {"flower_set": 2, "seat_flower": 1}
    # Three flowers and the spring: no set, the plum and the spring are East's.
    short = hk(PLAIN, **OPEN_PUNG, bonus="1f2f3f5f", **FROM_S, options={"min_faan": 0})
    assert faan_of(short) == {"seat_flower": 2}


def test_seven_bonus_tiles_replace_the_other_flower_faan() -> None:
    result = hk(PLAIN, **OPEN_PUNG, bonus="1f2f3f4f5f6f7f", **FROM_S, options={"min_faan": 0})
    assert faan_of(result) == {"seven_flowers": 3}
    six = hk(PLAIN, **OPEN_PUNG, bonus="1f2f3f4f5f6f", **FROM_S, options={"min_faan": 0})
    assert faan_of(six) == {"flower_set": 2, "seat_flower": 1}


def test_seven_pairs_only_with_the_option() -> None:
    pairs = "11m22m33p44p55s66s77z"
    refused = hk(pairs, win_tile="7z")
    assert not refused.valid
    assert "four sets and a pair or Thirteen Orphans" in (refused.error or "")
    result = hk(pairs, win_tile="7z", options={"seven_pairs": True})
    assert faan_of(result) == {
        "seven_pairs": 4,
        "self_draw": 1,
        "concealed_hand": 1,
        "no_flowers": 1,
    }
    # Four of a kind is not two pairs.
    doubled = hk("11m11m33p44p55s66s77z", win_tile="7z", options={"seven_pairs": True})
    assert not doubled.valid


def test_seven_pairs_waits() -> None:
    result = hk("11m22m33p44p55s66s7z", options={"seven_pairs": True})
    assert not result.valid
    assert [tile.mpsz for tile in result.waits] == ["7z"]


@pytest.mark.parametrize(
    ("hand", "fields", "limit"),
    [
        (ORPHANS, {}, "thirteen_orphans"),
        ("1112345678999m5m", {}, "nine_gates"),
        ("55m", {"melds": ["pung 111z", "pung 222z", "pung 333z", "pung 444z"]}, "big_winds"),
        ("123m44z", {"melds": ["pung 111z", "pung 222z", "pung 333z"]}, "little_winds"),
        ("111z222z555z666z77z", FROM_S, "all_honors"),
        ("111m999m111p999p11s", FROM_S, "all_terminals"),
        (
            "55m",
            {"melds": ["kong 1111p", "kong 2222p", "ckong 3333s", "akong 4444s"]},
            "four_kongs",
        ),
        ("111m333p555s777m22z", {}, "hidden_treasure"),
        (CHOWS, {"events": ["heavenly"]}, "heavenly"),
        (CHOWS, {"seat": "S", "events": ["earthly"]}, "earthly"),
        (PLAIN, {**OPEN_PUNG, "bonus": "1f2f3f4f5f6f7f8f"}, "eight_bonus"),
    ],
)
def test_limit_hands_score_the_maximum_alone(hand: str, fields: dict[str, Any], limit: str) -> None:
    result = hk(hand, **fields)
    assert faan_of(result) == {limit: 13}
    assert (result.tai, result.raw_tai) == (13, 13)


@pytest.mark.parametrize(
    ("hand", "fields", "limit"),
    [
        # One tile off Thirteen Orphans is not a win at all.
        ("1112345678999m5m", {"melds": []}, "thirteen_orphans"),
        # Nine gates with a claimed group is only All one suit.
        ("2345678999m1m", {"melds": ["pung 111m"], "win_tile": "1m"}, "nine_gates"),
        # Three wind pungs and a plain pair: not Great or Small winds.
        ("123m55s", {"melds": ["pung 111z", "pung 222z", "pung 333z"]}, "big_winds"),
        ("123m55s", {"melds": ["pung 111z", "pung 222z", "pung 333z"]}, "little_winds"),
        # One numbered pair: Mixed one suit, not All honors.
        ("111z222z555z666z77m", FROM_S, "all_honors"),
        # One honor pair: Mixed orphans, not Orphans.
        ("111m999m111p999p11z", FROM_S, "all_terminals"),
        ("55m", {"melds": ["kong 1111p", "kong 2222p", "ckong 3333s", "pung 444s"]}, "four_kongs"),
        # Four concealed pungs won on a discard: the last pung was claimed.
        ("111m333p555s777m22z", {"win_tile": "7m", **FROM_S}, "hidden_treasure"),
    ],
)
def test_limit_hand_near_misses(hand: str, fields: dict[str, Any], limit: str) -> None:
    result = hk(hand, **fields)
    assert not result.valid or limit not in faan_of(result)


def test_heavenly_and_earthly_hands_belong_to_the_dealer_and_the_others() -> None:
    assert not hk(CHOWS, seat="S", events=["heavenly"]).valid
    assert not hk(CHOWS, seat="E", events=["earthly"]).valid


def test_animals_are_refused() -> None:
    result = hk(CHOWS, bonus="1a")
    assert not result.valid
    assert result.error == "animal tiles are not Hong Kong tiles: take out cat"


# --- minimum and maximum ---------------------------------------------------------------------


def test_the_minimum_is_counted_without_the_flower_faan() -> None:
    # Common hand 1 + Concealed hand 1 + Seat flower 1 (East's plum) = 3 faan, but only 2
    # without the flower: under the minimum, so nobody pays.
    result = hk(CHOWS, bonus="1f", **FROM_S)
    assert (result.tai, result.meets_minimum) == (3, False)
    assert paid(result) == pays()
    assert result.notes == (
        "2 of the 3 faan count toward the table's minimum of 3; Seat flower or season does not",
    )
    assert result.to_json()["short_of_minimum"] == {
        "counted": 2,
        "total": 3,
        "minimum": 3,
        "left_out": ["seat_flower"],
        "note": result.notes[0],
    }
    # The same with No flowers instead.
    bare = hk(CHOWS, **FROM_S)
    assert (bare.tai, bare.meets_minimum) == (3, False)
    assert bare.notes == (
        "2 of the 3 faan count toward the table's minimum of 3; No flowers does not",
    )
    # Under the minimum without a flower faan to leave out: the count alone.
    plain = hk(
        CHOWS, **FROM_S, bonus="1f", options={"min_faan": 4, "flowers_count_to_minimum": True}
    )
    assert plain.notes == ("3 faan is under the table's minimum of 4",)
    assert plain.to_json()["short_of_minimum"]["left_out"] == []


def test_flowers_count_to_the_minimum_with_the_option() -> None:
    result = hk(CHOWS, bonus="1f", **FROM_S, options={"flowers_count_to_minimum": True})
    assert (result.tai, result.meets_minimum) == (3, True)
    # M(3) = 8; full gun: the discarder pays 16.
    assert paid(result) == pays(E=16, S=-16)


def test_min_faan_option() -> None:
    assert hk(CHOWS, **FROM_S, options={"min_faan": 2}).meets_minimum
    assert not hk(CHOWS, seat="S", options={"min_faan": 4}).meets_minimum


@pytest.mark.parametrize(("maximum", "each"), [(8, 64), (10, 128), (13, 384)])
def test_totals_above_the_maximum_are_cut_to_it(maximum: int, each: int) -> None:
    # Two exposed kongs, won on the second kong's replacement tile, all in characters:
    # Win on a second kong's replacement 9 + All one suit 7 + All triplets 3 + No flowers 1
    # = 20 faan, cut to the maximum; each of the three pays M(maximum).
    result = hk(
        "666m888m99m",
        melds=["kong 2222m", "kong 4444m"],
        events=["replacement", "kong_on_kong"],
        options={"max_faan": maximum},
    )
    assert faan_of(result) == {
        "all_triplets": 3,
        "full_flush": 7,
        "kong_on_kong": 9,
        "no_flowers": 1,
    }
    assert (result.raw_tai, result.tai) == (20, maximum)
    assert paid(result) == pays(E=3 * each, S=-each, W=-each, N=-each)


def test_a_limit_hand_under_a_lower_maximum() -> None:
    result = hk(ORPHANS, options={"max_faan": 8})
    assert (faan_of(result), result.tai) == ({"thirteen_orphans": 8}, 8)
    assert paid(result) == pays(E=3 * 64, S=-64, W=-64, N=-64)


# --- payout ---------------------------------------------------------------------------------


def test_half_spicy_curve() -> None:
    options = HkOptions()
    assert [payment(faan, options) for faan in range(14)] == [
        1,
        2,
        4,
        8,
        16,
        24,
        32,
        48,
        64,
        96,
        128,
        192,
        256,
        384,
    ]


def test_spicy_curve() -> None:
    options = HkOptions(curve="spicy")
    assert [payment(faan, options) for faan in range(14)] == [2**faan for faan in range(14)]
    result = hk(ORPHANS, options={"curve": "spicy"})
    assert paid(result) == pays(E=3 * 8192, S=-8192, W=-8192, N=-8192)


def test_half_gun() -> None:
    # The second hand of the issue: 7 faan, P = 48. Half gun: North pays P, the others P/2.
    result = hk(**TRIPLETS_ON_A_DISCARD, options={"gun": "half"})
    assert paid(result) == pays(E=96, N=-48, S=-24, W=-24)


def test_half_gun_with_a_half_stake_is_exact() -> None:
    # Common hand 1 + Concealed hand 1 + No flowers 1 = 3 faan (2 without the flower faan,
    # so the minimum is lowered to 2).
    # M(3) = 8, base 0.5: P = 4. Half gun: South 4, the others 2 each.
    result = hk(CHOWS, **FROM_S, options={"base": "0.5", "gun": "half", "min_faan": 2})
    assert paid(result) == pays(E=8, S=-4, W=-2, N=-2)
    # 0 faan is worth M(0) = 1: half of 0.5 is a quarter.
    quarter = hk(
        PLAIN,
        **OPEN_PUNG,
        bonus="3f",
        **FROM_S,
        options={"base": "0.5", "gun": "half", "min_faan": 0},
    )
    assert paid(quarter) == pays(E=1, S=Fraction(-1, 2), W=Fraction(-1, 4), N=Fraction(-1, 4))
    assert quarter.to_json()["payments"] == {"E": 1, "S": -0.5, "W": -0.25, "N": -0.25}


def test_a_liable_seat_pays_everything() -> None:
    # Self-draw, 4 faan (P = 16): West pays for all three, 48.
    drawn = hk(CHOWS, seat="S", liable="W")
    assert paid(drawn) == pays(S=48, W=-48)
    # Half gun on a discard: P + P/2 + P/2 = 2P, all of it from the liable seat.
    discard = hk(
        CHOWS,
        seat="S",
        liable="W",
        win="discard",
        discarder="E",
        options={"gun": "half", "min_faan": 2},
    )
    assert paid(discard) == pays(S=16, W=-16)
    refused = hk(CHOWS, seat="S", liable="S")
    assert not refused.valid


# --- options -----------------------------------------------------------------------------------


def test_default_options() -> None:
    options = HK.parse_options({})
    assert options == HkOptions()
    assert isinstance(options, HkOptions)
    assert (options.min_faan, options.min_tai, options.max_faan) == (3, 3, 13)
    assert (options.base, options.curve, options.gun) == (1, "half_spicy", "full")
    assert not (options.flowers_count_to_minimum or options.great_dragons_limit)
    assert not options.seven_pairs


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"max_faan": 9}, "option max_faan must be 8, 10 or 13"),
        ({"max_faan": 8, "min_faan": 9}, "option min_faan must be from 0 to the maximum (8)"),
        ({"min_faan": -1}, "option min_faan must be from 0 to the maximum (13)"),
        ({"base": 0}, "option base must be more than 0"),
        ({"curve": "mild"}, 'option curve must be "half_spicy" or "spicy", not "mild"'),
        ({"gun": "triple"}, 'option gun must be "full" or "half", not "triple"'),
        ({"min_tai": 1}, 'unknown option "min_tai"'),
        ({"tai_overrides": {"ping_hu": 2}}, '"ping_hu" is not a pattern of this profile'),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidRequestError, match=re.escape(message)):
        hk(CHOWS, options=options)


def test_tai_overrides_change_a_faan_value() -> None:
    result = hk(CHOWS, seat="S", options={"tai_overrides": {"self_draw": 2}})
    assert result.tai == 5
    assert paid(result)["E"] == -24

"""The `sg` profile: every pattern fires, its near miss does not, and the settlement is exact."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from companion.context import WinType
from companion.errors import InvalidRequestError
from companion.request import ScoreRequest
from companion.scoring import ScoreResult, score
from companion.tiles import Wind
from contract_example import CONTRACT_EXAMPLE


def sg(hand: str, **fields: Any) -> ScoreResult:
    request: dict[str, Any] = {"profile": "sg", "hand": hand}
    request.update(fields)
    return score(request)


def tai_of(result: ScoreResult) -> dict[str, int]:
    assert result.valid, result.error
    return {pattern.id: pattern.tai for pattern in result.patterns}


def payments(result: ScoreResult) -> dict[str, Fraction]:
    return {wind.value: amount for wind, amount in result.payments.items()}


# A plain hand with nothing to score: two suits, chows and a pung, a guest-wind pair... on a
# discard with a single wait, so not even Little Ping Hu.
PLAIN = "123m456m789p222s44z"
DISCARD = {"win": "discard", "discarder": "N"}


def test_plain_hand_scores_nothing() -> None:
    result = sg(PLAIN, **DISCARD, options={"min_tai": 0})
    assert result.valid and result.tai == 0 and result.patterns == ()


# --- one-tai patterns --------------------------------------------------------------------------


def test_seat_flower_counts_each_of_the_seat() -> None:
    result = sg(PLAIN, **DISCARD, bonus="1f5f")
    assert tai_of(result) == {"seat_flower": 2}
    (pattern,) = result.patterns
    assert pattern.count == 2 and pattern.earned_by == ("1f", "5f")


def test_other_seats_flower_scores_nothing() -> None:
    assert tai_of(sg(PLAIN, **DISCARD, bonus="2f7f", options={"min_tai": 0})) == {}
    assert tai_of(sg(PLAIN, **DISCARD, bonus="2f6f", seat="S")) == {"seat_flower": 2}


def test_flower_set_includes_the_seat_flower_of_its_family() -> None:
    result = sg(PLAIN, **DISCARD, bonus="1f2f3f4f")
    assert tai_of(result) == {"flower_set": 2}


def test_flower_set_does_not_include_the_seat_season() -> None:
    assert tai_of(sg(PLAIN, **DISCARD, bonus="1f2f3f4f5f")) == {"seat_flower": 1, "flower_set": 2}


def test_both_flower_sets() -> None:
    assert tai_of(sg(PLAIN, **DISCARD, bonus="12345678f")) == {"flower_set": 4}


def test_three_flowers_are_no_set() -> None:
    assert tai_of(sg(PLAIN, **DISCARD, bonus="1f2f3f")) == {"seat_flower": 1}


def test_dragon_set_per_pung_or_kong() -> None:
    result = sg("123m456p44z", melds=["pung 777z", "kong 6666z"], **DISCARD)
    assert tai_of(result) == {"dragon_set": 2}
    assert result.patterns[0].earned_by == ("777z", "6666z")


def test_dragon_pair_is_no_dragon_set() -> None:
    assert tai_of(sg("123m456m789p222s77z", **DISCARD, options={"min_tai": 0})) == {}


def test_valued_wind_counts_seat_and_round_separately() -> None:
    east_in_east = sg("123m456m789p111z55s", **DISCARD)
    assert tai_of(east_in_east) == {"valued_wind": 2}
    assert east_in_east.patterns[0].count == 2
    assert tai_of(sg("123m456m789p222z55s", **DISCARD, round="S")) == {"valued_wind": 1}
    assert tai_of(sg("123m456m789p222z55s", win="discard", seat="S", discarder="E")) == {
        "valued_wind": 1
    }


def test_guest_wind_pung_scores_nothing() -> None:
    assert tai_of(sg("123m456m789p333z55s", **DISCARD, options={"min_tai": 0})) == {}


PING_HU = "123m456m789p234s55p"
"""Four chows and a 5p pair, winning on 5p: waits 5p only (a pair wait)."""
TWO_SIDED = "123m456m789p55p23s4s"
"""Four chows, winning on 4s from a 23s two-sided wait (1s or 4s)."""


def test_little_ping_hu_with_a_flower_and_a_multiple_wait() -> None:
    result = sg(TWO_SIDED, **DISCARD, bonus="2f")
    assert tai_of(result) == {"little_ping_hu": 1}
    assert [tile.mpsz for tile in result.waits] == ["1s", "4s"]


def test_little_ping_hu_needs_a_multiple_wait_on_a_discard() -> None:
    assert tai_of(sg(PING_HU, **DISCARD, bonus="2f", options={"min_tai": 0})) == {}


def test_little_ping_hu_any_wait_on_a_self_draw() -> None:
    result = sg(PING_HU, bonus="2f")
    assert tai_of(result) == {"little_ping_hu": 1, "fully_concealed": 1}


@pytest.mark.parametrize(("pair", "seat", "round_"), [("55z", "E", "E"), ("11z", "E", "S")])
def test_little_ping_hu_pair_cannot_be_valued(pair: str, seat: str, round_: str) -> None:
    hand = f"123m456m789p{pair}23s4s"
    result = sg(hand, **DISCARD, bonus="2f", seat=seat, round=round_, options={"min_tai": 0})
    assert "little_ping_hu" not in tai_of(result)


def test_little_ping_hu_guest_wind_pair_is_fine() -> None:
    result = sg("123m456m789p33z23s4s", **DISCARD, bonus="2f")
    assert tai_of(result) == {"little_ping_hu": 1}


def test_little_ping_hu_needs_four_chows() -> None:
    result = sg("123m456m777p55p23s4s", **DISCARD, bonus="2f", options={"min_tai": 0})
    assert "little_ping_hu" not in tai_of(result)


def test_ping_hu_replaces_little_ping_hu_without_bonus_tiles() -> None:
    assert tai_of(sg(TWO_SIDED, **DISCARD)) == {"ping_hu": 4}


def test_ping_hu_ignores_animals_in_sg() -> None:
    result = sg(TWO_SIDED, **DISCARD, bonus="1a2a")
    assert tai_of(result) == {"ping_hu": 4}
    assert result.notes == ("Animal tiles are ignored in this profile: cat, mouse",)


def test_fully_concealed_hand() -> None:
    assert tai_of(sg(PLAIN)) == {"fully_concealed": 1}


def test_fully_concealed_not_with_a_concealed_kong() -> None:
    result = sg("123m456m789p44z", melds=["ckong 2222s"], options={"min_tai": 0})
    assert tai_of(result) == {}


def test_fully_concealed_not_on_a_discard() -> None:
    assert tai_of(sg(PLAIN, **DISCARD, options={"min_tai": 0})) == {}


def test_replacement_tile_win() -> None:
    # After South's flower (no tai for East), the replacement tile wins.
    assert tai_of(sg(PLAIN, events=["replacement"], bonus="2f")) == {
        "fully_concealed": 1,
        "replacement_win": 1,
    }


def test_robbing_a_kong_settles_as_a_discard_by_the_declarer() -> None:
    result = sg(PLAIN, win_tile="9p", win="discard", discarder="W", events=["robbing_kong"])
    assert tai_of(result) == {"robbing_kong": 1}
    assert payments(result) == {"E": 4, "S": -1, "W": -2, "N": -1}


def test_last_tile_win() -> None:
    assert tai_of(sg(PLAIN, events=["last_tile"])) == {"fully_concealed": 1, "last_tile": 1}


def test_last_tile_on_a_replacement_scores_only_the_replacement() -> None:
    result = sg(PLAIN, events=["last_tile", "replacement"], bonus="2f")
    assert tai_of(result) == {"fully_concealed": 1, "replacement_win": 1}


# --- two to four tai ---------------------------------------------------------------------------


def test_half_flush() -> None:
    assert tai_of(sg("123456789m333z44z", **DISCARD)) == {"half_flush": 2}


def test_half_flush_near_miss_two_suits() -> None:
    assert tai_of(sg("123456789m33z444p", **DISCARD, options={"min_tai": 0})) == {}


def test_all_pungs() -> None:
    result = sg("111m222p333s999m55p", **DISCARD)
    assert tai_of(result) == {"all_pungs": 2}


def test_all_pungs_near_miss() -> None:
    assert tai_of(sg("111m222p333s789m55p", **DISCARD, options={"min_tai": 0})) == {}


def test_little_dragons_includes_its_dragon_sets() -> None:
    result = sg("555z666z77z123m789p", **DISCARD)
    assert tai_of(result) == {"little_dragons": 3}
    assert result.patterns[0].earned_by == ("555z", "666z", "77z")


def test_two_dragon_sets_without_the_pair_are_not_little_dragons() -> None:
    assert tai_of(sg("555z666z11s123m789p", **DISCARD)) == {"dragon_set": 2}


def test_full_flush() -> None:
    assert tai_of(sg("123456789m111m55m", **DISCARD)) == {"full_flush": 4}


def test_full_flush_near_miss_is_half_flush() -> None:
    assert tai_of(sg("123456789m111m33z", **DISCARD)) == {"half_flush": 2}


def test_mixed_terminals_and_honors_includes_all_pungs() -> None:
    result = sg("111m999m111p999p33z", **DISCARD)
    assert tai_of(result) == {"mixed_terminals_honors": 4}


def test_mixed_terminals_and_honors_keeps_dragon_and_wind_tai() -> None:
    result = sg("111m999m111p555z33z", **DISCARD)
    assert tai_of(result) == {"dragon_set": 1, "mixed_terminals_honors": 4}


def test_mixed_terminals_near_miss_with_a_simple() -> None:
    assert tai_of(sg("111m999m111p222p33z", **DISCARD)) == {"all_pungs": 2}


def test_little_winds_with_valued_wind_added() -> None:
    result = sg("111z222z333z44z123m", **DISCARD)
    assert tai_of(result) == {"valued_wind": 2, "half_flush": 2, "little_winds": 4}


def test_three_wind_pungs_with_another_pair_are_not_little_winds() -> None:
    result = sg("222z333z444z55s123m", **DISCARD, round="S")
    assert "little_winds" not in tai_of(result)


# --- five-tai hands and the cap ----------------------------------------------------------------


def test_big_dragons() -> None:
    result = sg("555z666z777z11s123m", **DISCARD)
    assert tai_of(result)["big_dragons"] == 5
    assert result.tai == 5 and result.raw_tai == 8


def test_big_winds() -> None:
    result = sg("111z222z333z444z55s", **DISCARD)
    assert tai_of(result)["big_winds"] == 5 and result.tai == 5


def test_all_honors() -> None:
    result = sg("111z222z333z555z66z", win="discard", seat="S", discarder="E")
    assert tai_of(result)["all_honors"] == 5
    assert "half_flush" not in tai_of(result)


def test_all_terminals() -> None:
    result = sg("111m999m111p999p11s", **DISCARD)
    assert tai_of(result) == {"all_pungs": 2, "all_terminals": 5}
    assert result.tai == 5


def test_hidden_treasure_on_a_self_draw() -> None:
    result = sg("111m222p333s444m77p", win_tile="4m")
    assert tai_of(result)["hidden_treasure"] == 5


def test_hidden_treasure_not_when_a_discard_completes_a_pung() -> None:
    result = sg("111m222p333s444m77p", win_tile="4m", **DISCARD)
    assert tai_of(result) == {"all_pungs": 2}


def test_hidden_treasure_counts_concealed_kongs() -> None:
    result = sg("111m222p333s77p", melds=["ckong 4444m"], win_tile="7p")
    assert tai_of(result)["hidden_treasure"] == 5


def test_thirteen_orphans() -> None:
    result = sg("19m19p19s1234567z1m", **DISCARD)
    assert tai_of(result) == {"thirteen_orphans": 5}


def test_thirteen_orphans_near_miss() -> None:
    result = sg("19m19p19s1234566z1m", **DISCARD)
    assert not result.valid


def test_all_green() -> None:
    result = sg("234s234s666s888s66z", **DISCARD)
    assert tai_of(result)["all_green"] == 5


def test_all_green_near_miss_with_a_five() -> None:
    assert "all_green" not in tai_of(sg("234s345s666s888s66z", **DISCARD))


def test_nine_gates() -> None:
    result = sg("1112345678999m5m", **DISCARD)
    assert tai_of(result)["nine_gates"] == 5


def test_nine_gates_must_be_concealed() -> None:
    result = sg("1112345678m5m", melds=["pung 999m"], **DISCARD)
    assert result.valid
    assert "nine_gates" not in tai_of(result)


def test_four_kongs() -> None:
    melds = ["kong 1111m", "ckong 2222p", "akong 3333s", "kong 6666z"]
    result = sg("55z", melds=melds, **DISCARD)
    assert tai_of(result)["four_kongs"] == 5


def test_three_kongs_are_not_four() -> None:
    melds = ["kong 1111m", "ckong 2222p", "akong 3333s"]
    assert "four_kongs" not in tai_of(sg("666z55z", melds=melds, **DISCARD))


TWO_KONGS = {"hand": "123m456m44z", "melds": ["ckong 7777p", "ckong 2222s"]}


def test_kong_on_kong_replaces_the_replacement_win() -> None:
    result = score({"profile": "sg", **TWO_KONGS, "events": ["kong_on_kong", "replacement"]})
    assert tai_of(result) == {"kong_on_kong": 5}


def test_heavenly_hand() -> None:
    assert tai_of(sg(PLAIN, events=["heavenly"]))["heavenly"] == 5


def test_earthly_hand() -> None:
    result = sg(PLAIN, seat="S", events=["earthly"], win="discard", discarder="E")
    assert tai_of(result) == {"earthly": 5}


def test_cap_is_five() -> None:
    result = sg("111z222z333z444z55z", **DISCARD)
    assert result.raw_tai > 5 and result.tai == 5


# --- the reference profile's "Example tiles" rows that form a hand -------------------------------


@pytest.mark.parametrize(
    ("hand", "fields", "expected"),
    [
        ("123456789m123p55s", {}, {"ping_hu": 4, "fully_concealed": 1}),
        ("111m222p333s456m77p", {}, {"fully_concealed": 1}),
        ("123456789m111z55z", DISCARD, {"valued_wind": 2, "half_flush": 2}),
        ("111m222p333s999m55p", DISCARD, {"all_pungs": 2}),
        ("555z666z77z123m789p", DISCARD, {"little_dragons": 3}),
        ("123456789123m55m", {}, {"ping_hu": 4, "full_flush": 4}),
        ("111m999m111p999p11z", DISCARD, {"valued_wind": 0, "mixed_terminals_honors": 4}),
        ("111z222z333z44z123m", DISCARD, {"valued_wind": 2, "little_winds": 4}),
        ("111m999m111p999p11s", DISCARD, {"all_pungs": 2, "all_terminals": 5}),
        ("19m19p19s1234567z1m", {}, {"thirteen_orphans": 5, "fully_concealed": 1}),
        ("234s234s666s888s66z", DISCARD, {"half_flush": 2, "dragon_set": 0, "all_green": 5}),
        ("1112345678999m5m", {}, {"full_flush": 4, "nine_gates": 5, "fully_concealed": 1}),
    ],
)
def test_reference_rows(hand: str, fields: dict[str, Any], expected: dict[str, int]) -> None:
    found = tai_of(sg(hand, **fields))
    for pattern_id, tai in expected.items():
        if tai:
            assert found.get(pattern_id) == tai, (pattern_id, found)
        else:
            assert pattern_id not in found


def test_reference_big_winds_example_row() -> None:
    found = tai_of(sg("111z222z333z444z55z", **DISCARD))
    assert found["big_winds"] == 5 and found["all_honors"] == 5


def test_reference_four_kongs_example_row() -> None:
    melds = ["kong 1111m", "kong 2222p", "kong 3333s", "kong 1111z"]
    assert tai_of(sg("55z", melds=melds, **DISCARD))["four_kongs"] == 5


# --- settlement --------------------------------------------------------------------------------


def test_reference_worked_example_three_tai_discard() -> None:
    result = sg("123m456p55s", melds=["pung 777z", "pung 666z"], bonus="1f", **DISCARD)
    assert result.tai == 3
    assert payments(result) == {"E": 16, "S": -4, "W": -4, "N": -8}


def test_the_contract_example() -> None:
    result = score(CONTRACT_EXAMPLE).to_json()
    assert result["tai"] == 3 and result["raw_tai"] == 3 and result["meets_minimum"]
    assert result["groups"] == ["777z", "666z", "123m", "456p", "55s"]
    assert result["waits"] == ["5s"]
    assert result["payments"] == {"E": 16, "S": -8, "W": -4, "N": -4}
    assert {p["id"]: (p["tai"], p["count"]) for p in result["patterns"]} == {
        "dragon_set": (2, 2),
        "seat_flower": (1, 1),
    }


@pytest.mark.parametrize(
    ("share", "tai_bonus", "discarder_pays", "other_pays"),
    [(1, "1f", 2, 1), (2, "1f", 4, 2), ("0.5", "1f", 1, "0.5"), (1, "1f5f", 4, 2)],
)
def test_discard_settlement(
    share: Any, tai_bonus: str, discarder_pays: Any, other_pays: Any
) -> None:
    result = sg(PLAIN, **DISCARD, bonus=tai_bonus, options={"share": share})
    big, small = Fraction(str(discarder_pays)), Fraction(str(other_pays))
    assert payments(result) == {"E": big + 2 * small, "S": -small, "W": -small, "N": -big}


@pytest.mark.parametrize(("share", "each"), [(1, 16), (3, 48), ("0.25", 4)])
def test_self_draw_settlement_five_tai(share: Any, each: int) -> None:
    result = sg("111z222z333z444z55z", options={"share": share})
    assert result.tai == 5
    assert payments(result) == {"E": 6 * each, "S": -2 * each, "W": -2 * each, "N": -2 * each}


def test_zero_tai_pays_half_a_share_at_minimum_zero() -> None:
    result = sg(PLAIN, **DISCARD, options={"min_tai": 0, "share": 1})
    assert result.tai == 0 and result.meets_minimum
    assert payments(result) == {"E": 2, "S": Fraction(-1, 2), "W": Fraction(-1, 2), "N": -1}
    assert result.to_json()["payments"] == {"E": 2, "S": -0.5, "W": -0.5, "N": -1}


def test_below_the_minimum_is_reported_and_pays_nothing() -> None:
    result = sg(PLAIN, **DISCARD, bonus="1f", options={"min_tai": 2})
    assert result.valid and result.tai == 1 and not result.meets_minimum
    assert tai_of(result) == {"seat_flower": 1}
    assert set(payments(result).values()) == {0}
    assert any("minimum of 2" in note for note in result.notes)


def test_payments_sum_to_zero_and_winner_is_any_seat() -> None:
    result = sg(PLAIN, seat="W", **DISCARD, bonus="3f")
    assert sum(result.payments.values()) == 0
    assert payments(result) == {"E": -1, "S": -1, "W": 4, "N": -2}


def test_a_typed_request_works_like_a_dict() -> None:
    typed = ScoreRequest(hand=PLAIN, win=WinType.DISCARD, discarder=Wind.NORTH, bonus="1f")
    assert score(typed) == sg(PLAIN, **DISCARD, bonus="1f")


# --- refusals ----------------------------------------------------------------------------------


def test_seven_pairs_is_refused() -> None:
    result = sg("1133557799m1133p")
    assert not result.valid
    assert "not a winning hand" in str(result.error)


def test_one_tile_short_says_what_it_waits_on() -> None:
    result = sg("123m456m789p44z23s")
    assert not result.valid
    assert "one tile short" in str(result.error) and "1s" in str(result.error)
    assert result.to_json()["waits"] == ["1s", "4s"]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"win": "discard", "discarder": "E"}, "own discard"),
        (
            {"events": ["robbing_kong"]},
            "robbing_kong wins on another player's kong tile: enter it as a discard win, with "
            "the kong's declarer as discarder",
        ),
        ({"seat": "S", "events": ["heavenly"]}, "heavenly is the dealer's win: seat S is not"),
        ({"win": "discard", "discarder": "S", "events": ["heavenly"]}, "win must be self_draw"),
        ({"events": ["earthly"]}, "earthly is a non-dealer's win: seat E is the dealer"),
        ({"win": "discard", "discarder": "S", "events": ["replacement"]}, "drawn tile"),
        ({"discarder": "S"}, "self-drawn win has no discarder"),
        ({"liable": "S"}, "pay-for-all"),
        ({"events": ["original_ready"]}, "no original_ready"),
    ],
)
def test_contradictory_context_is_not_a_win(fields: dict[str, Any], message: str) -> None:
    result = sg(PLAIN, **fields)
    assert not result.valid
    assert message in str(result.error)


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        ({"hand": PLAIN, "win": "discard"}, "discarder"),
        ({"hand": PLAIN, "events": ["moonwalk"]}, "unknown event"),
        ({"hand": PLAIN, "profile": "jp"}, "unknown profile"),
        ({"hand": PLAIN, "seat": "X"}, "seat must be a wind"),
        ({"hand": PLAIN, "win": "ron"}, "unknown win"),
        ({"hand": PLAIN, "discarded": "S"}, "unknown field"),
        ({"hand": PLAIN, "options": {"min_tai": 6}}, "min_tai"),
        ({"hand": PLAIN, "options": {"share": 0}}, "share"),
        ({"hand": PLAIN, "options": {"share": "lots"}}, "share"),
        ({"hand": PLAIN, "options": {"minimum": 1}}, "unknown option"),
        ({"hand": 5}, "hand must be a string"),
    ],
)
def test_malformed_requests_raise(request_: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidRequestError, match=message):
        score(request_)


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        ("123m456m789p222s4x4z", 'unknown tile "4x"'),
        ("123m456m789p2222s44z", "15 structural tiles"),
        ("111112m456m789p22s", "1 of characters (1m) appears 5 times counting declared groups"),
    ],
)
def test_tile_problems_are_invalid_results(hand: str, message: str) -> None:
    result = sg(hand)
    assert not result.valid
    assert message in str(result.error)


def test_score_hand_takes_a_built_hand() -> None:
    from companion.context import WinContext
    from companion.hand import parse_hand
    from companion.rules import get_profile
    from companion.scoring import score_hand

    profile = get_profile("sg")
    hand = parse_hand(PLAIN, bonus="1f")
    context = WinContext(win=WinType.DISCARD, discarder=Wind.NORTH)
    result = score_hand(profile, hand, context, profile.parse_options({}))
    assert result == sg(PLAIN, **DISCARD, bonus="1f")
    south = score_hand(profile, hand, WinContext(seat=Wind.SOUTH), profile.parse_options({}))
    assert south.valid and tai_of(south) == {"fully_concealed": 1}
    bad = WinContext(win=WinType.DISCARD, discarder=Wind.EAST)
    assert not score_hand(profile, hand, bad, profile.parse_options({})).valid

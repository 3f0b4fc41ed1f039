"""The `sg-table` profile: each difference from `sg`, pay-for-all, limit hands and house rules."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from companion.errors import InvalidRequestError
from companion.rules import get_profile, profiles
from companion.rules.patterns import Pattern, derive_patterns
from companion.rules.singapore.chart import CHART_PRESETS
from companion.rules.singapore.options import SgTableOptions
from companion.rules.singapore.patterns import SG_TABLE_PATTERNS
from companion.rules.singapore.patterns import SINGAPORE_PATTERNS as PATTERNS
from companion.rules.singapore.profile import SG_TABLE
from companion.scoring import ScoreResult, score
from results import paid, pays, tai_of


def table(hand: str | None, profile: str = "sg-table", **fields: Any) -> ScoreResult:
    request: dict[str, Any] = {"profile": profile}
    if hand is not None:
        request["hand"] = hand
    request.update(fields)
    return score(request)


DISCARD = {"win": "discard", "discarder": "S"}
PLAIN = "123m456m789p222s44z"
"""Nothing scores: chows and a pung, a guest-wind pair, a single wait on a discard."""
CHOWS = "123m456p789s123s55p"
"""Four chows and a plain pair: Ping Hu when self-drawn (any wait will do)."""
BIG_DRAGONS = {"melds": ["pung 555z", "pung 666z", "pung 777z"]}
BIG_DRAGONS_HAND = "123m55s"
BIG_WINDS = {"melds": ["pung 111z", "pung 222z", "pung 333z", "pung 444z"]}
ORPHANS = "19m19p19s1234567z1m"


# --- the table --------------------------------------------------------------------------------


def test_profile_is_registered() -> None:
    assert profiles()["sg-table"] is SG_TABLE
    assert get_profile("sg-table").id == "sg-table"


def test_table_is_sgs_changed_by_id_with_animals_appended() -> None:
    assert [p.id for p in SG_TABLE_PATTERNS] == [p.id for p in PATTERNS] + ["animal", "animal_set"]
    unchanged = {"dragon_set", "valued_wind", "half_flush", "all_green", "heavenly"}
    sg_by_id = {p.id: p for p in PATTERNS}
    for pattern in SG_TABLE_PATTERNS:
        if pattern.id in unchanged:
            assert pattern is sg_by_id[pattern.id]


def test_derive_patterns_refuses_unknown_and_duplicate_ids() -> None:
    with pytest.raises(ValueError, match="no_such"):
        derive_patterns(PATTERNS, {"no_such": {"tai": 1}})
    with pytest.raises(ValueError, match="dragon_set"):
        derive_patterns(PATTERNS, {}, (Pattern("dragon_set", "x", 1, lambda facts: ()),))


def test_the_sg_profile_is_unchanged() -> None:
    result = table(PLAIN, profile="sg", **DISCARD, bonus="1a")
    assert result.tai == 0 and result.notes[0] == "Animal tiles are ignored in this profile: cat"
    assert table(PLAIN, profile="sg", **DISCARD, liable="W").valid is False


# --- animals ----------------------------------------------------------------------------------


def test_each_animal_is_one_tai() -> None:
    result = table(PLAIN, **DISCARD, bonus="1a3a")
    assert tai_of(result) == {"animal": 2}
    assert result.patterns[0].earned_by == ("1a", "3a") and result.notes == ()


def test_all_four_animals_are_five_tai_in_total() -> None:
    result = table(PLAIN, **DISCARD, bonus="1a2a3a4a")
    assert tai_of(result) == {"animal_set": 5}
    assert result.raw_tai == 5


def test_animal_turns_ping_hu_into_little_ping_hu() -> None:
    assert tai_of(table(CHOWS)) == {"ping_hu": 4, "fully_concealed": 1}
    assert tai_of(table(CHOWS, bonus="2a")) == {
        "little_ping_hu": 1,
        "fully_concealed": 1,
        "animal": 1,
    }
    # In sg the animal is ignored and Ping Hu stands.
    assert tai_of(table(CHOWS, profile="sg", bonus="2a")) == {"ping_hu": 4, "fully_concealed": 1}


# --- flowers ----------------------------------------------------------------------------------


def test_flower_set_stacks_with_the_seat_flower() -> None:
    assert tai_of(table(PLAIN, **DISCARD, bonus="1f2f3f4f")) == {"seat_flower": 1, "flower_set": 2}
    assert tai_of(table(PLAIN, profile="sg", **DISCARD, bonus="1f2f3f4f")) == {"flower_set": 2}


def test_both_sets_and_both_seat_tiles() -> None:
    result = table(PLAIN, **DISCARD, bonus="12345678f", seat="W")
    assert tai_of(result) == {"seat_flower": 2, "flower_set": 4}
    assert result.tai == 5 and result.raw_tai == 6


# --- Ping Hu and declared chows --------------------------------------------------------------

FOUR_DECLARED_CHOWS = {"melds": ["chow 123m", "chow 456m", "chow 789s", "chow 234p"]}


def test_no_ping_hu_with_four_declared_chows() -> None:
    result = table("55p", **FOUR_DECLARED_CHOWS, options={"min_tai": 0})
    assert tai_of(result) == {}
    assert tai_of(table("55p", profile="sg", **FOUR_DECLARED_CHOWS)) == {"ping_hu": 4}


def test_no_little_ping_hu_with_four_declared_chows() -> None:
    result = table("55p", **FOUR_DECLARED_CHOWS, bonus="2f")
    assert tai_of(result) == {}
    assert not result.meets_minimum


def test_three_declared_chows_still_ping_hu() -> None:
    result = table("234p55p", melds=["chow 123m", "chow 456m", "chow 789s"], win_tile="4p")
    assert tai_of(result) == {"ping_hu": 4}


# --- mixed terminals and honors, little winds -------------------------------------------------


def test_mixed_terminals_and_honors_does_not_stack_with_dragons() -> None:
    hand = "111m999p111s555z22z"
    assert tai_of(table(hand, **DISCARD)) == {"mixed_terminals_honors": 4}
    assert tai_of(table(hand, profile="sg", **DISCARD)) == {
        "dragon_set": 1,
        "mixed_terminals_honors": 4,
    }


def test_mixed_terminals_and_honors_does_not_stack_with_valued_winds() -> None:
    result = table("111m999p111s111z22z", **DISCARD)
    assert tai_of(result) == {"mixed_terminals_honors": 4}


def test_little_winds_does_not_stack_with_valued_winds_or_half_flush() -> None:
    hand = "111z222z333z44z123m"
    assert tai_of(table(hand, **DISCARD)) == {"little_winds": 4}
    assert tai_of(table(hand, profile="sg", **DISCARD)) == {
        "valued_wind": 2,
        "half_flush": 2,
        "little_winds": 4,
    }


def test_little_winds_still_adds_flowers() -> None:
    result = table("111z222z333z44z123m", **DISCARD, bonus="1f")
    assert tai_of(result) == {"seat_flower": 1, "little_winds": 4}


# --- limit hands ------------------------------------------------------------------------------


def test_big_dragons_is_a_ten_tai_limit_paying_32_a_share() -> None:
    result = table(BIG_DRAGONS_HAND, **BIG_DRAGONS, **DISCARD)
    assert result.tai == 10 and result.raw_tai == 10
    assert tai_of(result) == {"big_dragons": 10}
    assert result.patterns[-1].name == "Big dragons (Three Great Scholars)"
    assert paid(result) == pays(E=128, S=-64, W=-32, N=-32)


def test_big_winds_self_drawn() -> None:
    result = table("55m", **BIG_WINDS)
    # Half flush and All pungs still add to the raw total; the valued wind sets are included.
    assert tai_of(result) == {"half_flush": 2, "all_pungs": 2, "big_winds": 10}
    assert result.tai == 10
    assert paid(result) == pays(E=192, S=-64, W=-64, N=-64)


def test_other_totals_cap_at_five() -> None:
    result = table("111m999p111s555z22z", bonus="1f2f3f4f", **DISCARD)
    assert result.raw_tai == 7 and result.tai == 5
    assert paid(result) == pays(E=64, S=-32, W=-16, N=-16)


def test_sg_big_dragons_stays_five() -> None:
    result = table(BIG_DRAGONS_HAND, profile="sg", **BIG_DRAGONS, **DISCARD)
    assert result.tai == 5 and paid(result) == pays(E=64, S=-32, W=-16, N=-16)


# --- Thirteen orphans -------------------------------------------------------------------------


def test_thirteen_orphans_on_a_discard_is_settled_as_a_self_draw() -> None:
    result = table(ORPHANS, **DISCARD)
    assert tai_of(result) == {"thirteen_orphans": 5}
    assert paid(result) == pays(E=96, S=-32, W=-32, N=-32)
    assert result.notes == ("Thirteen orphans is settled as a self-draw",)


def test_thirteen_orphans_in_sg_is_a_discard() -> None:
    result = table(ORPHANS, profile="sg", **DISCARD)
    assert paid(result) == pays(E=64, S=-32, W=-16, N=-16) and result.notes == ()


# --- flower wins ------------------------------------------------------------------------------


def test_seven_capture_is_a_discard_by_the_holder_of_the_eighth() -> None:
    result = table(None, flower_win="seven_capture", discarder="N", bonus="1234567f")
    assert tai_of(result) == {"seven_bonus": 5}
    assert paid(result) == pays(E=64, S=-16, W=-16, N=-32)


def test_eight_is_a_self_draw() -> None:
    result = table(None, flower_win="eight", bonus="12345678f", seat="S")
    assert tai_of(result) == {"eight_bonus": 5}
    assert paid(result) == pays(E=-32, S=96, W=-32, N=-32)


def test_flower_win_without_the_tiles_listed() -> None:
    result = table(None, flower_win="eight")
    assert result.tai == 5
    # No tile was listed, so none is named as earning it.
    assert result.to_json()["patterns"][0]["earned_by"] == []


def test_flower_win_tiles_must_bear_it_out() -> None:
    result = table(None, flower_win="seven_capture", discarder="N", bonus="123456f")
    assert not result.valid and "needs 7" in (result.error or "")
    assert not table(None, flower_win="eight", bonus="1234567f").valid


def test_flower_win_notes_animals_add_nothing() -> None:
    result = table(None, flower_win="eight", bonus="12345678f1a")
    assert result.tai == 5 and "animal tiles add nothing" in result.notes[0]


def test_sg_has_no_flower_wins() -> None:
    assert not table(None, profile="sg", flower_win="eight").valid


# --- pay-for-all ------------------------------------------------------------------------------

THREE_TAI = {"hand": "123m456p55s", "melds": ["pung 777z", "pung 666z"], "bonus": "1f"}
"""Two dragon sets and the seat flower: 3 tai, a share of 4."""


def test_three_tai_plain_settlement() -> None:
    result = table(**THREE_TAI, **DISCARD)
    assert result.tai == 3 and paid(result) == pays(E=16, S=-8, W=-4, N=-4)


def test_pay_for_all_on_a_discard_win_pays_four_shares() -> None:
    result = table(**THREE_TAI, **DISCARD, liable="S")
    assert paid(result) == pays(E=16, S=-16)


def test_pay_for_all_by_a_seat_other_than_the_discarder() -> None:
    result = table(**THREE_TAI, **DISCARD, liable="N")
    assert paid(result) == pays(E=16, N=-16)


def test_pay_for_all_on_a_self_draw_pays_six_shares() -> None:
    result = table(**THREE_TAI, liable="W")
    assert paid(result) == pays(E=24, W=-24)


def test_pay_for_all_on_a_limit_hand() -> None:
    result = table(BIG_DRAGONS_HAND, **BIG_DRAGONS, win="discard", discarder="W", liable="N")
    assert paid(result) == pays(E=128, N=-128)


def test_pay_for_all_with_thirteen_orphans_is_six_shares() -> None:
    assert paid(table(ORPHANS, **DISCARD, liable="S")) == pays(E=96, S=-96)


def test_liable_seat_cannot_be_the_winner() -> None:
    result = table(**THREE_TAI, **DISCARD, seat="W", liable="W")
    assert not result.valid and "pays for all" in (result.error or "")


def test_pay_for_all_under_the_minimum_pays_nothing() -> None:
    result = table(PLAIN, **DISCARD, liable="W")
    assert result.valid and not result.meets_minimum and paid(result) == pays()


def test_liable_must_be_a_wind() -> None:
    with pytest.raises(InvalidRequestError, match="liable"):
        table(**THREE_TAI, liable="X")


# --- house rules: tai values, minimum, cap, share ---------------------------------------------


def test_tai_overrides() -> None:
    result = table(PLAIN, **DISCARD, bonus="1a2a", options={"tai_overrides": {"animal": 2}})
    assert tai_of(result) == {"animal": 4}


def test_tai_override_of_a_limit_hand_to_five_pays_as_five() -> None:
    options = {"tai_overrides": {"big_dragons": 5}}
    result = table(BIG_DRAGONS_HAND, **BIG_DRAGONS, **DISCARD, options=options)
    assert result.tai == 5 and paid(result) == pays(E=64, S=-32, W=-16, N=-16)


def test_tai_override_of_an_unknown_pattern_is_refused() -> None:
    with pytest.raises(InvalidRequestError, match="tai_overrides"):
        table(PLAIN, options={"tai_overrides": {"seven_pairs": 3}})


def test_minimum_tai() -> None:
    result = table(PLAIN, **DISCARD, bonus="1a", options={"min_tai": 2})
    assert result.tai == 1 and not result.meets_minimum and paid(result) == pays()
    result = table(PLAIN, **DISCARD, options={"min_tai": 0})
    assert result.tai == 0 and paid(result) == pays(E=2, S=-1, W=Fraction(-1, 2), N=Fraction(-1, 2))


def test_one_tai_share() -> None:
    result = table(**THREE_TAI, **DISCARD, options={"share": "0.5"})
    assert paid(result) == pays(E=8, S=-4, W=-2, N=-2)


def test_cap_lowers_the_total_and_the_limit_follows_it() -> None:
    result = table(**THREE_TAI, **DISCARD, options={"cap": 2})
    assert result.tai == 2 and paid(result) == pays(E=8, S=-4, W=-2, N=-2)
    limit = table(BIG_DRAGONS_HAND, **BIG_DRAGONS, **DISCARD, options={"cap": 2})
    # The next doubling above a cap of 2: a share of 4.
    assert limit.tai == 10 and paid(limit) == pays(E=16, S=-8, W=-4, N=-4)


def test_cap_raised() -> None:
    result = table("111m999p111s555z22z", bonus="1f2f3f4f", **DISCARD, options={"cap": 8})
    assert result.tai == 7 and paid(result) == pays(E=256, S=-128, W=-64, N=-64)


def test_limit_never_lowers_a_hand_under_a_high_cap() -> None:
    options = {"cap": 10, "tai_overrides": {"big_dragons": 3}}
    result = table(BIG_DRAGONS_HAND, **BIG_DRAGONS, bonus="1f2f3f4f", **DISCARD, options=options)
    # Big dragons 3, seat flower 1, flower set 2: the plain total beats the lowered limit.
    assert result.raw_tai == 6 and result.tai == 6


def test_shooter_pays_all_shares_on_a_discard() -> None:
    result = table(**THREE_TAI, **DISCARD, options={"shooter_pays": True})
    assert paid(result) == pays(E=16, S=-16)


def test_shooter_pays_changes_nothing_on_a_self_draw() -> None:
    result = table(**THREE_TAI, options={"shooter_pays": True})
    assert paid(result) == pays(E=24, S=-8, W=-8, N=-8)


def test_pay_for_all_overrides_shooter_pays() -> None:
    result = table(**THREE_TAI, **DISCARD, liable="W", options={"shooter_pays": True})
    assert paid(result) == pays(E=16, W=-16)


# --- house rules: payout charts ---------------------------------------------------------------

_1_TAI = {"hand": PLAIN, "bonus": "1a"}
_5_TAI = {"hand": PLAIN, "bonus": "1a2a3a4a"}


@pytest.mark.parametrize(
    ("bonus", "tai", "discarder_pays"),
    [("1a", 1, 4), ("1a2a", 2, 7), ("1a2a3a", 3, 11), ("1a2a3a1f", 4, 20), ("1a2a3a4a", 5, 40)],
)
def test_chart_3_6_discard_amounts(bonus: str, tai: int, discarder_pays: int) -> None:
    result = table(PLAIN, **DISCARD, bonus=bonus, options={"chart": "3/6"})
    assert result.tai == tai
    assert paid(result) == pays(E=discarder_pays, S=-discarder_pays)


def test_chart_3_6_self_draw_amounts() -> None:
    options = {"chart": "3/6", "min_tai": 0}
    # PLAIN self-drawn is fully concealed: 1 tai; each animal adds one.
    for bonus, each in (("", 2), ("1a", 3), ("1a2a", 5), ("1a2a3a", 10), ("1a2a3a4a", 20)):
        result = table(PLAIN, bonus=bonus, options=options)
        assert paid(result) == pays(E=3 * each, S=-each, W=-each, N=-each), bonus


def test_chart_1_2_is_doubling_with_shooter_pays() -> None:
    for bonus, discarder in (("1a", 4), ("1a2a", 8), ("1a2a3a", 16), ("1a2a3a4f", 32)):
        result = table(PLAIN, **DISCARD, seat="N", bonus=bonus, options={"chart": "1/2"})
        assert result.tai == len(bonus) // 2
        assert paid(result) == pays(N=discarder, S=-discarder), bonus
    five = table(**_5_TAI, **DISCARD, options={"chart": "1/2"})
    assert paid(five) == pays(E=64, S=-64)
    drawn = table(PLAIN, bonus="1a", options={"chart": "1/2"})
    assert drawn.tai == 2 and paid(drawn) == pays(E=12, S=-4, W=-4, N=-4)


def test_chart_limit_hand_pays_twice_the_cap_amount() -> None:
    result = table(BIG_DRAGONS_HAND, **BIG_DRAGONS, **DISCARD, options={"chart": "3/6"})
    assert paid(result) == pays(E=80, S=-80)
    drawn = table(BIG_DRAGONS_HAND, **BIG_DRAGONS, options={"chart": "1/2"})
    assert paid(drawn) == pays(E=192, S=-64, W=-64, N=-64)


def test_chart_at_zero_tai_pays_half_the_one_tai_amounts() -> None:
    result = table(PLAIN, **DISCARD, options={"chart": "3/6", "min_tai": 0})
    assert paid(result) == pays(E=2, S=-2)


def test_chart_amounts_are_in_units_of_the_share() -> None:
    result = table(**_1_TAI, **DISCARD, options={"chart": "3/6", "share": "0.1"})
    assert paid(result) == pays(E=Fraction(2, 5), S=Fraction(-2, 5))


def test_custom_chart() -> None:
    chart = {
        "discarder": [2, 4, 6, 8, 10],
        "others": [1, 2, 3, 4, 5],
        "self_draw": [2, 4, 6, 8, "10.5"],
    }
    result = table(**_1_TAI, **DISCARD, options={"chart": chart})
    assert paid(result) == pays(E=4, S=-2, W=-1, N=-1)
    shooter = table(**_1_TAI, **DISCARD, options={"chart": chart, "shooter_pays": True})
    assert paid(shooter) == pays(E=4, S=-4)
    drawn = table(**_5_TAI, options={"chart": chart})
    each = Fraction(21, 2)
    assert paid(drawn) == pays(E=3 * each, S=-each, W=-each, N=-each)


def test_custom_chart_others_default_to_nothing() -> None:
    chart = {"discarder": [3, 6, 9, 12, 15], "self_draw": [1, 2, 3, 4, 5]}
    assert paid(table(**_1_TAI, **DISCARD, options={"chart": chart})) == pays(E=3, S=-3)


def test_chart_with_pay_for_all() -> None:
    result = table(**_1_TAI, **DISCARD, liable="N", options={"chart": "3/6"})
    assert paid(result) == pays(E=4, N=-4)
    drawn = table(**_1_TAI, liable="N", options={"chart": "3/6"})
    assert paid(drawn) == pays(E=9, N=-9)


def test_options_parse_into_the_table_options() -> None:
    options = SG_TABLE.parse_options({"chart": "1/2", "cap": 4, "shooter_pays": True})
    assert isinstance(options, SgTableOptions)
    assert options.chart is CHART_PRESETS["1/2"] and options.cap == 4 and options.shooter_pays
    assert SG_TABLE.parse_options({"chart": None}) == SgTableOptions()


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"cap": 0}, "option cap"),
        ({"cap": 11}, "option cap"),
        ({"cap": "5"}, "option cap"),
        ({"cap": 3, "min_tai": 4}, "option min_tai"),
        ({"min_tai": 6}, "option min_tai"),
        ({"share": 0}, "option share"),
        ({"shooter_pays": "yes"}, "option shooter_pays"),
        ({"chart": "2/4"}, "option chart"),
        ({"chart": 3}, "option chart"),
        ({"chart": {"discarder": [4, 7, 11, 20, 40]}}, "option chart"),
        ({"chart": {"discarder": [4], "self_draw": [2]}}, "option chart"),
        ({"chart": {"discarder": [1, 2, 3, 4, -5], "self_draw": [1, 2, 3, 4, 5]}}, "option chart"),
        ({"chart": {"discarder": [], "self_draw": [1, 2, 3, 4, 5]}}, "option chart"),
        ({"chart": {"discarder": "4", "self_draw": [1, 2, 3, 4, 5]}}, "option chart"),
        ({"chart": {"discarder": ["x"] * 5, "self_draw": [1, 2, 3, 4, 5]}}, "option chart"),
        ({"chart": {"dealer": [1], "discarder": [1] * 5, "self_draw": [1] * 5}}, "option chart"),
        ({"chart": "3/6", "cap": 6}, "option chart"),
        ({"tai_overrides": {"animal": -1}}, "option tai_overrides"),
        ({"payout": 1}, 'option "payout"'),
    ],
)
def test_invalid_options_are_refused_with_the_option_named(
    options: dict[str, Any], named: str
) -> None:
    with pytest.raises(InvalidRequestError, match=named):
        table(PLAIN, **DISCARD, options=options)


def test_a_shorter_cap_accepts_a_longer_chart() -> None:
    result = table(**_5_TAI, **DISCARD, options={"chart": "3/6", "cap": 3})
    assert result.tai == 3 and paid(result) == pays(E=11, S=-11)


# --- inherited checks -------------------------------------------------------------------------


def test_events_are_checked_as_in_sg() -> None:
    assert not table(PLAIN, **DISCARD, events=["replacement"]).valid
    assert not table(PLAIN, events=["last_discard"]).valid
    assert tai_of(table(PLAIN, events=["replacement"], bonus="1a")) == {
        "fully_concealed": 1,
        "replacement_win": 1,
        "animal": 1,
    }


def test_robbing_a_kong_is_settled_as_a_discard_by_the_declarer() -> None:
    # Robbing the fourth 3m: the winner holds no other 3m.
    result = table(**THREE_TAI, **DISCARD, win_tile="3m", events=["robbing_kong"])
    assert result.tai == 4 and paid(result) == pays(E=32, S=-16, W=-8, N=-8)

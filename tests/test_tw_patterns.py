"""Every pattern of the `tw` table: a hand where it fires with its value, and a near miss."""

from __future__ import annotations

from typing import Any

import pytest

from companion.rules.tw.patterns import PATTERNS
from companion.rules.tw.profile import TW
from companion.scoring import ScoreResult, score


def tw(**fields: Any) -> ScoreResult:
    return score({"profile": "tw", **fields})


def found(**fields: Any) -> dict[str, int]:
    result = tw(**fields)
    assert result.valid, result.error
    return {s.id: s.tai for s in result.patterns}


def test_the_table_has_every_contract_id_once() -> None:
    # docs/contract.md's table of the ids is written from this one (`make docs`): a new pattern
    # is its line in the table and its test here.
    ids = [pattern.id for pattern in PATTERNS]
    assert len(ids) == len(set(ids))
    assert TW.pattern_ids() == {*ids, "seven_flower_capture", "eight_flowers"}


# --- base, flowers, sets -----------------------------------------------------------------------


def test_winning_hand_on_every_win_and_not_on_a_non_win() -> None:
    assert found(hand="123m456p789s222s55m67m8m")["winning_hand"] == 2
    assert not tw(hand="123m456p789s222s55m67m9m").valid


def test_no_flowers_and_flowers() -> None:
    hand = "123m456p789s222s55m67m8m"
    assert found(hand=hand)["no_flowers"] == 1
    assert "flowers" not in found(hand=hand)
    with_flowers = found(hand=hand, bonus="1f6f8f")
    assert with_flowers["flowers"] == 3
    assert "no_flowers" not in with_flowers


def test_honor_triplet_per_wind_or_dragon_set() -> None:
    assert found(hand="123m456p789s99m111z555z")["honor_triplet"] == 2
    assert "honor_triplet" not in found(hand="123m456p789s555s11z78m9m")


def test_melded_kong_per_exposed_or_added_kong() -> None:
    result = found(hand="345s678s789m66p", melds=["kong 1111m", "akong 2222p"])
    assert result["melded_kong"] == 2
    assert "concealed_kong" not in result


def test_concealed_kong_per_concealed_kong() -> None:
    result = found(hand="345s678s789m66p", melds=["ckong 1111m", "ckong 2222p"])
    assert result["concealed_kong"] == 4
    assert "melded_kong" not in result
    # Concealed kongs leave the hand concealed, and count as concealed triplets.
    assert result["fully_concealed_self_draw"] == 3
    assert result["two_concealed_triplets"] == 2
    assert "concealed_kong" not in found(hand="345s678s789m66p", melds=["kong 1111m", "pung 222p"])


# --- concealment and the winning draw ----------------------------------------------------------


def test_fully_concealed_self_draw_replaces_concealed_hand_and_self_draw() -> None:
    result = found(hand="123m456p789s222s55m67m8m")
    assert result["fully_concealed_self_draw"] == 3
    assert "self_draw" not in result and "concealed_hand" not in result
    near = found(hand="456p789s222s55m67m8m", melds=["chow 123m"])
    assert "fully_concealed_self_draw" not in near
    assert near["self_draw"] == 1


def test_concealed_hand_on_a_discard() -> None:
    hand = "123m456p789s222s55m67m8m"
    assert found(hand=hand, win="discard", discarder="N")["concealed_hand"] == 1
    assert "concealed_hand" not in found(hand=hand)
    near = found(hand="456p789s222s55m67m8m", melds=["chow 123m"])
    assert "concealed_hand" not in near


def test_self_draw_and_not_on_a_discard() -> None:
    hand, melds = "456p789s222s55m67m8m", ["chow 123m"]
    assert found(hand=hand, melds=melds)["self_draw"] == 1
    assert "self_draw" not in found(hand=hand, melds=melds, win="discard", discarder="S")


EXPOSED = ["chow 123m", "pung 444p", "kong 7777s", "chow 678m", "pung 999p"]


def test_exposed_hand_five_open_sets_and_the_pair_on_a_discard() -> None:
    result = found(hand="5s5s", melds=EXPOSED, win="discard", discarder="S")
    assert result["exposed_hand"] == 10
    assert result["pair_wait"] == 1
    assert result["melded_kong"] == 1


def test_exposed_hand_not_with_a_concealed_kong() -> None:
    melds = [*EXPOSED[:2], "ckong 7777s", *EXPOSED[3:]]
    result = found(hand="5s5s", melds=melds, win="discard", discarder="S")
    assert "exposed_hand" not in result


# --- waits -------------------------------------------------------------------------------------


def test_pair_wait() -> None:
    assert found(hand="123m456p789s222s678m5m5m")["pair_wait"] == 1
    assert "pair_wait" not in found(hand="123m456p789s222s55m67m8m")


def test_closed_and_edge_waits() -> None:
    closed = found(hand="123m456p789s222s11z46m5m")
    assert closed["closed_or_edge_wait"] == 1
    edge = found(hand="456m456p789s222s11z12m3m")
    assert edge["closed_or_edge_wait"] == 1
    assert "pair_wait" not in edge
    two_sided = found(hand="123m456p789s222s11z45m6m")
    assert "closed_or_edge_wait" not in two_sided
    assert "pair_wait" not in two_sided


def test_seven_pairs_and_a_triplet_earns_no_wait() -> None:
    result = found(hand="1133557799m2244p666s", win_tile="9m")
    assert "pair_wait" not in result


# --- suits and honors --------------------------------------------------------------------------


def test_no_honors_and_no_honors_or_flowers() -> None:
    hand = "123m456p789s222s55m67m8m"
    result = found(hand=hand)
    assert (result["no_honors"], result["no_honors_or_flowers"], result["no_flowers"]) == (1, 3, 1)
    flowered = found(hand=hand, bonus="2f")
    assert flowered["no_honors"] == 1
    assert "no_honors_or_flowers" not in flowered
    honored = found(hand="123m456p789s11z67m8m", melds=["pung 222s"])
    assert "no_honors" not in honored and "no_honors_or_flowers" not in honored


def test_half_flush_needs_one_suit_and_honors() -> None:
    result = found(hand="123m345m678m999m555z11z")
    assert result["half_flush"] == 10
    assert "full_flush" not in result
    assert "half_flush" not in found(hand="123m345m678m999m555p11p")


def test_full_flush_one_suit_no_honors() -> None:
    result = found(hand="123m345m678m999m456m11m")
    assert result["full_flush"] == 40
    assert "half_flush" not in result
    assert "full_flush" not in found(hand="123m345m678m999m555z11z")


# --- whole-hand shapes -------------------------------------------------------------------------


def test_seven_pairs_and_a_triplet() -> None:
    result = found(hand="1133557799m2244p666s", win_tile="9m")
    assert result["seven_pairs_triplet"] == 30
    assert result["winning_hand"] == 2
    assert result["fully_concealed_self_draw"] == 3
    assert "two_concealed_triplets" not in result
    # The pairs must be of seven different kinds.
    assert not tw(hand="1111m557799m2244p666s").valid
    # And the hand must have no declared group.
    assert not tw(hand="1133557799m2244p", melds=["pung 666s"]).valid


def test_seven_pairs_and_a_triplet_that_also_reads_as_sets_takes_the_better() -> None:
    result = found(hand="11223344556677m888p", win_tile="7m")
    assert result["seven_pairs_triplet"] == 30


def test_chow_hand_and_pure_chow_hand() -> None:
    hand = "123m456m789p234s567s99p"
    pure = found(hand=hand)
    assert (pure["chow_hand"], pure["pure_chow_hand"]) == (3, 10)
    flowered = found(hand=hand, bonus="3f")
    assert flowered["chow_hand"] == 3 and "pure_chow_hand" not in flowered
    honor_pair = found(hand="123m456m789p234s567s11z")
    assert honor_pair["chow_hand"] == 3 and "pure_chow_hand" not in honor_pair
    one_pung = found(hand="123m456m789p234s555s99p")
    assert "chow_hand" not in one_pung and "pure_chow_hand" not in one_pung


def test_chow_hand_counts_declared_chows() -> None:
    result = found(hand="456m789p234s567s99p", melds=["chow 123m"])
    assert (result["chow_hand"], result["pure_chow_hand"]) == (3, 10)


def test_all_triplets() -> None:
    assert found(hand="111m222p333s444m777p55s")["all_triplets"] == 10
    assert "all_triplets" not in found(hand="111m222p333s444m789p55s")


# --- dragons and winds -------------------------------------------------------------------------


def test_little_dragons() -> None:
    result = found(hand="123m456p789s555z666z77z")
    assert (result["little_dragons"], result["honor_triplet"]) == (15, 2)
    assert "little_dragons" not in found(hand="123m456p789s555z666z11z")


def test_big_dragons() -> None:
    result = found(hand="123m456p55s555z666z777z")
    assert (result["big_dragons"], result["honor_triplet"]) == (30, 3)
    assert "little_dragons" not in result
    assert "big_dragons" not in found(hand="123m456p789s555z666z77z")


def test_little_three_winds() -> None:
    result = found(hand="123m456p789s111z222z33z")
    assert (result["little_three_winds"], result["honor_triplet"]) == (5, 2)
    assert "little_three_winds" not in found(hand="123m456p789s111z222z55z")


def test_big_three_winds() -> None:
    result = found(hand="123m456p55s111z222z333z")
    assert (result["big_three_winds"], result["honor_triplet"]) == (15, 3)
    assert "little_three_winds" not in result
    assert "big_three_winds" not in found(hand="123m456p55s111z222z555z")


def test_little_four_winds_stacks_with_the_three_wind_patterns() -> None:
    result = found(hand="123m456p111z222z333z44z")
    assert result["little_four_winds"] == 30
    assert result["big_three_winds"] == 15
    assert result["little_three_winds"] == 5
    assert result["honor_triplet"] == 3
    assert "little_four_winds" not in found(hand="123m456p55s111z222z333z")


def test_big_four_winds_stacks_with_big_three_winds() -> None:
    result = found(hand="123m11p111z222z333z444z")
    assert (result["big_four_winds"], result["big_three_winds"], result["honor_triplet"]) == (
        40,
        15,
        4,
    )
    assert "little_four_winds" not in result and "little_three_winds" not in result
    assert "big_four_winds" not in found(hand="123m456p111z222z333z44z")


# --- concealed triplets ------------------------------------------------------------------------

SHANPON = "111m222p456s789s33m55p5p"
"""Three pungs-to-be: 111m, 222p and 55p (or the 33m pair), won on 5p."""


def test_concealed_triplets_self_draw_completes_a_concealed_pung() -> None:
    result = found(hand=SHANPON)
    assert (result["two_concealed_triplets"], result["three_concealed_triplets"]) == (2, 5)
    assert "four_concealed_triplets" not in result


def test_concealed_triplets_a_winning_discard_pung_is_not_concealed() -> None:
    result = found(hand=SHANPON, win="discard", discarder="W")
    assert result["two_concealed_triplets"] == 2
    assert "three_concealed_triplets" not in result


def test_concealed_triplets_declared_pungs_do_not_count() -> None:
    result = found(hand="222p456s789s33m55p5p", melds=["pung 111m"])
    assert result["two_concealed_triplets"] == 2
    assert "three_concealed_triplets" not in result
    assert "two_concealed_triplets" not in found(
        hand="456s789s33m55p5p", melds=["pung 111m", "pung 222p"]
    )


def test_concealed_triplets_accumulate_to_five() -> None:
    result = found(hand="111m222p333s444m777p55s")
    assert [result[f"{n}_concealed_triplets"] for n in ("two", "three", "four", "five")] == [
        2,
        5,
        15,
        40,
    ]
    discard = found(hand="111m222p333s444m55s777p", win="discard", discarder="S")
    assert "five_concealed_triplets" not in discard
    assert discard["four_concealed_triplets"] == 15


# --- pure straight -----------------------------------------------------------------------------

STRAIGHT = "123m456m789m234p55s67s8s"


def test_pure_straight_concealed_is_ten() -> None:
    result = tw(hand=STRAIGHT)
    (straight,) = [s for s in result.patterns if s.id == "pure_straight"]
    assert (straight.tai, straight.variant) == (10, "concealed")
    assert straight.earned_by == ("123m", "456m", "789m")


def test_pure_straight_with_a_declared_chow_is_five() -> None:
    result = tw(hand="123m789m234p55s67s8s", melds=["chow 456m"])
    (straight,) = [s for s in result.patterns if s.id == "pure_straight"]
    assert (straight.tai, straight.variant) == (5, None)


def test_pure_straight_completed_by_the_winning_discard_is_five() -> None:
    result = found(hand="123m456m78m234p678s55s9m", win="discard", discarder="S")
    assert result["pure_straight"] == 5


def test_pure_straight_prefers_the_concealed_copy_of_a_chow() -> None:
    result = found(hand="123m456m789m555s99p", melds=["chow 123m"], win_tile="9p")
    assert result["pure_straight"] == 10


def test_pure_straight_needs_one_suit() -> None:
    assert "pure_straight" not in found(hand="123m456m789p234p55s67s8s")


# --- events ------------------------------------------------------------------------------------

HAND = "123m456p789s222s55m67m8m"


@pytest.mark.parametrize(
    ("fields", "pattern", "tai"),
    [
        ({"events": ["last_tile"]}, "last_wall_draw", 1),
        ({"events": ["last_discard"], "win": "discard", "discarder": "S"}, "last_discard", 1),
        ({"events": ["robbing_kong"], "win": "discard", "discarder": "S"}, "robbing_kong", 1),
        ({"events": ["original_ready"]}, "original_ready", 15),
        ({"table_discards": 0}, "very_early_win", 10),
        ({"table_discards": 5}, "very_early_win", 10),
        ({"table_discards": 6}, "early_win", 5),
        ({"table_discards": 9}, "early_win", 5),
    ],
)
def test_event_patterns(fields: dict[str, Any], pattern: str, tai: int) -> None:
    assert found(hand=HAND, **fields)[pattern] == tai
    assert pattern not in found(hand=HAND)


def test_early_wins_stop_at_ten_discards_and_need_the_count() -> None:
    for fields in ({"table_discards": 10}, {}):
        result = found(hand=HAND, **fields)
        assert "very_early_win" not in result and "early_win" not in result


def test_heavenly_hand_with_its_very_early_win() -> None:
    result = found(hand=HAND, events=["heavenly"])
    assert (result["heavenly"], result["very_early_win"]) == (40, 10)
    assert "heavenly" not in found(hand=HAND)


def test_earthly_hand_with_its_very_early_win() -> None:
    result = found(hand=HAND, seat="S", win="discard", discarder="E", events=["earthly"])
    assert (result["earthly"], result["very_early_win"], result["concealed_hand"]) == (40, 10, 1)
    with_count = found(
        hand=HAND, seat="S", win="discard", discarder="E", events=["earthly"], table_discards=1
    )
    assert with_count["earthly"] == 40
    assert "earthly" not in found(hand=HAND, seat="S", win="discard", discarder="E")

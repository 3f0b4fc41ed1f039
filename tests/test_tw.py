"""The `tw` profile: the source's examples, settlement and dealer tai, options, validation and
several winners on one discard. Per-pattern tests are in test_tw_patterns.py."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.context import next_deal
from companion.errors import InvalidRequestError
from companion.scoring import ScoreResult, score, score_several
from companion.tiles import Wind

# The mahjchina profile's regular hand: 456m 789p 222s 678s 55m and a called chow, won on 5m.
REGULAR = {"hand": "456m789p222s678s5m5m", "melds": ["chow 123m"]}
# The mahjchina profile's worked example: the same tiles, nothing called.
WORKED = {"hand": "123m456m789p222s678s5m5m"}
# A 5-tai hand (winning 2, flowers 2, self draw 1) for the dealer examples.
FIVE_TAI = {"hand": "456m444p234s11z56s7s", "melds": ["chow 123m"], "bonus": "1f2f"}
# 4 tai on a discard (winning 2, flowers 2), won on 5m as REGULAR is: both may claim one 5m.
FOUR_TAI_ON_5M = {"hand": "444p234s11z567s34m5m", "melds": ["chow 123m"], "bonus": "1f2f"}


def tw(**fields: Any) -> ScoreResult:
    return score({"profile": "tw", **fields})


def breakdown(result: ScoreResult) -> dict[str, int]:
    assert result.valid, result.error
    return {s.id: s.tai for s in result.patterns}


def paid(result: ScoreResult) -> dict[str, Fraction | int]:
    return {wind.value: result.payments[wind] for wind in Wind}


# --- the mahjchina profile's examples ---------------------------------------------------------


def test_mahjchina_regular_self_draw() -> None:
    result = tw(**REGULAR)
    assert breakdown(result) == {
        "winning_hand": 2,
        "no_flowers": 1,
        "self_draw": 1,
        "pair_wait": 1,
        "no_honors": 1,
        "no_honors_or_flowers": 3,
    }
    assert result.tai == 9
    assert result.dealer_tai == 1
    assert paid(result) == {"E": 30, "S": -10, "W": -10, "N": -10}


def test_mahjchina_one_tile_short_is_refused() -> None:
    result = tw(hand="456m789p222s678s5m", melds=["chow 123m"])
    assert not result.valid
    assert "one tile short" in (result.error or "")
    assert [tile.mpsz for tile in result.waits] == ["5m"]


def test_mahjchina_same_hand_on_player_ones_discard() -> None:
    # "Player 1" is the seat after the winner: East wins, South discards.
    result = tw(**REGULAR, win="discard", discarder="S")
    assert breakdown(result) == {
        "winning_hand": 2,
        "no_flowers": 1,
        "pair_wait": 1,
        "no_honors": 1,
        "no_honors_or_flowers": 3,
    }
    assert result.tai == 8
    assert paid(result) == {"E": 9, "S": -9, "W": 0, "N": 0}


def test_mahjchina_worked_example() -> None:
    result = tw(**WORKED, table_discards=20)
    assert breakdown(result) == {
        "winning_hand": 2,
        "no_flowers": 1,
        "fully_concealed_self_draw": 3,
        "pair_wait": 1,
        "no_honors": 1,
        "no_honors_or_flowers": 3,
    }
    assert result.tai == 11
    assert result.dealer_tai == 1
    assert paid(result) == {"E": 36, "S": -12, "W": -12, "N": -12}
    assert result.to_json()["dealer_tai"] == 1
    assert result.to_json()["tai"] == 11


def test_mahjchina_dealer_example_two_prior_wins() -> None:
    result = tw(**FIVE_TAI, dealer_streak=2)
    assert result.tai == 5
    assert result.dealer_tai == 5
    assert paid(result) == {"E": 30, "S": -10, "W": -10, "N": -10}


def test_pair_wait_is_reported_where_a_closed_wait_reads_the_same() -> None:
    # 456m 55m won on 5m reads as the pair or as the middle of 456m, for the same tai.
    result = tw(**REGULAR)
    assert result.reading is not None and result.reading.role.value == "pair"


# --- dealer tai --------------------------------------------------------------------------------


def test_dealer_self_draw_without_streak() -> None:
    result = tw(**FIVE_TAI)
    assert paid(result) == {"E": 18, "S": -6, "W": -6, "N": -6}


def test_non_dealer_self_draw_has_no_dealer_tai_even_on_the_dealers_payment() -> None:
    result = tw(**FIVE_TAI, seat="S", dealer="E", dealer_streak=2)
    assert result.dealer_tai == 0
    assert paid(result) == {"E": -5, "S": 15, "W": -5, "N": -5}


def test_dealer_wins_on_a_discard() -> None:
    result = tw(**FIVE_TAI, win="discard", discarder="W", dealer_streak=1)
    assert result.tai == 4  # no self draw
    assert result.dealer_tai == 3
    assert paid(result) == {"E": 7, "S": 0, "W": -7, "N": 0}


def test_non_dealer_wins_on_the_dealers_discard() -> None:
    result = tw(**FIVE_TAI, seat="N", win="discard", discarder="W", dealer="W", dealer_streak=1)
    assert result.dealer_tai == 3
    assert paid(result) == {"E": 0, "S": 0, "W": -7, "N": 7}


def test_non_dealer_wins_on_a_non_dealers_discard() -> None:
    result = tw(**FIVE_TAI, seat="N", win="discard", discarder="W", dealer="E", dealer_streak=4)
    assert result.dealer_tai == 0
    assert paid(result) == {"E": 0, "S": 0, "W": -4, "N": 4}


def test_seven_flower_capture_paid_by_the_holder_alone_without_dealer_tai() -> None:
    result = tw(
        flower_win="seven_capture",
        seat="S",
        discarder="W",
        dealer="S",
        dealer_streak=3,
        bonus="1f2f3f4f5f6f7f",
    )
    assert breakdown(result) == {"seven_flower_capture": 20}
    assert result.dealer_tai == 0
    assert paid(result) == {"E": 0, "S": 20, "W": -20, "N": 0}


def test_eight_flowers_paid_by_each_other_player_without_dealer_tai() -> None:
    result = tw(flower_win="eight", bonus="1f2f3f4f5f6f7f8f", dealer_streak=2)
    assert breakdown(result) == {"eight_flowers": 30}
    assert result.dealer_tai == 0
    assert paid(result) == {"E": 90, "S": -30, "W": -30, "N": -30}


def test_a_flower_win_needs_its_flowers() -> None:
    result = tw(flower_win="eight", bonus="1f2f3f4f5f6f7f")
    assert not result.valid
    assert "needs 8" in (result.error or "")


def test_a_flower_win_takes_no_events() -> None:
    result = tw(flower_win="eight", bonus="1f2f3f4f5f6f7f8f", events=["heavenly"])
    assert not result.valid
    assert "scores alone" in (result.error or "")


@pytest.mark.parametrize(
    ("dealer", "streak", "winners", "expected"),
    [
        (Wind.EAST, 2, [Wind.EAST], (Wind.EAST, 3)),
        (Wind.EAST, 2, [], (Wind.EAST, 2)),
        (Wind.EAST, 2, [Wind.WEST], (Wind.SOUTH, 0)),
        (Wind.NORTH, 0, [Wind.SOUTH], (Wind.EAST, 0)),
        (Wind.EAST, 0, [Wind.SOUTH, Wind.EAST], (Wind.EAST, 1)),
    ],
)
def test_next_deal(
    dealer: Wind, streak: int, winners: list[Wind], expected: tuple[Wind, int]
) -> None:
    passes, next_streak = next_deal(dealer, streak, winners)
    assert (dealer.next() if passes else dealer, next_streak) == expected


@pytest.mark.parametrize(
    ("winners", "expected"),
    [([], (Wind.EAST, 3)), ([Wind.EAST], (Wind.EAST, 3)), ([Wind.WEST], (Wind.SOUTH, 0))],
)
def test_next_deal_when_a_draw_repeats(winners: list[Wind], expected: tuple[Wind, int]) -> None:
    passes, next_streak = next_deal(Wind.EAST, 2, winners, draw_repeats=True)
    assert (Wind.EAST.next() if passes else Wind.EAST, next_streak) == expected


# --- options -----------------------------------------------------------------------------------


def test_stake_base_and_per_tai_are_exact() -> None:
    result = tw(**WORKED, options={"base": 2, "per_tai": "0.5"})
    # Each pays 2 + 0.5 x (11 + 1).
    assert paid(result) == {"E": 24, "S": -8, "W": -8, "N": -8}
    result = tw(**WORKED, options={"base": 0, "per_tai": "1/3"})
    assert result.payments[Wind.SOUTH] == Fraction(-4)
    result = tw(**REGULAR, win="discard", discarder="S", options={"per_tai": "0.25"})
    assert result.payments[Wind.EAST] == Fraction(9, 4)
    assert result.to_json()["payments"]["E"] == 2.25


def test_tai_overrides_change_a_pattern_and_a_variant() -> None:
    result = tw(**WORKED, options={"tai_overrides": {"winning_hand": 5}})
    assert breakdown(result)["winning_hand"] == 5
    assert result.tai == 14
    straight = {"hand": "123m456m789m234p55s67s8s"}
    result = tw(**straight, options={"tai_overrides": {"pure_straight.concealed": 8}})
    assert breakdown(result)["pure_straight"] == 8


def test_min_tai_flags_and_pays_nothing() -> None:
    result = tw(**WORKED, options={"min_tai": 12})
    assert result.valid and not result.meets_minimum
    assert paid(result) == {"E": 0, "S": 0, "W": 0, "N": 0}
    assert result.dealer_tai is None


def test_wait_rule_single_needs_one_wait_kind() -> None:
    # 1234m won on 4m: pair of 4m after 123m, but 1m was a wait too.
    pair = {"hand": "567p789s222s111z1234m4m"}
    assert "pair_wait" in breakdown(tw(**pair))
    assert "pair_wait" not in breakdown(tw(**pair, options={"wait_rule": "single"}))
    # 2444m won on 3m: middle of 234m, but 2m was a wait too.
    closed = {"hand": "567p789s222s111z2444m3m"}
    assert "closed_or_edge_wait" in breakdown(tw(**closed))
    assert "closed_or_edge_wait" not in breakdown(tw(**closed, options={"wait_rule": "single"}))
    # The profile's example hand waits on 5m alone, so both rules give the pair wait.
    assert "pair_wait" in breakdown(tw(**REGULAR, options={"wait_rule": "single"}))


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"wait_rule": "either"}, "wait_rule"),
        ({"wait_rule": 1}, "wait_rule"),
        ({"base": -1}, "base"),
        ({"per_tai": "-0.5"}, "per_tai"),
        ({"per_tai": "lots"}, "per_tai"),
        ({"base": 0, "per_tai": 0}, "per_tai"),
        ({"min_tai": -1}, "min_tai"),
        ({"share": 2}, "share"),
        ({"tai_overrides": {"ping_hu": 4}}, "tai_overrides"),
        ({"tai_overrides": {"winning_hand": -1}}, "tai_overrides"),
    ],
)
def test_bad_options_are_refused_by_name(options: dict[str, Any], named: str) -> None:
    with pytest.raises(InvalidRequestError, match=named):
        tw(**WORKED, options=options)


# --- validation --------------------------------------------------------------------------------


def refusal(**fields: Any) -> str:
    result = tw(**fields)
    assert not result.valid, result.patterns
    assert result.error
    return result.error


def test_a_fourteen_tile_hand_is_refused() -> None:
    assert "17 tiles" in refusal(hand="123m456p789s222s55m")
    assert "17 tiles" in refusal(hand="456p789s222s55m", melds=["pung 777z"])


def test_thirteen_orphans_is_refused() -> None:
    assert "Thirteen Orphans is not a Taiwanese win" in refusal(hand="19m19p19s1234567z1z")


def test_animals_are_refused() -> None:
    assert "animal" in refusal(**WORKED, bonus="1f1a")
    assert "animal" in refusal(flower_win="eight", bonus="1f2f3f4f5f6f7f8f1a")


def test_four_sets_and_a_pair_of_seventeen_tiles_is_not_a_win() -> None:
    assert "not a winning hand" in refusal(hand="123m456m789p222s678s5m9m")


def test_negative_counts_are_malformed() -> None:
    with pytest.raises(InvalidRequestError, match="table_discards"):
        tw(**WORKED, table_discards=-1)
    with pytest.raises(InvalidRequestError, match="dealer_streak"):
        tw(**WORKED, dealer_streak=-1)


def test_heavenly_hand_is_the_dealers() -> None:
    assert refusal(**WORKED, seat="S", events=["heavenly"]) == (
        "heavenly is the dealer's win: seat S is not the dealer (E)"
    )
    assert refusal(**WORKED, seat="E", dealer="N", events=["heavenly"]) == (
        "heavenly is the dealer's win: seat E is not the dealer (N)"
    )
    assert refusal(**WORKED, win="discard", discarder="S", events=["heavenly"]) == (
        "heavenly is the dealer's self-draw on the first turn: win must be self_draw, with no "
        "discarder"
    )
    assert refusal(**WORKED, events=["heavenly"], table_discards=3) == (
        "heavenly comes before any discard: table_discards must be 0, not 3"
    )
    assert refusal(**REGULAR, events=["heavenly"]) == (
        "heavenly is the dealer's dealt hand: melds can hold only concealed kongs (ckong), not "
        "chow 123m"
    )
    assert refusal(**WORKED, events=["heavenly", "original_ready"]) == (
        "heavenly is won on the dealer's first draw, so events cannot also hold original_ready"
    )
    assert tw(**WORKED, seat="N", dealer="N", events=["heavenly"], table_discards=0).valid


def test_earthly_hand_is_a_non_dealers_win_on_the_dealers_first_discard() -> None:
    earthly = {**WORKED, "win": "discard", "events": ["earthly"]}
    assert refusal(**earthly, seat="E", discarder="S") == (
        "earthly is a non-dealer's win: seat E is the dealer, whose first-turn win is heavenly"
    )
    assert refusal(**earthly, seat="S", discarder="W") == (
        "earthly is won on the dealer's first discard: the discarder must be the dealer (E), not W"
    )
    assert refusal(**{**WORKED, "events": ["earthly"]}, seat="S") == (
        "earthly is won on the dealer's first discard: win must be discard, with the dealer (E) "
        "as discarder"
    )
    assert refusal(**earthly, seat="S", discarder="E", table_discards=2) == (
        "earthly is won on the dealer's first discard: table_discards must be 1, not 2"
    )
    assert refusal(**{**earthly, **REGULAR}, seat="S", discarder="E") == (
        "earthly on the dealer's first discard comes before the winner's first turn: melds "
        "must be empty, not chow 123m"
    )
    assert refusal(
        **{**earthly, "events": ["earthly", "robbing_kong"]}, seat="S", discarder="E"
    ) == ("earthly is won on the first turn, so events cannot also hold robbing_kong")
    assert tw(**earthly, seat="W", dealer="S", discarder="S", table_discards=1).valid


def test_original_ready_has_no_melds() -> None:
    assert "no melds" in refusal(**REGULAR, events=["original_ready"])


EXPOSED_MELDS = ["chow 123m", "pung 444p", "kong 7777s", "chow 678m", "pung 999p"]


def test_exposed_hand_on_a_self_draw_is_refused() -> None:
    assert "must be won on a discard" in refusal(hand="5s5s", melds=EXPOSED_MELDS)


def test_exposed_self_draw_option_scores_it_without_exposed_hand() -> None:
    result = tw(hand="5s5s", melds=EXPOSED_MELDS, options={"exposed_self_draw": True})
    assert "exposed_hand" not in breakdown(result)
    assert any("Exposed hand needs" in note for note in result.notes)


def test_events_that_contradict_the_win_are_refused() -> None:
    assert "discard win" in refusal(**WORKED, events=["robbing_kong"])
    assert "last_discard" in refusal(**WORKED, win="discard", discarder="S", events=["last_tile"])
    assert "not a self-draw" in refusal(**WORKED, events=["last_discard"])
    assert "at least 1" in refusal(**WORKED, win="discard", discarder="S", table_discards=0)
    assert "own discard" in refusal(**WORKED, win="discard", discarder="E")
    assert "no discarder" in refusal(**WORKED, discarder="S", win="self_draw")


def test_events_and_fields_the_profile_does_not_score_are_refused() -> None:
    assert "no replacement pattern" in refusal(**WORKED, events=["replacement"])
    assert "no kong_on_kong pattern" in refusal(**WORKED, events=["kong_on_kong"])
    assert "pay-for-all" in refusal(**WORKED, liable="S")


# --- several winners on one discard ------------------------------------------------------------


def winners_of_dealers_discard() -> list[dict[str, Any]]:
    shared = {"profile": "tw", "win": "discard", "discarder": "E", "dealer_streak": 1}
    return [
        {**shared, **REGULAR, "seat": "S"},  # 8 tai
        {**shared, **FOUR_TAI_ON_5M, "seat": "N"},
    ]


def test_several_winners_are_settled_separately_and_summed() -> None:
    result = score_several(winners_of_dealers_discard())
    assert result.valid
    first, second = result.results
    assert (first.tai, first.dealer_tai, second.tai, second.dealer_tai) == (8, 3, 4, 3)
    assert first.payments[Wind.EAST] == -11
    assert second.payments[Wind.EAST] == -7
    assert {w.value: a for w, a in result.payments.items()} == {
        "E": -18,
        "S": 11,
        "W": 0,
        "N": 7,
    }
    data = result.to_json()
    assert data["payments"] == {"E": -18, "S": 11, "W": 0, "N": 7}
    assert [w["winner"] for w in data["winners"]] == ["S", "N"]
    assert data["transfers"] == [
        {"from": "E", "to": "S", "amount": 11},
        {"from": "E", "to": "N", "amount": 7},
    ]


def test_several_winners_on_a_non_dealers_discard() -> None:
    requests = winners_of_dealers_discard()
    for request in requests:
        request["discarder"] = "W"
    requests[0]["seat"] = "E"  # the dealer is one of the winners
    result = score_several(requests)
    assert {w.value: a for w, a in result.payments.items()} == {
        "E": 11,
        "S": 0,
        "W": -15,
        "N": 4,
    }


def test_a_refused_claim_makes_the_whole_result_invalid() -> None:
    requests = winners_of_dealers_discard()
    requests[1]["hand"] = "444p234s11z567s34m9m"
    result = score_several(requests)
    assert not result.valid
    assert (result.error or "").startswith("N: ")
    assert "payments" not in result.to_json()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"discarder": "S", "seat": "N"}, "same discarder"),
        ({"seat": "S"}, "different seat"),
        ({"win": "self_draw", "discarder": None}, "discard win"),
        ({"profile": "sg"}, "one profile"),
        ({"dealer_streak": 0}, "dealer_streak"),
        ({"table_discards": 12}, "table_discards"),
        ({"options": {"per_tai": 2}}, "options"),
    ],
)
def test_several_winners_must_share_one_discard(change: dict[str, Any], message: str) -> None:
    requests = winners_of_dealers_discard()
    requests[1].update(change)
    requests[1] = {key: value for key, value in requests[1].items() if value is not None}
    with pytest.raises(InvalidRequestError, match=message):
        score_several(requests)


def test_several_winners_need_a_profile_that_allows_them() -> None:
    sg = {"profile": "sg", "hand": "123m456p789s11z22z2z", "win": "discard", "discarder": "E"}
    requests = [{**sg, "seat": seat} for seat in ("S", "W")]
    with pytest.raises(InvalidRequestError, match="one winner"):
        score_several(requests)


def test_several_winners_need_a_list() -> None:
    with pytest.raises(InvalidRequestError, match="list"):
        score_several({"profile": "tw"})
    with pytest.raises(InvalidRequestError, match="list"):
        score_several([])


def test_cli_multi_reads_a_list_and_prints_the_summed_payments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "winners.json"
    path.write_text(json.dumps(winners_of_dealers_discard()), encoding="utf-8")
    assert main(["score", "--multi", "--json", str(path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["valid"] is True
    assert data["payments"] == {"E": -18, "S": 11, "W": 0, "N": 7}


def test_cli_multi_refuses_a_mixed_list(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    requests = winners_of_dealers_discard()
    requests[1]["discarder"] = "S"
    path = tmp_path / "winners.json"
    path.write_text(json.dumps(requests), encoding="utf-8")
    assert main(["score", "--multi", "--json", str(path)]) == 2
    assert "same discarder" in capsys.readouterr().err


def test_cli_scores_a_tw_hand(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["score", "123m456m789p222s678s5m5m", "--profile", "tw", "--dealer-streak", "2"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "tw: 11 tai" in out
    assert "Dealer tai (on the dealer's payments): 5" in out
    assert "S pays E 16" in out

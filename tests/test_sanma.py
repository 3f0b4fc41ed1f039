"""The `sanma` profile (three-player riichi, docs/rules-sanma.md): its seats, tiles, kita,
dora, payments and refusals through `score`, the waits API, several winners and the command
line, each against figures worked out by hand. tests/test_sanma_differential.py holds the
scoring to the `mahjong` library's three-player mode on random hands."""

from __future__ import annotations

import io
import json
import sys
from typing import Any

import pytest

from companion.cli import main
from companion.errors import InvalidRequestError
from companion.rules import get_profile, profiles, table_profiles
from companion.rules.riichi import score_riichi
from companion.rules.sanma import read_sanma_request, score_sanma
from companion.scoring import score, score_several, waits_json
from companion.tiles import Wind

PINFU = "234p567p22345678s"
"""Menzen tsumo, pinfu and tanyao on a self-draw (3 han 20 fu); pinfu and tanyao on a
discard (2 han 30 fu)."""
SANANKOU = "111m999m444z345s55s"
"""Three concealed pungs, one of them North: on a self-draw menzen tsumo and sanankou."""


def sanma(**fields: Any) -> dict[str, Any]:
    """The JSON result of a sanma request."""
    return score({"profile": "sanma", **fields}).to_json()


def han_of(result: dict[str, Any]) -> dict[str, int]:
    return {item["id"]: item.get("han", item.get("yakuman")) for item in result["patterns"]}


# --- The profile ----------------------------------------------------------------------------------


def test_sanma_is_registered_and_keeps_tables_of_three() -> None:
    profile = get_profile("sanma")
    assert "sanma" in profiles()
    assert profile.unit == "han" and profile.reads_own_requests
    assert "sanma" in table_profiles() and profile.points_game
    assert len(profile.seats) == 3
    assert "kita" in profile.request_fields


# --- Payments -------------------------------------------------------------------------------------


def test_a_non_dealer_self_draw_pays_tsumo_loss_by_default() -> None:
    # 3 han 20 fu: base 640; the dealer pays 1,300, West 700; North pays nothing.
    result = sanma(hand=PINFU, seat="S")
    assert result["call"] == "700-1300"
    assert result["payments"] == {"E": -1300, "S": 2000, "W": -700, "N": 0}


def test_a_dealer_self_draw_pays_tsumo_loss_by_default() -> None:
    result = sanma(hand=PINFU, seat="E")
    assert result["call"] == "1300 all"
    assert result["payments"] == {"E": 2600, "S": -1300, "W": -1300, "N": 0}


def test_bisection_splits_the_absent_norths_payment() -> None:
    # North would have paid 700 (base 640, rounded up): each payer adds 350, rounded up to 400.
    result = sanma(hand=PINFU, seat="S", options={"tsumo": "bisection"})
    assert result["call"] == "1100-1700"
    assert result["payments"] == {"E": -1700, "S": 2800, "W": -1100, "N": 0}
    # The dealer: North would have paid 1,300; each payer adds 700.
    dealer = sanma(hand=PINFU, seat="E", options={"tsumo": "bisection"})
    assert dealer["call"] == "2000 all"
    assert dealer["payments"] == {"E": 4000, "S": -2000, "W": -2000, "N": 0}


def test_a_mangan_by_bisection_pays_what_a_table_of_four_does() -> None:
    # Base 2,000: 2,000 from the other, 4,000 from the dealer, and North's 2,000 split.
    result = sanma(hand=PINFU, seat="S", dora=["1p", "1p"], options={"tsumo": "bisection"})
    assert result["limit"] == "mangan"
    assert result["payments"] == {"E": -5000, "S": 8000, "W": -3000, "N": 0}


def test_ron_is_paid_by_the_discarder_with_honba_of_200_and_the_deposits() -> None:
    # 2 han 30 fu for the dealer: 2,900; two honba add 400.
    result = sanma(hand=PINFU, seat="E", win="discard", discarder="W", honba=2, riichi_sticks=3)
    assert result["call"] == "2900"
    assert result["payments"] == {"E": 3300, "S": 0, "W": -3300, "N": 0}
    assert result["deposits"] == 3000


@pytest.mark.parametrize("tsumo", ["loss", "bisection"])
def test_a_self_draw_honba_is_100_from_each_payer(tsumo: str) -> None:
    plain = sanma(hand=PINFU, seat="W", options={"tsumo": tsumo})
    counted = sanma(hand=PINFU, seat="W", honba=3, options={"tsumo": tsumo})
    for seat in "ES":
        assert counted["payments"][seat] == plain["payments"][seat] - 300
    assert counted["payments"]["W"] == plain["payments"]["W"] + 600


def test_honba_value_is_shared_by_two_payers() -> None:
    result = sanma(hand=PINFU, seat="S", honba=1, options={"honba_value": 300})
    assert result["payments"] == {"E": -1450, "S": 2300, "W": -850, "N": 0}
    with pytest.raises(InvalidRequestError, match="multiple of 2"):
        sanma(hand=PINFU, options={"honba_value": 301})


# --- Dora and kita --------------------------------------------------------------------------------


def test_the_1m_indicator_makes_9m_the_dora_and_9m_makes_1m() -> None:
    assert han_of(sanma(hand=SANANKOU, dora="1m"))["dora"] == 3
    assert han_of(sanma(hand=SANANKOU, dora="9m"))["dora"] == 3


def test_each_kita_is_a_dora_and_one_more_for_each_indicator_of_north() -> None:
    result = sanma(hand=PINFU, seat="S", kita=2)
    assert han_of(result)["kita"] == 2 and "dora" not in han_of(result)
    # West indicates North: two kita make two dora more (held Norths count the same).
    pointed = sanma(hand=PINFU, seat="S", kita=2, dora=["3z", "3z"])
    assert han_of(pointed) == {"menzen_tsumo": 1, "pinfu": 1, "tanyao": 1, "dora": 4, "kita": 2}
    held = sanma(hand=SANANKOU, kita=1, dora="3z")
    assert han_of(held)["dora"] == 4 and han_of(held)["kita"] == 1


def test_ura_dora_pointing_at_north_count_the_kita_with_riichi() -> None:
    result = sanma(hand=PINFU, seat="S", kita=1, events=["riichi"], ura_dora="3z")
    assert han_of(result)["ura_dora"] == 1 and han_of(result)["kita"] == 1


def test_kita_are_no_yaku_and_keep_the_hand_closed() -> None:
    no_yaku = sanma(hand="123p456p789s22z33z3z", win="discard", discarder="S", kita=2)
    assert no_yaku["valid"] is False and "no yaku" in no_yaku["error"]
    # Riichi and pinfu stay with kita: nothing was claimed.
    result = sanma(hand=PINFU, seat="S", kita=4, events=["riichi"])
    assert {"riichi", "pinfu", "menzen_tsumo"} <= han_of(result).keys()


def test_a_win_on_the_draw_after_a_kita_is_rinshan() -> None:
    result = sanma(hand=SANANKOU, win_tile="5s", kita=1, events=["replacement"])
    assert han_of(result)["rinshan"] == 1
    refused = sanma(hand=SANANKOU, win_tile="5s", events=["replacement"])
    assert "without a kong in melds or a North set aside (kita)" in refused["error"]


def test_a_north_pung_is_no_yakuhai() -> None:
    result = sanma(hand=SANANKOU, seat="W", round="S")
    assert not any(name.startswith("yakuhai") for name in han_of(result))


def test_a_yakuman_counts_no_kita() -> None:
    result = sanma(hand="111z222z333z555z11s", kita=1)
    assert result["yakuman"] >= 1 and "kita" not in han_of(result)


# --- Refusals -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"hand": "234m567p22345678s"}, "hand: 2m is not in play in sanma"),
        ({"hand": "105m567p22345678s"}, "hand: 0m, the red five of characters"),
        ({"hand": PINFU, "dora": "5m"}, "dora: 5m is not in play"),
        ({"hand": PINFU, "events": ["riichi"], "ura_dora": "8m"}, "ura_dora: 8m is not in play"),
        ({"hand": "567p22345678s", "melds": ["pung 444m"]}, "melds: 4m is not in play"),
        ({"hand": PINFU, "seat": "N"}, "seat: sanma has no North seat"),
        ({"hand": PINFU, "round": "N"}, "round: sanma has no North round"),
        ({"hand": PINFU, "win": "discard", "discarder": "N"}, "discarder: sanma has no North"),
        ({"hand": PINFU, "kita": 5}, "kita must be a whole number from 0 to 4"),
        ({"hand": PINFU, "kita": -1}, "kita must be a whole number from 0 to 4"),
        ({"hand": PINFU, "options": {"preset": "tenhou"}}, 'unknown option "preset"'),
        ({"hand": PINFU, "options": {"uma": [20, 10, -10, -20]}}, "uma must be three whole"),
        ({"hand": PINFU, "options": {"uma": [15, 5, -15]}}, "the three must add up to zero"),
        ({"hand": PINFU, "options": {"triple_ron_draws": True}}, 'unknown option "triple_ron'),
        ({"hand": PINFU, "options": {"noten_total": 2500}}, "noten_total: must be a whole"),
        ({"hand": PINFU, "options": {"tsumo": "half"}}, "option tsumo"),
    ],
)
def test_what_a_table_of_three_cannot_hold_is_refused(fields: dict[str, Any], words: str) -> None:
    with pytest.raises(InvalidRequestError) as refusal:
        sanma(**fields)
    assert words in refusal.value.message


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        (
            {"hand": "567p22345678s", "melds": ["chow 234p"]},
            "melds: chow 234p is a claimed chow, and sanma has none",
        ),
        (
            {"hand": SANANKOU, "kita": 2},
            "kita: 2 set aside and 3 in the hand make 5 North tiles; there are four",
        ),
        (
            {"hand": "123p456p789s55s", "melds": ["kong 4444z"], "kita": 1},
            "kita: 1 set aside and 4 in the hand make 5 North tiles",
        ),
    ],
)
def test_what_cannot_have_happened_is_no_win(fields: dict[str, Any], words: str) -> None:
    result = sanma(**fields)
    assert result["valid"] is False and words in result["error"]


def test_the_engine_refuses_as_the_request_does() -> None:
    with pytest.raises(InvalidRequestError, match="kita: the North tiles set aside"):
        read_sanma_request(PINFU, kita=7)
    with pytest.raises(InvalidRequestError, match="liable: sanma has no North seat"):
        read_sanma_request(PINFU, liable="N")


def test_a_chow_concealed_in_the_hand_is_fine() -> None:
    assert sanma(hand=PINFU, win="discard", discarder="S")["valid"] is True


# --- Riichi stays riichi --------------------------------------------------------------------------


def test_riichi_has_no_kita_and_pays_four_seats() -> None:
    with pytest.raises(InvalidRequestError, match="unknown field 'kita'"):
        score({"profile": "riichi", "hand": PINFU, "kita": 1})
    assert score_riichi(PINFU, seat="S").payments[Wind.NORTH] == -700


def test_sanma_scores_as_riichi_where_nothing_differs() -> None:
    ours, theirs = score_sanma(PINFU, seat="S", dora="3p"), score_riichi(PINFU, seat="S", dora="3p")
    assert (ours.han, ours.fu, ours.patterns) == (theirs.han, theirs.fu, theirs.patterns)


# --- Waits and several winners --------------------------------------------------------------------


def test_a_north_is_no_wait_when_the_hand_and_kita_hold_four() -> None:
    hand = "111m999m44z345s55s"
    assert waits_json({"profile": "sanma", "hand": hand, "kita": 1})["waits"] == ["2s", "5s", "4z"]
    assert waits_json({"profile": "sanma", "hand": hand, "kita": 2})["waits"] == ["2s", "5s"]


def test_two_winners_are_taken_in_turn_east_south_west() -> None:
    # West deals in: East is next in turn (no North), so East takes the honba and deposits.
    winners = [
        {"profile": "sanma", "hand": PINFU, "win": "discard", "discarder": "W", "seat": seat}
        for seat in ("S", "E")
    ]
    shared = {"honba": 1, "riichi_sticks": 1}
    result = score_several([{**winner, **shared} for winner in winners]).to_json()
    by_seat = {winner["winner"]: winner for winner in result["winners"]}
    assert by_seat["E"]["deposits"] == 1000 and by_seat["S"]["deposits"] == 0
    assert by_seat["E"]["payments"] == {"E": 3100, "S": 0, "W": -3100, "N": 0}
    assert result["payments"] == {"E": 3100, "S": 2000, "W": -5100, "N": 0}


# --- The command line -----------------------------------------------------------------------------


def cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    old_stdin, sys.stdin = sys.stdin, io.StringIO("")
    try:
        code = main(argv)
    except SystemExit as leave:
        code = int(leave.code or 0)
    finally:
        sys.stdin = old_stdin
    out, err = capsys.readouterr()
    return code, out, err


def test_companion_score_reads_kita(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["score", "--profile", "sanma", PINFU, "--seat", "S", "--kita", "2", "--dora", "3z"]
    code, out, _ = cli(argv, capsys)
    assert code == 0
    assert out.startswith("sanma: 7 han 20 fu, haneman - 3000-6000")
    assert "Kita 抜きドラ" in out and "E pays S 6000" in out and "W pays S 3000" in out
    code, out, _ = cli([*argv, "--json"], capsys)
    assert code == 0 and json.loads(out)["payments"] == {"E": -6000, "S": 9000, "W": -3000, "N": 0}
    code, _, err = cli(["score", "--profile", "sanma", PINFU, "--kita", "5"], capsys)
    assert code != 0 and "kita must be a whole number from 0 to 4" in err

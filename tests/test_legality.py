"""What cannot happen is refused, with one message naming the fields; its near miss stays legal.

Also the pattern fixes that go with these rulings: Nine gates is exact, a last-tile win is never
counted with Kong on kong, and a heavenly hand earns no wait tai in `tw`.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from fastapi.testclient import TestClient

from companion.api import create_app
from companion.cli import main
from companion.ledger.build import build_outcome
from companion.ledger.entries import Win as LedgerWin
from companion.ledger.errors import NotPayableWinError
from companion.ledger.records import WinnerRecord, WinRecord
from companion.scoring import ScoreResult, score, score_several
from test_ledger_domain import Table

PLAIN = "123m456m789p222s44z"
"""Four sets and a pair worth nothing in particular (sg)."""
TWO_KONGS = {"hand": "123m456m44z", "melds": ["ckong 7777p", "ckong 2222s"]}
ONE_KONG = {"hand": "123m456m789p44z", "melds": ["ckong 2222s"]}
WORKED = {"hand": "123m456m789p222s678s5m5m"}
"""tw: seventeen tiles, nothing declared, won on 5m completing the pair."""
REGULAR = {"hand": "456m789p222s678s5m5m", "melds": ["chow 123m"]}
"""tw: the same tiles with 123m claimed."""


def sg(**fields: Any) -> ScoreResult:
    return score({"profile": "sg", **fields})


def tw(**fields: Any) -> ScoreResult:
    return score({"profile": "tw", **fields})


def refusal(result: ScoreResult) -> str:
    assert not result.valid, "expected a refusal"
    assert result.error is not None
    return result.error


def legal(result: ScoreResult) -> dict[str, int]:
    assert result.valid, result.error
    return {pattern.id: pattern.tai for pattern in result.patterns}


# --- Nine gates --------------------------------------------------------------------------------


@pytest.mark.parametrize("profile", ["sg", "sg-table"])
def test_four_ones_and_no_five_is_a_full_flush_not_nine_gates(profile: str) -> None:
    result = score(
        {"profile": profile, "hand": "1111234678999m5m", "win": "discard", "discarder": "S"}
    )
    assert legal(result) == {"full_flush": 4}


@pytest.mark.parametrize("profile", ["sg", "sg-table"])
@pytest.mark.parametrize("extra", ["1m", "5m", "9m"])
def test_a_true_nine_gates_still_is_whatever_the_extra_tile(profile: str, extra: str) -> None:
    result = score({"profile": profile, "hand": "1112345678999m" + extra})
    assert legal(result)["nine_gates"] == 5


def test_the_same_tiles_are_not_nine_gates_when_the_winning_tile_broke_the_gates() -> None:
    # 1112345678999m + 5m holds the tiles of a nine gates; won on 9m, the thirteen tiles held
    # before it were 1112345567899m.
    assert "nine_gates" in legal(sg(hand="1112345678999m5m"))
    assert "nine_gates" not in legal(sg(hand="1112345678999m5m", win_tile="9m"))


# --- Last-tile win and Kong on kong ------------------------------------------------------------


def test_last_tile_is_never_counted_with_kong_on_kong() -> None:
    result = sg(**TWO_KONGS, events=["kong_on_kong", "last_tile"])
    assert legal(result) == {"kong_on_kong": 5}


def test_last_tile_with_kong_on_kong_pays_five_tai_with_the_cap_at_ten() -> None:
    result = score(
        {
            "profile": "sg-table",
            **TWO_KONGS,
            "events": ["kong_on_kong", "last_tile"],
            "options": {"cap": 10},
        }
    )
    assert legal(result) == {"kong_on_kong": 5}
    assert (result.tai, result.raw_tai) == (5, 5)
    # 5 tai: a share of 16; a self-draw, so each opponent pays two shares.
    assert {wind.value: amount for wind, amount in result.payments.items()} == {
        "E": 96,
        "S": -32,
        "W": -32,
        "N": -32,
    }


def test_last_tile_alone_still_counts() -> None:
    assert legal(sg(**TWO_KONGS, events=["last_tile"])) == {"last_tile": 1}


# --- tw: a heavenly hand has no wait -----------------------------------------------------------


def test_tw_heavenly_hand_earns_no_pair_wait() -> None:
    assert legal(tw(**WORKED))["pair_wait"] == 1
    heavenly = legal(tw(**WORKED, events=["heavenly"]))
    assert heavenly["heavenly"] == 40
    assert "pair_wait" not in heavenly and "closed_or_edge_wait" not in heavenly


def test_tw_heavenly_hand_earns_no_closed_wait() -> None:
    closed = {"hand": "123m456m789p222s55m68s7s"}  # 7s between 6s and 8s
    assert legal(tw(**closed))["closed_or_edge_wait"] == 1
    heavenly = legal(tw(**closed, events=["heavenly"]))
    assert "closed_or_edge_wait" not in heavenly and "pair_wait" not in heavenly


# --- Kong on kong and replacement-tile wins ----------------------------------------------------


def test_kong_on_kong_needs_two_kongs() -> None:
    assert refusal(sg(**ONE_KONG, events=["kong_on_kong"])) == (
        "kong_on_kong wins on the replacement tile of a second kong: melds must hold at least "
        "two kongs, not 1"
    )
    assert refusal(sg(hand=PLAIN, events=["kong_on_kong"])).endswith("not 0")
    assert legal(sg(**TWO_KONGS, events=["kong_on_kong"])) == {"kong_on_kong": 5}


def test_a_replacement_tile_win_needs_a_kong_or_a_bonus_tile() -> None:
    assert refusal(sg(hand=PLAIN, events=["replacement"])) == (
        "replacement wins on the tile drawn after a kong or a bonus tile: melds hold no kong "
        "and bonus is empty"
    )
    assert legal(sg(**ONE_KONG, events=["replacement"])) == {"replacement_win": 1}
    assert "replacement_win" in legal(sg(hand=PLAIN, bonus="3f", events=["replacement"]))
    # An animal in sg scores nothing but is still a bonus tile drawn and replaced.
    assert "replacement_win" in legal(sg(hand=PLAIN, bonus="1a", events=["replacement"]))


# --- Heavenly hand -----------------------------------------------------------------------------


@pytest.mark.parametrize("profile", ["sg", "sg-table", "tw"])
def test_heavenly_hand_with_a_concealed_kong_is_legal(profile: str) -> None:
    hand = (
        {"hand": "123m456m789p55m678s", "melds": ["ckong 2222s"]} if profile == "tw" else ONE_KONG
    )
    result = score({"profile": profile, **hand, "events": ["heavenly"]})
    assert "heavenly" in legal(result)


def test_heavenly_hand_has_no_claimed_group() -> None:
    assert refusal(
        sg(hand="123m456m44z", melds=["pung 777p", "chow 234s"], events=["heavenly"])
    ) == (
        "heavenly is the dealer's dealt hand: melds can hold only concealed kongs (ckong), not "
        "pung 777p, chow 234s"
    )


def test_heavenly_hand_is_the_dealers_self_draw() -> None:
    assert refusal(sg(hand=PLAIN, seat="W", events=["heavenly"])) == (
        "heavenly is the dealer's win: seat W is not the dealer (E)"
    )
    assert refusal(sg(hand=PLAIN, win="discard", discarder="S", events=["heavenly"])) == (
        "heavenly is the dealer's self-draw on the first turn: win must be self_draw, with no "
        "discarder"
    )


@pytest.mark.parametrize(
    ("profile", "hand", "events", "named"),
    [
        ("sg", {"hand": PLAIN}, ["last_tile"], "last_tile"),
        ("sg", TWO_KONGS, ["kong_on_kong"], "kong_on_kong"),
        ("sg-table", TWO_KONGS, ["kong_on_kong", "last_tile"], "last_tile, kong_on_kong"),
        ("tw", WORKED, ["last_tile"], "last_tile"),
    ],
)
def test_heavenly_hand_is_never_a_last_tile_or_a_kong(
    profile: str, hand: dict[str, Any], events: list[str], named: str
) -> None:
    result = score({"profile": profile, **hand, "events": ["heavenly", *events]})
    assert refusal(result) == (
        f"heavenly is won on the dealer's first draw, so events cannot also hold {named}"
    )


def test_heavenly_hand_never_robs_a_kong_nor_takes_the_last_discard() -> None:
    # Both are discard wins, refused as such first; listed here so that the rule is whole.
    for event in ("robbing_kong", "last_discard"):
        result = tw(**WORKED, win="discard", discarder="S", events=["heavenly", event])
        assert "win must be self_draw" in refusal(result)


# --- Earthly hand ------------------------------------------------------------------------------


@pytest.mark.parametrize("profile", ["sg", "sg-table"])
def test_sg_earthly_hand_by_self_draw_or_on_the_dealers_first_discard(profile: str) -> None:
    drawn = score({"profile": profile, "hand": PLAIN, "seat": "N", "events": ["earthly"]})
    assert legal(drawn)["earthly"] == 5
    on_discard = {"win": "discard", "discarder": "E", "seat": "S", "events": ["earthly"]}
    assert legal(score({"profile": profile, "hand": PLAIN, **on_discard}))["earthly"] == 5
    wrong = score({"profile": profile, "hand": PLAIN, **on_discard, "discarder": "W"})
    assert refusal(wrong) == (
        "earthly is won on the dealer's first discard: the discarder must be the dealer (E), not W"
    )


def test_earthly_hand_has_no_claimed_group() -> None:
    claimed = sg(
        hand="123m456m44z", melds=["pung 777p", "ckong 2222s"], seat="S", events=["earthly"]
    )
    assert refusal(claimed) == (
        "earthly is won before any claim: melds can hold only concealed kongs (ckong), not "
        "pung 777p"
    )
    # The near miss: a concealed kong declared on the winner's first turn.
    assert "earthly" in legal(sg(**ONE_KONG, seat="S", events=["earthly"]))


def test_earthly_hand_on_the_first_discard_comes_before_any_kong() -> None:
    result = sg(**ONE_KONG, seat="S", win="discard", discarder="E", events=["earthly"])
    assert refusal(result) == (
        "earthly on the dealer's first discard comes before the winner's first turn: melds "
        "must be empty, not ckong 2222s"
    )


def test_tw_earthly_hand_is_won_on_the_dealers_first_discard() -> None:
    earthly = {**WORKED, "seat": "S", "events": ["earthly"]}
    assert refusal(tw(**earthly)) == (
        "earthly is won on the dealer's first discard: win must be discard, with the dealer (E) "
        "as discarder"
    )
    assert refusal(tw(**earthly, win="discard", discarder="E", table_discards=3)) == (
        "earthly is won on the dealer's first discard: table_discards must be 1, not 3"
    )
    assert "earthly" in legal(tw(**earthly, win="discard", discarder="E", table_discards=1))
    assert "earthly" in legal(tw(**earthly, win="discard", discarder="E"))


def test_earthly_hand_is_not_won_on_the_last_tile() -> None:
    assert refusal(sg(hand=PLAIN, seat="S", events=["earthly", "last_tile"])) == (
        "earthly is won on the first turn, so events cannot also hold last_tile"
    )


# --- Robbing a kong ----------------------------------------------------------------------------


def test_robbing_a_kong_of_a_tile_the_winner_holds_is_refused() -> None:
    robbing = {"win": "discard", "discarder": "W", "events": ["robbing_kong"]}
    assert refusal(sg(hand="123m456m789p222s44z", win_tile="4z", **robbing)) == (
        "robbing_kong takes the fourth North (4z) from a kong, so the winner holds no other "
        "copy: hand and melds hold 1 more"
    )
    assert legal(sg(hand="123m456m789p222s44z", win_tile="7p", **robbing)) == {"robbing_kong": 1}


def test_robbing_a_kong_counts_the_declared_groups() -> None:
    robbing = {"win": "discard", "discarder": "W", "events": ["robbing_kong"]}
    result = sg(hand="345m789p222s44z", melds=["chow 123m"], win_tile="3m", **robbing)
    assert refusal(result).endswith("hand and melds hold 1 more")
    assert "robbing_kong" in legal(
        sg(hand="345m789p222s44z", melds=["chow 123m"], win_tile="5m", **robbing)
    )


def test_robbing_a_kong_is_a_discard_win() -> None:
    assert refusal(tw(**WORKED, win_tile="1m", events=["robbing_kong"])) == (
        "robbing_kong wins on another player's kong tile: enter it as a discard win, with the "
        "kong's declarer as discarder"
    )


# --- table_discards ----------------------------------------------------------------------------


def test_a_discard_win_needs_a_discard() -> None:
    assert refusal(tw(**WORKED, win="discard", discarder="E", seat="S", table_discards=0)) == (
        "table_discards counts the winning discard, so a discard win has at least 1"
    )


def test_the_first_discard_is_the_dealers() -> None:
    first = {**WORKED, "win": "discard", "seat": "S", "table_discards": 1}
    assert refusal(tw(**first, discarder="W")) == (
        "table_discards 1 makes the winning discard the hand's first, which is the dealer's: "
        "the discarder must be E, not W"
    )
    assert legal(tw(**first, discarder="E"))["very_early_win"] == 10
    assert legal(tw(**first, discarder="W", dealer="W"))["very_early_win"] == 10


def test_a_non_dealers_self_draw_comes_after_a_discard() -> None:
    assert refusal(tw(**WORKED, seat="S", table_discards=0)) == (
        "table_discards 0 means nobody has discarded, so only the dealer (E) has drawn: seat "
        "S's self-draw needs at least 1"
    )
    assert legal(tw(**WORKED, seat="S", table_discards=1))["very_early_win"] == 10
    assert legal(tw(**WORKED, seat="E", table_discards=0))["very_early_win"] == 10


def test_each_claimed_group_needs_a_discard() -> None:
    claimed = {**REGULAR, "seat": "S", "win": "discard", "discarder": "E"}
    assert refusal(tw(**claimed, table_discards=1)) == (
        "table_discards 1 is too few: melds hold 1 claimed group, each taken from a discard, "
        "and the winning discard is one more, so at least 2"
    )
    assert legal(tw(**claimed, table_discards=2))["very_early_win"] == 10
    two = {"hand": "456m222s678s5m5m", "melds": ["chow 123m", "pung 777p"], "seat": "S"}
    assert refusal(tw(**two, table_discards=1)) == (
        "table_discards 1 is too few: melds hold 2 claimed groups, each taken from a discard, "
        "so at least 2"
    )
    assert legal(tw(**two, table_discards=2))["very_early_win"] == 10
    # A concealed kong takes no discard.
    kong = {"hand": "456m789p678s5m5m", "melds": ["chow 123m", "ckong 2222s"], "seat": "S"}
    assert legal(tw(**kong, table_discards=1))["very_early_win"] == 10


# --- Flower wins -------------------------------------------------------------------------------


@pytest.mark.parametrize("profile", ["sg-table", "tw"])
def test_a_flower_win_has_no_hand(profile: str) -> None:
    eight = {"profile": profile, "flower_win": "eight", "bonus": "12345678f"}
    assert refusal(score({**eight, "hand": PLAIN})) == (
        'flower_win "eight" is won without a hand: leave out hand'
    )
    assert refusal(score({**eight, "hand": "44z", "melds": ["pung 777z"]})) == (
        'flower_win "eight" is won without a hand: leave out hand and melds'
    )
    capture = {"profile": profile, "flower_win": "seven_capture", "discarder": "S"}
    assert refusal(score({**capture, "melds": ["pung 777z"]})) == (
        'flower_win "seven_capture" is won without a hand: leave out melds'
    )
    assert legal(score(eight))
    assert legal(score(capture))


def test_tw_eight_flowers_in_an_ordinary_win_is_the_flower_win() -> None:
    assert refusal(tw(**WORKED, bonus="12345678f")) == (
        "bonus holds all eight flowers: holding all eight ends the hand at once, so enter it "
        'as flower_win "eight", without a hand'
    )
    assert legal(tw(**WORKED, bonus="1234567f"))["flowers"] == 7


# --- Several winners on one discard ------------------------------------------------------------

ON_5M = {"hand": "444p234s11z567s34m5m", "melds": ["chow 123m"], "bonus": "1f2f"}
"""tw: a second hand won on 5m, one 5m of its own."""


def winners(**second: Any) -> list[dict[str, Any]]:
    shared = {"profile": "tw", "win": "discard", "discarder": "E"}
    return [{**shared, **REGULAR, "seat": "S"}, {**shared, **ON_5M, "seat": "N", **second}]


def test_several_winners_of_one_discard_are_legal() -> None:
    result = score_several(winners())
    assert result.valid, result.error
    # Each winner's own declaration may differ.
    ready = winners(hand="123m444p234s11z567s34m5m", melds=[], events=["original_ready"])
    assert score_several(ready).valid


def test_several_winners_win_on_one_tile() -> None:
    result = score_several(winners(win_tile="7s"))
    assert not result.valid
    assert result.error == (
        "the winners of one discard win on the same tile (win_tile): S on 5m, N on 7s"
    )


def test_several_winners_share_the_discards_events() -> None:
    requests = winners(events=["last_discard"])
    result = score_several(requests)
    assert not result.valid
    assert (
        result.error
        == "the winners of one discard share its events: S has none; N has last_discard"
    )
    for request in requests:
        request["events"] = ["last_discard"]
    assert score_several(requests).valid


def test_several_winners_hold_at_most_four_copies_together() -> None:
    # REGULAR holds three 5m with the discard; a second winner holding three as well (the
    # discard one of them) makes five.
    five = winners(hand="444p234s567s345m55m", win_tile="5m")
    result = score_several(five)
    assert not result.valid
    assert result.error == (
        "the winners' hand and melds together hold 5 copies of 5 of characters (5m), the "
        "shared discard counted once: there are only four"
    )
    # ON_5M holds one 5m besides the discard: four in all.
    assert score_several(winners()).valid


def test_a_refusal_is_exit_0_on_the_command_line(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "winners.json"
    path.write_text(json.dumps(winners(events=["last_discard"])), encoding="utf-8")
    assert main(["score", "--multi", "--json", str(path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["valid"] is False and "share its events" in data["error"]
    single = tmp_path / "one.json"
    single.write_text(json.dumps({"profile": "sg", "hand": PLAIN, "events": ["replacement"]}))
    assert main(["score", "--json", str(single)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == {
        "valid": False,
        "profile": "sg",
        "error": "replacement wins on the tile drawn after a kong or a bonus tile: melds hold no "
        "kong and bonus is empty",
        "error_key": "refusal.replacement_nothing",
        "error_params": {},
    }


def test_a_refusal_is_200_from_the_api() -> None:
    client = TestClient(create_app())
    response = client.post(
        "/api/score", json={"profile": "sg", **ONE_KONG, "events": ["kong_on_kong"]}
    )
    assert response.status_code == 200
    assert response.json()["valid"] is False
    assert response.json()["error"].startswith("kong_on_kong wins on the replacement tile")


# --- Several winners in the table's record -----------------------------------------------------


def hand_win(*hands: tuple[str, dict[str, Any]]) -> WinRecord:
    return WinRecord(tuple(WinnerRecord(name, hand=hand) for name, hand in hands), discarder="Ann")


def test_the_record_takes_several_winners_on_one_tile() -> None:
    table = Table("tw")  # Ann deals (East); Ben South, Cat West, Dan North
    outcome = build_outcome(
        table.setup, table.replay.state, hand_win(("Ben", REGULAR), ("Dan", ON_5M))
    )
    assert isinstance(outcome, LedgerWin)
    # 8 and 4 tai, each with the dealer's 1 tai: the dealer's discard.
    assert outcome.payments == (Fraction(-14), Fraction(9), Fraction(0), Fraction(5))


def test_the_record_refuses_several_winners_that_contradict_each_other() -> None:
    table = Table("tw")
    other_tile = {**ON_5M, "win_tile": "7s"}
    with pytest.raises(NotPayableWinError) as refused:
        build_outcome(
            table.setup, table.replay.state, hand_win(("Ben", REGULAR), ("Dan", other_tile))
        )
    assert refused.value.message == (
        "the winners of one discard win on the same tile (win_tile): S on 5m, N on 7s"
    )
    events = {**ON_5M, "events": ["last_discard"]}
    with pytest.raises(NotPayableWinError, match="share its events"):
        build_outcome(table.setup, table.replay.state, hand_win(("Ben", REGULAR), ("Dan", events)))

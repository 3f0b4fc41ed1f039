"""The `riichi` profile as a registered profile: its request and result through `score`, the
command line and the HTTP API, held against docs/contract.md's riichi section."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from companion.api import create_app
from companion.api.profiles import all_profiles
from companion.errors import InvalidRequestError
from companion.rules import get_profile, profiles, table_profiles
from companion.rules.riichi.profile import FIELDS, RiichiScoreResult
from companion.scoring import score, score_json, score_several

EXAMPLE: dict[str, Any] = {
    "profile": "riichi",
    "hand": "234m567p22345678s",
    "win_tile": "8s",
    "win": "self_draw",
    "seat": "S",
    "round": "E",
    "dora": "1m",
    "ura_dora": "4p",
    "events": ["riichi"],
    "honba": 1,
    "riichi_sticks": 1,
    "options": {"preset": "tenhou", "kiriage": True},
}
"""The contract's riichi example: riichi, tsumo, pinfu, tanyao, one dora, one ura dora."""

EXAMPLE_RESULT: dict[str, Any] = {
    "valid": True,
    "profile": "riichi",
    "unit": "han",
    "han": 6,
    "fu": 20,
    "fu_items": [{"fu": 20, "for": "pinfu_self_draw"}],
    "yakuman": 0,
    "limit": "haneman",
    "call": "3000-6000",
    "patterns": [
        {"id": "riichi", "name": "Riichi 立直", "count": 1, "han": 1},
        {"id": "menzen_tsumo", "name": "Menzen tsumo 門前清自摸和", "count": 1, "han": 1},
        {"id": "pinfu", "name": "Pinfu 平和", "count": 1, "han": 1},
        {"id": "tanyao", "name": "Tanyao 断幺九", "count": 1, "han": 1},
        {"id": "dora", "name": "Dora ドラ", "count": 1, "han": 1},
        {"id": "ura_dora", "name": "Ura dora 裏ドラ", "count": 1, "han": 1},
    ],
    "groups": ["234m", "567p", "345s", "678s", "22s"],
    "waits": ["2s", "5s", "8s"],
    # 3000 from each non-dealer and 6000 from the dealer, each with 100 of the one honba.
    "payments": {"E": -6100, "S": 12300, "W": -3100, "N": -3100},
    "deposits": 1000,
    "notes": [],
    "winner": "S",
    "transfers": [
        {"from": "E", "to": "S", "amount": 6100},
        {"from": "W", "to": "S", "amount": 3100},
        {"from": "N", "to": "S", "amount": 3100},
    ],
}


# ---------------------------------------------------------------------------------------------
# The registry and what the adapters are told


def test_riichi_is_registered_and_keeps_points_game_tables() -> None:
    assert list(profiles()) == ["sg", "sg-table", "tw", "hk", "riichi", "sanma", "mcr"]
    assert "riichi" in table_profiles()
    profile = get_profile("riichi")
    assert (
        profile.unit,
        profile.several_winners,
        profile.reads_own_requests,
        profile.points_game,
    ) == ("han", True, True, True)


def test_the_calculator_is_told_riichi_s_events_fields_and_options() -> None:
    [info] = [info for info in all_profiles() if info["id"] == "riichi"]
    assert info["unit"] == "han" and info["tables"] is True
    assert info["events"] == [
        "riichi",
        "double_riichi",
        "ippatsu",
        "replacement",
        "robbing_kong",
        "last_tile",
        "last_discard",
        "heavenly",
        "earthly",
        "renhou",
    ]
    assert info["fields"] == ["liable", "dora", "ura_dora", "honba", "riichi_sticks"]
    # Copies: the profiles' information is computed once and shared by every caller.
    options = {option["name"]: dict(option) for option in info["options"]}
    presets = options["preset"].pop("presets")
    assert options["preset"] == {
        "name": "preset",
        "type": "choice",
        "default": "tenhou",
        "choices": ["tenhou", "mleague", "ema2016", "ema2025", "wrc"],
    }
    assert list(presets) == options["preset"]["choices"]
    assert options["kazoe"]["choices"] == ["yakuman", "sanbaiman"]
    assert options["renhou"]["choices"] == ["off", "mangan", "yakuman"]


# ---------------------------------------------------------------------------------------------
# The contract


def test_the_contract_example_scores_as_documented() -> None:
    assert score_json(EXAMPLE) == EXAMPLE_RESULT


def test_a_yakuman_pattern_has_yakuman_in_place_of_han() -> None:
    result = score_json(
        {"profile": "riichi", "hand": "19m19p19s1234567z1m", "win": "discard", "discarder": "W"}
    )
    assert (result["yakuman"], result["han"], result["limit"], result["call"]) == (
        1,
        0,
        "yakuman",
        "48000",
    )
    assert result["patterns"] == [
        {
            "id": "kokushi_13",
            "name": "Kokushi musou, 13-sided wait 国士無双十三面",
            "count": 1,
            "yakuman": 1,
        }
    ]
    assert result["payments"] == {"E": 48000, "S": 0, "W": -48000, "N": 0}


def test_the_result_is_the_shared_result_with_riichi_s_answer() -> None:
    result = score(EXAMPLE)
    assert isinstance(result, RiichiScoreResult)
    assert (result.valid, result.tai, result.unit, result.riichi.fu) == (True, 6, "han", 20)
    assert [pattern.id for pattern in result.patterns][:3] == ["riichi", "menzen_tsumo", "pinfu"]
    assert [
        (payer.value, payee.value, int(amount)) for payer, payee, amount in result.transfers()
    ] == [
        ("E", "S", 6100),
        ("W", "S", 3100),
        ("N", "S", 3100),
    ]


def test_a_hand_without_a_yaku_is_refused_with_its_key() -> None:
    assert score_json(
        {
            "profile": "riichi",
            "hand": "111m234p567s789s22z",
            "win": "discard",
            "discarder": "W",
            "dora": "9p",
        }
    ) == {
        "valid": False,
        "profile": "riichi",
        "error": "not a win: no yaku (dora are not yaku)",
        "error_key": "refusal.no_yaku",
        "error_params": {},
    }


def test_an_impossible_request_names_its_fields() -> None:
    result = score_json(
        {"profile": "riichi", "hand": "234m567p22345678s", "events": ["ippatsu"], "ura_dora": "1m"}
    )
    assert result["valid"] is False
    assert result["error"] == (
        "events: ippatsu without riichi; ura_dora: ura dora count only with riichi in events"
    )


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("dealer", "S", "dealer: East is always the dealer in riichi: the field is not read"),
        ("dealer_streak", 2, "dealer_streak: riichi counts repeats as honba: use honba"),
        ("bonus", "1f", "bonus: riichi has no flowers or animals"),
        ("flower_win", "eight", "flower_win: riichi has no flowers"),
        ("honba", 1001, "honba must be a whole number from 0 to 1,000"),
        ("riichi_sticks", True, "riichi_sticks must be a whole number"),
        ("dora", 5, "dora must be a list of strings"),
        ("seat", "X", "seat must be a wind: E, S, W or N (got 'X')"),
        (
            "options",
            {"preset": "jpml"},
            "option preset: 'jpml' is none of tenhou, mleague, ema2016, ema2025, wrc",
        ),
    ],
)
def test_a_malformed_riichi_request_is_refused_naming_the_field(
    field: str, value: Any, message: str
) -> None:
    with pytest.raises(InvalidRequestError) as refusal:
        score({**EXAMPLE, field: value})
    assert refusal.value.message == message


def test_an_unknown_field_lists_riichi_s_fields() -> None:
    with pytest.raises(InvalidRequestError) as refusal:
        score({**EXAMPLE, "kan_dora": "1m"})
    assert refusal.value.message == (
        "unknown field 'kan_dora': a riichi request has " + ", ".join(sorted(FIELDS))
    )


def test_the_other_profiles_refuse_riichi_s_fields() -> None:
    with pytest.raises(InvalidRequestError) as refusal:
        score({"profile": "sg", "hand": "123m456p789s11122z", "dora": "1m"})
    assert refusal.value.message.startswith("unknown field 'dora': the request fields are ")


# ---------------------------------------------------------------------------------------------
# Several winners on one discard


WEST = {
    "profile": "riichi",
    "hand": "234m567p22345678s",
    "win_tile": "8s",
    "seat": "W",
    "win": "discard",
    "discarder": "E",
    "events": ["riichi"],
    "honba": 2,
    "riichi_sticks": 2,
}
NORTH = {**WEST, "seat": "N", "events": []}
"""North's claim on the same discard, its hand given in each test. In turn after East the
claims come South, West, North: West is first."""


def test_several_winners_settle_in_turn_with_honba_and_deposits_to_the_first() -> None:
    north = {**NORTH, "hand": "123m456p789s11z678s", "win_tile": "8s", "events": ["riichi"]}
    result = score_several([north, WEST]).to_json()
    assert result["valid"] is True
    # West (first in turn after East): riichi pinfu tanyao 3 han 30 fu ron from the dealer:
    # 3900 + 600 for the two honba, and the 2000 of deposits. North: riichi alone, 1 han 40
    # fu: 1300, nothing more.
    assert [(w["winner"], w["call"], w["deposits"]) for w in result["winners"]] == [
        ("W", "3900", 2000),
        ("N", "1300", 0),
    ]
    assert result["payments"] == {"E": -5800, "S": 0, "W": 4500, "N": 1300}


def test_head_bump_keeps_the_first_winner_in_turn_alone() -> None:
    north = {**NORTH, "hand": "123m456p789s11z678s", "win_tile": "8s", "events": ["riichi"]}
    bumped = [{**claim, "options": {"preset": "mleague"}} for claim in (north, WEST)]
    result = score_several(bumped).to_json()
    assert [w["winner"] for w in result["winners"]] == ["W"]
    assert result["payments"] == {"E": -4500, "S": 0, "W": 4500, "N": 0}


def test_a_refused_claim_names_its_seat() -> None:
    north = {**NORTH, "hand": "111m456p789s11z678s", "win_tile": "8s", "dora": "1m"}
    result = score_several([north, {**WEST, "dora": "1m"}]).to_json()
    assert result["valid"] is False
    assert result["error"] == "N: not a win: no yaku (dora are not yaku)"


# ---------------------------------------------------------------------------------------------
# The command line and the HTTP API


def companion(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_command_line_scores_a_riichi_hand_as_players_say_it() -> None:
    done = companion(
        "score",
        "234m567p22345678s",
        "--win-tile",
        "8s",
        "--seat",
        "S",
        "--profile",
        "riichi",
        "--dora",
        "1m",
        "--ura-dora",
        "4p",
        "--event",
        "riichi",
        "--honba",
        "1",
        "--riichi-sticks",
        "1",
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "riichi: 6 han 20 fu, haneman - 3000-6000"
    assert "Fu: pinfu self draw 20 = 20" in lines
    assert "  S takes 1000 from the deposits" in lines
    assert lines[-1] == "Net: E -6100, S +12300, W -3100, N -3100"


def test_the_command_line_reads_the_contract_s_json_and_refuses_a_malformed_one() -> None:
    done = companion("score", stdin=json.dumps(EXAMPLE))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == EXAMPLE_RESULT
    bad = companion("score", stdin=json.dumps({**EXAMPLE, "dealer": "S"}))
    assert bad.returncode == 2
    assert "dealer: East is always the dealer in riichi" in bad.stderr


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'ledger.sqlite3'}")) as test_client:
        yield test_client


def test_the_api_scores_riichi_and_documents_its_fields(client: TestClient) -> None:
    response = client.post("/api/score", json=EXAMPLE)
    assert response.status_code == 200
    assert response.json() == EXAMPLE_RESULT
    spec = client.get("/openapi.json").json()
    request = spec["paths"]["/api/score"]["post"]["requestBody"]["content"]["application/json"]
    properties = request["schema"]["properties"]
    assert {"dora", "ura_dora", "honba", "riichi_sticks"} <= set(properties)
    result = spec["components"]["schemas"]["ScoreResultDoc"]["properties"]
    assert {"han", "fu", "fu_items", "yakuman", "limit", "call", "deposits"} <= set(result)


def test_the_api_gives_a_riichi_hand_s_waits_and_what_each_scores(client: TestClient) -> None:
    response = client.post(
        "/api/waits",
        json={"profile": "riichi", "hand": "234m567p22s34567s", "seat": "S", "events": ["riichi"]},
    )
    assert response.status_code == 200
    answer = response.json()
    assert answer["waits"] == ["2s", "5s", "8s"]
    assert {tile: found["call"] for tile, found in answer["scores"].items()} == {
        "2s": "1300-2600",
        "5s": "1300-2600",
        "8s": "1300-2600",
    }


def test_the_api_keeps_a_riichi_table(client: TestClient) -> None:
    response = client.post(
        "/api/tables", json={"profile": "riichi", "players": ["Ann", "Ben", "Cy", "Di"]}
    )
    assert response.status_code == 201, response.text
    standings = response.json()
    assert (standings["hand_label"], standings["deposits"], standings["honba"]) == (
        "East 1, 0 honba",
        0,
        0,
    )
    assert [player["points"] for player in standings["players"]] == [25_000] * 4


def test_the_command_line_gives_a_riichi_hand_s_waits_with_its_red_five() -> None:
    done = companion("waits", "234m067p22s34567s", "--profile", "riichi")
    assert (done.returncode, done.stdout) == (
        0,
        "Waits: 2s (2 of bamboo), 5s (5 of bamboo), 8s (8 of bamboo)\n",
    )
    refused = companion(
        "waits", "234m067p22s34567s", "--profile", "riichi", "--option", "preset=wrc"
    )
    assert refused.returncode == 2
    assert (
        refused.stderr
        == "companion: hand: red fives (0m 0p 0s) are not played (option red_fives)\n"
    )


SUUKANTSU = {
    "profile": "riichi",
    "hand": "22m",
    "melds": ["kong 1111p", "kong 2222s", "ckong 3333m", "kong 7777z"],
    "win": "discard",
    "discarder": "W",
    "seat": "S",
    "liable": "N",
}
"""Four kongs, won on West's discard; North gave the fourth kong."""


def test_suukantsu_liability_is_an_option_of_its_own() -> None:
    assert score_json(SUUKANTSU)["error"] == (
        "liable: a seat pays for the hand only for a daisangen or a daisuushii"
    )
    result = score_json({**SUUKANTSU, "options": {"suukantsu_liability": True}})
    # A yakuman of 32,000 on a discard: the liable seat pays half, the discarder the rest.
    assert (result["call"], result["payments"]) == (
        "32000",
        {"E": 0, "S": 32000, "W": -16000, "N": -16000},
    )

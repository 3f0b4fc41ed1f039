"""The `mcr` profile as a registered profile: its request and result through `score`, the
command line and the HTTP API, held against docs/contract.md's MCR section."""

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
from companion.rules import get_profile, table_profiles
from companion.rules.mcr.profile import FIELDS, McrScoreResult
from companion.scoring import score, score_json, score_several
from companion.web import i18n

STRAIGHT: dict[str, Any] = {
    "profile": "mcr",
    "hand": "123m456m789m123p55p",
    "win": "discard",
    "discarder": "S",
}
"""A pure straight won on South's 5p: 23 fan."""

STRAIGHT_RESULT: dict[str, Any] = {
    "valid": True,
    "profile": "mcr",
    "unit": "fan",
    "tai": 23,
    "raw_tai": 23,
    "meets_minimum": True,
    "patterns": [
        {
            "id": "pure_straight",
            "name": "Pure straight",
            "name_hans": "清龙",
            "name_hant": "清龍",
            "tai": 16,
            "value": 16,
            "count": 1,
            "earned_by": ["123m", "456m", "789m"],
        },
        {
            "id": "concealed_hand",
            "name": "Concealed hand",
            "name_hans": "门前清",
            "name_hant": "門前清",
            "tai": 2,
            "value": 2,
            "count": 1,
            "earned_by": ["123m", "456m", "789m", "123p", "55p"],
        },
        {
            "id": "all_chows",
            "name": "All chows",
            "name_hans": "平和",
            "name_hant": "平和",
            "tai": 2,
            "value": 2,
            "count": 1,
            "earned_by": ["123m", "456m", "789m", "123p", "55p"],
        },
        {
            "id": "mixed_double_chow",
            "name": "Mixed double chow",
            "name_hans": "喜相逢",
            "name_hant": "喜相逢",
            "tai": 1,
            "value": 1,
            "count": 1,
            "earned_by": ["123m", "123p"],
        },
        {
            "id": "one_voided_suit",
            "name": "One voided suit",
            "name_hans": "缺一门",
            "name_hant": "缺一門",
            "tai": 1,
            "value": 1,
            "count": 1,
            "earned_by": ["123m", "456m", "789m", "123p", "55p"],
        },
        {
            "id": "single_wait",
            "name": "Single wait",
            "name_hans": "单钓将",
            "name_hant": "單釣將",
            "tai": 1,
            "value": 1,
            "count": 1,
            "earned_by": ["55p"],
        },
    ],
    "groups": ["123m", "456m", "789m", "123p", "55p"],
    # 8 + 23 from the discarder, 8 from each of the other two.
    "payments": {"E": 47, "S": -31, "W": -8, "N": -8},
    "notes": [],
    "winning_group": "55p",
    "wait": "pair",
    "waits": ["5p"],
    "winner": "E",
    "transfers": [
        {"from": "S", "to": "E", "amount": 31},
        {"from": "W", "to": "E", "amount": 8},
        {"from": "N", "to": "E", "amount": 8},
    ],
}


def test_mcr_is_registered_with_fan_as_its_unit_and_keeps_tables() -> None:
    profile = get_profile("mcr")
    assert (profile.unit, profile.reads_own_requests, profile.several_winners) == (
        "fan",
        True,
        False,
    )
    assert "mcr" in table_profiles()
    [info] = [info for info in all_profiles() if info["id"] == "mcr"]
    assert info["events"] == ["last_copy", "last_tile", "replacement", "robbing_kong"]
    assert [option["name"] for option in info["options"]] == ["flowers"]
    assert len(info["patterns"]) == 82


def test_a_hand_scores_as_documented() -> None:
    assert score_json(STRAIGHT) == STRAIGHT_RESULT
    result = score(STRAIGHT)
    assert isinstance(result, McrScoreResult)
    assert (result.tai, result.unit, result.meets_minimum) == (23, "fan", True)


SIX_FAN = {"profile": "mcr", "hand": "234m345m567p678s55s", "win": "discard", "discarder": "W"}
"""Concealed hand, all chows, all simples: 6 fan, under the minimum."""


def test_flowers_count_only_with_the_option_and_never_toward_the_minimum() -> None:
    with pytest.raises(InvalidRequestError) as refusal:
        score({**SIX_FAN, "bonus": "1f"})
    assert (
        refusal.value.message == "bonus: flowers are not played (option flowers is off by default)"
    )
    result = score_json({**SIX_FAN, "bonus": "1f2f", "options": {"flowers": True}})
    assert (result["tai"], result["meets_minimum"]) == (8, False)
    note = "6 of the 8 fan count toward the table's minimum of 8; Flower tiles does not"
    assert result["short_of_minimum"] == {
        "counted": 6,
        "total": 8,
        "minimum": 8,
        "left_out": ["flower_tiles"],
        "note": note,
    }
    assert result["notes"] == [note]
    without = score_json(SIX_FAN)
    assert without["short_of_minimum"]["note"] == "6 fan is under the table's minimum of 8"
    assert result["patterns"][-1] == {
        "id": "flower_tiles",
        "name": "Flower tiles",
        "name_hans": "花牌",
        "name_hant": "花牌",
        "tai": 2,
        "value": 1,
        "count": 2,
        "earned_by": ["1f", "2f"],
    }


def test_under_the_minimum_nobody_pays() -> None:
    result = score_json(SIX_FAN)
    assert (result["tai"], result["meets_minimum"]) == (6, False)
    assert result["payments"] == {"E": 0, "S": 0, "W": 0, "N": 0}


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("dealer", "S", "dealer: mcr has no dealer bonus: the field is not read"),
        ("liable", "W", "liable: mcr has no pay-for-all"),
        ("dora", "1m", "unknown field 'dora': a mcr request has " + ", ".join(sorted(FIELDS))),
        ("options", {"flowers": 1}, "option flowers must be true or false"),
        ("options", {"min_tai": 6}, "option min_tai: the minimum of mcr is 8 fan, never another"),
    ],
)
def test_a_malformed_mcr_request_is_refused_naming_the_field(
    field: str, value: Any, message: str
) -> None:
    with pytest.raises(InvalidRequestError) as refusal:
        score({**STRAIGHT, field: value})
    assert refusal.value.message == message


def test_several_winners_are_refused() -> None:
    with pytest.raises(InvalidRequestError) as refusal:
        score_several([STRAIGHT, {**STRAIGHT, "seat": "W"}])
    assert refusal.value.message == "the mcr profile has one winner per discard"


def test_the_chinese_pages_name_mcr_s_fan_its_own_way() -> None:
    # all_pungs is a pattern of sg too, called 对对胡 there; in MCR it is 碰碰和.
    names = i18n.pattern_names("zh-Hans")
    assert (names["all_pungs"], names["mcr:all_pungs"]) == ("碰碰胡", "碰碰和")
    assert i18n.pattern_names("zh-Hant")["mcr:last_copy"] == "和絕張"


def companion(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_command_line_scores_an_mcr_hand() -> None:
    done = companion("score", "123m456m789m123p55p", "--profile", "mcr", "--from", "S")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "mcr: 23 fan"
    assert done.stdout.splitlines()[-1] == "Net: E +47, S -31, W -8, N -8"
    piped = companion("score", stdin=json.dumps(STRAIGHT))
    assert json.loads(piped.stdout) == STRAIGHT_RESULT
    waits = companion("waits", "123m456m789m123p5p", "--profile", "mcr")
    assert waits.stdout == "Waits: 5p (5 of circles)\n"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'ledger.sqlite3'}")) as test_client:
        yield test_client


def test_the_api_scores_mcr_and_gives_its_waits(client: TestClient) -> None:
    response = client.post("/api/score", json=STRAIGHT)
    assert (response.status_code, response.json()) == (200, STRAIGHT_RESULT)
    waits = client.post("/api/waits", json={"profile": "mcr", "hand": "123m456m789m123p5p"})
    assert waits.status_code == 200
    answer = waits.json()
    assert answer["waits"] == ["5p"]
    assert answer["scores"]["5p"]["tai"] == 25  # self-drawn: fully concealed, 4, for 2 + 1
    table = client.post("/api/tables", json={"profile": "mcr", "players": ["A", "B", "C", "D"]})
    assert (table.status_code, table.json()["planned_hands"]) == (201, 16)

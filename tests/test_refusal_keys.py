"""The common refusals carry a stable key and their parameters beside the English (issue 23):
the result JSON's `error_key` and `error_params`, the HTTP error bodies', the table API's. The
English `error` is unchanged."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from companion.scoring import score
from companion.web import i18n

ROOT = Path(__file__).resolve().parents[1]

SG = {"profile": "sg"}


@pytest.mark.parametrize(
    ("request_", "error", "key", "params"),
    [
        (
            {"hand": "123456789m123p57s"},
            "123456789m123p57s is not a winning hand: it is not four sets and a pair or "
            "Thirteen Orphans",
            "refusal.not_a_win",
            {
                "tiles": [f"{n}m" for n in range(1, 10)] + ["1p", "2p", "3p", "5s", "7s"],
                "shapes": ["sets_4", "thirteen_orphans"],
            },
        ),
        (
            {"hand": "123456789m123p5s"},
            "13 tiles: one tile short of a winning hand; it waits on 5s (5 of bamboo)",
            "refusal.one_short",
            {"count": 13, "wait_tiles": ["5s"]},
        ),
        (
            {"hand": "123456789m159p5s"},
            "13 tiles: one tile short of a winning hand; no tile completes it",
            "refusal.one_short_no_waits",
            {"count": 13, "wait_tiles": []},
        ),
        (
            {"hand": "11m234m567m999p", "melds": ["pung 111m"]},
            "1 of characters (1m) appears 5 times counting declared groups; there are four",
            "refusal.fifth_copy",
            {"tile": "1m", "count": 5},
        ),
        (
            {"hand": "123456789m12p"},
            "the hand has 11 structural tiles, but a hand of four sets and a pair has 14",
            "refusal.tile_count",
            {"count": 11, "expected": 14},
        ),
        (
            {"hand": "123456789m123p55s", "win_tile": "9p"},
            "the winning tile 9 of circles (9p) is not among the concealed tiles",
            "refusal.winning_tile_missing",
            {"tile": "9p"},
        ),
        (
            {"profile": "hk", "hand": "123456789m123p55s", "bonus": "1a2a"},
            "animal tiles are not Hong Kong tiles: take out cat, mouse",
            "refusal.hk_animals",
            {"tiles": ["1a", "2a"]},
        ),
        (
            {"hand": "123456789m123p55s", "win": "discard", "discarder": "E", "seat": "E"},
            "the winner cannot win on their own discard",
            "refusal.own_discard",
            {},
        ),
        (
            {"hand": "123456789m123p55s", "discarder": "S"},
            "a self-drawn win has no discarder",
            "refusal.self_draw_discarder",
            {},
        ),
    ],
)
def test_a_refusal_has_its_key_and_params(
    request_: dict[str, Any], error: str, key: str, params: dict[str, Any]
) -> None:
    data = score({**SG, **request_}).to_json()
    assert data["valid"] is False
    assert (data["error"], data["error_key"], data["error_params"]) == (error, key, params)


def test_several_problems_at_once_have_no_key() -> None:
    data = score({"hand": "11111m"}).to_json()
    assert data["error"] == (
        "the hand has 5 structural tiles, but a hand of four sets and a pair has 14; 1 of "
        "characters (1m) appears 5 times counting declared groups; there are four"
    )
    assert "error_key" not in data


def test_an_http_refusal_carries_its_key(client: TestClient) -> None:
    response = client.post("/api/score", json={"hand": "123456789m123p55s", "win": "discard"})
    assert response.status_code == 422
    assert response.json() == {
        "error": "a discard win needs the discarder's seat",
        "error_key": "refusal.no_discarder",
        "error_params": {},
    }
    # A refusal without a key is as before.
    response = client.post("/api/score", json={"hand": "123456789m123p55s", "seat": "X"})
    assert set(response.json()) == {"error"}


def test_the_table_preview_carries_the_hand_s_refusal(client: TestClient) -> None:
    created = client.post(
        "/api/tables", json={"profile": "hk", "players": ["Ann", "Ben", "Cat", "Dan"]}
    ).json()
    headers = {"Authorization": f"Bearer {created['token']}"}
    url = f"/api/tables/{created['id']}/preview"
    hand = {"hand": "123456789m123p57s"}
    entry = {"kind": "win", "winner": "Ann", "from": "Ben", "hand": hand}
    data = client.post(url, json=entry, headers=headers).json()
    assert data["recordable"] is False
    assert data["error"] == (
        "Ann's hand is not a win: 123456789m123p57s is not a winning hand: it is not four sets "
        "and a pair or Thirteen Orphans"
    )
    assert data["error_key"] == "refusal.not_a_win"
    assert data["error_params"]["tiles"][-2:] == ["5s", "7s"]
    # Common hand, Concealed hand and No flowers: 3 faan, 2 of them toward the minimum.
    entry["hand"] = {"hand": "123m234m456p789s55p"}
    data = client.post(url, json=entry, headers=headers).json()
    assert data["recordable"] is False
    assert data["error"] == (
        "Ann's hand is under the table's minimum (2 of the 3 faan count toward the table's "
        "minimum of 3; No flowers does not): a hand under the minimum pays nothing and is not "
        "recorded as a win"
    )
    assert (data["error_key"], data["error_params"]) == (
        "minimum.left_out",
        {"counted": 2, "total": 3, "minimum": 3, "left_out_patterns": ["no_flowers"]},
    )


KEYS = [
    "refusal.not_a_win",
    "refusal.one_short",
    "refusal.one_short_no_waits",
    "refusal.fifth_copy",
    "refusal.tile_count",
    "refusal.tile_count_waiting",
    "refusal.no_winning_tile",
    "refusal.winning_tile_missing",
    "refusal.no_hand",
    "refusal.hk_animals",
    "refusal.no_discarder",
    "refusal.own_discard",
    "refusal.self_draw_discarder",
    "minimum.short",
    "minimum.left_out",
    *(f"shape.{shape}" for shape in ("sets_4", "sets_5", "thirteen_orphans", "seven_pairs")),
    "shape.seven_pairs_triplet",
]


def test_every_key_has_a_message_in_every_language_and_the_contract() -> None:
    contract = (ROOT / "docs" / "contract.md").read_text()
    for lang in i18n.LANGUAGES:
        messages = i18n.catalogue(lang)
        assert [key for key in KEYS if key not in messages] == [], lang
    assert [key for key in KEYS if key.startswith("refusal.") and f"`{key}`" not in contract] == []
    assert (
        i18n.translate(
            "zh-Hant",
            "minimum.left_out",
            "faan",
            counted=2,
            total=3,
            minimum=3,
            left_out_patterns="無花",
        )
        == "3番中只有2番計入本桌起糊的3番；無花不計。"  # noqa: RUF001
    )

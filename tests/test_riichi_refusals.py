"""Riichi refuses what cannot have happened (issue 37, docs/rules-riichi.md, *Refused as
impossible*): a contradiction the shared legality checks refuse in every profile is refused in
their words and with their key; riichi's own (riichi, ippatsu, rinshan, renhou, tenhou and
chiihou with melds or riichi, houtei with chankan) in riichi's words, starting with the field
at fault. Through the Python API, the HTTP API and a riichi table's whole-hand entry."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from companion.api import create_app
from companion.ledger.errors import NotPayableWinError
from companion.ledger.records import WinnerRecord, WinRecord
from companion.scoring import score_json
from test_ledger_riichi import Table

CHANKAN_WITH_A_COPY = {
    "profile": "riichi",
    "hand": "234s567p55p789s23s4s",
    "win": "discard",
    "discarder": "S",
    "seat": "W",
    "round": "E",
    "events": ["robbing_kong"],
}
"""West robs South's kong of 4s while holding another 4s: scored 3 han 3900 before issue 37."""
CHANKAN_COPY_MESSAGE = (
    "robbing_kong takes the fourth 4 of bamboo (4s) from a kong, so the winner holds no other "
    "copy: hand and melds hold 1 more"
)
PINFU = {"hand": "123m456p789s234m99s", "win_tile": "9s"}
"""A closed hand of four chows and a pair, ready to carry any event."""
DEALER_TSUMO = {**PINFU, "seat": "E"}
TSUMO = {**PINFU, "seat": "S"}
RON = {**PINFU, "seat": "S", "win": "discard", "discarder": "N"}


def test_chankan_on_a_tile_the_winner_holds_is_refused_as_in_every_profile() -> None:
    for profile in ("riichi", "sg", "sg-table", "hk"):
        result = score_json({**CHANKAN_WITH_A_COPY, "profile": profile})
        assert result == {
            "valid": False,
            "profile": profile,
            "error": CHANKAN_COPY_MESSAGE,
            "error_key": "refusal.robbing_kong_copies",
            "error_params": {"tile": "4s", "count": 1},
        }
    # A hand that holds the robbed tile once is chankan.
    alone = score_json({**CHANKAN_WITH_A_COPY, "hand": "234s567p55p789s23s1s"})
    assert [pattern["id"] for pattern in alone["patterns"]] == ["pinfu", "chankan"]


# (fields, error, error_key, error_params): the shared checks' refusals, with their keys.
SHARED: list[tuple[dict[str, Any], str, str, dict[str, Any]]] = [
    ({**TSUMO, "events": ["robbing_kong"]},
     "robbing_kong wins on another player's kong tile: enter it as a discard win, with the "
     "kong's declarer as discarder", "refusal.robbing_kong_self_draw", {}),
    ({**TSUMO, "events": ["heavenly"]},
     "heavenly is the dealer's win: seat S is not the dealer (E)",
     "refusal.heavenly_not_dealer", {"seat": "S", "dealer_seat": "E"}),
    ({**DEALER_TSUMO, "win": "discard", "discarder": "N", "events": ["heavenly"]},
     "heavenly is the dealer's self-draw on the first turn: win must be self_draw, with no "
     "discarder", "refusal.heavenly_discard", {}),
    ({**DEALER_TSUMO, "events": ["heavenly", "last_tile"]},
     "heavenly is won on the dealer's first draw, so events cannot also hold last_tile",
     "refusal.heavenly_events", {"events": ["last_tile"]}),
    ({**DEALER_TSUMO, "events": ["earthly"]},
     "earthly is a non-dealer's win: seat E is the dealer, whose first-turn win is heavenly",
     "refusal.earthly_dealer", {"seat": "E"}),
    ({**TSUMO, "events": ["earthly", "last_tile"]},
     "earthly is won on the first turn, so events cannot also hold last_tile",
     "refusal.earthly_events", {"events": ["last_tile"]}),
]  # fmt: skip


@pytest.mark.parametrize(("fields", "error", "key", "params"), SHARED)
def test_the_shared_refusals_carry_their_keys(
    fields: dict[str, Any], error: str, key: str, params: dict[str, Any]
) -> None:
    result = score_json({"profile": "riichi", **fields})
    assert result == {
        "valid": False,
        "profile": "riichi",
        "error": error,
        "error_key": key,
        "error_params": params,
    }


# (fields, error): riichi's own refusals, in riichi's words, without a key.
OWN: list[tuple[dict[str, Any], str]] = [
    ({**DEALER_TSUMO, "events": ["heavenly", "riichi"]},
     "events: heavenly (tenhou) is won on the winner's first draw, before they can declare "
     "riichi, so not with riichi"),
    ({**TSUMO, "events": ["earthly", "double_riichi", "ippatsu"]},
     "events: earthly (chiihou) is won on the winner's first draw, before they can declare "
     "riichi, so not with double_riichi or ippatsu"),
    ({**RON, "win_tile": "4m", "events": ["last_discard", "robbing_kong"]},
     "events: last_discard (houtei) with robbing_kong (chankan): no kong is declared after the "
     "last tile is drawn, so there is none to rob"),
    ({**DEALER_TSUMO, "hand": "123m456p789s99s", "melds": ["ckong 1111z"],
      "events": ["heavenly"]},
     "events: heavenly (tenhou) is won on the first draw with nothing declared: melds must be "
     "empty, not ckong 1111z (a concealed kong draws a replacement tile, so the win is no "
     "longer on the first draw)"),
    ({**TSUMO, "hand": "123m456p789s99s", "melds": ["ckong 1111z"], "events": ["earthly"]},
     "events: earthly (chiihou) is won on the first draw with nothing declared: melds must be "
     "empty, not ckong 1111z (a concealed kong draws a replacement tile, so the win is no "
     "longer on the first draw)"),
    ({**TSUMO, "hand": "123m456p789s99s", "melds": ["pung 111z"], "events": ["earthly"]},
     "events: earthly (chiihou) is won on the first draw with nothing declared: melds must be "
     "empty, not pung 111z"),
    ({**RON, "discarder": "E", "events": ["earthly"]},
     'events: earthly (chiihou) is a non-dealer\'s self-draw on the first draw; win must be '
     '"self_draw" (a win on a discard before one\'s first draw is renhou)'),
    # Several at once: one message, each named, without a key.
    ({**DEALER_TSUMO, "events": ["heavenly", "last_tile", "ippatsu"]},
     "heavenly is won on the dealer's first draw, so events cannot also hold last_tile; "
     "events: ippatsu without riichi; events: heavenly (tenhou) is won on the winner's first "
     "draw, before they can declare riichi, so not with ippatsu"),
]  # fmt: skip


@pytest.mark.parametrize(("fields", "error"), OWN)
def test_riichi_s_own_refusals(fields: dict[str, Any], error: str) -> None:
    result = score_json({"profile": "riichi", **fields})
    assert result == {"valid": False, "profile": "riichi", "error": error}


def test_what_the_refusals_leave_is_scored() -> None:
    tenhou = score_json({"profile": "riichi", **DEALER_TSUMO, "events": ["heavenly"]})
    chiihou = score_json({"profile": "riichi", **TSUMO, "events": ["earthly"]})
    houtei = score_json({"profile": "riichi", **RON, "events": ["last_discard"]})
    assert (tenhou["call"], chiihou["call"], houtei["call"]) == ("16000 all", "8000-16000", "2000")


def test_over_http_a_refusal_is_a_result_with_its_message_and_key() -> None:
    # A refusal is a result, not a malformed request: 200 (docs/contract.md, HTTP statuses).
    client = TestClient(create_app(), raise_server_exceptions=False)
    response = client.post("/api/score", json=CHANKAN_WITH_A_COPY)
    assert response.status_code == 200
    body = response.json()
    assert (body["valid"], body["error"], body["error_key"]) == (
        False,
        CHANKAN_COPY_MESSAGE,
        "refusal.robbing_kong_copies",
    )
    own = client.post("/api/score", json={"profile": "riichi", **OWN[0][0]})
    assert (own.status_code, own.json()["error"]) == (200, OWN[0][1])


def test_a_riichi_table_refuses_a_whole_hand_the_same_way() -> None:
    table = Table("tenhou")
    hand = {"hand": "234s567p55p789s23s4s", "events": ["robbing_kong"]}
    with pytest.raises(NotPayableWinError) as refused:
        table.record(WinRecord((WinnerRecord("Chen", hand=hand),), "Bo"))
    assert CHANKAN_COPY_MESSAGE in str(refused.value)

"""Amounts past 2^53 (issue 41): an event's total is bounded as a table's is (a penalty that
would take it beyond 2^53 is refused, where a leaderboard used to show 1e+60), and riichi's
`honba_value` is bounded as the table's points are, by `/api/score` as by a table (the
calculator used to pay a counter of 3e15 that a table refused only once a hand was recorded)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from test_event_api import bearer, new_event

MAX_TOTAL = 2**53
HONBA_REFUSED = (
    "option honba_value: must be a whole multiple of 3 from 0 to 1,000,000 (each of three "
    "payers pays a third on a self-draw)"
)


def test_a_penalty_cannot_take_an_events_total_past_2_53(client: TestClient) -> None:
    event, token = new_event(client, first_round="listed")
    assert client.post(
        f"/api/events/{event}/rounds", json={"round": 1}, headers=bearer(token)
    ).status_code == (201)
    url = f"/api/events/{event}/penalties"
    most = {"player": "Ann", "amount": str(MAX_TOTAL), "reason": "a correction"}
    assert client.post(url, json=most, headers=bearer(token)).status_code == 201
    refused = client.post(url, json=most | {"amount": "1"}, headers=bearer(token))
    assert refused.status_code == 422
    assert refused.json() == {
        "error": "this adjustment would take Ann's total beyond 2^53 (9,007,199,254,740,992), "
        "the most an event's total may reach: nothing recorded",
        "error_key": "refusal.event_total_large",
        "error_params": {"player": "Ann", "most": "9,007,199,254,740,992"},
    }
    for _ in range(2):  # down to 0, then to -2^53: still within
        down = client.post(url, json=most | {"amount": str(-MAX_TOTAL)}, headers=bearer(token))
        assert down.status_code == 201, down.text
    beyond = client.post(url, json=most | {"amount": "-1"}, headers=bearer(token))
    assert beyond.status_code == 422
    rows = client.get(f"/api/events/{event}/standings").json()["rows"]
    assert {row["name"]: row["total_exact"] for row in rows}["Ann"] == str(-MAX_TOTAL)


@pytest.mark.parametrize("honba_value", [3 * 10**15, 1_000_002, MAX_TOTAL - 2])
def test_honba_value_is_bounded_by_the_calculator_as_by_a_table(
    client: TestClient, honba_value: int
) -> None:
    hand = {"profile": "riichi", "hand": "123m456p789s11z 123s", "win": "self_draw", "honba": 5}
    scored = client.post("/api/score", json=hand | {"options": {"honba_value": honba_value}})
    assert (scored.status_code, scored.json()["error"]) == (422, HONBA_REFUSED)
    table = client.post(
        "/api/tables",
        json={
            "profile": "riichi",
            "players": ["Ann", "Ben", "Cat", "Dan"],
            "options": {"honba_value": honba_value},
        },
    )
    assert (table.status_code, table.json()["error"]) == (422, HONBA_REFUSED)
    most = client.post("/api/score", json=hand | {"options": {"honba_value": 999_999}})
    assert most.status_code == 200, most.text

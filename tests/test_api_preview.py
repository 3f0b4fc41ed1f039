"""`POST /api/tables/{id}/preview`: who would pay whom, scored by the same code as the write, and
nothing recorded."""

from __future__ import annotations

from fastapi.testclient import TestClient

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


def new_table(client: TestClient, profile: str = "sg") -> tuple[str, dict[str, str]]:
    response = client.post("/api/tables", json={"profile": profile, "players": PLAYERS})
    assert response.status_code == 201
    data = response.json()
    return data["id"], {"Authorization": f"Bearer {data['token']}"}


def test_a_quick_tai_win_previews_who_pays_whom_and_records_nothing(client: TestClient) -> None:
    table_id, auth = new_table(client)
    body = {"kind": "win", "winner": "Cat", "from": "Ben", "tai": 2, "expect_hand": 1}
    response = client.post(f"/api/tables/{table_id}/preview", json=body, headers=auth)
    assert response.status_code == 200, response.text
    preview = response.json()
    assert preview["recordable"] is True
    # sg, 2 tai on a discard: the discarder pays two shares (4), the others one each (2).
    assert preview["transfers"] == [
        {"from": "Ann", "to": "Cat", "amount": 2, "amount_text": "2"},
        {"from": "Ben", "to": "Cat", "amount": 4, "amount_text": "4"},
        {"from": "Dan", "to": "Cat", "amount": 2, "amount_text": "2"},
    ]
    assert preview["totals"] == {"Ann": -2, "Ben": -4, "Cat": 8, "Dan": -2}
    assert preview["hand"] == 1
    assert preview["next_dealer"] == "Ben"
    assert client.get(f"/api/tables/{table_id}/history").json()["events"] == []

    recorded = client.post(f"/api/tables/{table_id}/hands", json=body, headers=auth).json()
    assert recorded["event"]["amounts"] == preview["amounts"]
    assert recorded["event"]["totals"] == preview["totals"]


def test_a_preview_says_why_the_write_would_be_refused(client: TestClient) -> None:
    table_id, auth = new_table(client)
    url = f"/api/tables/{table_id}/preview"
    draw = {"kind": "draw", "expect_hand": 2}
    assert client.post(url, json=draw).status_code == 401
    assert client.post(url, json=draw, headers={"Authorization": "Bearer nope"}).status_code == 403
    stale = client.post(url, json=draw, headers=auth)
    assert stale.status_code == 200
    assert stale.json() == {
        "recordable": False,
        "error": "hand 2 is not being played yet: the next is hand 1",
        "status": 409,
    }
    too_many = {"kind": "win", "winner": "Ann", "self_draw": True, "tai": 9}
    refused = client.post(url, json=too_many, headers=auth)
    assert refused.json() == {
        "recordable": False,
        "error": "a sg hand settles at 0 to 5 tai, not 9",
        "error_key": "refusal.agreed_over_cap",
        "error_params": {"profile": "sg", "cap": 5, "count": 9},
        "status": 422,
    }
    unreadable = client.post(url, json={"kind": "win", "winner": "Ann"}, headers=auth)
    assert unreadable.status_code == 422


def test_a_preview_refuses_a_key_used_for_another_entry_as_the_write_does(
    client: TestClient,
) -> None:
    table_id, auth = new_table(client)
    draw = {"kind": "draw", "expect_hand": 1, "key": "tap-1"}
    assert client.post(f"/api/tables/{table_id}/hands", json=draw, headers=auth).status_code == 201
    # The same key for a win on hand 2: the write answers 409; the preview said recordable.
    win = {"kind": "win", "winner": "Cat", "from": "Ben", "tai": 2, "expect_hand": 2}
    message = (
        "the key 'tap-1' was already used for entry 1 (draw), which asked for something else: "
        "nothing recorded"
    )
    preview = client.post(
        f"/api/tables/{table_id}/preview", json={**win, "key": "tap-1"}, headers=auth
    )
    assert (preview.status_code, preview.json()) == (
        200,
        {"recordable": False, "error": message, "status": 409},
    )
    write = client.post(f"/api/tables/{table_id}/hands", json={**win, "key": "tap-1"}, headers=auth)
    assert (write.status_code, write.json()["error"]) == (409, message)
    # A fresh key, or none, previews as before.
    for body in ({**win, "key": "tap-2"}, win):
        fresh = client.post(f"/api/tables/{table_id}/preview", json=body, headers=auth)
        assert fresh.json()["recordable"] is True, fresh.text


def test_a_draw_moves_no_money(client: TestClient) -> None:
    table_id, auth = new_table(client)
    response = client.post(f"/api/tables/{table_id}/preview", json={"kind": "draw"}, headers=auth)
    assert response.json()["transfers"] == []
    assert response.json()["next_dealer"] == "Ann"


def test_a_table_of_one_full_round_ends_when_the_deal_has_gone_round(client: TestClient) -> None:
    response = client.post("/api/tables", json={"players": PLAYERS, "rounds": 1})
    assert response.status_code == 201
    data = response.json()
    table_id, auth = data["id"], {"Authorization": f"Bearer {data['token']}"}
    assert (data["planned_rounds"], data["round_number"], data["deals_in_round"]) == (1, 1, 1)
    url = f"/api/tables/{table_id}/hands"
    # The dealer keeps the deal on a draw; a win by the next seat passes it on.
    assert client.post(url, json={"kind": "draw"}, headers=auth).status_code == 201
    for winner, dealer in (("Ben", "Ann"), ("Cat", "Ben"), ("Dan", "Cat")):
        win = {"kind": "win", "winner": winner, "from": dealer, "tai": 1}
        answer = client.post(url, json=win, headers=auth).json()
        assert answer["table"]["finished"] is False
    state = client.get(f"/api/tables/{table_id}").json()
    assert (state["deals_in_round"], state["dealer"]) == (4, "Dan")
    last = client.post(
        url, json={"kind": "win", "winner": "Ann", "from": "Dan", "tai": 1}, headers=auth
    ).json()
    assert last["table"]["finished"] is True
    refused = client.post(url, json={"kind": "draw"}, headers=auth)
    assert refused.status_code == 409
    assert refused.json() == {"error": "the table's round is all played"}
    page = client.get(f"/t/{table_id}?lang=en").text
    assert "Every planned round played (1 of 1)" in page
    both = client.post("/api/tables", json={"players": PLAYERS, "rounds": 2, "hands": 8})
    assert both.status_code == 422
    assert both.json() == {"error": "plan a table in hands or in rounds, not both"}


def test_the_board_shows_the_round_and_how_far_the_session_has_come(client: TestClient) -> None:
    response = client.post("/api/tables", json={"players": PLAYERS, "rounds": 4})
    table_id = response.json()["id"]
    auth = {"Authorization": f"Bearer {response.json()['token']}"}
    win = {"kind": "win", "winner": "Ben", "from": "Ann", "tai": 1}
    client.post(f"/api/tables/{table_id}/hands", json=win, headers=auth)
    page = client.get(f"/t/{table_id}/board?lang=en").text
    assert "Round 1 of 4 · deal 2 of 4" in page
    assert '<progress max="16" value="1"' in page


def test_a_riichi_self_draw_previews_each_payers_share(client: TestClient) -> None:
    table_id, auth = new_table(client, "riichi")
    # Ben (South) tsumo at 2 han 30 fu with 1 honba and Cat's riichi: the dealer Ann pays
    # 1,000 + 100, Cat and Dan 500 + 100 each (2,300); Cat's stick is Ben's deposit besides.
    client.post(
        f"/api/tables/{table_id}/hands", json={"kind": "draw", "tenpai": ["Ann"]}, headers=auth
    )
    body = {"kind": "win", "winner": "Ben", "self_draw": True, "han": 2, "fu": 30}
    body["riichi"] = ["Cat"]
    preview = client.post(f"/api/tables/{table_id}/preview", json=body, headers=auth).json()
    [gain] = preview["gains"]
    assert (gain["name"], gain["amount_text"], gain["from"]) == (
        "Ben",
        "2,300",
        ["Ann", "Cat", "Dan"],
    )
    assert gain["paid_by"] == [
        {"name": "Ann", "amount": 1100, "amount_text": "1,100"},
        {"name": "Cat", "amount": 600, "amount_text": "600"},
        {"name": "Dan", "amount": 600, "amount_text": "600"},
    ]
    assert gain["deposit"] == 1000
    assert sum(payer["amount"] for payer in gain["paid_by"]) == gain["amount"]


def test_an_amendment_previews_what_it_would_record_where_the_hand_stands(
    client: TestClient,
) -> None:
    table_id, auth = new_table(client)
    first = {"kind": "win", "winner": "Cat", "from": "Ben", "tai": 2}
    client.post(f"/api/tables/{table_id}/hands", json=first, headers=auth)
    client.post(f"/api/tables/{table_id}/hands", json={"kind": "draw"}, headers=auth)
    amended = {"kind": "win", "winner": "Cat", "from": "Ben", "tai": 3}
    response = client.post(
        f"/api/tables/{table_id}/preview?amend=1&expect=0", json=amended, headers=auth
    )
    assert response.status_code == 200, response.text
    preview = response.json()
    # Hand 1 at 3 tai (sg): one share is 4, the discarder pays two (8), the others one each.
    assert (preview["recordable"], preview["hand"]) == (True, 1)
    assert preview["amounts"] == {"Ann": -4, "Ben": -8, "Cat": 16, "Dan": -4}
    assert preview["totals"] == {"Ann": -4, "Ben": -8, "Cat": 16, "Dan": -4}
    stale = client.post(
        f"/api/tables/{table_id}/preview?amend=1&expect=3", json=amended, headers=auth
    ).json()
    assert (stale["recordable"], stale["status"]) == (False, 409)
    assert "1 is at version 0, not 3" in stale["error"]
    history = client.get(f"/api/tables/{table_id}/history").json()["events"]
    assert len(history) == 2  # nothing recorded

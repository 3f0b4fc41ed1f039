"""The table page's record form, per profile: several winners on one discard and the table's
discards for a whole hand (`tw` only), the added kong in the hand editor, and a several-winner
entry in the history (one entry, both winners, prefilled for an amendment)."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


def new_table(client: TestClient, profile: str) -> tuple[str, str]:
    response = client.post("/api/tables", json={"profile": profile, "players": PLAYERS})
    assert response.status_code == 201, response.text
    data = response.json()
    return data["id"], data["token"]


def record(client: TestClient, table: tuple[str, str], body: dict[str, Any]) -> Any:
    table_id, token = table
    headers = {"authorization": f"Bearer {token}"}
    return client.post(f"/api/tables/{table_id}/hands", json=body, headers=headers)


def names(page: str, pattern: str) -> list[str]:
    return re.findall(pattern, page)


def test_tw_offers_several_winners_and_the_table_discards(client: TestClient) -> None:
    table_id, _ = new_table(client, "tw")
    page = client.get(f"/t/{table_id}?lang=en").text
    assert 'id="several"' in page and "Several players won on this discard" in page
    assert names(page, r'type="checkbox" name="winners" value="(\d)"') == ["0", "1", "2", "3"]
    for index, name in enumerate(PLAYERS):
        assert f'data-winner-tai="{index}"' in page
        assert f"{name}&#39;s tai" in page or f"{name}'s tai" in page
        values = names(page, rf'type="radio" name="tai_{index}" value="(\d+)"')
        assert values == [str(n) for n in range(10)], "the same quick tai as one winner"
        assert f'id="tai-other-{index}"' in page
    assert 'id="table-discards"' in page and 'name="table_discards"' in page
    events = names(page, r'type="checkbox" name="events" value="(\w+)"')
    assert events == [
        "robbing_kong",
        "last_tile",
        "last_discard",
        "heavenly",
        "earthly",
        "original_ready",
    ]
    chinese = client.get(f"/t/{table_id}?lang=zh-Hant").text
    assert "一炮多響" in chinese and "已打出的牌數" in chinese


@pytest.mark.parametrize("profile", ["sg", "sg-table"])
def test_sg_tables_keep_one_winner(client: TestClient, profile: str) -> None:
    table_id, _ = new_table(client, profile)
    page = client.get(f"/t/{table_id}?lang=en").text
    assert 'id="several"' not in page and 'name="winners"' not in page
    assert "data-winner-tai" not in page
    assert 'id="table-discards"' not in page, "no early-win patterns outside tw"
    assert names(page, r'type="radio" name="winner" value="(\d)"') == ["0", "1", "2", "3"]


def test_the_hand_editor_adds_an_added_kong(client: TestClient) -> None:
    table_id, _ = new_table(client, "tw")
    for path, editor in (("/?lang=en", "hand-editor"), (f"/t/{table_id}?lang=en", "table-hand")):
        page = client.get(path).text
        modes = names(page, rf'name="{editor}-mode" value="(\w+)"')
        assert modes == ["tile", "chow", "pung", "kong", "akong", "ckong"], path
        assert "Added kong" in page
    assert "加槓" in client.get("/?lang=zh-Hant").text


def test_several_winners_are_one_entry_in_the_history(client: TestClient) -> None:
    table = new_table(client, "tw")
    body = {
        "kind": "win",
        "from": "Cat",
        "winners": [{"name": "Ann", "tai": 3}, {"name": "Ben", "tai": 5}],
    }
    assert record(client, table, body).status_code == 201
    board = client.get(f"/t/{table[0]}/board?lang=en").text
    items = re.findall(r'<li class="entry[^"]*" data-seq="(\d+)"([^>]*)>', board)
    assert [seq for seq, _ in items] == ["1"], "one entry for both winners"
    attributes = items[0][1]
    assert 'data-prefill-winners="0:3,1:5"' in attributes
    assert 'data-prefill-from="2"' in attributes
    text = html.unescape(board)
    assert "Ann wins 3 tai from Cat + 1 dealer tai and Ben wins 5 tai from Cat" in text
    assert re.search(r"Ann \+4</span>\s*<span[^>]*>Ben \+5</span>\s*<span[^>]*>Cat -9", text)
    chinese = html.unescape(client.get(f"/t/{table[0]}/board?lang=zh-Hant").text)
    assert "Ann 胡 Cat 放槍 3 台 + 莊家台 1，Ben 胡 Cat 放槍 5 台" in chinese  # noqa: RUF001


def test_the_stale_dealer_note_is_a_translated_sentence_shown_only_when_money_differs(
    client: TestClient,
) -> None:
    table = new_table(client, "tw")
    table_id, token = table
    # Ann deals and wins twice: the second win carries 1 + 2 x 1 dealer tai from her streak.
    assert record(
        client, table, {"kind": "win", "winner": "Ann", "from": "Ben", "tai": 3}
    ).is_success
    assert record(
        client, table, {"kind": "win", "winner": "Ann", "from": "Ben", "tai": 3}
    ).is_success
    # Nothing corrected yet: no note (the page's script data holds the sentence's template).
    assert "Scored with Ann dealing" not in client.get(f"/t/{table_id}?lang=en").text
    voided = client.post(
        f"/api/tables/{table_id}/events/1/void",
        json={"reason": "wrong hand"},
        headers={"authorization": f"Bearer {token}"},
    )
    assert voided.status_code == 201, voided.text
    english = html.unescape(client.get(f"/t/{table_id}?lang=en").text)
    assert (
        "Scored with Ann dealing (East round, streak 1); the corrected record has Ann dealing "
        "(East round, streak 0). Amend this hand to change what it pays."
    ) in english
    chinese = html.unescape(client.get(f"/t/{table_id}?lang=zh-Hant").text)
    assert "記錄時由 Ann 做莊" in chinese and "請更正這一局" in chinese
    assert "Scored with Ann dealing" not in chinese


def test_an_mcr_table_offers_fan_from_8_flowers_and_prefills_an_amendment(
    client: TestClient,
) -> None:
    response = client.post(
        "/api/tables",
        json={"profile": "mcr", "players": PLAYERS, "options": {"flowers": True}},
    )
    table = (response.json()["id"], response.json()["token"])
    page = client.get(f"/t/{table[0]}?lang=en").text
    assert names(page, r'type="radio" name="tai" value="(\d+)"') == [
        str(fan) for fan in range(8, 18)
    ]
    assert 'id="tai-other"' in page and 'id="flowers"' in page
    assert "East round, hand 1" in page and "Hand 1 of 16" in page
    assert not names(page, r'name="several"')
    body = {"kind": "win", "winner": "Cat", "self_draw": True, "tai": 9, "flowers": 3}
    assert record(client, table, body).status_code == 201
    page = client.get(f"/t/{table[0]}?lang=zh-Hant").text
    entry = re.search(r'<li class="entry[^>]*data-seq="1"[^>]*>', page)
    assert entry is not None
    assert 'data-prefill-tai="9"' in entry.group(0)
    assert 'data-prefill-flowers="3"' in entry.group(0)
    assert "Cat 自摸 12 番 \uff08其中花牌 3 番\uff09" in html.unescape(page)
    assert "東風圈第 2 局" in page
    # A table without flowers has no flowers field.
    plain = new_table(client, "mcr")
    assert 'id="flowers"' not in client.get(f"/t/{plain[0]}?lang=en").text


def test_an_mcr_whole_hand_moved_by_a_correction_says_so_without_a_streak(
    client: TestClient,
) -> None:
    table = new_table(client, "mcr")
    quick = {"kind": "win", "winner": "Ann", "from": "Ben", "tai": 8}
    assert record(client, table, quick).status_code == 201
    whole = {"kind": "win", "winner": "Cat", "from": "Dan", "hand": {"hand": "222z123m456p789s55m"}}
    assert record(client, table, whole).status_code == 201
    voided = client.post(
        f"/api/tables/{table[0]}/events/1/void",
        json={"reason": "wrong table"},
        headers={"authorization": f"Bearer {table[1]}"},
    )
    assert voided.status_code == 201, voided.text
    page = client.get(f"/t/{table[0]}?lang=zh-Hans").text
    assert (
        "记录时由 Ben 坐庄\uff08东风圈\uff09\uff1b更正后的记录是 Ann 坐庄\uff08东风圈\uff09" in page
    )

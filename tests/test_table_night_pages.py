# ruff: noqa: RUF001  (the Chinese messages are written with full-width punctuation)
"""A table night's pages as players read them: hands, not event numbers, in what they read
after Record, Undo, Amend and Void; a correction nobody signed reads as its reason alone; the
board names the lap after four rounds; the history dates a hand from another day; the
calculator's New hand and the table's Start over say what Clear keeps, in every language."""

from __future__ import annotations

import html
import re
from datetime import UTC, date, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient

from companion.ledger.state import TableState
from companion.web import i18n
from companion.web.table_history import entry_time
from companion.web.table_views import names_class, round_label

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


def new_table(client: TestClient, **fields: Any) -> tuple[str, str]:
    body = {"profile": "sg", "players": PLAYERS, **fields}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return response.json()["id"], response.json()["token"]


def post(client: TestClient, table: tuple[str, str], path: str, body: dict[str, Any]) -> Any:
    table_id, token = table
    response = client.post(
        f"/api/tables/{table_id}/{path}", json=body, headers={"authorization": f"Bearer {token}"}
    )
    assert response.status_code == 201, response.text
    return response.json()


def pass_the_deal(client: TestClient, table: tuple[str, str], times: int) -> None:
    """`times` hands, each won self-drawn by the player after the dealer: the deal passes."""
    for passes in range(times):
        winner = PLAYERS[(passes + 1) % 4]
        post(client, table, "hands", {"kind": "win", "winner": winner, "self_draw": True, "tai": 1})


def text_of(page: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def test_amend_and_void_name_the_hand(client: TestClient) -> None:
    table = new_table(client)
    post(client, table, "hands", {"kind": "win", "winner": "Ben", "from": "Cat", "tai": 3})
    post(client, table, "events/1/void", {"reason": "undone by the recorder"})
    recorded = post(
        client, table, "hands", {"kind": "win", "winner": "Dan", "self_draw": True, "tai": 2}
    )
    assert (recorded["event"]["seq"], recorded["event"]["hand"]) == (3, 1)
    page = client.get(f"/t/{table[0]}?lang=en").text
    items = dict(re.findall(r'data-seq="(\d+)"[^>]* data-what="([^"]*)"', page))
    # A voided hand is in no hand; the correction itself has no Amend or Void.
    assert items == {"3": "hand 1", "2": "", "1": "this entry"}
    assert 'data-amend-text="Amend {what}"' in page
    assert 'data-template="Void {what}"' in page
    # The undo names no one: its reason alone, with no "(who is not known)".
    text = text_of(page)
    assert "“undone by the recorder”" in text
    assert "who is not known" not in text and "“undone by the recorder” (" not in text
    chinese = client.get(f"/t/{table[0]}?lang=zh-Hant").text
    assert 'data-what="第 1 局"' in chinese and 'data-amend-text="修改{what}"' in chinese
    post(client, table, "events/3/void", {"reason": "wrong winner", "by": "Ann"})
    assert "“wrong winner” (Ann)" in text_of(client.get(f"/t/{table[0]}?lang=en").text)


@pytest.mark.parametrize(
    ("lang", "key", "expected"),
    [
        ("en", "table.recorded_what", "Recorded: hand 17. Totals now:"),
        ("en", "table.undone_what", "Undone: hand 17."),
        ("zh-Hant", "table.recorded_what", "已記錄：第 17 局。目前總分："),
        ("zh-Hans", "table.undone_what", "已撤销：第 17 局。"),
    ],
)
def test_what_the_recorder_reads_counts_hands(lang: str, key: str, expected: str) -> None:
    what = i18n.translate(lang, "table.what.hand", n=17)
    assert i18n.translate(lang, key, what=what) == expected
    assert "#" not in i18n.translate(lang, key, what=what)


@pytest.mark.parametrize(
    ("passes", "lang", "expected"),
    [
        (0, "en", "East round"),
        (15, "en", "North round"),
        (16, "en", "East round, second lap"),
        (28, "en", "North round, second lap"),
        (32, "en", "East round, third lap"),
        (160, "en", "East round, lap 11"),
        (28, "zh-Hant", "北風圈・第二將"),
        (28, "zh-Hans", "北风圈・第二将"),
    ],
)
def test_the_round_names_its_lap_after_four_rounds(passes: int, lang: str, expected: str) -> None:
    state = TableState(tuple(PLAYERS), passes=passes)
    assert round_label(i18n.Translator(lang), state) == expected


def test_the_board_says_which_lap_it_is(client: TestClient) -> None:
    table = new_table(client)
    pass_the_deal(client, table, 28)
    board = client.get(f"/t/{table[0]}/board?lang=en").text
    assert re.search(r"data-round><strong>North round, second lap</strong>", board)
    assert "North round, second lap" in client.get(f"/t/{table[0]}?lang=en").text


def test_a_hand_from_another_day_shows_its_date() -> None:
    evening = datetime(2026, 11, 28, 21, 5, tzinfo=UTC)
    assert entry_time(evening, date(2026, 11, 28)) == "21:05 UTC"
    assert entry_time(evening, date(2026, 12, 1)) == "2026-11-28 21:05 UTC"


@pytest.mark.parametrize(
    ("lang", "new_hand", "keeps"),
    [
        ("en", "New hand", "Clear empties the tiles only"),
        ("zh-Hant", "新一局", "「清除」只清空牌"),
        ("zh-Hans", "新一局", "“清空”只清空牌"),
    ],
)
def test_the_calculator_offers_new_hand_and_says_what_clear_keeps(
    client: TestClient, lang: str, new_hand: str, keeps: str
) -> None:
    page = client.get(f"/?lang={lang}").text
    assert re.search(rf"<button [^>]*data-fresh>{new_hand}</button>", page)
    found = re.search(r'<p class="hint clear-keeps" data-clear-keeps>([^<]+)</p>', page)
    assert found and html.unescape(found.group(1)).startswith(keeps)


def test_the_table_form_offers_start_over_and_says_what_clear_keeps(client: TestClient) -> None:
    table = new_table(client)
    page = client.get(f"/t/{table[0]}?lang=en").text
    assert re.search(r"<button [^>]*data-fresh>Start over</button>", page)
    assert "Clear empties the tiles only. Start over clears the whole entry" in page


def test_the_table_page_gives_its_name_for_the_device_list(client: TestClient) -> None:
    table = new_table(client, name="Friday at Ann's")
    page = client.get(f"/t/{table[0]}?lang=en").text
    data = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', page)
    assert data and '"name": "Friday at Ann\'s"' in html.unescape(data.group(1)).replace(
        "\\u0027", "'"
    )


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        (PLAYERS, ""),
        (["Ann", "Ben", "Catherine", "Dan"], "long-names"),
        (["Ann Lee", "Ben Tan", "Cat Ong", "Dan Ng"], ""),
        (["陳大文", "李小龍", "Cat", "Dan"], ""),
        (["歐陽大文", "李小龍", "Cat", "Dan"], "long-names"),
    ],
)
def test_long_names_get_two_buttons_a_row(players: list[str], expected: str) -> None:
    assert names_class(tuple(players)) == expected


def test_the_record_form_marks_long_names(client: TestClient) -> None:
    table_id, _ = new_table(client, players=["Alexandra Montgomery-Whitfield", "Ben", "Cat", "Dan"])
    page = client.get(f"/t/{table_id}?lang=en").text
    assert 'class="segmented players-choice winner-choice long-names"' in page
    assert 'class="segmented players-choice from-choice long-names"' in page

"""The `hk` profile in a real browser: the calculator scores in faan (番) with the Hong Kong
options in its table-options panel, and an `hk` table records agreed faan."""

from __future__ import annotations

import re
from typing import Any

import pytest
from test_calculator import choose, tap_tiles
from test_tables import record_quick, totals

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

Tab = Any  # tests/browser/conftest.py's Tab: a Playwright page, its base URL and its errors

PLAYERS = ("Ann", "Ben", "Cat", "Dan")
WORDS = {
    "en": {"title": "Score a hand", "faan": "4 faan", "tai": "tai"},
    "zh-Hant": {"title": "計算番數", "faan": "4 番", "tai": "台"},
}


def common_hand_for_south(request: pytest.FixtureRequest, size: str, lang: str) -> Tab:
    """The issue's first hand, a concealed common hand self-drawn by South, in the calculator
    with hk chosen: 4 faan, and the page's words in faan."""
    tab: Tab = request.getfixturevalue(size)
    page = tab.page
    tab.goto(f"/?lang={lang}")
    page.locator("#profile").select_option("hk")
    tap_tiles(page, "1m 2m 3m 2m 3m 4m 4p 6p 7s 8s 9s 5p 5p 5p")
    choose(page, "seat", "S")
    expect(page.locator("[data-total]")).to_have_attribute("data-total", "4")
    words = WORDS[lang]
    assert page.locator("h1.page-title").inner_text() == words["title"]
    assert words["faan"] in page.locator("#result-body [data-verdict='good']").inner_text()
    assert words["faan"] in page.locator("#result-bar").inner_text()
    assert words["tai"] not in page.locator("#result-body").inner_text()
    return tab


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_calculator_says_faan_in_english(size: str, request: pytest.FixtureRequest) -> None:
    tab = common_hand_for_south(request, size, "en")
    page = tab.page
    common = page.locator("[data-pattern='chow_hand']")
    assert "Common hand" in common.inner_text() and "1 faan" in common.inner_text()
    # Waits for the answer to the last change (seat S): the one before it, as East, is 4 faan too.
    expect(page.locator(".net [data-seat='S'] dd")).to_have_text("+48")
    page.locator("#options-panel summary").click()
    options = page.locator("#options")
    expect(options.locator("select[name='option:curve']")).to_have_value("half_spicy")
    expect(options.locator("select[name='option:gun']")).to_have_value("full")
    expect(options.locator("input[name='option:max_faan']")).to_have_value("13")
    assert "Minimum faan (flower faan not counted)" in options.inner_text()
    assert options.locator("input[name='option:min_tai']").count() == 0
    # On East's discard the hand is 3 faan (no Self-draw), 2 without No flowers: under the
    # minimum of 3, so nobody pays; with the minimum at 2 and half gun, P = M(3) = 8: East pays
    # 8, West and North 4 each.
    choose(page, "win", "discard")
    choose(page, "discarder", "E")
    expect(page.locator("[data-total]")).to_have_attribute("data-total", "3")
    assert "Under the minimum" in page.locator("#result-body").inner_text()
    page.locator("input[name='option:min_faan']").fill("2")
    page.locator("select[name='option:gun']").select_option("half")
    # South takes 16 under full gun too (East alone paying it): wait for East's half-gun share.
    expect(page.locator(".net [data-seat='E'] dd")).to_have_text("-8")
    expect(page.locator(".net [data-seat='S'] dd")).to_have_text("+16")
    assert page.locator(".net [data-seat='W'] dd").inner_text() == "-4"
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    tab.screenshot("hk-calculator-en")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_calculator_says_faan_in_chinese(size: str, request: pytest.FixtureRequest) -> None:
    tab = common_hand_for_south(request, size, "zh-Hant")
    page = tab.page
    page.locator("#options-panel summary").click()
    assert "起糊番數（不計花番）" in page.locator("#options").inner_text()  # noqa: RUF001
    tab.screenshot("hk-calculator-zh")
    # Back to a tai profile: the words follow the profile.
    page.locator("#profile").select_option("sg")
    assert page.locator("h1.page-title").inner_text() == "計算台數"


def test_an_hk_table_records_agreed_faan(phone: Tab, desktop: Tab) -> None:
    response = phone.page.request.post(
        phone.base + "/api/tables", data={"profile": "hk", "players": list(PLAYERS)}
    )
    assert response.status == 201
    table_id, token = response.json()["id"], response.json()["token"]
    page = phone.page
    phone.goto(f"/t/{table_id}?lang=en#token={token}")
    expect(page.locator(".access-write")).to_be_visible()
    assert "Agreed faan" in page.locator("#record-form").inner_text()
    values = page.locator("#record-form input[name='tai']").evaluate_all(
        "inputs => inputs.map(input => input.value)"
    )
    assert values == [str(n) for n in range(3, 14)]
    # Ann (East) self-draws 4 faan: 16 from each; Ben wins 7 faan on Cat's discard: 96.
    record_quick(page, winner=0, discarder=None, tai=4, event=1)
    record_quick(page, winner=1, discarder=2, tai=7, event=2)
    assert totals(page) == ["+48", "+80", "-112", "-16"]
    history = page.locator("#history").inner_text()
    assert "Ann wins 4 faan, self-drawn" in history and "Ben wins 7 faan from Cat" in history
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    phone.screenshot("hk-table-board-en")

    desktop.goto(f"/t/{table_id}?lang=zh-Hant#token={token}")
    board = desktop.page.locator("#history").inner_text()
    assert "Ann 自摸 4 番" in board and re.search(r"Ben 食 Cat 出銃 7 番", board)
    assert "直接輸入番數" in desktop.page.locator("#record-form").inner_text()
    desktop.screenshot("hk-table-board-zh")

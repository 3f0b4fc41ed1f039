"""The calculator on the riichi profile in a real browser: red fives in the picker, dora
indicators by tapping, riichi's events that cannot go together, han, fu, the call and the
payments; the waits of a hand one tile short with their calls; the Chinese page's yaku names."""

from __future__ import annotations

from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

Tab = Any  # tests/browser/conftest.py's Tab: a Playwright page, its base URL and its errors

# 234m 0p67p 22s 345s 67s and the 8s drawn: riichi, menzen tsumo, pinfu, tanyao, a red five and
# the dora 2m (indicator 1m) are 6 han, haneman; South's tsumo with a honba and a riichi stick.
WINNING = "2m 3m 4m 0p 6p 7p 2s 2s 3s 4s 5s 6s 7s 8s"
# 234m 4p0p6p 666s 88s and 23p, on East's discard: 1p has no yaku, 4p and 7p tanyao.
ONE_SHORT = "2m 3m 4m 4p 0p 6p 6s 6s 6s 8s 8s 2p 3p"


def tap_tiles(page: Any, tiles: str) -> None:
    for tile in tiles.split():
        page.locator(f"[data-picker] [data-tile='{tile}']").click()


def choose(page: Any, name: str, value: str) -> None:
    page.locator(f"input[name='{name}'][value='{value}'] + span").click()


def event(page: Any, name: str) -> Any:
    return page.locator(f"#events input[value='{name}']")


def why(page: Any, name: str) -> Any:
    return page.locator(f"#events [data-event='{name}'] .check-why")


def add_indicator(page: Any, tile: str) -> None:
    summary = page.locator(".dora-more summary")
    if page.locator(".dora-more").get_attribute("open") is None:
        summary.click()
    page.locator(f"[data-indicator='{tile}']").click()


def riichi_page(tab: Tab, lang: str = "en") -> Any:
    page = tab.page
    tab.goto(f"/?lang={lang}")
    page.select_option("#profile", "riichi")
    return page


def test_a_riichi_hand_with_a_red_five_a_dora_and_riichi(phone: Tab) -> None:
    page = riichi_page(phone)
    # The red fives are offered (tenhou's rules play them); no flower, season or animal is.
    expect(page.locator("[data-red-row]")).to_be_visible()
    assert page.locator("[data-bonus-panel]").is_hidden()
    tap_tiles(page, WINNING)
    choose(page, "seat", "S")
    page.locator("#events-panel summary").click()
    event(page, "riichi").check()
    add_indicator(page, "1m")
    page.fill("#field-honba", "1")
    page.fill("#field-riichi_sticks", "1")

    expect(page.locator(".net [data-seat='S'] dd")).to_have_text("+12,300")
    expect(page.locator("[data-call]")).to_have_text("3000-6000")
    assert page.locator("[data-han-fu]").inner_text() == "6 han 20 fu · Haneman 跳満"
    assert page.locator("[data-deposits]").inner_text() == "+1,000 from the deposits 供託"
    yaku = page.locator(".patterns [data-pattern]")
    assert [item.get_attribute("data-pattern") for item in yaku.all()] == [
        "riichi",
        "menzen_tsumo",
        "pinfu",
        "tanyao",
        "dora",
        "aka_dora",
    ]
    assert page.locator("[data-pattern='riichi']").inner_text().split("\n") == [
        "Riichi 立直",
        "1 han",
    ]
    assert page.locator("[data-pattern='aka_dora']").inner_text().split("\n") == [
        "Red five 赤ドラ",
        "1 han",
    ]
    assert page.locator(".fu-line").inner_text() == "Pinfu self-draw 20 → 20 fu"
    transfers = page.locator(".transfers").inner_text().split("\n")
    assert transfers == [
        "East pays South",
        "6,100",
        "West pays South",
        "3,100",
        "North pays South",
        "3,100",
    ]
    net = {seat: page.locator(f".net [data-seat='{seat}'] dd").inner_text() for seat in "ESWN"}
    assert net == {"E": "-6,100", "S": "+12,300", "W": "-3,100", "N": "-3,100"}
    assert "3000-6000" in page.locator("#result-bar").inner_text()
    # The call comes before the payments.
    order = page.evaluate(
        "document.querySelector('[data-call]').compareDocumentPosition("
        "document.querySelector('.transfers'))"
    )
    assert order & 4, "the call is drawn before the payments"
    assert page.locator("[data-indicators='dora'] .chip").get_attribute("data-tile") == "1m"
    assert page.evaluate("document.documentElement.scrollWidth") <= 375, "no sideways scrolling"

    # Riichi and double riichi exclude each other: the second is disabled and says why.
    expect(event(page, "double_riichi")).to_be_disabled()
    assert why(page, "double_riichi").inner_text() == "not with Riichi 立直"
    expect(event(page, "robbing_kong")).to_be_disabled()
    assert why(page, "robbing_kong").inner_text() == "only on a discard win (ron)"
    expect(event(page, "replacement")).to_be_disabled()
    assert why(page, "replacement").inner_text() == "needs a kong among the declared groups"
    expect(event(page, "heavenly")).to_be_disabled()
    assert why(page, "heavenly").inner_text() == "only for East, the dealer"
    expect(event(page, "renhou")).to_be_disabled()
    # Ippatsu goes with riichi; taking riichi back unticks it, with the reason.
    event(page, "ippatsu").check()
    expect(page.locator("[data-han-fu]")).to_have_text("7 han 20 fu · Haneman 跳満")
    assert page.locator("[data-call]").inner_text() == "3000-6000"
    expect(page.locator("[data-indicators='ura_dora']")).to_be_visible()
    event(page, "riichi").uncheck()
    expect(event(page, "ippatsu")).not_to_be_checked()
    expect(event(page, "ippatsu")).to_be_disabled()
    assert why(page, "ippatsu").inner_text() == "needs riichi or double riichi"
    expect(event(page, "double_riichi")).to_be_enabled()
    # Without riichi no ura dora is offered.
    expect(page.locator("[data-indicators='ura_dora']")).to_be_hidden()
    expect(page.locator("[data-han-fu]")).to_have_text("5 han 20 fu · Mangan 満貫")
    assert page.locator("[data-call]").inner_text() == "2000-4000"

    # A chip taps out: the dora goes, and so does its han.
    page.locator("[data-indicators='dora'] .chip").click()
    expect(page.locator("[data-call]")).to_have_text("1300-2600")
    assert page.locator("[data-han-fu]").inner_text() == "4 han 20 fu"
    assert page.locator("[data-pattern='dora']").count() == 0
    phone.screenshot("riichi-calculator-hand")

    # Another profile has no red five: the red five becomes a plain one, flowers come back.
    page.select_option("#profile", "sg")
    expect(page.locator("[data-red-row]")).to_be_hidden()
    expect(page.locator("[data-bonus-panel]")).to_be_visible()
    hrefs = page.locator("#hand-editor [data-hand] use").evaluate_all(
        "uses => uses.map(use => use.getAttribute('href').split('#t-')[1])"
    )
    assert "0p" not in hrefs and hrefs.count("5p") == 1


def test_a_rule_set_without_red_fives_takes_them_from_the_picker(desktop: Tab) -> None:
    page = riichi_page(desktop)
    page.locator("#options-panel summary").click()
    assert page.locator("#field-option\\:min_tai").count() == 0, "riichi has no minimum to set"
    tap_tiles(page, "0p 5p")
    page.select_option("[name='option:preset']", "ema2016")
    expect(page.locator("[name='option:red_fives']")).not_to_be_checked()
    expect(page.locator("[name='option:kazoe']")).to_have_value("sanbaiman")
    expect(page.locator("[data-red-row]")).to_be_hidden()
    hrefs = page.locator("#hand-editor [data-hand] use").evaluate_all(
        "uses => uses.map(use => use.getAttribute('href').split('#t-')[1])"
    )
    assert hrefs == ["5p", "5p"]
    page.select_option("[name='option:preset']", "mleague")
    expect(page.locator("[name='option:red_fives']")).to_be_checked()
    expect(page.locator("[name='option:kiriage']")).to_be_checked()
    expect(page.locator("[data-red-row]")).to_be_visible()


def test_a_hand_one_short_shows_each_wait_s_call(phone: Tab) -> None:
    page = riichi_page(phone)
    tap_tiles(page, ONE_SHORT)
    choose(page, "seat", "S")
    choose(page, "win", "discard")
    choose(page, "discarder", "E")
    add_indicator(page, "7s")
    expect(page.locator("[data-wait='4p'] .wait-tai")).to_have_text("8000")
    waits = page.locator("[data-wait]")
    assert [button.get_attribute("data-wait") for button in waits.all()] == ["1p", "4p", "7p"]
    one = page.locator("[data-wait='1p']")
    assert one.locator(".wait-tai").inner_text() == "Not a win"
    assert one.locator(".wait-detail").inner_text() == "not a win: no yaku (dora are not yaku)"
    four = page.locator("[data-wait='4p']")
    assert four.locator(".wait-tai").inner_text() == "8000"
    assert (
        four.locator(".wait-detail").inner_text()
        == "4 han 40 fu · Mangan 満貫 · Tanyao 断幺九 · Dora ドラ \u00d72 · Red five 赤ドラ"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 375, "no sideways scrolling"
    phone.screenshot("riichi-calculator-waits")
    four.click()
    expect(page.locator("[data-call]")).to_have_text("8000")
    fu = page.locator(".fu-line [data-fu]")
    assert [item.get_attribute("data-fu") for item in fu.all()] == [
        "base",
        "closed_ron",
        "pung 666s",
    ]
    # The pung's tiles are drawn after its name (text_content: without them).
    assert page.locator(".fu-line").text_content() == (
        "Base (futei) 20, Closed ron 10, Pung 4 → 40 fu (34 fu, rounded up to a ten)"
    )
    assert page.locator("[data-fu='pung 666s'] .mini-group").get_attribute("aria-label") == (
        "6 of bamboo, 6 of bamboo, 6 of bamboo"
    )
    net = {seat: page.locator(f".net [data-seat='{seat}'] dd").inner_text() for seat in "ESWN"}
    assert net == {"E": "-8,000", "S": "+8,000", "W": "0", "N": "0"}


def test_the_simplified_chinese_page_names_the_yaku_in_chinese(desktop: Tab) -> None:
    page = riichi_page(desktop, "zh-Hans")
    tap_tiles(page, WINNING)
    choose(page, "seat", "S")
    page.locator("#events-panel summary").click()
    event(page, "riichi").check()
    add_indicator(page, "1m")
    expect(page.locator("[data-call]")).to_have_text("3000-6000")
    assert page.locator("[data-han-fu]").inner_text() == "6番20符 · 跳满"
    names = page.locator(".patterns [data-pattern] .pattern-name")
    assert names.all_inner_texts() == ["立直", "门前清自摸和", "平和", "断幺九", "宝牌", "赤宝牌"]
    assert page.locator("[data-pattern='pinfu'] .pattern-tai").inner_text() == "1番"
    assert why(page, "double_riichi").inner_text() == "不能与立直同时"
    # A dealer's tsumo is called "all".
    choose(page, "seat", "E")
    expect(page.locator("[data-call]")).to_have_text("每家6000")

# ruff: noqa: RUF001  (the Chinese page's words are written with full-width punctuation, on purpose)
"""The calculator on the sanma profile in a real browser: the picker without the 2m-8m and
without a claimed chow, three seats, the kita counter (never past four North tiles), the han,
fu and points of a self-draw under both `tsumo` options, in English and Simplified Chinese."""

from __future__ import annotations

from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

Tab = Any  # tests/browser/conftest.py's Tab: a Playwright page, its base URL and its errors

# 234p 567p 234s 88s 56s and the 7s drawn by South with one North set aside: menzen tsumo,
# pinfu, tanyao and kita, 4 han 20 fu: 1300-2600 with tsumo loss (North's 1,300 not paid),
# 2000-3300 with North's share split (650 each, rounded to 700).
HAND = "2p 3p 4p 5p 6p 7p 2s 3s 4s 8s 8s 5s 6s 7s"
OUT_OF_PLAY = [f"{rank}m" for rank in range(2, 9)]


def tap_tiles(page: Any, tiles: str) -> None:
    for tile in tiles.split():
        page.locator(f"[data-picker] [data-tile='{tile}']").click()


def choose(page: Any, name: str, value: str) -> None:
    page.locator(f"input[name='{name}'][value='{value}'] + span").click()


def sanma_page(tab: Tab, lang: str) -> Any:
    page = tab.page
    tab.goto(f"/?lang={lang}")
    page.select_option("#profile", "sanma")
    return page


def shown_seats(page: Any, name: str) -> list[str]:
    labels = page.locator(f"[data-field='{name}'] label")
    shown = [label for label in labels.all() if label.is_visible()]
    return [label.locator("input").get_attribute("value") for label in shown]


def net(page: Any) -> dict[str, str]:
    cells = page.locator(".net [data-seat]").all()
    return {cell.get_attribute("data-seat"): cell.locator("dd").inner_text() for cell in cells}


def kita(page: Any, step: str) -> None:
    page.locator(f"[data-field='kita'] [data-aside='{step}']").click()


def test_a_sanma_self_draw_with_kita_in_english(phone: Tab) -> None:
    page = sanma_page(phone, "en")
    # No 2m-8m in the picker (1m and 9m stay), no claimed chow, no rule set to choose.
    for tile in OUT_OF_PLAY:
        expect(page.locator(f"[data-picker] [data-tile='{tile}']")).to_be_hidden()
    expect(page.locator("[data-picker] [data-tile='0m']")).to_be_hidden()
    expect(page.locator("[data-picker] [data-tile='1m']")).to_be_visible()
    expect(page.locator("[data-picker] [data-tile='9m']")).to_be_visible()
    expect(page.locator("[data-picker] [data-tile='0p']")).to_be_visible()
    expect(page.locator("input[data-mode][value='chow']").locator("..")).to_be_hidden()
    assert page.locator("[name='option:preset']").count() == 0
    # Three seats: East, South and West, as seat, discarder and round.
    choose(page, "win", "discard")
    for name in ("seat", "discarder", "round"):
        assert shown_seats(page, name) == ["E", "S", "W"], name
    choose(page, "win", "self_draw")
    # The kita counter runs 0 to 4; at four no North is left for the hand.
    label = page.locator("[data-field='kita'] .aside-label")
    assert label.inner_text() == "Kita 抜きドラ (North tiles set aside)"
    for _ in range(4):
        kita(page, "1")
    expect(page.locator("[data-aside-count]")).to_have_text("4")
    expect(page.locator("[data-aside='1']")).to_be_disabled()
    expect(page.locator("[data-picker] [data-tile='4z']")).to_be_disabled()
    for _ in range(3):
        kita(page, "-1")
    expect(page.locator("[data-aside-count]")).to_have_text("1")
    expect(page.locator("[data-picker] [data-tile='4z']")).to_be_enabled()

    tap_tiles(page, HAND)
    choose(page, "seat", "S")
    expect(page.locator("[data-call]")).to_have_text("1300-2600")
    assert page.locator("[data-han-fu]").inner_text() == "4 han 20 fu"
    yaku = page.locator(".patterns [data-pattern]")
    assert [item.get_attribute("data-pattern") for item in yaku.all()] == [
        "menzen_tsumo",
        "pinfu",
        "tanyao",
        "kita",
    ]
    assert page.locator("[data-pattern='kita']").inner_text().split("\n") == [
        "Kita 抜きドラ",
        "1 han",
    ]
    assert page.locator(".fu-line").inner_text() == "Pinfu self-draw 20 → 20 fu"
    assert page.locator(".transfers").inner_text().split("\n") == [
        "East pays South",
        "2,600",
        "West pays South",
        "1,300",
    ]
    assert net(page) == {"E": "-2,600", "S": "+3,900", "W": "-1,300"}
    # With kita the replacement tile wins a rinshan kaihou, no kong needed.
    page.locator("#events-panel summary").click()
    expect(page.locator("#events input[value='replacement']")).to_be_enabled()
    assert page.evaluate("document.documentElement.scrollWidth") <= 375, "no sideways scrolling"

    # North's share split between the two payers.
    page.locator("#options-panel summary").click()
    page.select_option("[name='option:tsumo']", "bisection")
    expect(page.locator("[data-call]")).to_have_text("2000-3300")
    assert net(page) == {"E": "-3,300", "S": "+5,300", "W": "-2,000"}


def test_a_sanma_hand_from_riichi_loses_its_2m_8m_and_north_seat(desktop: Tab) -> None:
    page = desktop.page
    desktop.goto("/?lang=en")
    page.select_option("#profile", "riichi")
    tap_tiles(page, "1m 5m 9m")
    choose(page, "seat", "N")
    page.select_option("#profile", "sanma")
    hand = page.locator("#hand-editor [data-hand] use").evaluate_all(
        "uses => uses.map(use => use.getAttribute('href').split('#t-')[1])"
    )
    assert hand == ["1m", "9m"]
    expect(page.locator("input[name='seat'][value='E']")).to_be_checked()


def test_a_sanma_self_draw_with_kita_in_simplified_chinese(desktop: Tab) -> None:
    page = sanma_page(desktop, "zh-Hans")
    for tile in OUT_OF_PLAY:
        expect(page.locator(f"[data-picker] [data-tile='{tile}']")).to_be_hidden()
    assert shown_seats(page, "seat") == ["E", "S", "W"]
    assert page.locator("[data-field='kita'] .aside-label").inner_text() == "拔北宝牌（拔出的北）"
    kita(page, "1")
    tap_tiles(page, HAND)
    choose(page, "seat", "S")
    expect(page.locator("[data-call]")).to_have_text("1300-2600")
    assert page.locator("[data-han-fu]").inner_text() == "4番20符"
    names = page.locator(".patterns [data-pattern] .pattern-name")
    assert names.all_inner_texts() == ["门前清自摸和", "平和", "断幺九", "拔北宝牌"]
    assert page.locator("[data-pattern='kita'] .pattern-tai").inner_text() == "1番"
    assert page.locator(".transfers").inner_text().split("\n") == [
        "东家 付给 南家",
        "2,600",
        "西家 付给 南家",
        "1,300",
    ]
    assert net(page) == {"E": "-2,600", "S": "+3,900", "W": "-1,300"}
    page.locator("#options-panel summary").click()
    tsumo = page.locator("[name='option:tsumo'] option")
    assert tsumo.all_inner_texts() == ["自摸损：各家照四人桌支付", "折半：北家的份额由两家平分"]


@pytest.mark.parametrize("lang", ["en", "zh-Hans"])
def test_sanma_calculator_screenshots(phone: Tab, desktop: Tab, lang: str) -> None:
    """The page at 375 and 1280 px in each language, a kita hand scored (for the eye)."""
    for tab in (phone, desktop):
        page = sanma_page(tab, lang)
        kita(page, "1")
        tap_tiles(page, HAND)
        choose(page, "seat", "S")
        expect(page.locator("[data-call]")).to_have_text("1300-2600")
        assert (
            page.evaluate("document.documentElement.scrollWidth") <= tab.page.viewport_size["width"]
        ), "no sideways scrolling"
        tab.screenshot(f"sanma-calculator-{lang}")

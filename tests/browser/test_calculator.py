"""The calculator in a real browser: score a hand by tapping tiles, read the breakdown."""

from __future__ import annotations

import re
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

Tab = Any  # tests/browser/conftest.py's Tab: a Playwright page, its base URL and its errors


def tap_tiles(page: Any, tiles: str) -> None:
    """Tap picker tiles given as MPSZ tokens separated by spaces ("1m 2m 7z")."""
    for tile in tiles.split():
        page.locator(f"[data-picker] [data-tile='{tile}']").click()


def choose(page: Any, name: str, value: str) -> None:
    page.locator(f"input[name='{name}'][value='{value}'] + span").click()


def set_mode(page: Any, mode: str) -> None:
    page.locator(f"[data-hand-editor] input[data-mode][value='{mode}'] + span").click()


def build_dragon_hand(page: Any) -> None:
    """123m 456p 55s with pungs of red and green dragons declared, the plum flower, won on
    South's discard in the South round: 3 tai in sg (the example of docs/contract.md)."""
    set_mode(page, "pung")
    tap_tiles(page, "7z")
    # A group is declared one at a time: the editor is back on single tiles.
    expect(page.locator("[data-hand-editor] input[data-mode][value='tile']")).to_be_checked()
    set_mode(page, "pung")
    tap_tiles(page, "6z")
    tap_tiles(page, "1m 2m 3m 4p 5p 6p 5s 5s")
    page.locator("[data-bonus-panel] summary").click()
    # sg counts no animal: the calculator offers none (sg-table does).
    assert page.locator("[data-bonus-row='a']").is_hidden()
    page.locator("[data-bonus='1f']").click()
    choose(page, "win", "discard")
    choose(page, "discarder", "S")
    choose(page, "round", "S")


def test_score_a_hand_by_tapping_tiles_on_a_phone(phone: Tab) -> None:
    page = phone.page
    phone.goto("/?lang=en")
    build_dragon_hand(page)
    # The answer to the last change (the round) can arrive after an earlier one that already
    # showed 3 tai as a self-draw: wait for the discard's money before reading the rest.
    expect(page.locator(".net [data-seat='E'] dd")).to_have_text("+16")
    expect(page.locator("[data-total]")).to_have_attribute("data-total", "3")
    verdict = page.locator("#result-body [data-verdict='good']")
    assert "3 tai" in verdict.inner_text()
    dragon = page.locator("[data-pattern='dragon_set']")
    assert "Dragon set" in dragon.inner_text()
    assert "2 tai" in dragon.inner_text()
    assert dragon.locator(".mini-group").count() == 2
    assert page.locator("[data-pattern='seat_flower']").count() == 1
    transfers = page.locator(".transfers").inner_text()
    assert "South pays East" in transfers and "8" in transfers
    assert page.locator(".net [data-seat='E'] dd").inner_text() == "+16"
    bar = page.locator("#result-bar")
    assert bar.is_visible() and "3 tai" in bar.inner_text()
    assert page.locator("[data-count]").inner_text() == "14 of 14 tiles"
    assert page.evaluate("document.documentElement.scrollWidth") <= 375, "no sideways scrolling"
    phone.screenshot("calculator-hand")
    page.locator("#result").scroll_into_view_if_needed()
    phone.screenshot("calculator-result", full_page=False)


def test_one_tile_short_shows_the_waits_and_what_each_scores(phone: Tab) -> None:
    page = phone.page
    phone.goto("/?lang=en")
    tap_tiles(page, "7m 8m 9m 1s 2s 2s 3s 3s 3s 3s 4s 4s 5s")
    expect(page.locator("[data-count]")).to_have_text("13 of 14 tiles")
    wait = page.locator("[data-wait='6s']")
    expect(wait).to_be_visible()
    assert "tai" in wait.inner_text()
    assert page.locator("[data-wait]").count() == 1
    expect(page.locator("#result-bar")).to_contain_text("One tile short")
    phone.screenshot("calculator-waits")
    wait.click()
    expect(page.locator("[data-count]")).to_have_text("14 of 14 tiles")
    expect(page.locator("#result-body [data-verdict='good']")).to_be_visible()
    assert page.locator("[data-pattern='full_flush']").count() == 0  # 789m: not one suit
    assert page.locator(".winning-tile [data-remove]").get_attribute("aria-label") == (
        "Take out 6 of bamboo"
    )


def test_desktop_in_english_then_traditional_chinese(desktop: Tab) -> None:
    page = desktop.page
    desktop.goto("/?lang=en")
    build_dragon_hand(page)
    expect(page.locator("[data-total]")).to_have_attribute("data-total", "3")
    assert page.locator("#result-bar").is_hidden(), "the phone's bar is not shown on a desktop"
    desktop.screenshot("calculator-en")
    page.locator(".lang-switch button[value='zh-Hant']").click()
    page.wait_for_selector("html[lang='zh-Hant'] body[data-ready='true']")
    expect(page.locator("[data-total]")).to_have_attribute("data-total", "3")
    assert "計算台數" in page.locator("h1").inner_text()
    assert "三元刻" in page.locator("[data-pattern='dragon_set']").inner_text()
    assert "3 台" in page.locator("[data-verdict='good']").inner_text()
    assert "南家 付給 東家" in page.locator(".transfers").inner_text()
    assert page.locator("input[name='win'][value='discard']").is_checked(), "context kept"
    desktop.screenshot("calculator-zh")


def test_a_phone_in_simplified_chinese(phone: Tab) -> None:
    """zh-Hans from the menu: the words, the reviewed terms, hk's option with its value, and a
    Simplified (SC) face before any Traditional one."""
    page = phone.page
    phone.goto("/?lang=en")
    page.locator(".lang-switch button[value='zh-Hans']").click()
    page.wait_for_selector("html[lang='zh-Hans'] body[data-ready='true']")
    assert page.locator("h1").inner_text() == "计算台数"
    build_dragon_hand(page)
    # As on the English phone: the last change's answer can come after an earlier one (2 tai
    # before the round was set), so wait for the discard's money before reading the rest.
    expect(page.locator(".net [data-seat='E'] dd")).to_have_text("+16")
    assert "三元刻" in page.locator("[data-pattern='dragon_set']").inner_text()
    assert "3 台" in page.locator("[data-verdict='good']").inner_text()
    assert "南家 付给 东家" in page.locator(".transfers").inner_text()
    fonts = page.evaluate("getComputedStyle(document.body).fontFamily")
    assert fonts.index("Noto Sans CJK SC") < fonts.index("WenQuanYi Zen Hei")
    assert "CJK TC" not in fonts
    assert page.evaluate("document.documentElement.scrollWidth") == 375, "nothing overflows"
    page.select_option("#profile", "hk")
    assert page.locator("h1").inner_text() == "计算番数"
    options = page.locator("#options")
    options.evaluate("box => box.closest('details').open = true")
    expect(options).to_contain_text("七对可以胡（4 番）")  # noqa: RUF001
    phone.screenshot("calculator-zh-Hans")


def test_the_calculator_works_from_the_keyboard(desktop: Tab) -> None:
    page = desktop.page
    desktop.goto("/?lang=en")
    page.locator("[data-picker] [data-tile='1m']").focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    page.keyboard.press("Space")
    expect(page.locator("[data-count]")).to_have_text("2 of 14 tiles")
    assert page.evaluate("document.activeElement.dataset.tile") == "2m"
    page.locator("[data-hand-editor] input[data-mode][value='tile']").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.locator("input[data-mode][value='pung']").is_checked()
    page.locator("[data-picker] [data-tile='5z']").focus()
    page.keyboard.press("Enter")
    expect(page.locator("[data-count]")).to_have_text("5 of 14 tiles")
    page.locator(".winning-tile [data-remove]").focus()
    page.keyboard.press("Enter")
    expect(page.locator("[data-count]")).to_have_text("4 of 14 tiles")
    assert page.evaluate("document.activeElement.closest('[data-hand]') !== null")


def test_taiwan_asks_for_seventeen_tiles_and_the_dealer(phone: Tab) -> None:
    page = phone.page
    phone.goto("/?lang=en")
    page.select_option("#profile", "tw")
    expect(page.locator("[data-count]")).to_have_text("0 of 17 tiles")
    assert page.locator("fieldset[data-field='dealer']").is_visible()
    assert page.locator("#field-table_discards").count() == 1
    assert page.locator("[data-bonus-row='a']").is_hidden()
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    tap_tiles(page, "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p 4p 5p 6p 1s 1s")
    expect(page.locator("#result-body [data-verdict='good']")).to_be_visible()
    assert page.locator("[data-pattern='pure_straight']").count() == 1
    page.locator("#options-panel summary").click()
    assert page.locator("#field-option\\:per_tai").is_visible()
    phone.screenshot("calculator-tw")


def test_the_api_reference_page(phone: Tab) -> None:
    page = phone.page
    page.goto(phone.base + "/docs")
    assert page.locator("#post--api-score").is_visible()
    phone.screenshot("api-docs")


def test_a_phone_gets_finger_sized_tiles_whole_labels_and_a_one_line_bar(phone: Tab) -> None:
    page = phone.page
    phone.goto("/?lang=en")
    # A suit on one row (tests/browser/test_table_night.py): a tile as tall as a finger needs,
    # and narrower, as tiles stand side by side on the table.
    box = page.locator("[data-picker] [data-tile='1m']").bounding_box()
    assert box["height"] >= 42 and box["width"] >= 30, box
    tap_tiles(page, "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p 5s")
    expect(page.locator("#result-bar")).to_have_text(re.compile("One tile short"))
    bar = page.locator("#result-bar").bounding_box()
    assert bar["height"] <= 64, "the result bar stays one line"
    label = page.locator(".winning-tile .hand-group-label")
    assert label.inner_text() == "winning tile"
    left = label.bounding_box()["x"]
    hand_left = page.locator("[data-hand]").bounding_box()["x"]
    assert left >= hand_left, "the label is not cut by the hand's edge"
    # The hand is one tile short: a pung (three more) does not fit, a single tile does.
    set_mode(page, "pung")
    assert page.locator("[data-picker] [data-tile='9s']").is_disabled()
    set_mode(page, "tile")
    tap_tiles(page, "5s")
    expect(page.locator("[data-count]")).to_have_text("14 of 14 tiles")
    assert page.locator("[data-picker] [data-tile='9s']").is_disabled(), "no 15th tile"
    phone.screenshot("calculator-one-line-bar", full_page=False)


def test_sg_offers_no_animal_tiles_and_sg_table_does(phone: Tab) -> None:
    page = phone.page
    phone.goto("/?lang=en")
    page.locator("#profile").select_option("sg")
    page.locator("[data-bonus-panel] summary").click()
    expect(page.locator("[data-bonus-row='a']")).to_be_hidden()
    page.locator("#profile").select_option("sg-table")
    expect(page.locator("[data-bonus-row='a']")).to_be_visible()


def test_the_api_reference_fits_a_phone(phone: Tab) -> None:
    phone.page.goto(phone.base + "/docs?lang=en")
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= 375


FITS = """() => {
  const select = document.querySelector('#profile');
  const style = getComputedStyle(select);
  const context = document.createElement('canvas').getContext('2d');
  context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const text = select.selectedOptions[0].text;
  const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const badges = [...document.querySelectorAll('[data-picker] .tile-button .badge')]
    .filter((badge) => badge.offsetParent !== null)
    .map((badge) => badge.getBoundingClientRect().right
      - badge.parentElement.getBoundingClientRect().right);
  const width = document.documentElement.clientWidth;
  const beyond = [...document.querySelectorAll('body *')]
    .filter((node) => node.getBoundingClientRect().right > width + 0.5).length;
  return {text, textWidth: context.measureText(text).width, room, badges, beyond,
          about: document.querySelector('#profile-about').innerText};
}"""


@pytest.mark.parametrize("lang", ["en", "zh-Hans", "zh-Hant"])
def test_at_375_px_the_rules_and_the_tile_badges_fit(phone: Tab, lang: str) -> None:
    page = phone.page
    phone.goto(f"/?lang={lang}")
    for profile in ("sg", "sg-table", "tw", "hk", "riichi", "mcr", "sanma"):
        page.select_option("#profile", profile)
        tap_tiles(page, "1m 1m 9m")
        found = page.evaluate(FITS)
        # The select names the rules whole; what they are is said beneath it.
        assert found["textWidth"] <= found["room"], (profile, found)
        assert found["about"] != "", profile
        # A tile's count badge stays within its button's right edge, and nothing runs past
        # the screen's.
        assert len(found["badges"]) == 2 and max(found["badges"]) <= 0, (profile, found)
        assert found["beyond"] == 0, (profile, found)
        page.locator("[data-hand-editor] [data-fresh]").click()

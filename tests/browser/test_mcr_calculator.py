"""The calculator on the mcr profile in a real browser: each fan with its value and the tiles
behind it, the payments, the events the engine would refuse disabled with the reason, flower
tiles offered only when flowers are played, the minimum of 8 fan, the fan's Chinese names."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

Tab = Any  # tests/browser/conftest.py's Tab: a Playwright page, its base URL and its errors

# 123m 456m 789m 123p and 5p on South's discard: a pure straight, 23 fan.
STRAIGHT = "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p 5p 5p"
# The same on the 3p, an edge wait: no other 3p is held, so that it may rob a kong.
EDGE = "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 5p 5p 3p"
# 234m 345m 567p 678s 55s on West's discard: concealed hand, all chows, all simples: 6 fan,
# under the minimum.
SIX_FAN = "2m 3m 4m 3m 4m 5m 5p 6p 7p 6s 7s 8s 5s 5s"
# Where the screenshots go (`COMPANION_SHOTS` for another folder).
SHOTS = Path(
    os.environ.get("COMPANION_SHOTS", Path(__file__).parents[2] / "artifacts" / "screenshots")
)


def tap_tiles(page: Any, tiles: str) -> None:
    for tile in tiles.split():
        page.locator(f"[data-picker] [data-tile='{tile}']").click()


def choose(page: Any, name: str, value: str) -> None:
    page.locator(f"input[name='{name}'][value='{value}'] + span").click()


def event(page: Any, name: str) -> Any:
    return page.locator(f"#events input[value='{name}']")


def why(page: Any, name: str) -> Any:
    return page.locator(f"#events [data-event='{name}'] .check-why")


def mcr_page(tab: Tab, lang: str = "en") -> Any:
    page = tab.page
    tab.goto(f"/?lang={lang}")
    page.select_option("#profile", "mcr")
    return page


def fan_shown(page: Any) -> list[tuple[str, str, str, list[str]]]:
    """Each fan as shown: its id, name, value, and the groups drawn beside it (or the words
    saying it is the whole hand)."""
    return page.locator(".patterns [data-pattern]").evaluate_all(
        """items => items.map(item => [
            item.dataset.pattern,
            item.querySelector('.pattern-name').innerText,
            item.querySelector('.pattern-tai').innerText,
            item.querySelector('.pattern-tiles.hint')
                ? [item.querySelector('.pattern-tiles').innerText]
                : [...item.querySelectorAll('.pattern-tiles .mini-group')]
                    .map(group => group.dataset.group),
        ])"""
    )


def shoot(tab: Tab, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    tab.page.evaluate("window.scrollTo(0, 0)")
    tab.page.screenshot(path=str(SHOTS / f"mcr-{name}.png"), full_page=True)
    tab.page.locator("#result").screenshot(path=str(SHOTS / f"mcr-{name}-result.png"))


def enter_straight(page: Any) -> None:
    tap_tiles(page, STRAIGHT)
    choose(page, "win", "discard")
    choose(page, "discarder", "S")


WHOLE = "the whole hand"


def test_an_mcr_hand_shows_each_fan_with_its_tiles_and_the_payments(phone: Tab) -> None:
    page = mcr_page(phone)
    # Flowers are not played unless the option says so: no flower tile is offered.
    assert page.locator("[data-bonus-panel]").is_hidden()
    enter_straight(page)
    expect(page.locator(".total")).to_have_attribute("data-total", "23")
    assert fan_shown(page) == [
        ["pure_straight", "Pure straight", "16 fan", ["123m", "456m", "789m"]],
        ["concealed_hand", "Concealed hand", "2 fan", [WHOLE]],
        ["all_chows", "All chows", "2 fan", [WHOLE]],
        ["mixed_double_chow", "Mixed double chow", "1 fan", ["123m", "123p"]],
        ["one_voided_suit", "One voided suit", "1 fan", [WHOLE]],
        ["single_wait", "Single wait", "1 fan", ["55p"]],
    ]
    assert page.locator(".total").inner_text().split("\n") == ["Total", "23 fan"]
    transfers = page.locator(".transfers").inner_text().split("\n")
    assert transfers == [
        "South pays East",
        "31",
        "West pays East",
        "8",
        "North pays East",
        "8",
    ]
    net = {seat: page.locator(f".net [data-seat='{seat}'] dd").inner_text() for seat in "ESWN"}
    assert net == {"E": "+47", "S": "-31", "W": "-8", "N": "-8"}
    assert page.evaluate("document.documentElement.scrollWidth") <= 375, "no sideways scrolling"
    shoot(phone, "375-en")


def test_mcr_events_the_engine_refuses_are_disabled_with_the_reason(desktop: Tab) -> None:
    page = mcr_page(desktop)
    enter_straight(page)
    page.locator("#events-panel summary").click()
    expect(event(page, "replacement")).to_be_disabled()
    assert why(page, "replacement").inner_text() == "only on a self-draw"
    expect(event(page, "robbing_kong")).to_be_enabled()
    # What the hand's tiles refuse the engine says: the robbed tile is its kind's last copy.
    event(page, "robbing_kong").check()
    expect(page.locator("[data-verdict='bad'] .verdict-detail")).to_have_text(
        "events: robbing_kong (抢杠和): the robbed 5 of circles is the fourth copy, "
        "so the winner holds no other"
    )
    event(page, "robbing_kong").uncheck()
    page.locator("[data-fresh]").click()
    tap_tiles(page, EDGE)
    choose(page, "win", "discard")
    choose(page, "discarder", "S")
    event(page, "robbing_kong").check()
    expect(page.locator(".total")).to_have_attribute("data-total", "31")
    assert fan_shown(page)[1] == ["robbing_the_kong", "Robbing the kong", "8 fan", ["3p"]]
    # No kong is declared on the wall's last tile.
    expect(event(page, "last_tile")).to_be_disabled()
    assert why(page, "last_tile").inner_text() == "not with Robbing a kong"
    event(page, "robbing_kong").uncheck()
    event(page, "last_tile").check()
    expect(page.locator("[data-pattern='last_tile_claim']")).to_be_visible()
    assert page.locator(".total").get_attribute("data-total") == "31"
    assert fan_shown(page)[1] == ["last_tile_claim", "Last tile claim", "8 fan", ["3p"]]
    expect(event(page, "robbing_kong")).to_be_disabled()
    # A self-draw robs no kong, and a replacement tile needs a kong.
    choose(page, "win", "self_draw")
    assert why(page, "robbing_kong").inner_text() == "only on a discard win"
    assert why(page, "replacement").inner_text() == "needs a kong among the declared groups"
    expect(page.locator("[data-pattern='last_tile_draw']")).to_be_visible()
    assert fan_shown(page) == [
        ["pure_straight", "Pure straight", "16 fan", ["123m", "456m", "789m"]],
        ["last_tile_draw", "Last tile draw", "8 fan", ["3p"]],
        ["fully_concealed_hand", "Fully concealed hand", "4 fan", [WHOLE]],
        ["all_chows", "All chows", "2 fan", [WHOLE]],
        ["mixed_double_chow", "Mixed double chow", "1 fan", ["123m", "123p"]],
        ["one_voided_suit", "One voided suit", "1 fan", [WHOLE]],
        ["edge_wait", "Edge wait", "1 fan", ["123p"]],
    ]
    shoot(desktop, "1280-en-events")


def test_flower_tiles_are_offered_only_when_flowers_are_played(desktop: Tab) -> None:
    page = mcr_page(desktop)
    tap_tiles(page, SIX_FAN)
    choose(page, "win", "discard")
    choose(page, "discarder", "W")
    expect(page.locator(".total")).to_have_attribute("data-total", "6")
    # Not a win that pays: headed as under the minimum, which it names, never in green.
    assert page.locator("[data-verdict='good']").count() == 0
    short = page.locator("[data-verdict='short']")
    assert short.locator(".verdict-title").inner_text() == "Under the minimum"
    assert short.locator(".verdict-detail").inner_text() == (
        "6 fan is under the table's minimum of 8"
    )
    expect(page.locator("#result-bar")).to_have_class(re.compile(r"\bshort\b"))
    assert page.locator("#result-bar .result-bar-status").text_content() == (
        "Under the minimum · 6 fan"
    )
    assert page.locator(".transfers").count() == 0
    assert page.locator("[data-bonus-panel]").is_hidden()
    page.locator("#options-panel summary").click()
    page.locator("[name='option:flowers'] + span").click()
    expect(page.locator("[data-bonus-panel]")).to_be_visible()
    # MCR has no animals: the panel is named for what it offers.
    assert page.locator("[data-bonus-panel] summary").inner_text() == "Flowers and seasons"
    assert page.locator("[data-bonus-row='a']").is_hidden()
    page.locator("[data-bonus-panel] summary").click()
    page.locator("[data-bonus='1f']").click()
    page.locator("[data-bonus='3f']").click()
    # Flowers are fan, never toward the minimum of 8.
    expect(page.locator(".total")).to_have_attribute("data-total", "8")
    assert fan_shown(page)[-1] == ["flower_tiles", "Flower tiles\u00d72", "2 fan", ["1f", "3f"]]
    assert page.locator("[data-verdict='short'] .verdict-detail").inner_text() == (
        "6 of the 8 fan count toward the table's minimum of 8; Flower tiles does not"
    )
    assert page.locator(".transfers, .net").count() == 0
    shoot(desktop, "1280-en-flowers")
    # Switched off again, the flowers leave the hand with the tiles offered.
    page.locator("[name='option:flowers'] + span").click()
    expect(page.locator("[data-bonus-panel]")).to_be_hidden()
    expect(page.locator(".total")).to_have_attribute("data-total", "6")


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant"])
def test_the_chinese_pages_name_the_fan_as_the_rule_book_does(desktop: Tab, lang: str) -> None:
    page = mcr_page(desktop, lang)
    enter_straight(page)
    expect(page.locator(".total")).to_have_attribute("data-total", "23")
    names = [row[1] for row in fan_shown(page)]
    if lang == "zh-Hans":
        assert names == ["清龙", "门前清", "平和", "喜相逢", "缺一门", "单钓将"]
        assert page.locator("[data-pattern='pure_straight'] .pattern-tai").inner_text() == "16 番"
        shoot(desktop, "1280-zh-Hans")
    else:
        assert names == ["清龍", "門前清", "平和", "喜相逢", "缺一門", "單釣將"]


def test_the_screenshots_at_both_sizes(phone: Tab, desktop: Tab) -> None:
    for tab, size in ((phone, "375"), (desktop, "1280")):
        for lang in ("en", "zh-Hans"):
            page = mcr_page(tab, lang)
            page.locator("[data-fresh]").click()
            enter_straight(page)
            expect(page.locator(".total")).to_have_attribute("data-total", "23")
            shoot(tab, f"{size}-{lang}")
            # The same page with a hand under the minimum: headed as such, in the language.
            page.locator("[data-fresh]").click()
            tap_tiles(page, SIX_FAN)
            choose(page, "win", "discard")
            choose(page, "discarder", "W")
            expect(page.locator("[data-verdict='short']")).to_be_visible()
            shoot(tab, f"{size}-{lang}-under")

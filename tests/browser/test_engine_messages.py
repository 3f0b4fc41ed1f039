# ruff: noqa: RUF001  (the Chinese messages are written with full-width punctuation, on purpose)
"""The engine's messages as a player reads them (issue 23): a refused hand in the page's
language with its tiles named as the page names them, said once; a hand under hk's minimum
says which faan counted; at a table, Record waits while the hand cannot be recorded."""

from __future__ import annotations

from typing import Any

import pytest
from test_calculator import choose, tap_tiles

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

Tab = Any  # tests/browser/conftest.py's Tab

HK_THREE = "1m 2m 3m 2m 3m 4m 4p 6p 7s 8s 9s 5p 5p 5p"
"""A concealed common hand: on a discard, Common hand, Concealed hand and No flowers, 3 faan."""


def test_a_refused_hand_in_simplified_chinese_once(phone: Tab) -> None:
    page = phone.page
    phone.goto("/?lang=zh-Hans")
    tap_tiles(page, "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p 5s 7s")
    verdict = page.locator("#result-body [data-verdict='bad']")
    expect(verdict).to_contain_text("组不成")
    text = page.locator("#result-body").inner_text()
    assert text.count("不是胡牌") == 1
    assert "一二三四五六七八九万、一二三筒、五七索不是胡牌：组不成四组面子加一对或十三幺。" in text
    assert "123456789m" not in text and "winning hand" not in text
    # One tile short: the waits by their Chinese names.
    page.locator("[data-hand-editor] [data-clear]").click()
    tap_tiles(page, "1m 2m 3m 4m 5m 6m 7m 8m 9m 2p 3p 5s 5s")
    expect(page.locator("#result-body [data-verdict='waiting']")).to_contain_text("一筒、四筒")


def test_the_hk_minimum_note_says_which_faan_count(desktop: Tab) -> None:
    page = desktop.page
    desktop.goto("/?lang=zh-Hant")
    page.locator("#profile").select_option("hk")
    tap_tiles(page, HK_THREE)
    choose(page, "seat", "S")
    choose(page, "win", "discard")
    choose(page, "discarder", "E")
    expect(page.locator("#result-body .verdict-detail")).to_have_text(
        "3番中只有2番計入本桌起糊的3番；無花不計。"
    )
    # Said once: not again, in English, among the notes.
    assert "minimum" not in page.locator("#result-body").inner_text()
    desktop.goto("/?lang=en")
    expect(page.locator("#result-body .verdict-detail")).to_have_text(
        "2 of the 3 faan count toward the table's minimum of 3; No flowers does not"
    )


def test_a_refused_event_names_its_seats_and_events_in_traditional_chinese(desktop: Tab) -> None:
    page = desktop.page
    desktop.goto("/?lang=zh-Hant")
    tap_tiles(page, "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p 5s 5s")
    choose(page, "seat", "S")
    page.locator("#events-panel summary").click()
    choose(page, "events", "heavenly")
    expect(page.locator("#result-body .verdict-detail")).to_have_text(
        "天胡是莊家的胡：南家不是莊家（莊家是東家）。"
    )
    choose(page, "seat", "E")
    choose(page, "events", "last_tile")
    expect(page.locator("#result-body .verdict-detail")).to_have_text(
        "天胡是莊家起手就胡，不能同時有海底撈月。"
    )


def test_record_waits_while_the_hand_cannot_be_recorded(desktop: Tab) -> None:
    page = desktop.page
    response = page.request.post(
        desktop.base + "/api/tables",
        data={"profile": "hk", "players": ["Ann", "Ben", "Cat", "Dan"]},
    )
    data = response.json()
    desktop.goto(f"/t/{data['id']}?lang=zh-Hant#token={data['token']}")
    choose(page, "winner", "1")
    choose(page, "from", "0")
    choose(page, "entry", "hand")
    tap_tiles(page, HK_THREE)
    expect(page.locator("#hand-preview .verdict-detail")).to_have_text(
        "3番中只有2番計入本桌起糊的3番；無花不計。"
    )
    expect(page.locator("#record-submit")).to_be_disabled()
    expect(page.locator("#pays-preview")).to_be_hidden()
    # Self-drawn it is 4 faan: recordable, and Record is back.
    choose(page, "from", "self")
    expect(page.locator("#record-submit")).to_be_enabled()
    expect(page.locator("#pays-preview")).to_contain_text("Ben")


def test_an_mcr_refusal_in_simplified_chinese(phone: Tab, desktop: Tab) -> None:
    # MCR's own not-a-win, keyed (refusal.mcr_not_a_win): said in the page's language.
    for tab in (phone, desktop):
        page = tab.page
        tab.goto("/?lang=zh-Hans")
        page.select_option("#profile", "mcr")
        tap_tiles(page, "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p 5s 7s")
        verdict = page.locator("#result-body [data-verdict='bad']")
        expect(verdict).to_contain_text("不是胡牌：这些牌组不成四组一对、七对、十三幺、全不靠")
        assert "not a win" not in page.locator("#result-body").inner_text()
        tab.screenshot("mcr-refusal-zh-Hans")

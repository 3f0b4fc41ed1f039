"""The create form's length in a real browser: choosing MCR, whose rules fix the game at 16
hands, takes the planned hands and rounds away and says the length instead (riichi, a line
pointing to its length option); choosing sg brings them back. A length typed before MCR was
chosen is not sent: the table is MCR's 16 hands."""

from __future__ import annotations

import re
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

Tab = Any  # tests/browser/conftest.py's Tab: a Playwright page, its base URL and its errors

PLAYERS = ("Ann", "Ben", "Cat", "Dan")
LINES = {
    "en": "16 hands: four rounds of four. The rules fix the length.",
    "zh-Hans": "16 局：四圈，每圈四局。局数由规则规定。",  # noqa: RUF001
}


def length_shown(page: Any, line: str | None) -> None:
    """The planned hands and rounds shown and sent where no profile's `line` stands for them,
    else neither and that line alone."""
    for field in ("#create-hands", "#create-rounds"):
        if line is None:
            expect(page.locator(field)).to_be_visible()
            expect(page.locator(field)).to_be_enabled()
        else:
            expect(page.locator(field)).to_be_hidden()
            expect(page.locator(field)).to_be_disabled()
    for profile in ("mcr", "riichi"):
        shown = page.locator(f"[data-length-line='{profile}']")
        expect(shown).to_be_visible() if profile == line else expect(shown).to_be_hidden()


def test_choosing_mcr_replaces_the_length_fields_with_its_length(phone: Tab) -> None:
    page = phone.page
    phone.goto("/tables?lang=en")
    length_shown(page, None)
    page.locator("#create-hands").fill("8")

    page.locator("#create-profile").select_option("mcr")
    length_shown(page, "mcr")
    expect(page.locator("[data-length-line='mcr'] .length-line-text")).to_have_text(LINES["en"])
    expect(page.locator("[data-length-line='mcr'] .field-label")).to_have_text("How long to play")

    page.locator("#create-profile").select_option("sg")
    length_shown(page, None)
    expect(page.locator("#create-hands")).to_have_value("8")

    page.locator("#create-profile").select_option("mcr")
    for seat, name in enumerate(PLAYERS):
        page.locator(f"#player{seat}").fill(name)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375, "no sideways scrolling"
    phone.screenshot("mcrform-mcr")
    page.locator("#create-submit").click()
    page.wait_for_url(re.compile(r"/t/[a-z0-9]{8}$"))
    page.wait_for_selector("body[data-ready='true']")
    expect(page.locator("#scoreboard [data-status]")).to_contain_text("Hand 1 of 16")


@pytest.mark.parametrize("lang", ["en", "zh-Hans"])
def test_the_mcr_form_on_a_desktop(desktop: Tab, lang: str) -> None:
    page = desktop.page
    desktop.goto(f"/tables?lang={lang}&profile=mcr")
    expect(page.locator("#create-profile")).to_have_value("mcr")
    length_shown(page, "mcr")
    expect(page.locator("[data-length-line='mcr'] .length-line-text")).to_have_text(LINES[lang])
    page.locator("#create-options summary").click()
    expect(page.locator("[data-profile-options='mcr']")).to_be_visible()
    desktop.screenshot(f"mcrform-mcr-{lang}")
    # Riichi's length is its option: a line says so, and no planned hands or rounds.
    page.locator("#create-profile").select_option("riichi")
    length_shown(page, "riichi")
    desktop.screenshot(f"mcrform-riichi-{lang}")
    page.locator("#create-profile").select_option("sg")
    length_shown(page, None)

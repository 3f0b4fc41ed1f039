"""Starting an event in a real browser: on a phone, the players read from a text file into the
box, an uneven field refused on the form (in 简体 from its key), then byes chosen and the event
started; the organiser's page opens holding the token, shows the organiser's link once, and
seats round 1. On a desktop, choosing MCR takes the planned length away."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

Tab = Any  # tests/browser/conftest.py's Tab: a Playwright page, its base URL and its errors

NINE = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]


def test_an_organiser_starts_an_event_on_a_phone(phone: Tab, tmp_path: Path) -> None:
    page = phone.page
    phone.goto("/events?lang=zh-Hans")
    page.locator("#event-name").fill("Club night")
    listing = tmp_path / "players.txt"
    listing.write_text("\n".join(f" {name} " for name in NINE) + "\n\n", encoding="utf-8")
    page.locator("#players-file").set_input_files(str(listing))
    expect(page.locator("#event-players")).to_have_value("\n".join(NINE))
    assert page.evaluate("document.documentElement.scrollWidth") <= 375, "no sideways scrolling"
    phone.screenshot("event-form-zh-Hans")
    page.locator("#create-submit").click()

    # Nine players and no choice for the one over: refused on the form, the names kept.
    expect(page.locator("#create-error p").nth(1)).to_have_text(
        "9 名玩家按四人一桌会多出 1 人：可再请 3 人替补，或让其中 1 人轮空。"  # noqa: RUF001
    )
    expect(page.locator("#event-players")).to_have_value("\n".join(NINE))
    phone.screenshot("event-form-refused-zh-Hans")
    # The refused form is a 422 page, which Chromium logs: that one is expected.
    assert phone.errors == [
        "Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)"
    ]
    phone.errors.clear()

    page.locator("#event-leftover").select_option("byes")
    page.locator("#create-submit").click()
    page.wait_for_url(re.compile(r"/e/[a-z0-9]+/organiser"))
    page.wait_for_selector("body[data-ready='true']")
    assert "token" not in page.url, "the token leaves the address bar once kept"
    expect(page.locator("#new-event")).to_be_visible()
    link = page.locator("#organiser-link").input_value()
    event_id = page.url.split("/e/")[1].split("/")[0]
    assert re.fullmatch(rf"{re.escape(phone.base)}/e/{event_id}#token=[A-Za-z0-9_-]+", link)
    expect(page.locator("#seat-next")).to_have_text("排第 1 轮座位")
    phone.screenshot("event-started-zh-Hans")
    page.locator("#seat-next").click()
    expect(page.locator("#action-status")).to_have_text("第 1 轮已排座。")
    expect(page.locator(".seating-table")).to_have_count(2)

    # Opened again, the page keeps the token and shows no organiser's link.
    phone.goto(f"/e/{event_id}/organiser?lang=en")
    expect(page.locator("#seat-next")).to_have_text("Seat round 2")
    expect(page.locator("#new-event")).to_be_hidden()


def test_choosing_mcr_for_an_event_takes_the_length_away(desktop: Tab) -> None:
    page = desktop.page
    desktop.goto("/events?lang=en")
    expect(page.locator("#create-hands")).to_be_visible()
    page.locator("#create-profile").select_option("mcr")
    expect(page.locator("#create-hands")).to_be_hidden()
    expect(page.locator("[data-length-line='mcr'] .length-line-text")).to_have_text(
        "16 hands: four rounds of four. The rules fix the length."
    )
    page.locator("#seating-options summary").click()
    desktop.screenshot("event-form")

"""Seating the next round while tables still play, in real browsers (issue 37): the organiser's
page names the tables still playing in a dialog before it seats anything, a seating made before
its first hand can be taken back, and the leaderboard keeps every unfinished table of every
round linked with its own round's timer. In English and 简体中文, at 375 and 1280 px, with
screenshots in artifacts/screenshots/."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import httpx
import pytest
from devices import DESKTOP, PHONE
from test_event_leaderboard import Device

from companion.api import create_app
from companion.ledger.event_book.service import EventBook
from companion.ledger.repository import Ledger

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

EIGHT = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
CONFIRM = {
    "en": (
        "Tables still playing",
        "Seat round 2 anyway",
        "Not yet",
        "Round 1 · Table 2",
        "Round 2 seated.",
    ),
    "zh-Hans": (
        "仍有牌桌在对局",
        "仍然排第 2 轮座位",
        "暂不",
        "第 1 轮 · 第 2 桌",
        "第 2 轮已排座。",
    ),
}


class Night:
    def __init__(self, base: str, book: EventBook, event: str, token: str, tables: list[str]):
        self.base, self.book, self.event, self.token, self.tables = base, book, event, token, tables

    def win(self, table: str, winner: str, discarder: str) -> None:
        token = self.book.write_tokens(self.event, self.token)[table]
        response = httpx.post(
            f"{self.base}/api/tables/{table}/hands",
            json={"kind": "win", "winner": winner, "from": discarder, "tai": 1},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert response.status_code == 201, response.text


@pytest.fixture
def night(
    tmp_path: Path, serve_app: Callable[[Any], AbstractContextManager[str]]
) -> Iterator[Night]:
    """Club night over two rounds, two hands a table: round 1 seated with a 45-minute timer,
    table 1 over, table 2 one hand in."""
    url = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    with Ledger.open(url) as ledger, serve_app(create_app(url)) as base:
        book = EventBook(ledger)
        created = book.create_event(
            "Club night", "sg", {"min_tai": 1}, EIGHT, 2, seed=7, first_round="listed", hands=2
        )
        tables = [table.table for table in book.seat_round(created.id, 1, by="Mia").tables]
        book.start_timer(created.id, 1, 45, by="Mia")
        found = Night(base, book, created.id, created.token, tables)
        found.win(tables[0], "Ann", "Ben")
        found.win(tables[0], "Cat", "Dan")
        found.win(tables[1], "Eve", "Fay")
        yield found


@pytest.mark.parametrize("lang", ["en", "zh-Hans"])
def test_seating_while_tables_play_names_them_first(browser: Any, night: Night, lang: str) -> None:
    title, anyway, wait, listed, seated = CONFIRM[lang]
    phone = Device(browser, night.base, "phone", PHONE)
    desktop = Device(browser, night.base, "desktop", DESKTOP)
    for device in (phone, desktop):
        device.open(f"/e/{night.event}/organiser?lang={lang}#token={night.token}")
        device.page.locator("#seat-next").click()
        dialog = device.page.locator("#confirm-dialog")
        expect(dialog).to_be_visible()
        expect(dialog.locator("#confirm-title")).to_have_text(title)
        # Only the table still playing: table 1 is over. Linked to its page.
        expect(dialog.locator("#confirm-tables li")).to_have_text([listed])
        link = dialog.locator("#confirm-tables a")
        expect(link).to_have_attribute("href", f"/t/{night.tables[1]}")
        expect(dialog.locator("#confirm-ok")).to_have_text(anyway)
        expect(dialog.locator("#confirm-cancel")).to_have_text(wait)
        expect(dialog.locator("#confirm-cancel")).to_be_focused()
        device.fits()
        device.page.screenshot(
            path=str(Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
                     / f"event-seat-confirm-{lang}-{device.name}.png")
        )  # fmt: skip
    # "Not yet": nothing seated.
    phone.page.locator("#confirm-cancel").click()
    expect(phone.page.locator("#confirm-dialog")).to_be_hidden()
    expect(phone.page.locator("#seat-next")).to_be_focused()
    assert len(night.book.event(night.event).seated) == 1
    # Seated all the same from the other device.
    desktop.page.locator("#confirm-ok").click()
    expect(desktop.page.locator("#action-status")).to_have_text(seated)
    expect(desktop.page.locator(".seating-round")).to_have_count(2)
    assert len(night.book.event(night.event).seated) == 2
    phone.close(allowed=("status of 409",))
    desktop.close(allowed=("status of 409",))


def test_a_seating_is_taken_back_before_its_first_hand(browser: Any, night: Night) -> None:
    night.book.seat_round(night.event, 2, confirm=True)
    second = [table.table for table in night.book.event(night.event).seated[1].tables]
    desktop = Device(browser, night.base, "desktop", DESKTOP)
    desktop.open(f"/e/{night.event}/organiser?lang=en#token={night.token}")
    page = desktop.page
    page.locator("summary", has_text="Take back round 2's seating").click()
    page.locator("#unseat-by").fill("Mia")
    page.locator("#unseat").click()
    dialog = page.locator("#confirm-dialog")
    expect(dialog.locator("#confirm-title")).to_have_text("Take back round 2's seating?")
    expect(dialog.locator("#confirm-tables")).to_be_hidden()
    dialog.locator("#confirm-cancel").click()  # "Keep it"
    assert len(night.book.event(night.event).seated) == 2
    page.locator("#unseat").click()
    dialog.locator("#confirm-ok").click()
    expect(page.locator("#action-status")).to_have_text("Round 2 seating taken back.")
    expect(page.locator(".seating-round")).to_have_count(1)
    expect(page.locator(".audit-line").first.locator(".audit-text")).to_have_text(
        "Round 2 seating taken back"
    )
    expect(page.locator(".audit-line").first.locator(".audit-by")).to_have_text("by Mia")
    expect(page.locator("#seat-next")).to_have_text("Seat round 2")
    for table in second:
        expect(page.locator(f"a[href='/t/{table}']")).to_have_count(0)
    # Seated again, and a hand at its table 1: the control is gone.
    night.book.seat_round(night.event, 2, confirm=True)
    again = night.book.event(night.event).seated[1].tables[0]
    night.win(again.table, again.players[0], again.players[1])
    expect(page.locator(".seating-round")).to_have_count(2)
    expect(page.locator("form[data-action='unseat']")).to_have_count(0)
    desktop.close()


@pytest.mark.parametrize("lang", ["en", "zh-Hans"])
def test_the_leaderboard_keeps_every_unfinished_table_linked(
    browser: Any, night: Night, lang: str
) -> None:
    night.book.seat_round(night.event, 2, confirm=True)
    night.book.start_timer(night.event, 2, 60, by="Mia")
    second = [table.table for table in night.book.event(night.event).seated[1].tables]
    heading = {"en": "Round 1 · still playing", "zh-Hans": "第 1 轮 · 仍在对局"}[lang]
    for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        device = Device(browser, night.base, name, viewport)
        device.open(f"/e/{night.event}?lang={lang}")
        page = device.page
        links = page.locator("#round-tables a.event-table-link")
        expect(links).to_have_count(3)  # round 2's two, round 1's table 2
        earlier = page.locator("#round-tables .earlier-round")
        expect(earlier.locator("h3")).to_have_text(heading)
        expect(earlier.locator("a")).to_have_attribute("href", f"/t/{night.tables[1]}")
        for table in second:
            expect(page.locator(f"#round-tables a[href='/t/{table}']")).to_have_count(1)
        timers = page.locator("#event-status [data-timer-text]")
        expect(timers).to_have_count(2)
        left = r"\d\d:\d\d left" if lang == "en" else r"\d\d:\d\d"
        expect(timers.nth(0)).to_have_text(re.compile(left))
        expect(page.locator("#event-status [data-still-playing='1'] .timer-round")).to_have_text(
            heading
        )
        device.fits()
        device.screenshot(f"event-leaderboard-two-rounds-{lang}")
        # Round 1's table finishes: the leaderboard follows, and lists round 2 alone.
        if name == "desktop":
            night.win(night.tables[1], "Gus", "Hal")
            expect(earlier).to_have_count(0, timeout=30_000)
            expect(timers).to_have_count(1)
        device.close()

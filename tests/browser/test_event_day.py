# ruff: noqa: RUF001  (the Chinese messages are written with full-width punctuation, on purpose)
"""A tournament's day on the organiser's page, in a real browser (issue 39): the round's timer
extended, paused and resumed, and the tables running late listed; at 375 and 1280 px, with
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
from test_event_seating import Night

from companion.api import create_app
from companion.ledger.event_book.service import EventBook
from companion.ledger.repository import Ledger
from event_day_helpers import EIGHT, age_entries, age_timers, win

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect


class Day(Night):
    """Night's event and its hands over HTTP (the server's live streams hear of them)."""

    def rules(self, **body: Any) -> None:
        response = httpx.post(
            f"{self.base}/api/events/{self.event}/rules",
            json=body,
            headers={"Authorization": f"Bearer {self.token}"},
        )
        assert response.status_code == 201, response.text

    def organiser(self, browser: Any, name: str, viewport: dict[str, int], lang: str) -> Device:
        device = Device(browser, self.base, name, viewport)
        device.open(f"/e/{self.event}/organiser?lang={lang}#token={self.token}")
        return device


@pytest.fixture
def day(tmp_path: Path, serve_app: Callable[[Any], AbstractContextManager[str]]) -> Iterator[Day]:
    """A night of eight over two rounds, eight hands a table: round 1 seated, Ann, Ben, Cat,
    Dan at table 1, with a 30-minute timer; a hand at each table."""
    url = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    with Ledger.open(url) as ledger, serve_app(create_app(url)) as base:
        book = EventBook(ledger)
        created = book.create_event(
            "Club night", "sg", {"min_tai": 1}, EIGHT, 2, seed=7, first_round="listed", hands=8
        )
        tables = [table.table for table in book.seat_round(created.id, 1, by="Mia").tables]
        book.start_timer(created.id, 1, 30, by="Mia")
        win(ledger, tables[0], "Ann", "Ben")
        win(ledger, tables[1], "Eve", "Fay")
        yield Day(base, book, created.id, created.token, tables)


@pytest.mark.parametrize(("name", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_the_timer_is_extended_paused_and_resumed(
    browser: Any, day: Day, name: str, viewport: dict[str, int]
) -> None:
    device = day.organiser(browser, name, viewport, "en")
    page = device.page
    page.locator("#extend-minutes").fill("10")
    page.locator("#timer-extend").click()
    expect(page.locator("#action-status")).to_have_text("Round 1's timer extended.")
    assert day.book.event(day.event).seated[0].timer.minutes == 40  # type: ignore[union-attr]
    expect(page.locator(".audit-line").first.locator(".audit-text")).to_have_text(
        "Round 1 timer: 10 minutes added"
    )
    page.locator("#timer-pause").click()
    expect(page.locator("#action-status")).to_have_text("Round 1's timer paused.")
    status = page.locator("#event-status [data-timer-text]").first
    expect(status).to_have_text(re.compile(r"Paused · (40:00|39:\d\d) left"))
    shown = status.text_content()
    page.wait_for_timeout(2500)
    expect(status).to_have_text(shown or "")  # it stands still
    device.fits()
    device.screenshot("day-timer-paused")
    page.locator("#timer-resume").click()
    expect(page.locator("#action-status")).to_have_text("Round 1's timer running again.")
    expect(page.locator("#timer-pause")).to_be_visible()
    # The time runs out; the rule "+1 hand": both tables listed as running late.
    age_timers(day.book.ledger, 41)
    age_entries(day.book.ledger, 50)  # the fixture's hands, before the time ran out
    day.rules(time_up_hands=1, by="Mia")
    day.win(day.tables[0], "Cat", "Dan")
    late = page.locator("#late-tables .late-table")
    expect(late).to_have_count(2, timeout=30_000)
    expect(late.nth(0)).to_contain_text("Round 1 · Table 1")
    expect(late.nth(0).locator("strong")).to_have_text("Time's up · last hand")
    expect(late.nth(1).locator("strong")).to_have_text("Time's up · 1 more hand(s) after this one")
    device.fits()
    device.screenshot("day-late-tables")
    device.close()


def test_a_table_page_says_last_hand(browser: Any, day: Day) -> None:
    day.book.set_day_rules(day.event, time_up_hands=1, by="Mia")
    age_timers(day.book.ledger, 31)
    age_entries(day.book.ledger, 40)  # the fixture's hands, before the time ran out
    for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        device = Device(browser, day.base, name, viewport)
        device.open(f"/t/{day.tables[0]}?lang=zh-Hans")
        line = device.page.locator("#table-timer [data-timer-text]")
        expect(line).to_have_text("时间到 · 本局之后再打 1 局")
        if name == "desktop":
            day.win(day.tables[0], "Cat", "Dan")
            expect(line).to_have_text("时间到 · 最后一局", timeout=30_000)
        device.fits()
        device.screenshot("day-table-time-up")
        device.close()


@pytest.mark.parametrize(("name", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_two_players_swap_seats_after_a_hand(
    browser: Any, day: Day, name: str, viewport: dict[str, int]
) -> None:
    before = {row.name: row.total for row in day.book.standings(day.event).rows}
    device = day.organiser(browser, name, viewport, "en")
    page = device.page
    page.locator("summary", has_text="Fix seats at a table").click()
    page.locator("#swap-table").select_option("1")
    page.locator("#swap-first").select_option("Ann")
    page.locator("#swap-second").select_option("Cat")
    page.locator("#swap-by").fill("Mia")
    device.fits()
    device.screenshot("day-swap-form")
    page.locator("#swap-submit").click()
    expect(page.locator("#action-status")).to_have_text(
        "Seats fixed: the table's hands are replayed with them."
    )
    seats = page.locator(f".seating-table[data-table='{day.tables[0]}'] .seat-name")
    expect(seats).to_have_text(["Cat", "Ben", "Ann", "Dan"])
    expect(page.locator(".audit-line").first.locator(".audit-text")).to_have_text(
        "table 1 of round 1: seats fixed to Cat, Ben, Ann, Dan"
    )
    after = {row.name: row.total for row in day.book.standings(day.event).rows}
    assert (after["Cat"], after["Ann"]) == (before["Ann"], before["Cat"])
    # Ann and Eve sit at different tables: refused in the reader's language, nothing changed.
    page.goto(f"{day.base}/e/{day.event}/organiser?lang=zh-Hans")
    page.wait_for_selector("body[data-ready='true']")
    page.locator("summary", has_text="更正牌桌座位").click()
    page.locator("#swap-first").select_option("Cat")
    page.locator("#swap-second").select_option("Eve")
    page.locator("#swap-submit").click()
    expect(page.locator("#action-status")).to_contain_text(
        "Eve 在第 1 轮第 2 桌，不在第 1 桌：只有同一桌的玩家才能互换座位"
    )
    device.screenshot("day-swap-refused-zh")
    assert day.book.event(day.event).seated[0].tables[0].players == ("Cat", "Ben", "Ann", "Dan")
    device.close(allowed=("status of 422",))


@pytest.mark.parametrize(("name", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_a_table_is_ended_early_and_reopened(
    browser: Any, day: Day, name: str, viewport: dict[str, int]
) -> None:
    device = day.organiser(browser, name, viewport, "en")
    page = device.page
    page.locator("summary", has_text="End a table early").click()
    page.locator("#end-table").select_option("2")
    page.locator("#end-void").check()
    page.locator("#end-reason").fill("fire alarm")
    page.locator("#end-by").fill("Mia")
    device.fits()
    device.screenshot("day-end-form")
    page.locator("#end-submit").click()
    expect(page.locator("#action-status")).to_have_text(
        "The table is ended: the standings count it."
    )
    table = page.locator(f".seating-table[data-table='{day.tables[1]}'] [data-table-status]")
    expect(table).to_have_text("ended early: void · hands: 1")
    expect(page.locator(".audit-line").first.locator(".audit-text")).to_have_text(
        "table 2 of round 1 ended early (void): fire alarm"
    )
    expect(page.locator("#ended-tables .ended-table")).to_have_text(
        ["Round 1 · Table 2 · void Reopen"]
    )
    assert day.book.event(day.event).seated[0].tables[1].ended == "void"
    # Eve, Fay, Gus and Hal score the void score (0) for it: Eve's +4 is gone.
    totals = {row.name: row.total for row in day.book.standings(day.event).rows}
    assert (totals["Eve"], totals["Fay"]) == (0, 0)
    device.fits()
    device.screenshot("day-ended")
    page.locator("#reopen-1-2").click()
    expect(page.locator("#action-status")).to_have_text("The table is reopened: it plays on.")
    expect(page.locator("#ended-tables")).to_have_count(0)
    assert day.book.event(day.event).seated[0].tables[1].ended is None
    device.close()


def test_the_printed_results_and_round_sheet(browser: Any, day: Day) -> None:
    """The results and the round sheet at 375 and 1280 px, and printed to A4 PDFs (Chromium's
    print): no script, nothing wider than the page, every table's QR code drawn."""
    day.book.set_entrant(day.event, "Ann", ema_id="04010123", country="GBR")
    for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        device = Device(browser, day.base, name, viewport)
        for path, label in (
            (f"/e/{day.event}/results?lang=en", "day-print-results"),
            (f"/e/{day.event}/rounds/1/sheet?lang=zh-Hans", "day-print-sheet"),
        ):
            device.page.goto(day.base + path)
            images = device.page.locator("img")
            for index in range(images.count()):
                assert images.nth(index).evaluate("image => image.naturalWidth > 0")
            device.fits()
            device.screenshot(label)
            if name == "desktop":
                pdf = Path(__file__).resolve().parents[2] / "artifacts" / "pdf" / f"{label}.pdf"
                pdf.parent.mkdir(parents=True, exist_ok=True)
                device.page.pdf(path=str(pdf), format="A4", print_background=True)
                assert pdf.read_bytes().startswith(b"%PDF")
        results = device.page
        results.goto(day.base + f"/e/{day.event}/results?lang=en")
        expect(results.locator("table.results tbody tr")).to_have_count(8)
        expect(results.locator("table.results tbody tr").first).to_contain_text("04010123")
        device.close()

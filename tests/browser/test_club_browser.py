"""A club's pages in real browsers: the leaderboard and a player's page at phone and desktop
widths (no sideways scroll, no console error: the strict CSP holds), the minimum-games filter
sent from the form, a player reached from the leaderboard, the rating chart and the places
drawn, the head-to-head headings whole on a phone; an event of the club whose page says round 1
was seated balanced by rating. The club's pages are read as loaded (their script only reads a
private club again with a kept token). Screenshots of each."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest
from devices import DESKTOP, PHONE
from test_event_leaderboard import SCREENSHOTS, Device

from club_season import play_season
from companion.api import create_app
from companion.ledger.club_book.service import ClubBook
from companion.ledger.repository import Ledger

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]


@pytest.fixture
def club(
    tmp_path: Path, serve_app: Callable[[Any], AbstractContextManager[str]]
) -> Iterator[tuple[str, str, ClubBook]]:
    url = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    with Ledger.open(url) as ledger, serve_app(create_app(url)) as base:
        book = ClubBook(ledger)
        created = book.create_club("Thursday Riichi")
        play_season(book, created.id, PLAYERS, 24, seed=11)
        book.add_player(created.id, "Kim Ngozi-Fairweather", nickname="Kimmy")
        yield base, created.id, book


def test_the_leaderboard_and_a_players_page(browser: Any, club: tuple[str, str, ClubBook]) -> None:
    base, club_id, book = club
    record, ratings = book.ratings(club_id)
    best = [record.name_of(player.player) for player in ratings.leaderboard(record.rating)]
    for viewport, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        device = Device(browser, base, name, viewport)
        page = device.page
        # Server-rendered, without a script of their own: loaded is ready.
        page.goto(f"{base}/c/{club_id}?lang=en")
        expect(page.locator("[data-leaderboard] tbody tr")).to_have_count(len(best))
        expect(page.locator("[data-leaderboard] tbody tr .col-name")).to_have_text(best)
        device.fits()
        device.screenshot("club-leaderboard")
        most = max(player.games for player in ratings.players.values())
        page.fill("input[name=min_games]", str(most))
        page.click(".club-filters button[type=submit]")
        page.wait_for_url(f"**/c/{club_id}?**min_games={most}**")
        kept = [p.player for p in ratings.leaderboard(record.rating, most)]
        expect(page.locator("[data-leaderboard] tbody tr")).to_have_count(len(kept))
        page.locator("[data-leaderboard] tbody tr .col-name a").first.click()
        expect(page.locator("[data-player-name]")).to_contain_text(record.name_of(kept[0]))
        chart = page.locator("[data-rating-chart]")
        expect(chart).to_be_visible()
        assert chart.bounding_box()["width"] >= min(300, viewport["width"] - 60)
        expect(page.locator("[data-histogram] [data-place]")).to_have_count(4)
        expect(page.locator("[data-games] li").first).to_be_visible()
        # Each head-to-head heading breaks between words only: "Opponent" stays whole on a
        # phone (it broke "Oppon/ent"), so each word of it sits on one line.
        headings = page.locator("[data-head-to-head] thead th")
        words = headings.evaluate_all(
            r"""cells => cells.flatMap(cell => {
                const range = document.createRange();
                range.selectNodeContents(cell);
                const tops = [...range.getClientRects()].map(rect => Math.round(rect.top));
                const words = cell.textContent.trim().split(/\s+/).length;
                return words >= new Set(tops).size ? [] : [cell.textContent];
            })"""
        )
        assert words == [], f"headings broken inside a word: {words}"
        headings.first.evaluate("cell => cell.scrollIntoView()")
        page.locator("[data-head-to-head]").screenshot(
            path=str(SCREENSHOTS / f"club-head-to-head-{name}.png")
        )
        device.fits()
        device.screenshot("club-player")
        device.close()


def test_an_event_page_says_round_1_was_balanced_by_rating(
    browser: Any, club: tuple[str, str, ClubBook]
) -> None:
    from companion.ledger.event_book.service import EventBook

    base, club_id, book = club
    players = book.rated_order(club_id, PLAYERS[:8])
    events = EventBook(book.ledger)
    made = events.create_event(
        "Spring league",
        "riichi",
        {"preset": "tenhou", "length": "tonpuusen"},
        players,
        2,
        first_round="balanced",
    )
    book.attach_event(club_id, made.id)
    events.seat_round(made.id, 1)
    for viewport, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        device = Device(browser, base, name, viewport)
        device.open(f"/e/{made.id}?lang=en")
        expect(device.page.locator("[data-seated-by]")).to_have_text(
            "Round 1 was seated balanced by rating: the strongest players spread over the tables."
        )
        device.fits()
        device.screenshot("club-event-balanced")
        device.close()

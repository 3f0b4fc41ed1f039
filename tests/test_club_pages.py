"""A club's pages: the leaderboard (best first, the minimum of games and the dates as filters,
a mistyped date said in the reader's language) and a player's page (the rating chart as SVG,
the places, the stats with what they are over, head-to-head, games linking to their tables)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from club_season import play_season
from companion.api import create_app
from companion.api.deps import close_ledgers
from companion.ledger.club_book.service import ClubBook
from companion.ledger.repository import Ledger

PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


@pytest.fixture
def season(tmp_path: Path) -> Iterator[tuple[TestClient, str, ClubBook]]:
    url = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    with Ledger.open(url) as ledger:
        book = ClubBook(ledger)
        club = book.create_club("Thursday Riichi")
        play_season(book, club.id, PLAYERS, 10, seed=5)
        app = create_app(url)
        with TestClient(app) as client:
            yield client, club.id, book
        close_ledgers(app)


def test_the_leaderboard_lists_every_player_best_first(
    season: tuple[TestClient, str, ClubBook],
) -> None:
    client, club, book = season
    page = client.get(f"/c/{club}")
    assert page.status_code == 200
    record, ratings = book.ratings(club)
    best = [record.name_of(player.player) for player in ratings.leaderboard(record.rating)]
    assert re.findall(r'<tr data-player="([^"]+)">', page.text) == best
    assert "Games rated: 10" in page.text
    most = max(player.games for player in ratings.players.values())
    filtered = client.get(f"/c/{club}", params={"min_games": str(most)})
    shown = re.findall(r'<tr data-player="([^"]+)">', filtered.text)
    assert shown == [
        record.name_of(player.player) for player in ratings.leaderboard(record.rating, most)
    ]
    assert 0 < len(shown) < len(best)
    early = client.get(f"/c/{club}", params={"as_of": "2000-01-01"})
    assert "data-empty" in early.text and "Games rated: 0" in early.text
    wrong = client.get(f"/c/{club}", params={"as_of": "2025-02-30", "lang": "zh-Hans"})
    assert wrong.status_code == 422
    assert "日期须为 YYYY-MM-DD 格式\uff0c而不是 2025-02-30" in wrong.text
    assert client.get("/c/nosuch").status_code == 404


def test_a_players_page(season: tuple[TestClient, str, ClubBook]) -> None:
    client, club, book = season
    page = book.player_page(club, "Ann")
    html = client.get(f"/c/{club}/p/ann").text
    assert '<h1 class="page-title" data-player-name>Ann' in html
    assert html.count("<polyline") == 1 and "data-rating-chart" in html
    counts = re.findall(r'data-place="(\d)" data-count="(\d+)"', html)
    assert [int(count) for _, count in counts] == [share.count for share in page.stats.places]
    hands = page.stats.hands
    assert f"{page.stats.wins.count} of {hands} hands" in html
    assert f"{page.stats.deal_ins.count} of {hands} hands" in html
    links = re.findall(r'<a href="/t/([a-z0-9]+)">', html)
    assert links == [game.table_id for game in page.games]
    opponents = re.findall(r'<tr><td class="col-name"><a href="/c/[^/]+/p/([^"]+)">', html)
    assert opponents == [quote(book.roster(club).name_of(row.opponent)) for row in page.opponents]
    assert "<script" not in html.split("</footer>")[0].split("<main")[1]
    assert client.get(f"/c/{club}/p/Nobody").status_code == 404
    chinese = client.get(f"/c/{club}/p/Ann", params={"lang": "zh-Hant"}).text
    assert "對戰記錄" in chinese and "放銃率" in chinese

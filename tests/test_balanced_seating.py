"""Round 1 "balanced by rating": the players, best first, dealt to the tables in snake order
(companion.events.balanced), as a seating mode of an event, and an event of a club seated by
the club's rating through the API."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from club_season import play_season
from companion.api import create_app
from companion.api.deps import close_ledgers
from companion.events.balanced import balanced_order, snake_tables
from companion.events.plan import FirstRound, Leftover, SeatingPlan
from companion.events.seating import seat_round
from companion.ledger.club_book.service import ClubBook
from companion.ledger.repository import Ledger
from companion.web import i18n

SIXTEEN = [f"P{rank:02}" for rank in range(1, 17)]


def test_the_snake_spreads_the_strongest() -> None:
    assert snake_tables(SIXTEEN, 4) == [
        ["P01", "P08", "P09", "P16"],
        ["P02", "P07", "P10", "P15"],
        ["P03", "P06", "P11", "P14"],
        ["P04", "P05", "P12", "P13"],
    ]
    assert snake_tables(SIXTEEN[:12], 3) == [
        ["P01", "P08", "P09"],
        ["P02", "P07", "P10"],
        ["P03", "P06", "P11"],
        ["P04", "P05", "P12"],
    ]
    assert balanced_order(SIXTEEN[:8], 4) == [
        "P01",
        "P04",
        "P05",
        "P08",
        "P02",
        "P03",
        "P06",
        "P07",
    ]
    assert snake_tables([], 4) == []


def test_round_1_balanced_seats_the_snakes_tables_and_the_weakest_sit_out() -> None:
    plan = SeatingPlan.of(SIXTEEN, 2, seed=3, first_round=FirstRound.BALANCED)
    first = seat_round(plan)
    assert [sorted(table.players) for table in first.tables] == snake_tables(SIXTEEN, 4)
    # Later rounds as ever: nobody meets again.
    second = seat_round(plan, [first])
    assert second.repeats == 0
    seventeen = [*SIXTEEN, "P17"]
    plan = SeatingPlan.of(seventeen, 1, first_round=FirstRound.BALANCED, leftover=Leftover.BYES)
    seated = seat_round(plan)
    assert seated.byes == ("P17",)
    assert [sorted(table.players) for table in seated.tables] == snake_tables(SIXTEEN, 4)


def test_round_1_balanced_at_tables_of_three() -> None:
    twelve = SIXTEEN[:12]
    plan = SeatingPlan.of(twelve, 1, first_round=FirstRound.BALANCED, table_size=3)
    seated = seat_round(plan)
    assert [sorted(table.players) for table in seated.tables] == snake_tables(twelve, 3)


@pytest.fixture
def club(tmp_path: Path) -> Iterator[tuple[TestClient, str, dict[str, str], ClubBook]]:
    url = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    with Ledger.open(url) as ledger:
        book = ClubBook(ledger)
        created = book.create_club("Thursday Riichi")
        play_season(book, created.id, SIXTEEN[:12], 12, seed=2)
        app = create_app(url)
        with TestClient(app) as client:
            yield client, created.id, {"Authorization": f"Bearer {created.token}"}, book
        close_ledgers(app)


def test_an_event_of_a_club_seated_by_its_rating(
    club: tuple[TestClient, str, dict[str, str], ClubBook],
) -> None:
    client, club_id, token, book = club
    entered = ["New one", *reversed(SIXTEEN[:12]), "New two", "New three"]
    body = {
        "name": "Spring league",
        "profile": "riichi",
        "options": {"preset": "tenhou", "length": "tonpuusen"},
        "players": entered,
        "rounds": 2,
        "first_round": "balanced",
    }
    assert client.post(f"/api/clubs/{club_id}/events", json=body).status_code == 401
    uneven = client.post(f"/api/clubs/{club_id}/events", json=body, headers=token)
    assert (uneven.status_code, uneven.json()["error_key"]) == (422, "refusal.event_uneven")
    assert len(book.roster(club_id).active()) == 12  # nothing of it written
    made = client.post(
        f"/api/clubs/{club_id}/events", json={**body, "leftover": "substitutes"}, headers=token
    )
    assert made.status_code == 201, made.text
    assert made.json()["roster"]["joined"] == ["New one", "New two", "New three"]
    event_id, event_token = made.json()["id"], made.json()["token"]
    record, ratings = book.ratings(club_id)
    best = [record.name_of(player.player) for player in ratings.leaderboard(record.rating)]
    assert len(best) == 12
    expected = snake_tables([*best, "New one", "New two", "New three", "Substitute 1"], 4)
    seated = client.post(
        f"/api/events/{event_id}/rounds",
        json={"round": 1},
        headers={"Authorization": f"Bearer {event_token}"},
    )
    assert seated.status_code == 201, seated.text
    tables = [sorted(table["players"]) for table in seated.json()["tables"]]
    assert tables == [sorted(table) for table in expected]
    assert book.club_of_event(event_id) == club_id
    # The event's page says how round 1 was seated, in the reader's language; round 2 not.
    said = i18n.translate(i18n.ZH_HANS, "evpage.seated_balanced")
    page = client.get(f"/e/{event_id}", params={"lang": "zh-Hans"})
    assert page.text.count(said) == 1 and "data-seated-by" in page.text
    panel = client.get(
        f"/e/{event_id}/organiser/panel", headers={"Authorization": f"Bearer {event_token}"}
    )
    # (In Chinese still: the page's ?lang= is kept in the language cookie.)
    assert re.findall(r'<p class="hint" data-seated-by>([^<]+)</p>', panel.text) == [said]


def test_an_event_seated_at_random_says_nothing_of_its_seating(
    club: tuple[TestClient, str, dict[str, str], ClubBook],
) -> None:
    client, club_id, token, _ = club
    body = {"name": "Open night", "profile": "riichi", "players": SIXTEEN[:8], "rounds": 1}
    made = client.post(f"/api/clubs/{club_id}/events", json=body, headers=token).json()
    organiser = {"Authorization": f"Bearer {made['token']}"}
    assert client.post(f"/api/events/{made['id']}/rounds", json={"round": 1}, headers=organiser)
    assert "data-seated-by" not in client.get(f"/e/{made['id']}").text

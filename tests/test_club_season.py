"""A seeded season through the club's service: 40 players, 300 riichi games (tonpuusen, hands
drawn at random) made in the club and recorded hand by hand through the ledger, whose ratings
equal an independent computation: the `openskill` package called game by game, and Tenhou-style
R and the totals by a plain loop over the tables' own final standings."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal, localcontext
from fractions import Fraction
from pathlib import Path

import pytest
from openskill.models import PlackettLuce, PlackettLuceRating

from club_season import play_season
from companion.ledger.club_book.service import ClubBook
from companion.ledger.repository import Ledger

PLAYERS = [f"Player {number:02}" for number in range(1, 41)]
GAMES = 300


@pytest.fixture
def book(tmp_path: Path) -> Iterator[ClubBook]:
    with Ledger.open(f"sqlite:///{tmp_path / 'ledger.sqlite3'}") as ledger:
        yield ClubBook(ledger)


@pytest.mark.slow
def test_a_seeded_season_rates_as_the_package_and_a_plain_loop(book: ClubBook) -> None:
    club = book.create_club("Season", "openskill")
    tables = play_season(book, club.id, PLAYERS, GAMES, seed=38)
    record, ratings = book.ratings(club.id)
    assert ratings.games == GAMES == len(record.games)
    assert [game.table_id for game in record.games] == tables

    model = PlackettLuce()
    skill: dict[str, PlackettLuceRating] = {}
    tenhou: dict[str, Decimal] = {}
    played: dict[str, int] = {}
    totals: dict[str, Fraction] = {}
    bases = [30, 10, -10, -30]
    with localcontext() as context:
        context.prec = 28
        for table in tables:
            results = book.ledger.standings(table)["results"]
            names = [row["name"] for row in results]
            places = [row["place"] for row in results]
            rated = model.rate(
                [[skill.get(name, model.rating())] for name in names],
                ranks=[float(place) for place in places],
            )
            before = [tenhou.get(name, Decimal(1500)) for name in names]
            average = sum(before, Decimal(0)) / 4
            for name, place, (rating,), own in zip(names, places, rated, before, strict=True):
                tied = places.count(place)
                base = Decimal(sum(bases[place - 1 : place - 1 + tied])) / tied
                factor = max(Decimal("0.2"), 1 - Decimal("0.002") * played.get(name, 0))
                tenhou[name] = own + factor * (base + (average - own) / 40)
                played[name] = played.get(name, 0) + 1
                skill[name] = rating
            for row in results:
                totals[row["name"]] = totals.get(row["name"], Fraction(0)) + Fraction(
                    row["final_exact"]
                )
    assert len(ratings.players) == len(PLAYERS)
    for name in PLAYERS:
        player = ratings.players[record.roster.own(name).key]
        assert player.games == played[name]
        assert player.mu == pytest.approx(skill[name].mu, abs=1e-9)
        assert player.sigma == pytest.approx(skill[name].sigma, abs=1e-9)
        assert player.tenhou_r == tenhou[name]
        assert player.total == totals[name]
    board = ratings.leaderboard(record.rating)
    ordinals = [player.ordinal for player in board]
    assert ordinals == sorted(ordinals, reverse=True)
    assert sum(played.values()) == 4 * GAMES
    # Every player of the roster joined through the tables made in the club.
    assert sorted(player.name for player in record.roster.active()) == PLAYERS

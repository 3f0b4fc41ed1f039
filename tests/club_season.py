"""A club's season recorded through the service, for the club's tests: riichi tonpuusen games
at random seats, hands drawn at random from a seed (a riichi now and then, by a player who can
pay its stick), each game played to its end."""

from __future__ import annotations

import random

from companion.ledger.club_book.service import ClubBook
from companion.ledger.records import DrawRecord, Record, WinnerRecord, WinRecord

RIICHI = {"preset": "tenhou", "length": "tonpuusen"}


def random_hand(rng: random.Random, seated: list[str], points: tuple[int, ...]) -> Record:
    roll = rng.random()
    if roll < 0.2:
        return DrawRecord(tuple(rng.sample(seated, rng.randrange(4))))
    winner = rng.choice(seated)
    han = rng.choice([1, 2, 3, 4, 5, 6])
    able = points[seated.index(winner)] >= 1000
    riichi = (winner,) if able and rng.random() < 0.4 else ()
    if roll < 0.5:
        return WinRecord((WinnerRecord(winner, han=han, fu=30),), None, None, riichi)
    loser = rng.choice([name for name in seated if name != winner])
    return WinRecord((WinnerRecord(winner, han=han, fu=40),), loser, None, riichi)


def play_season(
    book: ClubBook, club_id: str, players: list[str], games: int, seed: int
) -> list[str]:
    """`games` tables made in the club and played to their end; their ids in that order."""
    rng = random.Random(seed)
    tables = []
    for _ in range(games):
        seated = rng.sample(players, 4)
        table, _ = book.create_table(club_id, "riichi", seated, options=RIICHI)
        state = book.ledger.replay(table.id).state
        while not state.finished:
            assert state.game is not None
            recorded = book.ledger.record(table.id, random_hand(rng, seated, state.game.points))
            state = recorded.replay.state
        tables.append(table.id)
    return tables

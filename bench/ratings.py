"""Benchmark: a club's ratings recomputed from scratch (companion.clubs.ratings.rate_games).

A seeded club of 500 players and 20,000 four-player riichi games, about one in twenty with two
players tied, is rated whole: OpenSkill, Tenhou-style R, totals and every player's history. It
prints the best time of a few runs (the target is under 5 s on the project's machine) and what
one game costs. Building the games is not timed: a club reads them from its ledger.

    python bench/ratings.py [--players N] [--games N] [--seed N] [--runs N] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from datetime import UTC, datetime, timedelta
from fractions import Fraction

from companion.clubs.ratings import Finish, Game, Ratings, rate_games


def club_games(players: int, games: int, seed: int) -> list[Game]:
    rng = random.Random(seed)
    names = [f"Player {number}" for number in range(1, players + 1)]
    start = datetime(2025, 1, 1, 19, tzinfo=UTC)
    built = []
    for number in range(games):
        seated = rng.sample(names, 4)
        places = [1, 2, 3, 4]
        if rng.random() < 0.05:
            tied = rng.randrange(3)
            places[tied + 1] = places[tied]
        built.append(
            Game(
                game_id=f"game-{number + 1}",
                finished_at=start + timedelta(minutes=20 * number),
                family="riichi",
                seats=4,
                finishes=tuple(
                    Finish(name, place, Fraction(rng.randrange(-800, 800), 10))
                    for name, place in zip(seated, places, strict=True)
                ),
            )
        )
    return built


def timed(games: list[Game], runs: int) -> tuple[float, Ratings]:
    best = float("inf")
    ratings = rate_games(games)
    for _ in range(runs):
        started = time.perf_counter()
        ratings = rate_games(games)
        best = min(best, time.perf_counter() - started)
    return best, ratings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    arguments = parser.parse_args()
    games = club_games(arguments.players, arguments.games, arguments.seed)
    seconds, ratings = timed(games, arguments.runs)
    figures = {
        "players": len(ratings.players),
        "games": ratings.games,
        "seconds": round(seconds, 3),
        "microseconds_a_game": round(seconds / ratings.games * 1e6, 1),
    }
    if arguments.json:
        print(json.dumps(figures))
        return
    print(
        f"{figures['players']} players, {figures['games']:,} games rated from scratch in "
        f"{seconds:.2f} s (best of {arguments.runs}; {figures['microseconds_a_game']} µs a game)"
    )


if __name__ == "__main__":
    main()

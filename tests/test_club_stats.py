"""A club's stats of MCR and money games, recorded through the service and counted by hand:
MCR's average fan of wins and table points, a money game's hands won, self-draw share, net and
largest hand (docs/clubs.md, *Stats*). The riichi stats are counted in test_club_book.py."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from fractions import Fraction
from pathlib import Path

import pytest

from companion.clubs.stats import Mean, Share
from companion.ledger.club_book.service import ClubBook
from companion.ledger.records import DrawRecord, Record, WinnerRecord, WinRecord
from companion.ledger.repository import Ledger


@pytest.fixture
def book(tmp_path: Path) -> Iterator[ClubBook]:
    with Ledger.open(f"sqlite:///{tmp_path / 'ledger.sqlite3'}") as ledger:
        yield ClubBook(ledger)


def win(
    winner: str, count: int, discarder: str | None = None, flowers: int | None = None
) -> WinRecord:
    return WinRecord((WinnerRecord(winner, tai=count, flowers=flowers),), discarder)


def mcr_game(first: str, second: str, third: str, fourth: str) -> list[Record]:
    """Sixteen MCR hands, players by their part: `first` wins 12 fan from `second`, `second`
    self-draws 8 fan with 2 flowers, `third` wins 16 from `fourth`, `fourth` 9 from `first`;
    the rest drawn. An MCR hand pays the winner its fan (with flowers) from the discarder and
    8 from each player, a self-draw its fan + 8 from each: `first` 20 + 8 + 8 = 36, `second`
    3 x 18 = 54, `third` 24 + 8 + 8 = 40, `fourth` 17 + 8 + 8 = 33. Their scores: `first`
    36 - 18 - 8 - 17 = -7, `second` -20 + 54 - 8 - 8 = 18, `third` -8 - 18 + 40 - 8 = 6,
    `fourth` -8 - 18 - 24 + 33 = -17: places 3, 1, 2, 4 and table points 1, 4, 2, 0."""
    return [
        win(first, 12, second),
        win(second, 8, flowers=2),
        *[DrawRecord()] * 6,
        win(third, 16, fourth),
        *[DrawRecord()] * 6,
        win(fourth, 9, first),
    ]


def play(
    book: ClubBook,
    club: str,
    profile: str,
    seats: Sequence[str],
    records: list[Record],
    **table: object,
) -> str:
    created, _ = book.create_table(club, profile, list(seats), **table)
    for hand in records:
        book.ledger.record(created.id, hand)
    assert book.ledger.replay(created.id).state.finished
    return created.id


def test_mcr_stats_against_hands_counted_by_hand(book: ClubBook) -> None:
    club = book.create_club("MCR night", "total").id
    options = {"flowers": True}
    play(
        book,
        club,
        "mcr",
        ["Ann", "Ben", "Cy", "Dee"],
        mcr_game("Ann", "Ben", "Cy", "Dee"),
        options=options,
    )
    # The second game in other parts: Ben first, Cy second, Dee third, Ann fourth.
    play(
        book,
        club,
        "mcr",
        ["Ben", "Cy", "Dee", "Ann"],
        mcr_game("Ben", "Cy", "Dee", "Ann"),
        options=options,
    )
    ben = book.player_page(club, "Ben").stats
    # Game 1: Ben second (self-draws 8 fan, gains 54, deals Ann's 12 in): 1st, 4 table points.
    # Game 2: Ben first (wins 12 fan from Cy, gains 36, deals Ann's 9 in): 3rd, 1 table point.
    assert (ben.games, ben.hands) == (2, 32)
    assert ben.places == (Share(1, 2), Share(0, 2), Share(1, 2), Share(0, 2))
    assert ben.wins == Share(2, 32)
    assert ben.self_draws == Share(1, 2)
    assert ben.deal_ins == Share(2, 32)
    # The average fan of his wins: a flower is a fan of MCR's (one each), so the self-draw of
    # 8 fan with 2 flowers counts 10 (it is paid 10 + 8 by each).
    assert ben.average_count == Mean(Fraction(10 + 12), 2)
    assert ben.average_win == Mean(Fraction(54 + 36), 2)
    assert ben.largest_win == 54
    assert ben.total == 4 + 1  # table points, not the scores' 18 - 7
    ann = book.player_page(club, "Ann").stats
    # Game 1: first (12 fan, 1 table point); game 2: fourth (9 fan, 0 table points).
    assert (ann.average_count, ann.total) == (Mean(Fraction(12 + 9), 2), 1)
    assert ann.places == (Share(0, 2), Share(0, 2), Share(1, 2), Share(1, 2))
    cy = book.player_page(club, "Cy").stats
    # Game 1: third (16 fan, 2 points); game 2: second (8 fan and 2 flowers self-drawn, 4).
    assert (cy.average_count, cy.total, cy.self_draws) == (
        Mean(Fraction(16 + 10), 2),
        6,
        Share(1, 2),
    )
    record, ratings = book.ratings(club)
    board = [(record.name_of(p.player), p.total) for p in ratings.leaderboard(record.rating)]
    assert board == [("Cy", 6), ("Ben", 5), ("Dee", 0 + 2), ("Ann", 1)]


# A money game (sg, a share of 1): a win of t tai pays in shares of 2^(t-1); the discarder pays
# two shares and the others one, and at a self-draw each pays two.
MONEY = [
    win("Ann", 2, "Ben"),  # shares of 2: Ben 4, Cat 2, Dan 2: Ann +8
    win("Ben", 1),  # self-draw, shares of 1: 2 each: Ben +6
    DrawRecord(),
    win("Ann", 4),  # self-draw, shares of 8: 16 each: Ann +48
    win("Cat", 3, "Ann"),  # shares of 4: Ann 8, Ben 4, Dan 4: Cat +16
    win("Ann", 1, "Dan"),  # shares of 1: Dan 2, Ben 1, Cat 1: Ann +4
]


def test_money_stats_against_hands_counted_by_hand(book: ClubBook) -> None:
    club = book.create_club("Money night", "total").id
    table = play(book, club, "sg", ["Ann", "Ben", "Cat", "Dan"], MONEY, hands=len(MONEY))
    ann = book.player_page(club, "Ann").stats
    assert (ann.games, ann.hands) == (1, 6)
    assert ann.wins == Share(3, 6)  # hands won
    assert ann.self_draws == Share(1, 3)
    assert ann.deal_ins == Share(1, 6)
    assert ann.total == 8 - 2 + 48 - 8 + 4  # net: 50
    assert ann.largest_win == 48  # the largest hand
    assert ann.average_win == Mean(Fraction(8 + 48 + 4), 3)
    assert ann.average_count == Mean(Fraction(2 + 4 + 1), 3)
    ben = book.player_page(club, "Ben").stats
    assert (ben.wins, ben.self_draws, ben.deal_ins) == (Share(1, 6), Share(1, 1), Share(1, 6))
    assert (ben.total, ben.largest_win) == (-4 + 6 - 16 - 4 - 1, 6)
    dan = book.player_page(club, "Dan").stats
    assert (dan.wins, dan.self_draws, dan.largest_win) == (Share(0, 6), Share(0, 0), None)
    assert dan.total == -2 - 2 - 16 - 4 - 2
    # Places by net: Ann 50, Cat -5, Ben -19, Dan -26; the ratings' totals are the nets.
    record, ratings = book.ratings(club)
    board = [(record.name_of(p.player), p.total) for p in ratings.leaderboard(record.rating)]
    assert board == [("Ann", 50), ("Cat", -5), ("Ben", -19), ("Dan", -26)]
    assert [game.table_id for game in book.player_page(club, "Cat").games] == [table]
    assert book.player_page(club, "Cat").stats.places[1] == Share(1, 1)

"""Round 1 "balanced by rating": the players, best first, dealt to the tables in snake order,
so that every table has one of the strongest and one of the weakest (docs/events.md).

With n tables the first n players open tables 1 to n, the next n fill them back from n to 1,
and so on: at four tables of four, table 1 has the 1st, 8th, 9th and 16th. Pure: the caller
gives the order (a club's leaderboard, `companion.ledger.club_book`)."""

from __future__ import annotations

from collections.abc import Sequence


def snake_tables(order: Sequence[str], seats: int) -> list[list[str]]:
    """The tables `order` (best first) makes in snake order; `len(order)` a multiple of
    `seats`."""
    count = len(order) // seats
    tables: list[list[str]] = [[] for _ in range(count)]
    for position, name in enumerate(order):
        lap, place = divmod(position, count)
        tables[place if lap % 2 == 0 else count - 1 - place].append(name)
    return tables


def balanced_order(order: Sequence[str], seats: int) -> list[str]:
    """`order` rearranged so that cutting it into tables of `seats`, first to last, gives the
    snake's tables: what round 1 seats as listed."""
    return [name for table in snake_tables(order, seats) for name in table]

"""The repeats a field cannot avoid: a lower bound on how many times players must meet again,
whatever the seating, said when an event is made and beside each round's count.

A repeat is a pair of players at one table who met at an earlier round's table (a pair meeting a
third time counts again), as `Round.repeats` counts them. Two bounds hold for every seating, and
the larger is given:

- **Against round 1.** A later round's tables take the players of each round-1 table; a round-1
  table's four spread over fewer than four tables put two of them together again. Eight players
  over two rounds: each round-2 table takes two from each round-1 table, so 4 repeats at least.
- **Per player.** A player meets three others a round: over more rounds than the field has
  others to meet, the meetings beyond them are repeats.

Each bound lets the byes, substitutes and absences fall where they help most, so it is never
more than what some seating could reach (`tests/test_event_repeats.py` holds every seating to
it). Pure."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from heapq import heapify, heappop, heappush
from math import comb

from companion.events.plan import SEATS, Leftover, SeatingPlan


def _spread_pairs(players: int, tables: int) -> int:
    """The fewest pairs sharing a table when `players` spread over `tables` tables."""
    if tables <= 0:
        return comb(players, 2)
    each, over = divmod(players, tables)
    return over * comb(each + 1, 2) + (tables - over) * comb(each, 2)


def _fewest_after_removing(sizes: list[int], removed: int, tables: int) -> int:
    """The fewest pairs of the round-1 groups (`sizes`) at `tables` tables, `removed` of their
    players away where their absence saves the most pairs (greedy: each group's pairs are
    convex in its size, so one at a time from where it saves most is best)."""
    sizes = list(sizes)
    for _ in range(min(removed, sum(sizes))):
        best = max(
            range(len(sizes)),
            key=lambda index: (
                _spread_pairs(sizes[index], tables) - _spread_pairs(sizes[index] - 1, tables)
            ),
        )
        sizes[best] -= 1
    return sum(_spread_pairs(size, tables) for size in sizes)


def _table_sizes(players: int, byes: bool, seats: int) -> list[int]:
    """A round's players at each table: with byes, whole tables; with substitutes, spread as
    evenly as a seating may spread them (a substitute at each of several tables), which is
    what leaves the fewest pairs to meet again."""
    if byes or not players % seats:
        return [seats] * (players // seats)
    tables = -(-players // seats)
    each, over = divmod(players, tables)
    return [each + 1] * over + [each] * (tables - over)


def _against_round_one(rounds: Sequence[frozenset[str]], byes: bool, seats: int) -> list[int]:
    first = rounds[0]
    sizes = _table_sizes(len(first), byes, seats)
    seated_first = sum(sizes)
    found = [0]
    for players in rounds[1:]:
        count = len(players)
        round_byes = count % seats if byes else 0
        tables = len(_table_sizes(count, byes, seats))
        # The round-1 players seated again: every bye, of round 1 or of this round, may fall
        # on one of them.
        present = max(0, len(first & players) - (len(first) - seated_first) - round_byes)
        forced = _fewest_after_removing(sizes, max(0, seated_first - present), tables)
        found.append(found[-1] + forced)
    return found


def _per_player(rounds: Sequence[frozenset[str]], byes: bool, seats: int) -> list[int]:
    # Kept round by round (rounds played, the field, the meetings that do not happen), so that
    # an event's page, which asks for every round's figure, reads each round once.
    found = []
    played = Counter[str]()
    everyone: set[str] = set()
    missing: list[int] = []
    for players in rounds:
        played.update(players)
        everyone |= players
        # Meetings that do not happen: a bye's three, and a substitute's three at the table it
        # fills (one for each player beside it, the substitutes spread a table each); taken
        # where they save the most repeats, from the player with the most meetings first.
        over = len(players) % seats
        if over:
            missing += [seats - 1] * over if byes else [1] * ((seats - over) * (seats - 1))
        heap = [-(seats - 1) * played[name] for name in everyone]
        heapify(heap)
        for units in missing:
            most = -heappop(heap)
            heappush(heap, -max(0, most - units))
        others = len(everyone) - 1
        beyond = sum(max(0, -count - others) for count in heap)
        found.append((beyond + 1) // 2)
    return found


def unavoidable_repeats(
    rounds: Sequence[frozenset[str]], byes: bool, seats: int = SEATS
) -> tuple[int, ...]:
    """For each round, the repeats no seating can avoid by the end of it (every round so far
    together): `rounds` holds each round's players, `byes` whether the players beyond whole
    tables (of `seats`) sit out (else substitutes complete the last table)."""
    if not rounds:
        return ()
    return tuple(
        max(pair)
        for pair in zip(
            _against_round_one(rounds, byes, seats), _per_player(rounds, byes, seats), strict=True
        )
    )


def plan_repeats(plan: SeatingPlan) -> tuple[int, ...]:
    """`unavoidable_repeats` of a plan's rounds, as its players join and withdraw."""
    rounds = [frozenset(plan.playing(number)) for number in range(1, plan.rounds + 1)]
    return unavoidable_repeats(rounds, plan.leftover is Leftover.BYES, plan.table_size)

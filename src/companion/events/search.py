"""The tables of a round no known schedule seats: a seeded greedy pass, a tabu search over swaps
between tables, and a last pass that balances the winds without a new repeat (docs/events.md,
*No repeats* and *Seat winds*)."""

from __future__ import annotations

import bisect
import random
from collections.abc import Sequence
from functools import cache
from itertools import combinations, permutations

from companion.events.history import History

_PERMUTATIONS = {size: tuple(permutations(range(size))) for size in (3, 4)}
"""By table size, who of a table's players takes each wind; the table's own order (the
identity) comes first, so that it is kept whenever nothing is better."""

_TABU_ITERATIONS = 1500
_TABU_STALL = 300
_WIND_STEPS = 8000
_WIND_STALL = 1500


def search_tables(
    order: Sequence[str],
    history: History,
    by_standing: bool,
    rng: random.Random,
) -> list[list[str]]:
    """Tables (of the history's `seats`, in no particular seat order) minimising the pairs'
    cost: meetings so far, and by standing also the distance of the two in the standing,
    meetings weighing more than any distance."""
    seats = history.seats
    size = len(order)
    index = {name: position for position, name in enumerate(order)}
    met = [[0] * size for _ in range(size)]
    for one, position in index.items():
        row = met[position]
        for other, count in history.met.get(one, {}).items():
            if other in index:
                row[index[other]] = count
    if by_standing:
        weight = seats * size * size
        cost = [
            [weight * met[i][j] + abs(i - j) if i != j else 0 for j in range(size)]
            for i in range(size)
        ]
    else:
        cost = met  # the meetings alone (nobody meets themselves: the diagonal is 0); read only
    tables = _greedy(size, cost, seats)
    tables = _tabu(tables, cost, met, rng)
    if by_standing:
        tables = _descend_neighbours(tables, cost, seats)
        tables.sort(key=min)
    else:
        tables = _balance_winds(tables, met, [history.wind_counts(name) for name in order], rng)
    return [[order[i] for i in table] for table in tables]


def _greedy(size: int, cost: list[list[int]], seats: int) -> list[list[int]]:
    """Each table opened by the first player left, then filled by the cheapest (the first among
    equals)."""
    left = list(range(size))
    tables: list[list[int]] = []
    while left:
        table = [left.pop(0)]
        # Each one left's cost to the table so far, kept as the table fills (not summed anew).
        sums = [cost[k][table[0]] for k in left]
        while len(table) < seats:
            best = min(range(len(left)), key=sums.__getitem__)
            chosen = left.pop(best)
            del sums[best]
            table.append(chosen)
            for position, k in enumerate(left):
                sums[position] += cost[k][chosen]
        tables.append(table)
    return tables


def _table_cost(table: Sequence[int], cost: list[list[int]]) -> int:
    return sum(cost[a][b] for a, b in combinations(table, 2))


def _swap_delta(
    tables: list[list[int]], cost: list[list[int]], t1: int, i: int, t2: int, j: int
) -> int:
    a, b = tables[t1][i], tables[t2][j]
    delta = 0
    for k, x in enumerate(tables[t1]):
        if k != i:
            delta += cost[b][x] - cost[a][x]
    for k, y in enumerate(tables[t2]):
        if k != j:
            delta += cost[a][y] - cost[b][y]
    return delta


def _tabu(
    tables: list[list[int]], cost: list[list[int]], met: list[list[int]], rng: random.Random
) -> list[list[int]]:
    """Swaps a player who meets someone again with a player of another table: the best swap not
    tabu (moving a player back to a table they just left), or one that beats the best seating
    found. Stops when no player meets anyone again, or when the best stops improving."""
    current = [list(table) for table in tables]
    total = sum(_table_cost(table, cost) for table in current)
    best, best_total = [list(table) for table in current], total
    tabu: dict[tuple[int, int], int] = {}
    stall = 0
    for iteration in range(_TABU_ITERATIONS):
        conflicts = [
            (t1, i)
            for t1, table in enumerate(current)
            for i, a in enumerate(table)
            if any(met[a][x] for x in table if x != a)
        ]
        if not conflicts or stall >= _TABU_STALL:
            break
        moves: list[tuple[int, int, int, int]] = []
        move_delta = None
        for t1, i in conflicts:
            a = current[t1][i]
            for t2, other in enumerate(current):
                if t2 == t1:
                    continue
                for j, b in enumerate(other):
                    delta = _swap_delta(current, cost, t1, i, t2, j)
                    allowed = (
                        tabu.get((a, t2), -1) < iteration and tabu.get((b, t1), -1) < iteration
                    )
                    if not allowed and total + delta >= best_total:
                        continue
                    if move_delta is None or delta < move_delta:
                        moves, move_delta = [(t1, i, t2, j)], delta
                    elif delta == move_delta:
                        moves.append((t1, i, t2, j))
        if move_delta is None:
            break
        t1, i, t2, j = moves[rng.randrange(len(moves))]
        a, b = current[t1][i], current[t2][j]
        current[t1][i], current[t2][j] = b, a
        total += move_delta
        tenure = 5 + rng.randrange(6)
        tabu[(a, t1)] = iteration + tenure
        tabu[(b, t2)] = iteration + tenure
        if total < best_total:
            best, best_total, stall = [list(table) for table in current], total, 0
        else:
            stall += 1
    return best


def _descend_neighbours(
    tables: list[list[int]], cost: list[list[int]], seats: int
) -> list[list[int]]:
    """By standing: swaps between tables near in the standing while a swap lowers the cost."""
    current = sorted((list(table) for table in tables), key=min)
    improved = True
    passes = 0
    while improved and passes < 50:
        improved = False
        passes += 1
        for t1 in range(len(current)):
            for t2 in range(t1 + 1, min(t1 + 3, len(current))):
                for i in range(seats):
                    for j in range(seats):
                        if _swap_delta(current, cost, t1, i, t2, j) < 0:
                            a, b = current[t1][i], current[t2][j]
                            current[t1][i], current[t2][j] = b, a
                            improved = True
    return current


def _wind_penalty(table: Sequence[int], fresh: Sequence[int]) -> int:
    """The fewest seat repeats the table can have over its seatings (24 at a table of four).
    `fresh[p]`: the winds (bit i for wind i) player p has sat in least."""
    return _masks_penalty(tuple(fresh[player] for player in table))


@cache
def _masks_penalty(masks: tuple[int, ...]) -> int:
    """`_wind_penalty` of a table's players' masks (one a seat, three or four): at most 16^4
    of them, each worked out once."""
    best = len(masks)
    for seating in _PERMUTATIONS[len(masks)]:
        penalty = 0
        for wind, seat in enumerate(seating):
            if not masks[seat] >> wind & 1:
                penalty += 1
        if penalty < best:
            best = penalty
            if best == 0:
                break
    return best


def _balance_winds(
    tables: list[list[int]],
    met: list[list[int]],
    winds: Sequence[Sequence[int]],
    rng: random.Random,
) -> list[list[int]]:
    """Random swaps between a table that cannot seat everyone in a wind they need and another
    table, kept when they add no meeting and do not raise the two tables' seat repeats (moves
    that keep them equal let the search walk on to a swap that lowers them). Stops when every
    table is balanced or the seat repeats have not fallen for a while."""
    current = [list(table) for table in tables]
    fresh = [
        sum(1 << wind for wind, count in enumerate(counts) if count == min(counts))
        for counts in winds
    ]
    penalties = [_wind_penalty(table, fresh) for table in current]
    count = len(current)
    stall = 0
    # The tables with a penalty, in order: kept as swaps change two tables' penalties.
    unbalanced = [table for table in range(count) if penalties[table]]
    for _ in range(_WIND_STEPS):
        if not unbalanced or count < 2 or stall >= _WIND_STALL:
            break
        stall += 1
        t1 = unbalanced[rng.randrange(len(unbalanced))]
        t2 = rng.randrange(count - 1)
        t2 += t2 >= t1
        i, j = rng.randrange(len(current[t1])), rng.randrange(len(current[t2]))
        if _swap_delta(current, met, t1, i, t2, j) > 0:
            continue
        first, second = list(current[t1]), list(current[t2])
        first[i], second[j] = second[j], first[i]
        p1, p2 = _wind_penalty(first, fresh), _wind_penalty(second, fresh)
        if p1 + p2 <= penalties[t1] + penalties[t2]:
            if p1 + p2 < penalties[t1] + penalties[t2]:
                stall = 0
            current[t1], current[t2] = first, second
            for table, penalty in ((t1, p1), (t2, p2)):
                listed = bool(penalties[table])
                penalties[table] = penalty
                if listed and not penalty:
                    unbalanced.remove(table)
                elif penalty and not listed:
                    bisect.insort(unbalanced, table)
    return current


def seat_winds(table: Sequence[str], history: History, substitutes: Sequence[str]) -> list[str]:
    """The table's players in the winds that give the fewest seat repeats, then the fewest
    seats already taken often (the sum of squares); the table's own order among equals."""
    placeholders = set(substitutes)
    empty = [0] * len(table)
    counts = [empty if name in placeholders else history.wind_counts(name) for name in table]
    best_key: tuple[int, int] | None = None
    orders = _PERMUTATIONS[len(table)]
    best: tuple[int, ...] = orders[0]
    for seating in orders:
        penalty = spread = 0
        for wind, seat in enumerate(seating):
            mine = counts[seat]
            penalty += mine[wind] > min(mine)
            spread += mine[wind] * mine[wind]
        key = (penalty, spread)
        if best_key is None or key < best_key:
            best_key, best = key, seating
    return [table[seat] for seat in best]

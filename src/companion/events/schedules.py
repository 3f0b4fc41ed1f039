"""Schedules known to have no repeats: sixteen players take five rounds from the affine plane of
order 4, and 4m players (m prime to 2 and 3) m rounds from a cyclic schedule; both seat everyone
in every wind once over four rounds (docs/events.md, *No repeats*)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from companion.events.history import History
from companion.events.plan import SEATS, Round

_GF4_EXP = (1, 2, 3)
_GF4_LOG = {1: 0, 2: 1, 3: 2}


def _gf4_mul(one: int, other: int) -> int:
    """Multiplication in the field of four elements (0, 1, w, w+1 coded 0 to 3; addition is
    XOR)."""
    if one == 0 or other == 0:
        return 0
    return _GF4_EXP[(_GF4_LOG[one] + _GF4_LOG[other]) % 3]


def _affine_class(index: int) -> list[list[int]]:
    """Parallel class `index` (0 to 4) of the plane's points 4x+y, each line in seat order.

    Class 0 is the lines x = c, in the order of the labels (so round 1's tables in its own order
    are class 0). Classes 1 to 3 are the lines y = mx + b of slope m = index, and a point sits
    in wind y XOR index: over classes 0 to 3 each point takes the four winds once. Class 4 is
    the lines y = b, seated by x."""
    lines: list[list[int]] = []
    for line in range(SEATS):
        seats = [0] * SEATS
        for x in range(SEATS):
            if index == 0:
                point, wind = SEATS * line + x, x
            elif index < SEATS:
                y = _gf4_mul(index, x) ^ line
                point, wind = SEATS * x + y, y ^ index
            else:
                point, wind = SEATS * x + line, x
            seats[wind] = point
        lines.append(seats)
    return lines


def _cyclic_class(index: int, tables: int) -> list[list[int]]:
    """Round `index` of 4m players 4a+j (a below m, j below 4) when m is prime to 2 and 3: table
    t holds the players with a = t - j*index (mod m), and a player sits in wind j + index.

    Two players of the same j never meet; players (a, j) and (b, k) meet in the one round r
    where a - b = (k - j)r (mod m), k - j being 1, 2 or 3 apart and so invertible: m rounds
    with no repeat, and every wind once in any four rounds in a row."""
    lines: list[list[int]] = []
    for table in range(tables):
        seats = [0] * SEATS
        for j in range(SEATS):
            seats[(j + index) % SEATS] = SEATS * ((table - j * index) % tables) + j
        lines.append(seats)
    return lines


def _construction(size: int, index: int) -> list[list[int]] | None:
    """Class `index` of a schedule known to have no repeats, for `size` players, or None."""
    if size == 16 and index < 5:
        return _affine_class(index)
    tables = size // SEATS
    if size % SEATS == 0 and tables % 2 and tables % 3 and index < tables:
        return _cyclic_class(index, tables)
    return None


def from_schedule(
    order: Sequence[str], previous: Sequence[Round], number: int, history: History
) -> list[list[str]] | None:
    """Round `number` from a known schedule when the same players sat round 1 (labelled by
    round 1's seats, which is the schedule's first class) and that round meets nobody again;
    else None."""
    if not previous:
        return None
    lines = _construction(len(order), number - 1)
    labels = [name for table in previous[0].tables for name in table.players]
    if lines is None or len(labels) != len(order) or set(labels) != set(order):
        return None
    tables = [[labels[point] for point in line] for line in lines]
    for table in tables:
        for one, other in combinations(table, 2):
            if history.meetings(one, other):
                return None
    return tables

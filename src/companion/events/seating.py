"""Seating an event: the players at tables of four, round by round, East first (docs/events.md).

Pure: a plan (the players, their late entries and withdrawals, the number of rounds, a seed and
the options) and the rounds already seated give the next round, the same one every time. Pairs
of players who meet again (repeats) and players who sit in a wind more often than another
(seat repeats) are counted for every round and in total.

A field that sat round 1 together takes its later rounds from a schedule known to have no
repeats where one exists: sixteen players the affine plane of order 4 (five rounds), 4m players
with m prime to 2 and 3 a cyclic schedule (m rounds); both seat everyone in every wind once over
four rounds. Every other round is seated by a seeded greedy pass and a tabu search over swaps
between tables; a last pass swaps players where that balances the winds without a new repeat."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import combinations, permutations

from companion.errors import InvalidRequestError
from companion.tiles import Wind

SEATS = 4
WINDS = (Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH)
SUBSTITUTE = "Substitute {}"
"""The name of the n-th substitute of a round (a placeholder for whoever fills the seat)."""

_PERMUTATIONS = tuple(permutations(range(SEATS)))
"""Who of a table's four takes each wind; the table's own order (the identity) comes first, so
that it is kept whenever nothing is better."""


class FirstRound(Enum):
    """How round 1 is seated."""

    RANDOM = "random"
    """In an order drawn with the plan's seed value."""
    LISTED = "listed"
    """In the order the players are entered: the first four at table 1, East first."""


class LaterRounds(Enum):
    """How the rounds after the first are seated."""

    NO_REPEATS = "no-repeats"
    """Nobody meets a player again while that can be avoided."""
    STANDING = "standing"
    """Swiss: neighbours in the standing share a table, avoiding repeats where possible."""


class Leftover(Enum):
    """What happens to the players beyond a multiple of four."""

    SUBSTITUTES = "substitutes"
    """Substitutes complete the last table."""
    BYES = "byes"
    """The players over sit the round out, nobody twice while that can be avoided."""


class SeatingError(InvalidRequestError):
    """A plan or a round that cannot be seated; the message says why."""


class UnevenFieldError(SeatingError):
    """The players of a round do not make whole tables, and the plan says neither substitutes
    nor byes."""

    def __init__(self, players: int, round_number: int | None) -> None:
        self.players = players
        self.tables = players // SEATS
        self.over = players % SEATS
        self.substitutes = SEATS - self.over
        self.round_number = round_number
        # Worded so that every count reads right (1 over, 3 over): the pages say it from the
        # catalogue with the same parameters.
        text = (
            f"{players} players leave {self.over} over at tables of four: bring in "
            f"{self.substitutes} more to substitute, or give {self.over} of them a bye"
        )
        if round_number is not None:
            text = f"in round {round_number}, {text}"
        super().__init__(
            text,
            key="refusal.event_uneven" if round_number is None else "refusal.event_uneven_round",
            params={
                "players": players,
                "tables": self.tables,
                "over": self.over,
                "substitutes": self.substitutes,
                "round": round_number,
            },
        )


def _rounds_upto(number: int) -> str:
    return "round 1" if number == 1 else f"rounds 1 to {number}"


@dataclass(frozen=True)
class Entry:
    """A player: a name, the first round they play and the last (None: to the end)."""

    name: str
    joins: int = 1
    withdraws_after: int | None = None

    def plays(self, round_number: int) -> bool:
        last = self.withdraws_after
        return self.joins <= round_number and (last is None or round_number <= last)


@dataclass(frozen=True)
class SeatingPlan:
    """Who plays which rounds and how they are seated. Checked when made: every round it plans
    can be seated (four players at least, whole tables or a way to complete them)."""

    players: tuple[Entry, ...]
    rounds: int
    seed: int = 0
    first_round: FirstRound = FirstRound.RANDOM
    later_rounds: LaterRounds = LaterRounds.NO_REPEATS
    leftover: Leftover | None = None

    @classmethod
    def of(
        cls,
        players: Sequence[str | Entry],
        rounds: int,
        *,
        seed: int = 0,
        first_round: FirstRound = FirstRound.RANDOM,
        later_rounds: LaterRounds = LaterRounds.NO_REPEATS,
        leftover: Leftover | None = None,
    ) -> SeatingPlan:
        """A plan from names (who play every round) and entries, their names trimmed."""
        entries = tuple(Entry(item.strip()) if isinstance(item, str) else item for item in players)
        return cls(entries, rounds, seed, first_round, later_rounds, leftover)

    def __post_init__(self) -> None:
        if self.rounds < 1:
            raise SeatingError(
                f"an event needs at least 1 round; got {self.rounds}",
                key="refusal.event_few_rounds",
                params={"rounds": self.rounds},
            )
        seen: dict[str, str] = {}
        for entry in self.players:
            name = entry.name
            if not name.strip():
                raise SeatingError(
                    "a player's name cannot be empty", key="refusal.event_player_empty"
                )
            if name != name.strip():
                raise SeatingError(f"a player's name cannot start or end with a space: {name!r}")
            if "," in name:
                raise SeatingError(
                    f"a player's name cannot contain a comma: {name}",
                    key="refusal.event_player_comma",
                    params={"player": name},
                )
            if name.casefold() in seen:
                first = seen[name.casefold()]
                raise SeatingError(
                    f"each player needs a different name: {first} and {name} are the same",
                    key="refusal.event_same_name",
                    params={"first": first, "second": name},
                )
            seen[name.casefold()] = name
            # Reserved in every event, not only one with substitutes: the standings leave
            # such names out as placeholders, so a player called so would lose their tables.
            if _is_substitute_name(name):
                raise SeatingError(
                    f"{name} is what the seating calls a substitute: enter the player under "
                    "another name",
                    key="refusal.event_player_substitute",
                    params={"player": name},
                )
            if not 1 <= entry.joins <= self.rounds:
                raise SeatingError(
                    f"{name} joins in round {entry.joins}, but the event has rounds 1 to "
                    f"{self.rounds}",
                    key="refusal.event_join_round",
                    params={"player": name, "round": entry.joins, "last": self.rounds},
                )
            # Withdrawn after the round before their first: a no-show, who plays no round.
            if entry.withdraws_after is not None and entry.withdraws_after < entry.joins - 1:
                raise SeatingError(
                    f"{name} withdraws after round {entry.withdraws_after} but joins in round "
                    f"{entry.joins}",
                    key="refusal.event_withdraw_before_join",
                    params={"player": name, "round": entry.withdraws_after, "joins": entry.joins},
                )
        counts = [self.playing_count(number) for number in range(1, self.rounds + 1)]
        same = len(set(counts)) == 1
        for number, count in enumerate(counts, 1):
            if count < SEATS:
                if same:
                    raise SeatingError(
                        f"a table needs 4 players, and the event has {count}",
                        key="refusal.event_too_few",
                        params={"count": count},
                    )
                raise SeatingError(
                    f"a table needs 4 players, and round {number} has {count}",
                    key="refusal.event_too_few_round",
                    params={"round": number, "count": count},
                )
            if count % SEATS and self.leftover is None:
                raise UnevenFieldError(count, None if same else number)

    def playing(self, round_number: int) -> tuple[str, ...]:
        """The players of a round, in the order they are entered."""
        return tuple(entry.name for entry in self.players if entry.plays(round_number))

    def playing_count(self, round_number: int) -> int:
        return sum(1 for entry in self.players if entry.plays(round_number))


def _is_substitute_name(name: str) -> bool:
    head, _, number = name.casefold().partition(" ")
    return head == "substitute" and number.isdigit()


@dataclass(frozen=True)
class Table:
    """A table of a round: its number (from 1) and its four players in seat order, East first."""

    number: int
    players: tuple[str, ...]

    def player_at(self, wind: Wind) -> str:
        return self.players[wind.index]

    def wind_of(self, name: str) -> Wind:
        return WINDS[self.players.index(name)]

    @property
    def seats(self) -> tuple[tuple[Wind, str], ...]:
        return tuple(zip(WINDS, self.players, strict=True))


@dataclass(frozen=True)
class Round:
    """A seated round: its tables, who sits it out, the substitutes it needs, and its figures.

    `repeats`: pairs at this round's tables who met in an earlier round (a pair meeting for the
    third time counts again). `seat_repeats`: players seated in a wind they have sat in more
    often than another. The totals add every round up to this one. Substitutes count in
    neither: each is a placeholder for whoever fills the seat."""

    number: int
    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()
    substitutes: tuple[str, ...] = ()
    repeats: int = 0
    seat_repeats: int = 0
    total_repeats: int = 0
    total_seat_repeats: int = 0

    def table_of(self, name: str) -> Table:
        for table in self.tables:
            if name in table.players:
                return table
        raise SeatingError(f"{name} has no seat in round {self.number}")


@dataclass(frozen=True)
class Seating:
    """Every round of an event."""

    rounds: tuple[Round, ...]

    @property
    def repeats(self) -> int:
        return sum(round_.repeats for round_ in self.rounds)

    @property
    def seat_repeats(self) -> int:
        return sum(round_.seat_repeats for round_ in self.rounds)


# --- What the rounds so far say --------------------------------------------------------------


@dataclass
class _History:
    met: dict[str, dict[str, int]]
    winds: dict[str, list[int]]
    byes: dict[str, int]
    repeats: int = 0
    seat_repeats: int = 0

    def meetings(self, one: str, other: str) -> int:
        return self.met.get(one, {}).get(other, 0)

    def wind_counts(self, name: str) -> list[int]:
        return self.winds.get(name, [0, 0, 0, 0])

    def add(self, tables: Sequence[Sequence[str]], substitutes: Sequence[str]) -> tuple[int, int]:
        """Records a round's tables (seat order); returns its repeats and seat repeats."""
        placeholders = set(substitutes)
        repeats = seat_repeats = 0
        for table in tables:
            real = [name for name in table if name not in placeholders]
            for one, other in combinations(real, 2):
                if self.meetings(one, other):
                    repeats += 1
                mine = self.met.setdefault(one, {})
                mine[other] = mine.get(other, 0) + 1
                theirs = self.met.setdefault(other, {})
                theirs[one] = theirs.get(one, 0) + 1
            for wind, name in enumerate(table):
                if name in placeholders:
                    continue
                counts = self.winds.setdefault(name, [0, 0, 0, 0])
                if counts[wind] > min(counts):
                    seat_repeats += 1
                counts[wind] += 1
        self.repeats += repeats
        self.seat_repeats += seat_repeats
        return repeats, seat_repeats


def _replay(previous: Sequence[Round]) -> _History:
    history = _History({}, {}, {})
    for expected, round_ in enumerate(previous, 1):
        if round_.number != expected:
            raise SeatingError(
                f"round {len(previous) + 1} is seated after {_rounds_upto(len(previous))}, in "
                f"order; round {round_.number} came where round {expected} belongs"
            )
        history.add([table.players for table in round_.tables], round_.substitutes)
        for name in round_.byes:
            history.byes[name] = history.byes.get(name, 0) + 1
    return history


# --- Seating a round --------------------------------------------------------------------------


def seat_round(
    plan: SeatingPlan, previous: Sequence[Round] = (), standing: Sequence[str] | None = None
) -> Round:
    """The round after `previous` (rounds 1, 2... as seated before). `standing`: for a round
    seated by standing, its players best first (the standing after the round before)."""
    number = len(previous) + 1
    if number > plan.rounds:
        raise SeatingError(
            f"the event ends with round {plan.rounds}: there is no round {number}",
            key="refusal.event_no_round",
            params={"round": number, "last": plan.rounds},
        )
    history = _replay(previous)
    playing = plan.playing(number)
    rng = random.Random(f"seating {plan.seed} round {number}")
    by_standing = number > 1 and plan.later_rounds is LaterRounds.STANDING
    if by_standing:
        order = _checked_standing(standing, playing, number)
    elif standing is not None:
        raise SeatingError(
            f"round {number} is seated without standings: it takes no standing"
            if number > 1
            else "round 1 is seated before any standing: it takes none"
        )
    elif number == 1 and plan.first_round is FirstRound.LISTED:
        order = list(playing)
    else:
        order = list(playing)
        rng.shuffle(order)

    byes: tuple[str, ...] = ()
    substitutes: tuple[str, ...] = ()
    over = len(order) % SEATS
    if over and plan.leftover is Leftover.BYES:
        # The fewest byes so far first; among equals the last in the order (the lowest standing,
        # the last listed, or the last drawn).
        place = {name: position for position, name in enumerate(order)}
        candidates = sorted(order, key=lambda name: (history.byes.get(name, 0), -place[name]))
        byes = tuple(candidates[:over])
        resting = set(byes)
        order = [name for name in order if name not in resting]
    elif over:
        substitutes = tuple(SUBSTITUTE.format(index) for index in range(1, SEATS - over + 1))
        order += substitutes

    tables = None
    if number > 1 and plan.later_rounds is LaterRounds.NO_REPEATS:
        tables = _from_construction(order, previous, number, history)
    if tables is None:
        tables = _search(order, history, by_standing, rng)
        tables = [_seat_winds(table, history, substitutes) for table in tables]
    repeats, seat_repeats = history.add(tables, substitutes)
    return Round(
        number=number,
        tables=tuple(Table(index, tuple(players)) for index, players in enumerate(tables, 1)),
        byes=tuple(name for name in playing if name in byes),
        substitutes=substitutes,
        repeats=repeats,
        seat_repeats=seat_repeats,
        total_repeats=history.repeats,
        total_seat_repeats=history.seat_repeats,
    )


def seat_event(plan: SeatingPlan, standings: Mapping[int, Sequence[str]] | None = None) -> Seating:
    """Every round of the plan. `standings[r]`: for rounds seated by standing, the standing
    before round r (best first)."""
    rounds: list[Round] = []
    for number in range(1, plan.rounds + 1):
        standing = None
        if number > 1 and plan.later_rounds is LaterRounds.STANDING:
            standing = (standings or {}).get(number)
        rounds.append(seat_round(plan, rounds, standing))
    return Seating(tuple(rounds))


def _checked_standing(
    standing: Sequence[str] | None, playing: Sequence[str], number: int
) -> list[str]:
    if standing is None:
        raise SeatingError(
            f"round {number} is seated by standing: give the standing after round {number - 1}"
        )
    expected = set(playing)
    seen: set[str] = set()
    for name in standing:
        if name in seen:
            raise SeatingError(f"the standing names {name} twice")
        if name not in expected:
            raise SeatingError(f"the standing names {name}, who does not play round {number}")
        seen.add(name)
    missing = [name for name in playing if name not in seen]
    if missing:
        raise SeatingError(f"the standing leaves out {', '.join(missing)}")
    return list(standing)


# --- Known schedules without repeats ----------------------------------------------------------

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


def _from_construction(
    order: Sequence[str], previous: Sequence[Round], number: int, history: _History
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


# --- Everyone else: greedy, then tabu search over swaps -------------------------------------

_TABU_ITERATIONS = 1500
_TABU_STALL = 300
_WIND_STEPS = 8000
_WIND_STALL = 1500


def _search(
    order: Sequence[str],
    history: _History,
    by_standing: bool,
    rng: random.Random,
) -> list[list[str]]:
    """Tables of four (in no particular seat order) minimising the pairs' cost: meetings so far,
    and by standing also the distance of the two in the standing, meetings weighing more than
    any distance."""
    size = len(order)
    index = {name: position for position, name in enumerate(order)}
    met = [[0] * size for _ in range(size)]
    for one, position in index.items():
        row = met[position]
        for other, count in history.met.get(one, {}).items():
            if other in index:
                row[index[other]] = count
    weight = SEATS * size * size if by_standing else 1
    cost = [
        [
            weight * met[i][j] + (abs(i - j) if by_standing else 0) if i != j else 0
            for j in range(size)
        ]
        for i in range(size)
    ]
    tables = _greedy(size, cost)
    tables = _tabu(tables, cost, met, rng)
    if by_standing:
        tables = _descend_neighbours(tables, cost)
        tables.sort(key=min)
    else:
        tables = _balance_winds(tables, met, [history.wind_counts(name) for name in order], rng)
    return [[order[i] for i in table] for table in tables]


def _greedy(size: int, cost: list[list[int]]) -> list[list[int]]:
    """Each table opened by the first player left, then filled by the cheapest (the first among
    equals)."""
    left = list(range(size))
    tables: list[list[int]] = []
    while left:
        table = [left.pop(0)]
        while len(table) < SEATS:
            best = min(range(len(left)), key=lambda k: sum(cost[left[k]][t] for t in table))
            table.append(left.pop(best))
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


def _descend_neighbours(tables: list[list[int]], cost: list[list[int]]) -> list[list[int]]:
    """By standing: swaps between tables near in the standing while a swap lowers the cost."""
    current = sorted((list(table) for table in tables), key=min)
    improved = True
    passes = 0
    while improved and passes < 50:
        improved = False
        passes += 1
        for t1 in range(len(current)):
            for t2 in range(t1 + 1, min(t1 + 3, len(current))):
                for i in range(SEATS):
                    for j in range(SEATS):
                        if _swap_delta(current, cost, t1, i, t2, j) < 0:
                            a, b = current[t1][i], current[t2][j]
                            current[t1][i], current[t2][j] = b, a
                            improved = True
    return current


def _wind_penalty(table: Sequence[int], fresh: Sequence[int]) -> int:
    """The fewest seat repeats the table can have over its 24 seatings. `fresh[p]`: the winds
    (bit i for wind i) player p has sat in least."""
    best = SEATS
    masks = [fresh[player] for player in table]
    for seating in _PERMUTATIONS:
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
    for _ in range(_WIND_STEPS):
        unbalanced = [table for table in range(count) if penalties[table]]
        if not unbalanced or count < 2 or stall >= _WIND_STALL:
            break
        stall += 1
        t1 = unbalanced[rng.randrange(len(unbalanced))]
        t2 = rng.randrange(count - 1)
        t2 += t2 >= t1
        i, j = rng.randrange(SEATS), rng.randrange(SEATS)
        if _swap_delta(current, met, t1, i, t2, j) > 0:
            continue
        first, second = list(current[t1]), list(current[t2])
        first[i], second[j] = second[j], first[i]
        p1, p2 = _wind_penalty(first, fresh), _wind_penalty(second, fresh)
        if p1 + p2 <= penalties[t1] + penalties[t2]:
            if p1 + p2 < penalties[t1] + penalties[t2]:
                stall = 0
            current[t1], current[t2] = first, second
            penalties[t1], penalties[t2] = p1, p2
    return current


def _seat_winds(table: Sequence[str], history: _History, substitutes: Sequence[str]) -> list[str]:
    """The table's four in the winds that give the fewest seat repeats, then the fewest seats
    already taken often (the sum of squares); the table's own order among equals."""
    placeholders = set(substitutes)
    counts = [[0, 0, 0, 0] if name in placeholders else history.wind_counts(name) for name in table]
    best_key: tuple[int, int] | None = None
    best: tuple[int, ...] = _PERMUTATIONS[0]
    for seating in _PERMUTATIONS:
        penalty = spread = 0
        for wind, seat in enumerate(seating):
            mine = counts[seat]
            penalty += mine[wind] > min(mine)
            spread += mine[wind] * mine[wind]
        key = (penalty, spread)
        if best_key is None or key < best_key:
            best_key, best = key, seating
    return [table[seat] for seat in best]

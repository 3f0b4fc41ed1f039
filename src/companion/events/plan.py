"""What an event's seating is made of: the players (late entries and withdrawals), the plan
(rounds, seed, how rounds are seated, the table size: four, or three for a profile of three
seats such as sanma; the players over a multiple of it) with its checks, and the rounds it
gives (tables East first). Pure: docs/events.md, *Seating*."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum

from companion.errors import InvalidRequestError
from companion.names import clean_name, name_key, same_name
from companion.tiles import Wind

SEATS = 4
"""The players at a table, but where the event's profile seats three (`SeatingPlan.table_size`)."""
TABLE_WORDS = {4: "four", 3: "three"}
WINDS = (Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH)
SUBSTITUTE = "Substitute {}"
"""The name of the n-th substitute of a round (a placeholder for whoever fills the seat)."""


class FirstRound(Enum):
    """How round 1 is seated."""

    RANDOM = "random"
    """In an order drawn with the plan's seed value."""
    LISTED = "listed"
    """In the order the players are entered: the first four at table 1, East first."""
    BALANCED = "balanced"
    """Balanced by rating: the players, entered best first (a club's leaderboard), dealt to the
    tables in snake order (`companion.events.balanced`)."""


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

    def __init__(self, players: int, round_number: int | None, table_size: int = SEATS) -> None:
        self.players = players
        self.tables = players // table_size
        self.over = players % table_size
        self.substitutes = table_size - self.over
        self.round_number = round_number
        # Worded so that every count reads right (1 over, 3 over): the pages say it from the
        # catalogue with the same parameters.
        text = (
            f"{players} players leave {self.over} over at tables of {TABLE_WORDS[table_size]}: "
            f"bring in {self.substitutes} more to substitute, or give {self.over} of them a bye"
        )
        if round_number is not None:
            text = f"in round {round_number}, {text}"
        key = "refusal.event_uneven" if round_number is None else "refusal.event_uneven_round"
        super().__init__(
            text,
            key=key if table_size == SEATS else f"{key}_three",
            params={
                "players": players,
                "tables": self.tables,
                "over": self.over,
                "substitutes": self.substitutes,
                "round": round_number,
            },
        )


@dataclass(frozen=True)
class Entrant:
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
    can be seated (a table's players at least, whole tables or a way to complete them)."""

    players: tuple[Entrant, ...]
    rounds: int
    seed: int = 0
    first_round: FirstRound = FirstRound.RANDOM
    later_rounds: LaterRounds = LaterRounds.NO_REPEATS
    leftover: Leftover | None = None
    table_size: int = SEATS
    """The players at a table: the event's profile's seats (four; sanma's three)."""

    @classmethod
    def of(
        cls,
        players: Sequence[str | Entrant],
        rounds: int,
        *,
        seed: int = 0,
        first_round: FirstRound = FirstRound.RANDOM,
        later_rounds: LaterRounds = LaterRounds.NO_REPEATS,
        leftover: Leftover | None = None,
        table_size: int = SEATS,
    ) -> SeatingPlan:
        """A plan from names (who play every round) and entries, their names as `clean_name`
        keeps them (look-alike names are one name)."""
        entries = tuple(
            Entrant(clean_name(item))
            if isinstance(item, str)
            else replace(item, name=clean_name(item.name))
            for item in players
        )
        return cls(entries, rounds, seed, first_round, later_rounds, leftover, table_size)

    def __post_init__(self) -> None:
        if self.table_size not in TABLE_WORDS:
            raise SeatingError(f"a table seats three or four players, not {self.table_size}")
        if self.rounds < 1:
            raise SeatingError(
                f"an event needs at least 1 round; got {self.rounds}",
                key="refusal.event_few_rounds",
                params={"rounds": self.rounds},
            )
        seen: dict[str, str] = {}
        for entry in self.players:
            name = entry.name
            if not clean_name(name):
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
            key = name_key(name)
            if key in seen:
                raise SeatingError(
                    same_name(seen[key], name),
                    key="refusal.event_same_name",
                    params={"first": seen[key], "second": name},
                )
            seen[key] = name
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
        size = self.table_size
        for number, count in enumerate(counts, 1):
            if count < size:
                if same:
                    raise SeatingError(
                        f"a table needs {size} players, and the event has {count}",
                        key="refusal.event_too_few",
                        params={"count": count, "size": size},
                    )
                raise SeatingError(
                    f"a table needs {size} players, and round {number} has {count}",
                    key="refusal.event_too_few_round",
                    params={"round": number, "count": count, "size": size},
                )
            if count % size and self.leftover is None:
                raise UnevenFieldError(count, None if same else number, size)

    def playing(self, round_number: int) -> tuple[str, ...]:
        """The players of a round, in the order they are entered."""
        return tuple(entry.name for entry in self.players if entry.plays(round_number))

    def playing_count(self, round_number: int) -> int:
        return sum(1 for entry in self.players if entry.plays(round_number))


def _is_substitute_name(name: str) -> bool:
    head, _, number = name_key(name).partition(" ")
    return head == "substitute" and number.isdigit()


@dataclass(frozen=True)
class Table:
    """A table of a round: its number (from 1) and its players (four, or three) in seat order,
    East first."""

    number: int
    players: tuple[str, ...]

    def player_at(self, wind: Wind) -> str:
        return self.players[wind.index]

    def wind_of(self, name: str) -> Wind:
        return WINDS[self.players.index(name)]

    @property
    def seats(self) -> tuple[tuple[Wind, str], ...]:
        return tuple(zip(WINDS[: len(self.players)], self.players, strict=True))


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

"""What an event's seated rounds say about its players: who met whom and how often, who sat in
which wind, who sat a round out. The seating reads it to seat the next round, and counts each
round's repeats and seat repeats as it adds the round."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from companion.events.plan import SEATS, Round, SeatingError


def _rounds_upto(number: int) -> str:
    return "round 1" if number == 1 else f"rounds 1 to {number}"


@dataclass
class History:
    """The rounds seated so far, as counts: meetings by pair, winds sat by player (East first),
    byes by player, and the repeats and seat repeats in all."""

    met: dict[str, dict[str, int]]
    winds: dict[str, list[int]]
    byes: dict[str, int]
    repeats: int = 0
    seat_repeats: int = 0
    seats: int = SEATS
    """The winds of a table: four, or three (East, South, West) at tables of three."""

    def meetings(self, one: str, other: str) -> int:
        return self.met.get(one, {}).get(other, 0)

    def wind_counts(self, name: str) -> list[int]:
        return self.winds.get(name, [0] * self.seats)

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
                counts = self.winds.setdefault(name, [0] * self.seats)
                if counts[wind] > min(counts):
                    seat_repeats += 1
                counts[wind] += 1
        self.repeats += repeats
        self.seat_repeats += seat_repeats
        return repeats, seat_repeats


def history_of(previous: Sequence[Round], seats: int = SEATS) -> History:
    """The history of rounds 1, 2... as seated (tables of `seats`), refused when they are not
    in that order."""
    history = History({}, {}, {}, seats=seats)
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

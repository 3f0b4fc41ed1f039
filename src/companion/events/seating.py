"""Seating an event: the players at tables of four (of three where the event's profile seats
three: `SeatingPlan.table_size`), round by round, East first (docs/events.md).

Pure: a plan (the players, their late entries and withdrawals, the number of rounds, a seed and
the options) and the rounds already seated give the next round, the same one every time. Pairs
of players who meet again (repeats) and players who sit in a wind more often than another
(seat repeats) are counted for every round and in total.

A field that sat round 1 together takes its later rounds from a schedule known to have no
repeats where one exists: sixteen players the affine plane of order 4 (five rounds), 4m players
with m prime to 2 and 3 a cyclic schedule (m rounds); both seat everyone in every wind once over
four rounds. Every other round is seated by a seeded greedy pass and a tabu search over swaps
between tables; a last pass swaps players where that balances the winds without a new repeat.

The plan and the rounds it gives are in `companion.events.plan`, what the rounds so far say in
`companion.events.history`, the known schedules in `companion.events.schedules` and the search
in `companion.events.search`."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from companion.events.balanced import balanced_order
from companion.events.history import History, history_of
from companion.events.plan import (
    SEATS,
    SUBSTITUTE,
    FirstRound,
    LaterRounds,
    Leftover,
    Round,
    Seating,
    SeatingError,
    SeatingPlan,
    Table,
)
from companion.events.schedules import from_schedule
from companion.events.search import search_tables, seat_winds


def seat_round(
    plan: SeatingPlan,
    previous: Sequence[Round] = (),
    standing: Sequence[str] | None = None,
    *,
    history: History | None = None,
) -> Round:
    """The round after `previous` (rounds 1, 2... as seated before). `standing`: for a round
    seated by standing, its players best first (the standing after the round before).
    `history`: `previous` as counted (`history_of`), when the caller keeps it round by round
    (`seat_event`); the round is added to it."""
    number = len(previous) + 1
    if number > plan.rounds:
        raise SeatingError(
            f"the event ends with round {plan.rounds}: there is no round {number}",
            key="refusal.event_no_round",
            params={"round": number, "last": plan.rounds},
        )
    size = plan.table_size
    if history is None:
        history = history_of(previous, size)
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
    elif number == 1 and plan.first_round in (FirstRound.LISTED, FirstRound.BALANCED):
        order = list(playing)
    else:
        order = list(playing)
        rng.shuffle(order)

    byes: tuple[str, ...] = ()
    substitutes: tuple[str, ...] = ()
    over = len(order) % size
    if over and plan.leftover is Leftover.BYES:
        # The fewest byes so far first; among equals the last in the order (the lowest standing,
        # the last listed, or the last drawn).
        place = {name: position for position, name in enumerate(order)}
        candidates = sorted(order, key=lambda name: (history.byes.get(name, 0), -place[name]))
        byes = tuple(candidates[:over])
        resting = set(byes)
        order = [name for name in order if name not in resting]
    elif over:
        substitutes = tuple(SUBSTITUTE.format(index) for index in range(1, size - over + 1))
        order += substitutes

    if number == 1 and plan.first_round is FirstRound.BALANCED:
        order = balanced_order(order, size)  # after the byes: the weakest sit out

    tables = None
    # The known schedules are of tables of four.
    if number > 1 and plan.later_rounds is LaterRounds.NO_REPEATS and size == SEATS:
        tables = from_schedule(order, previous, number, history)
    if tables is None:
        tables = search_tables(order, history, by_standing, rng)
        tables = [seat_winds(table, history, substitutes) for table in tables]
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
    # Counted as the rounds are seated, not anew for each round from the first.
    history = history_of((), plan.table_size)
    for number in range(1, plan.rounds + 1):
        standing = None
        if number > 1 and plan.later_rounds is LaterRounds.STANDING:
            standing = (standings or {}).get(number)
        seated = seat_round(plan, rounds, standing, history=history)
        for name in seated.byes:
            history.byes[name] = history.byes.get(name, 0) + 1
        rounds.append(seated)
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

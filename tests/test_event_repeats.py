"""The repeats a field cannot avoid (companion.events.repeats): worked cases, and every seating
the events make holds to the bound (it is a lower bound, so a seating under it would prove it
wrong)."""

from __future__ import annotations

import random

import pytest

from companion.events.plan import Leftover, SeatingPlan
from companion.events.repeats import plan_repeats, unavoidable_repeats
from companion.events.seating import seat_event


def names(count: int) -> list[str]:
    return [f"P{index}" for index in range(1, count + 1)]


def field(count: int, rounds: int) -> list[frozenset[str]]:
    return [frozenset(names(count))] * rounds


def test_eight_players_over_two_rounds_must_meet_again_four_times() -> None:
    # Round 2's two tables each take two players of each round-1 table: two pairs a table.
    assert unavoidable_repeats(field(8, 2), byes=False) == (0, 4)
    seating = seat_event(SeatingPlan.of(names(8), 2))
    assert seating.rounds[1].repeats == 4


def test_a_field_of_four_tables_meets_nobody_twice_in_two_rounds() -> None:
    assert unavoidable_repeats(field(16, 2), byes=False) == (0, 0)


def test_more_rounds_than_others_to_meet() -> None:
    # 16 players meet 15 others: five rounds (15 meetings each) can be new, the sixth cannot.
    assert unavoidable_repeats(field(16, 6), byes=False)[-1] == 16 * 3 // 2


def test_twelve_players_over_three_rounds() -> None:
    # Against round 1: each later table takes two from one round-1 table (three tables, four
    # seats): one pair a table, three a round.
    assert unavoidable_repeats(field(12, 3), byes=False) == (0, 3, 6)


def test_byes_and_substitutes_can_only_lower_the_bound() -> None:
    with_byes = unavoidable_repeats(field(9, 2), byes=True)
    with_substitutes = unavoidable_repeats(field(9, 2), byes=False)
    assert with_byes[0] == with_substitutes[0] == 0
    assert with_byes[1] <= unavoidable_repeats(field(8, 2), byes=False)[1]


@pytest.mark.parametrize("seed", range(40))
def test_no_seating_beats_the_bound(seed: int) -> None:
    rng = random.Random(seed)
    count = rng.randrange(4, 29)
    rounds = rng.randrange(1, 9)
    leftover = rng.choice([Leftover.BYES, Leftover.SUBSTITUTES])
    plan = SeatingPlan.of(names(count), rounds, seed=seed, leftover=leftover)
    bound = plan_repeats(plan)
    seating = seat_event(plan)
    for round_, least in zip(seating.rounds, bound, strict=True):
        assert round_.total_repeats >= least, (count, rounds, leftover, round_.number)

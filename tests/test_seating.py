"""Seating an event (companion.events.plan and companion.events.seating, docs/events.md): no
repeats while possible and counted where not, winds balanced, the same seed the same seating,
late entries, withdrawals, byes, substitutes, seating by standing, and every refusal with its
message."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import InvalidRequestError
from companion.events.plan import (
    Entrant,
    FirstRound,
    LaterRounds,
    Leftover,
    Round,
    Seating,
    SeatingError,
    SeatingPlan,
    UnevenFieldError,
)
from companion.events.seating import seat_event, seat_round
from companion.tiles import Wind


def names(count: int) -> list[str]:
    return [f"P{number}" for number in range(1, count + 1)]


def tables_of(round_: Round) -> list[tuple[str, ...]]:
    return [table.players for table in round_.tables]


def repeats_by_round(seating: Seating) -> list[int]:
    """Pairs at a table who sat together in an earlier round, counted here from the tables
    alone (substitutes left out)."""
    met: Counter[frozenset[str]] = Counter()
    found = []
    for round_ in seating.rounds:
        count = 0
        for table in round_.tables:
            real = [name for name in table.players if name not in round_.substitutes]
            for pair in combinations(real, 2):
                count += met[frozenset(pair)] > 0
                met[frozenset(pair)] += 1
        found.append(count)
    return found


def seat_repeats_by_round(seating: Seating) -> list[int]:
    """Players seated in a wind they had sat in more often than another wind."""
    winds: dict[str, Counter[Wind]] = {}
    found = []
    for round_ in seating.rounds:
        count = 0
        for table in round_.tables:
            for wind, name in table.seats:
                if name in round_.substitutes:
                    continue
                mine = winds.setdefault(name, Counter())
                count += mine[wind] > min(mine[other] for other in Wind)
                mine[wind] += 1
        found.append(count)
    return found


def assert_well_formed(plan: SeatingPlan, seating: Seating) -> None:
    """Every round seats each of its players once (or gives a bye), in tables of four."""
    assert [round_.number for round_ in seating.rounds] == list(range(1, plan.rounds + 1))
    for round_ in seating.rounds:
        seated = [name for table in round_.tables for name in table.players]
        assert all(len(table.players) == 4 for table in round_.tables)
        assert [table.number for table in round_.tables] == list(range(1, len(round_.tables) + 1))
        assert len(seated) == len(set(seated))
        assert sorted([*seated, *round_.byes]) == sorted(
            [*plan.playing(round_.number), *round_.substitutes]
        )


# --- Sixteen players ------------------------------------------------------------------------


@pytest.mark.parametrize("rounds", [4, 5])
@pytest.mark.parametrize("first_round", list(FirstRound))
@pytest.mark.parametrize("seed", [0, 1, 2024])
def test_sixteen_players_never_meet_twice(rounds: int, first_round: FirstRound, seed: int) -> None:
    plan = SeatingPlan.of(names(16), rounds, seed=seed, first_round=first_round)
    seating = seat_event(plan)
    assert_well_formed(plan, seating)
    assert repeats_by_round(seating) == [0] * rounds
    assert [round_.repeats for round_ in seating.rounds] == [0] * rounds
    assert seating.repeats == 0
    # Over five rounds every pair of the sixteen meets exactly once.
    pairs = Counter(
        frozenset(pair)
        for round_ in seating.rounds
        for table in round_.tables
        for pair in combinations(table.players, 2)
    )
    assert len(pairs) == 6 * 4 * rounds
    assert set(pairs.values()) == {1}
    if rounds == 5:
        assert len(pairs) == 16 * 15 // 2


@pytest.mark.parametrize("seed", [0, 7, 99])
def test_sixteen_players_over_four_rounds_sit_every_wind_once(seed: int) -> None:
    seating = seat_event(SeatingPlan.of(names(16), 4, seed=seed))
    for name in names(16):
        winds = [round_.table_of(name).wind_of(name) for round_ in seating.rounds]
        assert sorted(winds, key=lambda wind: wind.index) == list(Wind), name
    assert seating.seat_repeats == 0
    assert seat_repeats_by_round(seating) == [0, 0, 0, 0]


def test_round_one_listed_seats_the_list_in_order_east_first() -> None:
    round_ = seat_round(SeatingPlan.of(names(8), 1, first_round=FirstRound.LISTED))
    assert tables_of(round_) == [("P1", "P2", "P3", "P4"), ("P5", "P6", "P7", "P8")]
    assert round_.tables[1].player_at(Wind.EAST) == "P5"
    assert round_.tables[1].wind_of("P8") is Wind.NORTH
    assert round_.tables[0].seats[1] == (Wind.SOUTH, "P2")


def test_same_seed_same_seating_another_seed_another() -> None:
    for count, rounds in ((16, 4), (24, 5), (18, 3)):
        plan = SeatingPlan.of(names(count), rounds, seed=5, leftover=Leftover.BYES)
        again = SeatingPlan.of(names(count), rounds, seed=5, leftover=Leftover.BYES)
        other = SeatingPlan.of(names(count), rounds, seed=6, leftover=Leftover.BYES)
        assert seat_event(plan) == seat_event(again)
        assert seat_event(plan) != seat_event(other)
        assert tables_of(seat_event(plan).rounds[0]) != tables_of(seat_event(other).rounds[0])


def test_a_seed_gives_this_seating_on_any_machine() -> None:
    # Pinned: the draw depends on the plan alone (no hash order, no clock), so a change here
    # changes every event seated before it.
    seating = seat_event(SeatingPlan.of(names(8), 2, seed=1))
    assert [tables_of(round_) for round_ in seating.rounds] == [
        [("P2", "P8", "P1", "P3"), ("P7", "P5", "P6", "P4")],
        [("P4", "P2", "P5", "P8"), ("P1", "P7", "P3", "P6")],
    ]
    # Eight players make two tables: round 2 cannot avoid two pairs of round 1 at each.
    assert [round_.repeats for round_ in seating.rounds] == [0, 4]
    assert [round_.seat_repeats for round_ in seating.rounds] == [0, 0]


def test_a_round_seated_alone_is_the_round_of_the_whole_event() -> None:
    plan = SeatingPlan.of(names(24), 4, seed=3)
    seating = seat_event(plan)
    for number in range(1, 5):
        assert seat_round(plan, seating.rounds[: number - 1]) == seating.rounds[number - 1]


# --- Repeats where they cannot be avoided -----------------------------------------------------


def test_twelve_players_over_three_rounds_count_their_repeats() -> None:
    seating = seat_event(SeatingPlan.of(names(12), 3, seed=1))
    counted = repeats_by_round(seating)
    assert [round_.repeats for round_ in seating.rounds] == counted
    assert [round_.total_repeats for round_ in seating.rounds] == [
        sum(counted[:number]) for number in (1, 2, 3)
    ]
    assert seating.repeats == sum(counted)
    # Three tables of four: round 2 seats four players from three tables of round 1, so each
    # table holds a pair that met; the search finds that least.
    assert counted[0] == 0
    assert counted[1] == 3
    assert [round_.seat_repeats for round_ in seating.rounds] == seat_repeats_by_round(seating)


@pytest.mark.parametrize(("count", "rounds"), [(20, 5), (24, 6), (32, 7), (28, 7), (100, 8)])
def test_figures_are_the_tables_own(count: int, rounds: int) -> None:
    plan = SeatingPlan.of(names(count), rounds, seed=11)
    seating = seat_event(plan)
    assert_well_formed(plan, seating)
    assert [round_.repeats for round_ in seating.rounds] == repeats_by_round(seating)
    assert [round_.seat_repeats for round_ in seating.rounds] == seat_repeats_by_round(seating)
    assert seating.rounds[-1].total_repeats == seating.repeats
    assert seating.rounds[-1].total_seat_repeats == seating.seat_repeats


@pytest.mark.parametrize(("count", "rounds"), [(20, 5), (28, 7), (100, 8), (64, 8)])
def test_fields_with_a_schedule_or_room_meet_nobody_twice(count: int, rounds: int) -> None:
    seating = seat_event(SeatingPlan.of(names(count), rounds, seed=4))
    assert seating.repeats == 0


def test_twenty_players_over_four_rounds_sit_every_wind_once() -> None:
    seating = seat_event(SeatingPlan.of(names(20), 4, seed=2))
    assert seating.seat_repeats == 0
    assert seat_repeats_by_round(seating) == [0, 0, 0, 0]


def test_rounds_given_back_are_read_as_they_are() -> None:
    # An organiser moved two players by hand: the next round counts from the tables as given.
    plan = SeatingPlan.of(names(8), 2, first_round=FirstRound.LISTED)
    first = seat_round(plan)
    edited = Round(1, (first.tables[0], first.tables[1]))
    second = seat_round(plan, [edited])
    assert second.repeats == repeats_by_round(Seating((edited, second)))[1]
    assert second.total_repeats == second.repeats


# --- Late entries and withdrawals ------------------------------------------------------------


def test_late_entries_and_withdrawals_play_their_rounds_only() -> None:
    players: list[str | Entrant] = [
        *names(13),
        Entrant("P14", withdraws_after=3),
        Entrant("Late", joins=2),
        Entrant("Later", joins=3),
        Entrant("Gone", withdraws_after=1),
        Entrant("Brief", joins=2, withdraws_after=2),
    ]
    plan = SeatingPlan.of(players, 4, seed=8, leftover=Leftover.BYES)
    seating = seat_event(plan)
    assert_well_formed(plan, seating)

    def present(name: str) -> list[bool]:
        return [
            any(name in table.players for table in round_.tables) or name in round_.byes
            for round_ in seating.rounds
        ]

    assert present("Late") == [False, True, True, True]
    assert present("Later") == [False, False, True, True]
    assert present("Gone") == [True, False, False, False]
    assert present("Brief") == [False, True, False, False]
    assert present("P14") == [True, True, True, False]
    assert [len(plan.playing(number)) for number in (1, 2, 3, 4)] == [15, 16, 16, 15]
    assert [len(round_.byes) for round_ in seating.rounds] == [3, 0, 0, 3]
    assert [round_.repeats for round_ in seating.rounds] == repeats_by_round(seating)


# --- Byes and substitutes ---------------------------------------------------------------------


def test_byes_rotate_so_nobody_sits_out_twice() -> None:
    plan = SeatingPlan.of(names(18), 9, seed=3, leftover=Leftover.BYES)
    seating = seat_event(plan)
    assert_well_formed(plan, seating)
    byes = [name for round_ in seating.rounds for name in round_.byes]
    assert [len(round_.byes) for round_ in seating.rounds] == [2] * 9
    assert len(byes) == len(set(byes)) == 18
    # A tenth round gives the second byes, again to players who have had one bye only.
    tenth = seat_round(
        SeatingPlan.of(names(18), 10, seed=3, leftover=Leftover.BYES), seating.rounds
    )
    assert len(tenth.byes) == 2


def test_byes_in_round_one_listed_go_to_the_last_listed() -> None:
    plan = SeatingPlan.of(names(19), 1, first_round=FirstRound.LISTED, leftover=Leftover.BYES)
    round_ = seat_round(plan)
    assert round_.byes == ("P17", "P18", "P19")
    assert tables_of(round_)[-1] == ("P13", "P14", "P15", "P16")


def test_substitutes_complete_the_last_table() -> None:
    plan = SeatingPlan.of(names(14), 3, seed=1, leftover=Leftover.SUBSTITUTES)
    seating = seat_event(plan)
    assert_well_formed(plan, seating)
    for round_ in seating.rounds:
        assert round_.substitutes == ("Substitute 1", "Substitute 2")
        assert round_.byes == ()
        assert len(round_.tables) == 4
    listed = seat_round(
        SeatingPlan.of(names(13), 1, first_round=FirstRound.LISTED, leftover=Leftover.SUBSTITUTES)
    )
    assert tables_of(listed)[-1] == ("P13", "Substitute 1", "Substitute 2", "Substitute 3")
    # Substitutes are placeholders: sitting with one again is no repeat.
    assert [round_.repeats for round_ in seating.rounds] == repeats_by_round(seating)


@pytest.mark.parametrize("leftover", [None, Leftover.BYES, Leftover.SUBSTITUTES])
def test_a_substitutes_name_is_refused_in_every_event(leftover: Leftover | None) -> None:
    # The standings leave the placeholders' names out, whatever the event plays: a player
    # entered as one would play and then be missing from the leaderboard.
    with pytest.raises(SeatingError) as caught:
        SeatingPlan.of([*names(7), "Substitute 1"], 2, leftover=leftover)
    assert caught.value.message == (
        "Substitute 1 is what the seating calls a substitute: enter the player under another name"
    )
    assert caught.value.key == "refusal.event_player_substitute"


def test_no_leftover_needed_no_byes_nor_substitutes() -> None:
    plan = SeatingPlan.of(names(16), 2, leftover=Leftover.BYES)
    assert all(round_.byes == () for round_ in seat_event(plan).rounds)
    plan = SeatingPlan.of(names(16), 2, leftover=Leftover.SUBSTITUTES)
    assert all(round_.substitutes == () for round_ in seat_event(plan).rounds)


# --- By standing (Swiss) ----------------------------------------------------------------------


def swiss(count: int, rounds: int, **options: object) -> SeatingPlan:
    return SeatingPlan.of(
        names(count),
        rounds,
        first_round=FirstRound.LISTED,
        later_rounds=LaterRounds.STANDING,
        **options,  # type: ignore[arg-type]
    )


def test_by_standing_neighbours_share_a_table() -> None:
    plan = swiss(16, 2)
    first = seat_round(plan)
    # Nobody of this standing's groups of four met in round 1: the groups are the tables.
    standing = ["P1", "P5", "P9", "P13", "P2", "P6", "P10", "P14"]
    standing += ["P3", "P7", "P11", "P15", "P4", "P8", "P12", "P16"]
    second = seat_round(plan, [first], standing)
    assert sorted(map(sorted, tables_of(second))) == sorted(
        sorted(standing[start : start + 4]) for start in (0, 4, 8, 12)
    )
    assert [min(table.players, key=standing.index) for table in second.tables] == [
        "P1",
        "P2",
        "P3",
        "P4",
    ]
    assert second.repeats == 0


def test_by_standing_repeats_are_avoided_where_possible() -> None:
    plan = swiss(16, 2)
    first = seat_round(plan)
    # The standing is round 1's order: its neighbours all met, and none need meet again.
    standing = names(16)
    second = seat_round(plan, [first], standing)
    assert second.repeats == 0
    assert "P1" in second.tables[0].players
    # The top table takes the best player of each table of round 1.
    assert sorted(second.tables[0].players, key=standing.index) == ["P1", "P5", "P9", "P13"]


def test_by_standing_byes_go_to_the_lowest_first() -> None:
    plan = swiss(18, 3, leftover=Leftover.BYES)
    first = seat_round(plan)
    assert first.byes == ("P17", "P18")
    standing = names(18)
    second = seat_round(plan, [first], standing)
    assert second.byes == ("P15", "P16")
    third = seat_round(plan, [first, second], standing)
    assert third.byes == ("P13", "P14")


def test_seat_event_takes_the_standings_by_round() -> None:
    plan = swiss(8, 3)
    order = names(8)[::-1]
    seating = seat_event(plan, {2: order, 3: order})
    assert_well_formed(plan, seating)
    assert "P8" in seating.rounds[1].tables[0].players


# --- Refusals --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "rounds", "options", "message"),
    [
        (names(3), 2, {}, "a table needs 4 players, and the event has 3"),
        ([], 1, {}, "a table needs 4 players, and the event has 0"),
        (names(1), 1, {}, "a table needs 4 players, and the event has 1"),
        (names(8), 0, {}, "an event needs at least 1 round; got 0"),
        (names(8), -2, {}, "an event needs at least 1 round; got -2"),
        (
            [*names(7), "p3"],
            2,
            {},
            "each player needs a different name: P3 and p3 are the same (names are compared "
            "without case, width, extra spaces or invisible characters)",
        ),
        ([*names(7), "  "], 2, {}, "a player's name cannot be empty"),
        ([*names(7), "Ann, Ben"], 2, {}, "a player's name cannot contain a comma: Ann, Ben"),
        (
            [*names(7), "Substitute 2"],
            2,
            {"leftover": Leftover.SUBSTITUTES},
            "Substitute 2 is what the seating calls a substitute: enter the player under "
            "another name",
        ),
        (
            [*names(8), Entrant("Ann", joins=4)],
            3,
            {"leftover": Leftover.BYES},
            "Ann joins in round 4, but the event has rounds 1 to 3",
        ),
        (
            [*names(8), Entrant("Ann", joins=0)],
            3,
            {"leftover": Leftover.BYES},
            "Ann joins in round 0, but the event has rounds 1 to 3",
        ),
        (
            [*names(8), Entrant("Ann", joins=3, withdraws_after=1)],
            3,
            {"leftover": Leftover.BYES},
            "Ann withdraws after round 1 but joins in round 3",
        ),
        (
            [*names(3), Entrant("Ann", withdraws_after=1)],
            2,
            {"leftover": Leftover.BYES},
            "a table needs 4 players, and round 2 has 3",
        ),
    ],
)
def test_plans_refused(
    players: Sequence[str | Entrant], rounds: int, options: dict[str, object], message: str
) -> None:
    with pytest.raises(SeatingError) as caught:
        SeatingPlan.of(players, rounds, **options)  # type: ignore[arg-type]
    assert caught.value.message == message
    assert isinstance(caught.value, InvalidRequestError)


@pytest.mark.parametrize(
    ("count", "message"),
    [
        (
            18,
            "18 players leave 2 over at tables of four: "
            "bring in 2 more to substitute, or give 2 of them a bye",
        ),
        (
            17,
            "17 players leave 1 over at tables of four: "
            "bring in 3 more to substitute, or give 1 of them a bye",
        ),
        (
            7,
            "7 players leave 3 over at tables of four: "
            "bring in 1 more to substitute, or give 3 of them a bye",
        ),
    ],
)
def test_an_uneven_field_says_so_and_offers_both_ways(count: int, message: str) -> None:
    with pytest.raises(UnevenFieldError) as caught:
        SeatingPlan.of(names(count), 3)
    error = caught.value
    assert error.message == message
    assert error.key == "refusal.event_uneven"
    assert (error.players, error.tables, error.over) == (count, count // 4, count % 4)
    assert error.substitutes == 4 - count % 4
    assert error.round_number is None


def test_an_uneven_round_is_named() -> None:
    with pytest.raises(UnevenFieldError) as caught:
        SeatingPlan.of([*names(16), Entrant("Ann", joins=2), Entrant("Ben", joins=2)], 3)
    assert caught.value.message == (
        "in round 2, 18 players leave 2 over at tables of four: "
        "bring in 2 more to substitute, or give 2 of them a bye"
    )
    assert caught.value.round_number == 2


def test_rounds_refused() -> None:
    plan = SeatingPlan.of(names(8), 2, seed=1)
    seating = seat_event(plan)

    def refused(previous: Sequence[Round], standing: Sequence[str] | None = None) -> str:
        with pytest.raises(SeatingError) as caught:
            seat_round(plan, previous, standing)
        return caught.value.message

    assert refused(seating.rounds) == "the event ends with round 2: there is no round 3"
    assert refused([seating.rounds[1]]) == (
        "round 2 is seated after round 1, in order; round 2 came where round 1 belongs"
    )
    assert refused(seating.rounds[:1], names(8)) == (
        "round 2 is seated without standings: it takes no standing"
    )
    assert refused([], names(8)) == "round 1 is seated before any standing: it takes none"


def test_standings_refused() -> None:
    plan = swiss(8, 2)
    first = seat_round(plan)

    def refused(standing: Sequence[str] | None) -> str:
        with pytest.raises(SeatingError) as caught:
            seat_round(plan, [first], standing)
        return caught.value.message

    assert refused(None) == "round 2 is seated by standing: give the standing after round 1"
    assert refused([*names(8), "P1"]) == "the standing names P1 twice"
    assert refused([*names(8), "Zed"]) == "the standing names Zed, who does not play round 2"
    assert refused(names(6)) == "the standing leaves out P7, P8"
    seat_round(plan, [first], names(8))


def test_a_player_without_a_seat_is_refused() -> None:
    round_ = seat_round(SeatingPlan.of(names(4), 1))
    with pytest.raises(SeatingError) as caught:
        round_.table_of("Zed")
    assert caught.value.message == "Zed has no seat in round 1"


# --- Properties -------------------------------------------------------------------------------


@settings(max_examples=40)
@given(
    count=st.integers(4, 40),
    rounds=st.integers(1, 6),
    seed=st.integers(0, 2**32),
    leftover=st.sampled_from(list(Leftover)),
    first_round=st.sampled_from(list(FirstRound)),
)
def test_every_seating_is_well_formed_and_counted(
    count: int, rounds: int, seed: int, leftover: Leftover, first_round: FirstRound
) -> None:
    plan = SeatingPlan.of(
        names(count), rounds, seed=seed, leftover=leftover, first_round=first_round
    )
    seating = seat_event(plan)
    assert_well_formed(plan, seating)
    assert [round_.repeats for round_ in seating.rounds] == repeats_by_round(seating)
    assert [round_.seat_repeats for round_ in seating.rounds] == seat_repeats_by_round(seating)
    assert seat_event(plan) == seating
    byes = Counter(name for round_ in seating.rounds for name in round_.byes)
    # Byes rotate: nobody has a second before everyone has had a first.
    if byes:
        assert max(byes.values()) - (min(byes.values()) if len(byes) == count else 0) <= 1


@settings(max_examples=25)
@given(
    count=st.integers(4, 30),
    rounds=st.integers(2, 5),
    leftover=st.sampled_from(list(Leftover)),
    data=st.data(),
)
def test_every_seating_by_standing_is_well_formed_and_counted(
    count: int, rounds: int, leftover: Leftover, data: st.DataObject
) -> None:
    plan = swiss(count, rounds, leftover=leftover)
    standings = {
        number: data.draw(st.permutations(names(count)), label=f"standing {number}")
        for number in range(2, rounds + 1)
    }
    seating = seat_event(plan, standings)
    assert_well_formed(plan, seating)
    assert [round_.repeats for round_ in seating.rounds] == repeats_by_round(seating)
    for round_ in seating.rounds[1:]:
        standing = standings[round_.number]
        # Table 1 holds the best placed of those seated; the tables go down the standing.
        tops = [
            min(standing.index(name) for name in table.players if name in standing)
            for table in round_.tables
            if any(name in standing for name in table.players)
        ]
        assert tops == sorted(tops)

"""The event's leaderboard, from tables worked out by hand (docs/events.md, *Standings*)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from companion.events.standings import (
    Adjustment,
    StandingRule,
    Standings,
    StandingsError,
    TableResult,
    standing_rule,
    standings,
    table_result,
)
from companion.rules import profiles

F = Fraction
Line = tuple[str, Fraction, Fraction | None, int, bool, int]


def money(table: str, round_number: int, totals: dict[str, str]) -> TableResult:
    data = {
        "players": [{"name": name, "total_exact": total} for name, total in totals.items()],
        "finished": True,
    }
    return table_result(table, round_number, StandingRule.MONEY, data)


def riichi(
    table: str, round_number: int, points: dict[str, int], finals: dict[str, str] | None
) -> TableResult:
    """A riichi table's standings as the ledger gives them: 25,000 to start; the finals only
    once the game is over (its `results`)."""
    data: dict[str, Any] = {
        "players": [{"name": name, "points": value} for name, value in points.items()],
        "finished": finals is not None,
        "points_game": True,
        "start_points": 25000,
    }
    if finals is not None:
        data["results"] = [{"name": name, "final_exact": value} for name, value in finals.items()]
    return table_result(table, round_number, StandingRule.FINALS, data)


def mcr(table: str, round_number: int, players: dict[str, tuple[Any, int]]) -> TableResult:
    data = {
        "players": [
            {"name": name, "table_points": points, "score": score}
            for name, (points, score) in players.items()
        ],
        "finished": True,
    }
    return table_result(table, round_number, StandingRule.TABLE_POINTS, data)


def lines(result: Standings) -> list[Line]:
    return [(r.name, r.total, r.secondary, r.rank, r.tied, r.tables) for r in result.rows]


MONEY_NIGHT = (
    money("1", 1, {"Ann": "48", "Ben": "-16", "Cat": "-16", "Dan": "-16"}),
    money("2", 1, {"Eve": "3/2", "Fay": "-1/2", "Gus": "-1/2", "Hal": "-1/2"}),
    money("1", 2, {"Ann": "-24", "Eve": "24", "Ben": "12", "Cat": "-12"}),
    money("2", 2, {"Dan": "8", "Fay": "-8", "Gus": "0", "Hal": "0"}),
)


def test_the_rule_is_the_profile_s_declared_capability() -> None:
    found = {key: standing_rule(profile) for key, profile in profiles().items()}
    assert found["riichi"] is found["sanma"] is StandingRule.FINALS
    assert found["mcr"] is StandingRule.TABLE_POINTS
    others = {rule for key, rule in found.items() if key not in ("riichi", "sanma", "mcr")}
    assert others == {StandingRule.MONEY}


def test_money_tables_sum_each_player_s_net_amounts_and_equal_totals_share_a_rank() -> None:
    # Ann 48 - 24, Eve 3/2 + 24, Gus and Hal -1/2 + 0 each, Ben -16 + 12, Dan -16 + 8,
    # Fay -1/2 - 8, Cat -16 - 12.
    result = standings(MONEY_NIGHT)
    assert result.rule is StandingRule.MONEY
    assert result.unfinished == ()
    assert lines(result) == [
        ("Eve", F(51, 2), None, 1, False, 2),
        ("Ann", F(24), None, 2, False, 2),
        ("Gus", F(-1, 2), None, 3, True, 2),
        ("Hal", F(-1, 2), None, 3, True, 2),
        ("Ben", F(-4), None, 5, False, 2),
        ("Dan", F(-8), None, 6, False, 2),
        ("Fay", F(-17, 2), None, 7, False, 2),
        ("Cat", F(-28), None, 8, False, 2),
    ]


def test_riichi_sums_final_results_with_points_second_and_counts_a_game_still_playing() -> None:
    # Round 1 at 30,000 return, uma 20/10, oka 20: table 1 Ann (45 - 30) + 20 + 20 = 55,
    # Ben 0 + 10, Cat -15 - 10, Dan -20 - 20; table 2 Eve 5 + 40, Fay 2 + 10, Gus -12 - 10,
    # Hal -15 - 20. Round 2 table 1 still playing: points against the 25,000 start, in
    # thousands; table 2 over: Cat 10 + 40, Dan 0 + 10, Gus -10 - 10, Hal -20 - 20.
    tables = [
        riichi(
            "1",
            1,
            {"Ann": 45000, "Ben": 30000, "Cat": 15000, "Dan": 10000},
            {"Ann": "55", "Ben": "10", "Cat": "-25", "Dan": "-40"},
        ),
        riichi(
            "2",
            1,
            {"Eve": 35000, "Fay": 32000, "Gus": 18000, "Hal": 15000},
            {"Eve": "45", "Fay": "12", "Gus": "-22", "Hal": "-35"},
        ),
        riichi("1", 2, {"Ann": 20000, "Eve": 30000, "Ben": 28000, "Fay": 22000}, None),
        riichi(
            "2",
            2,
            {"Cat": 40000, "Dan": 30000, "Gus": 20000, "Hal": 10000},
            {"Cat": "50", "Dan": "10", "Gus": "-20", "Hal": "-40"},
        ),
    ]
    result = standings(tables)
    assert result.rule is StandingRule.FINALS
    # Ann 55 - 5 and Eve 45 + 5 with 65,000 points each: equal on both keys, so tied.
    assert lines(result) == [
        ("Ann", F(50), F(65000), 1, True, 2),
        ("Eve", F(50), F(65000), 1, True, 2),
        ("Cat", F(25), F(55000), 3, False, 2),
        ("Ben", F(13), F(58000), 4, False, 2),
        ("Fay", F(9), F(54000), 5, False, 2),
        ("Dan", F(-30), F(40000), 6, False, 2),
        ("Gus", F(-42), F(38000), 7, False, 2),
        ("Hal", F(-75), F(25000), 8, False, 2),
    ]
    assert result.unfinished == ((2, "1"),)
    assert [row.name for row in result.rows if row.provisional] == ["Ann", "Eve", "Ben", "Fay"]


def test_riichi_finals_stay_exact() -> None:
    table = riichi(
        "1",
        1,
        {"Ann": 38100, "Ben": 26900, "Cat": 20500, "Dan": 14500},
        {"Ann": "481/10", "Ben": "69/10", "Cat": "-195/10", "Dan": "-355/10"},
    )
    assert [(r.name, r.total) for r in standings([table]).rows] == [
        ("Ann", F(481, 10)),
        ("Ben", F(69, 10)),
        ("Cat", F(-39, 2)),
        ("Dan", F(-71, 2)),
    ]


def test_mcr_sums_table_points_shared_on_ties_then_scores() -> None:
    # Round 1 table 1: Ben and Cat share second and third, (2 + 1) / 2 each.
    tables = [
        mcr("1", 1, {"Ann": (4, 30), "Ben": ("3/2", 10), "Cat": ("3/2", 10), "Dan": (0, -50)}),
        mcr("2", 1, {"Eve": (4, 20), "Fay": (2, 8), "Gus": (1, 0), "Hal": (0, -28)}),
        mcr("1", 2, {"Ann": (0, -16), "Eve": (4, 40), "Ben": (2, 0), "Cat": (1, -24)}),
        mcr("2", 2, {"Dan": (4, 16), "Fay": (1, -8), "Gus": (2, 4), "Hal": (0, -12)}),
    ]
    result = standings(tables)
    assert result.rule is StandingRule.TABLE_POINTS
    # Ann and Dan have 4 table points each, Fay and Gus 3: the scores part them.
    assert lines(result) == [
        ("Eve", F(8), F(60), 1, False, 2),
        ("Ann", F(4), F(14), 2, False, 2),
        ("Dan", F(4), F(-34), 3, False, 2),
        ("Ben", F(7, 2), F(10), 4, False, 2),
        ("Gus", F(3), F(4), 5, False, 2),
        ("Fay", F(3), F(0), 6, False, 2),
        ("Cat", F(5, 2), F(-14), 7, False, 2),
        ("Hal", F(0), F(-40), 8, False, 2),
    ]


def test_penalties_and_corrections_change_the_total_and_are_listed_with_their_reason() -> None:
    late = Adjustment("Ann", F(-10), "late for round 2", "Mia (organiser)")
    fixed = Adjustment("ben", F(2), "hand 3 of table 1 was miscounted", "Mia (organiser)")
    result = standings(MONEY_NIGHT, [late, fixed])
    assert [(r.name, r.total, r.rank) for r in result.rows][:5] == [
        ("Eve", F(51, 2), 1),
        ("Ann", F(14), 2),
        ("Gus", F(-1, 2), 3),
        ("Hal", F(-1, 2), 3),
        ("Ben", F(-2), 5),
    ]
    ann = result.rows[1].to_json()
    assert ann == {
        "name": "Ann",
        "rank": 2,
        "tied": False,
        "total": 14,
        "total_exact": "14",
        "secondary": None,
        "secondary_exact": None,
        "tables": 2,
        "penalties": [
            {
                "player": "Ann",
                "amount": -10,
                "amount_exact": "-10",
                "reason": "late for round 2",
                "by": "Mia (organiser)",
            }
        ],
        "withdrawn": False,
        "provisional": False,
    }
    assert result.rows[4].penalties == (fixed,)


def test_a_player_who_withdrew_stays_listed_with_what_they_played() -> None:
    # Dan leaves after round 1; a substitute takes his seat in round 2 and is nobody's result.
    tables = [
        *MONEY_NIGHT[:3],
        money("2", 2, {"Substitute 1": "8", "Fay": "-8", "Gus": "0", "Hal": "0"}),
    ]
    result = standings(tables, withdrawn=["Dan"])
    dan = next(row for row in result.rows if row.name == "Dan")
    assert (dan.total, dan.tables, dan.withdrawn, dan.rank) == (F(-16), 1, True, 7)
    assert [row.name for row in result.rows] == [
        "Eve",
        "Ann",
        "Gus",
        "Hal",
        "Ben",
        "Fay",
        "Dan",
        "Cat",
    ]
    assert [row.name for row in result.rows if row.withdrawn] == ["Dan"]


def test_the_json_keeps_fractions_exact() -> None:
    table = money("1", 1, {"Ann": "2/3", "Ben": "1/3", "Cat": "-1/2", "Dan": "-1/2"})
    assert standings([table]).to_json() == {
        "rule": "money",
        "rows": [
            {
                "name": name,
                "rank": rank,
                "tied": tied,
                "total": float(F(exact)),
                "total_exact": exact,
                "secondary": None,
                "secondary_exact": None,
                "tables": 1,
                "penalties": [],
                "withdrawn": False,
                "provisional": False,
            }
            for name, exact, rank, tied in (
                ("Ann", "2/3", 1, False),
                ("Ben", "1/3", 2, False),
                ("Cat", "-1/2", 3, True),
                ("Dan", "-1/2", 3, True),
            )
        ],
        "unfinished": [],
    }


@pytest.mark.parametrize(
    ("tables", "adjustments", "withdrawn", "message"),
    [
        (
            [MONEY_NIGHT[0], MONEY_NIGHT[0]],
            [],
            [],
            "table 1 of round 1 is given twice",
        ),
        (
            [
                MONEY_NIGHT[0],
                mcr("2", 1, {"Eve": (4, 1), "Fay": (2, 0), "Gus": (1, 0), "Hal": (0, -1)}),
            ],
            [],
            [],
            "an event's tables are counted one way; these mix money, table-points",
        ),
        (
            MONEY_NIGHT,
            [Adjustment("Zed", F(-5), "slow play", "Mia")],
            [],
            "Zed played no table of the event",
        ),
        (
            MONEY_NIGHT,
            [Adjustment("Ann", F(-5), " ", "Mia")],
            [],
            "a penalty or correction of Ann needs a reason",
        ),
        (MONEY_NIGHT, [], ["Zed"], "Zed withdrew but played no table of the event"),
    ],
)
def test_results_that_make_no_leaderboard_are_refused(
    tables: list[TableResult], adjustments: list[Adjustment], withdrawn: list[str], message: str
) -> None:
    with pytest.raises(StandingsError) as caught:
        standings(tables, adjustments, withdrawn)
    assert caught.value.message == message


def test_a_total_that_is_no_number_is_refused() -> None:
    data = {"players": [{"name": "Ann", "total_exact": "lots"}], "finished": True}
    with pytest.raises(StandingsError) as caught:
        table_result("1", 1, StandingRule.MONEY, data)
    assert caught.value.message == "a total is not a number: 'lots'"


def test_the_ledger_s_own_standings_are_read() -> None:
    from companion.ledger.state import TableState, initial_state, new_setup

    state = TableState(("Ann", "Ben", "Cat", "Dan"), totals=(F(9, 2), F(-3, 2), F(-3), F(0)))
    table = table_result("1", 1, StandingRule.MONEY, state.to_json())
    assert [(p.name, p.primary) for p in table.players] == [
        ("Ann", F(9, 2)),
        ("Ben", F(-3, 2)),
        ("Cat", F(-3)),
        ("Dan", F(0)),
    ]
    # A riichi game not yet played counts nothing in either column: its 25,000 starts were
    # not played for.
    game = initial_state(new_setup("riichi", ["Eve", "Fay", "Gus", "Hal"])).to_json()
    played = table_result("2", 1, StandingRule.FINALS, game)
    assert played.finished is False
    assert {(p.primary, p.secondary) for p in played.players} == {(F(0), F(0))}


def test_a_points_game_never_adds_a_start_that_was_not_played() -> None:
    # Issue 37: round 1's table over with 36,400 points, round 2 seated at 30,000 starts and
    # no hand yet. Points read 36,400, not 66,400; once a hand is played the table counts as
    # it stands (the riichi standings are otherwise as before).
    over = riichi(
        "1",
        1,
        {"Ann": 36400, "Ben": 28000, "Cat": 20600, "Dan": 15000},
        {"Ann": "46.4", "Ben": "8", "Cat": "-19.4", "Dan": "-35"},
    )

    def seated(hands: int) -> TableResult:
        points = {"Ann": 30000, "Ben": 30000, "Cat": 33000, "Dan": 27000} if hands else {}
        data = {
            "players": [
                {"name": name, "points": points.get(name, 30000)}
                for name in ("Ann", "Ben", "Cat", "Dan")
            ],
            "finished": False,
            "hands": hands,
            "start_points": 30000,
        }
        return table_result("2", 2, StandingRule.FINALS, data)

    before = standings([over, seated(0)])
    assert [(r.name, r.total, r.secondary, r.tables, r.provisional) for r in before.rows] == [
        ("Ann", F(232, 5), F(36400), 2, True),
        ("Ben", F(8), F(28000), 2, True),
        ("Cat", F(-97, 5), F(20600), 2, True),
        ("Dan", F(-35), F(15000), 2, True),
    ]
    after = standings([over, seated(1)])
    assert [(r.name, r.total, r.secondary) for r in after.rows] == [
        ("Ann", F(232, 5), F(66400)),
        ("Ben", F(8), F(58000)),
        ("Cat", F(-82, 5), F(53600)),
        ("Dan", F(-38), F(42000)),
    ]

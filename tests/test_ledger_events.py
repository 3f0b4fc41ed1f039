"""Events on the ledger (`EventBook`): the record, rounds seated into ledger tables, standings
from hands recorded at those tables, the organiser's actions and their record, exports. On
SQLite and on PostgreSQL (see conftest.py) where the database matters."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import timedelta
from fractions import Fraction
from itertools import combinations
from typing import Any

import pytest

from companion.errors import CompanionError
from companion.events.plan import SeatingError, UnevenFieldError
from companion.events.standings import StandingRule, StandingsError
from companion.ledger.errors import TableFinishedError
from companion.ledger.event_book.errors import (
    EventAccessError,
    EventError,
    RoundOrderError,
    UnknownEntrantError,
    UnknownEventRecordError,
)
from companion.ledger.event_book.rounds import standing_order, table_name
from companion.ledger.event_book.service import EventBook
from companion.ledger.event_book.store import noticed_event
from companion.ledger.event_book.tables import event_standings
from companion.ledger.records import WinnerRecord, WinRecord
from companion.ledger.repository import Ledger
from export_rows import export_rows

EIGHT = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
SIXTEEN = [f"P{number:02d}" for number in range(1, 17)]


@pytest.fixture
def ledger(ledger_url: str) -> Iterator[Ledger]:
    with Ledger.open(ledger_url) as opened:
        yield opened


@pytest.fixture
def sqlite_ledger(tmp_path: Any) -> Iterator[Ledger]:
    with Ledger.open(f"sqlite:///{tmp_path / 'ledger.sqlite3'}") as opened:
        yield opened


def discard_win(ledger: Ledger, table: str, winner: str, discarder: str, tai: int) -> None:
    ledger.record(table, WinRecord((WinnerRecord(winner, tai=tai),), discarder=discarder))


# ---------------------------------------------------------------------------------------------
# A money event: 8 players, 2 rounds, hands recorded at the tables


def test_a_money_event_seats_two_rounds_and_ranks_the_net_amounts(ledger: Ledger) -> None:
    book = EventBook(ledger)
    created = book.create_event(
        "Club night", "sg", {"min_tai": 1}, EIGHT, 2, seed=7, first_round="listed", hands=1
    )
    assert book.verify_token(created.id, created.token)
    assert not book.verify_token(created.id, created.token + "x")
    view = book.event(created.id)
    assert (view.current_round, view.progress, view.seated) == (None, None, ())

    first = book.seat_round(created.id, 1, by="Mia")
    # Listed: the first four at table 1, East first.
    assert [table.players for table in first.tables] == [
        ("Ann", "Ben", "Cat", "Dan"),
        ("Eve", "Fay", "Gus", "Hal"),
    ]
    one, two = (table.table for table in first.tables)
    setup = ledger.setup(one)
    assert (setup.profile, setup.players, setup.planned_hands, setup.options) == (
        "sg",
        ("Ann", "Ben", "Cat", "Dan"),
        1,
        {"min_tai": 1},
    )
    assert setup.name == "Club night · round 1 · table 1"
    assert book.event_of_table(one) == created.id == book.event_of_table(two.upper())
    assert book.event_of_table("nosuchid") is None

    # A 2-tai discard win: the winner takes 8, the discarder pays 4, the others 2 each.
    discard_win(ledger, one, "Cat", "Ann", 2)
    progress = book.event(created.id).progress
    assert progress == {"round": 1, "finished": 1, "tables": 2}
    discard_win(ledger, two, "Eve", "Hal", 3)  # 3 tai: 16, 8, 4, 4
    with pytest.raises(TableFinishedError):
        discard_win(ledger, one, "Ann", "Cat", 2)

    second = book.seat_round(created.id, 2)
    # Eight players at two tables always meet again in round 2: the fewest repeats are two at
    # each table, two players from each table of round 1.
    for table in second.tables:
        assert len(set(table.players) & set(first.tables[0].players)) == 2
    assert (second.repeats, second.byes) == (4, ())
    seats = {
        name: (table.table, table.players) for table in second.tables for name in table.players
    }
    # Round 2: each table's East wins 2 tai on South's discard: East +8, South -4, others -2.
    for table in second.tables:
        east, south = table.players[:2]
        discard_win(ledger, table.table, east, south, 2)
    view = book.event(created.id)
    assert view.progress == {"round": 2, "finished": 2, "tables": 2}

    round_1 = {
        "Ann": -4,
        "Ben": -2,
        "Cat": 8,
        "Dan": -2,
        "Eve": 16,
        "Fay": -4,
        "Gus": -4,
        "Hal": -8,
    }
    expected = dict(round_1)
    for name, (_, players) in seats.items():
        expected[name] += {0: 8, 1: -4}.get(players.index(name), -2)
    board = book.standings(created.id)
    assert board.rule is StandingRule.MONEY
    assert {row.name: row.total for row in board.rows} == expected
    assert [row.total for row in board.rows] == sorted(expected.values(), reverse=True)
    assert all(row.tables == 2 and not row.provisional for row in board.rows)
    assert board.unfinished == ()


def test_the_money_totals_are_exact_and_ties_are_shown(sqlite_ledger: Ledger) -> None:
    book = EventBook(sqlite_ledger)
    created = book.create_event("Ties", "sg", None, EIGHT, 1, first_round="listed", hands=1)
    first = book.seat_round(created.id, 1)
    one, two = (table.table for table in first.tables)
    discard_win(sqlite_ledger, one, "Cat", "Ann", 2)  # Cat 8, Ann -4, Ben -2, Dan -2
    discard_win(sqlite_ledger, two, "Gus", "Eve", 2)  # Gus 8, Eve -4, Fay -2, Hal -2
    board = book.standings(created.id)
    assert [(row.name, row.total, row.rank, row.tied) for row in board.rows] == [
        ("Cat", 8, 1, True),
        ("Gus", 8, 1, True),
        ("Ben", -2, 3, True),
        ("Dan", -2, 3, True),
        ("Fay", -2, 3, True),
        ("Hal", -2, 3, True),
        ("Ann", -4, 7, True),
        ("Eve", -4, 7, True),
    ]
    # A penalty with a reason, by the organiser: in the total, the row and the record.
    book.adjust(created.id, "gus", "-1/2", "late for round 1", by="Mia")
    board = book.standings(created.id)
    gus = next(row for row in board.rows if row.name == "Gus")
    assert (gus.total, gus.rank, gus.tied) == (Fraction(15, 2), 2, False)
    assert [(p.player, p.amount, p.reason, p.by) for p in gus.penalties] == [
        ("Gus", Fraction(-1, 2), "late for round 1", "Mia")
    ]
    assert board.to_json()["rows"][1]["total_exact"] == "15/2"
    text = book.export_csv(created.id)
    columns = ["rank", "name", "total", "tied", "tables", "withdrawn", "provisional", "adjustments"]
    rows = [[row[column] for column in columns] for row in export_rows(text)]
    assert rows[0] == ["1", "Cat", "8", "", "1", "", "", ""]
    assert rows[1] == ["2", "Gus", "15/2", "", "1", "", "", "late for round 1 (Mia): -1/2"]


# ---------------------------------------------------------------------------------------------
# A riichi event: finished games, uma and oka in the finals


def test_a_riichi_event_ranks_the_final_results(sqlite_ledger: Ledger) -> None:
    book = EventBook(sqlite_ledger)
    created = book.create_event(
        "Riichi league",
        "riichi",
        {"preset": "tenhou"},
        EIGHT,
        2,
        seed=3,
        first_round="listed",
    )
    first = book.seat_round(created.id, 1)
    one, two = (table.table for table in first.tables)
    # East's yakuman on South's discard with West's riichi stick: South busts. The finals
    # (tenhou: 30,000 returned, uma 20/10, oka 20): East 84.0, North 5.0, West -16.0,
    # South -73.0 (tests/test_ledger_riichi.py works them out).
    yakuman = WinRecord((WinnerRecord("Ann", yakuman=1),), "Ben", None, ("Cat",))
    sqlite_ledger.record(one, yakuman)
    # Table 2 still playing: dealer Eve's 3 han 30 fu ron on Fay (5,800) counts as it stands,
    # in thousands against the 25,000 start.
    sqlite_ledger.record(two, WinRecord((WinnerRecord("Eve", han=3, fu=30),), "Fay"))
    board = book.standings(created.id)
    assert board.rule is StandingRule.FINALS
    assert [(row.name, row.total, row.secondary, row.provisional) for row in board.rows] == [
        ("Ann", 84, 74_000, False),
        ("Eve", Fraction(29, 5), 30_800, True),
        ("Dan", 5, 25_000, False),
        ("Gus", 0, 25_000, True),
        ("Hal", 0, 25_000, True),
        ("Fay", Fraction(-29, 5), 19_200, True),
        ("Cat", -16, 24_000, False),
        ("Ben", -73, -23_000, False),
    ]
    assert board.unfinished == ((1, two),)
    assert book.event(created.id).progress == {"round": 1, "finished": 1, "tables": 2}


# ---------------------------------------------------------------------------------------------
# MCR: its tables' standings (table points, then scores) through the same path


def test_mcr_tables_count_table_points_then_scores() -> None:
    def table(*players: tuple[str, Any, int]) -> dict[str, Any]:
        return {
            "finished": True,
            "players": [
                {"name": name, "table_points": points, "score": score}
                for name, points, score in players
            ],
        }

    tables = [
        (1, "t1", table(("Ann", 4, 40), ("Ben", 2, 10), ("Cat", 1, -20), ("Dan", 0, -30))),
        (1, "t2", table(("Eve", 4, 25), ("Fay", "3/2", 0), ("Gus", "3/2", 0), ("Hal", 0, -25))),
        (2, "t3", table(("Ann", 0, -8), ("Eve", 4, 30), ("Cat", 2, 0), ("Gus", 1, -22))),
        (2, "t4", table(("Ben", 4, 16), ("Fay", 2, 8), ("Dan", 1, -8), ("Hal", 0, -16))),
    ]
    board = event_standings(StandingRule.TABLE_POINTS, tables, [], [])
    assert [(row.name, row.total, row.secondary, row.rank) for row in board.rows] == [
        ("Eve", 8, 55, 1),
        ("Ben", 6, 26, 2),
        ("Ann", 4, 32, 3),
        ("Fay", Fraction(7, 2), 8, 4),
        ("Cat", 3, -20, 5),
        ("Gus", Fraction(5, 2), -22, 6),
        ("Dan", 1, -38, 7),
        ("Hal", 0, -41, 8),
    ]


# ---------------------------------------------------------------------------------------------
# Seating through the service


def test_sixteen_players_over_four_rounds_never_meet_twice(sqlite_ledger: Ledger) -> None:
    book = EventBook(sqlite_ledger)
    created = book.create_event("Sixteen", "hk", None, SIXTEEN, 4, seed=11)
    met: set[tuple[str, ...]] = set()
    for number in range(1, 5):
        # Nobody plays here: each round is seated while the one before is still playing.
        seated = book.seat_round(created.id, number, confirm=True)
        assert (seated.number, len(seated.tables), seated.repeats) == (number, 4, 0)
        for table in seated.tables:
            assert sqlite_ledger.setup(table.table).players == table.players
            pairs = set(combinations(sorted(table.players), 2))
            assert not pairs & met
            met |= pairs
    assert len(met) == 4 * 4 * 6


def test_the_same_seed_seats_the_same_rounds(sqlite_ledger: Ledger) -> None:
    book = EventBook(sqlite_ledger)

    def seating(seed: int) -> list[list[tuple[str, ...]]]:
        created = book.create_event("Seeded", "sg", None, SIXTEEN[:12], 2, seed=seed)
        return [
            [table.players for table in book.seat_round(created.id, number, confirm=True).tables]
            for number in (1, 2)
        ]

    assert seating(5) == seating(5)
    assert seating(5) != seating(6)


def test_eighteen_players_need_a_leftover_policy(sqlite_ledger: Ledger) -> None:
    book = EventBook(sqlite_ledger)
    players = [f"P{number}" for number in range(1, 19)]
    with pytest.raises(UnevenFieldError) as refused:
        book.create_event("Uneven", "sg", None, players, 3)
    assert str(refused.value) == (
        "18 players leave 2 over at tables of four: "
        "bring in 2 more to substitute, or give 2 of them a bye"
    )
    assert refused.value.key == "refusal.event_uneven"
    created = book.create_event("Byes", "sg", None, players, 3, seed=1, leftover="byes")
    rounds = [book.seat_round(created.id, number, confirm=True) for number in (1, 2, 3)]
    assert [len(round_.byes) for round_ in rounds] == [2, 2, 2]
    assert len({name for round_ in rounds for name in round_.byes}) == 6
    subs = book.create_event(
        "Subs", "sg", None, players, 1, first_round="listed", leftover="substitutes"
    )
    seated = book.seat_round(subs.id, 1)
    # As listed, the substitutes complete the last table, after the last players entered.
    assert seated.substitutes == ("Substitute 1", "Substitute 2")
    assert seated.tables[-1].players == ("P17", "P18", "Substitute 1", "Substitute 2")
    assert sqlite_ledger.setup(seated.tables[-1].table).players == seated.tables[-1].players


def test_rounds_are_seated_once_and_in_order(sqlite_ledger: Ledger) -> None:
    book = EventBook(sqlite_ledger)
    created = book.create_event("Order", "sg", None, EIGHT, 2, seed=1)
    with pytest.raises(RoundOrderError, match=r"^round 1 is the next to seat; got round 2$"):
        book.seat_round(created.id, 2)
    book.seat_round(created.id, 1)
    with pytest.raises(RoundOrderError, match=r"^round 1 is already seated$") as refused:
        book.seat_round(created.id, 1)
    assert (refused.value.key, refused.value.http_status) == ("refusal.event_round_seated", 409)
    book.seat_round(created.id, 2, confirm=True)
    with pytest.raises(SeatingError, match=r"^the event ends with round 2: there is no round 3$"):
        book.seat_round(created.id, 3)
    with pytest.raises(UnknownEventRecordError, match=r"^no event with id 'nope'$"):
        book.event("nope")


def test_later_rounds_by_standing_seat_the_leaders_together(sqlite_ledger: Ledger) -> None:
    book = EventBook(sqlite_ledger)
    created = book.create_event(
        "Swiss", "sg", None, EIGHT, 2, first_round="listed", later_rounds="by-standing", hands=1
    )
    first = book.seat_round(created.id, 1)
    one, two = (table.table for table in first.tables)
    discard_win(sqlite_ledger, one, "Cat", "Ann", 2)  # Cat 8, Ben -2, Dan -2, Ann -4
    discard_win(sqlite_ledger, two, "Eve", "Hal", 3)  # Eve 16, Fay -4, Gus -4, Hal -8
    order = standing_order(book.standings(created.id), EIGHT)
    # Equal totals (Ann, Fay and Gus on -4) are listed by name.
    assert order == ["Eve", "Cat", "Ben", "Dan", "Ann", "Fay", "Gus", "Hal"]
    second = book.seat_round(created.id, 2)
    # Neighbours in the standing share a table, except where a nearby seat avoids a repeat:
    # Dan (4th) would be the third of round 1's table 1 with Cat and Ben, so Fay (6th) sits
    # with the leaders; the two meetings again at each table cannot be avoided with eight.
    assert [table.players for table in second.tables] == [
        ("Cat", "Eve", "Ben", "Fay"),
        ("Dan", "Gus", "Hal", "Ann"),
    ]
    assert (second.repeats, second.seat_repeats) == (4, 0)


# ---------------------------------------------------------------------------------------------
# The organiser's actions and their record


def test_a_no_show_withdraws_before_the_first_round(sqlite_ledger: Ledger) -> None:
    # The organiser's page offers "after round 0" before round 1 is seated: a player who did
    # not come plays no round and is left off the leaderboard, having played nothing.
    book = EventBook(sqlite_ledger)
    created = book.create_event(
        "Night", "sg", None, [*EIGHT, "Ivy"], 2, seed=2, hands=1, leftover="byes"
    )
    assert book.withdraw(created.id, "Ivy", 0, by="Mia").withdraws_after == 0
    book.add_player(created.id, "Jon", 2)
    with pytest.raises(SeatingError) as refused:
        book.withdraw(created.id, "Jon", 0)
    assert str(refused.value) == "Jon withdraws after round 0 but joins in round 2"
    first = book.seat_round(created.id, 1)
    assert sorted(name for table in first.tables for name in table.players) == sorted(EIGHT)
    assert first.byes == ()
    for table in first.tables:
        discard_win(sqlite_ledger, table.table, table.players[0], table.players[1], 2)
    board = book.standings(created.id)
    assert sorted(row.name for row in board.rows) == sorted(EIGHT)
    assert book.event(created.id).to_json()["players"][8] == {
        "name": "Ivy",
        "joins": 1,
        "withdraws_after": 0,
        "withdrawn": True,
    }


def test_late_entries_withdrawals_timers_and_the_record(sqlite_ledger: Ledger) -> None:
    book = EventBook(sqlite_ledger)
    created = book.create_event(
        "Changes", "sg", None, EIGHT, 3, seed=2, hands=1, leftover="byes", by="Mia"
    )
    first = book.seat_round(created.id, 1, by="Mia")
    for table in first.tables:
        discard_win(sqlite_ledger, table.table, table.players[0], table.players[1], 2)
    with pytest.raises(RoundOrderError, match=r"^round 1 is already seated: a late entry joins"):
        book.add_player(created.id, "Ivy", 1)
    assert book.add_player(created.id, " Ivy ", 2, by="Mia").name == "Ivy"
    with pytest.raises(SeatingError, match=r"^each player needs a different name: Ann and ann"):
        book.add_player(created.id, "ann", 3)
    with pytest.raises(RoundOrderError) as refused:
        book.withdraw(created.id, "Ann", 0)
    assert str(refused.value) == "Ann is seated in round 1: withdraw after round 1 or later"
    with pytest.raises(UnknownEntrantError, match=r"^no player named Zed in this event$"):
        book.withdraw(created.id, "Zed", 1)
    assert book.withdraw(created.id, "ben", 1, by="Mia").withdraws_after == 1
    with pytest.raises(EventError, match=r"^Ben has already withdrawn \(after round 1\)$"):
        book.withdraw(created.id, "Ben", 2)

    second = book.seat_round(created.id, 2)
    seated = {name for table in second.tables for name in table.players}
    assert "Ben" not in seated and "Ivy" in seated
    assert len(seated) + len(second.byes) == 8  # Ivy in, Ben out: 8 play, 8 seats
    timer = book.start_timer(created.id, 2, 45, by="Mia")
    assert timer.ends_at - timer.started_at == timedelta(minutes=45)
    with pytest.raises(RoundOrderError, match=r"^round 3 is not seated: seat it before"):
        book.start_timer(created.id, 3, 45)
    with pytest.raises(EventError, match=r"^a round's timer runs 1 to 600 minutes; got 0$"):
        book.start_timer(created.id, 2, 0)

    view = book.event(created.id)
    data = view.to_json()
    assert data["players"][1] == {
        "name": "Ben",
        "joins": 1,
        "withdraws_after": 1,
        "withdrawn": True,
    }
    assert data["players"][-1] == {
        "name": "Ivy",
        "joins": 2,
        "withdraws_after": None,
        "withdrawn": False,
    }
    assert data["seated"][0]["timer"] is None
    assert data["seated"][1]["timer"] == {
        "round": 2,
        "started_at": timer.started_at.isoformat(),
        "minutes": 45,
        "ends_at": timer.ends_at.isoformat(),
        "paused_at": None,
    }
    assert (data["current_round"], data["progress"]) == (
        2,
        {"round": 2, "finished": 0, "tables": 2},
    )
    assert data["seated"][0]["tables"][0] == {
        "number": 1,
        "table": first.tables[0].table,
        "players": list(first.tables[0].players),
        "finished": True,
        "hands": 1,
        "ended": None,
    }

    book.add_player(created.id, "Jon", 3)
    with pytest.raises(StandingsError, match=r"^Jon played no table of the event$"):
        book.adjust(created.id, "Jon", -5, "no show")
    book.adjust(created.id, "Ann", "5", "scoring slip at table 1", by="Mia")
    with pytest.raises(EventError, match=r"^the reason for Ann's adjustment cannot be empty$"):
        book.adjust(created.id, "Ann", -5, "  ")
    with pytest.raises(EventError, match=r"^an adjustment of 0 changes nothing$"):
        book.adjust(created.id, "Ann", "0", "nothing")
    with pytest.raises(EventError, match=r"^an amount is a number such as -10, 2.5 or 5/2"):
        book.adjust(created.id, "Ann", "ten", "late")
    board = book.standings(created.id)
    ben = next(row for row in board.rows if row.name == "Ben")
    assert (ben.withdrawn, ben.tables, ben.provisional) == (True, 1, False)
    assert next(row for row in board.rows if row.name == "Ivy").provisional

    record = [
        (entry.kind, entry.player, entry.round, entry.amount, entry.reason, entry.by)
        for entry in book.audit(created.id)
    ]
    assert record == [
        ("create", None, None, None, None, "Mia"),
        ("seat", None, 1, None, None, "Mia"),
        ("join", "Ivy", 2, None, None, "Mia"),
        ("withdraw", "Ben", 1, None, None, "Mia"),
        ("seat", None, 2, None, None, ""),
        ("timer", None, 2, None, None, "Mia"),
        ("join", "Jon", 3, None, None, ""),
        ("adjust", "Ann", None, Fraction(5), "scoring slip at table 1", "Mia"),
    ]
    assert [entry.seq for entry in book.audit(created.id)] == [1, 2, 3, 4, 5, 6, 7, 8]


def test_an_uneven_field_is_shown_and_refused_when_its_round_is_seated(
    sqlite_ledger: Ledger,
) -> None:
    book = EventBook(sqlite_ledger)
    created = book.create_event("Swap", "sg", None, EIGHT, 3, seed=2)
    book.seat_round(created.id, 1)
    # A swap is a withdrawal and a late entry: the field in between is uneven.
    book.withdraw(created.id, "Ann", 1)
    uneven = (
        "in round 2, 7 players leave 3 over at tables of four: "
        "bring in 1 more to substitute, or give 3 of them a bye"
    )
    assert book.event(created.id).to_json()["problem"] == {
        "error": uneven,
        "error_key": "refusal.event_uneven_round",
        "error_params": {"players": 7, "tables": 1, "over": 3, "substitutes": 1, "round": 2},
    }
    with pytest.raises(UnevenFieldError) as refused:
        book.seat_round(created.id, 2)
    assert str(refused.value) == uneven
    assert [entry.kind for entry in book.audit(created.id)] == ["create", "seat", "withdraw"]
    book.add_player(created.id, "Ivy", 2)
    assert book.event(created.id).problem is None
    seated = book.seat_round(created.id, 2, confirm=True)
    assert "Ivy" in {name for table in seated.tables for name in table.players}
    # The seating's other checks still refuse a change.
    with pytest.raises(SeatingError, match=r"^Zed joins in round 4, but the event has rounds"):
        book.add_player(created.id, "Zed", 4)


def test_the_organiser_holds_the_tables_write_tokens(sqlite_ledger: Ledger) -> None:
    book = EventBook(sqlite_ledger)
    created = book.create_event("Tokens", "sg", None, EIGHT, 1, seed=1)
    first = book.seat_round(created.id, 1)
    tokens = book.write_tokens(created.id, created.token)
    assert set(tokens) == {table.table for table in first.tables}
    assert all(sqlite_ledger.verify_token(table, token) for table, token in tokens.items())
    with pytest.raises(EventAccessError, match=r"^the token does not match this event$"):
        book.write_tokens(created.id, "guess")


def test_the_exports_hold_the_event_its_standings_and_every_table(sqlite_ledger: Ledger) -> None:
    book = EventBook(sqlite_ledger)
    created = book.create_event("Export", "sg", None, EIGHT, 1, first_round="listed", hands=1)
    first = book.seat_round(created.id, 1)
    discard_win(sqlite_ledger, first.tables[0].table, "Cat", "Ann", 2)
    data = book.export_json(created.id)
    assert (data["format"], data["event"]["id"], data["event"]["name"]) == (
        "companion-event",
        created.id,
        "Export",
    )
    assert data["standings"] == book.standings(created.id).to_json()
    assert [
        (table["round"], table["number"], table["table"]["id"]) for table in data["tables"]
    ] == [
        (1, 1, first.tables[0].table),
        (1, 2, first.tables[1].table),
    ]
    assert data["tables"][0] == {"round": 1, "number": 1} | sqlite_ledger.export_json(
        first.tables[0].table
    )
    assert [entry["kind"] for entry in data["audit"]] == ["create", "seat"]
    assert created.token not in str(data)
    assert all(
        token not in str(data) for token in book.write_tokens(created.id, created.token).values()
    )


def test_what_an_event_refuses_when_it_is_made(sqlite_ledger: Ledger) -> None:
    book = EventBook(sqlite_ledger)

    def refused(**changes: Any) -> str:
        arguments: dict[str, Any] = {
            "name": "Night",
            "profile": "sg",
            "options": None,
            "players": EIGHT,
            "rounds": 2,
        } | changes
        with pytest.raises(CompanionError) as error:
            book.create_event(**arguments)
        return str(error.value)

    assert refused(name=" ") == "an event's name cannot be empty"
    assert refused(name="N" * 61) == "an event's name can have at most 60 characters"
    assert refused(rounds=0) == "an event needs at least 1 round; got 0"
    assert refused(players=EIGHT[:3]) == "a table needs 4 players, and the event has 3"
    assert refused(players=[*EIGHT[:7], "Ann, Ben"]) == (
        "a player's name cannot contain a comma: Ann, Ben"
    )
    assert refused(players=[*EIGHT[:7], "X" * 41]) == (
        "a player's name can have at most 40 characters: XXXXXXXXXXXXXXXXXXXX..."
    )
    assert refused(first_round="seeded") == (
        "first_round must be one of random, listed, balanced; got 'seeded'"
    )
    assert refused(later_rounds="standing") == (
        "later_rounds must be one of no-repeats, by-standing; got 'standing'"
    )
    assert refused(leftover="bye") == "leftover must be one of substitutes, byes; got 'bye'"
    assert refused(profile="riichi", hands=8).startswith("a riichi game plans no hands or rounds")
    assert refused(seed=-1) == f"a seed is a whole number from 0 to {2**63 - 1}"


def test_a_long_event_name_is_shortened_in_its_tables_names() -> None:
    assert table_name("Club night", 2, 3) == "Club night · round 2 · table 3"
    long = table_name("A" * 60, 12, 25)
    assert len(long) == 60
    assert long == "A" * 37 + "… · round 12 · table 25"


def test_two_organisers_seating_the_same_round_seat_it_once(ledger: Ledger) -> None:
    book = EventBook(ledger)
    created = book.create_event("Race", "sg", None, SIXTEEN, 2, seed=4)
    outcomes: list[str] = []
    start = threading.Barrier(2)

    def seat() -> None:
        start.wait(timeout=30)
        try:
            book.seat_round(created.id, 1)
            outcomes.append("seated")
        except RoundOrderError as refused:
            outcomes.append(str(refused))

    threads = [threading.Thread(target=seat) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(outcomes) == ["round 1 is already seated", "seated"]
    view = book.event(created.id)
    assert [len(round_.tables) for round_ in view.seated] == [4]
    assert [entry.kind for entry in book.audit(created.id)] == ["create", "seat"]


def test_the_ledgers_listeners_hear_of_the_organisers_writes(ledger: Ledger) -> None:
    book = EventBook(ledger)
    heard: list[tuple[str, int]] = []
    ledger.add_listener(lambda name, seq: heard.append((name, seq)))
    created = book.create_event("News", "sg", None, EIGHT, 1, first_round="listed", hands=1)
    first = book.seat_round(created.id, 1)
    discard_win(ledger, first.tables[0].table, "Cat", "Ann", 2)
    book.adjust(created.id, "Ann", -1, "late")
    assert heard == [
        (f"event:{created.id}", 2),
        (first.tables[0].table, 1),
        (f"event:{created.id}", 3),
    ]
    assert [noticed_event(name) for name, _ in heard] == [created.id, None, created.id]
    assert book.event_of_table(heard[1][0]) == created.id

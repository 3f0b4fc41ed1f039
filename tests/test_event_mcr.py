"""An MCR event on real ledger tables (docs/events.md, *What a table counts*): eight players,
two rounds, one table played to the end of its 16 hands and one still playing; the
leaderboard's table points (shared on ties), scores, ranks and provisional rows worked out by
hand, the exports, and the command line's standings. On SQLite and PostgreSQL (conftest.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from companion.events.standings import StandingRule
from companion.ledger import db
from companion.ledger.errors import TableFinishedError
from companion.ledger.event_book.service import EventBook
from companion.ledger.event_book.views import SeatedRound
from companion.ledger.records import DrawRecord, Record, WinnerRecord, WinRecord
from companion.ledger.repository import Ledger
from export_rows import export_header, export_rows
from test_ledger_cli import ok

EIGHT = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
DRAW = DrawRecord()


def win(winner: str, fan: int, discarder: str | None = None) -> WinRecord:
    """A quick fan entry (no flowers): `discarder` None is a self-draw."""
    return WinRecord((WinnerRecord(winner, tai=fan),), discarder)


# Table 1 of round 1 (East Ann, South Ben, West Cat, North Dan), all 16 hands. A hand is worth
# 8 + fan: on a discard the discarder pays 8 + fan and each of the other two pays 8 (the winner
# takes 24 + fan); a self-draw takes 8 + fan from each of the three others. The running totals
# (Ann, Ben, Cat, Dan) after each hand, worked out by hand:
TABLE_ONE: list[tuple[Record, tuple[int, int, int, int]]] = [
    (win("Ann", 8, "Ben"), (32, -16, -8, -8)),
    (DRAW, (32, -16, -8, -8)),
    (win("Cat", 10), (14, -34, 46, -26)),  # 18 from each
    (win("Dan", 12, "Ann"), (-6, -42, 38, 10)),
    (win("Ben", 8, "Cat"), (-14, -10, 22, 2)),
    (DRAW, (-14, -10, 22, 2)),
    (win("Ann", 8), (34, -26, 6, -14)),  # 16 from each
    (win("Ben", 16, "Dan"), (26, 14, -2, -38)),
    (win("Cat", 9, "Ann"), (9, 6, 31, -46)),
    (win("Dan", 8), (-7, -10, 15, 2)),
    (DRAW, (-7, -10, 15, 2)),
    (win("Ann", 24, "Dan"), (41, -18, 7, -30)),
    (win("Ben", 8), (25, 30, -9, -46)),
    (win("Cat", 8, "Ben"), (17, 14, 23, -54)),
    (win("Ann", 9, "Cat"), (50, 6, 6, -62)),
    (win("Dan", 8), (34, -10, -10, -14)),  # Ben and Cat end level on -10
]
# At the end Ann is first (4 table points), Ben and Cat share second and third ((2 + 1) / 2
# = 1.5 each), Dan is fourth (0).

# Table 2 of round 1 (East Eve, South Fay, West Gus, North Hal), three hands of 16: it counts as
# it stands, the order of the moment giving its table points: Eve 4, Fay and Gus share second
# and third (1.5 each), Hal 0.
TABLE_TWO: list[tuple[Record, tuple[int, int, int, int]]] = [
    (win("Eve", 8, "Hal"), (32, -8, -8, -16)),
    (DRAW, (32, -8, -8, -16)),
    (win("Eve", 8), (80, -24, -24, -32)),
]

ROUND_ONE = [
    # name, table points, score, rank, tied, provisional
    ("Eve", Fraction(4), 80, 1, False, True),
    ("Ann", Fraction(4), 34, 2, False, False),
    ("Ben", Fraction(3, 2), -10, 3, True, False),
    ("Cat", Fraction(3, 2), -10, 3, True, False),
    ("Fay", Fraction(3, 2), -24, 5, True, True),
    ("Gus", Fraction(3, 2), -24, 5, True, True),
    ("Dan", Fraction(0), -14, 7, False, False),
    ("Hal", Fraction(0), -32, 8, False, True),
]


@pytest.fixture
def ledger(ledger_url: str) -> Iterator[Ledger]:
    with Ledger.open(ledger_url) as opened:
        yield opened


def play(ledger: Ledger, table: str, hands: list[tuple[Record, tuple[int, int, int, int]]]) -> None:
    for entry, totals in hands:
        ledger.record(table, entry)
        players = ledger.standings(table)["players"]
        assert tuple(player["score"] for player in players) == totals


def round_one(ledger: Ledger) -> tuple[EventBook, str, SeatedRound]:
    book = EventBook(ledger)
    created = book.create_event("MCR night", "mcr", None, EIGHT, 2, seed=5, first_round="listed")
    first = book.seat_round(created.id, 1, by="Mia")
    play(ledger, first.tables[0].table, TABLE_ONE)
    play(ledger, first.tables[1].table, TABLE_TWO)
    return book, created.id, first


def board_rows(book: EventBook, event: str) -> list[tuple[Any, ...]]:
    board = book.standings(event)
    assert board.rule is StandingRule.TABLE_POINTS
    return [
        (row.name, row.total, row.secondary, row.rank, row.tied, row.provisional)
        for row in board.rows
    ]


def test_an_mcr_event_ranks_table_points_then_scores(ledger: Ledger) -> None:
    book, event, first = round_one(ledger)
    assert [table.players for table in first.tables] == [tuple(EIGHT[:4]), tuple(EIGHT[4:])]
    one, two = (table.table for table in first.tables)
    for table_id in (one, two):
        setup = ledger.setup(table_id)
        assert (setup.profile, setup.planned_hands) == ("mcr", 16)

    finished = ledger.standings(one)
    assert finished["finished"] is True
    assert [
        (player["name"], player["score"], player["table_points"], player["place"])
        for player in finished["players"]
    ] == [("Ann", 34, "4", 1), ("Ben", -10, "1.5", 2), ("Cat", -10, "1.5", 2), ("Dan", -14, "0", 4)]
    with pytest.raises(TableFinishedError):
        ledger.record(one, DRAW)
    playing = ledger.standings(two)
    assert (playing["finished"], playing["hands"]) == (False, 3)
    assert [player["table_points"] for player in playing["players"]] == ["4", "1.5", "1.5", "0"]

    # The sum of table points ranks, the sum of scores breaks ties on it; players equal on both
    # share the better rank. Table 2 is still playing: its players' rows are provisional.
    assert board_rows(book, event) == [
        (name, points, score, rank, tied, provisional)
        for name, points, score, rank, tied, provisional in ROUND_ONE
    ]
    board = book.standings(event)
    assert board.unfinished == ((1, two),)
    assert all(row.tables == 1 and not row.withdrawn for row in board.rows)
    view = book.event(event)
    assert view.progress == {"round": 1, "finished": 1, "tables": 2}
    assert [(table.finished, table.hands) for table in view.seated[0].tables] == [
        (True, 16),
        (False, 3),
    ]

    # Round 2 (no repeats as far as eight players allow): two of each table of round 1 at each
    # table, four pairs meeting again, nobody sitting out.
    second = book.seat_round(event, 2, confirm=True)  # table 2 is still playing
    assert (second.repeats, second.byes, second.substitutes) == (4, (), ())
    assert sorted(name for table in second.tables for name in table.players) == sorted(EIGHT)
    for table in second.tables:
        assert len(set(table.players) & set(EIGHT[:4])) == 2
        setup = ledger.setup(table.table)
        assert (setup.profile, setup.players) == ("mcr", table.players)
        assert setup.name == f"MCR night · round 2 · table {table.number}"
    assert [(table.finished, table.hands) for table in book.event(event).seated[1].tables] == [
        (False, 0),
        (False, 0),
    ]
    # A round-2 table before its first hand counts nothing (its four level on 0 would share
    # 4 + 2 + 1 + 0, 7/4 each): the totals, scores and order stay, and every row is
    # provisional now.
    assert board_rows(book, event) == [
        (name, points, score, rank, tied, True) for name, points, score, rank, tied, _ in ROUND_ONE
    ]
    board = book.standings(event)
    assert board.unfinished == ((1, two), *((2, table.table) for table in second.tables))
    assert all(row.tables == 2 for row in board.rows)
    # Its first hand: Eve's table (Hal, Ann, Eve, Cat) starts with a draw, its four level on 0
    # sharing 7/4 each; the other table still counts nothing. Cat (3/2 + 7/4) and Hal (0 + 7/4)
    # pass Ben, who is level with Fay and Gus on 3/2 and ahead of them on score.
    eve = next(table for table in second.tables if "Eve" in table.players)
    assert eve.players == ("Hal", "Ann", "Eve", "Cat")
    ledger.record(eve.table, DrawRecord())
    assert board_rows(book, event) == [
        ("Eve", Fraction(23, 4), 80, 1, False, True),
        ("Ann", Fraction(23, 4), 34, 2, False, True),
        ("Cat", Fraction(13, 4), -10, 3, False, True),
        ("Hal", Fraction(7, 4), -32, 4, False, True),
        ("Ben", Fraction(3, 2), -10, 5, False, True),
        ("Fay", Fraction(3, 2), -24, 6, True, True),
        ("Gus", Fraction(3, 2), -24, 6, True, True),
        ("Dan", Fraction(0), -14, 8, False, True),
    ]


def test_the_exports_of_an_mcr_event(ledger: Ledger) -> None:
    book, event, first = round_one(ledger)
    one, two = (table.table for table in first.tables)

    text = book.export_csv(event)
    columns = ["rank", "name", "total", "score", "tied", "tables", "withdrawn", "provisional"]
    assert set(columns) <= set(export_header(text))
    assert [[row[column] for column in columns] for row in export_rows(text)] == [
        ["1", "Eve", "4", "80", "", "1", "", "yes"],
        ["2", "Ann", "4", "34", "", "1", "", ""],
        ["3", "Ben", "3/2", "-10", "yes", "1", "", ""],
        ["3", "Cat", "3/2", "-10", "yes", "1", "", ""],
        ["5", "Fay", "3/2", "-24", "yes", "1", "", "yes"],
        ["5", "Gus", "3/2", "-24", "yes", "1", "", "yes"],
        ["7", "Dan", "0", "-14", "", "1", "", ""],
        ["8", "Hal", "0", "-32", "", "1", "", "yes"],
    ]
    assert {row["adjustments"] for row in export_rows(text)} == {""}

    exported = book.export_json(event)
    assert (exported["format"], exported["event"]["profile"]) == ("companion-event", "mcr")
    standings = exported["standings"]
    assert (standings["rule"], standings["unfinished"]) == (
        "table-points",
        [{"round": 1, "table": two}],
    )
    assert standings["rows"][2] == {
        "name": "Ben",
        "rank": 3,
        "tied": True,
        "total": 1.5,
        "total_exact": "3/2",
        "secondary": -10,
        "secondary_exact": "-10",
        "tables": 1,
        "penalties": [],
        "withdrawn": False,
        "provisional": False,
    }
    assert standings["rows"][7] == {
        "name": "Hal",
        "rank": 8,
        "tied": False,
        "total": 0,
        "total_exact": "0",
        "secondary": -32,
        "secondary_exact": "-32",
        "tables": 1,
        "penalties": [],
        "withdrawn": False,
        "provisional": True,
    }
    # Each table's own export rides along, its standings with the table points as the table
    # gives them (a shared 2 + 1 as "1.5").
    tables = exported["tables"]
    assert [(table["round"], table["number"], table["table"]["id"]) for table in tables] == [
        (1, 1, one),
        (1, 2, two),
    ]
    assert tables[0]["table"]["name"] == "MCR night · round 1 · table 1"
    assert [
        (player["name"], player["table_points"], player["score"])
        for player in tables[0]["standings"]["players"]
    ] == [("Ann", "4", 34), ("Ben", "1.5", -10), ("Cat", "1.5", -10), ("Dan", "0", -14)]
    assert len(tables[0]["events"]) == 16
    assert "token" not in json.dumps(exported)


def test_the_command_line_standings_of_an_mcr_event(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv(db.ENV_URL, raising=False)
    url = f"sqlite:///{tmp_path / 'events.sqlite3'}"
    with Ledger.open(url) as ledger:
        _, event, _ = round_one(ledger)
    data = json.loads(ok(capsys, "event", "standings", event, "--json", "--db", url))
    assert (data["id"], data["name"], data["rule"]) == (event, "MCR night", "table-points")
    assert [
        (row["name"], row["total_exact"], row["secondary"], row["rank"], row["provisional"])
        for row in data["rows"]
    ] == [
        (name, str(points), score, rank, provisional)
        for name, points, score, rank, _, provisional in ROUND_ONE
    ]
    assert ok(capsys, "event", "standings", event, "--db", url).splitlines() == [
        # Table points as they are, the score signed (as the table's standings show them).
        "MCR night (table-points)",
        "   1 Eve         4  (+80)  1 table; playing",
        "   2 Ann         4  (+34)  1 table",
        "  3= Ben       1.5  (-10)  1 table",
        "  3= Cat       1.5  (-10)  1 table",
        "  5= Fay       1.5  (-24)  1 table; playing",
        "  5= Gus       1.5  (-24)  1 table; playing",
        "   7 Dan         0  (-14)  1 table",
        "   8 Hal         0  (-32)  1 table; playing",
    ]

"""Events of `sanma` (docs/events.md, *Tables of three*): the seating puts three at a table, as
the profile's seats say; a field of 9, 10 or 11 players takes byes or substitutes as a field of
four does; the standings rank the final results of games of three (uma +15 0 -15, oka 15)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from companion.events.plan import Leftover, SeatingError, SeatingPlan, UnevenFieldError
from companion.events.repeats import plan_repeats
from companion.events.seating import seat_event
from companion.events.standings import StandingRule
from companion.ledger import db
from companion.ledger.event_book.service import EventBook
from companion.ledger.records import WinnerRecord, WinRecord
from companion.ledger.repository import Ledger
from companion.tiles import Wind
from test_ledger_cli import ok


def names(count: int) -> list[str]:
    return [f"P{number:02d}" for number in range(1, count + 1)]


def plan(count: int, rounds: int, leftover: Leftover | None = None) -> SeatingPlan:
    return SeatingPlan.of(names(count), rounds, seed=7, leftover=leftover, table_size=3)


def test_nine_players_sit_at_three_tables_of_three_and_never_meet_twice_in_four_rounds() -> None:
    seating = seat_event(plan(9, 4))
    met: Counter[frozenset[str]] = Counter()
    for round_ in seating.rounds:
        assert [len(table.players) for table in round_.tables] == [3, 3, 3]
        seated = [name for table in round_.tables for name in table.players]
        assert sorted(seated) == names(9)
        assert (round_.byes, round_.substitutes) == ((), ())
        assert [wind for wind, _ in round_.tables[0].seats] == [Wind.EAST, Wind.SOUTH, Wind.WEST]
        for table in round_.tables:
            met.update(frozenset(pair) for pair in combinations(table.players, 2))
    # Nine players meet eight others, two a round: four rounds can seat them all apart.
    assert max(met.values()) == 1 and seating.repeats == 0
    assert plan_repeats(plan(9, 4)) == (0, 0, 0, 0)
    # Three winds a table: nobody sits in a wind twice over the first two rounds; the third,
    # held to seating nobody again, leaves a few in a wind they have had (counted).
    assert [round_.seat_repeats for round_ in seating.rounds] == [0, 0, 2, 0]
    winds = Counter(
        (name, wind)
        for round_ in seating.rounds[:2]
        for table in round_.tables
        for wind, name in table.seats
    )
    assert set(winds.values()) == {1} and len(winds) == 18


@pytest.mark.parametrize(("count", "over"), [(10, 1), (11, 2)])
def test_byes_rest_the_players_over_three(count: int, over: int) -> None:
    seating = seat_event(plan(count, 5, Leftover.BYES))
    rested: Counter[str] = Counter()
    for round_ in seating.rounds:
        assert [len(table.players) for table in round_.tables] == [3, 3, 3]
        assert len(round_.byes) == over and round_.substitutes == ()
        seated = {name for table in round_.tables for name in table.players}
        assert seated.isdisjoint(round_.byes) and len(seated) == 9
        rested.update(round_.byes)
    # Nobody sits out twice while another has not sat out once.
    assert max(rested.values()) - min(rested.get(name, 0) for name in names(count)) <= 1


@pytest.mark.parametrize(("count", "substitutes"), [(10, 2), (11, 1)])
def test_substitutes_complete_the_tables_of_three(count: int, substitutes: int) -> None:
    seating = seat_event(plan(count, 3, Leftover.SUBSTITUTES))
    for round_ in seating.rounds:
        assert [len(table.players) for table in round_.tables] == [3, 3, 3, 3]
        assert round_.substitutes == tuple(
            f"Substitute {number}" for number in range(1, substitutes + 1)
        )
        seated = [name for table in round_.tables for name in table.players]
        assert sorted(set(seated) - set(round_.substitutes)) == names(count)


def test_a_field_that_does_not_divide_by_three_needs_a_leftover_policy() -> None:
    with pytest.raises(UnevenFieldError) as uneven:
        plan(10, 2)
    assert uneven.value.message == (
        "10 players leave 1 over at tables of three: bring in 2 more to substitute, or give "
        "1 of them a bye"
    )
    assert (uneven.value.key, uneven.value.params) == (
        "refusal.event_uneven_three",
        {"players": 10, "tables": 3, "over": 1, "substitutes": 2, "round": None},
    )
    with pytest.raises(SeatingError, match="a table needs 3 players, and the event has 2"):
        plan(2, 1, Leftover.BYES)
    assert plan(3, 1).table_size == 3


# ---------------------------------------------------------------------------------------------
# On the ledger


@pytest.fixture
def ledger(tmp_path: Any) -> Iterator[Ledger]:
    with Ledger.open(f"sqlite:///{tmp_path / 'ledger.sqlite3'}") as opened:
        yield opened


def test_a_sanma_event_seats_tables_of_three_and_ranks_their_final_results(
    ledger: Ledger,
) -> None:
    book = EventBook(ledger)
    created = book.create_event(
        "Sanma night", "sanma", {}, names(10), 2, seed=3, first_round="listed", leftover="byes"
    )
    first = book.seat_round(created.id, 1)
    assert [table.players for table in first.tables] == [
        ("P01", "P02", "P03"),
        ("P04", "P05", "P06"),
        ("P07", "P08", "P09"),
    ]
    assert first.byes == ("P10",)
    one, two, three = (table.table for table in first.tables)
    assert ledger.replay(one).setup.players == ("P01", "P02", "P03")
    # Table 1: P01, the dealer, wins a yakuman on P02's discard (48,000): P02 busts. The
    # finals: P01 (83,000 - 40,000) / 1000 + 15 + 15 = 73; P03 -5 + 0; P02 -53 - 15.
    ledger.record(one, WinRecord((WinnerRecord("P01", yakuman=1),), "P02"))
    # Table 2 still playing: P05's 3 han 30 fu on P04's discard (3,900), as it stands in
    # thousands against the 35,000 start.
    ledger.record(two, WinRecord((WinnerRecord("P05", han=3, fu=30),), "P04"))
    board = book.standings(created.id)
    assert board.rule is StandingRule.FINALS
    rows = [(row.name, row.total, row.secondary, row.provisional) for row in board.rows]
    assert rows[0] == ("P01", 73, 83_000, False)
    assert ("P03", -5, 35_000, False) in rows
    assert rows[-1] == ("P02", -68, -13_000, False)
    assert ("P05", pytest.approx(3.9), 38_900, True) in [
        (name, float(total), secondary, provisional) for name, total, secondary, provisional in rows
    ]
    assert board.unfinished == ((1, two), (1, three))


def test_a_sanma_event_of_too_few_or_uneven_players_is_refused(ledger: Ledger) -> None:
    book = EventBook(ledger)
    with pytest.raises(UnevenFieldError, match="at tables of three"):
        book.create_event("Sanma", "sanma", {}, names(11), 2)
    created = book.create_event("Sanma", "sanma", {}, names(11), 1, leftover="substitutes")
    seated = book.seat_round(created.id, 1)
    assert [len(table.players) for table in seated.tables] == [3, 3, 3, 3]
    assert seated.substitutes == ("Substitute 1",)


def test_a_sanma_event_from_the_command_line_and_its_page(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(db.ENV_URL, raising=False)
    url = f"sqlite:///{tmp_path / 'events.sqlite3'}"
    players = tmp_path / "players.txt"
    players.write_text("\n".join(names(9)), encoding="utf-8")
    event = ok(
        capsys,
        *("event", "new", "--name", "Sanma night", "--profile", "sanma"),
        *("--players-file", str(players), "--rounds", "2", "--seed", "7"),
        *("--first-round", "listed", "--db", url),
    ).strip()
    out = ok(capsys, "event", "seat", event, "--round", "1", "--db", url)
    tables = re.findall(r"Table \d \(([a-z2-9]{8}),", out)
    assert out.splitlines() == [
        "Round 1: 3 tables, 0 repeats (0 so far, 0 unavoidable), 0 seat repeats",
        f"  Table 1 ({tables[0]}, 0 hands): East P01, South P02, West P03",
        f"  Table 2 ({tables[1]}, 0 hands): East P04, South P05, West P06",
        f"  Table 3 ({tables[2]}, 0 hands): East P07, South P08, West P09",
    ]
    from fastapi.testclient import TestClient

    from companion.api.app import create_app

    with TestClient(create_app(url)) as client:
        page = client.get(f"/e/{event}?lang=en")
        assert page.status_code == 200
        # Each table's three, in seat order.
        found = re.findall(r'<span class="seat-name">(P\d\d)</span>', page.text)
        assert found[:9] == names(9)

"""A big event's reads are proportionate (issue 41, item 2): the event's tables are read
together in a few statements whatever their number, kept by the event's version, and the public
page shows one round's tables with a link to each other round."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from companion.api import create_app
from companion.ledger.event_book.service import EventBook
from companion.ledger.event_book.tables import table_standings
from companion.ledger.records import DrawRecord
from companion.ledger.repository import Ledger


def names(count: int) -> list[str]:
    return [f"Player {number}" for number in range(1, count + 1)]


def seated_event(url: str, players: int, rounds: int) -> str:
    """An sg event of `players` seated for all its `rounds` (no hand played)."""
    with Ledger.open(url) as ledger:
        book = EventBook(ledger)
        event_id = book.create_event("Big", "sg", None, names(players), rounds, seed=3).id
        for number in range(1, rounds + 1):
            book.seat_round(event_id, number, confirm=True)
        return event_id


class Statements:
    """The SQL queries (`SELECT`) a ledger's engine runs while counting."""

    def __init__(self, ledger: Ledger) -> None:
        self.seen: list[str] = []
        self.counting = False
        event.listen(ledger.engine, "before_cursor_execute", self.heard)

    def heard(self, _conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if self.counting and statement.lstrip().upper().startswith("SELECT"):
            self.seen.append(statement)

    def during(self, act: Any) -> list[str]:
        self.seen, self.counting = [], True
        try:
            act()
        finally:
            self.counting = False
        return self.seen


def standings_statements(url: str, event_id: str) -> tuple[list[str], list[str], list[str]]:
    """The statements of a standings read in a fresh process's ledger (nothing kept), of the
    same read again, and of the read after a hand at one table."""
    with Ledger.open(url) as ledger:
        book = EventBook(ledger)
        statements = Statements(ledger)
        first = statements.during(lambda: book.standings(event_id))
        again = statements.during(lambda: book.standings(event_id))
        table = book.event(event_id).seated[-1].tables[0].table
        ledger.record(table, DrawRecord())
        after_hand = statements.during(lambda: book.standings(event_id))
        return first, again, after_hand


def test_a_standings_read_is_the_same_few_statements_for_8_tables_and_for_60(
    tmp_path: Any,
) -> None:
    small_url = f"sqlite:///{tmp_path / 'small.sqlite3'}"
    big_url = f"sqlite:///{tmp_path / 'big.sqlite3'}"
    small = standings_statements(small_url, seated_event(small_url, 8, 4))  # 8 tables
    big = standings_statements(big_url, seated_event(big_url, 60, 4))  # 60 tables
    for small_count, big_count in zip(small, big, strict=True):
        assert len(small_count) == len(big_count)
    first, again, after_hand = big
    # The version, the event's seven kinds of rows (the tables ended early among them), and the
    # tables (their last entries, rows, players and entries): one statement each, not one per
    # table.
    assert len(first) == 12
    assert len([s for s in first if "FROM event_endings" in s]) == 1
    tables_reads = [s for s in first if "FROM ledger_tables" in s]
    assert len(tables_reads) == 1
    assert len([s for s in first if "ledger_events" in s]) == 3  # version, last, entries
    # Read again at the same version: the version alone.
    assert len(again) == 1 and "sum(" in again[0].lower()
    # After a hand at one table: the version, the tables' last entries, and that table alone
    # read again (by its id); the event's own rows are kept, since no organiser acted.
    assert len(after_hand) == 5
    [table_read] = [s for s in after_hand if "FROM ledger_tables" in s]
    assert "IN (?)" in table_read
    assert not [s for s in after_hand if "FROM event_rounds" in s]


def test_the_standings_read_together_equal_each_tables_own(ledger_url: str) -> None:
    url = ledger_url
    event_id = seated_event(url, 16, 3)
    with Ledger.open(url) as ledger:
        book = EventBook(ledger)
        view = book.event(event_id)
        tables = [table.table for round_ in view.seated for table in round_.tables]
        ledger.record(tables[0], DrawRecord())
        ledger.record(tables[5], DrawRecord())
        view = book.event(event_id)
        assert [(t.hands, t.finished) for r in view.seated for t in r.tables][:6] == [
            (1, False),
            (0, False),
            (0, False),
            (0, False),
            (0, False),
            (1, False),
        ]
        read = table_standings(ledger, book._read(event_id))
        assert {table: read[table] for table in tables} == {
            table: ledger.standings(table) for table in tables
        }
        # The version: the organiser's 4 actions (create, seat 3 rounds) and the 2 hands.
        assert book.version(event_id) == 6
        assert book.current(event_id).version == 6
        # An organiser's action after hands alone: the event's rows are read again with it.
        player = view.seated[0].tables[0].players[0]
        book.adjust(event_id, player, -1, "late", by="Mia")
        read = book.current(event_id)
        assert (read.version, read.actions) == (7, 5)
        [row] = [row for row in read.board.rows if row.name == player]
        assert (row.total, [p.reason for p in row.penalties]) == (-1, ["late"])


# ---------------------------------------------------------------------------------------------
# The public page: one round's tables, a link to each round


@pytest.fixture
def big_night(tmp_path: Any) -> Iterator[tuple[TestClient, Ledger, str]]:
    """20 players seated for 4 rounds: 5 tables a round, none finished."""
    url = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    event_id = seated_event(url, 20, 4)
    with Ledger.open(url) as ledger, TestClient(create_app(url)) as client:
        yield client, ledger, event_id


def table_links(html: str) -> set[str]:
    return set(re.findall(r'href="/t/([a-z0-9]+)"', html))


def test_the_public_page_lists_the_current_rounds_tables_and_links_the_others(
    big_night: tuple[TestClient, Ledger, str],
) -> None:
    client, ledger, event_id = big_night
    view = EventBook(ledger).event(event_id)
    by_round = {r.number: {t.table for t in r.tables} for r in view.seated}
    page = client.get(f"/e/{event_id}?lang=en")
    assert page.status_code == 200
    html = page.text
    # Round 4's five tables and no other table: the 15 of rounds 1-3 still playing are one
    # line each with a link to their round's page.
    assert table_links(html) == by_round[4]
    for number in (1, 2, 3):
        assert f'<a href="/e/{event_id}?round={number}" data-round-link="{number}">' in html
        assert f"Round {number}&#39;s tables (still playing: 5)" in html
    current = f'href="/e/{event_id}?round=4" data-round-link="4" aria-current="page"'
    assert current in html
    # Round 2's page: its five tables, a way back to the current round, the same board.
    second = client.get(f"/e/{event_id}?round=2&lang=zh-Hans").text
    assert table_links(second) == by_round[2]
    assert "第 2 轮牌桌" in second and "返回当前轮（第 4 轮）" in second  # noqa: RUF001
    assert f'"board": "/e/{event_id}/board?round=2"' in second.replace("\\/", "/")
    board = client.get(f"/e/{event_id}/board?round=2").text
    assert table_links(board) == by_round[2]
    # A round not seated shows the current round.
    assert table_links(client.get(f"/e/{event_id}?round=9").text) == by_round[4]
    assert client.get(f"/e/{event_id}?round=x").status_code == 422

"""The ledger on a database: SQLite and a real PostgreSQL server (see conftest.py), the same
tests on both. Persistence, tokens, idempotency, corrections, export, concurrent writers."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import inspect, select

from companion.ledger import db
from companion.ledger.entries import Correction
from companion.ledger.errors import (
    IdempotencyConflictError,
    LedgerError,
    StaleWriteError,
    TableFinishedError,
    UnknownEntryError,
    UnknownTableError,
)
from companion.ledger.models import VERSION_TABLE, EntryRow, TableRow
from companion.ledger.records import DrawRecord, PayoutRecord, WinnerRecord, WinRecord
from companion.ledger.repository import Ledger, hash_token

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
SRC = Path(__file__).resolve().parents[1] / "src"


@pytest.fixture
def ledger(ledger_url: str) -> Iterator[Ledger]:
    with Ledger.open(ledger_url) as opened:
        yield opened


def win(name: str, tai: int = 1) -> tuple[WinnerRecord]:
    return (WinnerRecord(name, tai=tai),)


# ---------------------------------------------------------------------------------------------
# Tables and persistence


def test_a_table_is_created_with_a_token_of_which_only_the_hash_is_kept(ledger: Ledger) -> None:
    created = ledger.create_table("sg", PLAYERS, options={"min_tai": 2}, hands=16)
    assert ledger.verify_token(created.id, created.token)
    assert not ledger.verify_token(created.id, created.token + "x")
    with ledger.engine.connect() as connection:
        row = connection.execute(select(TableRow).where(TableRow.id == created.id)).one()
    assert row.token_hash == hash_token(created.token) != created.token
    setup = ledger.setup(created.id.upper())  # ids are read without case
    assert (setup.profile, setup.players, setup.planned_hands) == ("sg", tuple(PLAYERS), 16)
    assert setup.options == {"min_tai": 2}


def test_the_record_survives_reopening_and_state_is_replayed(ledger_url: str) -> None:
    with Ledger.open(ledger_url) as first:
        table = first.create_table("sg", PLAYERS).id
        first.record(table, WinRecord(tuple(win("Cat", 2)), discarder="Ann"))
        first.record(table, DrawRecord())
    with Ledger.open(ledger_url) as second:
        standings = second.standings(table)
        history = second.history(table)
    assert standings["hands"] == 2
    assert standings["dealer"] == "Ben"
    assert standings["round"] == "E"
    assert [(p["name"], p["total"]) for p in standings["players"]] == [
        ("Ann", -4),
        ("Ben", -2),
        ("Cat", 8),
        ("Dan", -2),
    ]
    assert [entry.stored.kind for entry in history] == ["win", "draw"]


def test_nothing_derived_is_stored(ledger: Ledger) -> None:
    table = ledger.create_table("tw", PLAYERS).id
    ledger.record(table, WinRecord(tuple(win("Ann", 3))))
    columns = {
        name: {column["name"] for column in inspect(ledger.engine).get_columns(name)}
        for name in ("ledger_tables", "ledger_events")
    }
    # What the table was set up with (`planned_hands`, `planned_rounds`) is not derived.
    stored = [c for cols in columns.values() for c in cols if not c.startswith("planned_")]
    for derived in ("dealer", "round", "streak", "total", "hands_played"):
        assert not any(derived in column for column in stored)


def test_unknown_tables_and_events_are_explained(ledger: Ledger) -> None:
    with pytest.raises(UnknownTableError, match="no table with id 'nope'"):
        ledger.standings("nope")
    table = ledger.create_table("sg", PLAYERS).id
    with pytest.raises(UnknownEntryError, match="no entry 4"):
        ledger.void(table, 4, reason="typo")


def test_migrations_are_applied_once_and_recorded(ledger_url: str) -> None:
    engine = db.create_ledger_engine(ledger_url)
    try:
        db.migrate(engine)
        db.migrate(engine)  # a no-op the second time
        tables = set(inspect(engine).get_table_names())
        assert {"ledger_tables", "ledger_players", "ledger_events", VERSION_TABLE} <= tables
        with engine.connect() as connection:
            version = connection.exec_driver_sql(f"SELECT version_num FROM {VERSION_TABLE}")
            assert [row[0] for row in version] == [db.head_revision()]
    finally:
        engine.dispose()


# ---------------------------------------------------------------------------------------------
# Idempotency


def test_the_same_key_twice_records_once(ledger: Ledger) -> None:
    table = ledger.create_table("sg", PLAYERS).id
    first = ledger.record(table, WinRecord(tuple(win("Ben", 3)), discarder="Cat"), key="tap-1")
    again = ledger.record(table, WinRecord(tuple(win("ben", 3)), discarder="cat"), key="tap-1")
    assert not first.duplicate and again.duplicate
    assert again.stored.seq == first.stored.seq == 1
    assert len(ledger.history(table)) == 1
    assert ledger.standings(table)["players"][1]["total"] == 16
    # A key belongs to its table.
    other = ledger.create_table("sg", PLAYERS).id
    assert not ledger.record(other, DrawRecord(), key="tap-1").duplicate


def test_the_same_key_for_something_else_is_refused(ledger: Ledger) -> None:
    table = ledger.create_table("sg", PLAYERS).id
    ledger.record(table, WinRecord(tuple(win("Ben", 3)), discarder="Cat"), key="k")
    with pytest.raises(IdempotencyConflictError, match="already used for entry 1"):
        ledger.record(table, WinRecord(tuple(win("Ben", 4)), discarder="Cat"), key="k")
    with pytest.raises(IdempotencyConflictError):
        ledger.record(table, DrawRecord(), key="k")
    assert len(ledger.history(table)) == 1


def test_keys_work_for_corrections_too(ledger: Ledger) -> None:
    table = ledger.create_table("sg", PLAYERS).id
    ledger.record(table, DrawRecord())
    ledger.void(table, 1, reason="no hand", key="v")
    assert ledger.void(table, 1, reason="no hand", key="v").duplicate
    with pytest.raises(UnknownEntryError, match="already void"):
        ledger.void(table, 1, reason="no hand")


# ---------------------------------------------------------------------------------------------
# Corrections, limits, export


def test_void_and_amend_keep_the_original_with_who_when_and_why(ledger: Ledger) -> None:
    table = ledger.create_table("sg", PLAYERS).id
    ledger.record(table, WinRecord(tuple(win("Ben", 2)), discarder="Ann"))  # 1
    ledger.record(table, DrawRecord())  # 2
    amended = ledger.amend(
        table, 1, WinRecord(win("Cat", 2), "Ann"), reason="it was Cat", by="Dan"
    )  # 3
    voided = ledger.void(table, 2, reason="no such hand")  # 4
    history = ledger.history(table)
    assert [(e.stored.seq, e.status) for e in history] == [
        (1, "amended"),
        (2, "voided"),
        (3, "amend"),
        (4, "void"),
    ]
    correction, void = history[2].stored.body, history[3].stored.body
    assert isinstance(correction, Correction) and isinstance(void, Correction)
    assert (correction.by, correction.reason, correction.target) == ("Dan", "it was Cat", 1)
    assert (void.by, void.reason, void.replacement) == ("", "no such hand", None)
    assert history[2].stored.at <= history[3].stored.at
    assert amended.entry.status == "amend" and voided.replay.state.hands == 1
    standings = ledger.standings(table)
    assert standings["dealer"] == "Ben"  # Cat's win passed the deal
    assert [p["total"] for p in standings["players"]] == [-4, -2, 8, -2]
    with pytest.raises(LedgerError, match="needs a reason"):
        ledger.void(table, 1, reason="  ")


def test_a_table_with_its_hands_played_takes_no_more(ledger: Ledger) -> None:
    table = ledger.create_table("sg-table", PLAYERS, hands=2).id
    ledger.record(table, DrawRecord())
    ledger.record(table, PayoutRecord("Ann", "bite"))
    ledger.record(table, WinRecord(tuple(win("Ann")), discarder="Ben"))
    for record in (
        lambda: ledger.record(table, DrawRecord()),
        lambda: ledger.record(table, PayoutRecord("Ann", "bite")),
        lambda: ledger.amend(table, 2, DrawRecord(), reason="it was a draw"),
    ):
        with pytest.raises(TableFinishedError, match="2 hands are all played"):
            record()
    ledger.void(table, 1, reason="never played")  # a correction frees a hand
    assert ledger.record(table, DrawRecord()).replay.state.finished


def test_export_json_and_csv(ledger: Ledger) -> None:
    table = ledger.create_table("sg-table", PLAYERS, options={"share": "0.5"}).id
    ledger.record(table, PayoutRecord("Dan", "bite"))
    ledger.record(table, WinRecord(tuple(win("Ben", 3)), discarder="Cat", liable="Ann"))
    ledger.void(table, 1, reason="no bite", by="Cat")
    exported = ledger.export_json(table)
    json.dumps(exported)  # plain JSON
    assert exported["table"]["id"] == table
    assert exported["table"]["players"] == PLAYERS
    assert exported["standings"]["hands"] == 1
    events = exported["events"]
    assert [e["status"] for e in events] == ["voided", "recorded", "void"]
    assert events[1]["outcome"]["liable"] == "Ann"
    assert events[1]["amounts"] == {"Ann": -8, "Ben": 8, "Cat": 0, "Dan": 0}
    assert events[2]["reason"] == "no bite" and events[2]["by"] == "Cat"
    assert exported["settle_up"] == [
        {"from": "Ann", "to": "Ben", "amount": 8, "text": "Ann pays Ben 8"}
    ]
    rows = list(csv.DictReader(io.StringIO(ledger.export_csv(table))))
    assert [row["status"] for row in rows] == ["voided", "recorded", "void"]
    assert rows[0]["Dan"] == "0" and rows[1]["Ben"] == "8" and rows[1]["Ben total"] == "8"
    assert rows[2]["corrects"] == "1" and rows[2]["reason"] == "no bite"


def test_amounts_stay_exact(ledger: Ledger) -> None:
    table = ledger.create_table("sg", PLAYERS, options={"share": "1/3", "min_tai": 0}).id
    ledger.record(table, WinRecord(tuple(win("Ann", 0)), discarder="Ben"))
    totals = [p["total_exact"] for p in ledger.standings(table)["players"]]
    assert totals == ["2/3", "-1/3", "-1/6", "-1/6"]
    assert sum(t.amount for t in ledger.settle_up(table)) == Fraction(2, 3)


# ---------------------------------------------------------------------------------------------
# Concurrent writers


def _run_threads(count: int, work: Callable[[int], None]) -> None:
    errors: list[BaseException] = []
    barrier = threading.Barrier(count)

    def run(index: int) -> None:
        try:
            barrier.wait()
            work(index)
        except BaseException as error:  # surfaced below
            errors.append(error)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]


def _check_whole(ledger: Ledger, table: str, expected: int) -> None:
    replayed = ledger.replay(table)
    seqs = [entry.stored.seq for entry in replayed.entries]
    assert seqs == list(range(1, expected + 1))  # none lost, none twice, no gaps
    assert replayed.state.hands == expected
    totals = [Fraction(0)] * 4
    for entry in replayed.entries:
        totals = [t + a for t, a in zip(totals, entry.amounts, strict=True)]
    assert list(replayed.state.totals) == totals


def test_concurrent_writers_on_separate_engines_lose_and_duplicate_nothing(
    ledger_url: str, ledger: Ledger
) -> None:
    table = ledger.create_table("sg", PLAYERS).id
    writers, each = 4, 5

    def work(index: int) -> None:
        with Ledger.open(ledger_url) as own:  # its own engine and connections
            for n in range(each):
                if n % 2:
                    own.record(table, DrawRecord())
                else:
                    own.record(
                        table, WinRecord(tuple(win(PLAYERS[index], 1 + n % 3)), discarder=None)
                    )

    _run_threads(writers, work)
    _check_whole(ledger, table, writers * each)


def test_a_double_tap_from_many_writers_records_once(ledger_url: str, ledger: Ledger) -> None:
    table = ledger.create_table("sg", PLAYERS).id

    def work(_: int) -> None:
        with Ledger.open(ledger_url) as own:
            own.record(table, WinRecord(tuple(win("Dan", 2)), discarder="Ann"), key="same-tap")

    _run_threads(6, work)
    _check_whole(ledger, table, 1)


def test_without_the_row_lock_the_unique_sequence_still_keeps_the_record_whole(
    ledger_postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PostgreSQL's second line of defence: with no row lock, racing writers meet the unique
    constraint on (table, event number), roll back and try again. (SQLite has no such race:
    BEGIN IMMEDIATE serialises its writers.)"""
    original = Ledger._table

    def unlocked(self: Ledger, session: Any, table_id: str, *, lock: bool = False) -> TableRow:
        return original(self, session, table_id, lock=False)

    monkeypatch.setattr(Ledger, "_table", unlocked)
    with Ledger.open(ledger_postgres_url) as ledger:
        table = ledger.create_table("sg", PLAYERS).id

        def work(_: int) -> None:
            with Ledger.open(ledger_postgres_url) as own:
                for _n in range(3):
                    own.record(table, DrawRecord())

        _run_threads(3, work)
        _check_whole(ledger, table, 9)


def test_two_phones_recording_the_same_hand_record_it_once(ledger_url: str, ledger: Ledger) -> None:
    """Without a shared key, two writers that both believe they record hand 1 are told apart by
    `expect_hand`: one records it, the others are refused and see the history."""
    table = ledger.create_table("sg", PLAYERS).id
    refused: list[str] = []

    def work(index: int) -> None:
        with Ledger.open(ledger_url) as own:
            try:
                own.record(table, WinRecord(tuple(win(PLAYERS[index], 2))), expect_hand=1)
            except StaleWriteError as error:
                refused.append(error.message)

    _run_threads(4, work)
    _check_whole(ledger, table, 1)
    assert len(refused) == 3
    assert "hand 1 is already recorded and the next is hand 2" in refused[0]


_PROCESS_SCRIPT = """
import sys
from companion.ledger.records import DrawRecord
from companion.ledger.repository import Ledger
url, table, name = sys.argv[1:4]
with Ledger.open(url) as ledger:
    for n in range(4):
        ledger.record(table, DrawRecord(), key=f"{name}-{n}")
        ledger.record(table, DrawRecord(), key=f"{name}-{n}")  # the double tap
"""


def test_concurrent_processes_lose_and_duplicate_nothing(ledger_url: str, ledger: Ledger) -> None:
    table = ledger.create_table("sg", PLAYERS).id
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", _PROCESS_SCRIPT, ledger_url, table, f"p{index}"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for index in range(3)
    ]
    for process in processes:
        _, err = process.communicate(timeout=60)
        assert process.returncode == 0, err
    _check_whole(ledger, table, 12)
    with ledger.engine.connect() as connection:
        keys = connection.execute(
            select(EntryRow.idempotency_key).where(EntryRow.table_id == table)
        ).scalars()
        assert sorted(k or "" for k in keys) == sorted(
            f"p{i}-{n}" for i in range(3) for n in range(4)
        )


# ---------------------------------------------------------------------------------------------
# URLs


def test_the_url_comes_from_the_flag_then_the_environment_then_the_data_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr("platformdirs.user_data_dir", lambda name: str(tmp_path / name))
    monkeypatch.delenv(db.ENV_URL, raising=False)
    assert db.resolve_url() == f"sqlite:///{tmp_path / 'companion' / 'ledger.sqlite3'}"
    monkeypatch.setenv(db.ENV_URL, "postgresql+psycopg://club@db/ledger")
    assert db.resolve_url() == "postgresql+psycopg://club@db/ledger"
    assert db.resolve_url("sqlite:///x.db") == "sqlite:///x.db"
    assert db.resolve_url(str(tmp_path / "t.db")) == f"sqlite:///{tmp_path / 't.db'}"
    assert db.resolve_url("postgres://u:pw@h/d") == "postgresql+psycopg://u:pw@h/d"


def test_unsupported_or_unreachable_databases_are_explained(tmp_path: Path) -> None:
    with pytest.raises(db.DatabaseError, match="unsupported database mysql://u:\\*\\*\\*@h/d"):
        db.create_ledger_engine("mysql://u:secret@h/d")
    engine = db.create_ledger_engine("postgresql+psycopg://nobody@127.0.0.1:1/none")
    with pytest.raises(db.DatabaseError, match="cannot use the database"):
        Ledger(engine)
    engine.dispose()

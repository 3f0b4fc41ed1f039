"""The ledger's migrations against its models, on SQLite and on PostgreSQL.

From every revision (an empty database, then each migration in turn), the database is upgraded
to that revision with a table, its players and an event in it, then to the head: the rows are
still there, and Alembic's `compare_metadata` finds no difference between the schema the
migrations built and `companion/ledger/models.py` (tables, columns with their types, nullability
and server defaults, indexes, unique and foreign keys; Alembic does not compare CHECK
constraints). Then it is downgraded to that revision again
and upgraded once more (every migration has a downgrade), and the models still match; at the
base no ledger table is left. (The downgrades of 0002 and 0003 once lost every player and
event on SQLite: a batch copies ledger_tables and drops the old one, which cascades.)

Each test has a database of its own: a new SQLite file, or a new database on the PostgreSQL
server of `tests/conftest.py` (`COMPANION_TEST_POSTGRES_URL`), dropped at the end; without a
server the PostgreSQL half skips, saying why, unless `COMPANION_REQUIRE_POSTGRES=1`.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Engine, make_url

from companion.ledger import db
from companion.ledger.models import VERSION_TABLE, Base

LEDGER_TABLES = {
    "ledger_tables",
    "ledger_players",
    "ledger_events",
    *(f"event_{name}" for name in ("records", "entries", "rounds", "tables", "timers", "audit")),
    *(f"club_{name}" for name in ("records", "players", "aliases", "tables", "events", "audit")),
}
SCRIPTS = ScriptDirectory(str(db.MIGRATIONS))
REVISIONS = [script.revision for script in reversed(list(SCRIPTS.walk_revisions()))]
"""Every migration, oldest first."""
CREATED = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def test_the_migrations_are_one_line_of_revisions() -> None:
    """Each file of the migrations' directory is one revision, numbered as its file is, in the
    order of the files: a new migration is read from there, never listed here."""
    files = sorted(path.name for path in (Path(db.MIGRATIONS) / "versions").glob("[0-9]*.py"))
    assert [name.partition("_")[0] for name in files] == REVISIONS
    assert SCRIPTS.get_heads() == [REVISIONS[-1]] == [db.head_revision()]


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    """An engine on a database with nothing in it, dropped afterwards."""
    if request.param == "sqlite":
        engine = db.create_ledger_engine(f"sqlite:///{tmp_path / 'ledger.sqlite3'}")
        yield engine
        engine.dispose()
        return
    session_url = make_url(request.getfixturevalue("ledger_postgres_url"))
    name = f"{session_url.database}_m{secrets.token_hex(4)}"
    admin = sa.create_engine(session_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(sa.text(f'CREATE DATABASE "{name}"'))
    engine = db.create_ledger_engine(
        session_url.set(database=name).render_as_string(hide_password=False)
    )
    try:
        yield engine
    finally:
        engine.dispose()
        with admin.connect() as connection:
            connection.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def _run(engine: Engine, step: Any, revision: str) -> None:
    """`command.upgrade` or `command.downgrade` to `revision`, as `db.migrate` runs them: in
    code, on a connection of the ledger's own engine, in one transaction."""
    with engine.begin() as connection:
        config = Config()
        config.set_main_option("script_location", str(db.MIGRATIONS))
        config.attributes["connection"] = connection
        step(config, revision)


def _current(engine: Engine) -> str | None:
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"version_table": VERSION_TABLE})
        return context.get_current_revision()


def _differences(engine: Engine) -> list[Any]:
    """What `alembic revision --autogenerate` would write: the models against the database."""
    with engine.connect() as connection:
        context = MigrationContext.configure(
            connection,
            opts={
                "compare_type": True,
                "compare_server_default": True,
                "version_table": VERSION_TABLE,
            },
        )
        return list(compare_metadata(context, Base.metadata))


def _add_a_table(engine: Engine) -> None:
    """A table with a player and an event, in the columns every revision has."""
    with engine.begin() as connection:
        connection.execute(
            sa.text(
                "INSERT INTO ledger_tables (id, profile, options, planned_hands, token_hash, "
                "created_at) VALUES ('t1', 'sg', '{}', 16, :token, :created)"
            ),
            {"token": "a" * 64, "created": CREATED},
        )
        connection.execute(
            sa.text("INSERT INTO ledger_players (table_id, seat, name) VALUES ('t1', 0, 'Ann')")
        )
        connection.execute(
            sa.text(
                "INSERT INTO ledger_events (table_id, seq, kind, payload, by_name, created_at) "
                "VALUES ('t1', 1, 'draw', '{\"hand\": 1}', 'Ann', :created)"
            ),
            {"created": CREATED},
        )


def _rows(engine: Engine) -> list[tuple[Any, ...]]:
    with engine.connect() as connection:
        return [
            *connection.execute(sa.text("SELECT id, profile, planned_hands FROM ledger_tables")),
            *connection.execute(sa.text("SELECT table_id, seat, name FROM ledger_players")),
            *connection.execute(sa.text("SELECT table_id, seq, kind, by_name FROM ledger_events")),
        ]


def _ledger_tables(engine: Engine) -> set[str]:
    return LEDGER_TABLES & set(sa.inspect(engine).get_table_names())


@pytest.mark.parametrize("start", ["base", *REVISIONS])
def test_every_revision_upgrades_to_the_models(empty_database: Engine, start: str) -> None:
    engine = empty_database
    _run(engine, command.upgrade, start)
    assert _current(engine) == (None if start == "base" else start)
    if start != "base":
        _add_a_table(engine)
    _run(engine, command.upgrade, "head")
    assert _current(engine) == db.head_revision()
    assert _differences(engine) == []
    kept = [("t1", "sg", 16), ("t1", 0, "Ann"), ("t1", 1, "draw", "Ann")]
    assert _rows(engine) == (kept if start != "base" else [])

    _run(engine, command.downgrade, start)
    assert _current(engine) == (None if start == "base" else start)
    if start == "base":
        assert _ledger_tables(engine) == set()
        return
    assert _rows(engine) == kept
    _run(engine, command.upgrade, "head")
    assert _differences(engine) == []
    assert _rows(engine) == kept
    _run(engine, command.downgrade, "base")
    assert _ledger_tables(engine) == set()


def test_the_record_takes_a_seating_taken_back_and_keeps_its_checks(
    empty_database: Engine,
) -> None:
    # 0006 replaces event_audit's CHECK on its kinds (on SQLite by copying the table): `unseat`
    # is taken, an unknown kind and a number below 1 still are not, and the rows stay.
    engine = empty_database
    _run(engine, command.upgrade, "0004")
    audit = (
        "INSERT INTO event_audit (event_id, seq, kind, by_name, details, created_at) "
        "VALUES ('e1', :seq, :kind, '', '{}', :created)"
    )
    with engine.begin() as connection:
        connection.execute(
            sa.text(
                "INSERT INTO event_records (id, name, profile, options, rounds, seed, "
                "first_round, later_rounds, token_hash, created_at) VALUES ('e1', 'Night', "
                "'sg', '{}', 2, 7, 'random', 'no-repeats', :token, :created)"
            ),
            {"token": "a" * 64, "created": CREATED},
        )
        connection.execute(sa.text(audit), {"seq": 1, "kind": "seat", "created": CREATED})
    _run(engine, command.upgrade, "head")
    with engine.begin() as connection:
        connection.execute(sa.text(audit), {"seq": 2, "kind": "unseat", "created": CREATED})
    for seq, kind in ((3, "bogus"), (0, "seat")):
        with pytest.raises(sa.exc.IntegrityError), engine.begin() as connection:
            connection.execute(sa.text(audit), {"seq": seq, "kind": kind, "created": CREATED})
    with engine.connect() as connection:
        kinds = connection.execute(sa.text("SELECT seq, kind FROM event_audit ORDER BY seq"))
        assert [tuple(row) for row in kinds] == [(1, "seat"), (2, "unseat")]
    _run(engine, command.downgrade, "0004")  # the seating taken back goes with its kind
    with engine.connect() as connection:
        assert connection.execute(sa.text("SELECT kind FROM event_audit")).scalars().all() == [
            "seat"
        ]

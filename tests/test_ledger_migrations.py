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
}
SCRIPTS = ScriptDirectory(str(db.MIGRATIONS))
REVISIONS = [script.revision for script in reversed(list(SCRIPTS.walk_revisions()))]
"""Every migration, oldest first."""
CREATED = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def test_the_migrations_are_one_line_of_revisions() -> None:
    assert REVISIONS == ["0001", "0002", "0003", "0004", "0005"]
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

"""Where the ledger lives and how it is opened: URL resolution, engines, migrations.

The URL is, in order: `--db URL`, `COMPANION_DATABASE_URL`, or a SQLite file in the user's data
directory (`platformdirs.user_data_dir("companion")/ledger.sqlite3`). A bare path is a SQLite
file. PostgreSQL is `postgresql+psycopg://user:password@host:port/database` (`postgresql://`
and `postgres://` are read as the same).

SQLite serialises writers: every transaction starts with `BEGIN IMMEDIATE`, which takes the
database's write lock at once (waiting up to the busy timeout), so a table's record is read and
appended by one writer at a time; a transaction that only reads (`READ_ONLY`) begins deferred.
On PostgreSQL the repository locks the table's row instead.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from pathlib import Path
from typing import Any

import platformdirs
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError
from sqlalchemy.pool import StaticPool

from companion.ledger.errors import LedgerError
from companion.ledger.models import VERSION_TABLE

ENV_URL = "COMPANION_DATABASE_URL"
MIGRATIONS = Path(__file__).with_name("migrations")
SQLITE_BUSY_TIMEOUT = 30.0
"""Seconds a SQLite writer waits for another to finish before giving up."""


class DatabaseError(LedgerError):
    """The database cannot be reached or opened."""


def default_url() -> str:
    directory = Path(platformdirs.user_data_dir("companion"))
    return f"sqlite:///{directory / 'ledger.sqlite3'}"


def resolve_url(explicit: str | None = None) -> str:
    """`--db` first, then `COMPANION_DATABASE_URL`, then the SQLite file in the data directory."""
    for candidate in (explicit, os.environ.get(ENV_URL)):
        if candidate and candidate.strip():
            return _normalise(candidate.strip())
    return default_url()


def _normalise(text: str) -> str:
    if "://" not in text:
        return f"sqlite:///{Path(text).expanduser().absolute()}"
    scheme, rest = text.split("://", 1)
    if scheme in ("postgres", "postgresql"):
        return f"postgresql+psycopg://{rest}"
    return text


def shown(url: str | URL) -> str:
    """The URL with any password hidden, for messages."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return str(url)


READ_ONLY_OPTION = "companion_read_only"
READ_ONLY = {READ_ONLY_OPTION: True}
"""The execution options of a transaction that only reads (`engine.execution_options(**READ_ONLY)`):
on SQLite it begins deferred, without the write lock; elsewhere it changes nothing."""


def create_ledger_engine(url: str) -> Engine:
    """An engine for a SQLite or PostgreSQL (psycopg 3) URL, set up for the ledger."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise DatabaseError(
            f"{url!r} is not a database URL: use a file path, sqlite:///PATH or "
            "postgresql+psycopg://USER@HOST/DATABASE"
        ) from None
    backend, driver = parsed.get_backend_name(), parsed.get_driver_name()
    if backend == "sqlite":
        return _sqlite_engine(parsed)
    if backend == "postgresql" and driver == "psycopg":
        return create_engine(parsed, pool_pre_ping=True)
    raise DatabaseError(
        f"unsupported database {shown(parsed)}: use sqlite:///PATH or "
        "postgresql+psycopg://USER@HOST/DATABASE"
    )


def _sqlite_engine(url: URL) -> Engine:
    memory = url.database in (None, "", ":memory:")
    kwargs: dict[str, Any] = {"connect_args": {"timeout": SQLITE_BUSY_TIMEOUT}}
    if memory:
        kwargs["poolclass"] = StaticPool
        kwargs["connect_args"]["check_same_thread"] = False
    else:
        assert url.database is not None
        Path(url.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, **kwargs)

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: sqlite3.Connection, _record: object) -> None:
        # Let SQLAlchemy's begin below open the transactions, not the sqlite3 module.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute(f"PRAGMA busy_timeout = {int(SQLITE_BUSY_TIMEOUT * 1000)}")
        if not memory:
            cursor.execute("PRAGMA journal_mode = WAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Any) -> None:
        # A read alone (`READ_ONLY`) takes no write lock: in WAL mode it reads a snapshot of
        # its own while writers write, so many readers never keep a table's write waiting.
        read_only = connection.get_execution_options().get(READ_ONLY_OPTION)
        connection.exec_driver_sql("BEGIN" if read_only else "BEGIN IMMEDIATE")

    return engine


_HEAD: list[str] = []
_HEAD_LOCK = threading.Lock()


def _config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def head_revision() -> str:
    with _HEAD_LOCK:
        if not _HEAD:
            head = ScriptDirectory.from_config(_config()).get_current_head()
            assert head is not None
            _HEAD.append(head)
        return _HEAD[0]


def migrate(engine: Engine) -> None:
    """Bring the schema to the latest migration, in one transaction (a no-op when it is)."""
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"version_table": VERSION_TABLE})
            current = context.get_current_revision()
            connection.rollback()
        if current == head_revision():
            return
        with engine.begin() as connection:
            config = _config()
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
    except DBAPIError as error:
        raise DatabaseError(describe_error(engine, error)) from error


def describe_error(engine: Engine, error: DBAPIError) -> str:
    """One line for a player: which database (password hidden) and what went wrong."""
    detail = str(error.orig).strip().splitlines()[0] if error.orig else str(error)
    return f"cannot use the database {shown(engine.url)}: {detail}"

"""Shared fixtures.

Ledger databases: `ledger_url` gives a fresh SQLite file, and (parametrised) a database on a real
PostgreSQL server. The server is `COMPANION_TEST_POSTGRES_URL` (default
`postgresql+psycopg://postgres@127.0.0.1:5432/postgres`); each test session creates its own
database `companion_test_<random>` on it and drops it at the end, so runs never collide. When the
server cannot be reached the PostgreSQL tests skip, saying why, unless
`COMPANION_REQUIRE_POSTGRES=1` (set by `.ci/run`), which makes them fail instead.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

POSTGRES_URL_ENV = "COMPANION_TEST_POSTGRES_URL"
POSTGRES_DEFAULT = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
REQUIRE_POSTGRES_ENV = "COMPANION_REQUIRE_POSTGRES"


@pytest.fixture(scope="session")
def ledger_postgres_url() -> Iterator[str]:
    """A fresh PostgreSQL database for this test session, dropped at the end."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import DBAPIError

    admin_url = os.environ.get(POSTGRES_URL_ENV) or POSTGRES_DEFAULT
    admin = create_engine(
        admin_url, isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 5}
    )
    name = f"companion_test_{secrets.token_hex(6)}"
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
    except DBAPIError as error:
        admin.dispose()
        shown = make_url(admin_url).render_as_string(hide_password=True)
        detail = str(error.orig or error).strip().splitlines()[0]
        reason = f"PostgreSQL is not reachable at {shown} ({POSTGRES_URL_ENV}): {detail}"
        if os.environ.get(REQUIRE_POSTGRES_ENV) == "1":
            pytest.fail(f"{reason}; {REQUIRE_POSTGRES_ENV}=1 requires it", pytrace=False)
        pytest.skip(reason)
    url = make_url(admin_url).set(database=name).render_as_string(hide_password=False)
    try:
        yield url
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def ledger_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A ledger database URL: a new SQLite file, or this session's PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    url: str = request.getfixturevalue("ledger_postgres_url")
    return url

"""Shared fixtures.

Ledger databases: `ledger_url` gives a fresh SQLite file, and (parametrised) a database on a real
PostgreSQL server. The server is `COMPANION_TEST_POSTGRES_URL` (default
`postgresql+psycopg://postgres@127.0.0.1:5432/postgres`); each test session creates its own
database `companion_test_<random>` on it and drops it at the end, so runs never collide. When the
server cannot be reached the PostgreSQL tests skip, saying why, unless
`COMPANION_REQUIRE_POSTGRES=1` (set by `.ci/run`), which makes them fail instead.

Under pytest-xdist (`make test` runs `pytest -n auto`) each worker is a session of its own: it
has its own PostgreSQL database (the worker's name is in it), its own server on a port the
kernel gave it, its own browser.

Hypothesis profiles (`HYPOTHESIS_PROFILE`): `dev`, the default, draws new examples on every run
and keeps any failing one in `.hypothesis/`, where the next run tries it first: every run explores
new inputs and none repeats the last run's work, except a failure until it is fixed. `ci` (set by
`.ci/run`) draws the same examples on every run, so that a red build fails the same way on any
machine. Each property keeps its own example count.

`slow` marks the tests `make check` leaves to `make test`: browsers, servers in subprocesses, the
fuzzer, PostgreSQL and the property tests (see `pytest_collection_modifyitems`).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings

from companion.api import create_app
from companion.api.deps import close_ledgers

POSTGRES_URL_ENV = "COMPANION_TEST_POSTGRES_URL"
POSTGRES_DEFAULT = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
REQUIRE_POSTGRES_ENV = "COMPANION_REQUIRE_POSTGRES"
LAN_ADDRESS = "192.0.2.20"
"""The machine's network address as every test and the servers they start see it (a
documentation address): no test asks the system for a route to a non-loopback address."""
os.environ["COMPANION_LAN_ADDRESS"] = LAN_ADDRESS
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "main")
"""This process's xdist worker (`gw0`, `gw1`...), `main` without xdist."""

settings.register_profile(
    "dev", deadline=None, print_blob=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("ci", settings.get_profile("dev"), derandomize=True, database=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

SLOW_MODULES = {
    "test_fuzz_short.py",  # the fuzzer's 30,000 inputs in a subprocess
    "test_deploy_restore.py",  # backups and restores through the command line
    "test_api_serve.py",  # the serve command
    "test_seeded_hands.py",  # thousands of seeded requests through the engine
}
"""Modules of slow tests besides the ones `is_slow` recognises by name or kind."""


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "slow: browsers, subprocesses, PostgreSQL, properties (not in `make check`)"
    )


def is_slow(item: pytest.Item) -> bool:
    path = Path(str(item.fspath))
    if "browser" in path.parts or path.name.startswith("test_reliability_"):
        return True
    if path.name in SLOW_MODULES:
        return True
    if getattr(getattr(item, "function", None), "is_hypothesis_test", False):
        return True
    callspec = getattr(item, "callspec", None)
    return callspec is not None and "postgresql" in callspec.params.values()


LONGEST_FIRST = (
    "test_riichi_differential.py",
    "test_mcr_differential.py",
    "test_sanma_differential.py",
    "browser/test_live_table.py",
    "test_reliability_input.py",
    "test_reliability_concurrency.py",
    "test_fuzz_short.py",
    "test_reliability_crash.py",
    "test_ledger_repository.py",
    "test_shapes_property.py",
    "test_api_tables.py",
    "browser/test_calculator.py",
    "browser/test_tables.py",
    "test_reliability_serve.py",
    "test_seeded_hands.py",
    "test_api_live.py",
    "browser/test_hk_browser.py",
    "test_invariants.py",
    "browser/test_table_tokens.py",
    "test_reliability_schema.py",
)
"""The modules holding the longest tests, longest first (from `pytest --durations`): they run
first, so that no worker is left with a long test when the others are done. Every other module
follows, in the order pytest collects them."""


def run_order(item: pytest.Item) -> int:
    path = Path(str(item.fspath)).as_posix()
    for rank, module in enumerate(LONGEST_FIRST):
        if path.endswith(f"/tests/{module}"):
            return rank
    return len(LONGEST_FIRST)


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> Iterator[None]:
    # Marked before pytest's own hooks run, so that `-m "not slow"` sees the marks.
    for item in items:
        if is_slow(item):
            item.add_marker(pytest.mark.slow)
    yield  # pytest's own: `-m` deselects, fixtures reorder
    # Then a stable sort: each module's tests stay together and in pytest's order (which keeps
    # module fixtures, such as a server, to one setup per worker and parameter).
    items.sort(key=run_order)


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
    name = f"companion_test_{WORKER}_{secrets.token_hex(6)}"
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


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """The web app and API on a new SQLite file (never the user's data directory)."""
    app = create_app(f"sqlite:///{tmp_path / 'ledger.sqlite3'}")
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client
    close_ledgers(app)

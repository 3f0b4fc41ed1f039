"""The backup and restore scripts of docs/deploy.md, run against the local PostgreSQL: a ledger
backed up while in use, restored into a new database, reads back the same, and takes writes."""

from __future__ import annotations

import secrets
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.ledger.records import DrawRecord, WinnerRecord, WinRecord
from companion.ledger.repository import Ledger

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"


@pytest.fixture
def empty_database(ledger_postgres_url: str) -> Iterator[str]:
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    name = f"companion_restore_{secrets.token_hex(4)}"
    admin = create_engine(ledger_postgres_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(ledger_postgres_url).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def test_a_backup_restores_into_a_new_database(
    ledger_postgres_url: str, empty_database: str, tmp_path: Path
) -> None:
    if shutil.which("pg_dump") is None or shutil.which("pg_restore") is None:
        pytest.skip("pg_dump and pg_restore are not installed (apt-get install postgresql-client)")
    with Ledger.open(ledger_postgres_url) as ledger:
        table = ledger.create_table("sg", ["Ann", "Ben", "Cat", "Dan"], name="Friday")
        ledger.record(table.id, WinRecord((WinnerRecord("Ann", tai=3),), discarder="Ben"))
        ledger.record(table.id, DrawRecord())
        ledger.void(table.id, 2, reason="it was not drawn", by="Dan")
        before = ledger.export_json(table.id)

    dump = tmp_path / "companion.dump"
    backup = subprocess.run(
        [str(DEPLOY / "backup.sh"), ledger_postgres_url, str(dump)],
        capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    assert backup.returncode == 0, backup.stderr
    assert backup.stdout.strip() == str(dump) and dump.stat().st_size > 0
    restore = subprocess.run(
        [str(DEPLOY / "restore.sh"), str(dump), empty_database],
        capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    assert restore.returncode == 0, restore.stderr
    tables = restore.stdout.strip()
    assert tables.endswith(" entries restored") and " tables, " in tables

    with Ledger.open(empty_database) as restored:
        assert restored.export_json(table.id) == before
        restored.record(table.id, DrawRecord())  # the restored database takes writes
        assert restored.standings(table.id)["hands"] == 2


def test_restore_refuses_to_half_restore(empty_database: str, tmp_path: Path) -> None:
    if shutil.which("pg_restore") is None:
        pytest.skip("pg_restore is not installed")
    broken = tmp_path / "broken.dump"
    broken.write_bytes(b"not a dump")
    result = subprocess.run(
        [str(DEPLOY / "restore.sh"), str(broken), empty_database],
        capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    assert result.returncode != 0 and "pg_restore" in result.stderr

"""Alembic environment for the ledger: always run in code (`companion.ledger.db.migrate`), on a
connection it is handed, inside that connection's transaction."""

from __future__ import annotations

from alembic import context
from sqlalchemy import text
from sqlalchemy.engine import Connection

from companion.ledger.models import VERSION_TABLE, Base

# Any fixed number: concurrent upgrades of one PostgreSQL database take turns on this lock.
MIGRATION_LOCK = 7_301_446_211


def run_migrations(connection: Connection) -> None:
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
        version_table=VERSION_TABLE,
    )
    with context.begin_transaction():
        context.run_migrations()


connection = context.config.attributes.get("connection")
if not isinstance(connection, Connection):
    raise RuntimeError(
        "the ledger migrations run from companion.ledger.db.migrate, which passes a connection"
    )
run_migrations(connection)

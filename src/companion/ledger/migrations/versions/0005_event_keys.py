"""An organiser's action's idempotency key (and its request's fingerprint), as a table's write
has: a phone that sends a penalty, a withdrawal or a late entry again records it once.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-09
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

KEY_INDEX = "ix_event_audit_idempotency_key"


def upgrade() -> None:
    # Columns added in place and a unique index, not a batch: on SQLite a batch copies the
    # table, and the copy would lose the record's CHECK constraints (SQLite does not report
    # them back).
    op.add_column("event_audit", sa.Column("idempotency_key", sa.String(200), nullable=True))
    op.add_column("event_audit", sa.Column("fingerprint", sa.String(64), nullable=True))
    op.create_index(KEY_INDEX, "event_audit", ["event_id", "idempotency_key"], unique=True)


def downgrade() -> None:
    # DROP COLUMN in place (SQLite 3.35 and later), as 0003's downgrade.
    op.drop_index(KEY_INDEX, table_name="event_audit")
    op.drop_column("event_audit", "fingerprint")
    op.drop_column("event_audit", "idempotency_key")

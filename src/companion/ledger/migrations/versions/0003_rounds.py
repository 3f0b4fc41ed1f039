"""A table's length in full rounds (East round through North round), besides in hands.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("ledger_tables") as table:
        table.add_column(sa.Column("planned_rounds", sa.Integer(), nullable=True))


def downgrade() -> None:
    # ALTER TABLE ... DROP COLUMN (SQLite 3.35 and later), not a batch: SQLite's batch copies
    # the table and drops the old one, and dropping ledger_tables deletes every player and
    # event through their ON DELETE CASCADE.
    op.drop_column("ledger_tables", "planned_rounds")

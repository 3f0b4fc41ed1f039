"""A table's name, and room for `by` up to the 200 characters a correction may carry.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("ledger_tables") as table:
        table.add_column(sa.Column("name", sa.String(60), nullable=True))
    with op.batch_alter_table("ledger_events") as events:
        events.alter_column(
            "by_name", existing_type=sa.String(64), type_=sa.String(200), existing_nullable=False
        )


def downgrade() -> None:
    with op.batch_alter_table("ledger_events") as events:
        events.alter_column(
            "by_name", existing_type=sa.String(200), type_=sa.String(64), existing_nullable=False
        )
    # Not a batch, which on SQLite would copy ledger_tables and drop the old one, deleting every
    # player and event through their ON DELETE CASCADE (see 0003).
    op.drop_column("ledger_tables", "name")

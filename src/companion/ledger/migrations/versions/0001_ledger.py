"""The ledger: tables, players and the append-only events.

Revision ID: 0001
Revises:
Create Date: 2026-08-31
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "ledger_tables",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("profile", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("planned_hands", sa.Integer(), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger_tables")),
    )
    op.create_table(
        "ledger_players",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.CheckConstraint("seat >= 0 AND seat < 4", name=op.f("ck_ledger_players_seat")),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["ledger_tables.id"],
            name=op.f("fk_ledger_players_table_id_ledger_tables"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("table_id", "seat", name=op.f("pk_ledger_players")),
        sa.UniqueConstraint("table_id", "name", name=op.f("uq_ledger_players_table_id_name")),
    )
    op.create_table(
        "ledger_events",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("target_seq", sa.Integer(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("by_name", sa.String(64), nullable=False),
        sa.Column("idempotency_key", sa.String(200), nullable=True),
        sa.Column("fingerprint", sa.String(64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "kind IN ('win', 'draw', 'payout', 'void', 'amend')", name=op.f("ck_ledger_events_kind")
        ),
        sa.CheckConstraint("seq >= 1", name=op.f("ck_ledger_events_seq")),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["ledger_tables.id"],
            name=op.f("fk_ledger_events_table_id_ledger_tables"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger_events")),
        sa.UniqueConstraint("table_id", "seq", name=op.f("uq_ledger_events_table_id_seq")),
        sa.UniqueConstraint(
            "table_id", "idempotency_key", name=op.f("uq_ledger_events_table_id_idempotency_key")
        ),
    )
    op.create_index(op.f("ix_ledger_events_table_id"), "ledger_events", ["table_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_ledger_events_table_id"), table_name="ledger_events")
    op.drop_table("ledger_events")
    op.drop_table("ledger_players")
    op.drop_table("ledger_tables")

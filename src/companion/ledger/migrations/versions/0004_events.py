"""Events: several tables over several rounds (the event, its players, its seated rounds and
tables, round timers, and the organiser's append-only record).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _event_key(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["event_id"],
        ["event_records.id"],
        name=op.f(f"fk_{table}_event_id_event_records"),
        ondelete="CASCADE",
    )


def upgrade() -> None:
    op.create_table(
        "event_records",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("profile", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("table_hands", sa.Integer(), nullable=True),
        sa.Column("table_rounds", sa.Integer(), nullable=True),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("first_round", sa.String(16), nullable=False),
        sa.Column("later_rounds", sa.String(16), nullable=False),
        sa.Column("leftover", sa.String(16), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_event_records")),
    )
    op.create_table(
        "event_entries",
        sa.Column("event_id", sa.String(32), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("joins", sa.Integer(), nullable=False),
        sa.Column("withdraws_after", sa.Integer(), nullable=True),
        _event_key("event_entries"),
        sa.PrimaryKeyConstraint("event_id", "position", name=op.f("pk_event_entries")),
        sa.UniqueConstraint("event_id", "name", name=op.f("uq_event_entries_event_id_name")),
    )
    op.create_table(
        "event_rounds",
        sa.Column("event_id", sa.String(32), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("byes", sa.JSON(), nullable=False),
        sa.Column("substitutes", sa.JSON(), nullable=False),
        sa.Column("repeats", sa.Integer(), nullable=False),
        sa.Column("seat_repeats", sa.Integer(), nullable=False),
        sa.Column("seated_at", sa.DateTime(timezone=True), nullable=False),
        _event_key("event_rounds"),
        sa.PrimaryKeyConstraint("event_id", "round", name=op.f("pk_event_rounds")),
    )
    op.create_table(
        "event_tables",
        sa.Column("event_id", sa.String(32), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("write_token", sa.String(64), nullable=False),
        _event_key("event_tables"),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["ledger_tables.id"],
            name=op.f("fk_event_tables_table_id_ledger_tables"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("event_id", "round", "number", name=op.f("pk_event_tables")),
        sa.UniqueConstraint("table_id", name=op.f("uq_event_tables_table_id")),
    )
    op.create_table(
        "event_timers",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("event_id", sa.String(32), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("minutes", sa.Integer(), nullable=False),
        _event_key("event_timers"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_event_timers")),
    )
    op.create_index(op.f("ix_event_timers_event_id"), "event_timers", ["event_id"], unique=False)
    op.create_table(
        "event_audit",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("event_id", sa.String(32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("player", sa.String(64), nullable=True),
        sa.Column("round", sa.Integer(), nullable=True),
        sa.Column("amount", sa.String(64), nullable=True),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("by_name", sa.String(200), nullable=False),
        sa.Column("details", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "kind IN ('create', 'join', 'withdraw', 'adjust', 'seat', 'timer')",
            name=op.f("ck_event_audit_kind"),
        ),
        sa.CheckConstraint("seq >= 1", name=op.f("ck_event_audit_seq")),
        _event_key("event_audit"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_event_audit")),
        sa.UniqueConstraint("event_id", "seq", name=op.f("uq_event_audit_event_id_seq")),
    )
    op.create_index(op.f("ix_event_audit_event_id"), "event_audit", ["event_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_event_audit_event_id"), table_name="event_audit")
    op.drop_table("event_audit")
    op.drop_index(op.f("ix_event_timers_event_id"), table_name="event_timers")
    op.drop_table("event_timers")
    op.drop_table("event_tables")
    op.drop_table("event_rounds")
    op.drop_table("event_entries")
    op.drop_table("event_records")

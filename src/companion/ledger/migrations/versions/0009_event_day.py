"""A tournament's day (issue 39): a round's timer paused (`event_timers.paused_at`), the event's
rules for time-up and void tables (`event_records.time_up_hands`, `.void_score`), each entrant's
EMA id and country (`event_entries.ema_id`, `.country`), the tables the organiser ended early
(`event_endings`), and the organiser's record holding seat fixes (`swap`), tables ended and
reopened (`end`, `reopen`) and the day's rules (`rules`).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BEFORE = ("create", "join", "withdraw", "adjust", "seat", "timer", "unseat")
AFTER = (*BEFORE, "swap", "end", "reopen", "rules", "entrant")


def _kinds(kinds: Sequence[str]) -> str:
    return "kind IN (" + ", ".join(f"'{kind}'" for kind in kinds) + ")"


def _replace_check(kinds: Sequence[str]) -> None:
    # As 0006: a CHECK constraint is replaced whole (on SQLite by the batch's copy).
    with op.batch_alter_table("event_audit") as table:
        table.drop_constraint(op.f("ck_event_audit_kind"), type_="check")
        table.create_check_constraint(op.f("ck_event_audit_kind"), _kinds(kinds))


def upgrade() -> None:
    # Columns added one by one (`add_column`): no batch copy of a table others refer to.
    op.add_column(
        "event_records",
        sa.Column("time_up_hands", sa.Integer(), nullable=False, server_default="0"),
    )
    op.add_column(
        "event_records",
        sa.Column("void_score", sa.String(64), nullable=False, server_default="0"),
    )
    op.add_column("event_entries", sa.Column("ema_id", sa.String(8), nullable=True))
    op.add_column("event_entries", sa.Column("country", sa.String(3), nullable=True))
    op.add_column("event_timers", sa.Column("paused_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "event_endings",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("event_id", sa.String(32), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("last_seq", sa.Integer(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id"],
            ["event_records.id"],
            name=op.f("fk_event_endings_event_id_event_records"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["ledger_tables.id"],
            name=op.f("fk_event_endings_table_id_ledger_tables"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("table_id", name=op.f("pk_event_endings")),
    )
    op.create_index(op.f("ix_event_endings_event_id"), "event_endings", ["event_id"])
    _replace_check(AFTER)


def downgrade() -> None:
    op.execute(
        "DELETE FROM event_audit WHERE kind IN ("
        + ", ".join(f"'{kind}'" for kind in AFTER if kind not in BEFORE)
        + ")"
    )
    _replace_check(BEFORE)
    op.drop_index(op.f("ix_event_endings_event_id"), table_name="event_endings")
    op.drop_table("event_endings")
    for table, column in (
        ("event_timers", "paused_at"),
        ("event_entries", "country"),
        ("event_entries", "ema_id"),
        ("event_records", "void_score"),
        ("event_records", "time_up_hands"),
    ):
        # Not a batch: on SQLite its copy of event_records would cascade to every event's rows.
        op.drop_column(table, column)

"""Clubs: a club, its roster and the names that mean each player, the tables and events that
belong to it, and the organiser's record of the roster (issue 38, docs/clubs.md).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

KINDS = ("create", "add", "rename", "merge", "unmerge", "attach")


def _club_key(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["club_id"],
        ["club_records.id"],
        name=op.f(f"fk_{table}_club_id_club_records"),
        ondelete="CASCADE",
    )


def upgrade() -> None:
    op.create_table(
        "club_records",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("rating", sa.String(16), nullable=False),
        sa.Column("family", sa.String(32), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_club_records")),
    )
    op.create_table(
        "club_players",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("club_id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("nickname", sa.String(64), nullable=True),
        sa.Column("ema_id", sa.String(32), nullable=True),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("merged_into", sa.Integer(), nullable=True),
        _club_key("club_players"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_club_players")),
    )
    op.create_index(op.f("ix_club_players_club_id"), "club_players", ["club_id"])
    op.create_table(
        "club_aliases",
        sa.Column("club_id", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(200), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        _club_key("club_aliases"),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["club_players.id"],
            name=op.f("fk_club_aliases_player_id_club_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("club_id", "name_key", name=op.f("pk_club_aliases")),
    )
    op.create_table(
        "club_tables",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("club_id", sa.String(32), nullable=False),
        _club_key("club_tables"),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["ledger_tables.id"],
            name=op.f("fk_club_tables_table_id_ledger_tables"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("table_id", name=op.f("pk_club_tables")),
    )
    op.create_index(op.f("ix_club_tables_club_id"), "club_tables", ["club_id"])
    op.create_table(
        "club_events",
        sa.Column("event_id", sa.String(32), nullable=False),
        sa.Column("club_id", sa.String(32), nullable=False),
        _club_key("club_events"),
        sa.ForeignKeyConstraint(
            ["event_id"],
            ["event_records.id"],
            name=op.f("fk_club_events_event_id_event_records"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("event_id", name=op.f("pk_club_events")),
    )
    op.create_index(op.f("ix_club_events_club_id"), "club_events", ["club_id"])
    op.create_table(
        "club_audit",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("club_id", sa.String(32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("by_name", sa.String(200), nullable=False),
        sa.Column("details", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "kind IN (" + ", ".join(f"'{kind}'" for kind in KINDS) + ")",
            name=op.f("ck_club_audit_kind"),
        ),
        _club_key("club_audit"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_club_audit")),
        sa.UniqueConstraint("club_id", "seq", name=op.f("uq_club_audit_club_id_seq")),
    )
    op.create_index(op.f("ix_club_audit_club_id"), "club_audit", ["club_id"])


def downgrade() -> None:
    for table in (
        "club_audit",
        "club_events",
        "club_tables",
        "club_aliases",
        "club_players",
        "club_records",
    ):
        op.drop_table(table)

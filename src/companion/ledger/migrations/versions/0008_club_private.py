"""A club may keep its leaderboard, players' pages and exports to its organiser (`private`), and
its record holds that choice (`privacy`) (issue 38).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BEFORE = ("create", "add", "rename", "merge", "unmerge", "attach")
AFTER = (*BEFORE, "privacy")


def _kinds(kinds: Sequence[str]) -> str:
    return "kind IN (" + ", ".join(f"'{kind}'" for kind in kinds) + ")"


def _replace_check(kinds: Sequence[str]) -> None:
    # Replaced whole, as 0006 replaces event_audit's: on SQLite by the batch's copy of the table
    # (nothing refers to club_audit, so no ON DELETE CASCADE fires when the old one goes).
    with op.batch_alter_table("club_audit") as table:
        table.drop_constraint(op.f("ck_club_audit_kind"), type_="check")
        table.create_check_constraint(op.f("ck_club_audit_kind"), _kinds(kinds))


def upgrade() -> None:
    # Every club made before was public: the default says so for the rows already there.
    op.add_column(
        "club_records",
        sa.Column("private", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    _replace_check(AFTER)


def downgrade() -> None:
    op.execute("DELETE FROM club_audit WHERE kind = 'privacy'")
    _replace_check(BEFORE)
    with op.batch_alter_table("club_records") as table:
        table.drop_column("private")

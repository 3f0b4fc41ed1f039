"""The organiser's record holds a seating taken back (`unseat`, issue 37).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BEFORE = ("create", "join", "withdraw", "adjust", "seat", "timer")
AFTER = (*BEFORE, "unseat")


def _kinds(kinds: Sequence[str]) -> str:
    return "kind IN (" + ", ".join(f"'{kind}'" for kind in kinds) + ")"


def _replace_check(kinds: Sequence[str]) -> None:
    # A CHECK constraint is replaced whole: on PostgreSQL in place, on SQLite by the batch's copy
    # of the table, which keeps its columns, keys and indexes as reflected (nothing refers to
    # event_audit, so no ON DELETE CASCADE fires when the old table goes).
    with op.batch_alter_table("event_audit") as table:
        table.drop_constraint(op.f("ck_event_audit_kind"), type_="check")
        table.create_check_constraint(op.f("ck_event_audit_kind"), _kinds(kinds))


def upgrade() -> None:
    _replace_check(AFTER)


def downgrade() -> None:
    op.execute("DELETE FROM event_audit WHERE kind = 'unseat'")
    _replace_check(BEFORE)

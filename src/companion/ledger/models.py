"""The ledger's tables (SQLAlchemy 2, typed). The schema is created and changed only by the
Alembic migrations in `companion/ledger/migrations`; these models must match them.

Only what cannot be derived is stored: the table's setup, its players, and the append-only
entries (each with what the engine returned). Dealer, seat winds, round, streak, totals and
hands played are replayed from the entries (`companion.ledger.replay.replay`). The tables and
columns keep the names the migrations gave them (`ledger_events`), which other programs read.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s_%(column_1_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

ENTRY_KINDS = ("win", "draw", "payout", "void", "amend")
VERSION_TABLE = "companion_ledger_version"
"""Alembic's record of the applied migration (named so a shared database has no clash)."""


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class TableRow(Base):
    __tablename__ = "ledger_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    profile: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    planned_hands: Mapped[int | None] = mapped_column(Integer)
    planned_rounds: Mapped[int | None] = mapped_column(Integer)
    """Full rounds to play (migration 0003): each is the deal passing round all four seats."""
    name: Mapped[str | None] = mapped_column(String(60))
    """What the players call the table (migration 0002); None when unnamed."""
    token_hash: Mapped[str] = mapped_column(String(64))
    """SHA-256 (hex) of the write token; the token itself is shown once and never stored."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    players: Mapped[list[PlayerRow]] = relationship(
        order_by="PlayerRow.seat", cascade="all, delete-orphan", lazy="selectin"
    )


class PlayerRow(Base):
    __tablename__ = "ledger_players"
    __table_args__ = (
        UniqueConstraint("table_id", "name"),
        CheckConstraint("seat >= 0 AND seat < 4", name="seat"),
    )

    table_id: Mapped[str] = mapped_column(
        ForeignKey("ledger_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    """0 is the first East (and first dealer), then South, West, North at the start."""
    name: Mapped[str] = mapped_column(String(64))


class EntryRow(Base):
    """One entry of a table's ledger (`ledger.entries.Entry`)."""

    __tablename__ = "ledger_events"  # the table's name from migration 0001 stays
    __table_args__ = (
        UniqueConstraint("table_id", "seq"),
        UniqueConstraint("table_id", "idempotency_key"),
        CheckConstraint(
            "kind IN (" + ", ".join(f"'{kind}'" for kind in ENTRY_KINDS) + ")", name="kind"
        ),
        CheckConstraint("seq >= 1", name="seq"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(
        ForeignKey("ledger_tables.id", ondelete="CASCADE"), index=True
    )
    seq: Mapped[int] = mapped_column(Integer)
    """The entry's number on its table: 1, 2, 3, ... with no gaps."""
    kind: Mapped[str] = mapped_column(String(16))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The outcome as recorded (amounts as exact strings), or an amendment's replacement."""
    target_seq: Mapped[int | None] = mapped_column(Integer)
    """For a void or amendment: the entry it corrects."""
    reason: Mapped[str | None] = mapped_column(Text)
    by_name: Mapped[str] = mapped_column(String(200), default="")
    idempotency_key: Mapped[str | None] = mapped_column(String(200))
    fingerprint: Mapped[str | None] = mapped_column(String(64))
    """SHA-256 of what the write asked for, to refuse a key reused for something else."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


# ---------------------------------------------------------------------------------------------
# Events (migration 0004): several tables over several rounds, one leaderboard (docs/events.md)

AUDIT_KINDS = (
    "create",
    "join",
    "withdraw",
    "adjust",
    "seat",
    "timer",
    "unseat",
    "swap",
    "end",
    "reopen",
    "rules",
    "entrant",
)
"""What the organiser's record of an event holds, one row per action."""


class EventRecordRow(Base):
    """An event: what its seating and its tables follow. Only its token's hash is kept."""

    __tablename__ = "event_records"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    profile: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    table_hands: Mapped[int | None] = mapped_column(Integer)
    """Each table's planned hands (money profiles), or None."""
    table_rounds: Mapped[int | None] = mapped_column(Integer)
    """Each table's planned rounds of the deal, or None."""
    rounds: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    first_round: Mapped[str] = mapped_column(String(16))
    later_rounds: Mapped[str] = mapped_column(String(16))
    leftover: Mapped[str | None] = mapped_column(String(16))
    token_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    time_up_hands: Mapped[int] = mapped_column(Integer, server_default="0")
    """When a round's time is up: the hands played after the one in play (0: finish it and
    stop; 1: "+1 hand"). Migration 0009."""
    void_score: Mapped[str] = mapped_column(String(64), server_default="0")
    """What each player of a voided table scores: an exact amount, or "average" (their average
    of their other tables). Migration 0009."""


class EventEntryRow(Base):
    """A player of an event, in the order entered; late entries come after the first field."""

    __tablename__ = "event_entries"
    __table_args__ = (UniqueConstraint("event_id", "name"),)

    event_id: Mapped[str] = mapped_column(
        ForeignKey("event_records.id", ondelete="CASCADE"), primary_key=True
    )
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    joins: Mapped[int] = mapped_column(Integer)
    withdraws_after: Mapped[int | None] = mapped_column(Integer)
    ema_id: Mapped[str | None] = mapped_column(String(8))
    """The player's EMA number (eight digits) for the results file, when known (0009)."""
    country: Mapped[str | None] = mapped_column(String(3))
    """The player's country as the EMA's results file gives it (three letters), when known."""


class EventRoundRow(Base):
    """A seated round: who sat out, the substitutes it needed, and its figures."""

    __tablename__ = "event_rounds"

    event_id: Mapped[str] = mapped_column(
        ForeignKey("event_records.id", ondelete="CASCADE"), primary_key=True
    )
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    byes: Mapped[list[str]] = mapped_column(JSON)
    substitutes: Mapped[list[str]] = mapped_column(JSON)
    repeats: Mapped[int] = mapped_column(Integer)
    seat_repeats: Mapped[int] = mapped_column(Integer)
    seated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class EventTableRow(Base):
    """A table of a seated round: the ledger table it plays at, its players East first."""

    __tablename__ = "event_tables"
    __table_args__ = (UniqueConstraint("table_id", name="uq_event_tables_table_id"),)

    event_id: Mapped[str] = mapped_column(
        ForeignKey("event_records.id", ondelete="CASCADE"), primary_key=True
    )
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("ledger_tables.id", ondelete="CASCADE"))
    players: Mapped[list[str]] = mapped_column(JSON)
    write_token: Mapped[str] = mapped_column(String(64))
    """The table's write token, for the organiser's write links: given out only with the
    event's token (the event's own token is kept only as a hash)."""


class EventTimerRow(Base):
    """A round's timer as started; a later start of the same round replaces it."""

    __tablename__ = "event_timers"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    event_id: Mapped[str] = mapped_column(
        ForeignKey("event_records.id", ondelete="CASCADE"), index=True
    )
    round: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    minutes: Mapped[int] = mapped_column(Integer)
    paused_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """When the timer was paused (it stands still from then), or None while it runs. A pause,
    a resume and an extension each add a row; the latest of a round is its timer (0009)."""


class EventEndingRow(Base):
    """A table the organiser ended before its game was over (migration 0009): counted "as it
    stands" after its entries up to `last_seq`, or void. Reopening it removes the row."""

    __tablename__ = "event_endings"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("ledger_tables.id", ondelete="CASCADE"), primary_key=True
    )
    event_id: Mapped[str] = mapped_column(
        ForeignKey("event_records.id", ondelete="CASCADE"), index=True
    )
    round: Mapped[int] = mapped_column(Integer)
    number: Mapped[int] = mapped_column(Integer)
    mode: Mapped[str] = mapped_column(String(16))
    """`as-it-stands` or `void`."""
    last_seq: Mapped[int] = mapped_column(Integer)
    """The table's last entry when it was ended: later entries do not count."""
    reason: Mapped[str] = mapped_column(Text)
    ended_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class EventAuditRow(Base):
    """The organiser's record of an event, append-only: every action with who and when. The
    adjustments to the standings are replayed from it."""

    __tablename__ = "event_audit"
    __table_args__ = (
        UniqueConstraint("event_id", "seq"),
        CheckConstraint(
            "kind IN (" + ", ".join(f"'{kind}'" for kind in AUDIT_KINDS) + ")", name="kind"
        ),
        CheckConstraint("seq >= 1", name="seq"),
        # A unique index, not a constraint: migration 0005 adds it without copying the table.
        Index("ix_event_audit_idempotency_key", "event_id", "idempotency_key", unique=True),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    event_id: Mapped[str] = mapped_column(
        ForeignKey("event_records.id", ondelete="CASCADE"), index=True
    )
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    player: Mapped[str | None] = mapped_column(String(64))
    round: Mapped[int | None] = mapped_column(Integer)
    amount: Mapped[str | None] = mapped_column(String(64))
    """An adjustment's amount as an exact fraction ("-10", "5/2")."""
    reason: Mapped[str | None] = mapped_column(Text)
    by_name: Mapped[str] = mapped_column(String(200), default="")
    details: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    idempotency_key: Mapped[str | None] = mapped_column(String(200))
    """The key the organiser's device sent with the action, if any: the same key again records
    nothing new (`EventStore._write`)."""
    fingerprint: Mapped[str | None] = mapped_column(String(64))
    """A digest of what the keyed action asked for, to tell a key reused for another action."""


# ---------------------------------------------------------------------------------------------
# Clubs (migration 0007): the people behind the tables' names, across tables and events
# (docs/clubs.md)

CLUB_AUDIT_KINDS = ("create", "add", "rename", "merge", "unmerge", "attach", "privacy")
"""What a club's record of its roster holds, one row per action."""


class ClubRow(Base):
    """A club: its name, the rating that orders its leaderboard, the profile family its games
    are rated in (set by its first table or event), and its organiser's token's hash."""

    __tablename__ = "club_records"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    rating: Mapped[str] = mapped_column(String(16))
    family: Mapped[str | None] = mapped_column(String(32))
    token_hash: Mapped[str] = mapped_column(String(64))
    private: Mapped[bool] = mapped_column(Boolean, server_default=false(), default=False)
    """Whether its leaderboard, players' pages and exports need the organiser's token."""
    version: Mapped[int] = mapped_column(Integer)
    """One more at every change of the roster or of the tables it holds: what its ratings are
    cached by, with each table's last entry."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


def _club_key() -> Any:
    return ForeignKey("club_records.id", ondelete="CASCADE")


class ClubPlayerRow(Base):
    """A person on a club's roster. A player merged into another keeps the row (and the names
    that point to it), with `merged_into` naming the one who counts."""

    __tablename__ = "club_players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    club_id: Mapped[str] = mapped_column(_club_key(), index=True)
    name: Mapped[str] = mapped_column(String(64))
    nickname: Mapped[str | None] = mapped_column(String(64))
    ema_id: Mapped[str | None] = mapped_column(String(32))
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    merged_into: Mapped[int | None] = mapped_column(Integer)


class ClubAliasRow(Base):
    """A name (by `name_key`) that means a player of the club: every name the player has had,
    so that the tables' names written before a rename still find them."""

    __tablename__ = "club_aliases"

    club_id: Mapped[str] = mapped_column(_club_key(), primary_key=True)
    name_key: Mapped[str] = mapped_column(String(200), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("club_players.id", ondelete="CASCADE"))


class ClubTableRow(Base):
    """A ledger table that belongs to a club (a table of none has no row)."""

    __tablename__ = "club_tables"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("ledger_tables.id", ondelete="CASCADE"), primary_key=True
    )
    club_id: Mapped[str] = mapped_column(_club_key(), index=True)


class ClubEventRow(Base):
    """An event that belongs to a club: every table it seats is the club's."""

    __tablename__ = "club_events"

    event_id: Mapped[str] = mapped_column(
        ForeignKey("event_records.id", ondelete="CASCADE"), primary_key=True
    )
    club_id: Mapped[str] = mapped_column(_club_key(), index=True)


class ClubAuditRow(Base):
    """The club's record of its roster, append-only: who was added, renamed, merged and
    unmerged, which tables and events were attached, with who and when."""

    __tablename__ = "club_audit"
    __table_args__ = (
        UniqueConstraint("club_id", "seq"),
        CheckConstraint(
            "kind IN (" + ", ".join(f"'{kind}'" for kind in CLUB_AUDIT_KINDS) + ")", name="kind"
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    club_id: Mapped[str] = mapped_column(_club_key(), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    by_name: Mapped[str] = mapped_column(String(200), default="")
    details: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

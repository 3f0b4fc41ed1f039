"""The stored rows as the ledger's values and back: a table's row as its setup, an entry's row
as the entry, an entry as the row that stores it, and the moments they were stored at."""

from __future__ import annotations

from datetime import UTC, datetime

from companion.ledger.entries import Correction, Entry, Outcome, outcome_from_json
from companion.ledger.models import EntryRow, TableRow
from companion.ledger.state import TableSetup


def now() -> datetime:
    return datetime.now(UTC)


def aware(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; every stored one is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def setup_of(row: TableRow, players: tuple[str, ...] | None = None) -> TableSetup:
    """The table's setup; `players` (seat order) when read beside the row rather than loaded
    with it (an event's tables read together, `event_book.tables`)."""
    return TableSetup(
        row.profile,
        tuple(player.name for player in row.players) if players is None else players,
        dict(row.options),
        row.planned_hands,
        row.name or "",
        row.planned_rounds,
    )


def entry_of(row: EntryRow) -> Entry:
    body: Outcome | Correction
    if row.kind in ("void", "amend"):
        assert row.target_seq is not None
        replacement = outcome_from_json(row.payload) if row.kind == "amend" else None
        body = Correction(row.target_seq, replacement, row.reason or "", row.by_name)
    else:
        body = outcome_from_json(row.payload)
    return Entry(row.seq, aware(row.created_at), body, row.idempotency_key)


ROW_KINDS = {"stop": "draw"}
"""An entry's kind as its row stores it, where the two differ: the column's kinds (`models.
ENTRY_KINDS`, checked by the database since migration 0001) predate a money table's stop, which
is stored as a riichi stop is, under `draw`; its payload's own `kind` says what it is."""


def entry_row(table_id: str, entry: Entry, digest: str) -> EntryRow:
    """The row that stores `entry`; `digest` is its request's fingerprint, kept with its key."""
    body = entry.body
    if isinstance(body, Correction):
        payload = {} if body.replacement is None else body.replacement.to_json()
        target, reason, by = body.target, body.reason, body.by
    else:
        payload = body.to_json()
        target, reason, by = None, None, ""
    return EntryRow(
        table_id=table_id,
        seq=entry.seq,
        kind=ROW_KINDS.get(body.kind, body.kind),
        payload=payload,
        target_seq=target,
        reason=reason,
        by_name=by,
        idempotency_key=entry.key,
        fingerprint=digest if entry.key is not None else None,
        created_at=entry.at,
    )

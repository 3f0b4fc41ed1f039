"""The ledger's service API: what the command line and the web app call.

`Ledger` creates tables, reads them (setup, replay, standings, history, settle-up, export) and
records wins, drawn hands, instant payouts and corrections. It checks what a client sent, then
reads or writes through `TableStore` (`ledger/store.py`: the database, the cached replays and
the one write transaction).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import IntegrityError

from companion.ledger import db
from companion.ledger.checks import (
    check_storable,
    check_totals,
    corrected_by,
    correction_reason,
)
from companion.ledger.entries import Correction, Outcome
from companion.ledger.errors import LedgerError, LimitError, UnknownEntryError
from companion.ledger.export import export_csv, export_json
from companion.ledger.models import PlayerRow, TableRow
from companion.ledger.records import Record
from companion.ledger.replay import (
    HistoryEntry,
    Replay,
    amended_outcome,
    correction_target,
    next_outcome,
)
from companion.ledger.rows import aware, now, setup_of
from companion.ledger.settle import Transfer, settle_up
from companion.ledger.state import MAX_ENTRIES, TableSetup, add, new_setup, table_key
from companion.ledger.store import WRITE_ATTEMPTS, EntryMaker, Recorded, TableStore

_ID_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
_ID_LENGTH = 8


@dataclass(frozen=True)
class NewTable:
    id: str
    token: str
    """The write token, shown once: only its SHA-256 is stored."""
    setup: TableSetup


def new_id() -> str:
    """A fresh random id in the tables' style (8 letters and digits, none easily confused)."""
    return "".join(secrets.choice(_ID_ALPHABET) for _ in range(_ID_LENGTH))


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Ledger(TableStore):
    """The table ledger on one database. Thread-safe: each call uses its own session."""

    @classmethod
    def open(cls, url: str | None = None) -> Ledger:
        """Open (and migrate) the database at `url`, `COMPANION_DATABASE_URL` or the default."""
        return cls(db.create_ledger_engine(db.resolve_url(url)))

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # -- tables ------------------------------------------------------------------------------

    def create_table(
        self,
        profile: str,
        players: Sequence[str],
        *,
        options: Mapping[str, Any] | None = None,
        hands: int | None = None,
        name: str = "",
        rounds: int | None = None,
    ) -> NewTable:
        """A new table; players in seat order, the first is East and deals first."""
        for _ in range(WRITE_ATTEMPTS):
            row, new = self.table_row(
                profile, players, options=options, hands=hands, name=name, rounds=rounds
            )
            try:
                with self._guard(), self._session() as session, session.begin():
                    session.add(row)
                return new
            except IntegrityError:
                continue  # the id was taken meanwhile: another one
        raise LedgerError("could not find a free table id; try again")

    def table_row(
        self,
        profile: str,
        players: Sequence[str],
        *,
        options: Mapping[str, Any] | None = None,
        hands: int | None = None,
        name: str = "",
        rounds: int | None = None,
    ) -> tuple[TableRow, NewTable]:
        """A new table's row, checked, with a fresh id and token, for a caller to add in a
        transaction of its own: an event's round adds its tables with the round in one, so
        that a round refused (seated meanwhile) leaves no table behind. A taken id is an
        `IntegrityError` at the commit; the caller tries again with new rows."""
        check_storable(list(players), "a player's name")
        if isinstance(options, Mapping):
            # Each by its name, so that the refusal says which option it is.
            for option, value in options.items():
                check_storable(option, "an option's name")
                check_storable(value, f"option {option}")
        else:
            check_storable(options, "an option")
        check_storable(name, "the table's name")
        setup = new_setup(profile, players, options, hands, name, rounds)
        token = secrets.token_urlsafe(24)
        table_id = new_id()
        row = TableRow(
            id=table_id,
            profile=setup.profile,
            options=dict(setup.options),
            planned_hands=setup.planned_hands,
            planned_rounds=setup.planned_rounds,
            name=setup.name or None,
            token_hash=hash_token(token),
            created_at=now(),
            players=[PlayerRow(seat=seat, name=name) for seat, name in enumerate(setup.players)],
        )
        return row, NewTable(table_id, token, setup)

    def verify_token(self, table_id: str, token: str) -> bool:
        """Whether `token` is the table's write token (constant-time comparison)."""
        with self._guard(), self._session() as session, session.begin():
            row = self._table(session, table_id)
            return hmac.compare_digest(row.token_hash, hash_token(token))

    def setup(self, table_id: str) -> TableSetup:
        with self._guard(), self._session() as session, session.begin():
            return setup_of(self._table(session, table_id))

    def replay(self, table_id: str) -> Replay:
        """The record replayed: setup, current state, and every entry as corrected."""
        with self._guard(), self._session() as session, session.begin():
            table = self._table(session, table_id)
            return self._replayed(session, table.id, setup_of(table))

    def standings(self, table_id: str) -> dict[str, Any]:
        return standings_json(table_id, self.replay(table_id))

    def history(self, table_id: str) -> tuple[HistoryEntry, ...]:
        return self.replay(table_id).entries

    # -- writes ------------------------------------------------------------------------------

    def record(
        self,
        table_id: str,
        record: Record,
        *,
        key: str | None = None,
        expect_hand: int | None = None,
    ) -> Recorded:
        """Record a win, a drawn hand or an instant payout as the next entry.

        `expect_hand`: the hand number the writer believes it is recording (an instant payout:
        the hand it happened in). When another writer has recorded that hand meanwhile, the
        write is refused (`StaleWriteError`) instead of recording the hand twice."""

        def make(replayed: Replay) -> Outcome:
            return next_outcome(replayed, record, expect_hand)

        return self._append(table_id, _record_operation(record), key, _within_limit(make))

    def preview(
        self,
        table_id: str,
        record: Record,
        *,
        key: str | None = None,
        expect_hand: int | None = None,
    ) -> tuple[Outcome, Replay]:
        """What `record` would record now, without recording it: the outcome, scored and
        settled exactly as a write would be, and the record it would follow. A `key` already
        used for another entry is refused first, as the write refuses it."""
        self._check_key(table_id, _record_operation(record), key)
        replayed = self.replay(table_id)
        outcome = next_outcome(replayed, record, expect_hand)
        check_totals(replayed.setup.players, add(replayed.state.totals, outcome.payments))
        return outcome, replayed

    def preview_amend(
        self, table_id: str, seq: int, record: Record, *, expect: int | None = None
    ) -> tuple[Outcome, Replay]:
        """What amending entry `seq` to `record` would record, without recording it: the
        outcome scored against the state at that place in the record, as `amend` scores it,
        and the record replayed to just before it."""
        replayed = self.replay(table_id)
        target = correction_target(replayed, seq, expect)
        outcome = amended_outcome(replayed, target, record)
        index = next(i for i, entry in enumerate(replayed.entries) if entry is target)
        return outcome, Replay(replayed.setup, target.before, replayed.entries[:index])

    def void(
        self,
        table_id: str,
        seq: int,
        *,
        reason: str,
        by: str = "",
        key: str | None = None,
        expect: int | None = None,
    ) -> Recorded:
        """Void the outcome recorded as entry `seq`: it stays in the history and counts for
        nothing; rotation and totals follow the record without it. `expect`: the entry's version
        the writer saw (refused when it was corrected since)."""
        reason, by = correction_reason(reason), corrected_by(by)

        def make(replayed: Replay) -> Correction:
            target = correction_target(replayed, seq, expect)
            if target.status == "voided":
                raise UnknownEntryError(
                    f"entry {seq} is already void (entry {target.corrected_by})"
                )
            return Correction(seq, None, reason, by)

        operation = {"op": "void", "target": seq, "reason": reason, "by": by}
        return self._append(table_id, operation, key, _within_limit(make))

    def amend(
        self,
        table_id: str,
        seq: int,
        record: Record,
        *,
        reason: str,
        by: str = "",
        key: str | None = None,
        expect: int | None = None,
    ) -> Recorded:
        """Replace the outcome recorded as entry `seq` by `record`, scored against the state at
        that place in the record. The original stays in the history. `expect` as for `void`."""
        reason, by = correction_reason(reason), corrected_by(by)

        def make(replayed: Replay) -> Correction:
            target = correction_target(replayed, seq, expect)
            outcome = amended_outcome(replayed, target, record)
            return Correction(seq, outcome, reason, by)

        operation = {"op": "amend", "target": seq, "reason": reason, "by": by, **record.to_json()}
        return self._append(table_id, operation, key, _within_limit(make))

    # -- settle-up and export ----------------------------------------------------------------

    def settle_up(self, table_id: str) -> list[Transfer]:
        """The fewest transfers that square the table now."""
        return settle_up(self.replay(table_id).state.settle_totals)

    def export_json(self, table_id: str) -> dict[str, Any]:
        with self._guard(), self._session() as session, session.begin():
            table = self._table(session, table_id)
            replayed = self._replayed(session, table.id, setup_of(table))
            created = aware(table.created_at)
        return export_json(table.id, created, replayed)

    def export_csv(self, table_id: str) -> str:
        return export_csv(self.replay(table_id))


def standings_json(table_id: str, replayed: Replay) -> dict[str, Any]:
    """A table's standings as the API gives them: its id and profile with its state."""
    return {"id": table_key(table_id), "profile": replayed.setup.profile} | (
        replayed.state.to_json()
    )


def _record_operation(record: Record) -> dict[str, Any]:
    """What a record's idempotency key stands for (its fingerprint is kept)."""
    return {"op": "record", **record.to_json()}


def _within_limit(make: EntryMaker) -> EntryMaker:
    """`make`, refused when the table already holds `MAX_ENTRIES` entries."""

    def checked(replayed: Replay) -> Outcome | Correction:
        if len(replayed.entries) >= MAX_ENTRIES:
            raise LimitError(
                f"a table holds at most {MAX_ENTRIES:,} entries: this one is full; "
                "start a new table"
            )
        return make(replayed)

    return checked

"""An event's leaderboard across its tables: each seated table's standings from the ledger, the
organiser's penalties and corrections, the players who withdrew; and the event's exports (the
standings as CSV, the whole event as JSON with every table's own export)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import Any

from sqlalchemy.orm import Session

from companion.events.standings import (
    StandingRule,
    Standings,
    StandingsError,
)
from companion.ledger.checks import MAX_TOTAL
from companion.ledger.errors import LimitError
from companion.ledger.event_book.checks import checked_text, exact_amount
from companion.ledger.event_book.records import Snapshot
from companion.ledger.event_book.store import EventStore
from companion.ledger.event_book.tables import read_replays, standings_from, table_standings
from companion.ledger.event_book.views import AuditEntry
from companion.ledger.export import export_json, spreadsheet_text
from companion.ledger.repository import Ledger

EXPORT_CHUNK = 100
"""Tables read together for the export (each chunk's tables, players and entries in a query)."""

SeatedKey = tuple[int, int, str]
"""A seated table as the export lists it: its round, its number and its ledger table id."""


class EventLeaderboard(EventStore):
    """The part of `EventBook` that adjusts totals, gives the standings and exports."""

    def adjust(
        self,
        event_id: str,
        player: str,
        amount: Fraction | int | str,
        reason: str,
        by: str = "",
        *,
        key: str | None = None,
    ) -> AuditEntry:
        """A penalty (a negative amount) or a correction of a player's total, with a reason;
        `key` as a table's writes take one (the same key again records nothing new)."""
        exact = exact_amount(amount)
        # What the player's tables give them, read before the event is locked (a table's
        # standings are read in sessions of their own, which the lock would keep waiting on
        # SQLite); the adjustments are added from the locked record, so that two penalties at
        # once cannot both pass the bound.
        before = self._read(event_id)
        name = before.entrant(player).name
        total = next(
            (row.total for row in standings_of(self.ledger, before).rows if row.name == name),
            Fraction(0),
        )
        played = total - adjusted(before, name)

        def act(session: Session, snapshot: Snapshot) -> dict[str, Any]:
            entry = snapshot.entrant(player)
            why = checked_text(
                reason,
                f"the reason for {entry.name}'s adjustment",
                "refusal.event_reason",
                params={"player": entry.name},
            )
            if not snapshot.has_played(entry.name):
                raise StandingsError(
                    f"{entry.name} played no table of the event",
                    key="refusal.event_not_played",
                    params={"player": entry.name},
                )
            _check_total(entry.name, played + adjusted(snapshot, entry.name), exact)
            return {"player": entry.name, "amount": str(exact), "reason": why}

        asked = {"player": player, "amount": str(exact), "reason": reason}
        return self._write(event_id, "adjust", act, by, key=key, asked=asked)

    def standings(self, event_id: str) -> Standings:
        return self.current(event_id).board

    def export_json(self, event_id: str) -> dict[str, Any]:
        """The event, its standings, the organiser's record and every table's own export
        (the tables' write tokens are not in it)."""
        head, seated = self.export_head(event_id)
        return head | {"tables": list(self.export_tables(event_id, seated))}

    def export_head(self, event_id: str) -> tuple[dict[str, Any], list[SeatedKey]]:
        """The export but its tables, and the tables it lists ((round, number, table id)), for
        `export_tables` to give one by one (the API streams them)."""
        read = self.current(event_id)
        head = {
            "format": "companion-event",
            "version": 1,
            "event": read.event_json,
            "standings": read.standings_json,
            "audit": [entry.to_json() for entry in self.audit(event_id)],
        }
        seated = [
            (round_.number, table.number, table.table)
            for round_ in read.view.seated
            for table in round_.tables
        ]
        return head, seated

    def export_tables(self, event_id: str, seated: Sequence[SeatedKey]) -> Iterator[dict[str, Any]]:
        """Each of `seated`'s tables' own export, read `EXPORT_CHUNK` tables at a time: a big
        event's export is never held whole."""
        for start in range(0, len(seated), EXPORT_CHUNK):
            chunk = seated[start : start + EXPORT_CHUNK]
            with self._guard(), self._reading() as session, session.begin():
                ids = [table_id for _, _, table_id in chunk]
                found = {
                    table_id: export_json(table_id, created, replayed)
                    for table_id, replayed, created in read_replays(session, event_id, ids)
                }
            for round_number, number, table_id in chunk:
                # A table taken back since (`unseat`) is read as the ledger has it.
                data = found.get(table_id) or self.ledger.export_json(table_id)
                yield {"round": round_number, "number": number} | data

    def export_csv(self, event_id: str) -> str:
        """The standings, one row per player, first place first."""
        return standings_csv(self.standings(event_id))

    def export_csv_lines(self, event_id: str) -> Iterator[str]:
        """`export_csv` a line at a time (the standings read now, the lines as they are asked)."""
        return standings_csv_lines(self.standings(event_id))


def adjusted(snapshot: Snapshot, name: str) -> Fraction:
    """The sum of the organiser's adjustments to `name`'s total."""
    return sum(
        (Fraction(row.amount or 0) for row in snapshot.adjustments if row.player == name),
        Fraction(0),
    )


def _check_total(name: str, total: Fraction, amount: Fraction) -> None:
    """Refuse an adjustment that would take a player's total beyond `MAX_TOTAL` either way, as a
    table refuses an entry: the most a JSON number carries exactly, so that a leaderboard never
    shows a total a client cannot read back (1e+60)."""
    if abs(total + amount) > MAX_TOTAL:
        raise LimitError(
            f"this adjustment would take {name}'s total beyond 2^53 ({MAX_TOTAL:,}), the most "
            "an event's total may reach: nothing recorded",
            key="refusal.event_total_large",
            params={"player": name, "most": f"{MAX_TOTAL:,}"},
        )


def standings_of(ledger: Ledger, snapshot: Snapshot) -> Standings:
    """The leaderboard as the event's rows and its tables on `ledger` stand."""
    return standings_from(snapshot, table_standings(ledger, snapshot))


SECOND_KEY = {StandingRule.FINALS: "points", StandingRule.TABLE_POINTS: "score"}
"""The name of the standings' second key in the CSV, by rule (money has none)."""


def standings_csv(board: Standings) -> str:
    return "".join(standings_csv_lines(board))


def standings_csv_lines(board: Standings) -> Iterator[str]:
    """The standings as CSV, a line at a time (the API streams them)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")

    def line(cells: Sequence[Any]) -> str:
        out.seek(0)
        out.truncate()
        writer.writerow(cells)
        return out.getvalue()

    second = SECOND_KEY.get(board.rule)
    header = ["rank", "name", "total", *([second] if second else [])]
    yield line([*header, "tied", "tables", "withdrawn", "provisional", "adjustments"])
    for row in board.rows:
        # Names and reasons are the organiser's text: never a formula in a spreadsheet.
        adjustments = "; ".join(
            f"{penalty.reason}{f' ({penalty.by})' if penalty.by else ''}: {penalty.amount}"
            for penalty in row.penalties
        )
        yield line(
            [
                row.rank,
                spreadsheet_text(row.name),
                str(row.total),
                *([str(row.secondary) if row.secondary is not None else ""] if second else []),
                "yes" if row.tied else "",
                row.tables,
                "yes" if row.withdrawn else "",
                "yes" if row.provisional else "",
                spreadsheet_text(adjustments),
            ]
        )

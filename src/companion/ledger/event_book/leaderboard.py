"""An event's leaderboard across its tables: each seated table's standings from the ledger, the
organiser's penalties and corrections, the players who withdrew; and the event's exports (the
standings as CSV, the whole event as JSON with every table's own export)."""

from __future__ import annotations

import csv
import io
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
from companion.ledger.event_book.tables import standings_from, table_standings
from companion.ledger.event_book.views import AuditEntry
from companion.ledger.export import spreadsheet_text
from companion.ledger.repository import Ledger


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
        view = self.event(event_id)
        board = self.standings(event_id)
        tables = [
            {"round": round_.number, "number": table.number} | self.ledger.export_json(table.table)
            for round_ in view.seated
            for table in round_.tables
        ]
        return {
            "format": "companion-event",
            "version": 1,
            "event": view.to_json(),
            "standings": board.to_json(),
            "audit": [entry.to_json() for entry in self.audit(event_id)],
            "tables": tables,
        }

    def export_csv(self, event_id: str) -> str:
        """The standings, one row per player, first place first."""
        return standings_csv(self.standings(event_id))


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
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    second = SECOND_KEY.get(board.rule)
    header = ["rank", "name", "total", *([second] if second else [])]
    writer.writerow([*header, "tied", "tables", "withdrawn", "provisional", "adjustments"])
    for row in board.rows:
        # Names and reasons are the organiser's text: never a formula in a spreadsheet.
        adjustments = "; ".join(
            f"{penalty.reason}{f' ({penalty.by})' if penalty.by else ''}: {penalty.amount}"
            for penalty in row.penalties
        )
        writer.writerow(
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
    return out.getvalue()

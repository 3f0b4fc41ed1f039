"""An event's reports (issue 39): each entrant's EMA number and country (for the EMA's results
file), the results in the EMA's columns as CSV, and the chombos recorded at the event's
tables. The printable pages (web/event_day.py) read the same."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from companion.events.day import COUNTRY, EMA_ID, ema_name
from companion.ledger.entries import GameHand
from companion.ledger.event_book.errors import EventError
from companion.ledger.event_book.records import Snapshot
from companion.ledger.event_book.store import EventStore
from companion.ledger.event_book.views import AuditEntry, SeatedRound
from companion.ledger.export import spreadsheet_text
from companion.ledger.rows import aware
from companion.settlement import format_amount

EMA_COLUMNS = ("Place", "EMA number", "Last name", "First name", "Country", "Rank points", "Score")
"""The EMA's results columns, in its order."""


@dataclass(frozen=True)
class ResultLine:
    """One player of the results, as the EMA's file and the printable page give them."""

    place: int
    tied: bool
    name: str
    ema_id: str
    country: str
    rank_points: str
    score: str
    withdrawn: bool

    @property
    def last_name(self) -> str:
        return ema_name(self.name)[0]

    @property
    def first_name(self) -> str:
        return ema_name(self.name)[1]

    def to_json(self) -> dict[str, Any]:
        return {
            "place": self.place,
            "tied": self.tied,
            "name": self.name,
            "ema_id": self.ema_id or None,
            "last_name": self.last_name,
            "first_name": self.first_name,
            "country": self.country or None,
            "rank_points": self.rank_points,
            "score": self.score or None,
            "withdrawn": self.withdrawn,
        }


@dataclass(frozen=True)
class Chombo:
    """A chombo recorded at one of the event's tables (and not voided)."""

    round: int
    table: int
    table_id: str
    seq: int
    player: str
    at: datetime

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "table": self.table,
            "table_id": self.table_id,
            "seq": self.seq,
            "player": self.player,
            "at": self.at.isoformat(),
        }


def checked_ema_id(text: str) -> str:
    """An EMA number as stored: eight digits, or "" (none known)."""
    cleaned = text.strip()
    if cleaned and not EMA_ID.fullmatch(cleaned):
        raise EventError(
            f"an EMA number is eight digits (such as 04010123); got {cleaned[:20]!r}",
            key="refusal.day_ema_id",
            params={"ema_id": cleaned[:20]},
        )
    return cleaned


def checked_country(text: str) -> str:
    """A country as stored: three capital letters (FRA, GBR), or "" (none known)."""
    cleaned = text.strip().upper()
    if cleaned and not COUNTRY.fullmatch(cleaned):
        raise EventError(
            f"a country is three letters (such as FRA or NLD); got {text.strip()[:20]!r}",
            key="refusal.day_country",
            params={"country": text.strip()[:20]},
        )
    return cleaned


class EventReports(EventStore):
    """The part of `EventBook` that keeps the entrants' EMA details and gives the reports."""

    def set_entrant(
        self,
        event_id: str,
        player: str,
        *,
        ema_id: str | None = None,
        country: str | None = None,
        by: str = "",
    ) -> AuditEntry:
        """A player's EMA number and country (either left as it is when None, cleared when
        empty)."""
        number = None if ema_id is None else checked_ema_id(ema_id)
        land = None if country is None else checked_country(country)

        def act(session: Session, snapshot: Snapshot) -> dict[str, Any]:
            entry = snapshot.entrant(player)
            if number is not None:
                entry.ema_id = number or None
            if land is not None:
                entry.country = land or None
            return {
                "player": entry.name,
                "details": {"ema_id": entry.ema_id, "country": entry.country},
            }

        return self._write(event_id, "entrant", act, by)

    def results(self, event_id: str) -> tuple[ResultLine, ...]:
        """The standings with each player's EMA number and country, first place first."""
        read = self.current(event_id)  # the standings kept by the event's version
        entries = {entry.name: entry for entry in read.snapshot.entries}
        board = read.board
        lines = []
        for row in board.rows:
            entry = entries.get(row.name)
            lines.append(
                ResultLine(
                    row.rank,
                    row.tied,
                    row.name,
                    (entry.ema_id if entry else None) or "",
                    (entry.country if entry else None) or "",
                    format_amount(row.total),
                    "" if row.secondary is None else format_amount(row.secondary),
                    row.withdrawn,
                )
            )
        return tuple(lines)

    def ema_csv(self, event_id: str) -> str:
        """The results in the EMA's columns: place, EMA number (empty when not known), last
        name, first name, country (empty when not known), rank points, score."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(EMA_COLUMNS)
        for line in self.results(event_id):
            writer.writerow(
                [
                    line.place,
                    line.ema_id,
                    spreadsheet_text(line.last_name),
                    spreadsheet_text(line.first_name),
                    line.country,
                    line.rank_points,
                    line.score,
                ]
            )
        return out.getvalue()

    def round_sheet(self, event_id: str, round_number: int) -> SeatedRound:
        """Round `round_number` as seated (`SeatedRound`), for its printed sheet."""
        sheet_round(self._read(event_id), round_number)
        view = self.event(event_id)
        return next(seated for seated in view.seated if seated.number == round_number)

    def chombos(self, event_id: str) -> tuple[Chombo, ...]:
        """Every chombo recorded at the event's tables and not voided, round by round."""
        snapshot = self._read(event_id)
        found = []
        for table in snapshot.tables:
            players = list(table.players)
            for entry in self.ledger.history(table.table_id):
                outcome = entry.effective
                if isinstance(outcome, GameHand) and outcome.game.get("kind") == "chombo":
                    found.append(
                        Chombo(
                            table.round,
                            table.number,
                            table.table_id,
                            entry.stored.seq,
                            players[int(outcome.game["player"])],
                            aware(entry.stored.at),
                        )
                    )
        return tuple(found)


def sheet_round(snapshot: Snapshot, round_number: int) -> int:
    """A round whose sheet can be printed: seated; refused otherwise."""
    if not any(row.round == round_number for row in snapshot.rounds):
        raise EventError(
            f"round {round_number} is not seated: there is no sheet to print",
            key="refusal.day_sheet_not_seated",
            params={"round": round_number},
        )
    return round_number

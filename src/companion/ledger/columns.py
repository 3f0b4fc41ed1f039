"""The columns of a table's export, each declared once: its name, what it holds, and how its
value is read from an entry of the history. The CSV writer writes a column of each (a cell per
player for a player's column), the JSON writer a key of each entry for those it carries
(`json`), and docs/ledger.md's table of them is written from this list (`make docs`).

A record's extras (`records.Extras`) are columns of their own, one per field, made from their
declaration: a field added there is in both exports without an edit here."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from companion.ledger.entries import Correction, GameHand, Win, correction_text, outcome_text
from companion.ledger.records import Extras, extra_fields
from companion.ledger.replay import HistoryEntry
from companion.settlement import amount_json, format_amount


@dataclass(frozen=True)
class Row:
    """One entry of the history with the table's players, as the columns read it."""

    players: Sequence[str]
    entry: HistoryEntry


@dataclass(frozen=True)
class Column:
    name: str
    """The CSV header; a player's column holds `{player}` ("{player} total")."""
    description: str
    read: Callable[[Row], Any]
    """The value from an entry: a player's column gives one per player, in seat order."""
    csv: bool = True
    """Whether the CSV has it."""
    json: str | None = None
    """The key of the JSON export's entry that holds it (a player's column: by name); None
    when only the CSV has it."""
    kind: str = "text"
    """How a value is written: `text` (a CSV cell a spreadsheet never runs), `number`,
    `amount` (exact: "3/2" in the CSV, 1.5 in the JSON)."""
    points_game: bool = False
    """Only at a points game's table (riichi)."""

    @property
    def per_player(self) -> bool:
        return "{player}" in self.name

    def headers(self, players: Sequence[str]) -> list[str]:
        """The CSV's header cells of this column (a player's column: one per player)."""
        if self.per_player:
            return [self.name.format(player=name) for name in players]
        return [self.name]


def _body_text(row: Row) -> str:
    entry, players = row.entry, row.players
    body = entry.stored.body
    if isinstance(body, Correction):
        return correction_text(players, body)
    return outcome_text(players, entry.effective or body)


def _winners(row: Row) -> str:
    effective, players = row.entry.effective, row.players
    if isinstance(effective, Win):
        return ";".join(players[winner.player] for winner in effective.winners)
    if isinstance(effective, GameHand) and effective.game_kind == "win":
        return ";".join(players[int(winner["player"])] for winner in effective.game["winners"])
    return ""


def _correction(read: Callable[[Correction], Any]) -> Callable[[Row], Any]:
    def value(row: Row) -> Any:
        body = row.entry.stored.body
        return read(body) if isinstance(body, Correction) else None

    return value


def _riichi(row: Row) -> str:
    effective = row.entry.effective
    if not isinstance(effective, GameHand):
        return ""
    return ";".join(row.players[int(player)] for player in effective.game.get("riichi", ()))


def _game(row: Row, read: Callable[[Any], Any]) -> Any:
    game = row.entry.after.game
    return None if game is None else read(game)


def _hand_label(row: Row) -> str | None:
    before = row.entry.before.game
    hand = None if before is None else before.hand
    return None if hand is None else hand.label


def _extra(name: str) -> Callable[[Row], Any]:
    def value(row: Row) -> Any:
        shown = row.entry.effective or row.entry.stored.body
        extras = getattr(shown, "extras", None)
        return None if extras is None else getattr(extras, name, None)

    return value


def columns(extras_type: type[Extras] = Extras) -> tuple[Column, ...]:
    """Every column, in the CSV's order; a record's extras (`extras_type`'s fields) after the
    correction's."""
    return (
        Column(
            "event",  # the CSV's header other programs read stays
            "the entry's number on the table",
            lambda row: row.entry.stored.seq,
            json="seq",
            kind="number",
        ),
        Column(
            "at",
            "when it was recorded (ISO 8601, UTC)",
            lambda row: row.entry.stored.at.isoformat(),
            json="at",
        ),
        Column(
            "kind",
            "win, draw, payout, void or amend",
            lambda row: row.entry.stored.kind,
            json="kind",
        ),
        Column(
            "status",
            "recorded, voided, amended or invalid for an outcome; void or amend for a correction",
            lambda row: row.entry.status,
            json="status",
        ),
        Column(
            "hand",
            "the hand number of a hand that counts (a payout: the hand it happened in)",
            lambda row: row.entry.hand,
            json="hand",
            kind="number",
        ),
        Column(
            "round",
            "the round wind before it",
            lambda row: row.entry.before.round.value,
            json="round",
        ),
        Column(
            "dealer",
            "who dealt it",
            lambda row: row.players[row.entry.before.dealer],
            json="dealer",
        ),
        Column(
            "dealer_streak",
            "the dealer's streak before it",
            lambda row: row.entry.before.streak,
            csv=False,
            json="dealer_streak",
            kind="number",
        ),
        Column(
            "key",
            "the idempotency key it was recorded with",
            lambda row: row.entry.stored.key,
            csv=False,
            json="key",
        ),
        Column("winners", "the winners that count, `;` between them", _winners),
        Column(
            "description", "what it is, in one line (an amended outcome: as amended)", _body_text
        ),
        Column(
            "corrects",
            "a correction: the entry it corrects",
            _correction(lambda body: body.target),
            kind="number",
        ),
        Column(
            "corrected_by",
            "the latest correction of an outcome",
            lambda row: row.entry.corrected_by,
            kind="number",
        ),
        Column("reason", "a correction: why", _correction(lambda body: body.reason)),
        Column("by", "a correction: who made it", _correction(lambda body: body.by or "unknown")),
        *(
            Column(
                extra.name,
                extra.description,
                _extra(extra.name),
                json=extra.name,
                kind="number" if extra.kind is int else "text",
            )
            for extra in extra_fields(extras_type)
        ),
        Column(
            "{player}",
            "what it moved for each player (the amount that counts)",
            lambda row: row.entry.amounts,
            json="amounts",
            kind="amount",
        ),
        Column(
            "{player} total",
            "each player's running total after it",
            lambda row: row.entry.after.totals,
            json="totals",
            kind="amount",
        ),
        Column(
            "warnings",
            "said when a correction earlier in the record changed what this win "
            "would pay (its stored payments stand until it is amended)",
            lambda row: list(row.entry.warnings),
            csv=False,
            json="notes",
        ),
        Column(
            "hand_label",
            "the hand it was played in (East 3, 2 honba)",
            _hand_label,
            json="hand_label",
            points_game=True,
        ),
        Column("riichi", "who declared riichi in it, `;` between them", _riichi, points_game=True),
        Column(
            "deposits",
            "the riichi sticks on the table after it, in points",
            lambda row: _game(row, lambda game: game.deposits),
            json="deposits",
            kind="number",
            points_game=True,
        ),
        Column(
            "honba",
            "the honba after it",
            lambda row: _game(row, lambda game: game.honba),
            json="honba",
            kind="number",
            points_game=True,
        ),
        Column(
            "{player} points",
            "each player's points after it",
            lambda row: _game(row, lambda game: game.points),
            json="points",
            kind="number",
            points_game=True,
        ),
        Column(
            "refused",
            "why an outcome no longer counts (a correction before it made it "
            "impossible at its place)",
            lambda row: row.entry.refused or None,
            csv=False,
            json="refused",
            points_game=True,
        ),
    )


def csv_columns(points_game: bool) -> tuple[Column, ...]:
    return tuple(
        column for column in columns() if column.csv and (points_game or not column.points_game)
    )


def json_value(column: Column, value: Any, players: Sequence[str]) -> Any:
    """A column's value as the JSON export holds it (a player's column: by name)."""
    if column.per_player:
        values = [amount_json(item) if column.kind == "amount" else item for item in value]
        return dict(zip(players, values, strict=True))
    return value


def csv_cell(column: Column, value: Any, safe: Callable[[str], str]) -> Any:
    """A column's value as a CSV cell: nothing for None, an exact amount, text made safe."""
    if value is None:
        return ""
    if column.kind == "amount" and not isinstance(value, str):
        return format_amount(value)
    if column.kind == "text" and isinstance(value, str):
        return safe(value)
    return value

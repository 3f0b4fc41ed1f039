"""A table's record for people and other programs: each entry as JSON (the export, `history
--json` and the API), the whole table as JSON, and as CSV for a spreadsheet."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from companion.ledger.columns import Column, Row, columns, csv_cell, csv_columns, json_value
from companion.ledger.entries import (
    Correction,
    GameHand,
    Outcome,
    Payout,
    Win,
    correction_text,
    outcome_text,
    winner_value_text,
)
from companion.ledger.replay import HistoryEntry, Replay
from companion.ledger.settle import settle_up, transfer_text
from companion.settlement import amount_json, format_amount


def entry_json(players: Sequence[str], entry: HistoryEntry) -> dict[str, Any]:
    """One entry for the JSON export and `history --json`: names, not seat numbers. Its keys
    are the columns' that the JSON carries (`ledger/columns.py`), and what its kind holds: a
    correction's target, reason, by and replacement, an outcome's outcome."""
    row = Row(players, entry)
    points_game = entry.after.game is not None
    data: dict[str, Any] = {
        column.json: json_value(column, column.read(row), players)
        for column in columns()
        if column.json is not None and (points_game or not column.points_game)
    }
    body = entry.stored.body
    if isinstance(body, Correction):
        data.update(target=body.target, reason=body.reason, by=body.by or "unknown")
        replacement = body.replacement
        data["replacement"] = None if replacement is None else outcome_json(players, replacement)
        data["text"] = correction_text(players, body)
    else:
        data["outcome"] = outcome_json(players, body)
        data["text"] = outcome_text(players, body)
        data["corrected_by"] = entry.corrected_by
        data["version"] = entry.version
        if entry.status == "amended" and entry.effective is not None:
            data["effective"] = outcome_json(players, entry.effective)
    return data


def game_outcome_json(players: Sequence[str], hand: GameHand) -> dict[str, Any]:
    """A points game's outcome with names: who won what, who declared riichi, who was tenpai;
    and what it moved when it was recorded (`recorded_payments`, in its `label`'s hand)."""
    game = hand.game

    def names(key: str) -> list[str]:
        return [players[int(player)] for player in game.get(key, ())]

    data: dict[str, Any] = {"kind": hand.game_kind, "riichi": names("riichi")}
    if hand.game_kind == "win":
        data["winners"] = [
            {
                "name": players[int(winner["player"])],
                **{key: winner[key] for key in ("han", "fu", "yakuman", "limit") if key in winner},
                "value": winner_value_text(winner),
                "liable": None if winner.get("liable") is None else players[winner["liable"]],
            }
            for winner in game["winners"]
        ]
        discarder = game.get("discarder")
        data["self_draw"] = discarder is None
        data["discarder"] = None if discarder is None else players[int(discarder)]
        data["calls"] = list(hand.calls)
        data["requests"] = {players[player]: dict(request) for player, request in hand.requests}
    elif hand.game_kind == "exhaustive_draw":
        data["tenpai"] = names("tenpai")
        data["nagashi"] = names("nagashi")
    elif hand.game_kind == "abortive_draw":
        data["abortive"] = game.get("abortive")
    elif hand.game_kind == "chombo":
        data["player"] = players[int(game["player"])]
    data["label"] = hand.label
    data["recorded_payments"] = _by_name(players, hand.payments)
    return data


def outcome_json(players: Sequence[str], outcome: Outcome) -> dict[str, Any]:
    if isinstance(outcome, GameHand):
        return game_outcome_json(players, outcome)
    if isinstance(outcome, Win):
        return {
            "kind": outcome.kind,
            "unit": outcome.unit,
            "winners": [
                {
                    "name": players[winner.player],
                    "tai": winner.tai,
                    "dealer_tai": winner.dealer_tai,
                    "entry": winner.entry,
                    "patterns": [{"name": name, "tai": tai} for name, tai in winner.patterns],
                    "request": None if winner.request is None else dict(winner.request),
                    "payments": _by_name(players, winner.payments),
                    "notes": list(winner.hand_notes),
                }
                for winner in outcome.winners
            ],
            "self_draw": outcome.self_draw,
            "discarder": None if outcome.discarder is None else players[outcome.discarder],
            "liable": None if outcome.liable is None else players[outcome.liable],
        }
    if isinstance(outcome, Payout):
        return {
            "kind": outcome.kind,
            "player": players[outcome.player],
            "event": outcome.event,
            "label": outcome.label,
            "at_start": outcome.at_start,
            "payments": _by_name(players, outcome.payments),
            "notes": list(outcome.payout_notes),
        }
    return {"kind": outcome.kind}


def _by_name(players: Sequence[str], amounts: Sequence[Any]) -> dict[str, int | float]:
    return {name: amount_json(amount) for name, amount in zip(players, amounts, strict=True)}


def export_json(table_id: str, created: datetime, replayed: Replay) -> dict[str, Any]:
    setup, state = replayed.setup, replayed.state
    players = setup.players
    return {
        "table": {"id": table_id, "created_at": created.isoformat(), **setup.to_json()},
        "standings": state.to_json(),
        "settle_up": [
            {
                "from": players[t.payer],
                "to": players[t.payee],
                "amount": amount_json(t.amount),
                "text": transfer_text(players, t),
            }
            for t in settle_up(state.settle_totals)
        ],
        "events": [entry_json(players, entry) for entry in replayed.entries],  # the key stays
    }


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a cell as a formula (OWASP's list for CSV injection)."""


def spreadsheet_text(text: str) -> str:
    """Text for a CSV cell that a spreadsheet shows as text, never runs: a cell that would start
    a formula gets a leading `'` (OWASP's advice). Amounts are written by Companion itself and
    are numbers, so they are left as they are; every text a client chose goes through here."""
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def export_csv(replayed: Replay) -> str:
    """One row per entry, a cell of each column (`ledger/columns.py`): what it is, its amount
    for each player and the running totals; at the end of a game, its results' rows.

    Names, reasons, `by` and descriptions (which quote names) are neutralised for spreadsheets
    (`spreadsheet_text`); the JSON export keeps them exactly."""
    players = replayed.setup.players
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    shown = csv_columns(replayed.state.game is not None)
    writer.writerow(
        [spreadsheet_text(header) for column in shown for header in column.headers(players)]
    )
    for entry in replayed.entries:
        row = Row(players, entry)
        values = {column.name: column.read(row) for column in shown}
        writer.writerow(_cells(shown, values, len(players)))
    game = replayed.state.game
    if game is not None and game.finished:
        # The final results, a row of their own: each player's result (uma and oka included)
        # in the amount columns, the final points (leftover deposits included) in the totals.
        results = sorted(game.results, key=lambda standing: standing.player)
        places = ", ".join(f"{s.place}. {s.name} {s.shown}" for s in game.results)
        final = [standing.points for standing in results]
        values = {
            "kind": "result",
            "description": f"Final results: {places}",
            "{player}": [standing.shown for standing in results],
            "{player} total": final,
            "deposits": game.deposits,
            "honba": game.honba,
            "{player} points": [format_amount(points) for points in final],
        }
        writer.writerow(_cells(shown, values, len(players)))
    state = replayed.state
    shared = state.table_points()
    if shared is not None and state.finished:
        # The table points, a row of their own: each player's in the amount columns, the final
        # scores in the totals.
        ranks = state.places()
        order = sorted(range(len(players)), key=lambda index: (ranks[index], index))
        places = ", ".join(
            f"{ranks[index]}. {players[index]} {format_amount(shared[index])}" for index in order
        )
        values = {
            "kind": "table_points",
            "description": f"Table points: {places}",
            "{player}": shared,
            "{player} total": state.totals,
        }
        writer.writerow(_cells(shown, values, len(players)))
    return out.getvalue()


def _cells(shown: Sequence[Column], values: Mapping[str, Any], players: int) -> list[Any]:
    """A CSV row: each column's cells from `values` by the column's name, empty where it has
    none (a player's column: one cell per player)."""
    cells: list[Any] = []
    for column in shown:
        value = values.get(column.name)
        if column.per_player:
            seats = value if value is not None else [None] * players
            cells += [csv_cell(column, item, spreadsheet_text) for item in seats]
        else:
            cells.append(csv_cell(column, value, spreadsheet_text))
    return cells

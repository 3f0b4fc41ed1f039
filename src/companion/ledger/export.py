"""A table's record for people and other programs: each event as JSON (the export, `history
--json` and the API), the whole table as JSON, and as CSV for a spreadsheet."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from companion.ledger.entries import Correction, Outcome, Payout, Win, correction_text, outcome_text
from companion.ledger.replay import HistoryEntry, Replay
from companion.ledger.settle import settle_up, transfer_text
from companion.settlement import amount_json, format_amount


def event_json(players: Sequence[str], entry: HistoryEntry) -> dict[str, Any]:
    """One event for the JSON export and `history --json`: names, not seat numbers."""
    event = entry.event
    data: dict[str, Any] = {
        "seq": event.seq,
        "at": event.at.isoformat(),
        "kind": event.kind,
        "status": entry.status,
        "hand": entry.hand,
        "round": entry.before.round.value,
        "dealer": players[entry.before.dealer],
        "dealer_streak": entry.before.streak,
        "key": event.key,
    }
    body = event.body
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
    data["amounts"] = _by_name(players, entry.amounts)
    data["totals"] = _by_name(players, entry.after.totals)
    data["notes"] = list(entry.stale_warnings)
    return data


def outcome_json(players: Sequence[str], outcome: Outcome) -> dict[str, Any]:
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
        "events": [event_json(players, entry) for entry in replayed.entries],
    }


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a cell as a formula (OWASP's list for CSV injection)."""


def spreadsheet_text(text: str) -> str:
    """Text for a CSV cell that a spreadsheet shows as text, never runs: a cell that would start
    a formula gets a leading `'` (OWASP's advice). Amounts are written by Companion itself and
    are numbers, so they are left as they are; every text a client chose goes through here."""
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def export_csv(replayed: Replay) -> str:
    """One row per event: what it is, its amount for each player and the running totals.

    Names, reasons, `by` and descriptions (which quote names) are neutralised for spreadsheets
    (`spreadsheet_text`); the JSON export keeps them exactly."""
    players = replayed.setup.players
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    safe = spreadsheet_text
    writer.writerow(
        [
            "event",
            "at",
            "kind",
            "status",
            "hand",
            "round",
            "dealer",
            "winners",
            "description",
            "corrects",
            "corrected_by",
            "reason",
            "by",
            *(safe(name) for name in players),
            *(safe(f"{name} total") for name in players),
        ]
    )
    for entry in replayed.entries:
        event, body = entry.event, entry.event.body
        if isinstance(body, Correction):
            text = correction_text(players, body)
            corrects, reason, by = str(body.target), body.reason, body.by or "unknown"
        else:
            text = outcome_text(players, entry.effective or body)
            corrects, reason, by = "", "", ""
        winners = entry.effective if isinstance(entry.effective, Win) else None
        writer.writerow(
            [
                event.seq,
                event.at.isoformat(),
                event.kind,
                entry.status,
                "" if entry.hand is None else entry.hand,
                entry.before.round.value,
                safe(players[entry.before.dealer]),
                safe(";".join(players[w.player] for w in winners.winners) if winners else ""),
                safe(text),
                corrects,
                "" if entry.corrected_by is None else entry.corrected_by,
                safe(reason),
                safe(by),
                *(format_amount(amount) for amount in entry.amounts),
                *(format_amount(total) for total in entry.after.totals),
            ]
        )
    return out.getvalue()

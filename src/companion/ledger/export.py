"""A table's record for people and other programs: each event as JSON (the export, `history
--json` and the API), the whole table as JSON, and as CSV for a spreadsheet."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from datetime import datetime
from typing import Any

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
    game = entry.after.game
    if game is not None:
        before = entry.before.game
        assert before is not None
        hand = before.hand
        data.update(
            hand_label=None if hand is None else hand.label,
            points=dict(zip(players, game.points, strict=True)),
            deposits=game.deposits,
            honba=game.honba,
            refused=entry.refused or None,
        )
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
    points_game = replayed.state.game is not None
    game_columns = (
        ["hand_label", "riichi", "deposits", "honba", *(safe(f"{name} points") for name in players)]
        if points_game
        else []
    )
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
            *game_columns,
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
        winner_names = ";".join(players[w.player] for w in winners.winners) if winners else ""
        effective = entry.effective
        if isinstance(effective, GameHand) and effective.game_kind == "win":
            winner_names = ";".join(
                players[int(winner["player"])] for winner in effective.game["winners"]
            )
        writer.writerow(
            [
                event.seq,
                event.at.isoformat(),
                event.kind,
                entry.status,
                "" if entry.hand is None else entry.hand,
                entry.before.round.value,
                safe(players[entry.before.dealer]),
                safe(winner_names),
                safe(text),
                corrects,
                "" if entry.corrected_by is None else entry.corrected_by,
                safe(reason),
                safe(by),
                *(format_amount(amount) for amount in entry.amounts),
                *(format_amount(total) for total in entry.after.totals),
                *(_game_cells(players, entry) if points_game else []),
            ]
        )
    game = replayed.state.game
    if game is not None and game.finished:
        # The final results, a row of their own: each player's result (uma and oka included)
        # in the amount columns, the final points (leftover deposits included) in the totals.
        results = {standing.player: standing for standing in game.results}
        shown = ", ".join(f"{s.place}. {s.name} {s.shown}" for s in game.results)
        writer.writerow(
            [
                "",
                "",
                "result",
                "",
                "",
                "",
                "",
                "",
                safe(f"Final results: {shown}"),
                "",
                "",
                "",
                "",
                *(results[index].shown for index in range(len(players))),
                *(format_amount(results[index].points) for index in range(len(players))),
                "",
                "",
                game.deposits,
                game.honba,
                *(format_amount(results[index].points) for index in range(len(players))),
            ]
        )
    state = replayed.state
    shared = state.table_points()
    if shared is not None and state.finished:
        # The table points, a row of their own: each player's in the amount columns, the final
        # scores in the totals.
        places = state.places()
        order = sorted(range(len(players)), key=lambda index: (places[index], index))
        shown = ", ".join(
            f"{places[index]}. {players[index]} {format_amount(shared[index])}" for index in order
        )
        writer.writerow(
            [
                *([""] * 2),
                "table_points",
                *([""] * 5),
                safe(f"Table points: {shown}"),
                *([""] * 4),
                *(format_amount(points) for points in shared),
                *(format_amount(total) for total in state.totals),
            ]
        )
    return out.getvalue()


def _game_cells(players: Sequence[str], entry: HistoryEntry) -> list[Any]:
    before, after = entry.before.game, entry.after.game
    assert before is not None and after is not None
    effective = entry.effective
    riichi = (
        ";".join(players[int(player)] for player in effective.game.get("riichi", ()))
        if isinstance(effective, GameHand)
        else ""
    )
    hand = before.hand
    return [
        "" if hand is None else hand.label,
        spreadsheet_text(riichi),
        after.deposits,
        after.honba,
        *after.points,
    ]

"""What `companion table ...` prints for people: a history line (`history`, and after every
write), the standings (a points game's, a table ranked by table points, and the others')."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from companion.ledger.entries import Correction, correction_text, outcome_text
from companion.ledger.records import extras_shown
from companion.ledger.replay import HistoryEntry, Replay
from companion.ledger.state import TableState
from companion.rules.riichi.game import end_text, one_decimal, points_text
from companion.settlement import format_amount, signed_amount

COMMAND_LINE = "the command line"
"""Who a correction made by `companion table void|amend` without `--by` is stored as."""


def who_corrected(by: str) -> str:
    """Who made a correction, as the history says it."""
    if by == COMMAND_LINE:
        return "from the command line"
    return f"by {by}" if by else "no name given"


def history_line(players: Sequence[str], entry: HistoryEntry) -> str:
    stored = entry.stored
    body = stored.body
    head = f"#{stored.seq:<3}"
    if isinstance(body, Correction):
        stamp = stored.at.strftime("%Y-%m-%d %H:%M")
        what = correction_text(
            players, body, voids="voids #{}".format, amends="amends #{} to: {}".format
        )
        return f'{head} correction: {what} ({who_corrected(body.by)}, {stamp}: "{body.reason}")'
    where = f"hand {entry.hand}" if entry.hand is not None else "      "
    if entry.effective is not None and not entry.effective.is_hand:
        where = f"in hand {entry.hand}"
    text = outcome_text(players, body)
    if entry.status == "voided":
        text = f"[void, see #{entry.corrected_by}] {text}"
    elif entry.status == "amended" and entry.effective is not None:
        # The hand as amended, which its amounts are; what was entered first after it.
        shown = outcome_text(players, entry.effective)
        text = f"[amended by #{entry.corrected_by}] {shown} (entered as: {text})"
    state = entry.before
    context = f"{state.round.value} round, {players[state.dealer]} deals"
    if state.game is not None and state.game.hand is not None:
        context = state.game.hand.label
    line = f"{head} {where:<10} {context:<22} {text}"
    if entry.refused:
        line += f"\n{'':14}Counts nothing: {entry.refused}. Void or amend it."
    amounts = "  ".join(
        f"{name} {signed_amount(amount) if state.game is None else f'{int(amount):+,}'}"
        for name, amount in zip(players, entry.amounts, strict=True)
        if amount
    )
    if amounts:
        line += f"\n{'':14}{amounts}"
    for _, label, value in extras_shown(body.extras):
        line += f"\n{'':14}{label}: {value}"
    for warning in entry.warnings:
        line += f"\n{'':14}Note: {warning}"
    return line


def standings_text(replayed: Replay) -> str:
    state: TableState = replayed.state
    players = replayed.setup.players
    if state.game is not None:
        return _game_text(state, players)
    lines = []
    width = max(len(name) for name in players)
    for index, name in enumerate(players):
        dealer = "  (dealer)" if index == state.dealer else ""
        lines.append(
            f"  {name:<{width}}  {state.seat_wind(index).value}  "
            f"{signed_amount(state.totals[index]):>8}{dealer}"
        )
    table_points = state.table_points()
    if table_points is not None:
        return _table_points_text(state, players, table_points)
    planned = f" of {state.planned_hands}" if state.planned_hands is not None else ""
    streak = (
        f", dealer streak {state.streak}" if replayed.setup.engine_profile.dealer_streak else ""
    )
    if state.finished:
        status = f"All {state.planned_hands} hands played."
    else:
        status = (
            f"Next: hand {state.next_hand}{planned}, {state.round.english} round, "
            f"{players[state.dealer]} deals{streak}."
        )
    return f"Hands played: {state.hands}{planned}. {status}\n" + "\n".join(lines)


def _table_points_text(
    state: TableState, players: Sequence[str], table_points: Sequence[Fraction]
) -> str:
    """A table ranked by table points (mcr): each player's score and table points, by place;
    while the game is playing, the hand to play and the table points the present order would
    give."""
    width = max(len(name) for name in players)
    places = state.places()
    if state.finished:
        head = f"Game over: all {state.hands} hands played. Table points:"
    else:
        head = (
            f"Next: hand {state.next_hand} of {state.planned_hands}, {state.round.english} round "
            f"hand {state.passes % 4 + 1}, {players[state.dealer]} deals. Table points as it "
            "stands:"
        )
    lines = [head]
    for index in sorted(range(len(players)), key=lambda index: (places[index], index)):
        dealer = "  (dealer)" if index == state.dealer and not state.finished else ""
        lines.append(
            f"  {places[index]}. {players[index]:<{width}}  {state.seat_wind(index).value}  "
            f"{signed_amount(state.totals[index]):>6}  {format_amount(table_points[index]):>4}"
            f"{dealer}"
        )
    return "\n".join(lines)


def _game_text(state: TableState, players: Sequence[str]) -> str:
    """A points game's standings: points with thousands separators, each player's difference
    to first, the sticks and honba on the table, and at the end the final results."""
    game = state.game
    assert game is not None
    width = max(len(name) for name in players)
    lines = []
    if game.finished:
        lines.append(f"Game over: {end_text(game)}. Final results (uma and oka included):")
        for standing in game.results:
            lines.append(
                f"  {standing.place}. {standing.name:<{width}}  {points_text(standing.points):>8}"
                f"  {_signed_tenth(standing.result):>6}"
            )
        if game.deposits:
            lines.append(f"Leftover deposits {game.deposits:,} to first place.")
        return "\n".join(lines)
    hand = game.hand
    assert hand is not None
    lines.append(
        f"Next: {hand.label} ({players[game.dealer]} deals); on the table: "
        f"{_sticks(game.deposits // 1000)}, {game.honba} honba."
    )
    top = max(game.points)
    for index, name in enumerate(players):
        dealer = "  (dealer)" if index == game.dealer else ""
        behind = f"{game.points[index] - top:+,}" if game.points[index] != top else "first"
        lines.append(
            f"  {name:<{width}}  {game.seat_wind(index).value}  {game.points[index]:>8,}"
            f"  {behind:>8}{dealer}"
        )
    return "\n".join(lines)


def _sticks(count: int) -> str:
    return "1 riichi stick" if count == 1 else f"{count} riichi sticks"


def _signed_tenth(value: Any) -> str:
    shown = one_decimal(value)
    return shown if shown.startswith("-") else f"+{shown}"

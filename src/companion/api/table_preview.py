"""`POST /api/tables/{id}/preview`: who would pay whom, before a hand is recorded.

The body is exactly what `POST .../hands` takes (a win, a drawn hand or a payout, with
`expect_hand`); the answer is what that write would record, scored and settled by the same code
(`Ledger.preview`), and nothing is stored. The record form shows it above its Record button, so
the table sees the money before it counts.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from companion.api.deps import TableRequestError, WholeQuery, authorize_table, call, ledger_for
from companion.api.errors import refusal_fields
from companion.api.scoring import read_json
from companion.api.table_bodies import Recording, read_record
from companion.api.table_docs import RECORD_BODY, error_responses
from companion.ledger.entries import GameHand, Outcome, Payout, Win, outcome_text
from companion.ledger.replay import Replay, advance
from companion.ledger.settle import settle_up
from companion.ledger.state import add
from companion.settlement import amount_json, format_amount

router = APIRouter(prefix="/api/tables", tags=["tables"])


def transfers_of(players: tuple[str, ...], outcome: Outcome) -> list[dict[str, Any]]:
    """Who pays whom in one outcome: each winner's (or the payout's) own payments, settled
    payer by payer, so that two winners on one discard are paid separately."""
    parts = (
        [winner.payments for winner in outcome.winners]
        if isinstance(outcome, Win)
        else [outcome.payments]
        if isinstance(outcome, Payout)
        else []
    )
    found = []
    for payments in parts:
        for transfer in settle_up(payments):
            found.append(
                {
                    "from": players[transfer.payer],
                    "to": players[transfer.payee],
                    "amount": amount_json(transfer.amount),
                    "amount_text": format_amount(transfer.amount),
                }
            )
    return found


def game_moves(outcome: GameHand, replayed: Replay) -> dict[str, Any]:
    """A points game's hand as the table says it before Record: each winner's gain and who
    pays it ("Ann +7,700 from Ben, +1,000 deposit"), the riichi sticks put down, and every
    player's points after."""
    from companion.ledger.game_table import game_step
    from companion.rules.riichi.game import RIICHI_STICK, points_text

    players = replayed.setup.players
    state = replayed.state
    assert state.game is not None
    step = game_step(replayed.setup, state, outcome)
    riichi = [int(player) for player in outcome.game.get("riichi", ())]
    stick = [RIICHI_STICK if player in riichi else 0 for player in range(len(players))]
    deposit = state.game.deposits + RIICHI_STICK * len(riichi)
    gains = []
    discarder = outcome.game.get("discarder")
    for place, winner in enumerate(step.winners):
        taken = deposit if place == 0 else 0
        amount = step.changes[winner] + stick[winner] - taken
        # What each payer pays this winner: on a discard the discarder pays the whole gain
        # but the deposit; on a self-draw each other player their own share (a dealer's
        # larger), read off their move less the riichi stick they put down.
        shares = (
            [(int(discarder), amount - taken)]
            if discarder is not None
            else [
                (payer, -(step.changes[payer] + stick[payer]))
                for payer in range(len(players))
                if payer != winner
            ]
        )
        gains.append(
            {
                "name": players[winner],
                "amount": amount,
                "amount_text": points_text(amount),
                "from": [players[payer] for payer, _ in shares],
                "paid_by": [
                    {"name": players[payer], "amount": paid, "amount_text": points_text(paid)}
                    for payer, paid in shares
                ],
                "deposit": taken,
                "deposit_text": points_text(taken),
            }
        )
    return {
        "gains": gains,
        "sticks": [players[player] for player in riichi],
        "moves": [
            {"name": name, "amount": change, "amount_text": f"{change:+,}"}
            for name, change in zip(players, step.changes, strict=True)
            if change
        ],
        "points": dict(zip(players, step.after.points, strict=True)),
        "hand_label": None if step.hand is None else step.hand.label,
    }


def preview_json(outcome: Outcome, replayed: Replay) -> dict[str, Any]:
    players = replayed.setup.players
    state = replayed.state
    if isinstance(outcome, GameHand):
        after = advance(state, outcome, replayed.setup)
        return {
            "hand": state.next_hand,
            "text": outcome_text(players, outcome),
            "transfers": [],
            "amounts": {
                name: amount_json(amount)
                for name, amount in zip(players, outcome.payments, strict=True)
            },
            "totals": {
                name: amount_json(total) for name, total in zip(players, after.totals, strict=True)
            },
            "next_dealer": players[after.dealer],
            **game_moves(outcome, replayed),
        }
    after = advance(state, outcome, replayed.setup)
    totals = add(state.totals, outcome.payments)
    return {
        "hand": state.next_hand,
        "text": outcome_text(players, outcome),
        "transfers": transfers_of(players, outcome),
        "amounts": {
            name: amount_json(amount)
            for name, amount in zip(players, outcome.payments, strict=True)
        },
        "totals": {name: amount_json(total) for name, total in zip(players, totals, strict=True)},
        "next_dealer": players[after.dealer],
    }


@router.post(
    "/{table_id}/preview",
    summary="Who would pay whom: a hand scored but not recorded (needs the token)",
    description="The body of `POST .../hands`; the answer is what that write would record now "
    "(`transfers`: each payer, payee and amount; `amounts`; the new `totals`), and nothing is "
    "stored. An entry the write would refuse (a hand that is not a payable win, a stale "
    "`expect_hand`, a `key` used for another entry, a finished table) answers "
    '`{"recordable": false, "error", "status"}`, '
    "`status` being what the write would have answered. With `?amend=SEQ` (and `expect`, the "
    "entry's version as seen), what amending entry SEQ to this body would record: scored "
    "against the state before that entry, as the amendment is, with the totals right after it.",
    response_model=None,
    responses=error_responses(400, 401, 403, 404, 413, 415, 422, 503),
    openapi_extra=RECORD_BODY,
)
async def preview_hand(
    request: Request, table_id: str, amend: WholeQuery = None, expect: WholeQuery = None
) -> dict[str, Any]:
    ledger = await ledger_for(request)
    await authorize_table(request, ledger, table_id)
    record, body = read_record(await read_json(request), Recording)
    try:
        if amend is None:
            outcome, replayed = await call(
                ledger.preview, table_id, record, key=body.key, expect_hand=body.expect_hand
            )
        else:
            outcome, replayed = await call(
                ledger.preview_amend, table_id, amend, record, expect=expect
            )
    except TableRequestError as error:
        if error.http_status not in (409, 422):
            raise
        # Not recordable as it stands (a form half filled in, a hand that is not a win): an
        # answer about the entry, not a failed request.
        return {
            "recordable": False,
            "error": error.message,
            **refusal_fields(error),
            "status": error.http_status,
        }
    return {"recordable": True, **preview_json(outcome, replayed)}

"""A points game's table (`Profile.points_game`: riichi, and sanma at a table of three): what a
player enters made into a game outcome (`rules/riichi/game.py`) at its place in the record,
checked by the game, and the table's state moved by it.

A hand's points are never stored as the truth: the record keeps the outcome as the game reads
it (who won what, who declared riichi, who was tenpai), and replay plays the game again, so a
correction earlier in the record moves the honba, the deposits and the payments after it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from companion.errors import CompanionError, InvalidHandError, NotAWinError, TileParseError
from companion.ledger.entries import GameHand
from companion.ledger.errors import LedgerError, NotPayableWinError, TableFinishedError
from companion.ledger.records import (
    ChomboRecord,
    DrawRecord,
    PayoutRecord,
    Record,
    StopRecord,
    WinnerRecord,
    WinRecord,
)
from companion.ledger.state import TableSetup, TableState, add
from companion.rules.riichi.game import RIICHI_STICK, GameState, Step, advance
from companion.rules.riichi.options import RiichiOptions
from companion.rules.riichi.outcomes import (
    FU_VALUES,
    GameError,
    GameOverError,
    Winner,
    outcome_json,
    read_outcome,
)
from companion.rules.riichi.profile import RiichiProfile

RIICHI_CIRCUMSTANCES = ("riichi", "double_riichi")
"""A whole hand's circumstances (its `events`) that say its winner declared riichi."""


def build_game_hand(setup: TableSetup, state: TableState, record: Record) -> GameHand:
    """The outcome `record` records at a place whose state is `state`, checked by the game
    (refused with the game's message when it cannot happen there)."""
    game = state.game
    assert game is not None
    requests: tuple[tuple[int, Mapping[str, Any]], ...] = ()
    if isinstance(record, WinRecord):
        data, requests = _win_json(setup, game, record)
    elif isinstance(record, DrawRecord):
        data = _draw_json(setup, record)
    elif isinstance(record, ChomboRecord):
        data = {"kind": "chombo", "player": setup.player(record.player)}
    elif isinstance(record, StopRecord):
        data = {"kind": "stop"}
    else:
        assert isinstance(record, PayoutRecord)
        raise LedgerError(f"a {setup.profile} table has no instant payouts")
    try:
        outcome = read_outcome(setup.game, data)
        step = advance(game, outcome)
    except GameOverError as error:
        raise TableFinishedError(error.message) from None
    except GameError as error:
        raise LedgerError(error.message, key=error.key, params=error.params) from None
    label = "" if step.hand is None else step.hand.label
    payments = tuple(Fraction(change) for change in step.changes)
    return GameHand(outcome_json(outcome), requests, payments, label, tuple(step.calls))


def game_step(setup: TableSetup, state: TableState, hand: GameHand) -> Step:
    """The game's step for a recorded outcome at its place (`GameError` when a correction
    earlier in the record made it impossible there)."""
    assert state.game is not None
    return advance(state.game, read_outcome(setup.game, hand.game))


def advance_game(state: TableState, step: Step, is_hand: bool) -> TableState:
    """The table's state after a game step: the totals moved by its changes, the deal and the
    hands from the game."""
    after = step.after
    return replace(
        state,
        totals=add(state.totals, [Fraction(change) for change in step.changes]),
        hands=state.hands + (1 if is_hand else 0),
        passes=after.passes,
        game=after,
    )


def _names(setup: TableSetup, names: Sequence[str]) -> list[int]:
    return [setup.player(name) for name in names]


def _draw_json(setup: TableSetup, record: DrawRecord) -> dict[str, Any]:
    riichi = _names(setup, record.riichi)
    if record.abortive is not None:
        if record.tenpai or record.nagashi:
            raise LedgerError("an abortive draw has no tenpai players or nagashi mangan")
        return {"kind": "abortive_draw", "abortive": record.abortive, "riichi": riichi}
    return {
        "kind": "exhaustive_draw",
        "tenpai": _names(setup, record.tenpai),
        "riichi": riichi,
        "nagashi": _names(setup, record.nagashi),
    }


def _win_json(
    setup: TableSetup, game: GameState, record: WinRecord
) -> tuple[dict[str, Any], tuple[tuple[int, Mapping[str, Any]], ...]]:
    if not record.winners:
        raise LedgerError("name the winner")
    discarder = None if record.discarder is None else setup.player(record.discarder)
    liable = None if record.liable is None else setup.player(record.liable)
    riichi = _names(setup, record.riichi)
    winners: list[dict[str, Any]] = []
    requests: list[tuple[int, Mapping[str, Any]]] = []
    for given in record.winners:
        player = setup.player(given.name)
        if given.hand is not None:
            if given.value_given or given.tai is not None:
                raise LedgerError(
                    f"give {setup.players[player]}'s hand or its han and fu, one of the two"
                )
            request = _hand_request(setup, game, player, discarder, liable, riichi, given.hand)
            winner = _scored(setup, player, request, liable)
            requests.append((player, request))
            declared = any(name in RIICHI_CIRCUMSTANCES for name in request.get("events", ()))
            if declared and player not in riichi:
                riichi.append(player)
            winners.append(winner)
        else:
            winners.append(_valued(setup, given))
    if liable is not None:
        bearing = [winner for winner in winners if winner.get("yakuman")] or winners[:1]
        for winner in bearing:
            winner.setdefault("liable", liable)
    data: dict[str, Any] = {"kind": "win", "winners": winners, "riichi": riichi}
    if discarder is not None:
        data["discarder"] = discarder
    return data, tuple(requests)


def _valued(setup: TableSetup, given: WinnerRecord) -> dict[str, Any]:
    name = setup.players[setup.player(given.name)]
    if given.tai is not None:
        raise LedgerError(
            f"a {setup.profile} table counts {name}'s hand in han and fu (or yakuman, or a "
            "limit), not tai"
        )
    if not given.value_given:
        raise LedgerError(f"give {name}'s han and fu, yakuman, a limit or the whole hand")
    winner: dict[str, Any] = {"player": setup.player(given.name)}
    for field in ("han", "fu", "yakuman", "limit"):
        value = getattr(given, field)
        if value is not None:
            winner[field] = value
    return winner


def _hand_request(
    setup: TableSetup,
    game: GameState,
    player: int,
    discarder: int | None,
    liable: int | None,
    riichi: Sequence[int],
    hand: Mapping[str, Any],
) -> dict[str, Any]:
    """The scoring request of a whole hand, with what the table knows filled in: seat and
    round winds, how it was won, the honba and the sticks on the table, the options."""
    if not isinstance(hand, Mapping):
        raise LedgerError("a hand must be a JSON object: a scoring request")
    request = {
        key: value
        for key, value in hand.items()
        if key not in ("profile", "seat", "round", "win", "discarder", "dealer", "dealer_streak")
    }
    declared = len(set(riichi)) + (
        player not in riichi
        and any(name in RIICHI_CIRCUMSTANCES for name in request.get("events", ()) or ())
    )
    request.update(
        seat=game.seat_wind(player).value,
        round=game.round.value,
        win="self_draw" if discarder is None else "discard",
        honba=game.honba,
        riichi_sticks=game.deposits // RIICHI_STICK + declared,
        options=dict(setup.options),
    )
    if discarder is not None:
        request["discarder"] = game.seat_wind(discarder).value
    if liable is not None:
        request["liable"] = game.seat_wind(liable).value
    return request


def _scored(
    setup: TableSetup, player: int, request: Mapping[str, Any], liable: int | None
) -> dict[str, Any]:
    """A whole hand scored by the engine: its han and fu, or its yakuman, as the game takes
    them."""
    name = setup.players[player]
    profile = setup.engine_profile
    assert isinstance(profile, RiichiProfile)
    try:
        result = profile.score_fields(**profile.read_fields(request))
    except (NotAWinError, InvalidHandError, TileParseError) as refusal:
        raise NotPayableWinError(
            f"{name}'s hand is not a win: {refusal.message}",
            key=refusal.key,
            params=refusal.params,
        ) from None
    except CompanionError as refusal:
        raise LedgerError(
            f"{name}'s hand: {refusal.message}", key=refusal.key, params=refusal.params
        ) from None
    options = setup.engine_options
    assert isinstance(options, RiichiOptions)
    winner = Winner.from_result(player, result, liable, options.liable_yakuman)
    data: dict[str, Any] = {"player": player}
    if winner.yakuman:
        data["yakuman"] = winner.yakuman
        if liable is not None:
            data["liable"] = liable
            if winner.liable_yakuman:
                data["liable_yakuman"] = winner.liable_yakuman
    else:
        data["han"] = winner.han
        if winner.han < 5 or winner.fu in FU_VALUES:
            data["fu"] = winner.fu
    return data

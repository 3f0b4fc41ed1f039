"""Building a win (or a drawn hand, or an instant payout) from a player's record: scored by
the engine, or settled by the profile from agreed tai, against the state at its place in the
record."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.context import WinContext, WinType
from companion.errors import InvalidRequestError, NotAWinError
from companion.ledger.entries import Draw, Outcome, Payout, Stop, Win, WinnerScore
from companion.ledger.errors import LedgerError, NotPayableWinError
from companion.ledger.records import (
    ChomboRecord,
    DrawRecord,
    PayoutRecord,
    Record,
    StopRecord,
    WinRecord,
)
from companion.ledger.state import TableSetup, TableState
from companion.payouts import explain_payout, payout_options
from companion.request import FIELDS as REQUEST_FIELDS
from companion.rules.options import Options
from companion.rules.profile import AnyProfile
from companion.scoring import check_one_discard, score
from companion.settlement import Payments
from companion.tiles import Wind

MAX_FLOWERS = 8
"""Four flowers and four seasons."""

# ---------------------------------------------------------------------------------------------
# Scoring a record against the state at its place in the record


def build_outcome(setup: TableSetup, state: TableState, record: Record) -> Outcome:
    """The outcome a record records at a place whose state is `state`: scored by the engine or
    settled by the profile, refused (`CompanionError`) when it is not a payable record. It
    keeps the record's extras whole, whatever its kind."""
    return replace(_built(setup, state, record), extras=record.extras)


def _built(setup: TableSetup, state: TableState, record: Record) -> Outcome:
    if setup.points_game:
        from companion.ledger.game_table import build_game_hand

        return build_game_hand(setup, state, record)
    if isinstance(record, StopRecord):
        return build_stop(setup, state)
    if isinstance(record, ChomboRecord):
        raise LedgerError(
            f"a {setup.profile} table has no {record.kind}: only a points game (riichi) has"
        )
    if isinstance(record, DrawRecord):
        if not record.says_nothing:
            raise LedgerError(
                f"a {setup.profile} table's drawn hand has nothing to say: tenpai, riichi "
                "and abortive draws are a points game's (riichi)"
            )
        return Draw()
    if isinstance(record, PayoutRecord):
        return build_payout(setup, state, record)
    return build_win(setup, state, record)


def build_stop(setup: TableSetup, state: TableState) -> Stop:
    """A money table's stop: the session ends after the hands played, which must be some. A
    game of fixed length (`Profile.game_hands`: MCR) ends when its hands are played."""
    profile = setup.engine_profile
    if not setup.stops_as_session:
        assert profile.game_hands is not None  # a points game's stop is the game's own
        raise LedgerError(
            f"a {profile.id} game is {profile.game_hands} hands: it ends when they are all "
            "played, and is not stopped",
            key="refusal.stop_fixed_game",
            params={"profile": profile.id, "hands": profile.game_hands},
        )
    if state.hands == 0:
        raise LedgerError(
            "nothing was played at this table: a table is stopped after at least one hand",
            key="refusal.stop_nothing_played",
        )
    return Stop()


def build_win(setup: TableSetup, state: TableState, record: WinRecord) -> Win:
    profile = setup.engine_profile
    options = setup.engine_options
    if not record.winners:
        raise LedgerError("name the winner")
    winners = [setup.player(winner.name) for winner in record.winners]
    if len(set(winners)) != len(winners):
        raise LedgerError("each winner can be named only once")
    discarder = None if record.discarder is None else setup.player(record.discarder)
    liable = None if record.liable is None else setup.player(record.liable)
    if len(winners) > 1:
        if not profile.several_winners:
            raise LedgerError(f"the {profile.id} profile has one winner per hand")
        if discarder is None:
            raise LedgerError("several winners share one discard: name the discarder (--from)")
    if discarder is not None and discarder in winners:
        raise LedgerError(f"{setup.players[discarder]} cannot win on their own discard")
    if record.riichi or any(winner.value_given for winner in record.winners):
        raise LedgerError(
            f"a {profile.id} table counts a hand in {profile.unit}: han, fu and riichi are a "
            "points game's (riichi)"
        )
    parts = []
    for player, winner in zip(winners, record.winners, strict=True):
        context = WinContext(
            win=WinType.SELF_DRAW if discarder is None else WinType.DISCARD,
            seat=state.seat_wind(player),
            round=state.round,
            discarder=None if discarder is None else state.seat_wind(discarder),
            dealer=Wind.EAST,
            dealer_streak=state.streak,
            liable=None if liable is None else state.seat_wind(liable),
        )
        name = setup.players[player]
        if (winner.tai is None) == (winner.hand is None):
            raise LedgerError(f"give {name}'s agreed tai or the winning hand, one of the two")
        if winner.flowers is not None and winner.tai is None:
            raise LedgerError(f"{name}'s flowers go with agreed {profile.unit}; a hand has its own")
        if winner.tai is not None:
            parts.append(
                _quick_win(profile, options, state, player, winner.tai, context, winner.flowers)
            )
        else:
            assert winner.hand is not None
            parts.append(_hand_win(setup, state, player, winner.hand, context))
    requests = [part.request for part in parts if part.request is not None]
    try:
        check_one_discard(requests)
    except NotAWinError as refusal:
        raise NotPayableWinError(refusal.message, key=refusal.key, params=refusal.params) from None
    return Win(
        tuple(parts), discarder, liable, state.dealer, state.streak, state.round, profile.unit
    )


def quick_payments(
    profile: AnyProfile, options: Options, tai: int, context: WinContext, flowers: int = 0
) -> Payments:
    """The settlement of agreed tai (and flowers, where the profile takes them): the profile's
    own rules, refusing what the engine would."""
    if flowers and not profile.agreed_flowers(options):
        raise LedgerError(
            f"this {profile.id} table plays no flowers"
            + (" (option flowers is off)" if hasattr(options, "flowers") else "")
        )
    try:
        value = profile.agreed_value(tai, options)
        if flowers:
            if not 0 < flowers <= MAX_FLOWERS:
                raise LedgerError(
                    f"a hand holds 0 to {MAX_FLOWERS} flowers and seasons, not {flowers}"
                )
            # Flowers never count toward the minimum: the count without them met it above.
            value = profile.agreed_value(tai + flowers, options)
    except InvalidRequestError as refusal:
        raise LedgerError(refusal.message, key=refusal.key, params=refusal.params) from None
    profile.check_context(context, options)
    # An agreed count has no patterns behind it: none is left out of the minimum.
    short = profile.under_minimum(value, (), options)
    if short is not None:
        raise NotPayableWinError(
            f"{short.note}: a hand under the minimum pays nothing and is not recorded as a win",
            key=short.key,
            params=short.params,
        )
    return profile.settle(value, context, options)


def _quick_win(
    profile: AnyProfile,
    options: Options,
    state: TableState,
    player: int,
    tai: int,
    context: WinContext,
    flowers: int | None = None,
) -> WinnerScore:
    payments = quick_payments(profile, options, tai, context, flowers or 0)
    return WinnerScore(
        player,
        tai + (flowers or 0),
        state.amounts(payments),
        profile.dealer_tai(context),
        flowers=flowers or 0,
    )


def hand_request(setup: TableSetup, hand: Mapping[str, Any], context: WinContext) -> dict[str, Any]:
    """The scoring request of a full-hand record: the file's tiles and circumstances, with
    everything the table knows (profile, seats, round, dealer, streak, options, liable) filled
    in."""
    if not isinstance(hand, Mapping):
        raise InvalidRequestError("a hand must be a JSON object: a scoring request")
    unknown = sorted(str(key) for key in hand if key not in REQUEST_FIELDS)
    if unknown:
        raise InvalidRequestError(f"unknown field {', '.join(map(repr, unknown))} in the hand")
    request = dict(hand)
    request.update(
        profile=setup.profile,
        win=context.win.value,
        seat=context.seat.value,
        round=context.round.value,
        options=dict(setup.options),
    )
    if setup.engine_profile.names_dealer:
        request.update(dealer=context.dealer.value, dealer_streak=context.dealer_streak)
    else:
        for name in ("dealer", "dealer_streak"):
            request.pop(name, None)
    for name, wind in (("discarder", context.discarder), ("liable", context.liable)):
        if wind is None:
            request.pop(name, None)
        else:
            request[name] = wind.value
    return request


def _hand_win(
    setup: TableSetup,
    state: TableState,
    player: int,
    hand: Mapping[str, Any],
    context: WinContext,
) -> WinnerScore:
    request = hand_request(setup, hand, context)
    result = score(request)
    name = setup.players[player]
    if not result.valid:
        raise NotPayableWinError(
            f"{name}'s hand is not a win: {result.error}",
            key=result.error_key,
            params=result.error_params,
        )
    short = result.short_of_minimum
    if short is not None:
        raise NotPayableWinError(
            f"{name}'s hand is under the table's minimum ({short.note}): a hand under the "
            "minimum pays nothing and is not recorded as a win",
            key=short.key,
            params=short.params,
        )
    if not result.meets_minimum:
        # A profile that reads its own requests says only that the hand falls short.
        raise NotPayableWinError(
            f"{name}'s hand does not meet the table's minimum ({result.tai} {result.unit} in "
            "all): a hand under the minimum pays nothing and is not recorded as a win"
        )
    return WinnerScore(
        player=player,
        tai=result.tai,
        payments=state.amounts(result.payments),
        dealer_tai=result.dealer_tai,
        request=request,
        patterns=tuple((pattern.name, pattern.tai) for pattern in result.patterns),
        hand_notes=result.notes,
    )


def build_payout(setup: TableSetup, state: TableState, record: PayoutRecord) -> Payout:
    options = payout_options(setup.profile, setup.options)
    player = setup.player(record.player)
    result = explain_payout(options, record.event, state.seat_wind(player), record.at_start)
    return Payout(
        player=player,
        event=result.event.value,
        at_start=record.at_start,
        payments=state.amounts(result.payments),
        label=result.event.label,
        payout_notes=result.payout_notes,
    )

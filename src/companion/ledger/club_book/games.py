"""A finished table's record read into a `ClubGame`: when it finished, each player's place and
result in the profile's unit, and what each hand says of its players (docs/clubs.md, *What a
game counts*).

A game counts once it is over: a riichi game at its end (`GameState.finished`, a dealer's stop
included), an MCR game after its hands, a money game when it is stopped (`entries.Stop`) or its
planned hands or rounds are played. Its time is the time of the entry that ended it.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from fractions import Fraction
from typing import Any

from companion.clubs.stats import ClubGame, HandFacts
from companion.ledger.entries import GameHand, Outcome, Win
from companion.ledger.replay import Replay
from companion.ledger.state import TableState
from companion.rules import get_profile


def family_of(profile: str) -> str:
    """The profile family whose games are rated together: a profile built from another (sanma
    from riichi) is of that one's family."""
    found = get_profile(profile)
    return found.family or found.id


def club_game(table_id: str, replayed: Replay) -> ClubGame | None:
    """The table's game, players by their names at the table, or None while it is not over."""
    state = replayed.state
    if not state.finished or state.hands == 0:
        # No hand counted: a money table stopped whose hands were all voided since plays no
        # game (a stop needs a hand when it is recorded, docs/ledger.md).
        return None
    finished_at = _finished_at(replayed)
    if finished_at is None:
        return None
    places, results = _places_and_results(state)
    hands = tuple(
        facts
        for entry in replayed.entries
        if entry.effective is not None and not entry.refused
        for facts in [_hand_facts(entry.effective, entry.amounts)]
        if facts is not None
    )
    setup = replayed.setup
    return ClubGame(
        table_id=table_id,
        name=setup.name,
        finished_at=finished_at,
        profile=setup.profile,
        family=family_of(setup.profile),
        players=setup.players,
        places=places,
        results=results,
        hands=hands,
    )


def _finished_at(replayed: Replay) -> datetime | None:
    """When the entry that first left the table finished was recorded."""
    for entry in replayed.entries:
        if entry.effective is not None and entry.after.finished:
            return entry.stored.at
    return None


def _places_and_results(state: TableState) -> tuple[tuple[int, ...], tuple[Fraction, ...]]:
    """Each seat's place and result: a riichi game's final standings (uma and oka in them), an
    MCR game's table points with the places its totals give, a money game's net."""
    game = state.game
    if game is not None:
        by_seat = {standing.player: standing for standing in game.results}
        seats = range(len(state.players))
        return (
            tuple(by_seat[seat].place for seat in seats),
            tuple(by_seat[seat].result for seat in seats),
        )
    shared = state.table_points()
    return state.places(), state.totals if shared is None else shared


def _hand_facts(outcome: Outcome, amounts: tuple[Fraction, ...]) -> HandFacts | None:
    """What a hand says of its players, or None for what is not a hand played (an instant
    payout, a riichi chombo or stop)."""
    if isinstance(outcome, GameHand):
        game = outcome.game
        if outcome.game_kind in ("chombo", "stop"):
            return None
        winners = tuple(_winner_json(game))
        discarder = game.get("discarder") if winners else None
        return HandFacts(
            winners=tuple(int(winner["player"]) for winner in winners),
            discarder=None if discarder is None else int(discarder),
            riichi=tuple(int(player) for player in game.get("riichi", ())),
            counts=tuple(_han(winner) for winner in winners),
            gains=tuple(amounts),
        )
    if not outcome.is_hand:
        return None
    if isinstance(outcome, Win):
        return HandFacts(
            winners=tuple(winner.player for winner in outcome.winners),
            discarder=outcome.discarder,
            riichi=(),
            counts=tuple(winner.tai for winner in outcome.winners),
            gains=tuple(amounts),
        )
    return HandFacts(winners=(), discarder=None, riichi=(), counts=(), gains=tuple(amounts))


def _winner_json(game: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return list(game.get("winners", ())) if game.get("kind") == "win" else []


YAKUMAN_HAN = 13
"""A yakuman counted as han for a win's average (the count at which a hand is a yakuman)."""


def _han(winner: Mapping[str, Any]) -> int:
    if winner.get("yakuman"):
        return YAKUMAN_HAN * int(winner["yakuman"])
    return int(winner.get("han") or 0)

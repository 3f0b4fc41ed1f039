"""What a table's pages show, built from a replay of its record: the scoreboard, the chart, the
settle-up, the board's state for the page's script, and the record form's choices as the
profile declares them; one page of the history is `table_history`'s. Kept per replay
(`VIEWS`), so a board many phones reload is built once.
"""

from __future__ import annotations

import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar

from companion.api.deps import table_key
from companion.api.profiles import all_profiles
from companion.ledger.replay import Replay
from companion.ledger.settle import settle_up
from companion.ledger.state import TableState
from companion.payouts import PayoutKind
from companion.rules.riichi.game import GameState, points_text
from companion.settlement import format_amount, signed_amount
from companion.tiles import Wind
from companion.web import i18n
from companion.web.table_chart import chart
from companion.web.table_history import (
    hand_label,
    history_page,
    sign_class,
    signed_points,
    wind_name,
)

SEAT_TILES = {"E": "1z", "S": "2z", "W": "3z", "N": "4z"}
"""The wind tile drawn beside each player's seat."""
UNCAPPED_TAI_BUTTONS = 10
"""How many quick tai buttons a profile without a cap (`tw`) gets; an input takes the rest."""
PAYOUT_KINDS = tuple(kind.value for kind in PayoutKind)

T = TypeVar("T")


class ReplayViews:
    """What the pages derive from one replay (the chart, the rendered board), kept while that
    replay is the table's latest: the ledger hands out the same `Replay` object until the record
    changes, so a page that many clients reload is built once, not once per request. Bounded,
    least recently used out; thread-safe (the pages are built in the thread pool)."""

    def __init__(self, size: int = 32) -> None:
        self.size = size
        self._items: OrderedDict[tuple[Hashable, ...], tuple[Replay, Any]] = OrderedDict()
        self._lock = threading.Lock()
        self._building: dict[tuple[Hashable, ...], threading.Lock] = {}

    def get(self, replayed: Replay, key: tuple[Hashable, ...], make: Callable[[], T]) -> T:
        # The entry holds the replay itself, so its id cannot be reused while it is kept.
        full = (id(replayed), *key)
        found = self._found(replayed, full)
        if found is not None:
            hit: T = found[0]
            return hit
        # Every phone at a table asks for the same new board the moment a hand is recorded:
        # one of them builds it, the others wait for it rather than each building it again.
        with self._lock:
            building = self._building.setdefault(full, threading.Lock())
        with building:
            found = self._found(replayed, full)
            if found is not None:
                built: T = found[0]
                return built
            value = make()
            with self._lock:
                self._items[full] = (replayed, value)
                self._building.pop(full, None)
                while len(self._items) > self.size:
                    self._items.popitem(last=False)
        return value

    def _found(self, replayed: Replay, full: tuple[Hashable, ...]) -> tuple[Any] | None:
        with self._lock:
            found = self._items.get(full)
            if found is not None and found[0] is replayed:
                self._items.move_to_end(full)
                return (found[1],)
        return None


VIEWS = ReplayViews()


@dataclass(frozen=True)
class PlayerView:
    index: int
    name: str
    seat: str
    seat_tile: str
    total: str
    sign: str
    dealer: bool
    behind: str = ""
    """A points game: the difference to first place ("-15,400"); "" for first."""
    final: str = ""
    """A points game at its end: the final result with one decimal ("+23.1")."""
    place: int = 0


NARROW_BUTTON_WORD = 7
"""The longest word (in narrow letters; a Chinese character counts two) that a player's button
holds when four share a phone's row: a longer one gets two buttons a row (`long-names`)."""
ORDINAL_LAPS = 9
"""Laps up to this one are named in words ("second lap"); later ones by number ("lap 10")."""


def word_width(word: str) -> int:
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in word)


def names_class(players: tuple[str, ...]) -> str:
    """`long-names` when a name has a word too long for a quarter of a phone's row."""
    longest = max(word_width(word) for name in players for word in name.split())
    return "long-names" if longest > NARROW_BUTTON_WORD else ""


def round_label(t: i18n.Translator, state: TableState) -> str:
    """ "East round", and after the four wind rounds which lap it is: "North round, second lap"
    (a lap is the four rounds East to North; the round wind alone repeats every lap)."""
    wind = wind_name(t, state.round)
    lap = state.rounds_played // len(Wind) + 1
    if lap == 1:
        return t("table.round", wind=wind)
    if lap <= ORDINAL_LAPS:
        return t("table.round_lap", wind=wind, nth=t(f"table.nth.{lap}"))
    return t("table.round_lap_n", wind=wind, n=lap)


def _signed_tenth(value: Fraction) -> str:
    from companion.rules.riichi.game import one_decimal

    text = one_decimal(value)
    return text if text.startswith("-") else f"+{text}"


def game_players(t: i18n.Translator, replayed: Replay, game: GameState) -> list[PlayerView]:
    """A points game's scoreboard: points with thousands separators, the difference to first,
    and at the end each player's place and final result."""
    state = replayed.state
    top = max(game.points)
    results = {standing.player: standing for standing in game.results} if game.finished else {}
    views = []
    for index, name in enumerate(replayed.setup.players):
        points = game.points[index]
        standing = results.get(index)
        views.append(
            PlayerView(
                index,
                name,
                state.seat_wind(index).value,
                SEAT_TILES[state.seat_wind(index).value],
                points_text(points),
                "minus" if points < 0 else "",
                index == state.dealer and not game.finished,
                behind="" if points == top else signed_points(Fraction(points - top)),
                final="" if standing is None else _signed_tenth(standing.result),
                place=0 if standing is None else standing.place,
            )
        )
    return views


def _state_json(replayed: Replay) -> dict[str, Any]:
    state: TableState = replayed.state
    game = state.game
    extra: dict[str, Any] = {}
    if game is not None:
        hand = game.hand
        extra = {
            "points_game": True,
            "points": list(game.points),
            "deposits": game.deposits,
            "honba": game.honba,
            "hand_label": None if hand is None else hand.label,
        }
    return {
        **extra,
        "players": [
            {"name": name, "seat": state.seat_wind(index).value}
            for index, name in enumerate(replayed.setup.players)
        ],
        "round": state.round.value,
        "dealer": state.dealer,
        "dealer_streak": state.streak,
        "hands": state.hands,
        "next_hand": state.next_hand,
        "planned_hands": state.planned_hands,
        "planned_rounds": state.planned_rounds,
        "finished": state.finished,
        "stopped": state.stopped,
        "entries": len(replayed.entries),
    }


def table_translator(lang: str, replayed: Replay) -> i18n.Translator:
    """The table's words: in faan (番) at an `hk` table, in tai (台) elsewhere."""
    return i18n.Translator(lang, replayed.setup.engine_profile.unit)


def table_points_context(t: i18n.Translator, replayed: Replay) -> dict[str, Any]:
    """A table ranked by table points (`Profile.table_points`: mcr): at the end of its game the
    places, scores and table points, first place first (players tied share a place)."""
    state = replayed.state
    shared = state.table_points()
    if shared is None:
        return {"table_points": False}
    places = state.places()
    players = replayed.setup.players
    order = sorted(range(len(players)), key=lambda index: (places[index], index))
    return {
        "table_points": True,
        "table_points_results": [
            (
                places[index],
                players[index],
                signed_amount(state.totals[index]),
                format_amount(shared[index]),
            )
            for index in order
        ]
        if state.finished
        else [],
    }


def board_context(
    lang: str, table_id: str, replayed: Replay, before: int | None = None
) -> dict[str, Any]:
    """What the scoreboard, chart, settle-up and one page of the history need."""
    t = table_translator(lang, replayed)
    setup, state = replayed.setup, replayed.state
    players = setup.players
    transfers = [
        (players[transfer.payer], players[transfer.payee], format_amount(transfer.amount))
        for transfer in settle_up(state.settle_totals)
    ]
    game = state.game
    fixed_length = setup.engine_profile.game_hands is not None
    # Over: no deal to come, so no round or dealer to show (an MCR game played, a table stopped).
    game_over = state.finished and (fixed_length or state.stopped)
    points_game: dict[str, Any] = {"points_game": game is not None}
    if game is not None:
        points_game.update(
            game=game,
            game_label=None if game.hand is None else hand_label(t, game.hand),
            sticks=game.deposits // 1000,
            sticks_points=points_text(game.deposits),
            results=[
                (standing, _signed_tenth(standing.result), points_text(standing.points))
                for standing in game.results
            ]
            if game.finished
            else [],
        )
    return {
        **points_game,
        **table_points_context(t, replayed),
        "game_over": game_over,
        "table_id": table_key(table_id),
        "profile_id": setup.profile,
        "players": game_players(t, replayed, game)
        if game is not None
        else [
            PlayerView(
                index,
                name,
                state.seat_wind(index).value,
                SEAT_TILES[state.seat_wind(index).value],
                signed_amount(state.totals[index]),
                sign_class(state.totals[index]),
                index == state.dealer and not game_over,
            )
            for index, name in enumerate(players)
        ],
        "round_name": wind_name(t, state.round),
        "round_label": round_label(t, state)
        if not setup.engine_profile.deal_passes
        else t("table.round_hand", round=round_label(t, state), n=state.passes % 4 + 1),
        "state": state,
        "dealer_name": players[state.dealer],
        "show_streak": setup.engine_profile.dealer_streak or state.streak > 0,
        "chart": VIEWS.get(replayed, ("chart", lang), lambda: chart(t, replayed)),
        "transfers": transfers,
        "board_state": _state_json(replayed),
        **history_page(t, replayed, before),
    }


def record_context(lang: str, replayed: Replay) -> dict[str, Any]:
    """What the record form needs: quick tai choices, payouts, the profile's circumstances and
    fields, and whether several players may win on one discard: as the profile declares them."""
    t = table_translator(lang, replayed)
    setup = replayed.setup
    profile = setup.engine_profile
    options = setup.engine_options
    # A points game counts a hand in han and fu: no agreed tai.
    cap, limits = (0, ()) if profile.points_game else profile.agreed_counts(options)
    low = max(0, profile.agreed_minimum(options))
    if profile.points_game:
        tai_choices: list[int] = []
    elif cap is None:
        tai_choices = list(range(low, low + UNCAPPED_TAI_BUTTONS))
    else:
        tai_choices = [*range(low, cap + 1), *sorted(limit for limit in limits if limit > cap)]
    info = next(item for item in all_profiles() if item["id"] == setup.profile)
    kinds = [("win", t("table.kind.win")), ("draw", t("table.kind.draw"))]
    if profile.points_game:
        kinds.append(("chombo", t("table.kind.chombo")))
    payouts = profile.instant_payouts
    if payouts:
        kinds.append(("payout", t("table.kind.payout")))
    return {
        "tai_pairs": [(str(tai), str(tai)) for tai in tai_choices],
        "player_choices": [(str(index), name) for index, name in enumerate(setup.players)],
        "names_class": names_class(setup.players),
        "tai_other": cap is None,
        "kinds": kinds,
        "payout_events": [(kind, t(f"payout.{kind}")) for kind in PAYOUT_KINDS] if payouts else [],
        "liable": "liable" in info["fields"],
        "several_winners": profile.several_winners,
        "can_stop": setup.stops_as_session,
        "agreed_flowers": profile.agreed_flowers(options),
        "table_discards": "table_discards" in info["fields"],
        "profile_events": [(event, t.get(f"event.{event}", event)) for event in info["events"]],
        "profile_info": info,
        "han_pairs": [(str(han), str(han)) for han in range(1, 14)]
        + [("Y", t("table.value.yakuman", n=1))],
        "fu_pairs": [(str(fu), str(fu)) for fu in (20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110)],
    }

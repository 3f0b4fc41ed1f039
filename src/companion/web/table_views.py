"""What a table's pages show, built from a replay of its record: the scoreboard, one page of
the history (each event's line, amounts, badges and what Amend prefills), the chart, the
settle-up, the board's state for the page's script, and the record form's choices as the
profile declares them. Kept per replay (`VIEWS`), so a board many phones reload is built once.
"""

from __future__ import annotations

import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from fractions import Fraction
from typing import Any, TypeVar

from companion.api.deps import table_key
from companion.api.profiles import all_profiles
from companion.ledger.entries import (
    Correction,
    Draw,
    GameHand,
    Outcome,
    Payout,
    Win,
    correction_text,
)
from companion.ledger.records import extras_shown
from companion.ledger.replay import HistoryEntry, Replay
from companion.ledger.settle import settle_up
from companion.ledger.state import TableState
from companion.payouts import PayoutKind
from companion.rules.riichi.game import GameState, HandLabel, points_text
from companion.settlement import format_amount, signed_amount
from companion.tiles import Wind
from companion.web import i18n
from companion.web.table_chart import chart

SEAT_TILES = {"E": "1z", "S": "2z", "W": "3z", "N": "4z"}
"""The wind tile drawn beside each player's seat."""
UNCAPPED_TAI_BUTTONS = 10
"""How many quick tai buttons a profile without a cap (`tw`) gets; an input takes the rest."""
PAYOUT_KINDS = tuple(kind.value for kind in PayoutKind)
HISTORY_PAGE = 50
"""Events per page of a table's history (newest first; an "older" link shows the next)."""

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


@dataclass(frozen=True)
class AmountView:
    name: str
    text: str
    sign: str


@dataclass(frozen=True)
class EventView:
    seq: int
    kind: str
    status: str
    correction: bool
    at: str
    time: str
    context: str
    text: str
    amounts: tuple[AmountView, ...]
    badge: str = ""
    reason: str = ""
    extras: tuple[tuple[str, str], ...] = ()
    """What the record carried besides its kind's fields (`records.Extras`): each given one's
    label, in the page's language where it has words of its own, and its value."""
    warnings: tuple[str, ...] = ()
    """The history line's warnings, in the page's language (a win a correction made stale)."""
    can_void: bool = False
    can_amend: bool = False
    prefill: dict[str, str] = field(default_factory=dict)
    version: int = 0
    what: str = ""
    """What players call it ("hand 17"), for Amend's and Void's titles: players count hands,
    the event number (`seq`) is the history's audit detail."""


def sign_class(amount: Fraction) -> str:
    return "plus" if amount > 0 else "minus" if amount < 0 else ""


def wind_name(t: i18n.Translator, wind: Wind) -> str:
    return t(f"wind.{wind.value}")


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


def hand_label(t: i18n.Translator, label: HandLabel) -> str:
    """ "East 3, 2 honba" in the page's language."""
    return t("table.hand_label", wind=wind_name(t, label.round), n=label.number, honba=label.honba)


def value_text(t: i18n.Translator, winner: dict[str, Any]) -> str:
    """A points game's winner's value: "3 han 30 fu", "mangan", "yakuman"."""
    yakuman = int(winner.get("yakuman") or 0)
    if yakuman:
        return t("table.value.yakuman", n=yakuman)
    if winner.get("limit"):
        return t.get(f"table.limit.{winner['limit']}", str(winner["limit"]))
    if winner.get("fu"):
        return t("table.value.han_fu", han=winner.get("han", 0), fu=winner["fu"])
    return t("table.value.han", han=winner.get("han", 0))


def game_text(t: i18n.Translator, players: tuple[str, ...], hand: GameHand) -> str:
    """A points game's outcome in the page's language."""
    game = hand.game

    def names(key: str) -> str:
        return t("table.ev.list_sep").join(players[int(player)] for player in game.get(key, ()))

    kind = hand.game_kind
    if kind == "win":
        parts = []
        discarder = game.get("discarder")
        for winner in game["winners"]:
            fields = {"winner": players[int(winner["player"])], "value": value_text(t, winner)}
            if discarder is None:
                parts.append(t("table.ev.game_win_self", **fields))
            else:
                parts.append(
                    t("table.ev.game_win_from", discarder=players[int(discarder)], **fields)
                )
            if winner.get("liable") is not None:
                parts[-1] += " " + t("table.ev.liable", name=players[int(winner["liable"])])
        text = t("table.ev.and").join(parts)
    elif kind == "exhaustive_draw":
        text = (
            t("table.ev.exhaustive", names=names("tenpai"))
            if game.get("tenpai")
            else t("table.ev.exhaustive_none")
        )
        if game.get("nagashi"):
            text += " · " + t("table.ev.nagashi", names=names("nagashi"))
    elif kind == "abortive_draw":
        text = t("table.ev.abortive")
    elif kind == "chombo":
        return t("table.ev.chombo", name=players[int(game["player"])])
    else:
        return t("table.ev.stop")
    if game.get("riichi"):
        text += " · " + t("table.ev.riichi", names=names("riichi"))
    return text


def outcome_text(t: i18n.Translator, players: tuple[str, ...], outcome: Outcome) -> str:
    """One line for a person, in the page's language."""
    if isinstance(outcome, GameHand):
        return game_text(t, players, outcome)
    if isinstance(outcome, Draw):
        return t("table.ev.draw")
    if isinstance(outcome, Payout):
        what = t.get(f"payout.{outcome.event}", outcome.label or outcome.event)
        text = t("table.ev.payout", player=players[outcome.player], event=what)
        return f"{text} {t('table.ev.at_start')}" if outcome.at_start else text
    assert isinstance(outcome, Win)
    parts = []
    for winner in outcome.winners:
        name = players[winner.player]
        if outcome.discarder is None:
            part = t("table.ev.win_self", winner=name, tai=winner.tai)
        else:
            discarder = players[outcome.discarder]
            part = t("table.ev.win_from", winner=name, tai=winner.tai, discarder=discarder)
        if winner.dealer_tai:
            part += " " + t("table.ev.dealer_tai", n=winner.dealer_tai)
        if winner.flowers:
            part += " " + t("table.ev.flowers", n=winner.flowers)
        if winner.request is not None:
            part += " " + t("table.ev.full_hand")
        parts.append(part)
    text = t("table.ev.and").join(parts)
    if outcome.liable is not None:
        text += " " + t("table.ev.liable", name=players[outcome.liable])
    return text


def _prefill(outcome: Outcome | None) -> dict[str, str]:
    """What the record form starts from when this event is amended."""
    if isinstance(outcome, Win) and len(outcome.winners) == 1:
        winner = outcome.winners[0]
        return {
            "kind": "win",
            "winner": str(winner.player),
            "from": "" if outcome.discarder is None else str(outcome.discarder),
            "tai": str(winner.tai - winner.flowers),
            "flowers": str(winner.flowers) if winner.flowers else "",
            "liable": "" if outcome.liable is None else str(outcome.liable),
        }
    if isinstance(outcome, Win):
        # Several winners on one discard (`tw`): "player:tai" for each, in the record's order.
        return {
            "kind": "win",
            "winners": ",".join(f"{winner.player}:{winner.tai}" for winner in outcome.winners),
            "from": "" if outcome.discarder is None else str(outcome.discarder),
        }
    if isinstance(outcome, Payout):
        return {
            "kind": "payout",
            "player": str(outcome.player),
            "event": outcome.event,
            "at-start": "true" if outcome.at_start else "",
        }
    if isinstance(outcome, Draw):
        return {"kind": "draw"}
    if isinstance(outcome, GameHand):
        return _game_prefill(outcome)
    return {"kind": "win"}


def _game_prefill(hand: GameHand) -> dict[str, str]:
    game = hand.game
    riichi = ",".join(str(player) for player in game.get("riichi", ()))
    if hand.game_kind == "win" and len(game["winners"]) == 1:
        winner = game["winners"][0]
        discarder = game.get("discarder")
        return {
            "kind": "win",
            "winner": str(winner["player"]),
            "from": "self" if discarder is None else str(discarder),
            "han": "Y" if winner.get("yakuman") else str(winner.get("han", "")),
            "fu": str(winner.get("fu", "")),
            "riichi": riichi,
        }
    if hand.game_kind == "exhaustive_draw":
        tenpai = ",".join(str(player) for player in game.get("tenpai", ()))
        return {"kind": "draw", "tenpai": tenpai, "riichi": riichi}
    if hand.game_kind == "chombo":
        return {"kind": "chombo", "chombo-player": str(game["player"])}
    return {"kind": "win"}


def _stale_warnings(
    t: i18n.Translator, players: tuple[str, ...], entry: HistoryEntry
) -> tuple[str, ...]:
    """The ledger's note that a correction changed what this win would pay, in the page's
    language (the ledger notes it only when an amount would differ)."""
    win = entry.effective
    if not entry.warnings or not isinstance(win, Win):
        return entry.warnings
    now = entry.before
    return (
        t(
            "table.ev.stale",
            dealer=players[win.dealer],
            round=wind_name(t, win.round),
            streak=win.streak,
            now_dealer=players[now.dealer],
            now_round=wind_name(t, now.round),
            now_streak=now.streak,
        ),
    )


def event_what(t: i18n.Translator, hand: int | None, is_hand: bool) -> str:
    """ "hand 17", "the payout in hand 17", or "this entry" (a voided hand is in no hand)."""
    if hand is None:
        return t("table.what.entry")
    return t("table.what.hand" if is_hand else "table.what.payout", n=hand)


def event_time(at: datetime, today: date) -> str:
    """The time of day, with the date when it is not today (a table kept over several nights);
    in UTC here, and in the reader's own time zone once the page's script runs."""
    return at.strftime("%H:%M UTC" if at.date() == today else "%Y-%m-%d %H:%M UTC")


def event_view(
    t: i18n.Translator, players: tuple[str, ...], entry: HistoryEntry, today: date | None = None
) -> EventView:
    event, body = entry.event, entry.event.body
    today = today or datetime.now(UTC).date()
    seq, at, time = event.seq, event.at.isoformat(), event_time(event.at, today)
    if isinstance(body, Correction):
        text = correction_text(
            players,
            body,
            voids=lambda n: t("table.ev.voids", n=n),
            amends=lambda n, text: t("table.ev.amends", n=n, text=text),
            describe=lambda outcome: outcome_text(t, players, outcome),
        )
        # Who corrected it, when known (an undo on the recording device names nobody).
        reason = (
            t("table.ev.reason", reason=body.reason, by=body.by)
            if body.by
            else t("table.ev.reason_only", reason=body.reason)
        )
        return EventView(
            seq=seq,
            at=at,
            time=time,
            kind=body.kind,
            status=entry.status,
            correction=True,
            context=t("table.ev.correction"),
            text=text,
            amounts=(),
            reason=reason,
        )
    state = entry.before
    context_parts = []
    if entry.hand is not None:
        key = "table.ev.hand" if body.is_hand else "table.ev.in_hand"
        context_parts.append(t(key, n=entry.hand))
    if state.game is not None and state.game.hand is not None:
        context_parts.append(hand_label(t, state.game.hand))
    else:
        context_parts.append(
            t("table.ev.context", round=wind_name(t, state.round), dealer=players[state.dealer])
        )
    badge = ""
    if entry.status == "voided":
        badge = t("table.ev.voided_by", n=entry.corrected_by)
    elif entry.status == "amended":
        badge = t("table.ev.amended_by", n=entry.corrected_by)
    shown = entry.effective if entry.status == "amended" and entry.effective else body
    shown_amount = signed_amount if state.game is None else _signed_points
    amounts = tuple(
        AmountView(name, shown_amount(amount), sign_class(amount))
        for name, amount in zip(players, entry.amounts, strict=True)
        if amount
    )
    warnings = _stale_warnings(t, players, entry)
    if entry.refused:
        warnings = (*warnings, t("table.ev.refused", why=entry.refused))
    return EventView(
        seq=seq,
        at=at,
        time=time,
        kind=body.kind,
        status=entry.status,
        correction=False,
        context=" · ".join(context_parts),
        text=outcome_text(t, players, shown),
        amounts=amounts,
        badge=badge,
        extras=tuple(
            (t.get(f"table.extra.{name}", label), value)
            for name, label, value in extras_shown(shown.extras)
        ),
        warnings=warnings,
        can_void=entry.status != "voided",
        can_amend=True,
        prefill=_prefill(entry.effective or body),
        version=entry.version,
        what=event_what(t, entry.hand, body.is_hand),
    )


def _signed_points(amount: Fraction) -> str:
    """+7,700, -1,500 ."""
    text = points_text(abs(amount))
    return f"+{text}" if amount > 0 else f"-{text}" if amount < 0 else text


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
                behind="" if points == top else _signed_points(Fraction(points - top)),
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
        "events": len(replayed.entries),
    }


def table_translator(lang: str, replayed: Replay) -> i18n.Translator:
    """The table's words: in faan (番) at an `hk` table, in tai (台) elsewhere."""
    return i18n.Translator(lang, replayed.setup.engine_profile.unit)


def history_page(t: i18n.Translator, replayed: Replay, before: int | None) -> dict[str, Any]:
    """One page of the history, newest first: the `HISTORY_PAGE` events before event `before`
    (None: the newest), and the event numbers its "older" link starts from (None on the
    oldest page). Events run 1..n, so a page is a slice: its cost does not grow with the table."""
    entries = replayed.entries
    total = len(entries)
    end = total if before is None else max(0, min(total, before - 1))
    start = max(0, end - HISTORY_PAGE)
    players = replayed.setup.players
    today = datetime.now(UTC).date()
    return {
        "events": [event_view(t, players, entry, today) for entry in reversed(entries[start:end])],
        "history_total": total,
        "history_first": start + 1,
        "history_last": end,
        "history_older": entries[start].event.seq if start > 0 else None,
        "history_newer": end < total,
    }


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
        "game_over": state.finished and fixed_length,
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
                index == state.dealer and not (state.finished and fixed_length),
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
    """What the record form needs: quick tai choices, payouts, the profile's events and
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
        "agreed_flowers": profile.agreed_flowers(options),
        "table_discards": "table_discards" in info["fields"],
        "profile_events": [(event, t.get(f"event.{event}", event)) for event in info["events"]],
        "profile_info": info,
        "han_pairs": [(str(han), str(han)) for han in range(1, 14)]
        + [("Y", t("table.value.yakuman", n=1))],
        "fu_pairs": [(str(fu), str(fu)) for fu in (20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110)],
    }

"""The table pages: create a table, then its page (scoreboard, recording, chart, history,
settle-up, links).

- `GET /tables`: the form that starts a table, and the tables this browser can write to (kept
  in its localStorage, listed by the page's script: the server has no listing).
- `POST /tables`: the form (CSRF-checked by the middleware). On success, 303 to the table's
  *write link* `/t/{id}#token=...`: the token travels in the URL fragment, which browsers never
  send to a server, so it is not in access logs or Referer headers. The page's script moves it
  to localStorage, takes it out of the address bar, and sends it as `Authorization: Bearer` on
  every write. The read-only link is `/t/{id}`.
- `GET /t/{id}`: the table, rendered on the server (a spectator needs no script to follow it).
- `GET /t/{id}/board`: the same scoreboard, chart, settle-up and history as an HTML fragment;
  the page's script swaps it in after a write and on each event of the live stream.

Writes go to the JSON API (`companion.api.tables`), which checks the token whatever the page
shows: the spectator page cannot write because the server refuses it, not because a button is
hidden.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TypeVar

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from companion.api.deps import call, ledger_for, open_ledger, refusals, table_key
from companion.api.limits import limit_creation
from companion.api.profiles import all_profiles
from companion.api.security import read_form
from companion.errors import CompanionError
from companion.ledger.build import allowed_tai
from companion.ledger.entries import Correction, Draw, Outcome, Payout, Win, correction_text
from companion.ledger.replay import HistoryEntry, Replay
from companion.ledger.settle import settle_up
from companion.ledger.state import TableState
from companion.payouts import PayoutEvent
from companion.settlement import format_amount, signed_amount
from companion.tiles import Wind
from companion.web import i18n
from companion.web.pages import editor_context, script_data
from companion.web.templating import page_context, render, request_language, templates

router = APIRouter(include_in_schema=False)

SEAT_TILES = {"E": "1z", "S": "2z", "W": "3z", "N": "4z"}
"""The wind tile drawn beside each player's seat."""
UNCAPPED_TAI_BUTTONS = 10
"""How many quick tai buttons a profile without a cap (`tw`) gets; an input takes the rest."""
PAYOUT_EVENTS = tuple(event.value for event in PayoutEvent)
HISTORY_PAGE = 50
"""Events per page of a table's history (newest first; an "older" link shows the next)."""
CHART_POINTS = 120
"""The most points a chart line has: a long table's chart is sampled, so its page stays small."""

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

# Compiled when the app starts rather than on a table's first hand, which every phone at the
# table asks for at the same moment.
templates.get_template("table_board.html")


# ---------------------------------------------------------------------------------------------
# Creating a table


def option_fields(lang: str) -> list[dict[str, Any]]:
    """Each profile's form options (from the engine), for the create form."""
    found = []
    for profile in all_profiles():
        t = i18n.Translator(lang, profile["unit"])
        options = []
        for option in profile["options"]:
            name = option["name"]
            entry = dict(option)
            entry["field"] = f"option:{profile['id']}:{name}"
            entry["label"] = t.get(f"option.{name}", name.replace("_", " "))
            if option["type"] == "choice":
                entry["choice_labels"] = [
                    (choice, t.get(f"option.{name}.{choice}", choice))
                    for choice in option["choices"]
                ]
            options.append(entry)
        found.append({"id": profile["id"], "options": options})
    return found


def _differs(kind: str, text: str, default: Any) -> bool:
    if kind == "number":
        try:
            return Fraction(text.strip()) != Fraction(str(default))
        except (ValueError, ZeroDivisionError):
            return True
    return text != str(default)


def options_from_form(profile: dict[str, Any], form: dict[str, str]) -> dict[str, Any]:
    """The options a create form sets that differ from the profile's defaults (JSON values;
    the ledger validates them)."""
    options: dict[str, Any] = {}
    for option in profile["options"]:
        name, kind, default = option["name"], option["type"], option["default"]
        key = f"option:{profile['id']}:{name}"
        if kind == "bool":
            value = form.get(key) == "true"
            if value != default:
                options[name] = value
            continue
        text = form.get(key, "").strip()
        if not text:
            continue
        if kind == "int":
            try:
                number = int(text)
            except ValueError:
                options[name] = text  # the ledger refuses it with a message that names it
                continue
            if number != default:
                options[name] = number
        elif _differs(kind, text, default):
            options[name] = text
    return options


def _create_context(
    request: Request, form: dict[str, str] | None = None, error: str = ""
) -> dict[str, Any]:
    lang = request_language(request)
    values = form or {}
    return {
        "profiles": all_profiles(),
        "profile_options": option_fields(lang),
        "chosen": values.get("profile", "sg"),
        "values": values,
        "error": error,
        "page_data": script_data(lang),
    }


@router.get("/tables", response_class=HTMLResponse)
async def tables_page(request: Request) -> HTMLResponse:
    return render(request, "tables.html", **_create_context(request))


@router.post("/tables")
async def create_table(request: Request) -> Response:
    form = read_form(await request.body())
    limit_creation(request)
    t = i18n.Translator(request_language(request))
    profiles = {profile["id"]: profile for profile in all_profiles()}
    profile = profiles.get(form.get("profile", "sg"))
    try:
        if profile is None:
            raise _FormError(t("tables.error_profile"))
        players = [form.get(f"player{seat}", "") for seat in range(4)]
        hands_text = form.get("hands", "").strip()
        hands = None
        if hands_text:
            if not hands_text.isdigit():
                raise _FormError(t("tables.error_hands"))
            hands = int(hands_text)
        rounds_text = form.get("rounds", "").strip()
        rounds = None
        if rounds_text:
            if not rounds_text.isdigit() or int(rounds_text) < 1:
                raise _FormError(t("tables.error_rounds"))
            rounds = int(rounds_text)
        options = options_from_form(profile, form)
        ledger = await ledger_for(request)
        created = await call(
            ledger.create_table,
            profile["id"],
            players,
            options=options,
            hands=hands,
            name=form.get("name", ""),
            rounds=rounds,
        )
    except CompanionError as error:
        context = _create_context(request, form, error.message)
        return render(request, "tables.html", status_code=422, **context)
    # The write link: the token rides in the fragment, which the browser keeps to itself.
    return RedirectResponse(
        f"/t/{created.id}#token={created.token}&new=1",
        status_code=303,
        headers={"cache-control": "no-store"},
    )


class _FormError(CompanionError):
    """A create form that cannot be read."""


# ---------------------------------------------------------------------------------------------
# A table's page


@dataclass(frozen=True)
class PlayerView:
    index: int
    name: str
    seat: str
    seat_tile: str
    total: str
    sign: str
    dealer: bool


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
    notes: tuple[str, ...] = ()
    can_void: bool = False
    can_amend: bool = False
    prefill: dict[str, str] = field(default_factory=dict)
    version: int = 0


@dataclass(frozen=True)
class Series:
    index: int
    name: str
    points: str
    end_x: float
    end_y: float


@dataclass(frozen=True)
class Chart:
    """A running-total chart as SVG geometry (drawn by `components/board_cards.html`)."""

    width: int
    height: int
    left: float
    right: float
    top: float
    bottom: float
    zero_y: float
    series: tuple[Series, ...]
    y_ticks: tuple[tuple[float, str], ...]
    x_ticks: tuple[tuple[float, str], ...]
    summary: str


def sign_class(amount: Fraction) -> str:
    return "plus" if amount > 0 else "minus" if amount < 0 else ""


def wind_name(t: i18n.Translator, wind: Wind) -> str:
    return t(f"wind.{wind.value}")


def outcome_text(t: i18n.Translator, players: tuple[str, ...], outcome: Outcome) -> str:
    """One line for a person, in the page's language."""
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
            "tai": str(winner.tai),
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
    return {"kind": "win"}


def _stale_notes(
    t: i18n.Translator, players: tuple[str, ...], entry: HistoryEntry
) -> tuple[str, ...]:
    """The ledger's note that a correction changed what this win would pay, in the page's
    language (the ledger notes it only when an amount would differ)."""
    win = entry.effective
    if not entry.notes or not isinstance(win, Win):
        return entry.notes
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


def event_view(t: i18n.Translator, players: tuple[str, ...], entry: HistoryEntry) -> EventView:
    event, body = entry.event, entry.event.body
    seq, at, time = event.seq, event.at.isoformat(), event.at.strftime("%H:%M UTC")
    if isinstance(body, Correction):
        text = correction_text(
            players,
            body,
            voids=lambda n: t("table.ev.voids", n=n),
            amends=lambda n, text: t("table.ev.amends", n=n, text=text),
            describe=lambda outcome: outcome_text(t, players, outcome),
        )
        by = body.by or t("table.ev.unknown")
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
            reason=t("table.ev.reason", reason=body.reason, by=by),
        )
    state = entry.before
    context_parts = []
    if entry.hand is not None:
        key = "table.ev.hand" if body.is_hand else "table.ev.in_hand"
        context_parts.append(t(key, n=entry.hand))
    context_parts.append(
        t("table.ev.context", round=wind_name(t, state.round), dealer=players[state.dealer])
    )
    badge = ""
    if entry.status == "voided":
        badge = t("table.ev.voided_by", n=entry.corrected_by)
    elif entry.status == "amended":
        badge = t("table.ev.amended_by", n=entry.corrected_by)
    shown = entry.effective if entry.status == "amended" and entry.effective else body
    amounts = tuple(
        AmountView(name, signed_amount(amount), sign_class(amount))
        for name, amount in zip(players, entry.amounts, strict=True)
        if amount
    )
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
        notes=_stale_notes(t, players, entry),
        can_void=entry.status != "voided",
        can_amend=True,
        prefill=_prefill(entry.effective or body),
        version=entry.version,
    )


def _nice_step(span: float, ticks: int = 4) -> float:
    raw = span / ticks
    power = 10.0 ** math.floor(math.log10(raw))
    for factor in (1.0, 2.0, 2.5, 5.0, 10.0):
        if factor * power >= raw:
            return factor * power
    return 10.0 * power


def _tick_label(value: float) -> str:
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def sample_indices(count: int, most: int) -> list[int]:
    """0..count, or `most` + 1 of them evenly spread (the first and the last always in)."""
    if count <= most:
        return list(range(count + 1))
    return sorted({round(k * count / most) for k in range(most + 1)})


def chart(t: i18n.Translator, replayed: Replay) -> Chart | None:
    """Each player's running total after every outcome that counts; None before the first."""
    players = replayed.setup.players
    start = tuple(Fraction(0) for _ in players)
    steps: list[tuple[int | None, tuple[Fraction, ...]]] = [(0, start)]
    for entry in replayed.entries:
        if entry.effective is None or isinstance(entry.event.body, Correction):
            continue
        steps.append((entry.hand if entry.effective.is_hand else None, entry.after.totals))
    if len(steps) < 2:
        return None
    width, height = 400, 210
    left, right, top, bottom = 38.0, 392.0, 10.0, 184.0
    values = [float(total) for _, totals in steps for total in totals]
    low, high = min(0.0, *values), max(0.0, *values)
    if high == low:
        high, low = high + 1, low - 1
    step = _nice_step(high - low)
    low = math.floor(low / step) * step
    high = math.ceil(high / step) * step

    def y_of(value: float) -> float:
        return round(bottom - (value - low) / (high - low) * (bottom - top), 2)

    count = len(steps) - 1

    def x_of(index: int) -> float:
        return round(left + index / count * (right - left), 2)

    sampled = sample_indices(count, CHART_POINTS)
    series = []
    for player, name in enumerate(players):
        points = [(x_of(i), y_of(float(steps[i][1][player]))) for i in sampled]
        series.append(
            Series(
                player,
                name,
                " ".join(f"{x},{y}" for x, y in points),
                points[-1][0],
                points[-1][1],
            )
        )
    y_ticks = []
    value = low
    while value <= high + step / 2:
        y_ticks.append((y_of(value), _tick_label(value)))
        value += step
    every = max(1, math.ceil(count / 8))
    x_ticks = [(x_of(0), "0")]
    for index, (hand, _) in enumerate(steps[1:], start=1):
        if hand is not None and (index % every == 0 or index == count):
            x_ticks.append((x_of(index), str(hand)))
    totals = replayed.state.totals
    summary = t(
        "table.chart_summary",
        n=replayed.state.hands,
        totals=", ".join(
            f"{name} {signed_amount(total)}" for name, total in zip(players, totals, strict=True)
        ),
    )
    return Chart(
        width,
        height,
        left,
        right,
        top,
        bottom,
        y_of(0.0),
        tuple(series),
        tuple(y_ticks),
        tuple(x_ticks),
        summary,
    )


def _state_json(replayed: Replay) -> dict[str, Any]:
    state: TableState = replayed.state
    return {
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
    return {
        "events": [event_view(t, players, entry) for entry in reversed(entries[start:end])],
        "history_total": total,
        "history_first": start + 1,
        "history_last": end,
        "history_older": entries[start].event.seq if start > 0 else None,
        "history_newer": end < total,
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
        for transfer in settle_up(state.totals)
    ]
    return {
        "table_id": table_key(table_id),
        "profile_id": setup.profile,
        "players": [
            PlayerView(
                index,
                name,
                state.seat_wind(index).value,
                SEAT_TILES[state.seat_wind(index).value],
                signed_amount(state.totals[index]),
                sign_class(state.totals[index]),
                index == state.dealer,
            )
            for index, name in enumerate(players)
        ],
        "round_name": wind_name(t, state.round),
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
    cap, limits = allowed_tai(profile, options)
    low = max(0, options.min_tai)
    if cap is None:
        tai_choices = list(range(low, low + UNCAPPED_TAI_BUTTONS))
    else:
        tai_choices = [*range(low, cap + 1), *sorted(limit for limit in limits if limit > cap)]
    info = next(item for item in all_profiles() if item["id"] == setup.profile)
    kinds = [("win", t("table.kind.win")), ("draw", t("table.kind.draw"))]
    payouts = profile.instant_payouts
    if payouts:
        kinds.append(("payout", t("table.kind.payout")))
    return {
        "tai_pairs": [(str(tai), str(tai)) for tai in tai_choices],
        "player_choices": [(str(index), name) for index, name in enumerate(setup.players)],
        "tai_other": cap is None,
        "kinds": kinds,
        "payout_events": [(event, t(f"payout.{event}")) for event in PAYOUT_EVENTS]
        if payouts
        else [],
        "liable": "liable" in info["fields"],
        "several_winners": profile.several_winners,
        "table_discards": "table_discards" in info["fields"],
        "profile_events": [(event, t.get(f"event.{event}", event)) for event in info["events"]],
        "profile_info": info,
    }


@router.get("/t/{table_id}", response_class=HTMLResponse)
def table_page(request: Request, table_id: str, before: int | None = None) -> HTMLResponse:
    # A plain `def`: FastAPI runs it in the thread pool, so the database and the rendering
    # never hold up the event loop (and every other request with it).
    lang = request_language(request)
    with refusals():
        replayed = open_ledger(request).replay(table_id)
    key = table_key(table_id)
    setup = replayed.setup
    t = table_translator(lang, replayed)
    page_data = script_data(
        lang,
        table={
            "id": key,
            "profile": setup.profile,
            "options": dict(setup.options),
            "players": list(setup.players),
        },
        api={
            "score": "/api/score",
            "waits": "/api/waits",
            "table": f"/api/tables/{key}",
            "access": f"/api/tables/{key}/access",
            "hands": f"/api/tables/{key}/hands",
            "events": f"/api/tables/{key}/events",
            "board": f"/t/{key}/board",
            "stream": f"/api/tables/{key}/stream",
            "preview": f"/api/tables/{key}/preview",
        },
    )
    return render(
        request,
        "table.html",
        t=t,
        page_data=page_data,
        profile_label=t.get(f"profile.{setup.profile}", setup.profile),
        table_name=setup.name,
        planned_hands=setup.planned_hands,
        read_url=str(request.base_url).rstrip("/") + f"/t/{key}",
        **board_context(lang, table_id, replayed, before),
        **record_context(lang, replayed),
        **editor_context(lang),
    )


@router.get("/t/{table_id}/board", response_class=HTMLResponse)
def table_board(request: Request, table_id: str, before: int | None = None) -> HTMLResponse:
    """The board fragment. Every phone at a table reloads it on each event: it is rendered once per
    state of the record and language (`VIEWS`), in the thread pool."""
    lang = request_language(request)
    with refusals():
        replayed = open_ledger(request).replay(table_id)

    def build() -> str:
        context = {
            **page_context(request),
            "t": table_translator(lang, replayed),
            **board_context(lang, table_id, replayed, before),
        }
        return templates.get_template("table_board.html").render(context)

    html = VIEWS.get(replayed, ("board", lang, table_key(table_id), before), build)
    return HTMLResponse(html, headers={"cache-control": "no-store"})

"""An event's pages: the public leaderboard and the organiser's page (docs/web.md, *Events*).

- `GET /e/{id}`: the leaderboard, rendered on the server (a spectator needs no script): the
  round and its progress, the round timer, the standings, this round's tables. `?view=projector`
  is the same page in large type for a screen on the wall (no header, no footer).
- `GET /e/{id}/board`: the leaderboard's regions as an HTML fragment; the page's script swaps
  it in on each message of the event's live stream (`GET /api/events/{id}/stream`).
- `GET /e/{id}/organiser`: the organiser's page. Like a table's write link, the event's token
  travels in the URL fragment (`/e/{id}/organiser#token=...`), which browsers never send; the
  page's script keeps it in localStorage and sends it as `Authorization: Bearer`.
- `GET /e/{id}/organiser/panel`: the organiser's part (seating with the tables' write links,
  the actions, the organiser's record), only with the event's token: 401 without one, 403 with
  a wrong one. The page's script fetches it with the token; the actions go to the JSON API
  (`/api/events/...`), which checks the token whatever the page shows.
- `GET /e/{id}/timer/{round}`: the round timer's line, for the table pages of the event.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse
from markupsafe import Markup

from companion.api.deps import WholeQuery, call_reading, open_ledger, refusals
from companion.api.limits import limit_reads
from companion.api.security import bearer_token
from companion.ledger.state import table_key
from companion.web import i18n
from companion.web.event_day_views import day_panel_context, table_up_context
from companion.web.event_views import (
    audit_lines,
    event_context,
    round_of,
    seating_rounds,
    timer_view,
)
from companion.web.pages import script_data
from companion.web.table_share import share_reach
from companion.web.templating import page_context, render, request_language, templates

if TYPE_CHECKING:
    from companion.ledger.event_book.service import EventBook

router = APIRouter(include_in_schema=False)

PROJECTOR = "projector"
"""`?view=projector`: the leaderboard in large type, for a screen on the wall."""


def event_book(request: Request) -> EventBook:
    from companion.ledger.event_book.service import EventBook

    return EventBook(open_ledger(request))


def event_reads(book: EventBook, event_id: str) -> tuple[int, dict[str, Any], dict[str, Any]]:
    """The event's version, JSON and standings' JSON, kept by version (`EventBook.current`):
    every page following an event asks for its board on the same message, and after the
    first has worked it out the others read it."""
    read = book.current(event_id)
    return read.version, read.event_json, read.standings_json


class KeptRegions:
    """The leaderboard's regions that hang on the event's version alone (the standings, the
    tables of the round shown), rendered once for each version, language and round and shown
    to every reader after (a big event's standings are 400 rows). What hangs on the clock (the
    round timers) is rendered for each request. Bounded, least recently used out."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._items: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[Any, ...]) -> dict[str, Any] | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: tuple[Any, ...], regions: dict[str, Any]) -> None:
        with self._lock:
            self._items[key] = regions
            while len(self._items) > self.size:
                self._items.popitem(last=False)


REGIONS = KeptRegions()


def leaderboard_context(
    request: Request, event_id: str, shown: int | None = None
) -> dict[str, Any]:
    """The event, its standings and its version (for the live stream), as the pages show them;
    round `shown`'s tables rather than the current round's."""
    lang = request_language(request)
    book = event_book(request)
    with refusals():
        version, event, standings = event_reads(book, event_id)
    t = i18n.Translator(lang)
    key = (str(book.ledger.engine.url), table_key(event_id), version, lang, shown)
    kept = REGIONS.get(key)
    rows = None if kept is None else kept["rows"]
    context = event_context(t, event, standings, now(), shown, rows)
    context["board_state"] = {"version": version}
    context["event"] = event
    if kept is None:
        regions = templates.env.get_template("components/event_regions.html")
        module: Any = regions.make_module({**page_context(request), **context})
        kept = {
            "rows": context["rows"],
            "standings_html": Markup(module.standings_region()),
            "tables_html": Markup(module.tables_region()),
        }
        REGIONS.put(key, kept)
    context["standings_html"] = kept["standings_html"]
    context["tables_html"] = kept["tables_html"]
    return context


@router.get("/e/{event_id}", response_class=HTMLResponse)
async def leaderboard_page(
    request: Request, event_id: str, view: str | None = None, round: WholeQuery = None
) -> HTMLResponse:
    limit_reads(request)
    return await call_reading(request, _leaderboard_page, request, event_id, view, round)


def _leaderboard_page(
    request: Request, event_id: str, view: str | None, round: int | None
) -> HTMLResponse:
    lang = request_language(request)
    context = leaderboard_context(request, event_id, round)
    key = context["event_id"]
    # The board the script swaps in is of the round this page shows.
    shown = context["shown_round"]
    board = f"/e/{key}/board" + (
        f"?round={shown.number}" if shown is not None and round == shown.number else ""
    )
    page_data = script_data(
        lang,
        event={"id": key, "name": context["event_name"]},
        api={"board": board, "stream": f"/api/events/{key}/stream"},
    )
    return render(
        request,
        "event.html",
        page_data=page_data,
        projector=view == PROJECTOR,
        **context,
    )


@router.get("/e/{event_id}/board", response_class=HTMLResponse)
async def leaderboard_board(
    request: Request, event_id: str, round: WholeQuery = None
) -> HTMLResponse:
    limit_reads(request)
    return await call_reading(request, _leaderboard_board, request, event_id, round)


def _leaderboard_board(request: Request, event_id: str, round: int | None) -> HTMLResponse:
    context = {**page_context(request), **leaderboard_context(request, event_id, round)}
    html = templates.get_template("event_board.html").render(context)
    return HTMLResponse(html, headers={"cache-control": "no-store"})


@router.get("/e/{event_id}/timer/{round_number}", response_class=HTMLResponse)
def round_timer(request: Request, event_id: str, round_number: int) -> HTMLResponse:
    """The timer line of one round (the table pages swap it in when the event changes)."""
    context = {**page_context(request), **timer_context(request, event_id, round_number)}
    html = templates.get_template("components/event_timer.html").render(context)
    return HTMLResponse(html, headers={"cache-control": "no-store"})


def timer_context(request: Request, event_id: str, round_number: int) -> dict[str, Any]:
    with refusals():
        _, event, _ = event_reads(event_book(request), event_id)
    return round_timer_context(request, event, round_number)


def round_timer_context(
    request: Request, event: dict[str, Any], round_number: int
) -> dict[str, Any]:
    """What the timer line of round `round_number` of `event` (its JSON) needs."""
    t = i18n.Translator(request_language(request))
    seated = round_of(event, round_number)
    timer = None if seated is None else timer_view(t, round_number, seated.get("timer"), now())
    key = table_key(str(event["id"]))
    return {
        "timer_event": key,
        "timer_round": round_number,
        "timer": timer,
        "timer_round_text": t("evpage.round_n", n=round_number),
        "timer_url": f"/e/{key}/timer/{round_number}",
        "event_url": f"/e/{key}",
    }


def now() -> datetime:
    return datetime.now(UTC)


def table_timer(request: Request, table_id: str) -> dict[str, Any]:
    """For a table's page: the round timer of the event the table was seated by (its round),
    or nothing for a table of its own."""
    book = event_book(request)
    with refusals():
        event_id = book.event_of_table(table_id)
        if event_id is None:
            return {}
        _, event, _ = event_reads(book, event_id)
    for seated in event.get("seated", ()):
        for table in seated.get("tables", ()):
            if table["table"] == table_key(table_id):
                context = round_timer_context(request, event, int(seated["round"]))
                t = i18n.Translator(request_language(request))
                context |= table_up_context(t, book.ledger, event, seated, table_id, now())
                context["timer_stream"] = f"/api/events/{context['timer_event']}/stream"
                context["timer_event_name"] = event.get("name", "")
                return context
    return {}


# ---------------------------------------------------------------------------------------------
# The organiser


@router.get("/e/{event_id}/organiser", response_class=HTMLResponse)
def organiser_page(request: Request, event_id: str) -> HTMLResponse:
    limit_reads(request)
    lang = request_language(request)
    context = leaderboard_context(request, event_id)
    key = context["event_id"]
    reach = share_reach(request)
    page_data = script_data(
        lang,
        event={"id": key, "name": context["event_name"]},
        shareBase=reach.base,
        api={
            "panel": f"/e/{key}/organiser/panel",
            "board": f"/e/{key}/board",
            "stream": f"/api/events/{key}/stream",
            "event": f"/api/events/{key}",
        },
    )
    return render(request, "event_organiser.html", page_data=page_data, share=reach, **context)


@router.get("/e/{event_id}/organiser/panel", response_class=HTMLResponse)
def organiser_panel(request: Request, event_id: str) -> HTMLResponse:
    """The organiser's part of the page, only for the event's token: as the JSON API checks
    it, an unknown event is a 404 for everyone, then no token a 401, a wrong one a 403."""
    context = {**page_context(request), **leaderboard_context(request, event_id)}
    token = bearer_token(request)
    if token is None:
        raise HTTPException(
            status_code=401,
            detail="this needs the event's token: send Authorization: Bearer <token>",
            headers={"WWW-Authenticate": "Bearer"},
        )
    book = event_book(request)
    with refusals():
        if not book.verify_token(event_id, token):
            raise HTTPException(status_code=403, detail="the token does not match this event")
        write_tokens = book.table_tokens(event_id)
        audit = [entry.to_json() for entry in book.audit(event_id)]
    t = i18n.Translator(request_language(request))
    context["rounds"] = seating_rounds(t, context["event"], now())
    context["write_tokens"] = write_tokens
    context["audit"] = audit_lines(t, audit)
    context["players"] = [
        player for player in context["event"].get("players", ()) if not player.get("withdrawn")
    ]
    context["share_base"] = share_reach(request).base
    context |= day_panel_context(t, book, event_id, context["event"])
    html = templates.get_template("event_panel.html").render(context)
    # `private`: every table's write token is in it; the service worker never keeps such an
    # answer (sw.js), which offline it would give to anyone asking for the URL without a token.
    return HTMLResponse(html, headers={"cache-control": "private, no-store"})

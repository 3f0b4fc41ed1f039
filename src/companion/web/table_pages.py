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
  the page's script swaps it in after a write and on each message of the live stream.

What the pages show is built in `table_views` (the board, the history, the record form's
choices; the chart in `table_chart`), and the create form is read in `table_forms`: this module
holds the routes only.

Writes go to the JSON API (`companion.api.tables`), which checks the token whatever the page
shows: the spectator page cannot write because the server refuses it, not because a button is
hidden.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from companion.api.deps import WholeQuery, open_ledger, refusals, table_key
from companion.api.limits import limit_creation
from companion.api.security import read_form
from companion.errors import CompanionError
from companion.web import i18n
from companion.web.event_pages import table_timer
from companion.web.pages import editor_context, script_data
from companion.web.table_forms import create_context, table_plan
from companion.web.table_share import share_reach
from companion.web.table_views import VIEWS, board_context, record_context, table_translator
from companion.web.templating import page_context, render, request_language, templates

router = APIRouter(include_in_schema=False)

# Compiled when the app starts rather than on a table's first hand, which every phone at the
# table asks for at the same moment.
templates.get_template("table_board.html")


# ---------------------------------------------------------------------------------------------
# Creating a table


@router.get("/tables", response_class=HTMLResponse)
async def tables_page(request: Request) -> HTMLResponse:
    return render(request, "tables.html", **create_context(request))


@router.post("/tables")
async def create_table(request: Request) -> Response:
    body = await request.body()
    # The rest in the thread pool: reading the form, the options and the ledger's checks, the
    # database, and a refusal's page never hold up the event loop.
    return await run_in_threadpool(create_from_form, request, body)


def create_from_form(request: Request, body: bytes) -> Response:
    form = read_form(body)
    limit_creation(request)
    t = i18n.Translator(request_language(request))
    try:
        plan = table_plan(t, form)
        # A name for each of the rule set's seats (sanma seats three): the form sends no other.
        players = [form.get(f"player{seat}", "") for seat in range(plan.seats)]
        with refusals():
            created = open_ledger(request).create_table(
                plan.profile,
                players,
                options=plan.options,
                hands=plan.hands,
                name=form.get("name", ""),
                rounds=plan.rounds,
            )
    except CompanionError as error:
        if getattr(error, "http_status", 422) == 503:
            raise  # the database, not the form: the error page says so, with Retry-After
        context = create_context(request, form, i18n.refusal_said(t.lang, error))
        return render(request, "tables.html", status_code=422, **context)
    # The write link: the token rides in the fragment, which the browser keeps to itself.
    return RedirectResponse(
        f"/t/{created.id}#token={created.token}&new=1",
        status_code=303,
        headers={"cache-control": "no-store"},
    )


# ---------------------------------------------------------------------------------------------
# A table's page


@router.get("/t/{table_id}", response_class=HTMLResponse)
def table_page(request: Request, table_id: str, before: WholeQuery = None) -> HTMLResponse:
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
            "name": setup.name,
            "profile": setup.profile,
            "options": dict(setup.options),
            "players": list(setup.players),
            "points_game": setup.points_game,
            "names_dealer": setup.engine_profile.names_dealer,
        },
        api={
            "score": "/api/score",
            "waits": "/api/waits",
            "table": f"/api/tables/{key}",
            "access": f"/api/tables/{key}/access",
            "hands": f"/api/tables/{key}/hands",
            "events": f"/api/tables/{key}/events",  # named as the path is: its entries
            "board": f"/t/{key}/board",
            "stream": f"/api/tables/{key}/stream",
            "preview": f"/api/tables/{key}/preview",
        },
    )
    reach = share_reach(request)
    return render(
        request,
        "table.html",
        t=t,
        page_data=page_data,
        profile_label=t.get(f"profile.{setup.profile}", setup.profile),
        table_name=setup.name,
        planned_hands=setup.planned_hands,
        share=reach,
        read_url=f"{reach.base}/t/{key}",
        **board_context(lang, table_id, replayed, before),
        **record_context(lang, replayed),
        **editor_context(lang),
        **table_timer(request, table_id),
    )


@router.get("/t/{table_id}/board", response_class=HTMLResponse)
def table_board(request: Request, table_id: str, before: WholeQuery = None) -> HTMLResponse:
    """The board fragment. Every phone at a table reloads it on each entry: it is rendered once per
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

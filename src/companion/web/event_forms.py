"""Starting an event on the web (docs/events.md, *Starting an event on the web*).

- `GET /events`: the form that starts an event: its name, what every table plays (the profile,
  each table's length, the options: the fields of a table's create form), the players one a
  line, the rounds and how they are seated.
- `POST /events`: the form (CSRF-checked by the middleware, counted against the address's new
  tables as `POST /api/events` is). On success, 303 to the organiser's link `/e/{id}#token=...`:
  the token rides in the URL fragment, which browsers never send, and the leaderboard's script
  takes it to the organiser's page. A refusal comes back on the form, everything typed kept, in
  the page's language where the refusal has a key.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from companion.api.deps import http_status, open_ledger
from companion.api.limits import limit_creation
from companion.api.security import read_form
from companion.errors import CompanionError
from companion.rules.options import parse_whole
from companion.web import i18n
from companion.web.table_forms import FormError, create_context, table_plan
from companion.web.templating import render, request_language

router = APIRouter(include_in_schema=False)


@router.get("/events", response_class=HTMLResponse)
async def events_page(request: Request) -> HTMLResponse:
    return render(request, "events.html", **create_context(request))


@router.post("/events")
async def create_event(request: Request) -> Response:
    body = await request.body()
    # The rest in the thread pool: the form, the seating's checks and the database.
    return await run_in_threadpool(create_from_form, request, body)


def players_of(text: str) -> list[str]:
    """The players typed one a line (a pasted list's blank lines and spaces left out)."""
    return [line.strip() for line in text.splitlines() if line.strip()]


def create_from_form(request: Request, body: bytes) -> Response:
    form = read_form(body)
    limit_creation(request)
    lang = request_language(request)
    t = i18n.Translator(lang)
    try:
        plan = table_plan(t, form)
        rounds = parse_whole(form.get("event_rounds", ""))
        if rounds is None or rounds < 1:
            raise FormError(t("events.error_rounds"))
        seed = None
        if form.get("seed", "").strip():
            # The service refuses a seed past its largest with a message that says so.
            seed = _seed(form["seed"])
            if seed is None:
                raise FormError(t("events.error_seed"))
        from companion.ledger.event_book.service import EventBook

        created = EventBook(open_ledger(request)).create_event(
            form.get("name", ""),
            plan.profile,
            plan.options,
            players_of(form.get("players", "")),
            rounds,
            seed=seed,
            first_round=form.get("first_round", "random"),
            later_rounds=form.get("later_rounds", "no-repeats"),
            leftover=form.get("leftover") or None,
            hands=plan.hands,
            table_rounds=plan.rounds,
            by=form.get("by", ""),
        )
    except CompanionError as error:
        if http_status(error) == 503:
            raise  # the database, not the form: the error page says so, with Retry-After
        context = create_context(request, form, i18n.refusal_said(lang, error))
        return render(request, "events.html", status_code=422, **context)
    # The organiser's link: the leaderboard's script takes the token to the organiser's page.
    return RedirectResponse(
        f"/e/{created.id}#token={created.token}&new=1",
        status_code=303,
        headers={"cache-control": "no-store"},
    )


def _seed(text: str) -> int | None:
    """A seed in ASCII digits (`²` or `٣` are not read as numbers), 0 or more, or None: the one
    bounded reader (`parse_whole`) with 19 digits, since a seed goes up to 2^63 - 1."""
    number = parse_whole(text, digits=19)
    return number if number is not None and number >= 0 else None

"""Making a club on the web (docs/clubs.md, *Pages*).

- `GET /clubs`: the form: the club's name, the rating that orders its leaderboard, whether its
  leaderboard and players' pages are the organiser's alone, and who makes it.
- `POST /clubs`: the form (CSRF-checked by the middleware, counted against the address's new
  tables as `POST /api/clubs` is). On success, 303 to the organiser's link
  `/c/{id}/organise#token=...&new=1`: the token rides in the URL fragment, which browsers never
  send, and the organiser's page keeps it on the device. A refusal comes back on the form,
  everything typed kept, in the page's language.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from companion.api.clubs import club_book
from companion.api.deps import http_status
from companion.api.limits import limit_creation
from companion.api.security import read_form
from companion.clubs.ratings import RatingOrder
from companion.errors import CompanionError
from companion.web import i18n
from companion.web.templating import render, request_language

router = APIRouter(include_in_schema=False)


def _context(values: dict[str, str] | None = None, error: str = "") -> dict[str, Any]:
    return {
        "values": values or {},
        "ratings": [order.value for order in RatingOrder],
        "error": error,
    }


@router.get("/clubs", response_class=HTMLResponse)
async def clubs_page(request: Request) -> HTMLResponse:
    return render(request, "clubs.html", **_context())


@router.post("/clubs")
async def create_club(request: Request) -> Response:
    body = await request.body()
    return await run_in_threadpool(_create_from_form, request, body)


def _create_from_form(request: Request, body: bytes) -> Response:
    form = read_form(body)
    limit_creation(request)
    lang = request_language(request)
    try:
        created = club_book(request).create_club(
            form.get("name", ""),
            form.get("rating", "openskill"),
            private=form.get("private") == "on",
            by=form.get("by", ""),
        )
    except CompanionError as error:
        if http_status(error) == 503:
            raise  # the database, not the form: the error page says so
        context = _context(form, i18n.refusal_said(lang, error))
        return render(request, "clubs.html", status_code=422, **context)
    return RedirectResponse(
        f"/c/{created.id}/organise#token={quote(created.token, safe='')}&new=1",
        status_code=303,
        headers={"cache-control": "no-store"},
    )

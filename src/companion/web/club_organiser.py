"""A club's organiser's page (docs/clubs.md, *Pages*).

- `GET /c/{id}/organise`: the page, with nothing of the organiser's in it: its script takes the
  token from the link's fragment (`#token=...`, never sent to a server), keeps it on the device
  and fetches the organiser's part with it.
- `GET /c/{id}/organise/panel`: the organiser's part, only for the club's token (an unknown club
  is a 404 for everyone, then no token a 401, a wrong one a 403): the roster and the forms that
  add, rename, merge and unmerge players, attach a table or an event, and make the club private
  or public; each form is posted to the JSON API (`/api/clubs/{id}/...`) with the token.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse

from companion.api.clubs import PRIVATE_HEADERS, club_book
from companion.api.deps import refusals
from companion.api.security import bearer_token
from companion.ledger.club_book.reads import ClubRecord
from companion.web.pages import script_data
from companion.web.table_share import share_reach
from companion.web.templating import page_context, render, request_language, templates

router = APIRouter(include_in_schema=False)


@router.get("/c/{club_id}/organise", response_class=HTMLResponse)
def organiser_page(request: Request, club_id: str) -> HTMLResponse:
    book = club_book(request)
    with refusals():
        record_id, name = book.name(club_id)
    page_data = script_data(
        request_language(request),
        club={"id": record_id, "name": name},
        shareBase=share_reach(request).base,
        api={"panel": f"/c/{record_id}/organise/panel", "club": f"/api/clubs/{record_id}"},
    )
    return render(
        request, "club_organiser.html", club_id=record_id, club_name=name, page_data=page_data
    )


@router.get("/c/{club_id}/organise/panel", response_class=HTMLResponse)
def organiser_panel(request: Request, club_id: str) -> HTMLResponse:
    book = club_book(request)
    token = bearer_token(request)
    with refusals():
        if token is None:
            book.roster(club_id)  # an unknown club is a 404 first
            raise HTTPException(
                status_code=401,
                detail="this needs the club's token: send Authorization: Bearer <token>",
                headers={"WWW-Authenticate": "Bearer"},
            )
        book.check_token(club_id, token)
        record = book.record(club_id)
    context = {**page_context(request), **panel_context(record)}
    html = templates.get_template("club_panel.html").render(context)
    return HTMLResponse(html, headers=PRIVATE_HEADERS)


def panel_context(record: ClubRecord) -> dict[str, Any]:
    """The roster as the organiser's part shows it: the players who count, each with the names
    merged into them, and the merged entries (which an unmerge takes)."""
    roster = record.roster
    active = roster.active()
    merged_into: dict[int, list[str]] = {}
    for player in roster.players.values():
        if player.merged_into is not None:
            merged_into.setdefault(roster.counting(player.id).id, []).append(player.name)
    return {
        "club": record,
        "players": [
            {
                "name": player.name,
                "nickname": player.nickname,
                "ema_id": player.ema_id,
                "joined": player.joined_at.date().isoformat(),
                "merged": merged_into.get(player.id, []),
            }
            for player in active
        ],
        "merged": [p.name for p in roster.players.values() if p.merged_into is not None],
    }

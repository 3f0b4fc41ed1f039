"""An event's pages for the day (issue 39; docs/event_day.md):

- `GET /e/{id}/tables/{table}/timer`: a table's round timer line, which once the time is up
  says what the table still plays ("Time's up · last hand"); the table's page swaps it in.
"""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse

from companion.api.deps import refusals
from companion.ledger.state import table_key
from companion.web import i18n
from companion.web.event_day_views import table_up_context
from companion.web.event_pages import READS, event_book, now, round_timer_context
from companion.web.templating import page_context, request_language, templates

router = APIRouter(include_in_schema=False)


@router.get("/e/{event_id}/tables/{table_id}/timer", response_class=HTMLResponse)
def table_timer_line(request: Request, event_id: str, table_id: str) -> HTMLResponse:
    """The timer line of one table's round, with what the table plays once time is up."""
    book = event_book(request)
    with refusals():
        _, event, _ = READS.get(book, event_id)
    for seated in event.get("seated", ()):
        for table in seated.get("tables", ()):
            if table["table"] == table_key(table_id):
                t = i18n.Translator(request_language(request))
                context = page_context(request) | round_timer_context(
                    request, event, int(seated["round"])
                )
                context |= table_up_context(t, book.ledger, event, seated, table_id, now())
                html = templates.get_template("components/event_timer.html").render(context)
                return HTMLResponse(html, headers={"cache-control": "no-store"})
    raise HTTPException(status_code=404, detail="no such table in this event")

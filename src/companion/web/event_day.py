"""An event's pages for the day (issue 39; docs/event_day.md):

- `GET /e/{id}/tables/{table}/timer`: a table's round timer line, which once the time is up
  says what the table still plays ("Time's up · last hand"); the table's page swaps it in.
- `GET /e/{id}/results`: the results to print (A4, no script): place, name, EMA number,
  country, the standings' two columns, and the chombos recorded.
- `GET /e/{id}/rounds/{round}/sheet`: a round's sheet to print for the wall: each table, its
  seats and the QR code of its page.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse

from companion.api.deps import refusals
from companion.api.limits import EXPORT_COST, limit_reads
from companion.errors import CompanionError
from companion.ledger.state import table_key
from companion.web import i18n
from companion.web.event_day_views import table_up_context
from companion.web.event_pages import event_book, event_reads, now, round_timer_context
from companion.web.event_views import COLUMNS, round_of, round_view
from companion.web.table_share import share_reach
from companion.web.templating import page_context, render_error, request_language, templates

router = APIRouter(include_in_schema=False)


@router.get("/e/{event_id}/tables/{table_id}/timer", response_class=HTMLResponse)
def table_timer_line(request: Request, event_id: str, table_id: str) -> HTMLResponse:
    """The timer line of one table's round, with what the table plays once time is up."""
    book = event_book(request)
    with refusals():
        _, event, _ = event_reads(book, event_id)
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


def _print(request: Request, context: dict[str, Any]) -> HTMLResponse:
    html = templates.get_template("event_print.html").render(page_context(request) | context)
    return HTMLResponse(html, headers={"cache-control": "no-store"})


@router.get("/e/{event_id}/results", response_class=HTMLResponse)
def results_page(request: Request, event_id: str) -> HTMLResponse:
    """The results to print: the standings with EMA numbers and countries, and the chombos."""
    limit_reads(request, EXPORT_COST)  # the chombos: every table's record read
    t = i18n.Translator(request_language(request))
    book = event_book(request)
    with refusals():
        view = book.event(event_id)
        board = book.standings(event_id)
        lines = book.results(event_id)
        chombos = book.chombos(event_id)
    primary, secondary = COLUMNS.get(board.rule.value, COLUMNS["money"])
    current = view.current_round
    return _print(
        request,
        {
            "kind": "results",
            "event_id": view.id,
            "event_name": view.name,
            "title": t("day.results_title"),
            "subtitle": t("evpage.round_of", n=current, total=view.rounds)
            if current
            else t("evpage.not_seated", total=view.rounds),
            "lines": lines,
            "chombos": chombos,
            "primary_heading": t(primary),
            "secondary_heading": t(secondary) if secondary else "",
            "provisional": bool(board.unfinished),
        },
    )


@router.get("/e/{event_id}/rounds/{round_number}/sheet", response_class=HTMLResponse)
def round_sheet(request: Request, event_id: str, round_number: int) -> HTMLResponse:
    """A round's sheet to print: each table, its seats and the QR code of its page. A round
    not seated is refused in the reader's language."""
    limit_reads(request)
    t = i18n.Translator(request_language(request))
    book = event_book(request)
    try:
        with refusals():
            seated = book.round_sheet(event_id, round_number)
            view = book.event(event_id)
    except HTTPException:
        raise
    except CompanionError as refused:
        status = int(getattr(refused, "http_status", 404))
        said = t(refused.key, **refused.params) if refused.key else refused.message
        return render_error(request, status, said)
    shown = round_view(t, round_of(view.to_json(), seated.number) or {}, now())
    return _print(
        request,
        {
            "kind": "sheet",
            "event_id": view.id,
            "event_name": view.name,
            "title": t("day.sheet_title", n=seated.number),
            "subtitle": shown.figures,
            "tables": shown.tables,
            "byes": shown.byes,
            "share_base": share_reach(request).base,
        },
    )

"""A club's pages: the leaderboard and a player's page, rendered on the server (no script), in
the reader's language (docs/clubs.md, *Pages*).

- `GET /c/{id}`: the leaderboard, best first by the club's rating, with a form for the
  minimum of games and the dates ("as of", and "since" for a season); links to each player's
  page and to the CSV and JSON downloads.
- `GET /c/{id}/p/{name}`: a player: their rating game by game as an SVG chart, their places as
  a histogram, their stats (each saying what it is over), head-to-head and recent games with
  links to their tables.

A date the reader mistyped is said on the page (in their language, by its `error_key`), with
every game rated; an unknown club or player is the error page's 404. A private club's pages
need its organiser's token (`Authorization: Bearer`, sent by the page's script from the token
the device keeps): without it they are a 403 that says so, in the reader's language.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from companion.api.clubs import PRIVATE_HEADERS, club_book
from companion.api.deps import WholeQuery, refusals
from companion.api.security import bearer_token
from companion.clubs.ratings import ALL_TIME, Period, RatingOrder
from companion.errors import CompanionError
from companion.settlement import format_amount, signed_amount
from companion.web import i18n
from companion.web.club_chart import place_histogram, rating_chart
from companion.web.templating import render, request_language

router = APIRouter(include_in_schema=False)

RECENT_GAMES = 20
"""The games a player's page lists, latest first (the CSV has them all)."""


def _period(t: i18n.Translator, as_of: str | None, since: str | None) -> tuple[Period, str | None]:
    """The period asked for, or every game with the refusal's words when a date is wrong."""
    from companion.ledger.club_book.export import period_of

    try:
        return period_of(as_of, since), None
    except CompanionError as error:
        return ALL_TIME, t(error.key, **error.params) if error.key else error.message


def _filters(as_of: str | None, since: str | None, minimum: int = 0) -> dict[str, Any]:
    kept = {"as_of": as_of or "", "since": since or "", "min_games": minimum or ""}
    dates = {k: v for k, v in kept.items() if v and k != "min_games"}
    return {
        "filters": kept,
        "query": urlencode({k: v for k, v in kept.items() if v}),
        "period_query": urlencode(dates),
    }


def _rating_text(order: RatingOrder, value: Any) -> str:
    if order is RatingOrder.TOTAL:
        return signed_amount(value)
    return f"{float(value):.2f}"


def _refused(request: Request, club_id: str) -> tuple[Any, HTMLResponse | None, dict[str, str]]:
    """The book, and for a private club read without its token the page that says so (403);
    the headers of a private club's page read with it (no cache keeps it)."""
    from companion.ledger.club_book.errors import ClubAccessError

    book = club_book(request)
    with refusals():
        try:
            private = book.check_reader(club_id, bearer_token(request))
        except ClubAccessError as error:
            t = i18n.Translator(request_language(request))
            said = t(error.key) if error.key else error.message
            page = render(request, "club_private.html", status_code=403, message=said)
            page.headers["cache-control"] = "no-store"
            return book, page, {}
    return book, None, PRIVATE_HEADERS if private else {}


def _private(response: HTMLResponse, headers: dict[str, str]) -> HTMLResponse:
    response.headers.update(headers)
    return response


@router.get("/c/{club_id}", response_class=HTMLResponse)
def leaderboard_page(
    request: Request,
    club_id: str,
    as_of: str | None = None,
    since: str | None = None,
    min_games: WholeQuery = None,
) -> HTMLResponse:
    t = i18n.Translator(request_language(request))
    period, problem = _period(t, as_of, since)
    book, refused, headers = _refused(request, club_id)
    if refused is not None:
        return refused
    with refusals():
        record, ratings = book.ratings(club_id, period)
    minimum = min_games or 0
    order = record.rating
    rows = [
        {
            "rank": rank,
            "name": record.name_of(player.player),
            "link": f"/c/{record.id}/p/{quote(record.name_of(player.player), safe='')}",
            "games": player.games,
            "rating": _rating_text(order, player.rating(order)),
            "ordinal": f"{player.ordinal:.2f}",
            "tenhou_r": f"{float(player.tenhou_r):.1f}",
            "total": signed_amount(player.total),
            "average_place": f"{float(player.average_place):.2f}",
        }
        for rank, player in enumerate(ratings.leaderboard(order, minimum), 1)
    ]
    page = render(
        request,
        "club.html",
        status_code=422 if problem else 200,
        club=record,
        order=order.value,
        rows=rows,
        games=ratings.games,
        players=len(ratings.players),
        problem=problem,
        **_filters(as_of, since, minimum),
    )
    return _private(page, headers)


@router.get("/c/{club_id}/p/{name}", response_class=HTMLResponse)
def player_page(
    request: Request,
    club_id: str,
    name: str,
    as_of: str | None = None,
    since: str | None = None,
) -> HTMLResponse:
    t = i18n.Translator(request_language(request))
    period, problem = _period(t, as_of, since)
    book, refused, headers = _refused(request, club_id)
    if refused is not None:
        return refused
    with refusals():
        record, _ = book.ratings(club_id, period)
        page = book.player_page(club_id, name, period)
    order = record.rating
    stats = page.stats
    ratings = page.ratings
    shares = [
        ("club.stat_wins", stats.wins, "hands"),
        ("club.stat_deal_ins", stats.deal_ins, "hands"),
        ("club.stat_self_draws", stats.self_draws, "wins"),
    ]
    if record.family == "riichi":
        shares.insert(2, ("club.stat_riichi", stats.riichi, "hands"))
    games = [
        {
            "table": game.table_id,
            "name": game.name,
            "day": game.finished_at.date().isoformat(),
            "place": game.places[game.players.index(page.player.key)],
            "result": signed_amount(game.results[game.players.index(page.player.key)]),
            "others": [record.name_of(key) for key in game.players if key != page.player.key],
        }
        for game in page.games[:RECENT_GAMES]
    ]
    opponents = [
        {
            "name": record.name_of(row.opponent),
            "link": f"/c/{record.id}/p/{quote(record.name_of(row.opponent), safe='')}",
            "games": row.games,
            "higher": row.higher,
            "lower": row.lower,
        }
        for row in page.opponents
    ]
    mean_win = stats.average_win.value
    mean_count = stats.average_count.value
    shown = render(
        request,
        "club_player.html",
        status_code=422 if problem else 200,
        club=record,
        player=page.player,
        order=order.value,
        ratings=ratings,
        rating=None if ratings is None else _rating_text(order, ratings.rating(order)),
        tenhou_r=None if ratings is None else f"{float(ratings.tenhou_r):.1f}",
        ordinal=None if ratings is None else f"{ratings.ordinal:.2f}",
        chart=None if ratings is None else rating_chart(ratings, order),
        histogram=place_histogram(stats.places),
        stats=stats,
        total=signed_amount(stats.total),
        average_place=None
        if stats.average_place.value is None
        else f"{float(stats.average_place.value):.2f}",
        shares=[
            {
                "label": label,
                "count": share.count,
                "over": share.over,
                "unit": unit,
                "percent": None if share.rate is None else f"{float(share.rate) * 100:.1f}",
            }
            for label, share, unit in shares
        ],
        average_win=None if mean_win is None else format_amount(Fraction(round(mean_win))),
        average_count=None if mean_count is None else f"{float(mean_count):.2f}",
        largest_win=None if stats.largest_win is None else format_amount(stats.largest_win),
        games=games,
        more_games=max(0, len(page.games) - RECENT_GAMES),
        opponents=opponents,
        problem=problem,
        csv_link=f"/api/clubs/{record.id}/players/{quote(page.player.name, safe='')}?format=csv",
        **_filters(as_of, since),
    )
    return _private(shown, headers)

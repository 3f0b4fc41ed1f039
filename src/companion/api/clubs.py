"""`/api/clubs`: a club's roster, ratings and players over HTTP (docs/clubs.md).

- `POST /api/clubs` makes a club and answers with its id and the organiser's token (shown once).
- `GET /api/clubs/{id}`, `.../ratings`, `.../players/{name}`, `.../games` need only the id: the
  id is the read-only capability, as an event's is, unless the club is private: then they need
  the organiser's token too (403 without it). `format=csv` downloads them. With a token,
  `GET /api/clubs/{id}` checks it (403 when it is not the club's) and says `"organiser": true`.
- Every roster write (`POST .../players`, `.../players/rename`, `.../players/merge`,
  `.../players/unmerge`, `.../attach`, `.../tables`, `.../events`, `.../settings`) needs the
  club's token as `Authorization: Bearer <token>`: an unknown club is a 404 for everyone,
  then no token a 401, a wrong one a 403, and only then is the body read.

Refusals are `{"error": ..., "error_key"?: ..., "error_params"?: ...}`: 404 an unknown club,
player, table or event; 409 a name taken, a merge that can no longer be undone, a table of
another club; 422 anything else the request got wrong; 503 the database.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import quote

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse, Response
from pydantic import Field

from companion.api.deps import WholeQuery, call, open_ledger, refusals, table_key
from companion.api.events import CreateEvent
from companion.api.limits import limit_creation, limit_writes
from companion.api.schemas import ErrorDoc
from companion.api.scoring import read_json
from companion.api.security import bearer_token
from companion.api.table_bodies import DEFAULT_PROFILE, BodyModel, CreateTable, Model, read_body
from companion.api.table_docs import model_body
from companion.api.tables import download_disposition
from companion.errors import InvalidRequestError
from companion.ledger.state import MAX_CORRECTION_TEXT, MAX_PLAYER_NAME, MAX_TABLE_NAME

if TYPE_CHECKING:
    # SQLAlchemy and Alembic load on the first club request, not with the app.
    from companion.ledger.club_book.service import ClubBook

router = APIRouter(prefix="/api/clubs", tags=["clubs"])

By = Field("", max_length=MAX_CORRECTION_TEXT, description="who decides (kept in the record)")


class CreateClub(BodyModel):
    """A new club (`POST /api/clubs`)."""

    name: str = Field(max_length=MAX_TABLE_NAME, description="what the club is called")
    rating: Literal["openskill", "tenhou", "total"] = Field(
        "openskill", description="what orders the leaderboard"
    )
    private: bool = Field(
        False, description="the leaderboard, players' pages and exports for the organiser only"
    )
    by: str = By


class ClubSettings(BodyModel):
    """What the organiser may change of the club (`POST .../settings`)."""

    private: bool = Field(
        description="the leaderboard, players' pages and exports for the organiser only"
    )
    by: str = By


class AddPlayer(BodyModel):
    """A player added to the roster (`POST .../players`)."""

    name: str = Field(max_length=MAX_PLAYER_NAME * 5, description="the player's name")
    nickname: str | None = Field(None, max_length=MAX_PLAYER_NAME, description="a nickname")
    ema_id: str | None = Field(None, max_length=32, description="the player's EMA id")
    by: str = By


class RenamePlayer(BodyModel):
    """A player renamed (`POST .../players/rename`): the old name still means them."""

    name: str = Field(max_length=MAX_PLAYER_NAME * 5, description="the player's name now")
    new_name: str = Field(max_length=MAX_PLAYER_NAME * 5, description="their name from now on")
    by: str = By


class MergePlayers(BodyModel):
    """Two entries of one person made one (`POST .../players/merge`)."""

    name: str = Field(max_length=MAX_PLAYER_NAME * 5, description="the entry merged away")
    into: str = Field(max_length=MAX_PLAYER_NAME * 5, description="the entry that stays")
    by: str = By


class UnmergePlayer(BodyModel):
    """A merge undone (`POST .../players/unmerge`), while no game has finished since."""

    name: str = Field(max_length=MAX_PLAYER_NAME * 5, description="the entry merged away")
    by: str = By


class AttachBody(BodyModel):
    """An existing table or event joins the club (`POST .../attach`): one of the two."""

    table: str | None = Field(None, max_length=32, description="a table's id")
    event: str | None = Field(None, max_length=32, description="or an event's id")
    by: str = By


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    descriptions = {
        400: "the body is not JSON",
        401: "no organiser token (Authorization: Bearer <token>)",
        403: "the token is not this club's (or a private club read without it)",
        404: "no club with this id (or no such player, table or event)",
        409: "a name already taken (compared without case), a merge that can no longer be "
        "undone, a table or event of another club",
        413: "the body is over the size limit",
        415: "the body is not JSON",
        422: "a request that cannot be carried out (an empty or long name, a merge into "
        "themself, another profile family, a date not YYYY-MM-DD...)",
        429: "too many requests",
        503: "the database cannot be reached",
    }
    return {status: {"model": ErrorDoc, "description": descriptions[status]} for status in statuses}


WRITE_ERRORS = _errors(400, 401, 403, 404, 409, 413, 415, 422, 429, 503)
READ_ERRORS = _errors(403, 404, 422, 503)


def links(club_id: str, token: str | None = None) -> dict[str, str]:
    """The club's pages and API; with the token, the organiser's link (the token after `#`)."""
    found = {"read": f"/c/{club_id}", "api": f"/api/clubs/{club_id}"}
    if token is not None:
        found["organise"] = f"/c/{club_id}/organise#token={quote(token, safe='')}"
    return found


PRIVATE_HEADERS = {"cache-control": "private, no-store"}
"""A private club's reads: its organiser's alone, kept by no cache (the service worker never
keeps a `private` answer, which offline it would give to a request without the token)."""


def reader_book(request: Request, club_id: str) -> tuple[ClubBook, dict[str, str]]:
    """The book, once the reader may read the club (a private club's reader holds its token),
    and the headers its answers carry."""
    book = club_book(request)
    with refusals():
        private = book.check_reader(club_id, bearer_token(request))
    return book, PRIVATE_HEADERS if private else {}


def club_book(request: Request) -> ClubBook:
    from companion.ledger.club_book.service import ClubBook

    with refusals():
        return ClubBook(open_ledger(request))


async def _organiser(request: Request, club_id: str) -> ClubBook:
    """The book, once the request holds the club's token: 404, then 401, then 403."""
    book = await call(club_book, request)
    token = bearer_token(request)
    if token is None:
        await call(book.roster, club_id)
        raise HTTPException(
            status_code=401,
            detail="the roster's changes need the club's token: send Authorization: Bearer <token>",
            headers={"WWW-Authenticate": "Bearer"},
        )
    await call(book.check_token, club_id, token)
    limit_writes(request, f"club:{table_key(club_id)}")
    return book


async def _organise(
    request: Request, club_id: str, model: type[Model], act: Callable[[ClubBook, Model], Any]
) -> JSONResponse:
    book = await _organiser(request, club_id)
    body = read_body(model, await read_json(request))
    done = await call(act, book, body)
    return JSONResponse(done.to_json(), status_code=201)


def club_json(book: ClubBook, club_id: str) -> dict[str, Any]:
    record = book.record(club_id)
    return {
        "id": record.id,
        "name": record.name,
        "rating": record.rating.value,
        "private": record.private,
        "family": record.family,
        "games": len(record.games),
        "tables": list(record.tables),
        "players": [player.to_json() for player in record.roster.active()],
        "links": links(record.id),
    }


@router.post(
    "",
    summary="Make a club",
    description="A name and the rating that orders its leaderboard. The answer has the club's "
    "`id` (its leaderboard `/c/{id}`) and the organiser's `token`, shown only here.",
    status_code=201,
    response_model=None,
    responses=_errors(400, 413, 415, 422, 429, 503),
    openapi_extra=model_body(CreateClub, {"name": "Thursday Riichi", "rating": "openskill"}),
)
async def create_club(request: Request) -> JSONResponse:
    body = read_body(CreateClub, await read_json(request))
    limit_creation(request)
    book = await call(club_book, request)
    created = await call(book.create_club, body.name, body.rating, private=body.private, by=body.by)
    answer = {"id": created.id, "token": created.token, "links": links(created.id, created.token)}
    headers = {"location": f"/api/clubs/{created.id}", "cache-control": "no-store"}
    return JSONResponse(answer, status_code=201, headers=headers)


@router.get(
    "/{club_id}",
    summary="A club: its roster, its tables, how many games it has rated",
    description="With the organiser's token (`Authorization: Bearer`), the token is checked "
    '(403 when it is not the club\'s) and the answer says `"organiser": true`.',
    response_model=None,
    responses=READ_ERRORS,
)
def get_club(request: Request, club_id: str) -> JSONResponse:
    book, headers = reader_book(request, club_id)
    token = bearer_token(request)
    with refusals():
        if token is not None:
            book.check_token(club_id, token)
        answer = club_json(book, club_id) | {"organiser": token is not None}
    return JSONResponse(answer, headers=PRIVATE_HEADERS if token is not None else headers)


def _format(format: str) -> str:
    if format not in ("json", "csv"):
        raise InvalidRequestError("format must be json or csv", key="refusal.club_format")
    return format


def _answer(
    shown: str,
    headers: dict[str, str],
    download: tuple[str, str],
    as_csv: Callable[[], str],
    as_json: Callable[[], Any],
) -> Response:
    """A read as JSON, or as a CSV file named after `download` (the club's id, a title)."""
    if shown == "csv":
        disposition = download_disposition(*download, "csv")
        return Response(
            as_csv(),
            media_type="text/csv; charset=utf-8",
            headers=headers | {"content-disposition": disposition},
        )
    return JSONResponse(as_json(), headers=headers)


@router.get(
    "/{club_id}/ratings",
    summary="The leaderboard: every player's ratings, best first by the club's rating",
    description="`as_of` (YYYY-MM-DD): the games finished by the end of that day; `since`: "
    "those from that day (with `as_of`, a season); `min_games`: the players with at least that "
    "many. Each player: `name`, `games`, `mu`, `sigma`, `ordinal`, `tenhou_r`, `total`, "
    "`average_place`. `format=csv`: the same columns as CSV.",
    response_model=None,
    responses=READ_ERRORS,
)
def get_ratings(
    request: Request,
    club_id: str,
    as_of: str | None = None,
    since: str | None = None,
    min_games: WholeQuery = None,
    format: str = "json",
) -> Response:
    from companion.ledger.club_book.export import leaderboard_csv, leaderboard_json, period_of

    shown = _format(format)
    book, headers = reader_book(request, club_id)
    with refusals():
        record, ratings = book.ratings(club_id, period_of(as_of, since))
        minimum = min_games or 0
        return _answer(
            shown,
            headers,
            (record.id, record.name),
            lambda: leaderboard_csv(record, ratings, minimum),
            lambda: leaderboard_json(record, ratings, minimum),
        )


@router.get(
    "/{club_id}/players/{name}",
    summary="A player: ratings game by game, stats, head-to-head, games",
    description="`as_of` and `since` as for the ratings. Each stat says what it is over "
    "(`count` of `over` games or hands). `format=csv`: the player's games.",
    response_model=None,
    responses=READ_ERRORS,
)
def get_player(
    request: Request,
    club_id: str,
    name: str,
    as_of: str | None = None,
    since: str | None = None,
    format: str = "json",
) -> Response:
    from companion.ledger.club_book.export import period_of, player_games_csv, player_json

    shown = _format(format)
    book, headers = reader_book(request, club_id)
    with refusals():
        period = period_of(as_of, since)
        record, _ = book.ratings(club_id, period)
        page = book.player_page(club_id, name, period)
        return _answer(
            shown,
            headers,
            (record.id, page.player.name),
            lambda: player_games_csv(record, page),
            lambda: player_json(record, page),
        )


@router.get(
    "/{club_id}/games",
    summary="Every player's games: a row per player at each finished game, latest first",
    description="`as_of` and `since` as for the ratings. Each row: `player`, then the columns "
    "of a player's games (`table`, `name`, `finished_at`, `profile`, `place`, `result`, "
    "`opponents`). `format=csv`: the same columns as CSV.",
    response_model=None,
    responses=READ_ERRORS,
)
def get_games(
    request: Request,
    club_id: str,
    as_of: str | None = None,
    since: str | None = None,
    format: str = "json",
) -> Response:
    from companion.ledger.club_book.export import club_games_csv, club_games_json, period_of

    shown = _format(format)
    book, headers = reader_book(request, club_id)
    with refusals():
        period = period_of(as_of, since)
        record = book.record(club_id)
        return _answer(
            shown,
            headers,
            (record.id, f"{record.name} games"),
            lambda: club_games_csv(record, period),
            lambda: club_games_json(record, period),
        )


@router.post(
    "/{club_id}/players",
    summary="Add a player to the roster (needs the club's token)",
    status_code=201,
    response_model=None,
    responses=WRITE_ERRORS,
    openapi_extra=model_body(AddPlayer, {"name": "Ann", "nickname": "Annie"}),
)
async def add_player(request: Request, club_id: str) -> JSONResponse:
    return await _organise(
        request,
        club_id,
        AddPlayer,
        lambda book, body: book.add_player(
            club_id, body.name, nickname=body.nickname, ema_id=body.ema_id, by=body.by
        ),
    )


@router.post(
    "/{club_id}/players/rename",
    summary="Rename a player (needs the club's token); their games stay theirs",
    status_code=201,
    response_model=None,
    responses=WRITE_ERRORS,
    openapi_extra=model_body(RenamePlayer, {"name": "Ben", "new_name": "Benjamin"}),
)
async def rename_player(request: Request, club_id: str) -> JSONResponse:
    return await _organise(
        request,
        club_id,
        RenamePlayer,
        lambda book, body: book.rename_player(club_id, body.name, body.new_name, by=body.by),
    )


@router.post(
    "/{club_id}/players/merge",
    summary="Merge two entries of one person (needs the club's token)",
    status_code=201,
    response_model=None,
    responses=WRITE_ERRORS,
    openapi_extra=model_body(MergePlayers, {"name": "Annie", "into": "Ann"}),
)
async def merge_players(request: Request, club_id: str) -> JSONResponse:
    return await _organise(
        request,
        club_id,
        MergePlayers,
        lambda book, body: book.merge_players(club_id, body.name, body.into, by=body.by),
    )


@router.post(
    "/{club_id}/players/unmerge",
    summary="Undo a merge while no game has finished since (needs the club's token)",
    status_code=201,
    response_model=None,
    responses=WRITE_ERRORS,
    openapi_extra=model_body(UnmergePlayer, {"name": "Annie"}),
)
async def unmerge_player(request: Request, club_id: str) -> JSONResponse:
    return await _organise(
        request,
        club_id,
        UnmergePlayer,
        lambda book, body: book.unmerge_player(club_id, body.name, by=body.by),
    )


@router.post(
    "/{club_id}/settings",
    summary="Change the club's settings (needs the club's token)",
    description='`{"private": true}`: from now on the leaderboard, the players\' pages and the '
    "exports need the organiser's token; `false`: whoever has the club's id reads them. The "
    'answer: `{"private": ...}`.',
    status_code=201,
    response_model=None,
    responses=WRITE_ERRORS,
    openapi_extra=model_body(ClubSettings, {"private": True}),
)
async def club_settings(request: Request, club_id: str) -> JSONResponse:
    book = await _organiser(request, club_id)
    body = read_body(ClubSettings, await read_json(request))
    private = await call(book.set_private, club_id, body.private, by=body.by)
    return JSONResponse({"private": private}, status_code=201, headers=PRIVATE_HEADERS)


def _attach(book: ClubBook, club_id: str, body: AttachBody) -> Any:
    if (body.table is None) == (body.event is None):
        raise InvalidRequestError("attach one table or one event", key="refusal.club_attach")
    if body.table is not None:
        return book.attach_table(club_id, body.table, by=body.by)
    return book.attach_event(club_id, body.event or "", by=body.by)


@router.post(
    "/{club_id}/attach",
    summary="Attach an existing table or event (needs the club's token)",
    description="Its names are matched to the roster (without case) and new names join it; "
    'the answer lists both: `{"joined": [...], "known": [...]}`.',
    status_code=201,
    response_model=None,
    responses=WRITE_ERRORS,
    openapi_extra=model_body(AttachBody, {"table": "k3m9x2pq"}),
)
async def attach(request: Request, club_id: str) -> JSONResponse:
    return await _organise(
        request, club_id, AttachBody, lambda book, body: _attach(book, club_id, body)
    )


@router.post(
    "/{club_id}/tables",
    summary="Start a table of the club (needs the club's token)",
    description="The body of `POST /api/tables`. Its names join the roster as for `attach`; "
    "the answer has the table's `id`, its write `token` (shown only here) and `roster`.",
    status_code=201,
    response_model=None,
    responses=WRITE_ERRORS,
    openapi_extra=model_body(
        CreateTable,
        {"profile": "riichi", "players": ["Ann", "Ben", "Cat", "Dan"], "options": {}},
    ),
)
async def create_table(request: Request, club_id: str) -> JSONResponse:
    book = await _organiser(request, club_id)
    body = read_body(CreateTable, await read_json(request))
    created, joined = await call(
        book.create_table,
        club_id,
        body.profile or DEFAULT_PROFILE,
        body.players,
        options=body.options,
        hands=body.hands,
        name=body.name or "",
        rounds=body.rounds,
    )
    answer = {
        "id": created.id,
        "token": created.token,
        "club": table_key(club_id),
        "roster": joined.to_json(),
        "links": {"read": f"/t/{created.id}", "api": f"/api/tables/{created.id}"},
    }
    return JSONResponse(answer, status_code=201, headers={"cache-control": "no-store"})


@router.post(
    "/{club_id}/events",
    summary="Make an event of the club (needs the club's token)",
    description="The body of `POST /api/events`. Its players are matched to the roster and new "
    'names join it; with `"first_round": "balanced"` round 1 deals them in snake order of the '
    "club's rating (unrated players last, as entered). The answer has the event's `id`, its "
    "organiser `token` (shown only here) and `roster`.",
    status_code=201,
    response_model=None,
    responses=WRITE_ERRORS,
    openapi_extra=model_body(
        CreateEvent,
        {
            "name": "Spring league, night 1",
            "profile": "riichi",
            "players": ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"],
            "rounds": 3,
            "first_round": "balanced",
        },
    ),
)
async def create_event(request: Request, club_id: str) -> JSONResponse:
    book = await _organiser(request, club_id)
    body = read_body(CreateEvent, await read_json(request))
    created, joined = await call(_create_event, book, club_id, body)
    answer = {
        "id": created.id,
        "token": created.token,
        "club": table_key(club_id),
        "roster": joined.to_json(),
        "links": {"read": f"/e/{created.id}", "api": f"/api/events/{created.id}"},
    }
    return JSONResponse(answer, status_code=201, headers={"cache-control": "no-store"})


def _create_event(book: ClubBook, club_id: str, body: CreateEvent) -> tuple[Any, Any]:
    """The event made and attached; refused before it is made for an unknown club or one of
    another family."""
    from companion.ledger.event_book.service import EventBook

    book.check_attachable(club_id, body.profile)
    players = body.players
    if body.first_round == "balanced":
        players = book.rated_order(club_id, players)
    created = EventBook(book.ledger).create_event(
        body.name,
        body.profile,
        body.options,
        players,
        body.rounds,
        seed=body.seed,
        first_round=body.first_round,
        later_rounds=body.later_rounds,
        leftover=body.leftover,
        hands=body.hands,
        table_rounds=body.table_rounds,
        by=body.by,
    )
    return created, book.attach_event(club_id, created.id, by=body.by)

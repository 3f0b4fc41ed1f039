"""`/api/events`: events (several tables over several rounds, one leaderboard) over HTTP.

- `POST /api/events` makes an event and answers with its id and the organiser's token (shown
  once).
- `GET /api/events/{id}`, `.../standings`, `.../audit`, `.../export` need only the id: the id is
  the read-only capability, as a table's is. There is no listing of events.
- Every organiser write (`POST .../rounds`, `.../unseat`, `.../penalties`, `.../withdrawals`,
  `.../players`, `.../timers`) and the tables' write tokens (`GET .../tokens`) need the
  event's token as `Authorization: Bearer <token>`, checked in the tables' order: an unknown
  event is a 404 for everyone, then no token a 401, a wrong one a 403, and only then is the
  body read.

Refusals are `{"error": ..., "error_key"?: ..., "error_params"?: ...}`: 404 unknown event, 409 a
round seated twice or out of order (or a change to a seated round; a round seated while
tables still play, unconfirmed; a seating taken back too late), 503 the database, 422
anything else the request got wrong (the seating's refusals among them).

`python -m companion.api.events [docs/events.md]` writes the tables of the bodies' fields into
docs/events.md (tests/test_event_api.py holds them to the models).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, Protocol
from urllib.parse import quote

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse, Response
from pydantic import Field

from companion.api.body_docs import with_body_tables
from companion.api.deps import call, call_reading, open_ledger, refusals, table_key
from companion.api.event_answers import export_response, json_answer, json_bytes
from companion.api.limits import (
    EXPORT_COST,
    limit_creation,
    limit_reads,
    limit_seating,
    limit_writes,
)
from companion.api.schemas import ErrorDoc
from companion.api.scoring import read_json
from companion.api.security import bearer_token
from companion.api.table_bodies import (
    DEFAULT_PROFILE,
    BodyModel,
    Model,
    ProfileId,
    Shape,
    read_body,
)
from companion.api.table_docs import model_body
from companion.errors import InvalidRequestError
from companion.ledger.checks import KEY_LENGTH
from companion.ledger.state import MAX_CORRECTION_TEXT, MAX_PLAYER_NAME, MAX_TABLE_NAME

if TYPE_CHECKING:
    # SQLAlchemy and Alembic load on the first event request, not with the app.
    from companion.ledger.event_book.reads import EventRead
    from companion.ledger.event_book.service import EventBook

router = APIRouter(prefix="/api/events", tags=["events"])

# ---------------------------------------------------------------------------------------------
# The bodies


By = Field("", max_length=MAX_CORRECTION_TEXT, description="who decides (kept in the record)")
ActionKey = Annotated[
    str | None,
    Field(
        max_length=KEY_LENGTH,
        description="idempotency key: the same key again records nothing new (200)",
    ),
]
"""A key for the actions a phone may send twice (a retry after a dropped answer)."""


class CreateEvent(BodyModel):
    """A new event (`POST /api/events`)."""

    name: str = Field(max_length=MAX_TABLE_NAME, description="what the event is called")
    profile: ProfileId = Field(DEFAULT_PROFILE, description="what every table of the event plays")
    options: dict[str, Any] = Field(
        default_factory=dict, description="the profile's options, for every table"
    )
    players: Annotated[list[str], Shape("a list of names")] = Field(
        description="the players, in the order entered (round 1 as listed seats them in it)"
    )
    rounds: int = Field(ge=1, description="how many rounds the event plays")
    seed: int | None = Field(
        None, ge=0, description="the seating's seed (none: drawn); the same seed, the same seating"
    )
    first_round: Literal["random", "listed", "balanced"] = Field(
        "random",
        description="round 1 drawn with `seed`, or as listed: the first four at table 1, East "
        "first; or balanced: the players entered best first (a club's leaderboard), dealt to the "
        "tables in snake order",
    )
    later_rounds: Literal["no-repeats", "by-standing"] = Field(
        "no-repeats",
        description="later rounds: nobody meets twice while possible, or by standing (Swiss)",
    )
    leftover: Literal["byes", "substitutes"] | None = Field(
        None,
        description="players over a multiple of four sit out (byes) or substitutes fill in; "
        "none: such a field is refused",
    )
    hands: int | None = Field(
        None, description="each table's planned hands", json_schema_extra={"minimum": 1}
    )
    table_rounds: int | None = Field(
        None,
        description="or each table's planned rounds of the deal; not with `hands`",
        json_schema_extra={"minimum": 1},
    )
    by: str = By


class SeatBody(BodyModel):
    """Seat a round (`POST .../rounds`)."""

    round: int = Field(ge=1, description="the round to seat: the one after the last seated")
    confirm: bool = Field(
        False,
        description="seat it even though tables of the rounds before still play (without it, "
        "such a round is refused with 409 and the tables listed)",
    )
    by: str = By


class UnseatBody(BodyModel):
    """Take a round's seating back (`POST .../unseat`)."""

    round: int = Field(
        ge=1, description="the last seated round, while no hand is recorded at its tables"
    )
    by: str = By


class PenaltyBody(BodyModel):
    """A penalty or correction (`POST .../penalties`)."""

    player: str = Field(description="whose total it changes")
    amount: str = Field(
        max_length=60,
        description='added to the total, exactly: "-10" (a penalty of 10), "2.5", "-5/2"',
    )
    reason: str = Field(max_length=MAX_CORRECTION_TEXT, description="why (shown with the row)")
    by: str = By
    key: ActionKey = None


class WithdrawBody(BodyModel):
    """A withdrawal (`POST .../withdrawals`)."""

    player: str = Field(description="who withdraws")
    after_round: int = Field(ge=0, description="the last round they play")
    by: str = By
    key: ActionKey = None


class JoinBody(BodyModel):
    """A late entry (`POST .../players`)."""

    name: str = Field(max_length=MAX_PLAYER_NAME, description="the new player's name")
    joins: int = Field(ge=1, description="the first round they play (not seated yet)")
    by: str = By
    key: ActionKey = None


class TimerBody(BodyModel):
    """A round's timer (`POST .../timers`)."""

    round: int = Field(ge=1, description="a seated round")
    minutes: int = Field(ge=1, description="how long the round runs from now")
    by: str = By


EVENT_BODIES: tuple[type[BodyModel], ...] = (
    CreateEvent,
    SeatBody,
    UnseatBody,
    PenaltyBody,
    WithdrawBody,
    JoinBody,
    TimerBody,
)
"""The bodies docs/events.md tabulates, in its order."""


# ---------------------------------------------------------------------------------------------
# Answers


def links(event_id: str, token: str | None = None) -> dict[str, str]:
    """The event's pages and API: the leaderboard (read), and with the token the organiser's
    link, which carries the token after `#` as a table's write link does."""
    found = {"read": f"/e/{event_id}", "api": f"/api/events/{event_id}"}
    if token is not None:
        found["organise"] = f"/e/{event_id}#token={quote(token, safe='')}"
    return found


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    descriptions = {
        400: "the body is not JSON",
        401: "no organiser token (Authorization: Bearer <token>)",
        403: "the token is not this event's",
        404: "no event with this id",
        409: "the round is already seated, or the round before it is not; a change to a "
        "seated round; tables of the rounds before still playing, unconfirmed; a seating taken "
        "back that is not the last, or with a hand recorded at one of its tables",
        413: "the body is over the size limit",
        415: "the body is not JSON",
        422: "a request that cannot be carried out (the seating's refusals: an uneven field, "
        "a name twice...; a player not in the event; a limit...)",
        429: "too many requests: new events or seated tables from this address, writes to this "
        "event, or reads of events from this address (`Retry-After`)",
        503: "the database cannot be reached",
    }
    return {status: {"model": ErrorDoc, "description": descriptions[status]} for status in statuses}


WRITE_ERRORS = _errors(400, 401, 403, 404, 409, 413, 415, 422, 429, 503)
READ_ERRORS = _errors(404, 429, 503)
"""What a public read of an event may answer besides 200 (it counts against the read limit)."""


def _book(request: Request) -> EventBook:
    from companion.ledger.event_book.service import EventBook

    with refusals():
        return EventBook(open_ledger(request))


async def _organiser(request: Request, event_id: str) -> EventBook:
    """The book, once the request holds the event's token: 404, then 401, then 403."""
    book = await call(_book, request)
    token = bearer_token(request)
    if token is None:
        await call(book.event, event_id)
        raise HTTPException(
            status_code=401,
            detail="the organiser's actions need the event's token: send "
            "Authorization: Bearer <token>",
            headers={"WWW-Authenticate": "Bearer"},
        )
    if not await call(book.verify_token, event_id, token):
        raise HTTPException(status_code=403, detail="the token does not match this event")
    limit_writes(request, f"event:{table_key(event_id)}")
    return book


async def _read(request: Request, model: type[Model]) -> Model:
    return read_body(model, await read_json(request))


class _Shown(Protocol):
    def to_json(self) -> dict[str, Any]: ...


async def _organise(
    request: Request,
    event_id: str,
    model: type[Model],
    act: Callable[[EventBook, Model], _Shown],
) -> JSONResponse:
    """An organiser's write: the token checked, then the body read by `model`; 201 with what
    `act` recorded, 200 with what was recorded before under the body's key (nothing new)."""
    book = await _organiser(request, event_id)
    body = await _read(request, model)
    done = await call(act, book, body)
    # A timer has no key: only the keyed actions' answers say `duplicate`.
    repeat = getattr(done, "duplicate", False) is True
    return JSONResponse(done.to_json(), status_code=200 if repeat else 201)


def _event_json(book: EventBook, event_id: str) -> dict[str, Any]:
    view = book.event(event_id)
    return view.to_json() | {"links": links(view.id)}


# ---------------------------------------------------------------------------------------------
# Endpoints


@router.post(
    "",
    summary="Make an event",
    description="A name, a profile and its options (every table's), the players and the "
    "number of rounds, and how the rounds are seated. The answer has the event's `id` (the "
    "leaderboard `/e/{id}`) and the organiser's `token`, shown only here: the organiser's "
    "writes send it as `Authorization: Bearer <token>`.",
    status_code=201,
    response_model=None,
    responses=_errors(400, 413, 415, 422, 429, 503),
    openapi_extra=model_body(
        CreateEvent,
        {
            "name": "Club night",
            "profile": "sg",
            "players": ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"],
            "rounds": 3,
            "hands": 16,
        },
    ),
)
async def create_event(request: Request) -> JSONResponse:
    body = await _read(request, CreateEvent)
    limit_creation(request)
    book = await call(_book, request)
    created = await call(
        book.create_event,
        body.name,
        body.profile,
        body.options,
        body.players,
        body.rounds,
        seed=body.seed,
        first_round=body.first_round,
        later_rounds=body.later_rounds,
        leftover=body.leftover,
        hands=body.hands,
        table_rounds=body.table_rounds,
        by=body.by,
    )
    event = await call(_event_json, book, created.id)
    answer = {"id": created.id, "token": created.token, "event": event} | {
        "links": links(created.id, created.token)
    }
    # The token is in this answer only: no cache may keep it.
    headers = {"location": f"/api/events/{created.id}", "cache-control": "no-store"}
    return JSONResponse(answer, status_code=201, headers=headers)


@router.get(
    "/{event_id}",
    summary="An event: its players, every seated round with its tables, progress, timers",
    response_model=None,
    responses=_errors(404, 429, 503),
)
async def get_event(request: Request, event_id: str) -> Response:
    return await _kept_json(
        request, event_id, "event", lambda read: read.event_json | {"links": links(read.view.id)}
    )


async def _kept_json(
    request: Request, event_id: str, name: str, content: Callable[[EventRead], dict[str, Any]]
) -> Response:
    """A read limited per client address, answered with the JSON of `content` of the event as
    it stands, encoded once for each version of the event (`EventRead.encoded`)."""
    limit_reads(request)

    def answer() -> Response:
        read = _book(request).current(event_id)
        return json_answer(read.encoded(name, lambda: json_bytes(content(read))))

    return await call_reading(request, answer)


@router.get(
    "/{event_id}/access",
    summary="What a token may do at an event",
    description='With `Authorization: Bearer <token>`: 200 `{"access": "organise"}` when it is '
    'the event\'s token, 403 when not. Without one: `{"access": "read"}`.',
    response_model=None,
    responses=_errors(403, 404, 503),
)
async def event_access(request: Request, event_id: str) -> dict[str, Any]:
    if bearer_token(request) is None:
        book = await call(_book, request)
        await call(book.event, event_id)
        return {"id": table_key(event_id), "access": "read"}
    await _organiser(request, event_id)
    return {"id": table_key(event_id), "access": "organise"}


@router.get(
    "/{event_id}/standings",
    summary="The leaderboard across the event's tables",
    description="Players first place first, each with `name`, `total`, `rank`, `tied`, the "
    "tables played, penalties with their reasons, `withdrawn`, and `provisional` while a "
    "table of theirs is playing.",
    response_model=None,
    responses=_errors(404, 429, 503),
)
async def get_standings(request: Request, event_id: str) -> Response:
    return await _kept_json(
        request,
        event_id,
        "standings",
        lambda read: {"id": read.view.id, "name": read.view.name} | read.standings_json,
    )


@router.get(
    "/{event_id}/audit",
    summary="The organiser's record: every action, who and when",
    response_model=None,
    responses=_errors(404, 503),
)
def get_audit(request: Request, event_id: str) -> dict[str, Any]:
    book = _book(request)
    with refusals():
        entries = book.audit(event_id)
    return {"id": table_key(event_id), "audit": [entry.to_json() for entry in entries]}


@router.get(
    "/{event_id}/export",
    summary="The event as JSON (every table's record too) or its standings as CSV",
    description="`format=json` (default): the event, its standings, the organiser's record and "
    "every table's own export. `format=csv`: the standings, one row per player. Streamed.",
    response_model=None,
    responses=_errors(404, 422, 429, 503),
)
def export_event(request: Request, event_id: str, format: str = "json") -> Response:
    if format not in ("json", "csv"):
        raise InvalidRequestError('format must be "json" or "csv"')
    limit_reads(request, EXPORT_COST)
    return export_response(_book(request), event_id, format)


@router.get(
    "/{event_id}/tokens",
    summary="Every seated table's write token (needs the event's token)",
    description="For the organiser's seating page: each table with its write link.",
    response_model=None,
    responses=_errors(401, 403, 404, 429, 503),
)
async def get_tokens(request: Request, event_id: str) -> JSONResponse:
    book = await _organiser(request, event_id)
    view = await call(book.event, event_id)
    tokens = await call(book.table_tokens, event_id)
    tables = [
        {"round": round_.number, "number": table.number, "table": table.table}
        | _write_link(table.table, tokens[table.table])
        for round_ in view.seated
        for table in round_.tables
    ]
    return JSONResponse({"id": view.id, "tables": tables}, headers={"cache-control": "no-store"})


def _write_link(table_id: str, token: str) -> dict[str, str]:
    return {"token": token, "write": f"/t/{table_id}#token={quote(token, safe='')}"}


@router.post(
    "/{event_id}/rounds",
    summary="Seat the next round: its tables, created on the ledger (needs the token)",
    description="The answer is the round: each table with its ledger table id (`table`) and "
    "players East first, the byes, repeats and seat repeats; and each table's write link. "
    "While a table of the rounds before still plays, the round is seated only with "
    '`"confirm": true`: without it the answer is 409 `refusal.event_tables_playing`, its '
    "`error_params` the round (`round`) and the tables still playing (`playing`: each table's "
    "`round`, `number` and ledger table id `table`).",
    status_code=201,
    response_model=None,
    responses=WRITE_ERRORS,
    openapi_extra=model_body(SeatBody, {"round": 1, "by": "Mia"}),
)
async def seat_round(request: Request, event_id: str) -> JSONResponse:
    book = await _organiser(request, event_id)
    body = await _read(request, SeatBody)
    # The round's tables count against this address's seating limit (given back if refused).
    tables = await call(book.tables_to_seat, event_id, body.round)
    with limit_seating(request, tables):
        seated = await call(book.seat_round, event_id, body.round, by=body.by, confirm=body.confirm)
    tokens = await call(book.table_tokens, event_id)
    writes = {
        table.table: _write_link(table.table, tokens[table.table])["write"]
        for table in seated.tables
    }
    return JSONResponse(
        seated.to_json() | {"write_links": writes},
        status_code=201,
        headers={"cache-control": "no-store"},
    )


@router.post(
    "/{event_id}/unseat",
    summary="Take the last round's seating back, before its first hand (needs the token)",
    description="Only the last seated round, and only while no hand has been recorded at any "
    "of its tables (409 otherwise: `refusal.event_unseat_played` names the table, "
    "`refusal.event_unseat_not_last` the round seated after it). The round's tables, its "
    "timer and its seating go in one write, and the organiser's record says so; the ledger "
    "tables stay in the ledger, but no page of the event lists them. The answer is the record's "
    "new entry (`kind` `unseat`, its `details.tables` the tables by number).",
    status_code=200,
    response_model=None,
    responses=WRITE_ERRORS,
    openapi_extra=model_body(UnseatBody, {"round": 2, "by": "Mia"}),
)
async def unseat_round(request: Request, event_id: str) -> JSONResponse:
    book = await _organiser(request, event_id)
    body = await _read(request, UnseatBody)
    done = await call(book.unseat_round, event_id, body.round, by=body.by)
    return JSONResponse(done.to_json())


@router.post(
    "/{event_id}/penalties",
    summary="A penalty or correction of a player's total, with a reason (needs the token)",
    status_code=201,
    response_model=None,
    responses=WRITE_ERRORS,
    openapi_extra=model_body(
        PenaltyBody, {"player": "Ann", "amount": "-10", "reason": "late", "by": "Mia"}
    ),
)
async def add_penalty(request: Request, event_id: str) -> JSONResponse:
    return await _organise(
        request,
        event_id,
        PenaltyBody,
        lambda book, body: book.adjust(
            event_id, body.player, body.amount, body.reason, body.by, key=body.key
        ),
    )


@router.post(
    "/{event_id}/withdrawals",
    summary="A player withdraws after a round (needs the token)",
    status_code=201,
    response_model=None,
    responses=WRITE_ERRORS,
    openapi_extra=model_body(WithdrawBody, {"player": "Ann", "after_round": 2, "by": "Mia"}),
)
async def withdraw(request: Request, event_id: str) -> JSONResponse:
    return await _organise(
        request,
        event_id,
        WithdrawBody,
        lambda book, body: book.withdraw(
            event_id, body.player, body.after_round, by=body.by, key=body.key
        ),
    )


@router.post(
    "/{event_id}/players",
    summary="A late entry, from a round not seated yet (needs the token)",
    status_code=201,
    response_model=None,
    responses=WRITE_ERRORS,
    openapi_extra=model_body(JoinBody, {"name": "Ivy", "joins": 2, "by": "Mia"}),
)
async def add_player(request: Request, event_id: str) -> JSONResponse:
    return await _organise(
        request,
        event_id,
        JoinBody,
        lambda book, body: book.add_player(
            event_id, body.name, body.joins, by=body.by, key=body.key
        ),
    )


@router.post(
    "/{event_id}/timers",
    summary="Start (or restart) a seated round's timer (needs the token)",
    status_code=201,
    response_model=None,
    responses=WRITE_ERRORS,
    openapi_extra=model_body(TimerBody, {"round": 1, "minutes": 60, "by": "Mia"}),
)
async def start_timer(request: Request, event_id: str) -> JSONResponse:
    return await _organise(
        request,
        event_id,
        TimerBody,
        lambda book, body: book.start_timer(event_id, body.round, body.minutes, by=body.by),
    )


organiser_book, book_of = _organiser, _book
"""The organiser's checks and the book, for the day's actions (`api/event_day.py`)."""


if __name__ == "__main__":
    path = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/events.md")
    path.write_text(
        with_body_tables(path.read_text(encoding="utf-8"), EVENT_BODIES), encoding="utf-8"
    )

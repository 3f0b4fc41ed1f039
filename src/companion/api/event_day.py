"""`/api/events/{id}/...`: a tournament's day over HTTP (issue 39; docs/event_day.md). Every
write needs the event's token as `Authorization: Bearer <token>`, checked as the other
organiser's writes are (`api/events.py`: 404, then 401, then 403, and only then the body).

- `POST .../timers/extend`, `.../timers/pause`, `.../timers/resume`: a round's timer.
- `POST .../rules`: the hands played after the one in play when time is up, and what a voided
  table gives its players.
- `POST .../seats`: a table's seats fixed after hands were recorded (two players swapped, or
  all of them in their order); its record is replayed with them.
- `POST .../endings`, `.../endings/reopen`: a table ended before its game is over ("as it
  stands" or void), and that end taken back while its round is open.
- `POST .../entrants`, `GET .../results` (`?format=ema`: the EMA's CSV), `GET .../chombos`:
  the reports.
- `GET .../late`: the tables whose round's time is up and whose game goes on.

Refusals are as the other event endpoints': 404 unknown event, 409 a timer that does not run
(or is not paused, for a resume), 422 anything else the request got wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import Field

from companion.api.deps import call
from companion.api.events import READ_ERRORS, WRITE_ERRORS, By, book_of, organiser_book
from companion.api.limits import EXPORT_COST, limit_reads
from companion.api.scoring import read_json
from companion.api.table_bodies import BodyModel, Model, Shape, read_body
from companion.api.table_docs import model_body
from companion.api.tables import download_disposition
from companion.ledger.event_book.checks import MAX_TIMER_MINUTES
from companion.ledger.event_book.timer import MAX_TIME_UP_HANDS
from companion.ledger.state import MAX_CORRECTION_TEXT, MAX_PLAYER_NAME

if TYPE_CHECKING:
    from companion.ledger.event_book.service import EventBook

router = APIRouter(prefix="/api/events", tags=["events"])


class ExtendBody(BodyModel):
    """A round's timer extended (`POST .../timers/extend`)."""

    round: int = Field(ge=1, description="a seated round whose timer runs (or is paused)")
    minutes: int = Field(
        ge=1, le=MAX_TIMER_MINUTES, description="the minutes added to the round's length"
    )
    by: str = By


class TimerRoundBody(BodyModel):
    """A round's timer paused or resumed (`POST .../timers/pause`, `.../timers/resume`)."""

    round: int = Field(ge=1, description="a seated round with a timer")
    by: str = By


class RulesBody(BodyModel):
    """The day's rules (`POST .../rules`); a field left out stays as it is."""

    time_up_hands: int | None = Field(
        None,
        ge=0,
        le=MAX_TIME_UP_HANDS,
        description="hands played after the one in play when time is up: 0 finishes the hand "
        'in play, 1 is "+1 hand"',
    )
    void_score: str | None = Field(
        None,
        max_length=64,
        description='what each player of a voided table scores: a number ("0", "-5", "2.5") '
        'or "average" (their average of their other tables)',
    )
    by: str = By


Names = Annotated[list[str] | None, Shape("a list of names")]


class SeatsBody(BodyModel):
    """A table's seats fixed after hands were recorded (`POST .../seats`): two players
    swapped, or all of them (four, or three at a sanma event) in their seat order."""

    round: int | None = Field(None, ge=1, description="the table's round (none: the latest)")
    table: int = Field(ge=1, description="the table's number in its round")
    players: Names = Field(None, description="two players of the table who swap seats")
    order: Names = Field(
        None, description="or all the table's players (four, or three), East first"
    )
    by: str = By


class EndBody(BodyModel):
    """A table ended before its game is over (`POST .../endings`)."""

    round: int | None = Field(None, ge=1, description="the table's round (none: the latest)")
    table: int = Field(ge=1, description="the table's number in its round")
    mode: Literal["as-it-stands", "void"] = Field(
        description="counted as if the game ended now, or no result (the event's void score)"
    )
    reason: str = Field(max_length=MAX_CORRECTION_TEXT, description="why (kept and shown)")
    by: str = By


class ReopenBody(BodyModel):
    """A table's early end taken back (`POST .../endings/reopen`)."""

    round: int | None = Field(None, ge=1, description="the table's round (none: the latest)")
    table: int = Field(ge=1, description="the table's number in its round")
    by: str = By


class EntrantBody(BodyModel):
    """A player's EMA number and country, for the results file (`POST .../entrants`)."""

    player: str = Field(max_length=MAX_PLAYER_NAME, description="a player of the event")
    ema_id: str | None = Field(
        None, max_length=20, description='their EMA number, eight digits ("" clears it)'
    )
    country: str | None = Field(
        None, max_length=20, description='their country, three letters such as FRA ("" clears it)'
    )
    by: str = By


DAY_BODIES: tuple[type[BodyModel], ...] = (
    ExtendBody,
    TimerRoundBody,
    RulesBody,
    SeatsBody,
    EndBody,
    ReopenBody,
    EntrantBody,
)
"""The bodies docs/event_day.md tabulates, in its order."""


async def _act(
    request: Request,
    event_id: str,
    model: type[Model],
    act: Callable[[EventBook, Model], Any],
) -> JSONResponse:
    """The token checked, then the body read by `model`; 201 with what `act` did."""
    book = await organiser_book(request, event_id)
    body = read_body(model, await read_json(request))
    done = await call(act, book, body)
    return JSONResponse(done.to_json(), status_code=201)


@router.post(
    "/{event_id}/timers/extend",
    summary="Add minutes to a round's running (or paused) timer (needs the token)",
    description="409 `refusal.day_no_timer` when the round has no timer, "
    "`refusal.day_timer_not_running` when its time is up. The answer is the timer.",
    status_code=201,
    response_model=None,
    responses=WRITE_ERRORS,
    openapi_extra=model_body(ExtendBody, {"round": 1, "minutes": 10, "by": "Mia"}),
)
async def extend_timer(request: Request, event_id: str) -> JSONResponse:
    return await _act(
        request,
        event_id,
        ExtendBody,
        lambda book, body: book.extend_timer(event_id, body.round, body.minutes, by=body.by),
    )


@router.post(
    "/{event_id}/timers/pause",
    summary="Stop a round's running timer where it stands (needs the token)",
    status_code=201,
    response_model=None,
    responses=WRITE_ERRORS,
    openapi_extra=model_body(TimerRoundBody, {"round": 1, "by": "Mia"}),
)
async def pause_timer(request: Request, event_id: str) -> JSONResponse:
    return await _act(
        request,
        event_id,
        TimerRoundBody,
        lambda book, body: book.pause_timer(event_id, body.round, by=body.by),
    )


@router.post(
    "/{event_id}/timers/resume",
    summary="Run a paused round's timer again from where it stood (needs the token)",
    status_code=201,
    response_model=None,
    responses=WRITE_ERRORS,
    openapi_extra=model_body(TimerRoundBody, {"round": 1, "by": "Mia"}),
)
async def resume_timer(request: Request, event_id: str) -> JSONResponse:
    return await _act(
        request,
        event_id,
        TimerRoundBody,
        lambda book, body: book.resume_timer(event_id, body.round, by=body.by),
    )


@router.post(
    "/{event_id}/rules",
    summary="The day's rules: hands after time is up, a voided table's score (needs the token)",
    status_code=201,
    response_model=None,
    responses=WRITE_ERRORS,
    openapi_extra=model_body(RulesBody, {"time_up_hands": 1, "void_score": "0", "by": "Mia"}),
)
async def set_rules(request: Request, event_id: str) -> JSONResponse:
    return await _act(
        request,
        event_id,
        RulesBody,
        lambda book, body: book.set_day_rules(
            event_id, time_up_hands=body.time_up_hands, void_score=body.void_score, by=body.by
        ),
    )


@router.post(
    "/{event_id}/seats",
    summary="Fix a table's seats after hands were recorded (needs the token)",
    description="Two players of one table swap seats (`players`), or all its players are given in "
    "their seat order (`order`). The ledger table's players are set to the order fixed and its "
    "whole record is replayed with them: every hand is re-attributed from the first, and the "
    "standings follow. The answer is the organiser's record's new entry (`kind` `swap`, its "
    "`details` the table's number and ledger id, the order `before` and `after`). 422 "
    "`refusal.day_swap_other_table` for a player of another table.",
    status_code=201,
    response_model=None,
    responses=WRITE_ERRORS,
    openapi_extra=model_body(SeatsBody, {"table": 1, "players": ["Ann", "Cat"], "by": "Mia"}),
)
async def fix_seats(request: Request, event_id: str) -> JSONResponse:
    return await _act(
        request,
        event_id,
        SeatsBody,
        lambda book, body: book.fix_seats(
            event_id,
            body.table,
            round_number=body.round,
            players=body.players,
            order=body.order,
            by=body.by,
        ),
    )


@router.post(
    "/{event_id}/endings",
    summary="End a table before its game is over, with a reason (needs the token)",
    description="`as-it-stands`: the table counts as if its game ended after its last entry "
    "now (a points game with uma and oka on its points, table points on the hands played, "
    "money as it stands; later hands do not count). `void`: no result; its players get the "
    "event's void score (`POST .../rules`). 409 `refusal.day_end_finished` for a table whose "
    "game is over, `refusal.day_end_ended` for one ended already. The answer is the record's "
    "new entry (`kind` `end`).",
    status_code=201,
    response_model=None,
    responses=WRITE_ERRORS,
    openapi_extra=model_body(
        EndBody, {"table": 2, "mode": "as-it-stands", "reason": "out of time", "by": "Mia"}
    ),
)
async def end_table(request: Request, event_id: str) -> JSONResponse:
    return await _act(
        request,
        event_id,
        EndBody,
        lambda book, body: book.end_table(
            event_id, body.table, body.mode, body.reason, round_number=body.round, by=body.by
        ),
    )


@router.post(
    "/{event_id}/endings/reopen",
    summary="Take back a table's early end while its round is open (needs the token)",
    description="Only while no later round is seated (409 `refusal.day_reopen_closed`); the "
    "table plays on and counts as its game stands. The answer is the record's new entry "
    "(`kind` `reopen`).",
    status_code=201,
    response_model=None,
    responses=WRITE_ERRORS,
    openapi_extra=model_body(ReopenBody, {"table": 2, "by": "Mia"}),
)
async def reopen_table(request: Request, event_id: str) -> JSONResponse:
    return await _act(
        request,
        event_id,
        ReopenBody,
        lambda book, body: book.reopen_table(
            event_id, body.table, round_number=body.round, by=body.by
        ),
    )


@router.get(
    "/{event_id}/late",
    summary="The tables whose round's time is up and whose game goes on",
    description="Each with its round, number, ledger table id, players, the hands recorded "
    "since the time ran out (`hands_since`), the hands left with the one in play (`left`) and "
    "`state`: `last_hand`, `more_hands` or `stop`.",
    response_model=None,
    responses=READ_ERRORS,
)
async def late_tables(request: Request, event_id: str) -> dict[str, Any]:
    limit_reads(request)
    book = await call(book_of, request)
    late = await call(book.late_tables, event_id)
    return {"tables": [table.to_json() for table in late]}


@router.post(
    "/{event_id}/entrants",
    summary="A player's EMA number and country, for the results file (needs the token)",
    description="422 `refusal.day_ema_id` for a number that is not eight digits, "
    "`refusal.day_country` for a country that is not three letters. The answer is the "
    "record's new entry (`kind` `entrant`).",
    status_code=201,
    response_model=None,
    responses=WRITE_ERRORS,
    openapi_extra=model_body(
        EntrantBody, {"player": "Ann", "ema_id": "04010123", "country": "FRA", "by": "Mia"}
    ),
)
async def set_entrant(request: Request, event_id: str) -> JSONResponse:
    return await _act(
        request,
        event_id,
        EntrantBody,
        lambda book, body: book.set_entrant(
            event_id, body.player, ema_id=body.ema_id, country=body.country, by=body.by
        ),
    )


@router.get(
    "/{event_id}/results",
    summary="The results with each player's EMA number and country",
    description="`?format=ema` gives the EMA's results file as CSV (place, EMA number, last "
    "name, first name, country, rank points, score; a number or country not known is empty); "
    "without it, JSON (`results`: each player's `place`, `tied`, `name`, `ema_id`, "
    "`last_name`, `first_name`, `country`, `rank_points`, `score`, `withdrawn`).",
    response_model=None,
    responses=READ_ERRORS,
)
async def get_results(request: Request, event_id: str, format: str = "json") -> Response:
    limit_reads(request)
    book = await call(book_of, request)
    if format == "ema":
        text = await call(book.ema_csv, event_id)
        return Response(
            text,
            media_type="text/csv; charset=utf-8",
            headers={"content-disposition": download_disposition(f"{event_id}-ema", "", "csv")},
        )
    lines = await call(book.results, event_id)
    return JSONResponse({"results": [line.to_json() for line in lines]})


@router.get(
    "/{event_id}/chombos",
    summary="The chombos recorded at the event's tables",
    description="Each not voided: `round`, `table` (its number), `table_id`, `seq` (the "
    "entry), `player`, `at`.",
    response_model=None,
    responses=READ_ERRORS,
)
async def get_chombos(request: Request, event_id: str) -> dict[str, Any]:
    limit_reads(request, EXPORT_COST)  # every table's record read, as an export reads them
    book = await call(book_of, request)
    found = await call(book.chombos, event_id)
    return {"chombos": [chombo.to_json() for chombo in found]}

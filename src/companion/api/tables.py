"""`/api/tables`: the table ledger over HTTP.

- `POST /api/tables` creates a table and answers with its id and its write token (shown once).
- `GET /api/tables/{id}`, `.../history`, `.../export` need only the id: the id is the read-only
  (spectator) capability. There is no listing of tables.
- Every write (`POST .../hands`, `.../events/{n}/void`, `.../events/{n}/amend`) needs the table's
  token as `Authorization: Bearer <token>`. The order of the checks is fixed: an unknown table is
  a 404 for everyone, then no token is a 401, a wrong one a 403 (compared in constant time by
  `Ledger.verify_token`), and only then is the body read.

Ledger errors become `{"error": ...}` with a status: 404 unknown table, 409 an idempotency key
reused for something else, a stale `expect_hand` or a finished table, 503 the database is
unreachable, 422 anything else the request got wrong (a name not at the table, a hand that is
not a win, an event that cannot be corrected...).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, TypeVar
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from companion.api.deps import (
    LedgerDep,
    authorize_table,
    authorize_write,
    call,
    ledger_for,
    open_ledger,
    refusals,
    table_key,
)
from companion.api.limits import limit_creation
from companion.api.schemas import ErrorDoc, inline_schema
from companion.api.scoring import read_json
from companion.api.security import bearer_token
from companion.errors import InvalidRequestError
from companion.ledger.entries import DrawInput, Entry, PayoutInput, WinInput, WinnerInput
from companion.ledger.replay import Replay
from companion.ledger.settle import settle_up, transfer_text
from companion.settlement import amount_json

if TYPE_CHECKING:
    # SQLAlchemy and Alembic load on the first table request, not with the app.
    from companion.ledger.repository import Recorded

router = APIRouter(prefix="/api/tables", tags=["tables"])

T = TypeVar("T")

# ---------------------------------------------------------------------------------------------
# Reading request bodies


class Body:
    """A JSON object from a request, read field by field with messages that name the field."""

    def __init__(self, data: Any, allowed: set[str], what: str = "the request") -> None:
        if not isinstance(data, dict):
            raise InvalidRequestError(f"{what} must be a JSON object")
        unknown = sorted(str(name) for name in data if name not in allowed)
        if unknown:
            names = ", ".join(repr(name) for name in unknown)
            raise InvalidRequestError(f"unknown field {names} in {what}")
        self.data: dict[str, Any] = data
        self.what = what

    def has(self, name: str) -> bool:
        return self.data.get(name) is not None

    def text(self, name: str, *, required: bool = False) -> str | None:
        value = self.data.get(name)
        if value is None:
            if required:
                raise InvalidRequestError(f"{name} is required in {self.what}")
            return None
        if not isinstance(value, str):
            raise InvalidRequestError(f"{name} must be a string")
        return value

    def required_text(self, name: str) -> str:
        value = self.text(name, required=True)
        assert value is not None
        return value

    def whole(self, name: str, *, minimum: int | None = None) -> int | None:
        value = self.data.get(name)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidRequestError(f"{name} must be a whole number")
        if minimum is not None and value < minimum:
            raise InvalidRequestError(f"{name} must be at least {minimum}")
        return value

    def flag(self, name: str) -> bool:
        value = self.data.get(name)
        if value is None:
            return False
        if not isinstance(value, bool):
            raise InvalidRequestError(f"{name} must be true or false")
        return value

    def mapping(self, name: str) -> dict[str, Any] | None:
        value = self.data.get(name)
        if value is None:
            return None
        if not isinstance(value, dict):
            raise InvalidRequestError(f"{name} must be a JSON object")
        return value


_WIN_FIELDS = {"winner", "winners", "from", "self_draw", "tai", "hand", "liable"}
_PAYOUT_FIELDS = {"player", "event", "at_start"}
_KIND_FIELDS = {"win": _WIN_FIELDS, "draw": set(), "payout": _PAYOUT_FIELDS}


def read_entry(data: Any, extra: set[str]) -> tuple[Entry, Body]:
    """A win, drawn hand or payout from a request body (`extra`: the other fields allowed)."""
    kind = data.get("kind") if isinstance(data, dict) else None
    if not isinstance(kind, str) or kind not in _KIND_FIELDS:
        Body(data, {"kind", *_WIN_FIELDS, *_PAYOUT_FIELDS, *extra})  # refuse a non-object first
        raise InvalidRequestError('kind is required: "win", "draw" or "payout"')
    body = Body(data, {"kind", *_KIND_FIELDS[kind], *extra})
    if kind == "draw":
        return DrawInput(), body
    if kind == "payout":
        player = body.required_text("player")
        event = body.required_text("event")
        return PayoutInput(player, event, body.flag("at_start")), body
    return _win(body), body


def _winner(body: Body, name: str) -> WinnerInput:
    tai = body.whole("tai")
    hand = body.mapping("hand")
    if (tai is None) == (hand is None):
        raise InvalidRequestError(
            f"give {name}'s agreed tai (tai) or the winning hand (hand), one of the two"
        )
    return WinnerInput(name, tai=tai, hand=hand)


def _win(body: Body) -> Entry:
    listed = body.data.get("winners")
    if listed is not None:
        if body.has("winner") or body.has("tai") or body.has("hand"):
            raise InvalidRequestError(
                "give winner with tai or hand, or winners as a list, not both"
            )
        if not isinstance(listed, list) or not listed:
            raise InvalidRequestError('winners must be a list of {"name", "tai" | "hand"} objects')
        winners = []
        for item in listed:
            part = Body(item, {"name", "tai", "hand"}, "a winner")
            winners.append(_winner(part, part.required_text("name")))
    else:
        winners = [_winner(body, body.required_text("winner"))]
    discarder = body.text("from")
    self_draw = body.flag("self_draw")
    if self_draw == (discarder is not None):
        raise InvalidRequestError(
            'say how the hand was won: "from" (who discarded) or "self_draw": true, one of the two'
        )
    return WinInput(tuple(winners), discarder, body.text("liable"))


# ---------------------------------------------------------------------------------------------
# Answers


def links(table_id: str, token: str | None = None) -> dict[str, str]:
    found = {"read": f"/t/{table_id}", "api": f"/api/tables/{table_id}"}
    if token is not None:
        found["write"] = f"/t/{table_id}#token={token}"
    return found


def table_json(table_id: str, replayed: Replay) -> dict[str, Any]:
    """A table's state: setup, standings (dealer, seats, round, totals) and settle-up."""
    setup, state = replayed.setup, replayed.state
    players = setup.players
    return {
        "id": table_key(table_id),
        "name": setup.name,
        "profile": setup.profile,
        "options": dict(setup.options),
        **state.to_json(),
        "settle_up": [
            {
                "from": players[t.payer],
                "to": players[t.payee],
                "amount": amount_json(t.amount),
                "amount_exact": str(t.amount),
                "text": transfer_text(players, t),
            }
            for t in settle_up(state.totals)
        ],
        "links": links(table_key(table_id)),
    }


def recorded_response(table_id: str, recorded: Recorded) -> JSONResponse:
    """201 with the new event; 200 when the idempotency key had been seen (nothing new)."""
    from companion.ledger.export import event_json

    players = recorded.replay.setup.players
    data = {
        "duplicate": recorded.duplicate,
        "event": event_json(players, recorded.entry),
        "table": table_json(table_id, recorded.replay),
    }
    return JSONResponse(data, status_code=200 if recorded.duplicate else 201)


# ---------------------------------------------------------------------------------------------
# OpenAPI documentation (descriptive only: the bodies are read by the functions above)


class CreateTableDoc(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "profile": "sg",
                    "players": ["Ann", "Ben", "Cat", "Dan"],
                    "options": {"min_tai": 1},
                    "hands": 16,
                }
            ]
        },
    )

    profile: Literal["sg", "sg-table", "tw", "hk"] = "sg"
    players: list[str] = Field(description="four names in seat order; the first is East and deals")
    options: dict[str, Any] = Field(default_factory=dict, description="profile options")
    hands: int | None = Field(None, ge=1, description="the planned number of hands (none: open)")
    name: str | None = Field(None, max_length=60, description="what the players call the table")
    rounds: int | None = Field(
        None,
        ge=1,
        description="or the planned number of full rounds (the deal round all four seats; "
        "4 is East round through North round); not with `hands`",
    )


class RecordDoc(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
        json_schema_extra={
            "examples": [
                {"kind": "win", "winner": "Ann", "from": "Ben", "tai": 3, "key": "tap-7f3a"},
            ]
        },
    )

    kind: Literal["win", "draw", "payout"]
    winner: str | None = Field(None, description="win: the winner's name")
    discarder: str | None = Field(
        None, alias="from", description="win: who discarded (or `self_draw`)"
    )
    self_draw: bool = Field(False, description="win: a self-drawn win")
    tai: int | None = Field(None, ge=0, description="win: the agreed tai (quick entry)")
    hand: dict[str, Any] | None = Field(
        None,
        description="win: the hand as a scoring request (`hand`, `melds`, `bonus`, "
        "`events`...); the table fills in profile, seats, round, dealer and options",
    )
    winners: list[dict[str, Any]] | None = Field(
        None, description='`tw`: several winners on one discard, `[{"name", "tai" | "hand"}]`'
    )
    liable: str | None = Field(None, description="`sg-table`, `hk`: who pays for all")
    player: str | None = Field(None, description="payout: who receives it")
    event: str | None = Field(
        None,
        description="payout: bite, own_flowers, four_flowers, four_seasons, animal_set, "
        "all_animals, exposed_kong, concealed_kong",
    )
    at_start: bool = Field(False, description="payout: held when dealt")
    key: str | None = Field(
        None, description="idempotency key: the same key again records nothing new"
    )
    expect_hand: int | None = Field(
        None, ge=1, description="refuse (409) unless this is the hand being played"
    )


class VoidDoc(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"reason": "wrong winner", "by": "Dan"}]},
    )

    reason: str = Field(max_length=200, description="why (kept in the history)")
    by: str = Field("", max_length=200, description="who makes the correction")
    key: str | None = Field(None, description="idempotency key")
    expect: int | None = Field(
        None, ge=0, description="refuse (409) unless the event is at this version (its `version`)"
    )


class AmendDoc(RecordDoc):
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
        json_schema_extra={
            "examples": [
                {
                    "kind": "win",
                    "winner": "Cat",
                    "self_draw": True,
                    "tai": 2,
                    "reason": "it was Cat's hand",
                    "by": "Dan",
                }
            ]
        },
    )

    reason: str = Field(max_length=200, description="why (kept in the history)")
    by: str = Field("", max_length=200, description="who makes the correction")
    expect: int | None = Field(
        None, ge=0, description="refuse (409) unless the event is at this version (its `version`)"
    )


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    descriptions = {
        400: "the body is not JSON",
        401: "no write token (Authorization: Bearer <token>)",
        403: "the token is not this table's",
        404: "no table with this id",
        409: "the key was used for something else, the hand was already recorded, "
        "the event was corrected meanwhile (`expect`), or the table is finished",
        413: "the body is over the size limit",
        415: "the body is not JSON",
        422: "a request that cannot be carried out (a name not at the table, a hand that "
        "is not a win, a limit reached...)",
        429: "too many requests: new tables from this address, or writes to this table "
        "(see Retry-After)",
        503: "the database cannot be reached",
    }
    return {status: {"model": ErrorDoc, "description": descriptions[status]} for status in statuses}


_WRITE_ERRORS: dict[int | str, dict[str, Any]] = {
    200: {"description": "the key was already used for this same entry: nothing new"},
    **error_responses(400, 401, 403, 404, 409, 413, 415, 422, 429, 503),
}


# ---------------------------------------------------------------------------------------------
# Endpoints


@router.post(
    "",
    summary="Create a table",
    description="Four players in seat order (the first is East and deals first), a profile and "
    "its options. The answer has the table's `id` (the read-only link `/t/{id}`) and its write "
    "`token`, shown only here: writes send it as `Authorization: Bearer <token>`; the write "
    "link `/t/{id}#token=...` gives it to a browser.",
    status_code=201,
    response_model=None,
    responses=error_responses(400, 413, 415, 422, 429, 503),
    openapi_extra=inline_schema(CreateTableDoc),
)
async def create_table(request: Request) -> JSONResponse:
    data = await read_json(request)
    body = Body(data, {"profile", "players", "options", "hands", "rounds", "name"})
    limit_creation(request)
    profile = body.text("profile") or "sg"
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(name, str) for name in players):
        raise InvalidRequestError("players must be a list of four names, East first")
    options = body.mapping("options") or {}
    hands = body.whole("hands")
    rounds = body.whole("rounds")
    name = body.text("name") or ""
    ledger = await ledger_for(request)
    created = await call(
        ledger.create_table,
        profile,
        players,
        options=options,
        hands=hands,
        name=name,
        rounds=rounds,
    )
    replayed = await call(ledger.replay, created.id)
    answer = {
        "id": created.id,
        "token": created.token,
        **table_json(created.id, replayed),
        "links": links(created.id, created.token),
    }
    # The token is in this answer only: no cache may keep it.
    headers = {"location": f"/api/tables/{created.id}", "cache-control": "no-store"}
    return JSONResponse(answer, status_code=201, headers=headers)


@router.get(
    "/{table_id}",
    summary="A table's state: standings, dealer, seat winds, round, settle-up",
    response_model=None,
    responses=error_responses(404, 503),
)
def get_table(request: Request, table_id: str) -> dict[str, Any]:
    # Reads are plain `def`s: FastAPI runs them in the thread pool, so a long table's replay
    # and its JSON never hold up the event loop.
    with refusals():
        return table_json(table_id, open_ledger(request).replay(table_id))


@router.get(
    "/{table_id}/access",
    summary="What a token may do at a table",
    description='With `Authorization: Bearer <token>`: 200 `{"access": "write"}` when it '
    'is the table\'s write token, 403 when not. Without one: `{"access": "read"}`. The '
    "table page asks this before it keeps a write link's token, so a wrong link never replaces "
    "a working one.",
    response_model=None,
    responses=error_responses(403, 404, 503),
)
async def table_access(request: Request, table_id: str, ledger: LedgerDep) -> dict[str, Any]:
    if bearer_token(request) is None:
        await call(ledger.setup, table_id)
        return {"id": table_key(table_id), "access": "read"}
    await authorize_table(request, ledger, table_id)
    return {"id": table_key(table_id), "access": "write"}


@router.get(
    "/{table_id}/history",
    summary="Every recorded event, corrections included",
    response_model=None,
    responses=error_responses(404, 503),
)
def get_history(request: Request, table_id: str) -> JSONResponse:
    from companion.ledger.export import event_json

    with refusals():
        replayed = open_ledger(request).replay(table_id)
    players = replayed.setup.players
    data = {
        "id": table_key(table_id),
        "events": [event_json(players, entry) for entry in replayed.entries],
    }
    return JSONResponse(data)  # serialised here, in the thread pool


def download_disposition(key: str, name: str, suffix: str) -> str:
    """How an export is saved: the plain file name holds the table's id; a named table's name
    goes in `filename*` (RFC 6266, any script), so the saved file says which table it is."""
    disposition = f'attachment; filename="companion-{key}.{suffix}"'
    if name:
        disposition += f"; filename*=UTF-8''{quote(f'{name} ({key}).{suffix}', safe='')}"
    return disposition


@router.get(
    "/{table_id}/export",
    summary="The table's record as JSON or CSV",
    description="`format=json` (default): the table, standings, settle-up and every event. "
    "`format=csv`: one row per event with each player's amount and running total.",
    response_model=None,
    responses=error_responses(404, 422, 503),
)
def export_table(request: Request, table_id: str, format: str = "json") -> Response:
    ledger = open_ledger(request)
    key = table_key(table_id)
    with refusals():
        name = ledger.setup(table_id).name
    if format == "csv":
        with refusals():
            text = ledger.export_csv(table_id)
        return Response(
            text,
            media_type="text/csv; charset=utf-8",
            headers={"content-disposition": download_disposition(key, name, "csv")},
        )
    if format != "json":
        raise InvalidRequestError('format must be "json" or "csv"')
    with refusals():
        data = ledger.export_json(table_id)
    return JSONResponse(
        data,
        headers={"content-disposition": download_disposition(key, name, "json")},
    )


@router.post(
    "/{table_id}/hands",
    summary="Record a win, a drawn hand or an instant payout (needs the token)",
    description='A win: `{"kind": "win", "winner", "from" | "self_draw": true, "tai" | '
    '"hand", "liable"?}`; a drawn hand: `{"kind": "draw"}`; an `sg-table` instant payout: '
    '`{"kind": "payout", "player", "event", "at_start"?}`. Each takes `key` (idempotency) '
    "and `expect_hand`. 201 with the event and the table's new state; 200 when the key was "
    "already used for the same entry (nothing new is recorded).",
    status_code=201,
    response_model=None,
    responses=_WRITE_ERRORS,
    openapi_extra=inline_schema(RecordDoc),
)
async def record_hand(request: Request, table_id: str, ledger: LedgerDep) -> JSONResponse:
    await authorize_write(request, ledger, table_id)
    entry, body = read_entry(await read_json(request), {"key", "expect_hand"})
    key = body.text("key")
    expect = body.whole("expect_hand", minimum=1)
    recorded = await call(ledger.record, table_id, entry, key=key, expect_hand=expect)
    return recorded_response(table_id, recorded)


def _correction_fields(body: Body) -> dict[str, Any]:
    """`reason`, `by`, `key` and `expect` (the event's version) as the ledger takes them."""
    return {
        "reason": body.required_text("reason"),
        "by": body.text("by") or "",
        "key": body.text("key"),
        "expect": body.whole("expect", minimum=0),
    }


@router.post(
    "/{table_id}/events/{seq}/void",
    summary="Void a recorded event (needs the token)",
    description="The event stays in the history, marked void; totals, hands played and the "
    "dealer rotation follow the record without it.",
    status_code=201,
    response_model=None,
    responses=_WRITE_ERRORS,
    openapi_extra=inline_schema(VoidDoc),
)
async def void_event(request: Request, table_id: str, seq: int, ledger: LedgerDep) -> JSONResponse:
    await authorize_write(request, ledger, table_id)
    body = Body(await read_json(request), {"reason", "by", "key", "expect"})
    recorded = await call(ledger.void, table_id, seq, **_correction_fields(body))
    return recorded_response(table_id, recorded)


@router.post(
    "/{table_id}/events/{seq}/amend",
    summary="Replace a recorded event by a corrected one (needs the token)",
    description="The body is a `hands` entry (win, draw or payout) with `reason` and `by`; it "
    "is scored against the state at the original's place. The original stays in the history.",
    status_code=201,
    response_model=None,
    responses=_WRITE_ERRORS,
    openapi_extra=inline_schema(AmendDoc),
)
async def amend_event(request: Request, table_id: str, seq: int, ledger: LedgerDep) -> JSONResponse:
    await authorize_write(request, ledger, table_id)
    entry, body = read_entry(await read_json(request), {"reason", "by", "key", "expect"})
    recorded = await call(ledger.amend, table_id, seq, entry, **_correction_fields(body))
    return recorded_response(table_id, recorded)

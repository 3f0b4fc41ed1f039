"""`/api/tables`: the table ledger over HTTP.

- `POST /api/tables` creates a table and answers with its id and its write token (shown once).
- `GET /api/tables/{id}`, `.../history`, `.../export` need only the id: the id is the read-only
  (spectator) capability. There is no listing of tables.
- Every write (`POST .../hands`, `.../events/{n}/void`, `.../events/{n}/amend`: the paths keep
  the old word for an entry, as clients call them) needs the table's
  token as `Authorization: Bearer <token>`. The order of the checks is fixed: an unknown table is
  a 404 for everyone, then no token is a 401, a wrong one a 403 (compared in constant time by
  `Ledger.verify_token`), and only then is the body read.

Ledger errors become `{"error": ...}` with a status: 404 unknown table, 409 an idempotency key
reused for something else, a stale `expect_hand` or a finished table, 503 the database is
unreachable, 422 anything else the request got wrong (a name not at the table, a hand that is
not a win, an entry that cannot be corrected...).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

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
from companion.api.scoring import read_json
from companion.api.security import bearer_token
from companion.api.table_bodies import (
    DEFAULT_PROFILE,
    ChomboBody,
    Correction,
    CreateTable,
    DrawBody,
    PayoutBody,
    Recording,
    StopBody,
    WinBody,
    checked_object,
    declared_by,
    field_names,
    read_body,
    read_fields,
    read_record,
)
from companion.api.table_docs import (
    AMEND_BODY,
    CREATE_BODY,
    RECORD_BODY,
    VOID_BODY,
    WRITE_ERRORS,
    error_responses,
    field_list,
    summary,
)
from companion.errors import InvalidRequestError
from companion.ledger.replay import Replay
from companion.ledger.settle import settle_up, transfer_text
from companion.settlement import amount_json

if TYPE_CHECKING:
    # SQLAlchemy and Alembic load on the first table request, not with the app.
    from companion.ledger.store import Recorded

router = APIRouter(prefix="/api/tables", tags=["tables"])

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
            for t in settle_up(state.settle_totals)
        ],
        "links": links(table_key(table_id)),
    }


def recorded_response(table_id: str, recorded: Recorded) -> JSONResponse:
    """201 with the new entry; 200 when the idempotency key had been seen (nothing new)."""
    from companion.ledger.export import entry_json

    players = recorded.replay.setup.players
    data = {
        "duplicate": recorded.duplicate,
        "event": entry_json(players, recorded.entry),  # the JSON key stays
        "table": table_json(table_id, recorded.replay),
    }
    return JSONResponse(data, status_code=200 if recorded.duplicate else 201)


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
    openapi_extra=CREATE_BODY,
)
async def create_table(request: Request) -> JSONResponse:
    data = checked_object(await read_json(request), field_names(CreateTable))
    limit_creation(request)  # a body with a field not asked for is refused before it counts
    body = read_fields(CreateTable, data)
    ledger = await ledger_for(request)
    created = await call(
        ledger.create_table,
        body.profile or DEFAULT_PROFILE,
        body.players,
        options=body.options,
        hands=body.hands,
        name=body.name or "",
        rounds=body.rounds,
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
    summary="Every recorded entry, corrections included",
    response_model=None,
    responses=error_responses(404, 503),
)
def get_history(request: Request, table_id: str) -> JSONResponse:
    from companion.ledger.export import entry_json

    with refusals():
        replayed = open_ledger(request).replay(table_id)
    players = replayed.setup.players
    data = {
        "id": table_key(table_id),
        "events": [entry_json(players, entry) for entry in replayed.entries],  # the key stays
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
    description="`format=json` (default): the table, standings, settle-up and every entry. "
    "`format=csv`: one row per entry with each player's amount and running total.",
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
    description=f"A win: `{summary(WinBody)}`; a drawn hand: `{summary(DrawBody)}`; an "
    f"{declared_by(lambda profile: profile.instant_payouts)} instant payout: "
    f"`{summary(PayoutBody)}`; a {declared_by(lambda profile: profile.points_game)} chombo: "
    f"`{summary(ChomboBody)}`, the dealer's stop at all-last: `{summary(StopBody)}`. Each "
    f"takes {field_list(Recording)}. 201 with the entry and the "
    "table's new state; 200 when the key was already used for the same entry (nothing new is "
    "recorded).",
    status_code=201,
    response_model=None,
    responses=WRITE_ERRORS,
    openapi_extra=RECORD_BODY,
)
async def record_hand(request: Request, table_id: str, ledger: LedgerDep) -> JSONResponse:
    await authorize_write(request, ledger, table_id)
    record, body = read_record(await read_json(request), Recording)
    recorded = await call(
        ledger.record, table_id, record, key=body.key, expect_hand=body.expect_hand
    )
    return recorded_response(table_id, recorded)


@router.post(
    "/{table_id}/events/{seq}/void",
    summary="Void a recorded entry (needs the token)",
    description="The entry stays in the history, marked void; totals, hands played and the "
    "dealer rotation follow the record without it.",
    status_code=201,
    response_model=None,
    responses=WRITE_ERRORS,
    openapi_extra=VOID_BODY,
    operation_id="void_event_api_tables__table_id__events__seq__void_post",  # as clients know it
)
async def void_entry(request: Request, table_id: str, seq: int, ledger: LedgerDep) -> JSONResponse:
    await authorize_write(request, ledger, table_id)
    body = read_body(Correction, await read_json(request))
    recorded = await call(ledger.void, table_id, seq, **body.fields())
    return recorded_response(table_id, recorded)


@router.post(
    "/{table_id}/events/{seq}/amend",
    summary="Replace a recorded entry by a corrected one (needs the token)",
    description="The body is a `hands` entry (win, draw or payout) with "
    f"{field_list(Correction)}; it is scored against the state at the original's place. The "
    "original stays in the history.",
    status_code=201,
    response_model=None,
    responses=WRITE_ERRORS,
    openapi_extra=AMEND_BODY,
    operation_id="amend_event_api_tables__table_id__events__seq__amend_post",  # as clients know it
)
async def amend_entry(request: Request, table_id: str, seq: int, ledger: LedgerDep) -> JSONResponse:
    await authorize_write(request, ledger, table_id)
    record, body = read_record(await read_json(request), Correction)
    recorded = await call(ledger.amend, table_id, seq, record, **body.fields())
    return recorded_response(table_id, recorded)

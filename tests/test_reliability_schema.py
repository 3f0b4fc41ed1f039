"""schemathesis against the app's own `/openapi.json`: no 5xx, and every response as documented.

Each operation of the schema gets generated requests (valid by the schema, and not), sent
through the ASGI app; the checks are: no server error, the status code is one the operation
documents, the content type is the documented one, and the body matches the documented schema.
The table operations run twice: on made-up ids (404s), and on a real table with its token, so
that the writes get past the token check into the ledger.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from companion.api import create_app
from companion.api.deps import close_ledgers
from companion.api.limits import RateLimiter

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
EXAMPLES = settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)


# The schema is read when the module loads (schemathesis parametrises at collection); the app
# opens no database until a table request, and the fixture below points it at a new file first.
APP = create_app()
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


STREAM_HEARTBEAT = 0.05
"""Seconds between an idle stream's keep-alive comments here (15 s in service)."""


class StreamsEndWhenIdle:
    """The app, except that an event stream ends at its first heartbeat. A stream sends its
    opening and every event it has at once, and a heartbeat only after a quiet interval: by the
    first heartbeat it has sent all there is to check. Never ending, each stream would be read
    for schemathesis' whole request timeout (10 s an example) to see nothing more."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        ended = False

        async def send_until_idle(message: Message) -> None:
            nonlocal ended
            if ended:
                return  # the stream, until it sees the client leave
            await send(message)
            body = message.get("body", b"")
            if message["type"] == "http.response.body" and body == b": heartbeat\n\n":
                ended = True  # the end of the response: the client then leaves (disconnects)
                await send({"type": "http.response.body", "body": b"", "more_body": False})

        await self.app(scope, receive, send_until_idle)


@pytest.fixture(scope="module", autouse=True)
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FastAPI]:
    APP.state.database_url = f"sqlite:///{tmp_path_factory.mktemp('schema') / 'ledger.sqlite3'}"
    APP.state.stream_heartbeat = STREAM_HEARTBEAT
    yield APP
    close_ledgers(APP)


@pytest.fixture(scope="module")
def real_table(app: FastAPI) -> dict[str, str]:
    """A table with two hands recorded, so that event numbers 1 and 2 exist."""
    from fastapi.testclient import TestClient

    # The operations fuzzed before this fixture (tables and events made) may have used up
    # this address's new tables (429): the real table starts from fresh buckets, as an hour
    # later would.
    limiter = app.state.rate_limiter
    app.state.rate_limiter = RateLimiter(limiter.limits)
    client = TestClient(app)
    players = ["Ann", "Ben", "Cat", "Dan"]
    created = client.post("/api/tables", json={"profile": "tw", "players": players}).json()
    auth = {"authorization": f"Bearer {created['token']}"}
    for body in ({"kind": "draw"}, {"kind": "win", "winner": "Ben", "self_draw": True, "tai": 2}):
        response = client.post(f"/api/tables/{created['id']}/hands", json=body, headers=auth)
        assert response.status_code == 201, response.text
    return {"id": created["id"], "token": created["token"]}


@schema.parametrize()
@EXAMPLES
def test_every_operation_conforms_to_its_schema(case: Any) -> None:
    case.call_and_validate(checks=CHECKS, app=StreamsEndWhenIdle(APP))


@schema.include(path_regex=r"^/api/tables/\{table_id\}").parametrize()
@EXAMPLES
def test_table_operations_conform_on_a_real_table(case: Any, real_table: dict[str, str]) -> None:
    case.path_parameters = {**(case.path_parameters or {}), "table_id": real_table["id"]}
    headers = {"authorization": f"Bearer {real_table['token']}"}
    case.call_and_validate(checks=CHECKS, headers=headers, app=StreamsEndWhenIdle(APP))

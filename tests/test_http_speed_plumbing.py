"""The scoring endpoint's own reading of a body and making of a response against Starlette's.

`request_body` reads what `Request.body()` reads, without its async generator; `json_response`
makes the response `Response(body, media_type="application/json")` makes, without the general
constructor (docs/performance.md, the HTTP section).
"""

from __future__ import annotations

from typing import Any

import pytest
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response

from companion.api.scoring import encode_json, json_response, request_body
from own_loop import run_on_own_loop

SCOPE: dict[str, Any] = {"type": "http", "method": "POST", "path": "/api/score", "headers": []}

MESSAGES: list[list[dict[str, Any]]] = [
    [{"type": "http.request", "body": b'{"hand": "123m"}', "more_body": False}],
    [{"type": "http.request", "body": b"", "more_body": False}],
    [{"type": "http.request"}],
    [
        {"type": "http.request", "body": b'{"ha', "more_body": True},
        {"type": "http.request", "body": b"", "more_body": True},
        {"type": "lifespan.whatever"},
        {"type": "http.request", "body": b'nd": 1}'},
    ],
    [{"type": "http.request", "body": b"{", "more_body": True}, {"type": "http.disconnect"}],
    [{"type": "http.disconnect"}],
]


def _read(read: Any, messages: list[dict[str, Any]]) -> object:
    queue = list(messages)

    async def receive() -> dict[str, Any]:
        return queue.pop(0)

    async def run() -> object:
        try:
            return await read(Request(SCOPE, receive))
        except ClientDisconnect:
            return ClientDisconnect

    return run_on_own_loop(run()), len(queue)


@pytest.mark.parametrize("messages", MESSAGES)
def test_a_body_is_read_as_starlette_reads_it(messages: list[dict[str, Any]]) -> None:
    assert _read(request_body, messages) == _read(lambda request: request.body(), messages)


@pytest.mark.parametrize(
    "content", [{"valid": True, "tai": 3}, [], {"error": "x" * 300}, {"a": "é"}]
)
def test_a_response_is_made_as_starlette_makes_it(content: object) -> None:
    ours = json_response(content)
    theirs = Response(encode_json(content), media_type="application/json")
    assert isinstance(ours, Response)
    for name in ("status_code", "body", "raw_headers", "background", "media_type", "charset"):
        assert getattr(ours, name) == getattr(theirs, name), name
    assert ours.headers.items() == theirs.headers.items()
    assert ours.raw_headers == JSONResponse(content).raw_headers

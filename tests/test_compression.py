"""Compression (`companion.api.app._Compressed`): pages, the board, styles, scripts and JSON
are sent gzip-compressed to a client that accepts it, with `Vary: Accept-Encoding` and a weak
ETag that still revalidates; the live stream never is (tests/test_api_live.py checks it on a
real stream too)."""

from __future__ import annotations

import gzip
from typing import Any

import pytest
from fastapi.testclient import TestClient

from companion.api.app import COMPRESS_FROM, _Compressed
from own_loop import run_on_own_loop

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


def long_table(client: TestClient, hands: int = 12) -> str:
    created = client.post("/api/tables", json={"profile": "sg", "players": PLAYERS}).json()
    auth = {"authorization": f"Bearer {created['token']}"}
    for n in range(hands):
        body = {"kind": "win", "winner": PLAYERS[n % 4], "from": PLAYERS[(n + 1) % 4], "tai": 2}
        response = client.post(f"/api/tables/{created['id']}/hands", json=body, headers=auth)
        assert response.status_code == 201, response.text
    return str(created["id"])


def both_ways(client: TestClient, path: str) -> tuple[Any, Any]:
    """The response asking for gzip (its raw bytes kept) and asking for none."""
    with client.stream("GET", path, headers={"accept-encoding": "gzip"}) as compressed:
        compressed.raw = b"".join(compressed.iter_raw())
    plain = client.get(path, headers={"accept-encoding": "identity"})
    return compressed, plain


@pytest.mark.parametrize(
    "path",
    [
        "/t/{id}?lang=en",
        "/t/{id}/board?lang=zh-Hant",
        "/api/tables/{id}/history",
        "/",
        "/static/app.css",
        "/static/js/vendor/uqr.js",
    ],
)
def test_pages_and_static_files_are_sent_compressed(client: TestClient, path: str) -> None:
    table_id = long_table(client)
    compressed, plain = both_ways(client, path.format(id=table_id))
    assert (compressed.status_code, plain.status_code) == (200, 200)
    assert compressed.headers["content-encoding"] == "gzip"
    assert "content-encoding" not in plain.headers
    assert compressed.headers["vary"] == plain.headers["vary"] == "Accept-Encoding"
    if path.startswith("/t/{id}?"):  # the page holds its CSRF token: one per response
        assert len(gzip.decompress(compressed.raw)) == len(plain.content)
    else:
        assert gzip.decompress(compressed.raw) == plain.content
    assert len(compressed.raw) < len(plain.content) / 2, (len(compressed.raw), path)


def test_a_compressed_static_file_revalidates_with_its_weak_etag(client: TestClient) -> None:
    compressed, plain = both_ways(client, "/static/tables.css")
    strong = plain.headers["etag"]
    assert not strong.startswith("W/")
    assert compressed.headers["etag"] == f"W/{strong}"
    again = client.get(
        "/static/tables.css",
        headers={"accept-encoding": "gzip", "if-none-match": compressed.headers["etag"]},
    )
    assert (again.status_code, again.content) == (304, b"")


def test_a_short_answer_is_sent_as_it_is(client: TestClient) -> None:
    response = client.get("/api/health", headers={"accept-encoding": "gzip"})
    assert len(response.content) < COMPRESS_FROM
    assert "content-encoding" not in response.headers


# --- The live stream: passed through, each message as it is written -------------------------


def run_asgi(path: str, content_type: str) -> list[dict[str, Any]]:
    """What `_Compressed` sends on for an app that writes three messages to `path`."""

    async def app(scope: Any, receive: Any, send: Any) -> None:
        headers = [(b"content-type", content_type.encode())]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        for n in range(3):
            body = f"id: {n}\ndata: {'x' * 600}\n\n".encode()
            await send({"type": "http.response.body", "body": body, "more_body": n < 2})

    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def receive() -> dict[str, Any]:
        return {"type": "http.disconnect"}

    scope = {
        "type": "http",
        "method": "GET",
        "path": path,
        "headers": [(b"accept-encoding", b"gzip")],
    }
    run_on_own_loop(_Compressed(app)(scope, receive, send))
    return sent


@pytest.mark.parametrize(
    ("path", "content_type"),
    [
        ("/api/tables/abc/stream", "text/event-stream; charset=utf-8"),
        ("/api/tables/abc/stream", "text/plain"),  # by its path, whatever it says it is
    ],
)
def test_the_live_stream_is_never_compressed(path: str, content_type: str) -> None:
    sent = run_asgi(path, content_type)
    start, *bodies = sent
    assert b"content-encoding" not in dict(start["headers"])
    assert [body["body"][:5] for body in bodies] == [b"id: 0", b"id: 1", b"id: 2"]


def test_another_streamed_answer_is_compressed() -> None:
    start, *bodies = run_asgi("/api/tables/abc/history", "application/json")
    assert dict(start["headers"])[b"content-encoding"] == b"gzip"
    whole = gzip.decompress(b"".join(body["body"] for body in bodies))
    assert whole.startswith(b"id: 0\ndata: xxx")

"""A stream over HTTP, whatever it follows: what one client may hold, the response that ends a
stream whose client does not read, where a stream starts (`Last-Event-ID`), and opening one on
this app's hub (`companion.api.live`).

What one client may hold (each tested in tests/test_api_live.py):

- **streams per address** (`COMPANION_STREAMS_PER_ADDRESS`, 100) and **per process**
  (`COMPANION_STREAMS`, 1,000, below `serve`'s 2,048 connections, so health checks and writes
  always find a connection): beyond them, 429 / 503 with `Retry-After`;
- **a lifetime** (`COMPANION_STREAM_LIFETIME`, 600 s, less up to a tenth so that streams
  opened together do not all end together): then the stream sends `event: reconnect` and ends,
  and the client opens it again after the last message it has (`Last-Event-ID`), losing none;
- **what waits for a client that does not read**: a backlog is sent in pieces of at most
  `table_stream.CHUNK_BYTES`, and a piece the client has not taken within `stall` seconds (30)
  ends the stream (its connection is dropped); the client resumes from its `Last-Event-ID`;
- **thread time**: a stream's reads and message writing run on `STREAM_THREADS` threads of
  their own, so a crowd of streams opening queues behind itself, never in front of page reads.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import anyio
from fastapi import HTTPException, Request
from fastapi.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from companion.api.deps import open_ledger
from companion.api.limits import client_address
from companion.api.live import SEQ, STREAM_THREADS, LiveHub, logger, setting
from companion.errors import InvalidRequestError

PER_ADDRESS_ENV = "COMPANION_STREAMS_PER_ADDRESS"
PER_ADDRESS = 100
"""Open streams per client address: a club's 40 phones behind one NAT never meet it."""
TOTAL_ENV = "COMPANION_STREAMS"
TOTAL = 1000
"""Open streams per process: under `serve`'s `--max-connections` (2,048), so that the other
requests (health, pages, writes) always find a connection."""
REFUSED_RETRY = 10
"""The `Retry-After` (seconds) of a stream refused for a full limit."""
STREAM_REFUSALS: dict[int | str, dict[str, Any]] = {
    429: {"description": "too many open streams from this address (`Retry-After`)"},
    503: {"description": "the server holds as many streams as it takes (`Retry-After`)"},
}
"""The refusals of a full limit, as the streams' OpenAPI answers say them."""


@dataclass
class StreamSlots:
    """Open streams counted per client address and in all (one per app, so per process)."""

    per_address: int = PER_ADDRESS
    total: int = TOTAL
    by_address: dict[str, int] = field(default_factory=dict)
    open: int = 0

    def take(self, address: str) -> None:
        """Count one more stream from `address`, or refuse it (429 / 503 with Retry-After)."""
        # Closed after the answer: a refused client holds no connection either.
        retry = {"Retry-After": str(REFUSED_RETRY), "Connection": "close"}
        if self.by_address.get(address, 0) >= self.per_address:
            raise HTTPException(
                status_code=429,
                detail=f"too many open streams from this address (at most {self.per_address}): "
                f"try again in {REFUSED_RETRY} s",
                headers=retry,
            )
        if self.open >= self.total:
            raise HTTPException(
                status_code=503,
                detail=f"the server follows as many live tables as it takes ({self.total} "
                f"streams): try again in {REFUSED_RETRY} s",
                headers=retry,
            )
        self.by_address[address] = self.by_address.get(address, 0) + 1
        self.open += 1

    def give_back(self, address: str) -> None:
        left = self.by_address.get(address, 0) - 1
        if left > 0:
            self.by_address[address] = left
        else:
            self.by_address.pop(address, None)
        self.open = max(0, self.open - 1)


# ---------------------------------------------------------------------------------------------
# The response


class ServerSentStream(StreamingResponse):
    """A stream's response: each piece is sent within `stall` seconds or the stream ends and
    its connection is dropped (a client that does not read holds one piece, not the table);
    `release` runs once whatever way it ends."""

    def __init__(
        self, content: AsyncIterator[bytes], *, stall: float, release: Callable[[], None]
    ) -> None:
        super().__init__(
            content,
            media_type="text/event-stream",
            headers={"cache-control": "no-store", "x-accel-buffering": "no"},
        )
        self.stall = stall
        self.release = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            async with anyio.create_task_group() as group:
                gone = anyio.Event()

                async def until_disconnect() -> None:
                    while (await receive())["type"] != "http.disconnect":
                        pass
                    gone.set()
                    group.cancel_scope.cancel()

                group.start_soon(until_disconnect)
                if await self._send_all(send):
                    await send({"type": "http.response.body", "body": b"", "more_body": False})
                else:
                    _drop_connection(receive)
                    with anyio.move_on_after(1.0):  # the server sees the connection go
                        await gone.wait()
                group.cancel_scope.cancel()
        finally:
            with contextlib.suppress(Exception):
                await self.body_iterator.aclose()  # type: ignore[attr-defined]
            self.release()

    async def _send_all(self, send: Send) -> bool:
        """Send the stream; False when the client stopped taking it."""
        await send({"type": "http.response.start", "status": 200, "headers": self.raw_headers})
        async for piece in self.body_iterator:
            assert isinstance(piece, bytes)
            message = {"type": "http.response.body", "body": piece, "more_body": True}
            with anyio.move_on_after(self.stall) as waited:
                await send(message)
            if waited.cancelled_caught:
                logger.info("a stream's client took nothing for %g s: ended", self.stall)
                return False
        return True


def _drop_connection(receive: Receive) -> None:
    """Abort the connection of a client that does not read (what the server still buffers for
    it goes at once). uvicorn's `receive` belongs to the request cycle, which has the transport;
    under another server nothing happens here, and the server closes the connection once the
    unfinished response returns."""
    transport = getattr(getattr(receive, "__self__", None), "transport", None)
    abort = getattr(transport, "abort", None)
    if callable(abort):
        abort()


# ---------------------------------------------------------------------------------------------
# Opening a stream


async def live_hub(request: Request, threads: anyio.CapacityLimiter) -> LiveHub:
    """This app's hub (made on the first stream)."""
    ledger = await anyio.to_thread.run_sync(open_ledger, request, limiter=threads)
    state = request.app.state
    hub: LiveHub | None = getattr(state, "live_hub", None)
    if hub is None or hub.ledger is not ledger or hub.closed:
        hub = LiveHub(ledger, asyncio.get_running_loop(), threads)
        for name, attribute in (
            ("stream_heartbeat", "heartbeat"),
            ("stream_lifetime", "lifetime"),
            ("stream_stall", "stall"),
        ):
            value = getattr(state, name, None)
            if isinstance(value, int | float):
                setattr(hub, attribute, float(value))
        state.live_hub = hub
    return hub


def stream_slots(request: Request) -> StreamSlots:
    """This app's count of open streams (`app.state.stream_slots`; made on the first stream)."""
    state = request.app.state
    slots = getattr(state, "stream_slots", None)
    if not isinstance(slots, StreamSlots):
        per_address = int(setting(PER_ADDRESS_ENV, PER_ADDRESS))
        slots = StreamSlots(per_address=per_address, total=int(setting(TOTAL_ENV, TOTAL)))
        state.stream_slots = slots
    return slots


def _stream_threads(request: Request) -> anyio.CapacityLimiter:
    state = request.app.state
    threads = getattr(state, "stream_threads", None)
    if not isinstance(threads, anyio.CapacityLimiter):
        threads = anyio.CapacityLimiter(STREAM_THREADS)
        state.stream_threads = threads
    return threads


def stream_start(request: Request, after: int | None) -> tuple[int | None, str]:
    """Where a stream starts (after a table's entry number, an event's version), and what
    said so (`Last-Event-ID` or `after`)."""
    header = request.headers.get("last-event-id")
    if header is not None and header.strip():
        # ASCII digits only: `int` takes "²" and other Unicode digits, and refuses 4,301 digits.
        if not SEQ.fullmatch(header.strip()):
            raise InvalidRequestError("Last-Event-ID must be a whole number")
        return int(header.strip()), "Last-Event-ID"
    if after is not None and after < 0:
        raise InvalidRequestError("after must be a whole number (0 or more)")
    return after, "after"


async def open_stream(
    request: Request,
    follow: Callable[[LiveHub], Awaitable[tuple[Callable[[], None], AsyncIterator[bytes]]]],
) -> ServerSentStream:
    """A stream counted against the limits: `follow` registers it with its part of the hub
    (refusing it before it opens, e.g. 404) and answers how to unregister it and its text."""
    slots = stream_slots(request)
    address = client_address(request)
    slots.take(address)
    try:
        hub = await live_hub(request, _stream_threads(request))
        unregister, text = await follow(hub)
    except BaseException:
        slots.give_back(address)
        raise

    def release() -> None:
        unregister()
        slots.give_back(address)

    return ServerSentStream(text, stall=hub.stall, release=_once(release))


def _once(function: Callable[[], None]) -> Callable[[], None]:
    done = False

    def run() -> None:
        nonlocal done
        if not done:
            done = True
            function()

    return run

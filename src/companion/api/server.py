"""`companion serve` for a public server: uvicorn, with the limits it does not have by itself.

uvicorn (h11) has a keep-alive timeout but no deadline for a request's headers or body, and no
limit on connections: a client that sends a header line every few seconds holds its connection
for ever, and enough of them exhaust the process's file descriptors, after which nobody gets in
and every refused `accept()` logs a traceback. `GuardedH11Protocol` adds, per connection:

- **a header deadline** (`header_timeout`): the request line and headers must be complete that
  many seconds after the connection opens, or after the first byte of the next request on a
  kept-alive connection; else 408 and close (a connection that sent nothing is just closed);
- **a body deadline** (`body_timeout`): the whole body within that many seconds of the headers,
  else the connection is closed and the app sees a disconnect (nothing is recorded);
- **a connection limit** (`max_connections`, per process): a connection over it is answered
  503 with `Retry-After` at once and closed; the log gets one line per 10 s at most, counting
  the refusals;

and keeps uvicorn's keep-alive timeout (`timeout_keep_alive`) and its header size limit
(`h11_max_incomplete_event_size`). The process's file limit is raised to what the connection
limit needs, and a refused `accept()` (out of file descriptors after all) logs one line, not a
traceback.

With `--workers N`, each worker stops when the supervisor dies, even killed alone
(`companion.api.parent_watch`).

Settings reach every worker (`--workers N`) through `COMPANION_SERVE_SETTINGS` (JSON), which
`app_from_environment` (the app factory uvicorn imports in each worker) reads.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import os
import resource
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import h11
import uvicorn
from fastapi import FastAPI
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.supervisors import Multiprocess

from companion.api.limits import Rate, RateLimits
from companion.api.parent_watch import stop_with_parent

logger = logging.getLogger("uvicorn.error")
"""uvicorn's own log (its format, its level, in every worker)."""

SETTINGS_ENV = "COMPANION_SERVE_SETTINGS"
FACTORY = "companion.api.server:app_from_environment"
LOG_EVERY = 10.0
"""Seconds between two log lines about refused connections (each counts those since the last)."""
BACKLOG = 128
"""Connections waiting to be accepted. asyncio accepts up to this many in one go, before the
connection limit sees them, so the file margin below covers them."""
FILE_MARGIN = 2 * BACKLOG
"""File descriptors kept beyond the connection limit (a burst of accepts, the database, logs)."""
MAX_HEADER_BYTES = 16 * 1024


@dataclass(frozen=True)
class ServeSettings:
    """Everything `companion serve` is told; JSON-able, for the workers."""

    host: str = "127.0.0.1"
    port: int = 8000
    database_url: str | None = None
    workers: int = 1
    allowed_hosts: tuple[str, ...] = ()
    forwarded_allow_ips: str | None = None
    max_connections: int = 2048
    header_timeout: float = 10.0
    body_timeout: float = 30.0
    keep_alive: float = 5.0
    create_limit: str = "120/3600"
    write_limit: str = "240/60"
    seat_limit: str = "6000/86400"
    read_limit: str = "1200/60"
    public_url: str | None = None

    def rate_limits(self) -> RateLimits:
        return RateLimits(
            create=Rate.parse(self.create_limit),
            write=Rate.parse(self.write_limit),
            seat=Rate.parse(self.seat_limit),
            read=Rate.parse(self.read_limit),
        )

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self))

    @classmethod
    def from_json(cls, text: str) -> ServeSettings:
        data = json.loads(text)
        data["allowed_hosts"] = tuple(data.get("allowed_hosts", ()))
        return cls(**data)


def app_from_environment() -> FastAPI:
    """The app of one worker, built from `COMPANION_SERVE_SETTINGS`."""
    from companion.api import create_app
    from companion.api.security import default_allowed_hosts

    settings = ServeSettings.from_json(os.environ.get(SETTINGS_ENV, "{}"))
    public = settings.public_url
    extra = (*settings.allowed_hosts, *([urlsplit(public).netloc] if public else []))
    hosts, any_ip = default_allowed_hosts(settings.host, extra)
    return create_app(
        settings.database_url,
        allowed_hosts=hosts,
        any_ip_host=any_ip,
        rate_limits=settings.rate_limits(),
        public_url=public,
        listen_host=settings.host,
    )


# ---------------------------------------------------------------------------------------------
# Connections


def _raw_response(status: str, message: str, extra: str = "") -> bytes:
    body = json.dumps({"error": message}).encode()
    head = (
        f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n{extra}\r\n"
    )
    return head.encode("latin-1") + body


BUSY_RESPONSE = _raw_response(
    "503 Service Unavailable",
    "the server has as many connections as it takes: try again in a few seconds",
    "retry-after: 5\r\n",
)
TIMEOUT_RESPONSE = _raw_response(
    "408 Request Timeout", "the request took too long to arrive: send it again"
)


class _Quiet:
    """Something that can happen thousands of times a second, logged as one line per
    `LOG_EVERY` seconds at most, counting the times since the last line."""

    def __init__(self, message: str) -> None:
        self.message = message
        self.count = 0
        self.logged_at = -LOG_EVERY

    def happened(self, *args: Any) -> None:
        self.count += 1
        now = time.monotonic()
        if now - self.logged_at >= LOG_EVERY:
            logger.warning(self.message, self.count, *args)
            self.count = 0
            self.logged_at = now


REFUSALS = _Quiet("refused %d connection(s): %d open, the limit is %d (--max-connections)")
ACCEPT_FAILURES = _Quiet("could not accept %d connection(s): %s")


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a header deadline, a body deadline and a connection limit
    (see the module docstring). The figures come from `GuardedConfig`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        config = self.config
        self.header_timeout = float(getattr(config, "header_timeout", 10.0))
        self.body_timeout = float(getattr(config, "body_timeout", 30.0))
        self.max_connections = int(getattr(config, "max_connections", 2048))
        self.header_timer: asyncio.TimerHandle | None = None
        self.body_timer: asyncio.TimerHandle | None = None
        self.received = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if len(self.connections) >= self.max_connections:
            self.transport = transport  # type: ignore[assignment]  # for connection_lost
            REFUSALS.happened(len(self.connections), self.max_connections)
            transport.write(BUSY_RESPONSE)  # type: ignore[attr-defined]
            transport.close()
            return
        super().connection_made(transport)  # type: ignore[arg-type]
        self._start_header_timer()

    def data_received(self, data: bytes) -> None:
        if self.conn.their_state is h11.IDLE and self.header_timer is None:
            self._start_header_timer()  # the next request on a kept-alive connection
        self.received = True
        super().data_received(data)
        self._follow_state()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._follow_state()
        self.received = False

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_timers()
        super().connection_lost(exc)

    def shutdown(self) -> None:
        # The server is stopping: end the live table streams (they never end by themselves),
        # so that their connections close cleanly instead of holding up the shutdown.
        from companion.api.live import close_all

        close_all()
        super().shutdown()

    def _follow_state(self) -> None:
        state = self.conn.their_state
        if state is not h11.IDLE and self.header_timer is not None:
            self.header_timer.cancel()
            self.header_timer = None
        if state is h11.SEND_BODY:
            if self.body_timer is None:
                self.body_timer = self.loop.call_later(self.body_timeout, self._body_too_slow)
        elif self.body_timer is not None:
            self.body_timer.cancel()
            self.body_timer = None

    def _start_header_timer(self) -> None:
        if self.header_timer is not None:
            self.header_timer.cancel()
        self.header_timer = self.loop.call_later(self.header_timeout, self._headers_too_slow)

    def _cancel_timers(self) -> None:
        for timer in (self.header_timer, self.body_timer):
            if timer is not None:
                timer.cancel()
        self.header_timer = self.body_timer = None

    def _headers_too_slow(self) -> None:
        self.header_timer = None
        if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
            return
        if self.received and self.conn.our_state is h11.IDLE:
            self.transport.write(TIMEOUT_RESPONSE)
        self.transport.close()

    def _body_too_slow(self) -> None:
        self.body_timer = None
        if not self.transport.is_closing():
            self.transport.close()  # the app's receive() sees a disconnect: nothing is recorded


class GuardedConfig(uvicorn.Config):
    """uvicorn's settings plus the guard's (and, in each process: the file limit raised, and a
    refused `accept()` logged in one line)."""

    def __init__(
        self,
        *args: Any,
        header_timeout: float = 10.0,
        body_timeout: float = 30.0,
        max_connections: int = 2048,
        supervisor_pid: int | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.header_timeout = header_timeout
        self.body_timeout = body_timeout
        self.max_connections = max_connections
        self.supervisor_pid = supervisor_pid
        """The `--workers` supervisor's pid, for its workers to stop when it dies (None: one
        process, which answers to nobody)."""

    def load(self) -> None:
        if self.supervisor_pid is not None:  # a worker: loaded in its own process
            stop_with_parent(self.supervisor_pid)
        super().load()
        files = raise_file_limit(self.max_connections + FILE_MARGIN)
        if files < self.max_connections + FILE_MARGIN:
            # The hard limit is lower: refuse cleanly at the cap rather than fail in accept().
            self.max_connections = max(1, files - FILE_MARGIN)
            logger.warning(
                "the open-file limit is %d: at most %d connections per process",
                files,
                self.max_connections,
            )
        # Outside the event loop (loaded ahead) there is no loop to set it on: it is set when
        # the worker loads the app in its loop.
        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop().set_exception_handler(quiet_exception_handler)


def raise_file_limit(wanted: int) -> int:
    """Raise this process's open-file limit towards `wanted` (up to the hard limit); the limit
    now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        return target
    return soft


def quiet_exception_handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """Out of file descriptors in `accept()`: no traceback, one line per 10 s at most (asyncio
    retries by itself a second later)."""
    error = context.get("exception")
    if isinstance(error, OSError) and "accept" in str(context.get("message", "")):
        ACCEPT_FAILURES.happened(error.strerror or str(error))
        return
    loop.default_exception_handler(context)


def serve(settings: ServeSettings) -> None:
    """Run the server until it is stopped (Ctrl-C, SIGTERM)."""
    os.environ[SETTINGS_ENV] = settings.to_json()
    forwarded = settings.forwarded_allow_ips
    config = GuardedConfig(
        FACTORY,
        factory=True,
        host=settings.host,
        port=settings.port,
        workers=settings.workers,
        http=GuardedH11Protocol,
        server_header=False,
        proxy_headers=forwarded is not None,
        forwarded_allow_ips=forwarded if forwarded is not None else "",
        timeout_keep_alive=max(1, round(settings.keep_alive)),
        h11_max_incomplete_event_size=MAX_HEADER_BYTES,
        backlog=BACKLOG,
        log_level="info",
        header_timeout=settings.header_timeout,
        body_timeout=settings.body_timeout,
        max_connections=settings.max_connections,
        supervisor_pid=os.getpid() if settings.workers > 1 else None,
    )
    raise_file_limit(settings.max_connections + FILE_MARGIN)
    if settings.workers > 1:
        Multiprocess(config, sockets=[config.bind_socket()]).run()
    else:
        uvicorn.Server(config).run()

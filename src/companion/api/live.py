"""Live tables: `GET /api/tables/{id}/stream` (Server-Sent Events) and the one listener per
server process that feeds it.

Every write to a table ends with a notice "table X has event N" (`Ledger.add_listener`):

- on PostgreSQL the ledger sends it with `NOTIFY` in the write's own transaction (so it is
  delivered only if the write commits, and to every process on the database), and each process
  has one connection that `LISTEN`s for it (`PostgresListener`, a thread);
- on SQLite the ledger calls its in-process listeners after the commit (one process).

A `LiveTables` hub (one per app, so one per process) keeps, for each table someone is watching,
the latest replay of its record. A notice makes it read the record once (the ledger's cached
replay plus the new events), whatever the number of open streams; each stream then sends the
events it has not sent yet, from memory. No stream ever polls the database.

A stream sends each event as `id: <seq>` and `data: <the event as in /history>`. A client that
reconnects with `Last-Event-ID` (or opens with `?after=<seq>`) gets exactly the events after
it. A comment line every `heartbeat` seconds keeps proxies and phones from dropping an idle
stream; on shutdown every stream is ended cleanly (`close_all`, from the server's protocol).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import weakref
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from companion.api.deps import call, ledger_for
from companion.errors import InvalidRequestError
from companion.ledger.state import table_key

if TYPE_CHECKING:
    from companion.ledger.replay import Replay
    from companion.ledger.repository import Ledger

logger = logging.getLogger("companion.api")

router = APIRouter(prefix="/api/tables", tags=["tables"])

HEARTBEAT = 15.0
"""Seconds between two keep-alive comments on an idle stream."""
RETRY_MS = 1000
"""How soon (ms) a browser reconnects a dropped stream (the SSE `retry:` field)."""
LISTEN_RECONNECT = 1.0
"""Seconds before the PostgreSQL listener tries its connection again after losing it."""

_HUBS: weakref.WeakSet[LiveTables] = weakref.WeakSet()
_HUBS_LOCK = threading.Lock()


@dataclass(eq=False)
class _Watcher:
    """One open stream: it is woken when its table has news."""

    table: str
    wake: asyncio.Event = field(default_factory=asyncio.Event)


class LiveTables:
    """The hub of one app (one server process) on one ledger. Its methods run on the event
    loop, except `notice`, which any thread may call."""

    def __init__(self, ledger: Ledger, loop: asyncio.AbstractEventLoop) -> None:
        self.ledger = ledger
        self.loop = loop
        self.watchers: dict[str, set[_Watcher]] = {}
        self.latest: dict[str, Replay] = {}
        self.fetching: dict[str, asyncio.Task[None]] = {}
        self.stale: set[str] = set()
        self.closed = False
        self.heartbeat = HEARTBEAT
        self.listener: PostgresListener | None = None
        ledger.add_listener(self.notice)
        if ledger.notify_channel is not None:
            self.listener = PostgresListener(ledger, self)
            self.listener.start()
        with _HUBS_LOCK:
            _HUBS.add(self)

    # -- notices -----------------------------------------------------------------------------

    def notice(self, table_id: str, seq: int) -> None:
        """Table `table_id` has event `seq` (from a writer's thread or the listener's)."""
        if self.closed:
            return
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody is watching
            self.loop.call_soon_threadsafe(self._noticed, table_id, seq)

    def everything_changed(self) -> None:
        """Notices may have been missed (the listener reconnected): read every watched table."""
        with contextlib.suppress(RuntimeError):
            self.loop.call_soon_threadsafe(self._refresh_all)

    def _refresh_all(self) -> None:
        for table_id in list(self.watchers):
            self._noticed(table_id, None)

    def _noticed(self, table_id: str, seq: int | None) -> None:
        if table_id not in self.watchers:
            return  # nobody here watches it
        known = self.latest.get(table_id)
        if seq is not None and known is not None and _last_seq(known) >= seq:
            return
        if table_id in self.fetching:
            self.stale.add(table_id)  # read it again once the read under way is done
            return
        self.fetching[table_id] = self.loop.create_task(self._fetch(table_id))

    async def _fetch(self, table_id: str) -> None:
        try:
            while True:
                self.stale.discard(table_id)
                try:
                    replayed = await run_in_threadpool(self.ledger.replay, table_id)
                except Exception:
                    logger.warning("could not read table %s for its streams", table_id)
                    return
                self._publish(table_id, replayed)
                if table_id not in self.stale:
                    return
        finally:
            self.fetching.pop(table_id, None)

    def _publish(self, table_id: str, replayed: Replay) -> None:
        known = self.latest.get(table_id)
        if known is not None and _last_seq(known) > _last_seq(replayed):
            return
        self.latest[table_id] = replayed
        for watcher in self.watchers.get(table_id, ()):
            watcher.wake.set()

    # -- streams -----------------------------------------------------------------------------

    async def watch(self, table_id: str, after: int | None) -> AsyncIterator[str]:
        """The text of one stream: the events after `after` (None: from now on), then each new
        one as it is recorded, with heartbeats, until the client leaves or the server stops."""
        watcher = _Watcher(table_id)
        self.watchers.setdefault(table_id, set()).add(watcher)
        try:
            replayed = await call(self.ledger.replay, table_id)
            self._publish(table_id, replayed)
            sent = _last_seq(replayed) if after is None else after
            yield f"retry: {RETRY_MS}\n: {table_id} from event {sent}\n\n"
            watcher.wake.set()
            while not self.closed:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(watcher.wake.wait(), timeout=self.heartbeat)
                if self.closed:
                    break
                if not watcher.wake.is_set():
                    yield ": heartbeat\n\n"
                    continue
                watcher.wake.clear()
                latest = self.latest.get(table_id)
                if latest is None:
                    continue
                messages, sent = _messages_after(latest, sent)
                if messages:
                    yield messages
        finally:
            found = self.watchers.get(table_id)
            if found is not None:
                found.discard(watcher)
                if not found:
                    del self.watchers[table_id]
                    self.latest.pop(table_id, None)

    def close(self) -> None:
        """End every stream (the server is stopping) and the listener."""
        self.closed = True
        self.ledger.remove_listener(self.notice)
        if self.listener is not None:
            self.listener.stop()
        with contextlib.suppress(RuntimeError):
            self.loop.call_soon_threadsafe(self._wake_all)

    def _wake_all(self) -> None:
        for watchers in self.watchers.values():
            for watcher in watchers:
                watcher.wake.set()


def _last_seq(replayed: Replay) -> int:
    return replayed.entries[-1].event.seq if replayed.entries else 0


def _messages_after(replayed: Replay, after: int) -> tuple[str, int]:
    """The SSE messages of the events after event `after`, and the last event number sent."""
    from companion.ledger.export import event_json

    players = replayed.setup.players
    parts = []
    last = after
    for entry in replayed.entries[max(0, after) :]:
        seq = entry.event.seq
        if seq <= after:
            continue
        data = json.dumps(event_json(players, entry), separators=(",", ":"))
        parts.append(f"id: {seq}\nevent: table\ndata: {data}\n\n")
        last = seq
    return "".join(parts), last


def close_all() -> None:
    """End every open stream of this process (called when the server shuts down)."""
    with _HUBS_LOCK:
        hubs = list(_HUBS)
    for hub in hubs:
        hub.close()


# ---------------------------------------------------------------------------------------------
# PostgreSQL: one LISTEN connection per process


class PostgresListener:
    """A thread holding one connection that `LISTEN`s on the ledger's channel; each
    notification ("table:seq") goes to the hub. A lost connection is opened again, and then
    every watched table is read anew (notices sent meanwhile were missed)."""

    def __init__(self, ledger: Ledger, hub: LiveTables) -> None:
        self.ledger = ledger
        self.hub = hub
        self.stopping = threading.Event()
        self.listening = threading.Event()
        self.thread = threading.Thread(target=self._run, name="companion-listen", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.stopping.set()

    def _run(self) -> None:
        import psycopg

        channel = self.ledger.notify_channel
        assert channel is not None
        first = True
        while not self.stopping.is_set():
            try:
                with psycopg.connect(self.ledger.libpq_url(), autocommit=True) as connection:
                    connection.execute(f'LISTEN "{channel}"')
                    self.listening.set()
                    if not first:
                        self.hub.everything_changed()
                    first = False
                    while not self.stopping.is_set():
                        for note in connection.notifies(timeout=1.0):
                            table_id, _, seq = note.payload.rpartition(":")
                            if table_id and seq.isdigit():
                                self.hub.notice(table_id, int(seq))
            except Exception as error:
                self.listening.clear()
                logger.warning("the table stream listener lost the database: %s", error)
                self.stopping.wait(LISTEN_RECONNECT)


# ---------------------------------------------------------------------------------------------
# The endpoint


async def live_tables(request: Request) -> LiveTables:
    """This app's hub (made on the first stream)."""
    ledger = await ledger_for(request)
    state = request.app.state
    hub: LiveTables | None = getattr(state, "live_tables", None)
    if hub is None or hub.ledger is not ledger or hub.closed:
        hub = LiveTables(ledger, asyncio.get_running_loop())
        heartbeat = getattr(state, "stream_heartbeat", None)
        if isinstance(heartbeat, int | float):
            hub.heartbeat = float(heartbeat)
        state.live_tables = hub
    return hub


def _after(request: Request, after: int | None) -> int | None:
    header = request.headers.get("last-event-id")
    if header is not None and header.strip():
        if not header.strip().isdigit():
            raise InvalidRequestError("Last-Event-ID must be an event number")
        return int(header.strip())
    if after is not None and after < 0:
        raise InvalidRequestError("after must be an event number (0 or more)")
    return after


@router.get(
    "/{table_id}/stream",
    summary="The table's events as they are recorded (Server-Sent Events)",
    description="`text/event-stream`: each recorded event, void and amendment as one message, "
    "`id: <seq>` and `data:` the event as in `/history`. Reconnecting with `Last-Event-ID` "
    "(or opening with `?after=<seq>`) sends exactly the events after that one first; without "
    "either, only events recorded from now on. A comment line is sent as a heartbeat on an "
    "idle stream. Needs only the table's id (the read-only link).",
    response_class=StreamingResponse,
    responses={
        200: {"content": {"text/event-stream": {}}, "description": "the stream"},
        404: {"description": "no table with this id"},
    },
)
async def stream_table(request: Request, table_id: str, after: int | None = None) -> Any:
    start = _after(request, after)
    hub = await live_tables(request)
    key = table_key(table_id)
    await call(hub.ledger.setup, key)  # 404 for an unknown table, before the stream opens
    return StreamingResponse(
        hub.watch(key, start),
        media_type="text/event-stream",
        headers={"cache-control": "no-store", "x-accel-buffering": "no"},
    )

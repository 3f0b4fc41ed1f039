"""Live tables: `GET /api/tables/{id}/stream` (Server-Sent Events) and the one listener per
server process that feeds it.

Every write to a table ends with a notice "table X has event N" (`Ledger.add_listener`):

- on PostgreSQL the ledger sends it with `NOTIFY` in the write's own transaction (so it is
  delivered only if the write commits, and to every process on the database), and each process
  has one connection that `LISTEN`s for it (`PostgresListener`, a thread);
- on SQLite the ledger calls its in-process listeners after the commit (one process).

A `LiveTables` hub (one per app, so one per process) keeps, for each table someone is watching,
the latest replay of its record and that replay's messages. A notice makes it read the record
once (the ledger's cached replay plus the new events), whatever the number of open streams; the
messages of a state are written once, in a thread, and shared by every stream of the table
(an event already written is reused while its entry is unchanged); each stream then sends the
messages it has not sent yet, from memory. No stream ever polls the database, and nothing that
grows with the table runs on the event loop.

A stream sends each event as `id: <seq>` and `data: <the event as in /history>`. A client that
reconnects with `Last-Event-ID` (or opens with `?after=<seq>`) gets exactly the events after
it. A comment line every `heartbeat` seconds keeps proxies and phones from dropping an idle
stream; on shutdown every stream is ended cleanly (`close_all`, from the server's protocol).

What one client may hold (each tested in tests/test_api_live.py):

- **streams per address** (`COMPANION_STREAMS_PER_ADDRESS`, 100) and **per process**
  (`COMPANION_STREAMS`, 1,000, below `serve`'s 2,048 connections, so health checks and writes
  always find a connection): beyond them, 429 / 503 with `Retry-After`;
- **a lifetime** (`COMPANION_STREAM_LIFETIME`, 600 s, less up to a tenth so that streams
  opened together do not all end together): then the stream sends `event: reconnect` and ends,
  and the client opens it again after the last event it has (`Last-Event-ID`), losing none;
- **what waits for a client that does not read**: a backlog is sent in pieces of at most
  `CHUNK_BYTES`, and a piece the client has not taken within `stall` seconds (30) ends the
  stream (its connection is dropped); the client resumes from its `Last-Event-ID`;
- **thread time**: a stream's reads and message writing run on `STREAM_THREADS` threads of
  their own, so a crowd of streams opening queues behind itself, never in front of page reads.

An event's leaderboard follows the same notices: `GET /api/events/{id}/stream` sends one
message each time any of the event's tables records, or the organiser acts (a notice for
`event:<id>`). Its `id` is the event's *version*: the organiser's last action's number plus
every table's last event number, which only grows; a client that reconnects after version v
is told at once if the event has moved on. The hub learns which tables an event has when it
reads the event; a notice for a table it does not know (a round seated since) is looked up once
(`EventBook.event_of_table`), and a table of no event is remembered as such.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import json
import logging
import os
import random
import re
import threading
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

import anyio
from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from companion.api.deps import TableRequestError, open_ledger, refusals
from companion.api.limits import client_address
from companion.errors import InvalidRequestError
from companion.ledger.state import table_key

if TYPE_CHECKING:
    from companion.ledger.replay import Replay
    from companion.ledger.repository import Ledger

logger = logging.getLogger("companion.api")

router = APIRouter(prefix="/api/tables", tags=["tables"])
event_router = APIRouter(prefix="/api/events", tags=["events"])

HEARTBEAT = 15.0
"""Seconds between two keep-alive comments on an idle stream."""
RETRY_MS = 1000
"""How soon (ms) a browser reconnects a dropped stream (the SSE `retry:` field)."""
LISTEN_RECONNECT = 1.0
"""Seconds before the PostgreSQL listener tries its connection again after losing it."""

PER_ADDRESS_ENV = "COMPANION_STREAMS_PER_ADDRESS"
PER_ADDRESS = 100
"""Open streams per client address: a club's 40 phones behind one NAT never meet it."""
TOTAL_ENV = "COMPANION_STREAMS"
TOTAL = 1000
"""Open streams per process: under `serve`'s `--max-connections` (2,048), so that the other
requests (health, pages, writes) always find a connection."""
LIFETIME_ENV = "COMPANION_STREAM_LIFETIME"
LIFETIME = 600.0
"""Seconds a stream stays open (less up to a tenth); then the client reconnects."""
STALL = 30.0
"""Seconds a piece of a stream may wait for a client that does not read before the stream ends."""
CHUNK_BYTES = 64 * 1024
"""A backlog leaves in pieces of about this size: what waits for a slow client stays small."""
STREAM_THREADS = 4
"""Threads for the streams' reads and message writing (the pages keep the default pool)."""
REFUSED_RETRY = 10
"""The `Retry-After` (seconds) of a stream refused for a full limit."""
MAX_SEQ_DIGITS = 18
"""Digits of an event number (`Last-Event-ID`, `after`): more than any table can hold."""

KNOWN_TABLES = 4096
"""Tables remembered as belonging to no event (so a notice for them is not looked up again)."""

_SEQ = re.compile(f"[0-9]{{1,{MAX_SEQ_DIGITS}}}")
_HUBS: weakref.WeakSet[LiveTables] = weakref.WeakSet()
_HUBS_LOCK = threading.Lock()


@dataclass(eq=False)
class _Watcher:
    """One open stream: it is woken when its table has news."""

    table: str
    wake: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass(eq=False)
class _EventWatcher:
    """One open stream of an event's leaderboard."""

    event: str
    wake: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass(frozen=True)
class EventState:
    """What the event's streams need of it: its version and its tables."""

    version: int
    tables: frozenset[str]
    actions: int = 0
    """The organiser's last action's number: what changed when it changes is the event itself
    (a round, a timer, a penalty), not only a table's hands."""


def read_event_state(ledger: Ledger, event_id: str) -> EventState:
    """The event's version (the organiser's last action's number plus each table's last event
    number: it only grows, and every change moves it) and its tables. A refusal (no such event)
    raises as the ledger's own error."""
    from companion.ledger.event_book.service import EventBook

    book = EventBook(ledger)
    # The tables' ids from the event's rows alone (their tokens are not used): no table's
    # standings are worked out here.
    tables = frozenset(book.table_tokens(event_id))
    audit = book.audit(event_id)
    actions = max((entry.seq for entry in audit), default=0)
    version = actions + sum(_last_seq(ledger.replay(table)) for table in tables)
    return EventState(version, tables, actions)


@dataclass(frozen=True, eq=False)
class _Messages:
    """The SSE messages of one state of a table's record, one per event, in order."""

    replay: Replay
    seqs: tuple[int, ...]
    texts: tuple[bytes, ...]

    def pieces_after(self, after: int) -> Iterator[tuple[bytes, int]]:
        """The messages after event `after`, joined into pieces of about `CHUNK_BYTES`, each
        with the last event it holds; one at a time, so that a stream holds one piece."""
        start = bisect.bisect_right(self.seqs, after)
        while start < len(self.texts):
            end, size = start, 0
            while end < len(self.texts) and (end == start or size < CHUNK_BYTES):
                size += len(self.texts[end])
                end += 1
            yield b"".join(self.texts[start:end]), self.seqs[end - 1]
            start = end


def _write_messages(replayed: Replay, previous: _Messages | None) -> _Messages:
    """The messages of `replayed` (in a thread): an entry that is the very one `previous` had
    (the ledger extends a replay without copying its entries) keeps its message."""
    from companion.ledger.export import event_json

    players = replayed.setup.players
    kept = previous if previous is not None and previous.replay.setup.players == players else None
    seqs: list[int] = []
    texts: list[bytes] = []
    for index, entry in enumerate(replayed.entries):
        seq = entry.event.seq
        if kept is not None and index < len(kept.texts) and kept.replay.entries[index] is entry:
            text = kept.texts[index]
        else:
            data = json.dumps(event_json(players, entry), separators=(",", ":"))
            text = f"id: {seq}\nevent: table\ndata: {data}\n\n".encode()
        seqs.append(seq)
        texts.append(text)
    return _Messages(replayed, tuple(seqs), tuple(texts))


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


class LiveTables:
    """The hub of one app (one server process) on one ledger. Its methods run on the event
    loop, except `notice`, which any thread may call."""

    def __init__(
        self,
        ledger: Ledger,
        loop: asyncio.AbstractEventLoop,
        threads: anyio.CapacityLimiter | None = None,
    ) -> None:
        self.ledger = ledger
        self.loop = loop
        self.watchers: dict[str, set[_Watcher]] = {}
        self.latest: dict[str, Replay] = {}
        self.fetching: dict[str, asyncio.Task[None]] = {}
        self.stale: set[str] = set()
        self.messages: dict[str, _Messages] = {}
        self.writing: dict[str, tuple[Replay, asyncio.Task[_Messages]]] = {}
        self.event_watchers: dict[str, set[_EventWatcher]] = {}
        self.events: dict[str, EventState] = {}
        self.event_of: dict[str, str] = {}
        """The tables of the events someone watches: table id -> event id."""
        self.no_event: OrderedDict[str, None] = OrderedDict()
        self.event_fetching: dict[str, asyncio.Task[None]] = {}
        self.event_stale: set[str] = set()
        self.looking_up: set[str] = set()
        self.closed = False
        self.heartbeat = HEARTBEAT
        self.lifetime = _setting(LIFETIME_ENV, LIFETIME)
        self.stall = STALL
        self.threads = threads or anyio.CapacityLimiter(STREAM_THREADS)
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
        for event_id in list(self.event_watchers):
            self._event_changed(event_id)

    def _noticed(self, table_id: str, seq: int | None) -> None:
        if self.event_watchers:
            self._event_notice(table_id)
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
                    replayed = await self.read(table_id)
                except Exception:
                    logger.warning("could not read table %s for its streams", table_id)
                    return
                self.publish(table_id, replayed)
                if table_id not in self.stale:
                    return
        finally:
            self.fetching.pop(table_id, None)

    async def read(self, table_id: str) -> Replay:
        """The table's record now (on the streams' threads), its refusals mapped to HTTP."""
        replayed: Replay = await self.in_thread(self.ledger.replay, table_id)
        return replayed

    async def in_thread(self, function: Callable[..., Any], *args: Any) -> Any:
        def run() -> Any:
            with refusals():
                return function(*args)

        return await anyio.to_thread.run_sync(run, limiter=self.threads)

    def publish(self, table_id: str, replayed: Replay) -> None:
        known = self.latest.get(table_id)
        if known is replayed or (known is not None and _last_seq(known) > _last_seq(replayed)):
            return
        self.latest[table_id] = replayed
        for watcher in self.watchers.get(table_id, ()):
            watcher.wake.set()

    async def messages_of(self, table_id: str, replayed: Replay) -> _Messages:
        """The messages of this state of the table, written once (in a thread) for every
        stream that asks."""
        known = self.messages.get(table_id)
        if known is not None and known.replay is replayed:
            return known
        writing = self.writing.get(table_id)
        if writing is None or writing[0] is not replayed:
            task = self.loop.create_task(self._write(table_id, replayed, known))
            writing = (replayed, task)
            self.writing[table_id] = writing
        return await asyncio.shield(writing[1])

    async def _write(self, table_id: str, replayed: Replay, known: _Messages | None) -> _Messages:
        try:
            written: _Messages = await self.in_thread(_write_messages, replayed, known)
        finally:
            if self.writing.get(table_id, (None,))[0] is replayed:
                del self.writing[table_id]
        current = self.messages.get(table_id)
        if table_id in self.watchers and (
            current is None or _last_seq(current.replay) <= _last_seq(replayed)
        ):
            self.messages[table_id] = written
        return written

    # -- events ------------------------------------------------------------------------------

    def _event_notice(self, key: str) -> None:
        """A notice while someone watches an event: which event it concerns, if any (an
        organiser's action is announced as `event:<id>`, `event_book.store.event_notice`)."""
        from companion.ledger.event_book.store import noticed_event

        organised = noticed_event(key)
        if organised is not None:
            self._event_changed(organised)
            return
        event_id = self.event_of.get(key)
        if event_id is not None:
            self._event_changed(event_id)
        elif key not in self.no_event and key not in self.looking_up:
            # A table seated since the event was read, or a table of no event: asked once.
            self.looking_up.add(key)
            self.loop.create_task(self._look_up(key))

    async def _look_up(self, table_id: str) -> None:
        from companion.ledger.event_book.service import EventBook

        try:
            event_id = await self.in_thread(lambda: EventBook(self.ledger).event_of_table(table_id))
        except Exception:
            logger.warning("could not tell which event table %s belongs to", table_id)
            return
        finally:
            self.looking_up.discard(table_id)
        if event_id is None:
            self.no_event[table_id] = None
            while len(self.no_event) > KNOWN_TABLES:
                self.no_event.popitem(last=False)
        elif event_id in self.event_watchers:
            self.event_of[table_id] = event_id
            self._event_changed(event_id)

    def _event_changed(self, event_id: str) -> None:
        if event_id not in self.event_watchers:
            return
        if event_id in self.event_fetching:
            self.event_stale.add(event_id)
            return
        self.event_fetching[event_id] = self.loop.create_task(self._fetch_event(event_id))

    async def _fetch_event(self, event_id: str) -> None:
        try:
            while True:
                self.event_stale.discard(event_id)
                try:
                    state = await self.read_event(event_id)
                except Exception:
                    logger.warning("could not read event %s for its streams", event_id)
                    return
                self.publish_event(event_id, state)
                if event_id not in self.event_stale:
                    return
        finally:
            self.event_fetching.pop(event_id, None)

    async def read_event(self, event_id: str) -> EventState:
        state: EventState = await self.in_thread(read_event_state, self.ledger, event_id)
        return state

    def publish_event(self, event_id: str, state: EventState) -> None:
        if event_id not in self.event_watchers:
            return
        known = self.events.get(event_id)
        if known is not None and known.version > state.version:
            return
        self.events[event_id] = state
        for table_id in state.tables:
            self.event_of[table_id] = event_id
            self.no_event.pop(table_id, None)
        for watcher in self.event_watchers.get(event_id, ()):
            watcher.wake.set()

    def register_event(self, event_id: str) -> _EventWatcher:
        watcher = _EventWatcher(event_id)
        self.event_watchers.setdefault(event_id, set()).add(watcher)
        return watcher

    def unregister_event(self, watcher: _EventWatcher) -> None:
        found = self.event_watchers.get(watcher.event)
        if found is None or watcher not in found:
            return
        found.discard(watcher)
        if not found:
            del self.event_watchers[watcher.event]
            state = self.events.pop(watcher.event, None)
            for table_id in () if state is None else state.tables:
                self.event_of.pop(table_id, None)

    async def watch_event(self, watcher: _EventWatcher, sent: int) -> AsyncIterator[bytes]:
        """An event's stream: a message with the new version each time the event moves on,
        with heartbeats, until the client leaves, the lifetime is over or the server stops."""
        event_id = watcher.event
        yield f"retry: {RETRY_MS}\n: event {event_id} from version {sent}\n\n".encode()
        async for woken in self._wakes(watcher.wake):
            if not woken:
                yield b": heartbeat\n\n"
                continue
            state = self.events.get(event_id)
            if state is None or state.version <= sent:
                continue
            sent = state.version
            data = json.dumps({"version": sent, "actions": state.actions})
            yield f"id: {sent}\nevent: event\ndata: {data}\n\n".encode()
        if not self.closed:
            yield _reconnect(sent)

    # -- streams -----------------------------------------------------------------------------

    def register(self, table_id: str) -> _Watcher:
        """A new stream on `table_id`, woken from now on (before its first read of the table,
        so that no write after that read is missed)."""
        watcher = _Watcher(table_id)
        self.watchers.setdefault(table_id, set()).add(watcher)
        return watcher

    def unregister(self, watcher: _Watcher) -> None:
        found = self.watchers.get(watcher.table)
        if found is None or watcher not in found:
            return
        found.discard(watcher)
        if not found:
            del self.watchers[watcher.table]
            self.latest.pop(watcher.table, None)
            self.messages.pop(watcher.table, None)

    async def watch(self, watcher: _Watcher, sent: int) -> AsyncIterator[bytes]:
        """The text of one stream: the events after `sent`, then each new one as it is
        recorded, with heartbeats, until the client leaves, the stream's lifetime is over or
        the server stops."""
        table_id = watcher.table
        yield f"retry: {RETRY_MS}\n: {table_id} from event {sent}\n\n".encode()
        async for woken in self._wakes(watcher.wake):
            if not woken:
                yield b": heartbeat\n\n"
                continue
            latest = self.latest.get(table_id)
            if latest is None or _last_seq(latest) <= sent:
                continue
            written = await self.messages_of(table_id, latest)
            for piece, last in written.pieces_after(sent):
                yield piece
                sent = last
        if not self.closed:
            yield _reconnect(sent)

    async def _wakes(self, wake: asyncio.Event) -> AsyncIterator[bool]:
        """A stream's pace: True each time `wake` is set (once at once, for what the stream
        opened behind), False when a heartbeat is due; it ends when the server stops or the
        stream's lifetime (less up to a tenth) is over."""
        ends = self.loop.time() + self.lifetime * random.uniform(0.9, 1.0)
        wake.set()
        while not self.closed:
            left = ends - self.loop.time()
            if left <= 0:
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), timeout=min(self.heartbeat, left))
            if self.closed:
                return
            if not wake.is_set():
                if ends - self.loop.time() > 0:
                    yield False
                continue
            wake.clear()
            yield True

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
        for followers in self.event_watchers.values():
            for follower in followers:
                follower.wake.set()


def _reconnect(sent: int) -> bytes:
    """The message that ends a stream at the end of its lifetime: open it again after `sent`."""
    return f"event: reconnect\ndata: {json.dumps({'after': sent})}\n\n".encode()


def _last_seq(replayed: Replay) -> int:
    return replayed.entries[-1].event.seq if replayed.entries else 0


def _setting(name: str, default: float) -> float:
    """A positive number from the environment (every worker inherits it), else `default`: a
    value that is not one is logged and the default kept (a stream never fails for it)."""
    text = os.environ.get(name, "").strip()[:40]
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value < 1e9:
        logger.warning("%s must be a positive number, not %r: using %g", name, text, default)
        return default
    return value


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
                            if table_id and _SEQ.fullmatch(seq):
                                self.hub.notice(table_id, int(seq))
            except Exception as error:
                self.listening.clear()
                logger.warning("the table stream listener lost the database: %s", error)
                self.stopping.wait(LISTEN_RECONNECT)


# ---------------------------------------------------------------------------------------------
# The response


class EventStream(StreamingResponse):
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
# The endpoint


async def live_tables(request: Request, threads: anyio.CapacityLimiter) -> LiveTables:
    """This app's hub (made on the first stream)."""
    ledger = await anyio.to_thread.run_sync(open_ledger, request, limiter=threads)
    state = request.app.state
    hub: LiveTables | None = getattr(state, "live_tables", None)
    if hub is None or hub.ledger is not ledger or hub.closed:
        hub = LiveTables(ledger, asyncio.get_running_loop(), threads)
        for name, attribute in (
            ("stream_heartbeat", "heartbeat"),
            ("stream_lifetime", "lifetime"),
            ("stream_stall", "stall"),
        ):
            value = getattr(state, name, None)
            if isinstance(value, int | float):
                setattr(hub, attribute, float(value))
        state.live_tables = hub
    return hub


def stream_slots(request: Request) -> StreamSlots:
    """This app's count of open streams (`app.state.stream_slots`; made on the first stream)."""
    state = request.app.state
    slots = getattr(state, "stream_slots", None)
    if not isinstance(slots, StreamSlots):
        per_address = int(_setting(PER_ADDRESS_ENV, PER_ADDRESS))
        slots = StreamSlots(per_address=per_address, total=int(_setting(TOTAL_ENV, TOTAL)))
        state.stream_slots = slots
    return slots


def _stream_threads(request: Request) -> anyio.CapacityLimiter:
    state = request.app.state
    threads = getattr(state, "stream_threads", None)
    if not isinstance(threads, anyio.CapacityLimiter):
        threads = anyio.CapacityLimiter(STREAM_THREADS)
        state.stream_threads = threads
    return threads


def _after(request: Request, after: int | None) -> tuple[int | None, str]:
    """The event a stream starts after, and what said so (`Last-Event-ID` or `after`)."""
    header = request.headers.get("last-event-id")
    if header is not None and header.strip():
        # ASCII digits only: `int` takes "²" and other Unicode digits, and refuses 4,301 digits.
        if not _SEQ.fullmatch(header.strip()):
            raise InvalidRequestError("Last-Event-ID must be an event number")
        return int(header.strip()), "Last-Event-ID"
    if after is not None and after < 0:
        raise InvalidRequestError("after must be an event number (0 or more)")
    return after, "after"


@router.get(
    "/{table_id}/stream",
    summary="The table's events as they are recorded (Server-Sent Events)",
    description="`text/event-stream`: each recorded event, void and amendment as one message, "
    "`id: <seq>` and `data:` the event as in `/history`. Reconnecting with `Last-Event-ID` "
    "(or opening with `?after=<seq>`) sends exactly the events after that one first; without "
    "either, only events recorded from now on. A comment line is sent as a heartbeat on an "
    "idle stream. After its lifetime (10 minutes) a stream sends `event: reconnect` and ends: "
    "open it again with the last event received. Needs only the table's id (the read-only "
    "link).",
    response_class=StreamingResponse,
    responses={
        200: {"content": {"text/event-stream": {}}, "description": "the stream"},
        404: {"description": "no table with this id"},
        409: {"description": "`Last-Event-ID` or `after` is beyond the table's last event"},
        422: {"description": "`Last-Event-ID` or `after` is not an event number"},
        429: {"description": "too many open streams from this address (`Retry-After`)"},
        503: {"description": "the server holds as many streams as it takes (`Retry-After`)"},
    },
)
async def stream_table(request: Request, table_id: str, after: int | None = None) -> Any:
    start, said_by = _after(request, after)

    async def follow(hub: LiveTables) -> tuple[Callable[[], None], AsyncIterator[bytes]]:
        key = table_key(table_id)
        watcher = hub.register(key)  # before the read: a write after it wakes this stream
        try:
            replayed = await hub.read(key)  # 404 for an unknown table, before the stream opens
            last = _last_seq(replayed)
            if start is not None and start > last:
                raise TableRequestError(
                    f"{said_by} {start} is beyond this table's last event ({last}): "
                    "load the table again and follow it from there",
                    409,
                )
            hub.publish(key, replayed)
        except BaseException:
            hub.unregister(watcher)
            raise
        return partial(hub.unregister, watcher), hub.watch(
            watcher, last if start is None else start
        )

    return await _stream(request, follow)


async def _stream(
    request: Request,
    follow: Callable[[LiveTables], Awaitable[tuple[Callable[[], None], AsyncIterator[bytes]]]],
) -> EventStream:
    """A stream counted against the limits: `follow` registers it with the hub (refusing it
    before it opens, e.g. 404) and answers how to unregister it and its text."""
    slots = stream_slots(request)
    address = client_address(request)
    slots.take(address)
    try:
        hub = await live_tables(request, _stream_threads(request))
        unregister, text = await follow(hub)
    except BaseException:
        slots.give_back(address)
        raise

    def release() -> None:
        unregister()
        slots.give_back(address)

    return EventStream(text, stall=hub.stall, release=_once(release))


def _once(function: Callable[[], None]) -> Callable[[], None]:
    done = False

    def run() -> None:
        nonlocal done
        if not done:
            done = True
            function()

    return run


@event_router.get(
    "/{event_id}/stream",
    summary="The event's leaderboard as it changes (Server-Sent Events)",
    description="`text/event-stream`: one message each time any of the event's tables records "
    "(a hand, a void, an amendment) or the organiser acts (a round seated, a timer started, a "
    'penalty, a withdrawal): `id: <version>` and `data: {"version": <version>, "actions": '
    "<n>}`, `actions` being the organiser's last action's number (it moves only when the "
    "organiser acts). Read the leaderboard again on each message. Reconnecting with "
    "`Last-Event-ID` (or opening with `?after=<version>`) sends a message at once if the event "
    "has moved on since. Heartbeats, lifetime and limits as a table's stream. Needs only the "
    "event's id.",
    response_class=StreamingResponse,
    responses={
        200: {"content": {"text/event-stream": {}}, "description": "the stream"},
        404: {"description": "no event with this id"},
        422: {"description": "`Last-Event-ID` or `after` is not a version number"},
        429: {"description": "too many open streams from this address (`Retry-After`)"},
        503: {"description": "the server holds as many streams as it takes (`Retry-After`)"},
    },
)
async def stream_event(request: Request, event_id: str, after: int | None = None) -> Any:
    start, _ = _after(request, after)

    async def follow(hub: LiveTables) -> tuple[Callable[[], None], AsyncIterator[bytes]]:
        key = table_key(event_id)
        watcher = hub.register_event(key)  # before the read: a change after it wakes the stream
        try:
            state = await hub.read_event(key)  # 404 for an unknown event, before the stream opens
            hub.publish_event(key, state)
        except BaseException:
            hub.unregister_event(watcher)
            raise
        return partial(hub.unregister_event, watcher), hub.watch_event(
            watcher, state.version if start is None else start
        )

    return await _stream(request, follow)

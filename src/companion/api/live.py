"""Live streams: the one hub per server process that hears of every write and wakes the streams
that follow it. The streams themselves are a table's (`companion.api.table_stream`) and an
event's leaderboard (`companion.api.event_stream`); what every stream keeps to over HTTP (its
limits, its response, where it starts) is in `companion.api.streams`.

Every write to a table ends with a notice "table X has entry N" (`Ledger.add_listener`):

- on PostgreSQL the ledger sends it with `NOTIFY` in the write's own transaction (so it is
  delivered only if the write commits, and to every process on the database), and each process
  has one connection that `LISTEN`s for it (`PostgresListener`, a thread);
- on SQLite the ledger calls its in-process listeners after the commit (one process).

A `LiveHub` (one per app, so one per process) hands each notice to its parts (`HubPart`): the
tables' streams and the events' leaderboards, each made when the first stream of its kind
opens. No stream ever polls the database, and nothing that grows with the table runs on the
event loop. A comment line every `heartbeat` seconds keeps proxies and phones from dropping an
idle stream; on shutdown every stream is ended cleanly (`close_all`, from the server's
protocol).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import random
import re
import threading
import weakref
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import anyio

from companion.api.deps import refusals

if TYPE_CHECKING:
    from companion.ledger.replay import Replay
    from companion.ledger.repository import Ledger

logger = logging.getLogger("companion.api")

HEARTBEAT = 15.0
"""Seconds between two keep-alive comments on an idle stream."""
RETRY_MS = 1000
"""How soon (ms) a browser reconnects a dropped stream (the SSE `retry:` field)."""
LISTEN_RECONNECT = 1.0
"""Seconds before the PostgreSQL listener tries its connection again after losing it."""
LIFETIME_ENV = "COMPANION_STREAM_LIFETIME"
LIFETIME = 600.0
"""Seconds a stream stays open (less up to a tenth); then the client reconnects."""
STALL = 30.0
"""Seconds a piece of a stream may wait for a client that does not read before the stream ends."""
STREAM_THREADS = 4
"""Threads for the streams' reads and message writing (the pages keep the default pool)."""
MAX_SEQ_DIGITS = 18
"""Digits of an entry number (`Last-Event-ID`, `after`): more than any table can hold."""

SEQ = re.compile(f"[0-9]{{1,{MAX_SEQ_DIGITS}}}")
"""An entry number as a notice or a client gives it: ASCII digits only."""
_HUBS: weakref.WeakSet[LiveHub] = weakref.WeakSet()
_HUBS_LOCK = threading.Lock()

S = TypeVar("S")
P = TypeVar("P", bound="HubPart[Any]")


@dataclass(eq=False)
class Watcher:
    """One open stream: it is woken when what it follows (a table, an event) has news."""

    key: str
    wake: asyncio.Event = field(default_factory=asyncio.Event)


class HubPart(ABC, Generic[S]):
    """One kind of stream's share of a hub: the tables' streams or the events' leaderboards
    (`LiveHub.part`). For each table or event someone watches (its key), it keeps the state
    last read (an `S`), reads it again once for all its streams when a notice says it moved,
    and wakes them; each stream then sends what it has not sent yet. Its methods run on the
    event loop."""

    kind = "key"
    """What a key names, as the log says it."""
    opening = "{key} from {sent}"
    """A stream's first comment line, with its key and where it starts."""

    def __init__(self, hub: LiveHub) -> None:
        self.hub = hub
        self.watchers: dict[str, set[Watcher]] = {}
        self.fetching: dict[str, asyncio.Task[None]] = {}
        self.stale: set[str] = set()

    @abstractmethod
    def noticed(self, key: str, seq: int | None) -> None:
        """`key` (a table's id, or `event:<id>` for an organiser's write) has news: its
        record's number `seq`, or None when the hub cannot tell."""

    @abstractmethod
    async def read(self, key: str) -> S:
        """The state of `key` now (on the streams' threads), its refusals mapped to HTTP."""

    @abstractmethod
    def publish(self, key: str, state: S) -> None:
        """Keep `state` unless a later one is kept already, and wake the streams of `key`."""

    @abstractmethod
    def forget(self, key: str) -> None:
        """Nobody watches `key` any more: drop what is kept of it."""

    @abstractmethod
    def news(self, key: str, sent: int) -> AsyncIterator[tuple[bytes, int]]:
        """What a stream that has sent up to `sent` sends now: messages, each with where the
        stream stands once it is sent."""

    def missed(self) -> None:
        """Notices may have been missed (the listener reconnected): read all that is watched."""
        for key in list(self.watchers):
            self.changed(key)

    def changed(self, key: str) -> None:
        """Read `key` again for its streams, or once more when the read under way is done."""
        if key not in self.watchers:
            return  # nobody here watches it
        if key in self.fetching:
            self.stale.add(key)
            return
        self.fetching[key] = self.hub.loop.create_task(self._fetch(key))

    async def _fetch(self, key: str) -> None:
        try:
            while True:
                self.stale.discard(key)
                try:
                    state = await self.read(key)
                except Exception:
                    logger.warning("could not read %s %s for its streams", self.kind, key)
                    return
                self.publish(key, state)
                if key not in self.stale:
                    return
        finally:
            self.fetching.pop(key, None)

    def wake(self, key: str) -> None:
        for watcher in self.watchers.get(key, ()):
            watcher.wake.set()

    def wake_all(self) -> None:
        """Wake every stream of this part (the hub is closing: each ends)."""
        for watchers in self.watchers.values():
            for watcher in watchers:
                watcher.wake.set()

    async def follow(
        self, key: str, start: Callable[[S], int]
    ) -> tuple[Callable[[], None], AsyncIterator[bytes]]:
        """A new stream of `key`: how to unregister it, and its text from where `start` says
        (which may refuse the state read). It is woken from before its first read, so no
        write after that read is missed; a refusal of the read (404) comes before it opens."""
        watcher = Watcher(key)
        self.watchers.setdefault(key, set()).add(watcher)
        try:
            state = await self.read(key)
            sent = start(state)
            self.publish(key, state)
        except BaseException:
            self.unregister(watcher)
            raise
        return partial(self.unregister, watcher), self.watch(watcher, sent)

    def unregister(self, watcher: Watcher) -> None:
        found = self.watchers.get(watcher.key)
        if found is None or watcher not in found:
            return
        found.discard(watcher)
        if not found:
            del self.watchers[watcher.key]
            self.forget(watcher.key)

    async def watch(self, watcher: Watcher, sent: int) -> AsyncIterator[bytes]:
        """The text of one stream: what is new after `sent`, then news as it comes, with
        heartbeats, until the client leaves, the stream's lifetime is over or the server
        stops."""
        opening = self.opening.format(key=watcher.key, sent=sent)
        yield f"retry: {RETRY_MS}\n: {opening}\n\n".encode()
        async for woken in self.hub.wakes(watcher.wake):
            if not woken:
                yield b": heartbeat\n\n"
                continue
            async for message, last in self.news(watcher.key, sent):
                yield message
                sent = last
        if not self.hub.closed:
            yield reconnect(sent)


class LiveHub:
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
        self.parts: dict[type[HubPart[Any]], HubPart[Any]] = {}
        self.closed = False
        self.heartbeat = HEARTBEAT
        self.lifetime = setting(LIFETIME_ENV, LIFETIME)
        self.stall = STALL
        self.threads = threads or anyio.CapacityLimiter(STREAM_THREADS)
        self.listener: PostgresListener | None = None
        ledger.add_listener(self.notice)
        if ledger.notify_channel is not None:
            self.listener = PostgresListener(ledger, self)
            self.listener.start()
        with _HUBS_LOCK:
            _HUBS.add(self)

    def part(self, kind: type[P]) -> P:
        """The hub's part of `kind`, made when the first stream of its kind opens."""
        found = self.parts.get(kind)
        if not isinstance(found, kind):
            found = kind(self)
            self.parts[kind] = found
        return found

    # -- notices -----------------------------------------------------------------------------

    def notice(self, table_id: str, seq: int) -> None:
        """Table `table_id` has entry `seq` (from a writer's thread or the listener's)."""
        if self.closed:
            return
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody is watching
            self.loop.call_soon_threadsafe(self._noticed, table_id, seq)

    def everything_changed(self) -> None:
        """Notices may have been missed (the listener reconnected): read all that is watched."""
        with contextlib.suppress(RuntimeError):
            self.loop.call_soon_threadsafe(self._refresh_all)

    def _refresh_all(self) -> None:
        for part in list(self.parts.values()):
            part.missed()

    def _noticed(self, key: str, seq: int | None) -> None:
        for part in list(self.parts.values()):
            part.noticed(key, seq)

    async def in_thread(self, function: Callable[..., Any], *args: Any) -> Any:
        def run() -> Any:
            with refusals():
                return function(*args)

        return await anyio.to_thread.run_sync(run, limiter=self.threads)

    async def wakes(self, wake: asyncio.Event) -> AsyncIterator[bool]:
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
        for part in list(self.parts.values()):
            part.wake_all()


def reconnect(sent: int) -> bytes:
    """The message that ends a stream at the end of its lifetime: open it again after `sent`."""
    return f"event: reconnect\ndata: {json.dumps({'after': sent})}\n\n".encode()


def last_seq(replayed: Replay) -> int:
    """The number of a table's last entry (0 before its first)."""
    return replayed.entries[-1].stored.seq if replayed.entries else 0


def setting(name: str, default: float) -> float:
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

    def __init__(self, ledger: Ledger, hub: LiveHub) -> None:
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
                            if table_id and SEQ.fullmatch(seq):
                                self.hub.notice(table_id, int(seq))
            except Exception as error:
                self.listening.clear()
                logger.warning("the table stream listener lost the database: %s", error)
                self.stopping.wait(LISTEN_RECONNECT)

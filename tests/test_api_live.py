"""`GET /api/tables/{id}/stream`: Server-Sent Events from a real server (uvicorn in a thread),
on SQLite (the in-process broadcast) and PostgreSQL (LISTEN/NOTIFY); two apps on one PostgreSQL
database stand for two server processes: a write through one reaches a stream on the other."""

from __future__ import annotations

import asyncio
import json
import queue
import socket
import threading
import time
from collections.abc import Iterator, MutableMapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from companion.api import create_app, live
from companion.api.streams import TOTAL, StreamSlots
from companion.api.table_stream import TableStreams
from companion.ledger.records import DrawRecord

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
HANG = 30.0
"""Seconds after which a write that has not reached a stream is lost (a hang), not late: how
fast it arrives is bench/live_arrival.py's to measure (a loaded machine is slow, not wrong)."""


@dataclass
class Server:
    base: str
    app: Any


@contextmanager
def serving(database_url: str, heartbeat: float | None = None, **state: Any) -> Iterator[Server]:
    """A real server on loopback; `state` sets the app's stream settings (`stream_lifetime`,
    `stream_stall`, `stream_slots`)."""
    import uvicorn

    app = create_app(database_url)
    if heartbeat is not None:
        app.state.stream_heartbeat = heartbeat
    for name, value in state.items():
        setattr(app.state, name, value)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.01)
    try:
        yield Server(f"http://127.0.0.1:{port}", app)
    finally:
        hub = getattr(app.state, "live_hub", None)
        if hub is not None:
            hub.close()
        server.should_exit = True
        thread.join(timeout=10)


@dataclass
class Message:
    id: str | None
    event: str | None
    data: Any


class Stream:
    """A stream read in a thread: its messages (and comments) land in a queue."""

    def __init__(self, url: str, headers: dict[str, str] | None = None) -> None:
        self.messages: queue.Queue[Message | str] = queue.Queue()
        self.status = 0
        self.content_type = ""
        self.content_encoding: str | None = None
        self.ended = threading.Event()
        self.opened = threading.Event()
        self.thread = threading.Thread(target=self._read, args=(url, headers or {}), daemon=True)
        self.thread.start()
        assert self.opened.wait(5), "the stream did not open"

    def _read(self, url: str, headers: dict[str, str]) -> None:
        try:
            with httpx.stream("GET", url, headers=headers, timeout=30) as response:
                self.status = response.status_code
                self.content_type = response.headers.get("content-type", "")
                self.content_encoding = response.headers.get("content-encoding")
                self.opened.set()
                fields: dict[str, str] = {}
                for line in response.iter_lines():
                    if line.startswith(":"):
                        self.messages.put(line)
                    elif line == "":
                        if "data" in fields:
                            data = json.loads(fields["data"])
                            self.messages.put(Message(fields.get("id"), fields.get("event"), data))
                        fields = {}
                    else:
                        name, _, value = line.partition(": ")
                        fields[name] = value
        finally:
            self.opened.set()
            self.ended.set()

    def next(self, timeout: float = HANG) -> Message:
        deadline = time.monotonic() + timeout
        while True:
            item = self.messages.get(timeout=max(0.01, deadline - time.monotonic()))
            if isinstance(item, Message):
                return item

    def comment(self, timeout: float = 2.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            item = self.messages.get(timeout=max(0.01, deadline - time.monotonic()))
            if isinstance(item, str) and "heartbeat" in item:
                return item

    def nothing_more(self, wait: float = 0.3) -> bool:
        time.sleep(wait)
        return not any(isinstance(item, Message) for item in list(self.messages.queue))


def new_table(base: str) -> tuple[str, dict[str, str]]:
    response = httpx.post(f"{base}/api/tables", json={"players": PLAYERS})
    assert response.status_code == 201
    data = response.json()
    return data["id"], {"Authorization": f"Bearer {data['token']}"}


def record(base: str, table_id: str, auth: dict[str, str], body: dict[str, Any]) -> int:
    response = httpx.post(f"{base}/api/tables/{table_id}/hands", json=body, headers=auth)
    assert response.status_code in (200, 201), response.text
    seq: int = response.json()["event"]["seq"]
    return seq


WIN = {"kind": "win", "winner": "Ann", "from": "Ben", "tai": 2}


@pytest.fixture
def sqlite_url(tmp_path: Any) -> str:
    return f"sqlite:///{tmp_path / 'ledger.sqlite3'}"


def test_a_write_reaches_an_open_stream_as_its_history_event(sqlite_url: str) -> None:
    with serving(sqlite_url) as server:
        table_id, auth = new_table(server.base)
        stream = Stream(f"{server.base}/api/tables/{table_id}/stream")
        assert stream.status == 200
        assert stream.content_type.startswith("text/event-stream")
        assert stream.content_encoding is None, "httpx accepts gzip: the stream is never sent so"
        record(server.base, table_id, auth, WIN)
        message = stream.next()
        history = httpx.get(f"{server.base}/api/tables/{table_id}/history").json()
        assert message.id == "1"
        assert message.event == "table"
        assert message.data == history["events"][0]
        assert message.data["text"] == "Ann wins 2 tai (agreed) on Ben's discard"

        # A void is one more message; the voided event keeps its place in the history.
        void = httpx.post(
            f"{server.base}/api/tables/{table_id}/events/1/void",
            json={"reason": "undone by the recorder", "expect": 0},
            headers=auth,
        )
        assert void.status_code == 201
        message = stream.next()
        assert (message.id, message.data["kind"], message.data["target"]) == ("2", "void", 1)
        assert stream.nothing_more()


def test_last_event_id_resumes_with_exactly_the_events_after_it(sqlite_url: str) -> None:
    with serving(sqlite_url) as server:
        table_id, auth = new_table(server.base)
        for _ in range(3):
            record(server.base, table_id, auth, {"kind": "draw"})
        url = f"{server.base}/api/tables/{table_id}/stream"
        resumed = Stream(url, {"Last-Event-ID": "1"})
        assert [resumed.next().id, resumed.next().id] == ["2", "3"]
        assert resumed.nothing_more()
        record(server.base, table_id, auth, {"kind": "draw"})
        assert resumed.next().id == "4"
        assert resumed.nothing_more()

        # `?after=` opens at a given event (EventSource cannot set the header the first time);
        # the header wins when both are sent (a browser's reconnection keeps the URL).
        opened = Stream(f"{url}?after=3")
        assert opened.next().id == "4"
        both = Stream(f"{url}?after=0", {"Last-Event-ID": "3"})
        assert both.next().id == "4"
        assert both.nothing_more(0.1)


def test_streams_refuse_an_unknown_table_and_a_bad_last_event_id(sqlite_url: str) -> None:
    with serving(sqlite_url) as server:
        response = httpx.get(f"{server.base}/api/tables/nosuchtb/stream")
        assert response.status_code == 404
        assert response.json() == {"error": "no table with id 'nosuchtb'"}
        table_id, _ = new_table(server.base)
        response = httpx.get(
            f"{server.base}/api/tables/{table_id}/stream", headers={"Last-Event-ID": "x"}
        )
        assert response.status_code == 422
        assert response.json() == {"error": "Last-Event-ID must be a whole number"}


def test_an_idle_stream_gets_heartbeats_and_ends_cleanly_on_shutdown(sqlite_url: str) -> None:
    with serving(sqlite_url, heartbeat=0.1) as server:
        table_id, _ = new_table(server.base)
        stream = Stream(f"{server.base}/api/tables/{table_id}/stream")
        assert stream.comment(1.0) == ": heartbeat"
        live.close_all()
        assert stream.ended.wait(2), "the stream ends when the server stops"


def test_streams_share_one_read_per_write(sqlite_url: str, monkeypatch: Any) -> None:
    """Ten open streams on one table: a write is read from the database once, not ten times."""
    with serving(sqlite_url) as server:
        table_id, auth = new_table(server.base)
        streams = [Stream(f"{server.base}/api/tables/{table_id}/stream") for _ in range(10)]
        # A stream's headers come before its first read of the table: wait for each one's
        # opening comment, sent once that read is done, before counting reads.
        for stream in streams:
            assert stream.messages.get(timeout=5) == f": {table_id} from entry 0"
        hub = server.app.state.live_hub
        reads: list[str] = []
        original = hub.ledger.replay

        def counted(table: str) -> Any:
            reads.append(table)
            return original(table)

        monkeypatch.setattr(hub.ledger, "replay", counted)
        record(server.base, table_id, auth, {"kind": "draw"})
        assert all(stream.next().id == "1" for stream in streams)
        assert reads.count(table_id) == 1


def test_two_servers_on_one_postgres_database(ledger_postgres_url: str) -> None:
    """Two apps, each with its own ledger and hub, as two processes would be: a write through
    one reaches a stream held by the other by NOTIFY, every one of them, in order."""
    with serving(ledger_postgres_url) as first, serving(ledger_postgres_url) as second:
        table_id, auth = new_table(first.base)
        stream = Stream(f"{second.base}/api/tables/{table_id}/stream")
        hub = second.app.state.live_hub
        assert hub.listener is not None and hub.listener.listening.wait(5)
        for seq in range(1, 6):
            assert record(first.base, table_id, auth, {"kind": "draw"}) == seq
            assert stream.next().id == str(seq)
        assert stream.nothing_more()


# ---------------------------------------------------------------------------------------------
# Under abuse (issue 24): bad and impossible event numbers, a write at once, backlogs, clients
# that do not read, limits per address, lifetimes.


def test_last_event_ids_that_int_cannot_read_are_a_422_not_a_500(sqlite_url: str) -> None:
    """`²` is a digit to `str.isdigit`, not to `int`; 5,000 digits are over `int`'s limit: each
    was a 500 with a traceback."""
    with serving(sqlite_url) as server:
        table_id, _ = new_table(server.base)
        url = f"{server.base}/api/tables/{table_id}/stream"
        for header in (b"\xb2", b"\xb9", b"9" * 5000, b"-1", b"1 2", b"1e3"):
            response = httpx.get(url, headers={b"Last-Event-ID": header})
            assert response.status_code == 422, header[:10]
            assert response.json() == {"error": "Last-Event-ID must be a whole number"}
        response = httpx.get(f"{url}?after=" + "9" * 5000)
        assert response.status_code == 422
        assert response.json()["error"].startswith("query.after: ")


def test_an_event_beyond_the_tables_last_is_refused_not_followed_in_silence(
    sqlite_url: str,
) -> None:
    """A client that says it has event 9 of a 2-event table (a restored database, another
    server) is told so: it must load the table again, not wait for events it believes it has."""
    with serving(sqlite_url) as server:
        table_id, auth = new_table(server.base)
        for _ in range(2):
            record(server.base, table_id, auth, {"kind": "draw"})
        url = f"{server.base}/api/tables/{table_id}/stream"
        response = httpx.get(url, headers={"Last-Event-ID": "9"})
        assert response.status_code == 409
        assert response.json() == {
            "error": "Last-Event-ID 9 is beyond this table's last entry (2): "
            "load the table again and follow it from there"
        }
        response = httpx.get(f"{url}?after=3")
        assert response.status_code == 409
        assert response.json()["error"].startswith("after 3 is beyond this table's last entry")
        assert Stream(url, {"Last-Event-ID": "2"}).nothing_more()  # its last event: open


def test_a_write_right_after_the_headers_reaches_a_stream_opened_without_after(
    sqlite_url: str, monkeypatch: Any
) -> None:
    """The stream was registered after its 200: a write between the headers and its first
    read of the table was in that read, so it counted as seen and was never sent."""
    with serving(sqlite_url) as server:
        table_id, auth = new_table(server.base)
        ledger = next(iter(server.app.state.ledgers.values()))
        original = ledger.replay

        def slow_replay(table: str) -> Any:
            time.sleep(0.5)  # a busy database: the read comes well after the write below
            return original(table)

        monkeypatch.setattr(ledger, "replay", slow_replay)
        stream = Stream(f"{server.base}/api/tables/{table_id}/stream")
        assert stream.status == 200
        record(server.base, table_id, auth, {"kind": "draw"})
        assert stream.next(timeout=10).id == "1"


def test_a_backlog_is_written_once_per_state_off_the_event_loop(
    sqlite_url: str, monkeypatch: Any
) -> None:
    """Eight streams open at event 0 of a 30-event table: the 30 events are turned into JSON
    30 times (once each, for all eight streams), and never on the event loop."""
    from companion.ledger import export

    with serving(sqlite_url) as server:
        table_id, auth = new_table(server.base)
        for _ in range(30):
            record(server.base, table_id, auth, {"kind": "draw"})
        on_loop: list[bool] = []
        original = export.entry_json

        def counted(players: Any, entry: Any) -> Any:
            try:
                asyncio.get_running_loop()
                on_loop.append(True)
            except RuntimeError:
                on_loop.append(False)
            return original(players, entry)

        monkeypatch.setattr(export, "entry_json", counted)
        url = f"{server.base}/api/tables/{table_id}/stream?after=0"
        streams = [Stream(url) for _ in range(8)]
        for stream in streams:
            assert [stream.next().id for _ in range(30)] == [str(n) for n in range(1, 31)]
        assert (len(on_loop), any(on_loop)) == (30, False)
        # A new event is one more message, the thirty others kept.
        record(server.base, table_id, auth, {"kind": "draw"})
        assert all(stream.next().id == "31" for stream in streams)
        # (the write's own answer is JSON made on the loop: not the stream's)
        assert on_loop.count(False) == 31


def test_a_client_that_does_not_read_is_cut_and_holds_nothing(tmp_path: Any) -> None:
    """A client that asks for a 300-event backlog and never reads, as the app sees it: the
    server's `send` stops returning once its buffers are full. The backlog leaves in pieces of
    about 64 KiB, the piece that waits `stream_stall` seconds ends the stream, the connection
    is aborted, and the hub and the address's count forget it. (Before: one 100 KB piece per
    stream, and a stream that never ended.)"""
    from companion.ledger.repository import Ledger
    from own_loop import run_on_own_loop

    url = f"sqlite:///{tmp_path / 'big.sqlite3'}"
    with Ledger.open(url) as ledger:
        table_id = ledger.create_table("sg", PLAYERS).id
        for _ in range(300):
            ledger.record(table_id, DrawRecord())
    app = create_app(url)
    app.state.stream_stall = 0.5
    sent: list[MutableMapping[str, Any]] = []
    disconnected: asyncio.Event

    class Transport:
        aborted = False

        def abort(self) -> None:
            self.aborted = True
            disconnected.set()

    class Cycle:  # what uvicorn's `receive` is bound to
        transport = Transport()

        async def receive(self) -> dict[str, Any]:
            await disconnected.wait()
            return {"type": "http.disconnect"}

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(message)
        if len(sent) > 2:  # the headers and the opening comment went; then nothing more does
            await asyncio.Event().wait()

    async def run() -> None:
        scope = {
            "type": "http",
            "asgi": {"version": "3.0", "spec_version": "2.3"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": f"/api/tables/{table_id}/stream",
            "raw_path": f"/api/tables/{table_id}/stream".encode(),
            "query_string": b"after=0",
            "root_path": "",
            "headers": [(b"host", b"127.0.0.1")],
            "client": ("127.0.0.1", 50000),
            "server": ("127.0.0.1", 8000),
        }
        await asyncio.wait_for(app(scope, Cycle().receive, send), timeout=HANG)

    async def main() -> None:
        nonlocal disconnected
        disconnected = asyncio.Event()  # made on the loop that waits on it
        await run()

    try:
        run_on_own_loop(main())
        assert sent[0]["status"] == 200
        bodies = [message["body"] for message in sent[1:]]
        assert bodies[0].startswith(b"retry: 1000\n")
        assert 64 * 1024 <= len(bodies[1]) < 65 * 1024
        assert bodies[1].startswith(b"id: 1\n")
        assert Cycle.transport.aborted
        tables = app.state.live_hub.part(TableStreams)
        assert (tables.watchers, tables.messages, app.state.stream_slots.open) == ({}, {}, 0)
    finally:
        from companion.api.deps import close_ledgers

        close_ledgers(app)


def test_streams_per_address_are_limited_and_health_and_writes_still_answer(
    sqlite_url: str,
) -> None:
    with serving(sqlite_url, stream_slots=StreamSlots(per_address=6, total=1000)) as server:
        table_id, auth = new_table(server.base)
        url = f"{server.base}/api/tables/{table_id}/stream?after=0"
        streams = [Stream(url) for _ in range(6)]
        assert all(stream.status == 200 for stream in streams)
        refused = httpx.get(url)
        assert refused.status_code == 429
        assert refused.headers["retry-after"] == "10"
        assert refused.headers["connection"] == "close"  # a refused client holds no connection
        assert refused.json() == {
            "error": "too many open streams from this address (at most 6): try again in 10 s"
        }
        assert httpx.get(f"{server.base}/api/health", timeout=HANG).status_code == 200
        assert record(server.base, table_id, auth, {"kind": "draw"}) == 1
        assert all(stream.next().id == "1" for stream in streams)


def test_streams_per_process_are_limited(sqlite_url: str) -> None:
    with serving(sqlite_url, stream_slots=StreamSlots(per_address=100, total=3)) as server:
        table_id, auth = new_table(server.base)
        url = f"{server.base}/api/tables/{table_id}/stream"
        streams = [Stream(url) for _ in range(3)]
        refused = httpx.get(url)
        assert (refused.status_code, refused.headers["retry-after"]) == (503, "10")
        assert refused.headers["connection"] == "close"
        assert refused.json() == {
            "error": "the server follows as many live tables as it takes (3 streams): "
            "try again in 10 s"
        }
        assert httpx.get(f"{server.base}/api/health", timeout=HANG).status_code == 200
        assert record(server.base, table_id, auth, {"kind": "draw"}) == 1
        assert all(stream.next().id == "1" for stream in streams)


def test_stream_limits_come_from_the_environment(sqlite_url: str, monkeypatch: Any) -> None:
    """`companion serve`'s workers inherit the variables; one that is not a positive number is
    logged and the default kept."""
    monkeypatch.setenv("COMPANION_STREAMS_PER_ADDRESS", "2")
    monkeypatch.setenv("COMPANION_STREAMS", "lots")
    monkeypatch.setenv("COMPANION_STREAM_LIFETIME", "120")
    with serving(sqlite_url) as server:
        table_id, _ = new_table(server.base)
        url = f"{server.base}/api/tables/{table_id}/stream"
        streams = [Stream(url) for _ in range(2)]
        refused = httpx.get(url)
        assert refused.status_code == 429
        assert "(at most 2)" in refused.json()["error"]
        slots = server.app.state.stream_slots
        assert (slots.per_address, slots.total, len(streams)) == (2, TOTAL, 2)
        assert server.app.state.live_hub.lifetime == 120.0


def _follow(url: str, after: str, until: float) -> tuple[list[str], str, bool]:
    """Read one stream (Last-Event-ID `after`) to its end: the event ids, the last id, and
    whether it ended with `event: reconnect`."""
    ids: list[str] = []
    reconnect = False
    headers = {"Last-Event-ID": after}
    with httpx.stream("GET", url, headers=headers, timeout=5) as response:
        assert response.status_code == 200
        fields: dict[str, str] = {}
        for line in response.iter_lines():
            assert time.monotonic() < until, "the stream never ended"
            if line == "":
                if fields.get("event") == "table":
                    ids.append(fields["id"])
                reconnect = reconnect or fields.get("event") == "reconnect"
                fields = {}
            elif not line.startswith(":"):
                name, _, value = line.partition(": ")
                fields[name] = value
    return ids, (ids[-1] if ids else after), reconnect


def test_a_stream_ends_after_its_lifetime_and_resuming_loses_no_event(sqlite_url: str) -> None:
    """Streams of 0.4 s while 40 draws are recorded: each ends with `event: reconnect`, the
    client opens it again with its Last-Event-ID, and it sees every event once, in order."""
    with serving(sqlite_url, stream_lifetime=0.4) as server:
        table_id, auth = new_table(server.base)
        url = f"{server.base}/api/tables/{table_id}/stream"

        def writer() -> None:
            for _ in range(40):
                record(server.base, table_id, auth, {"kind": "draw"})
                time.sleep(0.03)

        thread = threading.Thread(target=writer)
        thread.start()
        seen: list[str] = []
        last, streams, until = "0", 0, time.monotonic() + HANG
        while len(seen) < 40:
            assert time.monotonic() < until, f"{len(seen)} events after {streams} streams"
            ids, last, reconnect = _follow(url, last, until)
            assert reconnect, "a stream ends by its lifetime, saying so"
            seen += ids
            streams += 1
        thread.join()
        assert seen == [str(n) for n in range(1, 41)]
        assert streams >= 2
        assert server.app.state.stream_slots.open <= 1

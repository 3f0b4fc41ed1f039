"""`GET /api/tables/{id}/stream`: Server-Sent Events from a real server (uvicorn in a thread),
on SQLite (the in-process broadcast) and PostgreSQL (LISTEN/NOTIFY); two apps on one PostgreSQL
database stand for two server processes: a write through one reaches a stream on the other."""

from __future__ import annotations

import json
import queue
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from companion.api import create_app, live

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
HANG = 30.0
"""Seconds after which a write that has not reached a stream is lost (a hang), not late: how
fast it arrives is bench/live_arrival.py's to measure (a loaded machine is slow, not wrong)."""


@dataclass
class Server:
    base: str
    app: Any


@contextmanager
def serving(database_url: str, heartbeat: float | None = None) -> Iterator[Server]:
    import uvicorn

    app = create_app(database_url)
    if heartbeat is not None:
        app.state.stream_heartbeat = heartbeat
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
        hub = getattr(app.state, "live_tables", None)
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
        assert response.json() == {"error": "Last-Event-ID must be an event number"}


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
            assert stream.messages.get(timeout=5) == f": {table_id} from event 0"
        hub = server.app.state.live_tables
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
        hub = second.app.state.live_tables
        assert hub.listener is not None and hub.listener.listening.wait(5)
        for seq in range(1, 6):
            assert record(first.base, table_id, auth, {"kind": "draw"}) == seq
            assert stream.next().id == str(seq)
        assert stream.nothing_more()

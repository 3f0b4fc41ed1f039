"""`companion serve` facing slow and idle clients, proxies and rebound host names: real servers on
127.0.0.1, bounded client counts, every client stopping by itself.

The figures at full scale (1,000 slow clients) come from `bench/slow_clients.py`; here the same
behaviour at small scale: slow clients are cut at the header deadline while `/api/health` keeps
answering, a connection over the limit is refused with 503 at once, a slow body is cut and
records nothing, an idle kept-alive connection is closed, the log stays quiet.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from reliability_server import Server, new_table, run_slow_clients

SLOW_CLIENTS = 150
HEADER_TIMEOUT = 3


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'ledger.sqlite3'}"


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with short deadlines, so that the tests see them pass (one for the module)."""
    folder = tmp_path_factory.mktemp("guarded")
    args = ["--header-timeout", str(HEADER_TIMEOUT), "--body-timeout", "1", "--keep-alive", "1"]
    with Server(f"sqlite:///{folder / 'ledger.sqlite3'}", folder / "server.log", *args) as server:
        yield server


def quiet(log: str) -> None:
    assert "Traceback" not in log and "Too many open files" not in log, log[-2000:]


def test_slow_clients_are_cut_at_the_header_deadline_and_health_answers(guarded: Server) -> None:
    results: dict[str, int] = {}

    def slow() -> None:
        # one header line every 0.5 s, never the end of the headers
        results.update(run_slow_clients(guarded.port, SLOW_CLIENTS, 6.0, 0.5, reconnect=False))

    thread = threading.Thread(target=slow)
    thread.start()
    try:
        deadline = time.monotonic() + HEADER_TIMEOUT
        time.sleep(1.0)  # they are all connected and trickling
        answers = []
        with httpx.Client(timeout=2.0) as client:
            while time.monotonic() < deadline - 0.5:  # while every slow client is attached
                answers.append(client.get(f"{guarded.url}/api/health").status_code)
                time.sleep(0.05)
        assert answers and set(answers) == {200}
    finally:
        thread.join(timeout=30)
    assert not thread.is_alive()
    assert results["attached"] == SLOW_CLIENTS and results["connect_failed"] == 0
    assert results["timed_out"] == SLOW_CLIENTS, results  # each got a 408 at the deadline
    assert results["open"] == 0
    quiet(guarded.log_text())


def test_an_idle_connection_is_closed_at_the_header_deadline(guarded: Server) -> None:
    with socket.create_connection(("127.0.0.1", guarded.port), timeout=10) as idle:
        started = time.monotonic()
        assert idle.recv(100) == b"", "closed without an answer: it asked nothing"
        assert HEADER_TIMEOUT - 0.5 < time.monotonic() - started < HEADER_TIMEOUT + 3


def test_a_slow_body_is_cut_and_records_nothing(guarded: Server) -> None:
    table_id, token = new_table(guarded.url)
    head = (
        f"POST /api/tables/{table_id}/hands HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n"
        "Content-Length: 100\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", guarded.port), timeout=10) as slow:
        slow.sendall(head.encode() + b'{"kind": "dr')
        assert slow.recv(100) == b"", "the connection is closed at the body deadline"
    history = httpx.get(f"{guarded.url}/api/tables/{table_id}/history").json()
    assert history["events"] == []
    quiet(guarded.log_text())


def test_a_kept_alive_connection_is_closed_when_idle(guarded: Server) -> None:
    with socket.create_connection(("127.0.0.1", guarded.port), timeout=10) as client:
        client.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        answer = client.recv(1000)
        started = time.monotonic()
        while chunk := client.recv(1000):  # the rest of the answer, then the close
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 200") and answer.endswith(b'{"status":"ok"}')
        assert time.monotonic() - started < 3, "closed after --keep-alive 1, long before 10 s"


def test_connections_over_the_limit_are_refused_at_once_with_one_log_line(
    db_url: str, tmp_path: Path
) -> None:
    with Server(db_url, tmp_path / "server.log", "--max-connections", "20") as server:
        held = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(20)]
        try:
            time.sleep(0.3)
            answers = []
            for _ in range(5):
                with socket.create_connection(("127.0.0.1", server.port), timeout=5) as extra:
                    answers.append(extra.recv(1000))
            for answer in answers:
                assert answer.startswith(b"HTTP/1.1 503 Service Unavailable\r\n"), answer
                assert b"retry-after: 5\r\n" in answer
                assert answer.endswith(
                    b'{"error": "the server has as many connections as it takes: try again in '
                    b'a few seconds"}'
                )
        finally:
            for connection in held:
                connection.close()
        time.sleep(0.3)
        assert httpx.get(f"{server.url}/api/health").status_code == 200, "room again"
        log = server.log_text()
    refusals = [line for line in log.splitlines() if "refused" in line]
    assert refusals == [
        "WARNING:  refused 1 connection(s): 20 open, the limit is 20 (--max-connections)"
    ], "one line for the five refusals (one per 10 s at most, counting them)"
    quiet(log)


def test_the_client_address_comes_from_x_forwarded_for_only_behind_a_trusted_proxy(
    db_url: str, tmp_path: Path
) -> None:
    body = {"profile": "sg", "players": ["Ann", "Ben", "Cat", "Dan"]}

    def create(server: Server, forwarded_for: str) -> int:
        headers = {"x-forwarded-for": forwarded_for}
        return httpx.post(f"{server.url}/api/tables", json=body, headers=headers).status_code

    limit = ["--create-limit", "1/3600"]
    with Server(db_url, tmp_path / "direct.log", *limit) as direct:
        assert create(direct, "10.0.0.1") == 201
        assert create(direct, "10.0.0.2") == 429, "the header is not believed: same address"
    trusted = [*limit, "--forwarded-allow-ips", "127.0.0.1"]
    with Server(db_url, tmp_path / "proxied.log", *trusted) as proxied:
        assert create(proxied, "10.0.0.1") == 201
        assert create(proxied, "10.0.0.1") == 429
        assert create(proxied, "10.0.0.2") == 201, "each client behind the proxy has its bucket"


def test_serve_answers_only_its_own_host_names(db_url: str, tmp_path: Path) -> None:
    with Server(db_url, tmp_path / "server.log", "--allowed-host", "scores.example") as server:

        def health(host: str) -> int:
            return httpx.get(f"{server.url}/api/health", headers={"host": host}).status_code

        assert health(f"127.0.0.1:{server.port}") == 200
        assert health(f"localhost:{server.port}") == 200
        assert health("scores.example") == 200
        assert health(f"rebind.example:{server.port}") == 400
        assert health(f"192.168.1.20:{server.port}") == 400

"""Helpers for the concurrency and crash tests: a real `companion serve` in a subprocess on
127.0.0.1 and a free port, HTTP clients that record hands, and the checks of a table's record.

Not a test module (pytest collects `test_*.py` only); the tests import it by name.
"""

from __future__ import annotations

import asyncio
import os
import resource
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import httpx

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
START_TIMEOUT = 30.0
"""Seconds a server has to answer /api/health before the test gives up on it."""
REQUEST_TIMEOUT = 30.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Server:
    """`companion serve --db URL` on 127.0.0.1; always stopped by `stop()` (or the context
    manager), killed if it does not stop in time."""

    def __init__(self, db_url: str, log: Path, *extra: str) -> None:
        self.db_url = db_url
        self.log = log
        self.extra = extra
        """More `companion serve` arguments (`--workers 2`, `--header-timeout 1`...)."""
        self.process: subprocess.Popen[bytes] | None = None
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        assert self.process is None, "already running"
        env = {k: v for k, v in os.environ.items() if k != "COMPANION_DATABASE_URL"}
        env["PYTHONUNBUFFERED"] = "1"
        for _ in range(3):  # another program may take the free port before the server does
            self.port = free_port()
            command = [sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1"]
            command += ["--port", str(self.port), "--db", self.db_url, *self.extra]
            with self.log.open("ab") as log:
                self.process = subprocess.Popen(
                    command, stdout=log, stderr=subprocess.STDOUT, env=env
                )
            if self._wait_until_up():
                return self
            self._reap()
        raise AssertionError(f"companion serve did not start:\n{self.log_text()[-3000:]}")

    def _wait_until_up(self) -> bool:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                return False
            # The answer counts only once this server says it listens: another test run (or
            # xdist worker) may be serving on a port this one then fails to bind.
            if f"running on {self.url}" in self.log_text():
                try:
                    if httpx.get(f"{self.url}/api/health", timeout=1.0).status_code == 200:
                        return True
                except httpx.HTTPError:
                    pass
            time.sleep(0.05)
        return False

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, no rollback; whatever was in flight is cut."""
        if self.process is not None:
            os.kill(self.process.pid, signal.SIGKILL)
            self._reap()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self._reap()

    def _reap(self) -> None:
        if self.process is not None:
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.process = None

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()


def new_table(base_url: str, profile: str = "sg") -> tuple[str, str]:
    body = {"profile": profile, "players": PLAYERS}
    response = httpx.post(f"{base_url}/api/tables", json=body, timeout=REQUEST_TIMEOUT)
    assert response.status_code == 201, response.text
    data = response.json()
    return data["id"], data["token"]


def win_body(key: str, number: int) -> dict[str, Any]:
    """A quick-entry win that depends only on `number`: the same key always asks the same."""
    winner = PLAYERS[number % 4]
    discarder = PLAYERS[(number + 1 + number // 4 % 3) % 4]
    body: dict[str, Any] = {"kind": "win", "winner": winner, "tai": 1 + number % 5, "key": key}
    if number % 7 == 0:
        body["self_draw"] = True
    else:
        body["from"] = discarder
    return body


def record(
    client: httpx.Client, base_url: str, table: tuple[str, str], body: dict[str, Any]
) -> tuple[int, int | None, bool | None]:
    """Send one write: (status, event seq, duplicate) — seq None when it was refused."""
    table_id, token = table
    response = client.post(
        f"{base_url}/api/tables/{table_id}/hands",
        json=body,
        headers={"authorization": f"Bearer {token}"},
        timeout=REQUEST_TIMEOUT,
    )
    if response.status_code in (200, 201):
        data = response.json()
        return response.status_code, int(data["event"]["seq"]), bool(data["duplicate"])
    return response.status_code, None, None


def client_process(
    base_urls: list[str], table: tuple[str, str], writes: list[tuple[str, int]]
) -> list[tuple[str, int, int | None, bool | None]]:
    """A client in its own process (spawned): the writes in order, each to the next server."""
    results = []
    with httpx.Client() as client:
        for index, (key, number) in enumerate(writes):
            base_url = base_urls[index % len(base_urls)]
            status, seq, duplicate = record(client, base_url, table, win_body(key, number))
            results.append((key, status, seq, duplicate))
    return results


def history(base_url: str, table_id: str) -> list[dict[str, Any]]:
    response = httpx.get(f"{base_url}/api/tables/{table_id}/history", timeout=REQUEST_TIMEOUT)
    assert response.status_code == 200, response.text
    events: list[dict[str, Any]] = response.json()["events"]
    return events


def exact(value: Any) -> Fraction:
    return Fraction(str(value))


def check_record(base_url: str, table_id: str) -> list[dict[str, Any]]:
    """The table's record is whole: events 1..n without gaps or repeats, every key once, every
    event complete (its amounts sum to zero), the running totals and the table's totals equal
    the sum of the record, and the hands played equal the hands recorded. Returns the events."""
    events = history(base_url, table_id)
    assert [event["seq"] for event in events] == list(range(1, len(events) + 1))
    keys = Counter(event["key"] for event in events if event["key"] is not None)
    assert all(count == 1 for count in keys.values()), keys.most_common(3)
    running = dict.fromkeys(PLAYERS, Fraction(0))
    for event in events:
        assert event["kind"] == "win" and event["status"] == "recorded", event
        winners = event["outcome"]["winners"]
        assert winners and all(winner["tai"] >= 1 for winner in winners), event
        amounts = {name: exact(value) for name, value in event["amounts"].items()}
        assert set(amounts) == set(PLAYERS) and sum(amounts.values()) == 0, event
        for name in PLAYERS:
            running[name] += amounts[name]
        assert {name: exact(v) for name, v in event["totals"].items()} == running, event
    table = httpx.get(f"{base_url}/api/tables/{table_id}", timeout=REQUEST_TIMEOUT).json()
    totals = {player["name"]: Fraction(player["total_exact"]) for player in table["players"]}
    assert totals == running, "the table's totals are the sum of its record"
    assert table["hands"] == len(events), "every recorded win is a hand played"
    return events


# ---------------------------------------------------------------------------------------------
# Slow clients


def raise_file_limit(wanted: int) -> None:
    """Let this process open `wanted` files (up to its hard limit)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


async def _slow_client(
    port: int, interval: float, stop: float, seen: dict[str, int], reconnect: bool
) -> None:
    """A client that sends a request line, then one header line every `interval` seconds and
    never finishes; when the server cuts it, it counts how and (with `reconnect`) comes back."""
    loop = asyncio.get_running_loop()
    while loop.time() < stop:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            seen["connect_failed"] += 1
            await asyncio.sleep(0.5)
            continue
        seen["attached"] += 1
        seen["open"] += 1
        try:
            writer.write(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            line = 0
            while loop.time() < stop:
                try:
                    answer = await asyncio.wait_for(reader.read(200), timeout=interval)
                except TimeoutError:
                    line += 1
                    writer.write(f"X-Slow-{line}: still coming\r\n".encode())
                    continue
                if answer.startswith(b"HTTP/1.1 408"):
                    seen["timed_out"] += 1
                elif answer.startswith(b"HTTP/1.1 503"):
                    seen["refused"] += 1
                else:
                    seen["closed"] += 1
                break
        except OSError:
            seen["closed"] += 1
        finally:
            seen["open"] -= 1
            writer.close()
        if not reconnect:
            return


def run_slow_clients(
    port: int, clients: int, seconds: float, interval: float, reconnect: bool = True
) -> dict[str, int]:
    """`clients` slow clients for `seconds` (stopping by themselves), in this thread's own event
    loop; how their connections ended."""
    raise_file_limit(clients + 256)
    seen = dict.fromkeys(("attached", "open", "timed_out", "refused", "closed"), 0)
    seen["connect_failed"] = 0

    async def main() -> None:
        stop = asyncio.get_running_loop().time() + seconds
        await asyncio.gather(
            *(_slow_client(port, interval, stop, seen, reconnect) for _ in range(clients))
        )

    asyncio.run(main())
    return seen

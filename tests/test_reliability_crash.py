"""Crashes: the server is killed (SIGKILL) in the middle of a burst of writes and restarted on
the same database, several times, on SQLite and on PostgreSQL.

After every restart:

- every write that was acknowledged (a 2xx with its event number) is in the record, at that
  event number, once;
- nothing half-written is visible: events run 1..n, each complete (a win with its winners, its
  amounts summing to zero, running totals that add up), and the table's totals and hands played
  equal the sum of the record;
- a write cut off by the kill (no answer) is either wholly in the record or wholly absent, and
  retrying it with its idempotency key records it exactly once (a 200 duplicate or a 201);
- the table takes further writes.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from reliability_server import Server, check_record, new_table, record, win_body

KILLS = 3
"""Kills per database."""
WRITERS = 6
"""Client threads writing during each burst."""
ACKS_BEFORE_KILL = (8, 14, 20)
"""The kill comes once this many writes of the burst were acknowledged (one figure per kill)."""
BURST_TIMEOUT = 60.0


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    url: str = request.getfixturevalue("ledger_postgres_url")
    return url


@pytest.fixture
def server(database: str, tmp_path: Path) -> Iterator[Server]:
    running = Server(database, tmp_path / "server.log")
    try:
        yield running.start()
    finally:
        running.stop()


class Burst:
    """Writer threads that record hands with fresh keys until the server stops answering."""

    def __init__(self, server: Server, table: tuple[str, str], round_: int) -> None:
        self.server, self.table, self.round = server, table, round_
        self.acked: dict[str, int] = {}
        self.cut: dict[str, int] = {}
        """Writes sent but never answered: key -> the number its body is made from."""
        self.refused: list[tuple[str, int]] = []
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.threads = [
            threading.Thread(target=self.write, args=(n,), name=f"writer{n}")
            for n in range(WRITERS)
        ]

    def start(self) -> Burst:
        for thread in self.threads:
            thread.start()
        return self

    def write(self, writer: int) -> None:
        with httpx.Client() as http:
            for index in range(10_000):
                if self.stop.is_set():
                    return
                key = f"r{self.round}-w{writer}-{index}"
                number = self.round * 10_000 + writer * 1000 + index
                try:
                    status, seq, _ = record(
                        http, self.server.url, self.table, win_body(key, number)
                    )
                except httpx.HTTPError:  # the server died with this write in flight
                    with self.lock:
                        self.cut[key] = number
                    return
                with self.lock:
                    if seq is None:
                        self.refused.append((key, status))
                    else:
                        self.acked[key] = seq

    def acknowledged(self) -> int:
        with self.lock:
            return len(self.acked)

    def join(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=BURST_TIMEOUT)
        assert not any(thread.is_alive() for thread in self.threads), "a writer hung"


def test_acknowledged_writes_survive_sigkill(server: Server) -> None:
    table = new_table(server.url)
    acked: dict[str, int] = {}
    kills = 0
    for round_, threshold in enumerate(ACKS_BEFORE_KILL[:KILLS]):
        burst = Burst(server, table, round_).start()
        deadline = time.monotonic() + BURST_TIMEOUT
        while burst.acknowledged() < threshold and time.monotonic() < deadline:
            time.sleep(0.005)
        assert burst.acknowledged() >= threshold, "the burst did not get going"
        server.kill()  # mid-burst: several writers have requests in flight
        kills += 1
        burst.join()
        assert not burst.refused, burst.refused[:5]
        server.start()  # same database, new process

        events = check_record(server.url, table[0])
        by_key = {event["key"]: event["seq"] for event in events}
        acked |= burst.acked
        for key, seq in acked.items():
            assert by_key.get(key) == seq, f"acknowledged write {key} (event {seq}) was lost"
        unknown = set(by_key) - set(acked) - set(burst.cut)
        assert not unknown, f"events nobody asked for: {sorted(unknown)[:5]}"

        # Writes cut off by the kill: retried with their keys, each is recorded exactly once.
        committed = sum(key in by_key for key in burst.cut)
        print(  # the figures of docs/reliability.md (pytest -s shows them)
            f"kill {kills}: {len(burst.acked)} writes acknowledged in the burst, "
            f"{len(burst.cut)} cut off in flight ({committed} of them committed), "
            f"{len(events)} events after the restart"
        )
        with httpx.Client() as http:
            for key, number in burst.cut.items():
                status, seq, duplicate = record(http, server.url, table, win_body(key, number))
                assert seq is not None, (key, status)
                assert duplicate is (key in by_key), (key, status)
                if key in by_key:
                    assert seq == by_key[key]
                acked[key] = seq
            # and the table takes new writes
            status, seq, _ = record(http, server.url, table, win_body(f"after-{round_}", round_))
            assert status == 201 and seq is not None
            acked[f"after-{round_}"] = seq
        events = check_record(server.url, table[0])
        assert {event["key"]: event["seq"] for event in events} == acked
    assert kills == KILLS

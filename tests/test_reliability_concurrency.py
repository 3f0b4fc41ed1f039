"""Many clients recording on one table at once, through the HTTP API of real servers.

Two `companion serve` processes share one database (a SQLite file, or a PostgreSQL database),
so writes race inside each server (its thread pool) and between servers (the database's locks,
each server's replay cache). Clients are threads and separate processes; each records hands
with its own idempotency keys, and all of them race on a few shared keys at once.

Afterwards: the record holds exactly the distinct keys acknowledged, each once, at the event
number its acknowledgements gave; events run 1..n; every shared key was recorded once (one 201,
the rest 200 duplicates with the same event); totals equal the sum of the record.
"""

from __future__ import annotations

import multiprocessing
import threading
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from reliability_server import Server, check_record, client_process, new_table, record, win_body

THREADS = 8
WRITES_PER_THREAD = 10
PROCESSES = 3
WRITES_PER_PROCESS = 10
SHARED_KEYS = 5
"""Keys that every client sends, at the same moment (threads wait on a barrier)."""

Ack = tuple[str, int, int | None, bool | None]
"""(key, status, event seq, duplicate)."""


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def servers(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[Server]]:
    """Two servers on one database, shared by the tests of this module (each races on a table
    of its own and checks only that table's record)."""
    folder = tmp_path_factory.mktemp(f"servers-{request.param}")
    if request.param == "sqlite":
        url = f"sqlite:///{folder / 'ledger.sqlite3'}"
    else:
        url = request.getfixturevalue("ledger_postgres_url")
    started: list[Server] = []
    try:
        for index in range(2):
            started.append(Server(url, folder / f"server{index}.log").start())
        yield started
    finally:
        for server in started:
            server.stop()


def check_acks(acks: list[Ack], events: list[dict[str, object]]) -> None:
    """Every acknowledged key is in the record once, at the event its acknowledgements named;
    the record holds nothing else; a key was recorded (201) once and only repeated after."""
    assert all(status in (200, 201) for _, status, _, _ in acks), [
        a for a in acks if a[1] not in (200, 201)
    ][:5]
    by_key: dict[str, set[int | None]] = defaultdict(set)
    created: dict[str, int] = defaultdict(int)
    for key, status, seq, duplicate in acks:
        by_key[key].add(seq)
        assert duplicate is (status == 200)
        created[key] += status == 201
    assert all(len(seqs) == 1 for seqs in by_key.values()), "every ack of a key names one event"
    assert all(count == 1 for count in created.values()), "each key was recorded exactly once"
    recorded = {event["key"]: event["seq"] for event in events}
    assert len(events) == len(by_key), "as many events as distinct keys acknowledged"
    assert recorded == {key: next(iter(seqs)) for key, seqs in by_key.items()}


def test_threads_on_two_servers_lose_and_duplicate_nothing(servers: list[Server]) -> None:
    race_threads([server.url for server in servers])


def test_two_worker_processes_on_postgresql_lose_and_duplicate_nothing(
    ledger_postgres_url: str, tmp_path: Path
) -> None:
    """`companion serve --workers 2`: one address, two processes sharing its socket; the same
    race as above, every request through it."""
    with Server(ledger_postgres_url, tmp_path / "workers.log", "--workers", "2") as server:
        race_threads([server.url, server.url])
        log = server.log_text()
    assert log.count("Started server process") == 2, log
    assert "Traceback" not in log


def race_threads(urls: list[str]) -> None:
    """8 client threads racing on 5 shared keys, then 10 writes each; the record checked from
    every URL."""
    table = new_table(urls[0])
    barrier = threading.Barrier(THREADS)
    acks: list[Ack] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def client(number: int) -> None:
        try:
            with httpx.Client() as http:
                mine: list[Ack] = []
                for index in range(SHARED_KEYS):  # the race: every thread, same key, same time
                    barrier.wait(timeout=60)
                    body = win_body(f"shared-{index}", 1000 + index)
                    url = urls[(number + index) % len(urls)]
                    mine.append((f"shared-{index}", *record(http, url, table, body)))
                for index in range(WRITES_PER_THREAD):
                    key = f"thread{number}-{index}"
                    body = win_body(key, number * 100 + index)
                    url = urls[(number + index) % len(urls)]
                    mine.append((key, *record(http, url, table, body)))
            with lock:
                acks.extend(mine)
        except BaseException as error:  # reported below, with the thread's name
            errors.append(error)
            barrier.abort()

    threads = [
        threading.Thread(target=client, args=(n,), name=f"client{n}") for n in range(THREADS)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a client hung"
    assert not errors, errors
    assert len(acks) == THREADS * (SHARED_KEYS + WRITES_PER_THREAD)
    for url in urls:  # both servers, each with its own replay cache, see one record
        events = check_record(url, table[0])
        check_acks(acks, events)
    assert len(events) == SHARED_KEYS + THREADS * WRITES_PER_THREAD


def test_processes_on_two_servers_lose_and_duplicate_nothing(servers: list[Server]) -> None:
    urls = [server.url for server in servers]
    table = new_table(urls[0])
    jobs = []
    for number in range(PROCESSES):
        shared = [(f"shared-{index}", 1000 + index) for index in range(SHARED_KEYS)]
        own = [(f"process{number}-{i}", number * 100 + i) for i in range(WRITES_PER_PROCESS)]
        # each process starts on another server, so the shared keys race across servers too
        jobs.append((urls[number % 2 :] + urls[: number % 2], table, shared + own))
    with multiprocessing.get_context("spawn").Pool(PROCESSES) as pool:
        results = pool.starmap_async(client_process, jobs).get(timeout=180)
    acks = [ack for result in results for ack in result]
    assert len(acks) == PROCESSES * (SHARED_KEYS + WRITES_PER_PROCESS)
    for server in servers:
        events = check_record(server.url, table[0])
        check_acks(acks, events)
    assert len(events) == SHARED_KEYS + PROCESSES * WRITES_PER_PROCESS

"""Service figures: `/api/score` under load, and recording hands through the ledger.

1. Starts `companion serve` on loopback (a temporary SQLite ledger), then drives
   `POST /api/score` and `GET /api/health` from one load generator in a second process: a
   bounded number of requests to each, over several keep-alive connections, in alternating
   phases (health, score, health, score) so that both meet the same server in the same run.
   Prints requests/s and p50/p99 latency of each, and `score_rps / health_rps`: what scoring
   adds to the cost of a request.
2. Records 1,000 hands (quick tai entries) through the ledger on SQLite and, when a server is
   reachable, on PostgreSQL (a temporary database, dropped afterwards). Prints hands/s.

    .venv/bin/python bench/load.py                 # 4,000 requests, 1,000 hands each
    .venv/bin/python bench/load.py --quick --json  # smaller, JSON on stdout

`--json` prints `score_rps`, `score_p99_ms`, `health_rps`, `health_p99_ms` and `score_vs_health`
(the target is at least 0.7), with the older keys (`score_requests_per_s`...) kept.

Every request goes to 127.0.0.1 only, and the load generator stops after its count.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import platform
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

HANDS = [
    {"hand": "123m456p55s", "melds": ["pung 777z", "pung 666z"], "bonus": "1f",
     "win": "discard", "discarder": "S", "round": "S"},
    {"hand": "123456789m123p55s"},
    {"hand": "111m222p333s444m77p", "win_tile": "4m"},
    {"profile": "tw", "hand": "123m456m789p222s678s5m5m", "table_discards": 20},
    {"profile": "sg-table", "hand": "19m19p19s1234567z1m", "win": "discard", "discarder": "W"},
]  # fmt: skip
PG_URL = os.environ.get(
    "COMPANION_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(port: int, db_url: str, *options: str) -> subprocess.Popen[bytes]:
    """`companion serve` on 127.0.0.1:`port` (with `options`, e.g. `--workers 2`), once it
    answers `/api/health`."""
    command = [sys.executable, "-m", "companion.cli", "serve", "--port", str(port)]
    server = subprocess.Popen(
        [*command, "--db", db_url, *options], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/api/health")
            if connection.getresponse().status == 200:
                return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("companion serve did not start within 30 s")


def _client(
    port: int, path: str, count: int, offset: int, latencies: list[float], errors: list[int]
) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Content-Type": "application/json"}
    bodies = [json.dumps(hand).encode() for hand in HANDS]
    for index in range(count):
        started = time.perf_counter()
        if path == "/api/score":
            body = bodies[(index + offset) % len(bodies)]
            connection.request("POST", path, body=body, headers=headers)
        else:
            connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        latencies.append(time.perf_counter() - started)
        if response.status != 200:
            errors.append(response.status)
    connection.close()


PATHS = {"score": "/api/score", "health": "/api/health"}
PHASES = 4
"""Phases per endpoint, alternating (health, score, health, score...): a change in the machine's
load during the run (other jobs on its cores) meets both endpoints alike."""


def process_cpu_seconds(pid: int) -> float | None:
    """The CPU time (user and system) a process has used so far, from /proc; None elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    # After the command's closing parenthesis: state is field 0, utime 11, stime 12 (in ticks).
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _generate(
    port: int, server_pid: int, requests: int, connections: int, phases: int, out: Any
) -> None:
    """The load generator, run in its own process: for each endpoint, `phases` phases of
    `requests // phases` requests over `connections` threads, the endpoints alternating. Each
    phase also counts the CPU time the server and this process used."""
    results: dict[str, dict[str, Any]] = {
        name: {"latencies": [], "errors": [], "elapsed": 0.0, "server_cpu": 0.0, "client_cpu": 0.0}
        for name in PATHS
    }
    share = requests // phases // connections
    for _ in range(phases):
        for name, path in PATHS.items():
            result = results[name]
            threads = [
                threading.Thread(
                    target=_client,
                    args=(port, path, share, n, result["latencies"], result["errors"]),
                )
                for n in range(connections)
            ]
            server_cpu = process_cpu_seconds(server_pid)
            client_cpu = time.process_time()
            started = time.perf_counter()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            result["elapsed"] += time.perf_counter() - started
            result["client_cpu"] += time.process_time() - client_cpu
            server_cpu_after = process_cpu_seconds(server_pid)
            if server_cpu is None or server_cpu_after is None:
                result["server_cpu"] = None
            elif result["server_cpu"] is not None:
                result["server_cpu"] += server_cpu_after - server_cpu
    out.send(results)


def load_test(requests: int, connections: int) -> dict[str, Any]:
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(port, f"sqlite:///{folder}/load.sqlite3")
        try:
            warm_up = max(100, requests // 10)
            _generate_in_process(port, server.pid, warm_up, connections, 2)
            results = _generate_in_process(port, server.pid, requests, connections, PHASES)
        finally:
            server.terminate()
            server.wait(timeout=10)
    figures: dict[str, Any] = {}
    for name, result in results.items():
        latencies = sorted(result["latencies"])
        figures[f"{name}_requests"] = len(latencies)
        figures[f"{name}_errors"] = len(result["errors"])
        figures[f"{name}_rps"] = round(len(latencies) / result["elapsed"], 1)
        figures[f"{name}_p50_ms"] = round(1000 * statistics.median(latencies), 2)
        figures[f"{name}_p99_ms"] = round(1000 * latencies[int(0.99 * (len(latencies) - 1))], 2)
        if result["server_cpu"] is not None:
            cpu = result["server_cpu"] / len(latencies)
            figures[f"{name}_server_cpu_us"] = round(1e6 * cpu, 1)
        figures[f"{name}_client_cpu_us"] = round(1e6 * result["client_cpu"] / len(latencies), 1)
    figures["score_vs_health"] = round(figures["score_rps"] / figures["health_rps"], 3)
    if "score_server_cpu_us" in figures:
        # The same ratio from the server's CPU time per request, which other jobs on the
        # machine's cores disturb much less than requests per second.
        figures["score_vs_health_cpu"] = round(
            figures["health_server_cpu_us"] / figures["score_server_cpu_us"], 3
        )
    figures["score_connections"] = connections
    figures["score_requests_per_s"] = figures["score_rps"]
    return figures


def _generate_in_process(
    port: int, server_pid: int, requests: int, connections: int, phases: int
) -> dict[str, Any]:
    receiver, sender = multiprocessing.Pipe(duplex=False)
    process = multiprocessing.Process(
        target=_generate, args=(port, server_pid, requests, connections, phases, sender)
    )
    process.start()
    result: dict[str, Any] = receiver.recv()
    process.join()
    return result


def ledger_timing(url: str, hands: int) -> float:
    """Hands per second recording quick tai entries, one transaction each."""
    from companion.ledger.records import WinnerRecord, WinRecord
    from companion.ledger.repository import Ledger

    ledger = Ledger.open(url)
    try:
        table = ledger.create_table("sg", ["Ann", "Ben", "Cat", "Dan"])
        names = ["Ann", "Ben", "Cat", "Dan"]
        started = time.perf_counter()
        for index in range(hands):
            winner = names[index % 4]
            discarder = names[(index + 1) % 4] if index % 3 else None
            tai = 1 + index % 5
            ledger.record(table.id, WinRecord((WinnerRecord(winner, tai=tai),), discarder))
        elapsed = time.perf_counter() - started
        assert ledger.standings(table.id)["hands"] == hands
    finally:
        ledger.close()
    return hands / elapsed


def postgres_database() -> tuple[str, Any] | None:
    """A fresh PostgreSQL database for the run and a function that drops it, or None."""
    try:
        import sqlalchemy
    except ImportError:
        return None
    name = f"companion_bench_{secrets.token_hex(4)}"
    admin = sqlalchemy.create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(sqlalchemy.text(f'CREATE DATABASE "{name}"'))
    except Exception as error:
        print(f"PostgreSQL not reachable ({type(error).__name__}): skipped", file=sys.stderr)
        admin.dispose()
        return None

    def drop() -> None:
        with admin.connect() as connection:
            connection.execute(sqlalchemy.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()

    return PG_URL.rsplit("/", 1)[0] + f"/{name}", drop


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer requests and hands")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--requests", type=int, help="requests to each endpoint (4000)")
    parser.add_argument("--no-ledger", action="store_true", help="the HTTP figures only")
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--hands", type=int, help="hands recorded per database (1000)")
    args = parser.parse_args()
    requests = args.requests or (1000 if args.quick else 4000)
    hands = args.hands or (200 if args.quick else 1000)

    figures: dict[str, Any] = {
        "python": platform.python_version(),
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs",
    }
    figures["load_average"] = os.getloadavg()[0]
    figures.update(load_test(requests, args.connections))
    if args.no_ledger:
        print(json.dumps(figures) if args.json else figures)
        return
    with tempfile.TemporaryDirectory() as folder:
        sqlite_url = f"sqlite:///{Path(folder) / 'ledger.sqlite3'}"
        figures["ledger_hands"] = hands
        figures["ledger_sqlite_hands_per_s"] = round(ledger_timing(sqlite_url, hands), 1)
    database = postgres_database()
    if database is not None:
        url, drop = database
        try:
            figures["ledger_postgres_hands_per_s"] = round(ledger_timing(url, hands), 1)
        finally:
            drop()
    if args.json:
        print(json.dumps(figures))
        return
    print(f"machine: {figures['machine']}, Python {figures['python']}")
    for name, path in PATHS.items():
        print(
            f"{path}: {figures[f'{name}_requests']} requests over "
            f"{figures['score_connections']} connections: {figures[f'{name}_rps']} req/s, "
            f"p50 {figures[f'{name}_p50_ms']} ms, p99 {figures[f'{name}_p99_ms']} ms, "
            f"{figures[f'{name}_errors']} errors"
        )
    print(f"score_rps / health_rps: {figures['score_vs_health']} (target at least 0.7)")
    print(f"ledger, {hands} hands: SQLite {figures['ledger_sqlite_hands_per_s']} hands/s", end="")
    if "ledger_postgres_hands_per_s" in figures:
        print(f", PostgreSQL {figures['ledger_postgres_hands_per_s']} hands/s")
    else:
        print(", PostgreSQL not measured")


if __name__ == "__main__":
    main()

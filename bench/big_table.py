"""A long table under load: 16 clients reloading a 2,000-hand table's board while another client
asks `/api/health`. Prints the page sizes, the board's own latency and health's p50/p99.

    .venv/bin/python bench/big_table.py                  # 2,000 hands, 16 clients, 20 s
    .venv/bin/python bench/big_table.py --hands 500 --seconds 5 --json

Starts `companion serve` on 127.0.0.1 (a temporary SQLite ledger, or `--db URL`), records the
hands through the ledger before the load starts, and stops every client after `--seconds`.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from load import free_port, start_server

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


def build_table(db_url: str, hands: int) -> str:
    """A table with `hands` quick-entry wins, recorded through the ledger."""
    from companion.ledger.records import WinnerRecord, WinRecord
    from companion.ledger.repository import Ledger

    with Ledger.open(db_url) as ledger:
        table = ledger.create_table("sg", PLAYERS)
        for number in range(hands):
            winner, discarder = PLAYERS[number % 4], PLAYERS[(number + 1) % 4]
            tai = 1 + number % 5
            ledger.record(table.id, WinRecord((WinnerRecord(winner, tai=tai),), discarder))
        return table.id


def get(connection: http.client.HTTPConnection, path: str) -> tuple[int, int, float]:
    """(status, body bytes, seconds) of one GET on a kept-alive connection."""
    started = time.perf_counter()
    connection.request("GET", path)
    response = connection.getresponse()
    body = response.read()
    return response.status, len(body), time.perf_counter() - started


def _reloaders(port: int, path: str, clients: int, seconds: float, out: Any) -> None:
    """`clients` threads, each reloading `path` back to back until the time is up."""
    latencies: list[float] = []
    failures: list[int] = []
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def client() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine: list[float] = []
        while time.monotonic() < stop:
            status, _, elapsed = get(connection, path)
            mine.append(elapsed)
            if status != 200:
                failures.append(status)
        connection.close()
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    out.send({"latencies": latencies, "failures": failures})


def _prober(port: int, seconds: float, pause: float, out: Any) -> None:
    """Another user: `/api/health` every `pause` seconds on a connection of its own."""
    latencies: list[float] = []
    failures = 0
    stop = time.monotonic() + seconds
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    while time.monotonic() < stop:
        status, _, elapsed = get(connection, "/api/health")
        latencies.append(elapsed)
        failures += status != 200
        time.sleep(pause)
    connection.close()
    out.send({"latencies": latencies, "failures": failures})


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def in_process(target: Any, *args: Any) -> tuple[multiprocessing.Process, Any]:
    receiver, sender = multiprocessing.Pipe(duplex=False)
    process = multiprocessing.Process(target=target, args=(*args, sender))
    process.start()
    return process, receiver


def run(hands: int, clients: int, seconds: float, db_url: str | None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        url = db_url or f"sqlite:///{Path(folder) / 'big.sqlite3'}"
        started = time.perf_counter()
        table_id = build_table(url, hands)
        build_seconds = time.perf_counter() - started
        port = free_port()
        server = start_server(port, url)
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            _, page_bytes, page_first = get(connection, f"/t/{table_id}")
            _, board_bytes, board_first = get(connection, f"/t/{table_id}/board")
            _, history_bytes, _ = get(connection, f"/api/tables/{table_id}/history")
            idle = [get(connection, "/api/health")[2] for _ in range(50)]
            connection.close()
            board_path = f"/t/{table_id}/board"
            load, load_out = in_process(_reloaders, port, board_path, clients, seconds)
            time.sleep(0.5)  # the reloaders are going before the measurement starts
            probe, probe_out = in_process(_prober, port, seconds - 1, 0.02)
            health = probe_out.recv()
            boards = load_out.recv()
            probe.join()
            load.join()
        finally:
            server.terminate()
            server.wait(timeout=10)
    board_latencies = boards["latencies"]
    health_latencies = health["latencies"]
    return {
        "hands": hands,
        "build_s": round(build_seconds, 1),
        "table_page_kb": round(page_bytes / 1024, 1),
        "board_kb": round(board_bytes / 1024, 1),
        "api_history_kb": round(history_bytes / 1024, 1),
        "table_page_first_ms": round(1000 * page_first, 1),
        "board_first_ms": round(1000 * board_first, 1),
        "health_idle_p99_ms": round(1000 * percentile(idle, 0.99), 2),
        "clients": clients,
        "seconds": seconds,
        "board_requests": len(board_latencies),
        "board_failures": len(boards["failures"]),
        "board_per_s": round(len(board_latencies) / seconds, 1),
        "board_p50_ms": round(1000 * statistics.median(board_latencies), 1),
        "board_p99_ms": round(1000 * percentile(board_latencies, 0.99), 1),
        "health_requests": len(health_latencies),
        "health_failures": health["failures"],
        "health_p50_ms": round(1000 * statistics.median(health_latencies), 2),
        "health_p99_ms": round(1000 * percentile(health_latencies, 0.99), 2),
        "health_max_ms": round(1000 * max(health_latencies), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--db", help="a database URL (default: a temporary SQLite file)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    figures = run(args.hands, args.clients, args.seconds, args.db)
    if args.json:
        print(json.dumps(figures))
        return
    print(
        f"{figures['hands']} hands (recorded in {figures['build_s']} s): table page "
        f"{figures['table_page_kb']} KB, board {figures['board_kb']} KB, API history "
        f"{figures['api_history_kb']} KB; first board {figures['board_first_ms']} ms"
    )
    print(
        f"{figures['clients']} clients reloading the board for {figures['seconds']:g} s: "
        f"{figures['board_requests']} boards ({figures['board_per_s']}/s), p50 "
        f"{figures['board_p50_ms']} ms, p99 {figures['board_p99_ms']} ms, "
        f"{figures['board_failures']} failures"
    )
    print(
        f"/api/health from another client meanwhile: {figures['health_requests']} requests, "
        f"p50 {figures['health_p50_ms']} ms, p99 {figures['health_p99_ms']} ms, max "
        f"{figures['health_max_ms']} ms, {figures['health_failures']} failures "
        f"(idle p99 {figures['health_idle_p99_ms']} ms)"
    )


if __name__ == "__main__":
    sys.exit(main())

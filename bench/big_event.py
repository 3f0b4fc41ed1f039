"""A big event's reads, and what they do to everyone else (issue 41, item 2).

    .venv/bin/python bench/big_event.py            # 400 players seated for 40 rounds; 50 readers
    .venv/bin/python bench/big_event.py --quick    # 100 players, 10 rounds; 20 readers, 8 s
    .venv/bin/python bench/big_event.py --json
    .venv/bin/python bench/big_event.py --db postgresql+psycopg://postgres@127.0.0.1:5432/x

The event is made and seated through `EventBook` on the ledger (its tables are the ledger's,
4 x rounds x players / 4 of them), then `companion serve` answers on 127.0.0.1:

1. **reads**: the public page `/e/ID` (and `?round=1`), `/api/events/ID`, its standings and its
   export, each timed `--repeat` times alone (the median and the slowest: the first read
   works the event out, the others find it kept by version); then the page right after a
   hand at one of the event's tables (the version moved: one table read again);
2. **readers**: `--readers` anonymous clients loop on `/e/ID` for `--seconds` while another
   client records a drawn hand every 0.2 s on an unrelated table: that write's p50, p95 and
   errors, and the readers' answers by status.

Targets (issue 41): the public page under 1 s; the unrelated write's p95 under 500 ms with 0
errors. Figures in docs/performance.md (a status 0: no answer within `--timeout` seconds).
All the readers are one client address, so the server's per-address read limit answers most
of them 429 once its burst is spent; `--read-limit off` shows the reads unlimited.
Everything is on 127.0.0.1; every client stops by itself and the server is stopped at the end.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

from companion.ledger.event_book.service import EventBook
from companion.ledger.repository import Ledger
from load import free_port
from slow_clients import percentile, start


def build_event(db_url: str, players: int, rounds: int) -> tuple[str, str, str, str, str]:
    """An sg event of `players` seated for all its `rounds`, and an unrelated table: the
    event's id, the table's id and its write token, and a table of the event's last round
    with its write token."""
    with Ledger.open(db_url) as ledger:
        book = EventBook(ledger)
        names = [f"Player {number}" for number in range(1, players + 1)]
        event_id = book.create_event("Big", "sg", None, names, rounds, seed=1, hands=8).id
        started = time.perf_counter()
        for number in range(1, rounds + 1):
            book.seat_round(event_id, number, confirm=True)
            if number % 10 == 0:
                took = time.perf_counter() - started
                print(f"  seated round {number} ({took:.0f} s)", file=sys.stderr)
        table = ledger.create_table("sg", ["Ann", "Ben", "Cat", "Dan"])
        last = book.event(event_id).seated[-1].tables[0].table
        own_token = book.table_tokens(event_id)[last]
    return event_id, table.id, table.token, last, own_token


def get(port: int, path: str, timeout: float = 120) -> tuple[int, float, int]:
    """(status, seconds, bytes) of one GET on a fresh connection; status 0 when it had no
    answer within `timeout` seconds."""
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path, headers={"accept": "text/html,application/json"})
        response = connection.getresponse()
        body = response.read()
        return response.status, time.perf_counter() - started, len(body)
    except TimeoutError:
        return 0, time.perf_counter() - started, 0
    finally:
        connection.close()


def time_reads(port: int, event_id: str, repeat: int, timeout: float) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for name, path in (
        ("public_page", f"/e/{event_id}"),
        ("public_page_round_1", f"/e/{event_id}?round=1"),
        ("event_json", f"/api/events/{event_id}"),
        ("standings", f"/api/events/{event_id}/standings"),
        ("export", f"/api/events/{event_id}/export"),
    ):
        runs = [get(port, path, timeout) for _ in range(repeat)]
        found[name] = {
            "status": sorted({status for status, _, _ in runs}),
            "median_s": round(statistics.median(seconds for _, seconds, _ in runs), 3),
            "max_s": round(max(seconds for _, seconds, _ in runs), 3),
            "bytes": runs[-1][2],
        }
    return found


def draw(port: int, table_id: str, token: str, timeout: float = 60) -> tuple[int, float]:
    """Record a drawn hand at a table: (status, seconds)."""
    started = time.perf_counter()
    body = json.dumps({"kind": "draw"})
    headers = {"content-type": "application/json", "authorization": f"Bearer {token}"}
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("POST", f"/api/tables/{table_id}/hands", body, headers)
        response = connection.getresponse()
        response.read()
        return response.status, time.perf_counter() - started
    finally:
        connection.close()


def page_after_hands(
    port: int, event_id: str, table_id: str, token: str, repeat: int, timeout: float
) -> dict[str, Any]:
    """The public page read right after a hand at one of the event's tables: the event's
    version moved, so the page is worked out again (one table read anew)."""
    runs = []
    for _ in range(repeat):
        status, _ = draw(port, table_id, token)
        assert status == 201, status
        runs.append(get(port, f"/e/{event_id}", timeout))
    return {
        "status": sorted({status for status, _, _ in runs}),
        "median_s": round(statistics.median(seconds for _, seconds, _ in runs), 3),
        "max_s": round(max(seconds for _, seconds, _ in runs), 3),
        "bytes": runs[-1][2],
    }


def readers_and_a_writer(
    port: int, event_id: str, table_id: str, token: str, readers: int, seconds: float
) -> dict[str, Any]:
    stopping = threading.Event()
    statuses: Counter[str] = Counter()
    lock = threading.Lock()

    def read() -> None:
        while not stopping.is_set():
            try:
                status, _, _ = get(port, f"/e/{event_id}", timeout=60)
                kind = str(status)
            except OSError as error:
                kind = type(error).__name__
            with lock:
                statuses[kind] += 1

    writes: list[float] = []
    write_errors: list[str] = []

    def write() -> None:
        while not stopping.is_set():
            started = time.perf_counter()
            try:
                status, _ = draw(port, table_id, token)
                if status != 201:
                    write_errors.append(str(status))
            except OSError as error:
                write_errors.append(type(error).__name__)
            writes.append(time.perf_counter() - started)
            stopping.wait(0.2)

    threads = [threading.Thread(target=read, daemon=True) for _ in range(readers)]
    writer = threading.Thread(target=write, daemon=True)
    for thread in [*threads, writer]:
        thread.start()
    time.sleep(seconds)
    stopping.set()
    for thread in [*threads, writer]:
        thread.join(120)
    values = writes or [0.0]
    return {
        "readers": readers,
        "seconds": seconds,
        "reads_by_status": dict(sorted(statuses.items())),
        "reads_per_s": round(sum(statuses.values()) / seconds, 1),
        "writes": len(writes),
        "write_errors": len(write_errors),
        "write_error_kinds": sorted(set(write_errors)),
        "write_p50_ms": round(1000 * statistics.median(values), 1),
        "write_p95_ms": round(1000 * percentile(values, 0.95), 1),
        "write_max_ms": round(1000 * max(values), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--db", help="a database URL (default: a new SQLite file)")
    parser.add_argument("--players", type=int)
    parser.add_argument("--rounds", type=int)
    parser.add_argument("--readers", type=int)
    parser.add_argument("--seconds", type=float)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=120, help="seconds a read may take")
    parser.add_argument(
        "--read-limit",
        help="the server's --read-limit (default: its own; 'off' to see the reads unlimited)",
    )
    args = parser.parse_args()
    players = args.players or (100 if args.quick else 400)
    rounds = args.rounds or (10 if args.quick else 40)
    readers = args.readers or (20 if args.quick else 50)
    seconds = args.seconds or (8.0 if args.quick else 20.0)
    with tempfile.TemporaryDirectory() as folder:
        db_url = args.db or f"sqlite:///{Path(folder) / 'big.sqlite3'}"
        started = time.perf_counter()
        event_id, table_id, token, own_table, own_token = build_event(db_url, players, rounds)
        built = time.perf_counter() - started
        port = free_port()
        extra = [] if args.read_limit is None else ["--read-limit", args.read_limit]
        server = start("companion", port, db_url, Path(folder) / "server.log", None, extra)
        try:
            figures: dict[str, Any] = {
                "players": players,
                "rounds": rounds,
                "tables": players // 4 * rounds,
                "built_s": round(built, 1),
                "load_average": os.getloadavg()[0],
                "read_limit": args.read_limit or "the server's default",
                "reads": time_reads(port, event_id, args.repeat, args.timeout),
                "page_after_a_hand": page_after_hands(
                    port, event_id, own_table, own_token, args.repeat, args.timeout
                ),
                "under_readers": readers_and_a_writer(
                    port, event_id, table_id, token, readers, seconds
                ),
            }
        finally:
            server.terminate()
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(30)
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(
        f"{players} players, {rounds} rounds, {figures['tables']} tables "
        f"(built in {figures['built_s']} s; load {figures['load_average']:.1f})"
    )
    reads = {**figures["reads"], "page_after_hand": figures["page_after_a_hand"]}
    print(f"  read limit: {figures['read_limit']}")
    for name, read in reads.items():
        print(
            f"  {name:20} {read['median_s']:7.3f} s median, {read['max_s']:.3f} s max, "
            f"{read['bytes']:,} bytes, status {read['status']}"
        )
    under = figures["under_readers"]
    print(
        f"  {under['readers']} readers on /e/ID for {under['seconds']:g} s: "
        f"{under['reads_per_s']} reads/s, by status {under['reads_by_status']}"
    )
    print(
        f"  unrelated table's write: p50 {under['write_p50_ms']} ms, p95 {under['write_p95_ms']} "
        f"ms, max {under['write_max_ms']} ms, {under['write_errors']} errors of "
        f"{under['writes']} {under['write_error_kinds']}"
    )


if __name__ == "__main__":
    main()

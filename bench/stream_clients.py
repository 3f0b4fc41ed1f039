"""Stream clients: what one address can do to `companion serve` through the live stream, while
another client asks `/api/health` every 50 ms on fresh connections.

    .venv/bin/python bench/stream_clients.py            # 2,000 hands; 100 readers, 300, 2,048
    .venv/bin/python bench/stream_clients.py --quick    # 500 hands; 50 readers, 100, 300
    .venv/bin/python bench/stream_clients.py --json

Three attacks on one table, one after the other, each with health's p50/p99/max and failures:

1. **readers**: clients open the stream with `?after=0` at once and read the whole backlog;
2. **non-readers**: clients open it with `?after=0` (a 4 KiB receive buffer) and never read,
   for `--hold` seconds: the server's memory (RSS) before, at its highest, and at the end;
3. **hog**: one address opens `--hog` streams and holds them: how many the server took.

Everything is on 127.0.0.1 and every client stops by itself.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from big_table import build_table
from load import free_port
from slow_clients import percentile, start

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from reliability_server import raise_file_limit


class Prober(threading.Thread):
    """Another user: `/api/health` on a fresh connection every 50 ms until stopped."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.stopping = threading.Event()
        self.latencies: list[float] = []
        self.failures: list[str] = []

    def run(self) -> None:
        while not self.stopping.is_set():
            started = time.perf_counter()
            try:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
                connection.request("GET", "/api/health")
                response = connection.getresponse()
                response.read()
                connection.close()
                if response.status != 200:
                    self.failures.append(str(response.status))
            except OSError as error:
                self.failures.append(type(error).__name__)
            self.latencies.append(time.perf_counter() - started)
            self.stopping.wait(0.05)

    def figures(self) -> dict[str, Any]:
        self.stopping.set()
        self.join()
        values = self.latencies or [0.0]
        return {
            "health_requests": len(self.latencies),
            "health_failed": len(self.failures),
            "health_failure_kinds": sorted(set(self.failures)),
            "health_p50_ms": round(1000 * statistics.median(values), 1),
            "health_p99_ms": round(1000 * percentile(values, 0.99), 1),
            "health_max_ms": round(1000 * max(values), 1),
        }


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def request(table_id: str, query: str) -> bytes:
    return f"GET /api/tables/{table_id}/stream{query} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()


def readers(port: int, table_id: str, hands: int, clients: int) -> dict[str, Any]:
    """`clients` streams at `?after=0` at once, each read until it has the last entry."""
    done: list[float] = []
    failed: list[str] = []
    last = f"id: {hands}\n".encode()
    started = time.perf_counter()

    def client() -> None:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=120) as sock:
                sock.sendall(request(table_id, "?after=0"))
                tail = b""
                while last not in tail:
                    chunk = sock.recv(65536)
                    if not chunk:
                        failed.append(tail[:12].decode(errors="replace") or "closed")
                        return
                    tail = tail[-64:] + chunk
                done.append(time.perf_counter() - started)
        except OSError as error:
            failed.append(type(error).__name__)

    prober = Prober(port)
    prober.start()
    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {
        "clients": clients,
        "read_all": len(done),
        "failed": len(failed),
        "last_done_s": round(max(done, default=0.0), 2),
        **prober.figures(),
    }


def non_readers(port: int, pid: int, table_id: str, clients: int, hold: float) -> dict[str, Any]:
    """`clients` streams at `?after=0` that never read, for `hold` seconds."""
    before = rss_mb(pid)
    prober = Prober(port)
    prober.start()
    sockets = []
    for _ in range(clients):
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect(("127.0.0.1", port))
        sock.sendall(request(table_id, "?after=0"))
        sockets.append(sock)
    highest = before
    stop = time.monotonic() + hold
    while time.monotonic() < stop:
        highest = max(highest, rss_mb(pid))
        time.sleep(0.5)
    end = rss_mb(pid)
    for sock in sockets:
        with contextlib.suppress(OSError):
            sock.close()
    return {
        "clients": clients,
        "hold_s": hold,
        "rss_before_mb": before,
        "rss_highest_mb": highest,
        "rss_end_mb": end,
        **prober.figures(),
    }


def hog(port: int, table_id: str, streams: int) -> dict[str, Any]:
    """One address opens `streams` streams (from now on) and holds them for a few seconds."""
    statuses: dict[str, int] = {}
    held = []
    prober = Prober(port)
    prober.start()
    for _ in range(streams):
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            sock.sendall(request(table_id, ""))
            status = sock.recv(64).split(b" ")[1].decode()
        except (OSError, IndexError) as error:
            status = type(error).__name__
            sock.close()
        statuses[status] = statuses.get(status, 0) + 1
        held.append(sock)
    time.sleep(3)
    for sock in held:
        with contextlib.suppress(OSError):
            sock.close()
    return {"streams": streams, "statuses": statuses, **prober.figures()}


def run(hands: int, readers_count: int, non_readers_count: int, hold: float, hogs: int) -> dict:
    raise_file_limit(max(non_readers_count, hogs) + 512)
    with tempfile.TemporaryDirectory() as folder:
        db_url = f"sqlite:///{folder}/streams.sqlite3"
        table_id = build_table(db_url, hands)
        port = free_port()
        server = start("companion", port, db_url, Path(folder) / "server.log", None)
        try:
            figures = {
                "hands": hands,
                "readers": readers(port, table_id, hands, readers_count),
                "non_readers": non_readers(port, server.pid, table_id, non_readers_count, hold),
                "hog": hog(port, table_id, hogs),
            }
        finally:
            server.terminate()
            server.wait(timeout=10)
        lines = (Path(folder) / "server.log").read_text(errors="replace").splitlines()
    figures["log_tracebacks"] = sum("Traceback" in line for line in lines)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="500 hands; 50, 100, 300 clients")
    parser.add_argument("--hold", type=float, default=40.0, help="seconds non-readers stay")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    counts = (500, 50, 100, 300) if args.quick else (2000, 100, 300, 2048)
    figures = run(*counts[:3], args.hold, counts[3])
    if args.json:
        print(json.dumps(figures))
        return
    print(f"a {figures['hands']}-hand table")
    for name in ("readers", "non_readers", "hog"):
        print(f"{name}: {json.dumps(figures[name])}")
    print(f"server log: {figures['log_tracebacks']} tracebacks")


if __name__ == "__main__":
    main()

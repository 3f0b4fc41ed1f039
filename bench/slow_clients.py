"""Slow clients: 1,000 connections that send a header line every 5 s and never finish, while
another client asks `/api/health` on fresh connections. Prints health's p50/p99/max, the
failures, how the slow connections ended, and how many lines the server logged.

    .venv/bin/python bench/slow_clients.py                        # companion serve, 1,000 clients
    .venv/bin/python bench/slow_clients.py --server plain --file-limit 1024   # uvicorn as before
    .venv/bin/python bench/slow_clients.py --clients 200 --seconds 15 --json

`--server companion` is `companion serve` (header and body deadlines, connection limit);
`--server plain` is uvicorn with the settings `companion serve` had before them; `hypercorn`
and `granian` (`pip install -e '.[bench]'`) serve the same app with their own slow-client
settings at 10 s. Everything is on 127.0.0.1; the slow clients reconnect when cut (so they
stay attached) and all stop after `--seconds`. `--file-limit` sets the server's open-file
limit, soft and hard (default: this process's).
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from load import free_port

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from reliability_server import raise_file_limit, run_slow_clients

BIN = Path(sys.executable).parent
PLAIN = (
    "import sys, uvicorn; from companion.api import create_app; "
    "uvicorn.run(create_app(sys.argv[1]), host='127.0.0.1', port=int(sys.argv[2]), "
    "server_header=False, proxy_headers=False, log_level='info')"
)


def start(
    kind: str,
    port: int,
    db_url: str,
    log: Path,
    file_limit: int | None,
    extra: Sequence[str] = (),
) -> Any:
    """The server `kind` on 127.0.0.1:`port`; `extra`: more of `companion serve`'s options."""
    env = dict(os.environ)
    env["COMPANION_SERVE_SETTINGS"] = json.dumps({"database_url": db_url})
    bind = f"127.0.0.1:{port}"
    if kind == "plain":
        command = [sys.executable, "-c", PLAIN, db_url, str(port)]
    elif kind == "hypercorn":  # its read timeout set to the header deadline companion uses
        command = [str(BIN / "hypercorn"), "--bind", bind, "--read-timeout", "10"]
        command += ["--keep-alive", "5", "companion.api.server:app_from_environment()"]
    elif kind == "granian":  # its header read timeout set to the same 10 s
        command = [str(BIN / "granian"), "--interface", "asgi", "--host", "127.0.0.1"]
        command += ["--port", str(port), "--http1-header-read-timeout", "10000", "--factory"]
        command += ["companion.api.server:app_from_environment"]
    else:
        command = [sys.executable, "-m", "companion.cli", "serve", "--port", str(port)]
        command += ["--db", db_url, *extra]

    def limit() -> None:
        if file_limit is not None:  # soft and hard, as a container's limit would be
            resource.setrlimit(resource.RLIMIT_NOFILE, (file_limit, file_limit))

    with log.open("wb") as out:
        server = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, preexec_fn=limit, env=env
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
    raise SystemExit(f"the server did not start:\n{log.read_text()[-2000:]}")


def _slow(port: int, clients: int, seconds: float, interval: float, out: Any) -> None:
    out.send(run_slow_clients(port, clients, seconds, interval, reconnect=True))


def _probe(port: int, seconds: float, pause: float, out: Any) -> None:
    """Another user: `/api/health` on a fresh connection every `pause` seconds."""
    latencies: list[float] = []
    failures: list[str] = []
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        started = time.perf_counter()
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/api/health")
            response = connection.getresponse()
            response.read()
            connection.close()
            if response.status != 200:
                failures.append(str(response.status))
        except OSError as error:
            failures.append(type(error).__name__)
        latencies.append(time.perf_counter() - started)
        time.sleep(pause)
    out.send({"latencies": latencies, "failures": failures})


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def run(kind: str, clients: int, seconds: float, interval: float, file_limit: int | None) -> dict:
    raise_file_limit(clients + 512)
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        log = Path(folder) / "server.log"
        server = start(kind, port, f"sqlite:///{folder}/slow.sqlite3", log, file_limit)
        try:
            slow_in, slow_out = multiprocessing.Pipe(duplex=False)
            slow = multiprocessing.Process(
                target=_slow, args=(port, clients, seconds, interval, slow_out)
            )
            slow.start()
            time.sleep(3)  # every slow client connects and starts trickling
            probe_in, probe_out = multiprocessing.Pipe(duplex=False)
            probe = multiprocessing.Process(
                target=_probe, args=(port, seconds - 5, 0.05, probe_out)
            )
            probe.start()
            health = probe_in.recv()
            ended = slow_in.recv()
            probe.join()
            slow.join()
        finally:
            server.terminate()
            server.wait(timeout=10)
        lines = log.read_text(errors="replace").splitlines()
    latencies = health["latencies"]
    return {
        "server": kind,
        "file_limit": file_limit or resource.getrlimit(resource.RLIMIT_NOFILE)[0],
        "slow_clients": clients,
        "header_line_every_s": interval,
        "seconds": seconds,
        "health_requests": len(latencies),
        "health_failures": len(health["failures"]),
        "health_failure_kinds": sorted(set(health["failures"])),
        "health_p50_ms": round(1000 * statistics.median(latencies), 1),
        "health_p99_ms": round(1000 * percentile(latencies, 0.99), 1),
        "health_max_ms": round(1000 * max(latencies), 1),
        "slow_connections": ended,
        "log_lines": len(lines),
        "log_tracebacks": sum("Traceback" in line for line in lines),
        "log_too_many_open_files": sum("Too many open files" in line for line in lines),
        "log_refusal_lines": sum("refused" in line for line in lines),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--server", choices=("companion", "plain", "hypercorn", "granian"), default="companion"
    )
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--interval", type=float, default=5.0, help="seconds between lines")
    parser.add_argument("--file-limit", type=int, help="the server's open-file limit")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = run(args.server, args.clients, args.seconds, args.interval, args.file_limit)
    if args.json:
        print(json.dumps(figures))
        return
    print(
        f"{figures['server']} (file limit {figures['file_limit']}): {figures['slow_clients']} "
        f"slow clients (a header line every {figures['header_line_every_s']:g} s) for "
        f"{figures['seconds']:g} s"
    )
    print(
        f"/api/health on fresh connections: {figures['health_requests']} requests, p50 "
        f"{figures['health_p50_ms']} ms, p99 {figures['health_p99_ms']} ms, max "
        f"{figures['health_max_ms']} ms, {figures['health_failures']} failed "
        f"{figures['health_failure_kinds']}"
    )
    print(f"slow connections: {figures['slow_connections']}")
    print(
        f"server log: {figures['log_lines']} lines, {figures['log_tracebacks']} tracebacks, "
        f"{figures['log_too_many_open_files']} 'Too many open files', "
        f"{figures['log_refusal_lines']} refusal lines"
    )


if __name__ == "__main__":
    main()

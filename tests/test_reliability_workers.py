"""`companion serve --workers N` when its parent process dies: the workers go with it.

A supervisor killed alone (SIGKILL, the out-of-memory killer, a crashed service manager) used to
leave its workers serving, each with its database sessions open, and a restart then failed with
"Address already in use". Each worker now asks the kernel for SIGTERM when its parent dies (on
Linux; elsewhere it watches its parent's pid), and stops as on Ctrl-C.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import sys
import time
from pathlib import Path

import httpx
import pytest

from reliability_server import Server

GONE_WITHIN = 30.0
"""Seconds the orphaned workers have to stop: a bound that only a hang exceeds (they stop in
about a second)."""

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="reads the workers' state from /proc"
)


def children(parent: int) -> list[int]:
    """The live processes whose parent is `parent`: the workers, and multiprocessing's
    resource tracker beside them."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and running(int(entry.name)):
            try:
                fields = (entry / "stat").read_text().rpartition(")")[2].split()
            except (FileNotFoundError, ProcessLookupError):
                continue
            if int(fields[1]) == parent:
                found.append(int(entry.name))
    return found


def serving_workers(server: Server, count: int) -> list[int]:
    """The workers serving, once `count` have said so ("Started server process [pid]") and
    are the parent's children (a worker slow to answer the supervisor's health check at
    start is replaced: its pid is logged, then gone)."""
    assert server.process is not None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        started = re.findall(r"Started server process \[(\d+)\]", server.log_text())
        pids = [pid for pid in map(int, started) if pid in children(server.process.pid)]
        if len(pids) == count and server.log_text().count("Application startup complete") >= count:
            return pids
        time.sleep(0.05)
    raise AssertionError(f"the workers did not start:\n{server.log_text()[-3000:]}")


def running(pid: int) -> bool:
    """Whether `pid` is a live process: not gone and not a zombie (an orphan's zombie waits for
    a reaper this container may not have; it serves nothing and holds no socket)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    state = stat.rpartition(")")[2].split()[0]
    return state not in ("Z", "X")


def test_the_workers_stop_when_their_parent_is_killed(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    server = Server(database, tmp_path / "server.log", "--workers", "2").start()
    pids: list[int] = []
    try:
        workers = serving_workers(server, 2)
        assert server.process is not None
        pids = children(server.process.pid)  # the workers and the resource tracker
        assert set(workers) <= set(pids) and len(pids) <= 3, pids
        assert httpx.get(f"{server.url}/api/health", timeout=5).status_code == 200

        server.kill()  # the parent only: the workers are not signalled
        deadline = time.monotonic() + GONE_WITHIN
        while any(running(pid) for pid in pids):
            assert time.monotonic() < deadline, (
                f"still running after {GONE_WITHIN:.0f} s: "
                f"{[pid for pid in pids if running(pid)]}\n{server.log_text()[-3000:]}"
            )
            time.sleep(0.1)
        log = server.log_text()
        for pid in workers:  # each stopped as on Ctrl-C, not killed
            assert f"Finished server process [{pid}]" in log, log[-3000:]

        # The address is free again: a restart can bind it (as uvicorn does: SO_REUSEADDR).
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as again:
            again.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            again.bind(("127.0.0.1", server.port))
            again.listen()
    finally:
        for pid in pids:  # the processes this test started, should they have outlived it
            if running(pid):
                os.kill(pid, signal.SIGKILL)
        server.stop()


WATCHED_CHILD = """
import os, sys, time
from companion.api import parent_watch
parent_watch._ask_for_parent_death_signal = lambda sent: False  # as on macOS: no such signal
parent_watch.WATCH_EVERY = 0.1
parent_watch.stop_with_parent(os.getppid())
print(os.getpid(), flush=True)
time.sleep(60)
"""
PARENT = """
import subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", sys.argv[1]], stdout=sys.stdout)
time.sleep(60)
"""


def test_where_there_is_no_parent_death_signal_a_thread_watches_the_parent() -> None:
    import subprocess

    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, WATCHED_CHILD], stdout=subprocess.PIPE, text=True
    )
    child = 0
    try:
        assert parent.stdout is not None
        child = int(parent.stdout.readline())
        assert running(child)
        parent.kill()
        parent.wait(timeout=10)
        deadline = time.monotonic() + GONE_WITHIN
        while running(child):
            assert time.monotonic() < deadline, "the child outlived its parent"
            time.sleep(0.05)
    finally:
        if child and running(child):
            os.kill(child, signal.SIGKILL)
        if parent.poll() is None:
            parent.kill()
            parent.wait(timeout=10)


def test_a_worker_whose_parent_is_already_gone_stops_at_once() -> None:
    """The supervisor died before the worker asked for the signal: the worker stops itself."""
    import subprocess

    script = (
        "import os, time\n"
        "from companion.api.parent_watch import stop_with_parent\n"
        "stop_with_parent(os.getppid() + 1_000_000)  # not its parent: as if reparented\n"
        "time.sleep(30)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], timeout=GONE_WITHIN, check=False)
    assert done.returncode == -signal.SIGTERM

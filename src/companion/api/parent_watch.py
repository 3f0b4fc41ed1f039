"""A worker of `companion serve --workers N` stops when its parent, the supervisor, dies.

Killed alone (SIGKILL, the out-of-memory killer), the supervisor cannot tell its workers to
stop: they went on serving on the shared socket, each holding its database sessions, and the
next `companion serve` failed with "Address already in use". So each worker, as it starts:

- on Linux asks the kernel for SIGTERM when its parent dies (`prctl(PR_SET_PDEATHSIG)`);
- elsewhere (macOS, the BSDs) watches its parent from a thread: once `os.getppid()` is no longer
  the supervisor (an orphan is handed to another process), it sends itself SIGTERM;

and then checks that its parent is still the supervisor, since the supervisor may have died
before the worker asked. SIGTERM stops a worker as Ctrl-C does: it finishes the requests under
way, ends the live streams, closes its database sessions.

The kernel sends the signal when the *thread* that started the worker ends: uvicorn's
supervisor starts and restarts its workers from its main thread, which lives as long as it does.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1
"""prctl's option: the signal this process gets when its parent dies (linux/prctl.h)."""
WATCH_EVERY = 1.0
"""Seconds between two looks at the parent, where there is no parent-death signal."""


def stop_with_parent(parent_pid: int) -> None:
    """Have this process stop (SIGTERM) when `parent_pid`, its parent, dies, or now if it has."""
    if not (sys.platform.startswith("linux") and _ask_for_parent_death_signal(signal.SIGTERM)):
        watch = threading.Thread(
            target=_watch_parent, args=(parent_pid,), name="parent-watch", daemon=True
        )
        watch.start()
    if os.getppid() != parent_pid:  # died before we asked: no signal will come
        os.kill(os.getpid(), signal.SIGTERM)


def _ask_for_parent_death_signal(sent: signal.Signals) -> bool:
    """prctl(PR_SET_PDEATHSIG, sent); False when the C library has no prctl or refuses it."""
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return False
    return bool(prctl(PR_SET_PDEATHSIG, int(sent), 0, 0, 0) == 0)


def _watch_parent(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(WATCH_EVERY)
    os.kill(os.getpid(), signal.SIGTERM)

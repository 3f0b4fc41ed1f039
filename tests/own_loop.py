"""Running a coroutine from a synchronous test."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run_on_own_loop(coroutine: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run` on a loop of its own in a thread of its own: an earlier test in the same
    pytest worker (the browser tests' Playwright) may have left an event loop running in this
    thread, and `asyncio.run` refuses to start beside it."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()

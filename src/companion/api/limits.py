"""Rate limits: token buckets for creating tables and events (per client address), for the tables
an event's seating creates (per client address), for an event's heavy reads (per client
address), and for writing to a table (per table), answered with 429 and `Retry-After`.

A bucket holds up to `count` tokens and refills at `count` per `seconds`; each request takes one
(a seated round one per table it seats, an event's export `EXPORT_COST`). So `Rate(120, 3600)`
lets an address create 120 tables at once, then one every 30 s. The client
address is the connection's peer, or, behind a reverse proxy, what the server's
`--forwarded-allow-ips` lets it take from `X-Forwarded-For` (uvicorn's proxy headers do that
before the app sees the request; nothing here reads the header itself).

Buckets live in the process: with `--workers N` each worker keeps its own, so the limit an
address meets is up to N times the figure. They are bounded (least recently used first out).
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from fastapi import HTTPException, Request

from companion.errors import CompanionError
from companion.rules.options import parse_whole, plain_number

MAX_BUCKETS = 50_000
"""Buckets kept per limit; the least recently used goes first (it would be full again soon)."""


@dataclass(frozen=True)
class Rate:
    """`count` requests at once, refilled at `count` per `seconds`."""

    count: int
    seconds: float

    def __post_init__(self) -> None:
        if self.count < 1 or self.seconds <= 0:
            raise ValueError("a rate is a count of at least 1 per a positive number of seconds")

    @classmethod
    def parse(cls, text: str) -> Rate | None:
        """`COUNT/SECONDS` (`120/3600`), or `off` for no limit."""
        if text.strip().lower() == "off":
            return None
        count, _, seconds = text.partition("/")
        # The one bounded reader: `int` and `float` take `٣`, `1_000` and `1e10000000`.
        whole, span = parse_whole(count), plain_number(seconds, digits=9)
        try:
            if whole is None or span is None:
                raise ValueError(text)
            return cls(whole, float(span))
        except ValueError:
            message = f"{text!r} is not a rate: write COUNT/SECONDS, e.g. 120/3600, or off"
            raise ValueError(message) from None

    @property
    def text(self) -> str:
        return f"at most {self.count} per {self.seconds:g} s"


@dataclass(frozen=True)
class RateLimits:
    """The limits of one app. None switches a limit off."""

    create: Rate | None = Rate(120, 3600)
    """Tables created per client address: 120 at once, then 2 a minute."""
    write: Rate | None = Rate(240, 60)
    """Writes (hands, voids, amendments) per table: 240 at once, then 4 a second."""
    seat: Rate | None = Rate(6000, 86400)
    """Tables an event's seating creates, per client address: 6,000 at once (the largest event,
    400 players seated for 40 rounds, makes 4,000), then 6,000 a day: an organiser seats a
    full event, one address making such events over and over is refused."""
    read: Rate | None = Rate(1200, 60)
    """An event's heavy reads (its pages and board, its JSON, standings and exports) per client
    address: 1,200 at once, then 20 a second; an export counts `EXPORT_COST`. A venue's phones
    behind one address share it: `--read-limit` raises it."""


EXPORT_COST = 20
"""What an event's export takes from its reader's bucket: it reads every table's record."""


@dataclass
class _Bucket:
    tokens: float
    updated: float


@dataclass
class TokenBuckets:
    """One rate's buckets, by key. Thread-safe."""

    rate: Rate
    clock: Callable[[], float] = time.monotonic
    _buckets: OrderedDict[str, _Bucket] = field(default_factory=OrderedDict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def take(self, key: str, count: int = 1) -> float:
        """Take `count` tokens for `key`: 0 when granted, else the seconds until they are
        there (nothing taken). More than the bucket holds is never granted."""
        per_second = self.rate.count / self.rate.seconds
        now = self.clock()
        with self._lock:
            bucket = self._buckets.pop(key, None)
            if bucket is None:
                bucket = _Bucket(float(self.rate.count), now)
            tokens = min(
                float(self.rate.count), bucket.tokens + (now - bucket.updated) * per_second
            )
            wait = 0.0
            if count > self.rate.count:
                wait = self.rate.seconds
            elif tokens >= count:
                tokens -= count
            else:
                wait = (count - tokens) / per_second
            self._buckets[key] = _Bucket(tokens, now)
            while len(self._buckets) > MAX_BUCKETS:
                self._buckets.popitem(last=False)
        return wait

    def give_back(self, key: str, count: int) -> None:
        """Return `count` tokens taken for something that was not done after all."""
        with self._lock:
            bucket = self._buckets.get(key)
            if bucket is not None:
                bucket.tokens = min(float(self.rate.count), bucket.tokens + count)


class RateLimiter:
    """The app's buckets (`app.state.rate_limiter`)."""

    def __init__(self, limits: RateLimits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.create = None if limits.create is None else TokenBuckets(limits.create, clock)
        self.write = None if limits.write is None else TokenBuckets(limits.write, clock)
        self.seat = None if limits.seat is None else TokenBuckets(limits.seat, clock)
        self.read = None if limits.read is None else TokenBuckets(limits.read, clock)


def client_address(request: Request) -> str:
    """The client's address as the server gives it (the proxy's view when trusted)."""
    return request.client.host if request.client else "unknown"


class TooManyRequestsError(CompanionError):
    """A keyed 429 (its page and the organiser's script say it in the reader's language), with
    the seconds to wait (`Retry-After`)."""

    http_status = 429

    def __init__(self, message: str, *, seconds: int, key: str, params: dict[str, Any]) -> None:
        super().__init__(message, key=key, params={"seconds": seconds, **params})
        self.retry_after = seconds


def _seconds(wait: float) -> int:
    return max(1, math.ceil(wait))


def _refuse(wait: float, what: str) -> HTTPException:
    seconds = _seconds(wait)
    return HTTPException(
        status_code=429,
        detail=f"{what}: try again in {seconds} s",
        headers={"Retry-After": str(seconds)},
    )


def _limiter(request: Request) -> RateLimiter | None:
    found = getattr(request.app.state, "rate_limiter", None)
    return found if isinstance(found, RateLimiter) else None


def limit_creation(request: Request) -> None:
    """429 when this client address has created too many tables lately."""
    limiter = _limiter(request)
    if limiter is None or limiter.create is None:
        return
    wait = limiter.create.take(client_address(request))
    if wait:
        raise _refuse(wait, f"too many new tables from this address ({limiter.create.rate.text})")


def limit_writes(request: Request, table_id: str) -> None:
    """429 when this table has taken too many writes lately."""
    limiter = _limiter(request)
    if limiter is None or limiter.write is None:
        return
    wait = limiter.write.take(table_id.strip().lower())
    if wait:
        raise _refuse(wait, f"too many writes to this table ({limiter.write.rate.text})")


def limit_reads(request: Request, cost: int = 1) -> None:
    """429 when this client address has read events' pages, standings and exports too often
    lately (an export takes `EXPORT_COST`)."""
    limiter = _limiter(request)
    if limiter is None or limiter.read is None:
        return
    wait = limiter.read.take(client_address(request), cost)
    if wait:
        seconds = _seconds(wait)
        raise TooManyRequestsError(
            f"too many reads of events from this address ({limiter.read.rate.text}): try again "
            f"in {seconds} s",
            seconds=seconds,
            key="refusal.too_many_reads",
            params={},
        )


@contextmanager
def limit_seating(request: Request, tables: int) -> Iterator[None]:
    """Seat `tables` new tables within this client address's seating limit: 429 before
    anything is seated when the address has seated too many lately; the tables given back
    when the seating is refused (a round seated meanwhile, tables still playing)."""
    limiter = _limiter(request)
    if limiter is None or limiter.seat is None or tables <= 0:
        yield
        return
    address = client_address(request)
    wait = limiter.seat.take(address, tables)
    if wait:
        seconds = _seconds(wait)
        raise TooManyRequestsError(
            f"too many tables seated from this address ({limiter.seat.rate.text}): this round "
            f"needs {tables}; try again in {seconds} s",
            seconds=seconds,
            key="refusal.too_many_seated",
            params={"tables": tables},
        )
    try:
        yield
    except BaseException:
        limiter.seat.give_back(address, tables)
        raise

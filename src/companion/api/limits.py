"""Rate limits: token buckets for creating tables (per client address) and for writing to a table
(per table), answered with 429 and `Retry-After`.

A bucket holds up to `count` tokens and refills at `count` per `seconds`; each request takes one.
So `Rate(120, 3600)` lets an address create 120 tables at once, then one every 30 s. The client
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
from collections.abc import Callable
from dataclasses import dataclass, field

from fastapi import HTTPException, Request

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

    def take(self, key: str) -> float:
        """Take a token for `key`: 0 when granted, else the seconds until one is there."""
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
            if tokens >= 1:
                tokens -= 1
            else:
                wait = (1 - tokens) / per_second
            self._buckets[key] = _Bucket(tokens, now)
            while len(self._buckets) > MAX_BUCKETS:
                self._buckets.popitem(last=False)
        return wait


class RateLimiter:
    """The app's buckets (`app.state.rate_limiter`)."""

    def __init__(self, limits: RateLimits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.create = None if limits.create is None else TokenBuckets(limits.create, clock)
        self.write = None if limits.write is None else TokenBuckets(limits.write, clock)


def client_address(request: Request) -> str:
    """The client's address as the server gives it (the proxy's view when trusted)."""
    return request.client.host if request.client else "unknown"


def _refuse(wait: float, what: str) -> HTTPException:
    seconds = max(1, math.ceil(wait))
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

"""The typed FastAPI dependencies of the areas that store things (the table API and the table
pages): this app's ledger (`LedgerDep`), the write token's check (`authorize_table`), and ledger
refusals as HTTP statuses.

Both areas import these from here, never from each other, and nothing here imports a route
module: the import graph has no cycle (tests/test_import_graph.py).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import anyio
import anyio.to_thread
from fastapi import Depends, HTTPException, Request
from pydantic import BeforeValidator
from pydantic_core import PydanticCustomError
from starlette.concurrency import run_in_threadpool

from companion.api.limits import limit_writes
from companion.api.security import bearer_token
from companion.errors import CompanionError
from companion.ledger.errors import (
    IdempotencyConflictError,
    MissingEntryError,
    StaleWriteError,
    TableBusyError,
    TableFinishedError,
    UnknownTableError,
)
from companion.ledger.state import table_key
from companion.rules.options import parse_whole

if TYPE_CHECKING:
    # SQLAlchemy and Alembic load on the first table request, not with the app.
    from companion.ledger.repository import Ledger

T = TypeVar("T")


def _whole_query(value: Any) -> Any:
    """A query parameter's whole number read by the one bounded reader (`parse_whole`), not by
    pydantic's `int`, which takes `1_000` and spaces."""
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    number = parse_whole(str(value))
    if number is None:
        raise PydanticCustomError(
            "whole_number", "must be a whole number in digits 0-9, at most 2^53 either way"
        )
    return number


WholeQuery = Annotated[int | None, BeforeValidator(_whole_query)]
"""An optional query parameter that is a whole number (`?before=`, `?after=`)."""

__all__ = [
    "LedgerDep",
    "TableRequestError",
    "authorize_table",
    "authorize_write",
    "call",
    "close_ledgers",
    "database_url",
    "http_status",
    "ledger_for",
    "open_ledger",
    "refusals",
    "table_key",
]


def database_url(request: Request) -> str:
    """The ledger's database URL for this app (a dependency for the areas that store things)."""
    # Imported here: the scoring pages never load the database stack.
    from companion.ledger.db import resolve_url

    explicit = request.app.state.database_url
    return resolve_url(explicit if isinstance(explicit, str) else None)


# ---------------------------------------------------------------------------------------------
# The ledger of this app, and its refusals as HTTP


class TableRequestError(CompanionError):
    """A ledger or engine refusal with the HTTP status it maps to."""

    def __init__(
        self, message: str, http_status: int, refused: CompanionError | None = None
    ) -> None:
        # The refusal's key and parameters carry over, for the page's language.
        key, params = (None, None) if refused is None else (refused.key, refused.params)
        super().__init__(message, key=key, params=params)
        self.http_status = http_status


def http_status(error: CompanionError) -> int:
    """The HTTP status of a refusal from the ledger or the engine."""
    from companion.ledger import db

    own = getattr(error, "http_status", None)
    if isinstance(own, int):
        return own
    if isinstance(error, UnknownTableError | MissingEntryError):
        return 404
    if isinstance(error, IdempotencyConflictError | StaleWriteError | TableFinishedError):
        return 409
    if isinstance(error, db.DatabaseError | TableBusyError):
        return 503
    return 422


@contextmanager
def refusals() -> Iterator[None]:
    """Ledger and engine errors as `TableRequestError`s carrying their HTTP status."""
    try:
        yield
    except TableRequestError:
        raise
    except CompanionError as error:
        raise TableRequestError(error.message, http_status(error), error) from None


_LEDGERS_LOCK = threading.Lock()


def open_ledger(request: Request) -> Ledger:
    """This app's ledger, from a thread (opened and migrated on first use; then shared)."""
    # Imported here: the calculator alone never loads the database stack.
    from companion.ledger.repository import Ledger

    url = database_url(request)
    state = request.app.state
    with _LEDGERS_LOCK:
        ledgers: dict[str, Ledger] | None = getattr(state, "ledgers", None)
        if ledgers is None:
            ledgers = {}
            state.ledgers = ledgers
        ledger = ledgers.get(url)
        if ledger is None:
            with refusals():
                ledger = Ledger.open(url)
            ledgers[url] = ledger
        return ledger


async def ledger_for(request: Request) -> Ledger:
    """This app's ledger (opened, and migrated, on first use; then shared)."""
    return await run_in_threadpool(open_ledger, request)


def close_ledgers(app: Any) -> None:
    """Close the ledgers an app opened (tests, shutdown)."""
    with _LEDGERS_LOCK:
        ledgers = getattr(app.state, "ledgers", None) or {}
        for ledger in ledgers.values():
            ledger.close()
        app.state.ledgers = {}


async def call(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run a (blocking) ledger call in the thread pool, its refusals mapped to HTTP."""

    def run() -> T:
        with refusals():
            return function(*args, **kwargs)

    return await run_in_threadpool(run)


READ_THREADS = 4
"""Threads an app gives events' heavy reads (their pages, boards, JSON and standings) at once;
more wait their turn without running. However many clients loop on a big event's page, at most
this many of them compete for the interpreter with a table's write (issue 41)."""


async def call_reading(request: Request, function: Callable[..., T], *args: Any) -> T:
    """`call` for an event's heavy read: on the app's `READ_THREADS` threads."""

    def run() -> T:
        with refusals():
            return function(*args)

    state = request.app.state
    limiter = getattr(state, "read_threads", None)
    if limiter is None:  # made in the event loop, on first use
        limiter = state.read_threads = anyio.CapacityLimiter(READ_THREADS)
    return await anyio.to_thread.run_sync(run, limiter=limiter)


async def authorize_table(request: Request, ledger: Ledger, table_id: str) -> None:
    """404 for an unknown table (whoever asks), then 401 without a token, 403 with a wrong one."""
    token = bearer_token(request)
    if token is None:
        await call(ledger.setup, table_id)
        raise HTTPException(
            status_code=401,
            detail="recording needs the table's write token: send Authorization: Bearer <token>",
            headers={"WWW-Authenticate": "Bearer"},
        )
    if not await call(ledger.verify_token, table_id, token):
        raise HTTPException(status_code=403, detail="the token does not match this table")


async def authorize_write(request: Request, ledger: Ledger, table_id: str) -> None:
    """`authorize_table`, then the table's write rate (429): only its token holders spend it."""
    await authorize_table(request, ledger, table_id)
    limit_writes(request, table_id)


if TYPE_CHECKING:
    LedgerDep = Annotated[Ledger, Depends(ledger_for)]
else:
    # At run time FastAPI reads the annotation, and `Ledger` (SQLAlchemy) is not loaded yet.
    LedgerDep = Annotated[Any, Depends(ledger_for)]
"""This app's ledger, as a route parameter (`ledger: LedgerDep`): opened on first use."""

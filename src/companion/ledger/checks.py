"""What the ledger checks in text a client sends before any of it reaches a database: text no
database can store, an idempotency key's length, a correction's reason and who makes it."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from companion.ledger.errors import LedgerError, LimitError
from companion.ledger.state import MAX_CORRECTION_TEXT

MAX_TOTAL = 2**53
"""The largest amount a table's total may reach either way: the largest whole number a request
may hold, so that every result can be sent back as a client sent it."""

KEY_LENGTH = 200
"""The longest idempotency key, in characters."""

_SURROGATE = re.compile(r"[\ud800-\udfff]")


def unstorable(text: str) -> str | None:
    """What keeps `text` out of a database: a NUL (PostgreSQL's text cannot hold one) or a lone
    surrogate (not Unicode text, though a JSON escape can spell it); None when it can be stored."""
    if "\x00" in text:
        return "cannot contain a NUL character"
    if _SURROGATE.search(text):
        return "is not valid Unicode text (it holds a lone surrogate)"
    return None


def check_storable(value: Any, what: str) -> None:
    """Refuse, as a request error rather than a database failure, text in `value` (and in the
    keys and items it holds) that no database can store. The message never quotes the text."""
    if isinstance(value, str):
        problem = unstorable(value)
        if problem:
            raise LedgerError(f"{what} {problem}")
    elif isinstance(value, Mapping):
        for name, item in value.items():
            check_storable(name, what)
            check_storable(item, what)
    elif isinstance(value, list | tuple):
        for item in value:
            check_storable(item, what)


def idempotency_key(key: str | None) -> str | None:
    """The key as stored (trimmed), None for none; refused when too long."""
    if key is None or not key.strip():
        return None
    key = key.strip()
    if len(key) > KEY_LENGTH:
        raise LedgerError(f"an idempotency key can have at most {KEY_LENGTH} characters")
    return key


def correction_reason(reason: str) -> str:
    """A correction's reason as stored (trimmed): required, and at most `MAX_CORRECTION_TEXT`
    long."""
    reason = reason.strip()
    if not reason:
        raise LedgerError("say why (--reason): a correction needs a reason")
    if len(reason) > MAX_CORRECTION_TEXT:
        raise LimitError(f"a correction's reason can have at most {MAX_CORRECTION_TEXT} characters")
    return reason


def corrected_by(by: str) -> str:
    """Who makes a correction, as stored (trimmed; may be empty)."""
    by = by.strip()
    if len(by) > MAX_CORRECTION_TEXT:
        raise LimitError(f"by (who corrects) can have at most {MAX_CORRECTION_TEXT} characters")
    return by


def check_totals(players: Sequence[str], totals: Sequence[Fraction]) -> None:
    """Refuse an entry that would take a player's total beyond `MAX_TOTAL` (only stakes far
    beyond any table's could: the options' own limits keep one hand well within it)."""
    for name, total in zip(players, totals, strict=True):
        if abs(total) > MAX_TOTAL:
            raise LimitError(
                f"this entry would take {name}'s total beyond 2^53 ({MAX_TOTAL:,}), the most a "
                "table's amounts may reach: nothing recorded"
            )

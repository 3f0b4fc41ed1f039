"""What an organiser sends, checked before it is stored: the limits of an event, the seating's
modes by name, names, texts and amounts."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import TypeVar

from companion.errors import InvalidRequestError, Params
from companion.events.plan import FirstRound, LaterRounds, Leftover
from companion.ledger.checks import check_storable
from companion.ledger.errors import LimitError
from companion.ledger.event_book.errors import EventError
from companion.ledger.state import MAX_CORRECTION_TEXT, MAX_PLAYER_NAME
from companion.names import clean_name
from companion.rules.options import plain_number

T = TypeVar("T")

MAX_EVENT_PLAYERS = 400
"""The most players one event may enter (a hundred tables)."""
MAX_EVENT_ROUNDS = 40
MAX_TIMER_MINUTES = 600
MAX_SEED = 2**63 - 1
MAX_AMOUNT = 60
"""The most characters of an adjustment's amount as an exact fraction."""

FIRST_ROUNDS = {mode.value: mode for mode in FirstRound}
LATER_ROUNDS = {"no-repeats": LaterRounds.NO_REPEATS, "by-standing": LaterRounds.STANDING}
LEFTOVERS = {mode.value: mode for mode in Leftover}


def mode_of(value: str, modes: Mapping[str, T], what: str) -> T:
    """The mode `value` names, refused in English otherwise: no form or body sends another."""
    found = modes.get(value)
    if found is None:
        raise InvalidRequestError(f"{what} must be one of {', '.join(modes)}; got {value!r}")
    return found


def checked_text(
    text: str, what: str, key: str, *, required: bool = True, params: Params | None = None
) -> str:
    """The text trimmed; refused empty (when `required`) or too long, under `key` with `_empty`
    or `_long` (and `most`) added."""
    check_storable(text, what)
    text = text.strip()
    if required and not text:
        raise EventError(f"{what} cannot be empty", key=f"{key}_empty", params=params)
    if len(text) > MAX_CORRECTION_TEXT:
        raise LimitError(
            f"{what} can have at most {MAX_CORRECTION_TEXT} characters",
            key=f"{key}_long",
            params={**(params or {}), "most": MAX_CORRECTION_TEXT},
        )
    return text


def checked_name(name: str) -> None:
    check_storable(name, "a player's name")
    if len(clean_name(name)) > MAX_PLAYER_NAME:
        start = clean_name(name)[:20]
        raise LimitError(
            f"a player's name can have at most {MAX_PLAYER_NAME} characters: {start}...",
            key="refusal.event_player_long",
            params={"most": MAX_PLAYER_NAME, "start": start},
        )


def too_many_players() -> LimitError:
    return LimitError(
        f"an event can have at most {MAX_EVENT_PLAYERS} players",
        key="refusal.event_many_players",
        params={"most": MAX_EVENT_PLAYERS},
    )


def exact_amount(value: Fraction | int | str) -> Fraction:
    """An adjustment's amount: a whole number, a decimal or a fraction ("-10", "2.5", "5/2"),
    read by the options' bounded reader (`plain_number`): never `Fraction` on the text as sent,
    which expands `"1e10000000"` in full and reads `"1_000"`, `"٣"` and fullwidth digits.
    Sixteen digits before the point, so that 2^53 itself can be written (the totals' bound,
    `_check_total`)."""
    amount = plain_number(value, digits=16) if isinstance(value, str) else Fraction(value)
    if amount is None:
        raise EventError(
            f"an amount is a number such as -10, 2.5 or 5/2; got {value!r}",
            key="refusal.event_bad_amount",
            params={"amount": str(value)},
        )
    if amount == 0:
        raise EventError("an adjustment of 0 changes nothing", key="refusal.event_zero_amount")
    if len(str(amount)) > MAX_AMOUNT:
        raise LimitError(
            f"an amount can have at most {MAX_AMOUNT} characters as a fraction",
            key="refusal.event_amount_long",
            params={"most": MAX_AMOUNT},
        )
    return amount

"""Shares and payments, in exact arithmetic. Profiles compose these into their settlement."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction

from companion.tiles import Wind

Payments = dict[Wind, Fraction]
"""The net change of every seat; the four always sum to zero."""


def amount_json(amount: Fraction) -> int | float:
    """Exact amounts become JSON numbers: whole ones as integers, halves and such as decimals."""
    # What int() and float() of a Fraction compute, without their calls: every result's
    # payments and transfers pass through here.
    numerator = amount.numerator
    denominator = amount.denominator
    if denominator == 1:
        return numerator
    return numerator / denominator


def format_amount(amount: Fraction) -> str:
    """Whole amounts as integers, terminating decimals as decimals, anything else as p/q."""
    if amount.denominator == 1:
        return str(amount.numerator)
    denominator = amount.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    if denominator != 1:
        return f"{amount.numerator}/{amount.denominator}"
    digits = 0
    while (amount * 10**digits).denominator != 1:
        digits += 1
    return f"{float(amount):.{digits}f}"


def signed_amount(amount: Fraction, write: Callable[[Fraction], str] = format_amount) -> str:
    """+16, -8, 0: a seat that neither pays nor gains shows no sign. `write` words the number
    (`format_amount` by default)."""
    text = write(amount)
    return f"+{text}" if amount > 0 else text


def zero_payments() -> Payments:
    return dict(_NOTHING)


def others(seat: Wind) -> tuple[Wind, ...]:
    """The three seats other than `seat`, in turn order after it."""
    return _OTHERS[seat]


Amount = int | Fraction
"""An exact amount while settling: an int where it is whole, a `Fraction` only where a share is
fractional (a half share, a third of a stake). Payments themselves are always `Fraction`s."""


def doubling_share(tai: int, one_tai_share: Fraction) -> Fraction:
    """V x 2^(tai-1): V at 1 tai, doubling with each tai; V/2 at 0 tai."""
    if tai >= 1:
        return Fraction(one_tai_share.numerator << (tai - 1), one_tai_share.denominator)
    return Fraction(one_tai_share.numerator, one_tai_share.denominator << (1 - tai))


def doubling(tai: int, one_tai_share: Fraction) -> Amount:
    """`doubling_share` as an int whenever it is whole."""
    if one_tai_share.denominator == 1 and tai >= 1:
        return one_tai_share.numerator << (tai - 1)
    return whole_or_fraction(doubling_share(tai, one_tai_share))


def whole_or_fraction(amount: Amount) -> Amount:
    """The amount as an int when it is whole."""
    if isinstance(amount, int) or amount.denominator != 1:
        return amount
    return amount.numerator


def collect(winner: Wind, owed: Mapping[Wind, Amount]) -> Payments:
    """Every payer pays the winner what it owes; the winner's gain is the sum."""
    payments = dict(_NOTHING)
    total: Amount = 0
    for payer, amount in owed.items():
        payments[payer] = -amount  # type: ignore[assignment]  # made Fractions below
        total += amount
    payments[winner] = total  # type: ignore[assignment]
    whole = _WHOLE
    for seat, amount in payments.items():
        if isinstance(amount, int):
            payments[seat] = whole.get(amount) or _fraction_of(amount)
        elif amount.denominator == 1:
            payments[seat] = _fraction_of(amount.numerator)
    return payments


_WHOLE: dict[int, Fraction] = {}
"""Whole amounts as Fractions, made once each: a table pays a few dozen different amounts."""


def _fraction_of(amount: int) -> Fraction:
    found = _WHOLE.get(amount)
    if found is None:
        if len(_WHOLE) > 4096:
            _WHOLE.clear()
        found = _WHOLE[amount] = Fraction(amount)
    return found


def clear_memos() -> None:
    """Forget the whole amounts made Fractions (for benchmarks that time a cold start)."""
    _WHOLE.clear()


_OTHERS = {seat: tuple(seat.next(step) for step in (1, 2, 3)) for seat in Wind}
_ZERO = Fraction(0)
_NOTHING: Payments = dict.fromkeys(Wind, _ZERO)


def add_payments(*parts: Payments) -> Payments:
    total = zero_payments()
    for part in parts:
        for wind, amount in part.items():
            total[wind] += amount
    return total

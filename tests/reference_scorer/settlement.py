"""Shares and payments, in exact arithmetic. Profiles compose these into their settlement."""

from __future__ import annotations

from fractions import Fraction

from companion.tiles import Wind

Payments = dict[Wind, Fraction]
"""The net change of every seat; the four always sum to zero."""


def zero_payments() -> Payments:
    return {wind: Fraction(0) for wind in Wind}


def others(seat: Wind) -> tuple[Wind, ...]:
    """The three seats other than `seat`, in turn order after it."""
    return tuple(seat.next(step) for step in (1, 2, 3))


def doubling_share(tai: int, one_tai_share: Fraction) -> Fraction:
    """V x 2^(tai-1): V at 1 tai, doubling with each tai; V/2 at 0 tai."""
    if tai >= 1:
        return Fraction(one_tai_share.numerator << (tai - 1), one_tai_share.denominator)
    return Fraction(one_tai_share.numerator, one_tai_share.denominator << (1 - tai))


def collect(winner: Wind, owed: dict[Wind, Fraction]) -> Payments:
    """Every payer pays the winner what it owes; the winner's gain is the sum."""
    payments = dict(_NOTHING)
    if all(amount.denominator == 1 for amount in owed.values()):
        # Whole amounts (the usual case) are added as integers: Fraction sums are slow.
        whole = 0
        for payer, amount in owed.items():
            payments[payer] = Fraction(-amount.numerator)
            whole += amount.numerator
        payments[winner] = Fraction(whole)
        return payments
    total = _ZERO
    for payer, amount in owed.items():
        payments[payer] = -amount
        total += amount
    payments[winner] = total
    return payments


_ZERO = Fraction(0)
_NOTHING: Payments = dict.fromkeys(Wind, _ZERO)


def add_payments(*parts: Payments) -> Payments:
    total = zero_payments()
    for part in parts:
        for wind, amount in part.items():
            total[wind] += amount
    return total

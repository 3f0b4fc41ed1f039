"""Shares and payments, in exact arithmetic. Profiles compose these into their settlement."""

from __future__ import annotations

from fractions import Fraction

from companion.tiles import Wind

Payments = dict[Wind, Fraction]
"""The net change of every seat; the four always sum to zero."""


def zero_payments() -> Payments:
    return {wind: Fraction(0) for wind in Wind}


def pay(payments: Payments, payer: Wind, payee: Wind, amount: Fraction) -> None:
    payments[payer] -= amount
    payments[payee] += amount


def others(seat: Wind) -> tuple[Wind, ...]:
    """The three seats other than `seat`, in turn order after it."""
    return tuple(seat.next(step) for step in (1, 2, 3))


def doubling_share(tai: int, one_tai_share: Fraction) -> Fraction:
    """V x 2^(tai-1): V at 1 tai, doubling with each tai; V/2 at 0 tai."""
    return one_tai_share * Fraction(2) ** (tai - 1)


def add_payments(*parts: Payments) -> Payments:
    total = zero_payments()
    for part in parts:
        for wind, amount in part.items():
            total[wind] += amount
    return total

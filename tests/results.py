"""Reading a scoring result in tests: each pattern's value and each seat's payment."""

from __future__ import annotations

from fractions import Fraction

from companion.scoring import ScoreResult


def tai_of(result: ScoreResult) -> dict[str, int]:
    """Each scoring pattern's value (tai, or faan in `hk`) by id."""
    assert result.valid, result.error
    return {pattern.id: pattern.tai for pattern in result.patterns}


def paid(result: ScoreResult) -> dict[str, Fraction]:
    assert result.valid, result.error
    return {wind.value: amount for wind, amount in result.payments.items()}


def pays(**amounts: int | Fraction) -> dict[str, Fraction]:
    """Payments written as E=…, S=…; seats left out pay nothing."""
    return {seat: Fraction(amounts.get(seat, 0)) for seat in "ESWN"}

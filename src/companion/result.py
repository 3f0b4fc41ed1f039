"""What scoring answers: one winner's `ScoreResult`, several winners' `MultiResult`.

Both are values with `to_json()`, the result of the contract (docs/contract.md). A result's
explanatory parts (the waits, the tiles behind each pattern) are found on first access: most
callers read only the patterns, the tai and the payments.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

from companion.rules.patterns import PatternScore
from companion.rules.value import Shortfall
from companion.settlement import amount_json
from companion.shapes import Reading
from companion.tiles import Tile, Wind

_new = object.__new__
_set_attribute = object.__setattr__
_MPSZ: dict[Tile, str] = {tile: tile.mpsz for tile in Tile}
_WIND_TEXT: dict[Wind, str] = {wind: wind.value for wind in Wind}
"""Every wind's letter, in `Wind`'s order (the order of a result's `payments`)."""


@dataclass(frozen=True, eq=False, init=False)
class ScoreResult:
    """The scoring result. `valid` false carries `error` (and `waits` when one short)."""

    valid: bool
    profile: str
    error: str | None = None
    tai: int = 0
    raw_tai: int = 0
    meets_minimum: bool = False
    patterns: tuple[PatternScore, ...] = ()
    reading: Reading | None = None
    found_waits: tuple[Tile, ...] | Callable[[], tuple[Tile, ...]] = field(default=(), repr=False)
    """The waits, or what reads them on first access of `waits` (most callers never ask)."""
    payments: Mapping[Wind, Fraction] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    dealer_tai: int | None = None
    winner: Wind | None = None
    unit: str = "tai"
    """What `tai` counts: `tai`, or `faan` in `hk`."""
    error_key: str | None = None
    """A refusal's stable key, for saying `error` in another language (None: English only)."""
    error_params: Mapping[str, Any] | None = None
    """A refusal's parameters, with `error_key` (`companion.errors`)."""
    short_of_minimum: Shortfall | None = None
    """How a valid hand under the table's minimum falls short (None when it meets it)."""

    def __init__(
        self,
        valid: bool,
        profile: str,
        error: str | None = None,
        tai: int = 0,
        raw_tai: int = 0,
        meets_minimum: bool = False,
        patterns: tuple[PatternScore, ...] = (),
        reading: Reading | None = None,
        found_waits: tuple[Tile, ...] | Callable[[], tuple[Tile, ...]] = (),
        payments: Mapping[Wind, Fraction] | None = None,
        notes: tuple[str, ...] = (),
        dealer_tai: int | None = None,
        winner: Wind | None = None,
        unit: str = "tai",
        error_key: str | None = None,
        error_params: Mapping[str, Any] | None = None,
        short_of_minimum: Shortfall | None = None,
    ) -> None:
        # The instance's dict given whole (past the frozen class's __setattr__) rather than a
        # frozen dataclass's fourteen object.__setattr__ calls: a result is made for every
        # hand scored.
        _set_attribute(
            self,
            "__dict__",
            {
                "valid": valid,
                "profile": profile,
                "error": error,
                "tai": tai,
                "raw_tai": raw_tai,
                "meets_minimum": meets_minimum,
                "patterns": patterns,
                "reading": reading,
                "found_waits": found_waits,
                "payments": {} if payments is None else payments,
                "notes": notes,
                "dealer_tai": dealer_tai,
                "winner": winner,
                "unit": unit,
                "error_key": error_key,
                "error_params": error_params,
                "short_of_minimum": short_of_minimum,
            },
        )

    @classmethod
    def of_fields(cls, fields: dict[str, Any]) -> ScoreResult:
        """A result from a dict of every one of its fields (the scorer's way: no fourteen
        arguments to bind for every hand scored). The dict becomes the result's own."""
        result = _new(cls)
        _set_attribute(result, "__dict__", fields)
        return result

    @cached_property
    def waits(self) -> tuple[Tile, ...]:
        """The kinds the hand waited on before its winning tile (on a refusal one tile short,
        what it waits on)."""
        found = self.found_waits
        return found if isinstance(found, tuple) else found()

    def _fields(self) -> tuple[object, ...]:
        return (
            self.valid,
            self.profile,
            self.error,
            self.tai,
            self.raw_tai,
            self.meets_minimum,
            self.patterns,
            self.reading,
            self.waits,
            self.payments,
            self.notes,
            self.dealer_tai,
            self.winner,
            self.unit,
            self.error_key,
            self.error_params,
            self.short_of_minimum,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ScoreResult):
            return NotImplemented
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # equal results may differ in identity

    @property
    def groups(self) -> tuple[str, ...]:
        return tuple(str(group) for group in self.reading.groups) if self.reading else ()

    def transfers(self) -> list[tuple[Wind, Wind, Fraction]]:
        """(payer, payee, amount): every payer pays the winner."""
        if self.winner is None:
            return []
        return [
            (seat, self.winner, -amount)
            for seat, amount in self.payments.items()
            if amount < 0 and seat is not self.winner
        ]

    def to_json(self) -> dict[str, Any]:
        # Built in one pass, straight into the dicts and lists the contract has (no tuples of
        # `groups` and `transfers()` made first): a result is made into JSON on every scoring
        # request (docs/performance.md, the HTTP section). tests/test_http_speed_bodies.py
        # holds the former build and compares their bytes.
        if not self.valid:
            data: dict[str, Any] = {"valid": self.valid, "profile": self.profile}
            data["error"] = self.error
            if self.error_key is not None:
                data["error_key"] = self.error_key
                data["error_params"] = dict(self.error_params or {})
            if self.waits:
                data["waits"] = [_MPSZ[tile] for tile in self.waits]
            return data
        reading = self.reading
        payments = self.payments
        data = {
            "valid": self.valid,
            "profile": self.profile,
            "tai": self.tai,
            "unit": self.unit,
            "raw_tai": self.raw_tai,
            "meets_minimum": self.meets_minimum,
            "patterns": [_pattern_json(score) for score in self.patterns],
            "groups": [group.text for group in reading.groups] if reading is not None else [],
            "waits": [_MPSZ[tile] for tile in self.waits],
            "payments": {text: amount_json(payments[wind]) for wind, text in _WIND_TEXT.items()},
            "notes": list(self.notes),
        }
        if reading is not None:
            data["winning_group"] = reading.groups[reading.winning_index].text
            data["wait"] = reading.role.value
        if self.dealer_tai is not None:
            data["dealer_tai"] = self.dealer_tai
        short = self.short_of_minimum
        if short is not None:
            data["short_of_minimum"] = short.to_json()
        winner = self.winner
        if winner is not None:
            to = _WIND_TEXT[winner]
            data["winner"] = to
            # `transfers()`, written straight: every seat that pays, what it pays the winner.
            transfers = []
            for seat, amount in payments.items():
                # A Fraction's sign is its numerator's; -n/d is exactly what float(-amount) is.
                numerator = amount.numerator
                if numerator < 0 and seat is not winner:
                    denominator = amount.denominator
                    paid = -numerator if denominator == 1 else -numerator / denominator
                    transfers.append({"from": _WIND_TEXT[seat], "to": to, "amount": paid})
            data["transfers"] = transfers
        return data


def _pattern_json(score: PatternScore) -> dict[str, Any]:
    """`score.to_json()`, its tiles' text written straight into the list (no tuple first)."""
    data: dict[str, Any] = {
        "id": score.id,
        "name": score.name,
        "tai": score.tai,
        "count": score.count,
        "earned_by": [str(item) for item in score.items],
    }
    if score.variant is not None:
        data["variant"] = score.variant
    return data


@dataclass(frozen=True)
class MultiResult:
    """Several winners on one discard, each settled on its own; `payments` sums them."""

    valid: bool
    profile: str
    discarder: Wind
    results: tuple[ScoreResult, ...]
    payments: Mapping[Wind, Fraction] = field(default_factory=dict)
    error: str | None = None

    def transfers(self) -> list[tuple[Wind, Wind, Fraction]]:
        return [transfer for result in self.results for transfer in result.transfers()]

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "valid": self.valid,
            "profile": self.profile,
            "discarder": self.discarder.value,
        }
        if not self.valid:
            data["error"] = self.error
        else:
            data["payments"] = {wind.value: amount_json(self.payments[wind]) for wind in Wind}
            data["transfers"] = [
                {"from": payer.value, "to": payee.value, "amount": amount_json(amount)}
                for payer, payee, amount in self.transfers()
            ]
        data["winners"] = [result.to_json() for result in self.results]
        return data

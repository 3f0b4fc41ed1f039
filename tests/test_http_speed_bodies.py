"""The faster build of a scoring response against the former one, byte for byte.

`ScoreResult.to_json` is built in one pass and `amount_json` reads a Fraction's numerator and
denominator itself (docs/performance.md, the HTTP section). The former build is kept here, as it
was, and both are compared on many seeded requests of every profile (wins, refusals, hands one
tile short, flower wins): the bytes `json.dumps` writes (key order, integers against floats)
and the bytes the API sends (`encode_json`).

`COMPANION_BODY_HANDS` (default 1,500 a profile) sets how many.
"""

from __future__ import annotations

import json
import os
import random
from fractions import Fraction
from typing import Any

import pytest

from companion.api.scoring import encode_json
from companion.errors import CompanionError
from companion.result import ScoreResult
from companion.rules import get_profile
from companion.scoring import score, score_several
from companion.settlement import amount_json
from companion.tiles import Wind
from test_seeded_hands import PROFILES, random_request

BODY_HANDS = int(os.environ.get("COMPANION_BODY_HANDS", "1500"))


def former_amount_json(amount: Fraction) -> int | float:
    if amount.denominator == 1:
        return int(amount)
    return float(amount)


def former_to_json(result: ScoreResult) -> dict[str, Any]:
    """`ScoreResult.to_json` as it was before the one-pass build."""
    data: dict[str, Any] = {"valid": result.valid, "profile": result.profile}
    if not result.valid:
        data["error"] = result.error
        if result.error_key is not None:  # added with the refusals' keys (issue 23)
            data["error_key"] = result.error_key
            data["error_params"] = dict(result.error_params or {})
        if result.waits:
            data["waits"] = [tile.mpsz for tile in result.waits]
        return data
    data.update(
        tai=result.tai,
        unit=result.unit,
        raw_tai=result.raw_tai,
        meets_minimum=result.meets_minimum,
        patterns=[pattern.to_json() for pattern in result.patterns],
        groups=list(result.groups),
        waits=[tile.mpsz for tile in result.waits],
        payments={wind.value: former_amount_json(result.payments[wind]) for wind in Wind},
        notes=list(result.notes),
    )
    if result.reading is not None:
        data["winning_group"] = str(result.reading.winning_group)
        data["wait"] = result.reading.role.value
    if result.dealer_tai is not None:
        data["dealer_tai"] = result.dealer_tai
    if result.short_of_minimum is not None:  # added with the minimum's note (issue 23)
        data["short_of_minimum"] = result.short_of_minimum.to_json()
    if result.winner is not None:
        data["winner"] = result.winner.value
        data["transfers"] = [
            {"from": payer.value, "to": payee.value, "amount": former_amount_json(amount)}
            for payer, payee, amount in result.transfers()
        ]
    return data


def _dumped(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


@pytest.mark.parametrize("profile", PROFILES)
def test_results_are_written_as_before(profile: str) -> None:
    rng = random.Random(f"http-bodies-{profile}")
    kinds = {"valid": 0, "refused": 0, "one short": 0}
    for _ in range(BODY_HANDS):
        request = random_request(rng, profile)
        try:
            # Two results of one request: each build reads a fresh one (the waits and the
            # tiles behind each pattern are found on first access).
            new, old = score(request), score(request)
        except CompanionError:
            continue
        ours = new.to_json()
        theirs = former_to_json(old)
        assert _dumped(ours) == _dumped(theirs), request
        assert encode_json(ours) == encode_json(theirs), request
        kinds["valid" if new.valid else "one short" if new.waits else "refused"] += 1
    assert min(kinds.values()) > 0, kinds


def _winner(rng: random.Random, profile: str, seat: str) -> dict[str, Any]:
    """A seeded request that wins on North's discard from `seat` (most random ones do not)."""
    while True:
        request = random_request(rng, profile)
        request.update(win="discard", discarder="N", events=[], seat=seat)
        request.pop("flower_win", None)
        try:
            if score(request).valid:
                return request
        except CompanionError:
            pass


@pytest.mark.parametrize(
    "profile", [profile for profile in PROFILES if get_profile(profile).several_winners]
)
def test_several_winners_are_written_as_before(profile: str) -> None:
    rng = random.Random(f"http-bodies-several-{profile}")
    written = 0
    for _ in range(BODY_HANDS // 5):
        first, second = _winner(rng, profile, "E"), _winner(rng, profile, "S")
        second["options"] = first["options"]
        for name in ("dealer", "dealer_streak", "round", "table_discards"):
            second.pop(name, None)
            if name in first:
                second[name] = first[name]
        try:
            result = score_several([first, second])
        except CompanionError:
            continue
        data = result.to_json()
        former = dict(data)
        if result.valid:
            former["payments"] = {
                wind.value: former_amount_json(result.payments[wind]) for wind in Wind
            }
            former["transfers"] = [
                {"from": payer.value, "to": payee.value, "amount": former_amount_json(amount)}
                for payer, payee, amount in result.transfers()
            ]
        former["winners"] = [former_to_json(winner) for winner in result.results]
        assert _dumped(data) == _dumped(former), (first, second)
        written += result.valid
    assert written > 0


AMOUNTS = [
    *(Fraction(n) for n in (0, 1, -1, 16, -16, 2**53, -(2**53), 2**70, -(2**70))),
    *(Fraction(n, d) for n in (1, -1, 3, -3, 7, 1001, -(2**60) - 1) for d in (2, 3, 4, 10, 96)),
    Fraction(True),
    Fraction(2**80 + 1, 3),
]


@pytest.mark.parametrize("amount", AMOUNTS, ids=str)
def test_amounts_are_written_as_before(amount: Fraction) -> None:
    for value in (amount, -amount):
        ours, theirs = amount_json(value), former_amount_json(value)
        assert type(ours) is type(theirs)
        assert _dumped(ours) == _dumped(theirs)

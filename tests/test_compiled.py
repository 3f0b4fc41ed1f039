"""The compiled pattern table: what the feature bits decide (counts and variants), and the
memoised outcome of `CompiledTable.evaluated` against the table worked out on each reading."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.errors import CompanionError
from companion.request import parse_request
from companion.rules import get_profile, predicates
from companion.rules.compiled import CompiledTable, compiled
from companion.rules.facts import Facts, HandFacts
from companion.rules.features import Feature
from companion.rules.patterns import Match, Pattern, needs
from companion.scoring import build_hand, score_json
from companion.shapes import readings
from shared_profiles import SHARED
from test_seeded_hands import random_request

PROFILES = tuple(SHARED)

OVERRIDES = {
    "sg": ("valued_wind", "valued_wind.seat", "dragon_set", "little_ping_hu"),
    "sg-table": ("valued_wind", "valued_wind.round", "big_winds", "animal_set"),
    "tw": ("pure_straight", "pure_straight.concealed", "pair_wait", "little_three_winds"),
    "hk": ("seat_wind", "prevailing_wind", "seven_flowers", "big_dragons"),
}
"""Tai overrides the seeded requests may set, on the patterns the bits now decide or that
carry variants."""


def _seeded(profile_id: str, count: int) -> list[dict[str, Any]]:
    rng = random.Random(f"compiled-{profile_id}")
    requests = []
    for _ in range(count):
        request = random_request(rng, profile_id)
        if rng.random() < 0.3:
            options = request.setdefault("options", {})
            options["tai_overrides"] = {rng.choice(OVERRIDES[profile_id]): rng.randrange(0, 4)}
        requests.append(request)
    return requests


def _json(scores: Any) -> list[dict[str, Any]]:
    return [score.to_json() for score in scores]


@pytest.mark.parametrize("profile_id", PROFILES)
def test_evaluated_is_the_table_worked_out_on_the_reading(profile_id: str) -> None:
    """On every reading, from no first match and from `first_match`'s, twice (the second
    looked up): the same scores, total and settling ids and tai as `_evaluate_now`."""
    checked = 0
    for data in _seeded(profile_id, 1500):
        request = parse_request(data)
        if request.flower_win is not None:
            continue
        profile = get_profile(request.profile)
        try:
            options = profile.parse_options(request.options)
            hand = build_hand(profile, request, options)
        except CompanionError:
            continue
        context, overrides = request.context, options.tai_overrides
        table = profile.table_for(options)
        shared = HandFacts(hand, context)
        for reading in readings(hand, profile.structure_for(options), discard=context.by_discard):
            facts = Facts(hand, reading, context, (), options, shared)
            features = facts.features
            expected = table._evaluate_now(facts, features, overrides)
            open_, _ = table.decided_outcome(features, overrides)
            for first in (None, CompiledTable.first_match(facts, open_)):
                for _ in range(2):
                    found = table.evaluated(facts, features, overrides, first)
                    assert _json(found.scores(facts)) == _json(expected), data
                    assert found.raw == sum(score.tai for score in expected)
                    assert [(s.id, s.tai) for s in found.settling] == [
                        (s.id, s.tai) for s in expected
                    ]
                    assert _json(table.evaluate(facts, features, overrides, first)) == _json(
                        expected
                    )
            checked += 1
    assert checked >= 500


@pytest.mark.parametrize("profile_id", PROFILES)
def test_decided_claims_hold_with_overrides(profile_id: str) -> None:
    checked = 0
    for data in _seeded(profile_id, 1500):
        request = parse_request(data)
        if request.flower_win is not None:
            continue
        profile = get_profile(request.profile)
        try:
            options = profile.parse_options(request.options)
            hand = build_hand(profile, request, options)
        except CompanionError:
            continue
        table = profile.table_for(options)
        shared = HandFacts(hand, request.context)
        structure = profile.structure_for(options)
        for reading in readings(hand, structure, discard=request.context.by_discard):
            facts = Facts(hand, reading, request.context, (), options, shared)
            assert table.check_decided(facts, facts.features) == [], data
            checked += 1
    assert checked >= 500


@pytest.mark.parametrize(
    ("seat", "round_wind", "expected"),
    [
        ("E", "E", {"tai": 2, "count": 2, "earned_by": ["111z", "111z"]}),
        ("E", "S", {"tai": 2, "count": 2, "earned_by": ["111z", "222z"]}),
        ("S", "W", {"tai": 1, "count": 1, "earned_by": ["222z"], "variant": "seat"}),
        ("W", "S", {"tai": 1, "count": 1, "earned_by": ["222z"], "variant": "round"}),
    ],
)
def test_valued_wind_variants_are_decided_by_the_bits(
    seat: str, round_wind: str, expected: dict[str, Any]
) -> None:
    hand = {"profile": "sg", "hand": "111z222z234m567p55m", "win_tile": "5m"}
    result = score_json({**hand, "seat": seat, "round": round_wind})
    (valued,) = [pattern for pattern in result["patterns"] if pattern["id"] == "valued_wind"]
    assert valued == {"id": "valued_wind", "name": "Valued wind set", **expected}


def test_a_decided_variant_takes_its_override() -> None:
    request = {"profile": "sg", "hand": "111z222z234m567p55m", "win_tile": "5m"}
    result = score_json({**request, "seat": "S", "round": "W", "options": {"tai_overrides": {}}})
    overridden = score_json(
        {**request, "seat": "S", "round": "W", "options": {"tai_overrides": {"valued_wind": 3}}}
    )
    tai = {p["id"]: p["tai"] for p in result["patterns"]}
    overridden_tai = {p["id"]: p["tai"] for p in overridden["patterns"]}
    assert tai["valued_wind"] == 1
    assert overridden_tai["valued_wind"] == 3


def test_variants_are_declared_with_decided_and_instead_of_count() -> None:
    def variants(features: int) -> tuple[str | None, ...]:
        return ("seat",)

    def predicate(facts: Facts) -> tuple[Match, ...]:
        return ()

    with pytest.raises(ValueError, match="variants"):
        needs(1, variants=variants)(predicate)
    with pytest.raises(ValueError, match="variants"):
        needs(1, decided=True, count=len, variants=variants)


@pytest.mark.parametrize("concealed_first", [True, False])
def test_an_open_matchs_variant_is_part_of_the_memo_key(concealed_first: bool) -> None:
    """Two tw hands with the same feature bits, one with its straight's chows concealed and
    one with one of them declared: each keeps its own Pure straight, in either order."""
    concealed = {"hand": "123m456m789m234p9p9p", "melds": ["chow 567s"], "win_tile": "9p"}
    declared = {"hand": "456m789m234p567s9p9p", "melds": ["chow 123m"], "win_tile": "9p"}
    expected = {
        "concealed": {"tai": 10, "variant": "concealed"},
        "declared": {"tai": 5},
    }
    order = ["concealed", "declared"] if concealed_first else ["declared", "concealed"]
    requests = {"concealed": concealed, "declared": declared}
    for name in order:
        result = score_json({"profile": "tw", "seat": "S", "round": "E", **requests[name]})
        assert result["valid"], result
        (straight,) = [p for p in result["patterns"] if p["id"] == "pure_straight"]
        assert {key: straight[key] for key in ("tai", "variant") if key in straight} == (
            expected[name]
        )


def test_check_decided_finds_a_wrong_variant() -> None:
    """A predicate that claims its matches are seat winds where the reading's is a round wind."""

    @needs(
        Feature.SEAT_WIND_PUNG,
        Feature.ROUND_WIND_PUNG,
        decided=True,
        variants=lambda features: ("seat",),
    )
    def valued_wind_claimed_seat(facts: Facts) -> tuple[Match, ...]:
        return tuple(predicates.valued_wind_pungs(facts))

    table = compiled((Pattern("valued_wind", "Valued wind set", 1, valued_wind_claimed_seat),))
    request = parse_request(
        {"profile": "sg", "hand": "111z222z234m567p55m", "win_tile": "5m", "seat": "W"}
    )
    profile = get_profile("sg")
    options = profile.parse_options({})
    hand = build_hand(profile, request, options)
    (reading,) = readings(hand, profile.structure, discard=False)
    facts = Facts(hand, reading, request.context, (), options)
    assert facts.features & Feature.ROUND_WIND_PUNG  # the round (East) is the 111z pung
    (wrong,) = table.check_decided(facts, facts.features)
    assert "variants ['seat']" in wrong and "['round']" in wrong

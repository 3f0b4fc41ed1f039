"""The riichi scorer's table by features (`rules/riichi/table.py`) against the yaku's own
predicates: on every reading of seeded hands (the differential test's drawing, every table it
plays), each decided yaku matches as its feature bits say, and every reading scores exactly as
when every predicate runs. Also the memos: a cold scorer and a warm one give the same results."""

from __future__ import annotations

from typing import Any

import pytest

from companion.errors import NotAWinError
from companion.rules.patterns import is_decided, needs_of
from companion.rules.riichi import (
    engine,
    features,
    read_options,
    read_riichi_request,
    score_riichi,
    score_riichi_request,
    table,
    yaku,
)
from companion.rules.riichi.facts import RiichiFacts
from companion.rules.riichi.request import RiichiRequest
from companion.shapes import Reading
from companion.shapes.arrange import candidates
from companion.shapes.blocks import block_keys, keys_with_melds
from test_riichi_differential import TABLES, hands

HANDS = 400
"""Hands drawn per table (about 1.2 readings each)."""


def requests(table_options: dict[str, Any], count: int) -> list[RiichiRequest]:
    found = []
    for drawn in hands(table_options, count):
        fields = {**drawn.fields, "options": table_options}
        found.append(read_riichi_request(fields.pop("hand"), **fields))
    return found


def reading_features(request: RiichiRequest) -> list[tuple[RiichiFacts, int]]:
    """Each reading's facts and features, as the scorer works them out."""
    built, context = request.hand, request.context
    keys = block_keys(built.concealed)
    closed = all(meld.kind.value == "ckong" for meld in built.melds)
    shared = features.context_features(context) | features.hand_features(
        keys_with_melds(keys, built.melds), closed, bool(built.melds), built.winning_tile or 0
    )
    found = []
    for shape, groups, index, role, counts in candidates(
        built, engine.STRUCTURE, discard=context.by_discard, keys=keys
    ):
        facts = RiichiFacts(built, Reading(shape, groups, index, role), context)
        bits = shared | features.reading_features(
            shape, groups, counts, role, context.seat.tile, context.round.tile
        )
        found.append((facts, bits))
    return found


def names(bits: int) -> list[str]:
    return [name for name, bit in features.BIT.items() if bits & bit]


@pytest.mark.parametrize("options", TABLES, ids=lambda table: "-".join(map(str, table.values())))
def test_decided_yaku_match_as_their_bits_say(options: dict[str, Any]) -> None:
    patterns = yaku.patterns_of(read_options(options))
    problems: list[str] = []
    readings = 0
    for request in requests(options, HANDS):
        for facts, bits in reading_features(request):
            readings += 1
            for pattern in patterns:
                predicate = pattern.predicate
                (need,) = needs_of(predicate)
                matches = tuple(predicate(facts))  # type: ignore[arg-type]
                if bits & need != need:
                    if matches:
                        problems.append(f"{pattern.id} matched {facts.reading}: {names(bits)}")
                elif is_decided(predicate):
                    claimed = table.decided_matches(pattern, bits)
                    if [m.variant for m in matches] != [m.variant for m in claimed]:
                        problems.append(
                            f"{pattern.id} on {facts.reading}: {matches} != {claimed}, "
                            f"{names(bits)}"
                        )
    assert readings > HANDS
    assert problems[:5] == []


@pytest.mark.parametrize("options", TABLES, ids=lambda table: "-".join(map(str, table.values())))
def test_every_reading_scores_as_by_its_predicates(options: dict[str, Any]) -> None:
    engine.clear_memos()
    differ = []
    for request in requests(options, HANDS):
        fast = engine.scored_readings(request)
        slow = engine.scored_readings(request, by_predicates=True)
        if fast != slow:
            differ.append((request, fast, slow))
    assert differ[:3] == []


def outcome(fields: dict[str, Any]) -> object:
    try:
        return score_riichi(**fields)
    except NotAWinError as refusal:
        return refusal.message


def test_cold_and_warm_scorers_agree() -> None:
    options = {"preset": "tenhou"}
    drawn = [{**one.fields, "options": options} for one in hands(options, 300)]
    engine.clear_memos()
    cold = [outcome(fields) for fields in drawn]
    warm = [outcome(fields) for fields in drawn]
    assert warm == cold
    requests_ = [read_riichi_request(**fields) for fields in drawn]
    parsed = []
    for request in requests_:
        try:
            parsed.append(score_riichi_request(request))
        except NotAWinError as refusal:
            parsed.append(refusal.message)  # type: ignore[arg-type]
    assert parsed == warm


def test_the_feature_bits_are_distinct_and_named() -> None:
    bits = list(features.BIT.values())
    # One name a bit, the bits in the order declared, none left without a name.
    assert bits == [1 << place for place in range(features.DRAGON_SHIFT)]
    assert all(bit & features.EVERY == bit for bit in bits)
    assert features.dragon_pungs(features.EVERY) == 3
    every_need = 0
    for pattern in (*yaku.YAKU, *yaku.YAKUMAN, *yaku.OPTIONAL_PATTERNS):
        every_need |= needs_of(pattern.predicate)[0]
    # Every bit is read by some yaku's needs: a bit none reads would only split the memos.
    assert every_need == sum(bits)

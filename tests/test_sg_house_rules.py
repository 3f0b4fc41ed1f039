"""sg's house rules: options a table turns on that change its shapes or its pattern table, and
that sg-table, which shares sg's patterns and options, does not get."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from companion.errors import InvalidRequestError
from companion.rules import profiles
from companion.scoring import ScoreResult, score
from companion.web import i18n
from results import paid, pays, tai_of

SEVEN_PAIRS = "11m33m55m77m99m11p33p"
"""Seven pairs of seven kinds, won on 3p."""
HOUSE_RULE = {"seven_pairs": True}


def sg(hand: str, **fields: Any) -> ScoreResult:
    return score({"profile": "sg", "hand": hand, **fields})


def test_seven_pairs_is_a_win_worth_3_tai_with_the_option() -> None:
    result = sg(SEVEN_PAIRS, win_tile="3p", win="discard", discarder="S", options=HOUSE_RULE)
    assert result.valid and tai_of(result) == {"seven_pairs": 3}
    # 3 tai with a one-tai share of 1: one share is 4, the discarder pays two.
    assert paid(result) == pays(E=16, S=-8, W=-4, N=-4)
    self_drawn = sg(SEVEN_PAIRS, win_tile="3p", options=HOUSE_RULE)
    assert tai_of(self_drawn) == {"seven_pairs": 3, "fully_concealed": 1}


def test_seven_pairs_adds_to_the_flushes_and_is_capped() -> None:
    result = sg("11m22m33m44m55m66m77z", win_tile="7z", options=HOUSE_RULE)
    assert tai_of(result) == {"seven_pairs": 3, "half_flush": 2, "fully_concealed": 1}
    assert result.raw_tai == 6 and result.tai == 5


def test_without_the_option_seven_pairs_is_not_a_win() -> None:
    refused = sg(SEVEN_PAIRS, win_tile="3p")
    assert not refused.valid and "is not a winning hand" in str(refused.error)
    only_with = (
        'option tai_overrides: "seven_pairs" is a pattern of this profile only when option '
        "seven_pairs is true"
    )
    with pytest.raises(InvalidRequestError, match=only_with):
        sg(SEVEN_PAIRS, win_tile="3p", options={"tai_overrides": {"seven_pairs": 2}})
    house_value = {**HOUSE_RULE, "tai_overrides": {"seven_pairs": 2}}
    assert tai_of(
        sg(SEVEN_PAIRS, win_tile="3p", win="discard", discarder="S", options=house_value)
    ) == {"seven_pairs": 2}


def test_sg_table_has_not_the_option() -> None:
    request = {"profile": "sg-table", "hand": SEVEN_PAIRS, "win_tile": "3p", "options": HOUSE_RULE}
    with pytest.raises(InvalidRequestError, match='unknown option "seven_pairs"'):
        score(request)
    sg_table = profiles()["sg-table"]
    assert "seven_pairs" not in sg_table.pattern_ids_for(sg_table.parse_options({}))
    assert not sg_table.structure_for(sg_table.parse_options({})).seven_pairs


def test_the_calculator_offers_it_to_sg_alone_with_the_pattern_s_value(
    client: TestClient,
) -> None:
    offered = {
        profile["id"]: {option["name"]: option for option in profile["options"]}
        for profile in client.get("/api/profiles").json()
    }
    assert offered["sg"]["seven_pairs"] == {
        "name": "seven_pairs",
        "type": "bool",
        "default": False,
        "pattern": "seven_pairs",
        "value": 3,
    }
    assert "seven_pairs" not in offered["sg-table"]
    # The label takes the value from the pattern: 3 tai here, 4 faan in hk.
    label = i18n.Translator("en").option_label("sg", offered["sg"]["seven_pairs"])
    assert label == "Seven pairs is a win (3 tai)"

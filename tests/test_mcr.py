"""The mcr engine (not yet a registered profile): every fan at least once, each principle, the
minimum, flowers, the settlement, the waits, and every refusal, with exact values and messages.

The hands of `EVERY_FAN` were checked against PyMahjongGB when they were written (and
tests/test_mcr_differential.py compares thousands more)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.errors import CompanionError, InvalidRequestError, NotAWinError
from companion.rules.mcr import BY_ID, FANS, FLOWER, MINIMUM, mcr_waits, score_mcr
from companion.rules.principles import Element, apply_principles
from companion.tiles import Wind

EVERY_FAN: list[tuple[dict[str, Any], dict[str, int], int]] = [
    (
        {"hand": "111222333444z55m", "win_tile": "5m"},
        {
            "big_four_winds": 1,
            "four_concealed_pungs": 1,
            "half_flush": 1,
            "single_wait": 1,
            "self_drawn": 1,
        },
        160,
    ),
    (
        {"hand": "555666777z123m99p", "win_tile": "9p", "win": "discard", "discarder": "S"},
        {
            "big_three_dragons": 1,
            "three_concealed_pungs": 1,
            "outside_hand": 1,
            "concealed_hand": 1,
            "one_voided_suit": 1,
            "single_wait": 1,
        },
        112,
    ),
    (
        {"hand": "223344666888s66z", "win_tile": "6z", "win": "discard", "discarder": "W"},
        {
            "all_green": 1,
            "concealed_hand": 1,
            "two_concealed_pungs": 1,
            "pure_double_chow": 1,
            "single_wait": 1,
        },
        94,
    ),
    (
        {"hand": "1112345678999m5m"},
        {
            "nine_gates": 1,
            "two_concealed_pungs": 1,
            "pung_of_terminals_or_honors": 1,
            "self_drawn": 1,
        },
        92,
    ),
    (
        {
            "hand": "55z",
            "melds": ["kong 1111m", "kong 2222p", "ckong 3333s", "kong 4444z"],
            "win": "discard",
            "discarder": "N",
        },
        {
            "four_kongs": 1,
            "mixed_shifted_pungs": 1,
            "all_types": 1,
            "pung_of_terminals_or_honors": 2,
        },
        104,
    ),
    (
        {"hand": "11223344556677p", "win_tile": "4p"},
        {"seven_shifted_pairs": 1, "self_drawn": 1},
        89,
    ),
    (
        {
            "hand": "19m19p19s12345677z",
            "win_tile": "7z",
            "win": "discard",
            "discarder": "E",
            "seat": "S",
        },
        {"thirteen_orphans": 1},
        88,
    ),
    (
        {"hand": "111999m111999p11s", "win_tile": "1s", "win": "discard", "discarder": "S"},
        {"all_terminals": 1, "four_concealed_pungs": 1, "single_wait": 1},
        129,
    ),
    (
        {"hand": "111222333z44z789p", "win_tile": "9p", "seat": "W", "round": "S"},
        {
            "little_four_winds": 1,
            "three_concealed_pungs": 1,
            "half_flush": 1,
            "outside_hand": 1,
            "fully_concealed_hand": 1,
            "prevalent_wind": 1,
            "seat_wind": 1,
        },
        98,
    ),
    (
        {
            "hand": "555666z77z123456m",
            "win_tile": "6m",
            "win": "discard",
            "discarder": "E",
            "seat": "N",
        },
        {
            "little_three_dragons": 1,
            "half_flush": 1,
            "concealed_hand": 1,
            "two_concealed_pungs": 1,
            "short_straight": 1,
        },
        75,
    ),
    (
        {
            "hand": "111222555666z77z",
            "win_tile": "7z",
            "win": "discard",
            "discarder": "N",
            "seat": "W",
            "round": "W",
        },
        {"little_three_dragons": 1, "all_honors": 1, "four_concealed_pungs": 1, "single_wait": 1},
        193,
    ),
    (
        {"hand": "111m333p555s777m99s", "win_tile": "9s"},
        {
            "four_concealed_pungs": 1,
            "pung_of_terminals_or_honors": 1,
            "no_honors": 1,
            "single_wait": 1,
            "self_drawn": 1,
        },
        68,
    ),
    (
        {"hand": "123123789789m55m", "win_tile": "5m", "win": "discard", "discarder": "W"},
        {"pure_terminal_chows": 1, "concealed_hand": 1, "single_wait": 1},
        67,
    ),
    (
        {"hand": "234234234234p99s", "win_tile": "9s"},
        {
            "quadruple_chow": 1,
            "reversible_tiles": 1,
            "fully_concealed_hand": 1,
            "all_chows": 1,
            "single_wait": 1,
        },
        63,
    ),
    (
        {
            "hand": "555666777888s11z",
            "win_tile": "1z",
            "win": "discard",
            "discarder": "E",
            "seat": "S",
            "round": "W",
        },
        {
            "four_concealed_pungs": 1,
            "four_pure_shifted_pungs": 1,
            "half_flush": 1,
            "single_wait": 1,
        },
        119,
    ),
    (
        {"hand": "123234345456m99p", "win_tile": "6m", "win": "discard", "discarder": "N"},
        {"four_pure_shifted_chows": 1, "concealed_hand": 1, "all_chows": 1, "one_voided_suit": 1},
        37,
    ),
    (
        {
            "hand": "123s77z",
            "win_tile": "7z",
            "melds": ["kong 1111m", "kong 5555p", "kong 9999s"],
            "win": "discard",
            "discarder": "S",
        },
        {"three_kongs": 1, "pung_of_terminals_or_honors": 2, "single_wait": 1},
        35,
    ),
    (
        {
            "hand": "111m999p111z555z99s",
            "win_tile": "9s",
            "win": "discard",
            "discarder": "S",
            "seat": "W",
            "round": "N",
        },
        {
            "four_concealed_pungs": 1,
            "all_terminals_and_honors": 1,
            "all_types": 1,
            "dragon_pung": 1,
            "single_wait": 1,
        },
        105,
    ),
    ({"hand": "1133m5577p2244s66z", "win_tile": "6z"}, {"seven_pairs": 1, "self_drawn": 1}, 25),
    (
        {"hand": "147m25p36s1234567z", "win_tile": "7z", "win": "discard", "discarder": "W"},
        {"greater_honors_and_knitted_tiles": 1},
        24,
    ),
    (
        {"hand": "222m444p666s888m88s", "win_tile": "8s", "win": "discard", "discarder": "W"},
        {"four_concealed_pungs": 1, "all_even_pungs": 1},
        88,
    ),
    (
        {"hand": "123123123p456m99s", "win_tile": "6m", "win": "discard", "discarder": "W"},
        {
            "pure_shifted_pungs": 1,
            "three_concealed_pungs": 1,
            "concealed_hand": 1,
            "pung_of_terminals_or_honors": 1,
            "no_honors": 1,
        },
        44,
    ),
    (
        {
            "hand": "444m678p55s",
            "win_tile": "4m",
            "melds": ["pung 222m", "pung 333m"],
            "win": "discard",
            "discarder": "N",
        },
        {"pure_shifted_pungs": 1, "all_simples": 1},
        26,
    ),
    (
        {"hand": "777m888p999s789m77p", "win_tile": "8m", "win": "discard", "discarder": "N"},
        {
            "upper_tiles": 1,
            "three_concealed_pungs": 1,
            "mixed_shifted_pungs": 1,
            "concealed_hand": 1,
            "tile_hog": 1,
            "pung_of_terminals_or_honors": 1,
            "closed_wait": 1,
        },
        54,
    ),
    (
        {"hand": "456m456p456s444m66p", "win_tile": "4m"},
        {"middle_tiles": 1, "mixed_triple_chow": 1, "fully_concealed_hand": 1, "tile_hog": 1},
        38,
    ),
    (
        {"hand": "111m222p333s123m22s", "win_tile": "2m", "win": "discard", "discarder": "N"},
        {
            "lower_tiles": 1,
            "three_concealed_pungs": 1,
            "mixed_shifted_pungs": 1,
            "concealed_hand": 1,
            "tile_hog": 1,
            "pung_of_terminals_or_honors": 1,
            "closed_wait": 1,
        },
        54,
    ),
    (
        {"hand": "123456789p234s55m", "win_tile": "5m", "win": "discard", "discarder": "N"},
        {"pure_straight": 1, "concealed_hand": 1, "all_chows": 1, "single_wait": 1},
        21,
    ),
    (
        {"hand": "123789m123789p55s", "win_tile": "5s"},
        {"three_suited_terminal_chows": 1, "fully_concealed_hand": 1, "single_wait": 1},
        21,
    ),
    (
        {"hand": "123234345m789p55s", "win_tile": "8p", "win": "discard", "discarder": "N"},
        {"pure_shifted_chows": 1, "concealed_hand": 1, "all_chows": 1, "closed_wait": 1},
        21,
    ),
    (
        {"hand": "345m456p555s567m55p", "win_tile": "7m", "win": "discard", "discarder": "N"},
        {"all_fives": 1, "concealed_hand": 1},
        18,
    ),
    (
        {"hand": "222m222p222s789m55z", "win_tile": "9m", "win": "discard", "discarder": "N"},
        {"triple_pung": 1, "three_concealed_pungs": 1, "concealed_hand": 1},
        34,
    ),
    (
        {"hand": "111m333p555s789m77z", "win_tile": "8m", "win": "discard", "discarder": "N"},
        {
            "three_concealed_pungs": 1,
            "concealed_hand": 1,
            "pung_of_terminals_or_honors": 1,
            "closed_wait": 1,
        },
        20,
    ),
    (
        {"hand": "147m258p36s123456z", "win_tile": "6z"},
        {"lesser_honors_and_knitted_tiles": 1, "self_drawn": 1},
        13,
    ),
    (
        {"hand": "147m258p369s12345z", "win_tile": "5z", "win": "discard", "discarder": "S"},
        {"lesser_honors_and_knitted_tiles": 1, "knitted_straight": 1},
        24,
    ),
    (
        {"hand": "147m258p369s123m55p", "win_tile": "3m", "win": "discard", "discarder": "S"},
        {"knitted_straight": 1, "concealed_hand": 1, "all_chows": 1, "edge_wait": 1},
        17,
    ),
    (
        {"hand": "666m777p888s678m99p", "win_tile": "9p", "win": "discard", "discarder": "S"},
        {
            "three_concealed_pungs": 1,
            "upper_four": 1,
            "mixed_shifted_pungs": 1,
            "concealed_hand": 1,
            "tile_hog": 1,
        },
        40,
    ),
    (
        {"hand": "111m222p333s234m44p", "win_tile": "3m", "win": "discard", "discarder": "S"},
        {
            "three_concealed_pungs": 1,
            "lower_four": 1,
            "mixed_shifted_pungs": 1,
            "concealed_hand": 1,
            "pung_of_terminals_or_honors": 1,
            "closed_wait": 1,
        },
        40,
    ),
    (
        {
            "hand": "111222333z123m99p",
            "win_tile": "3m",
            "win": "discard",
            "discarder": "S",
            "seat": "N",
            "round": "N",
        },
        {
            "three_concealed_pungs": 1,
            "big_three_winds": 1,
            "outside_hand": 1,
            "concealed_hand": 1,
            "one_voided_suit": 1,
            "edge_wait": 1,
        },
        36,
    ),
    (
        {
            "hand": "123m456p789s111z55z",
            "win_tile": "5z",
            "win": "discard",
            "discarder": "S",
            "seat": "N",
            "round": "N",
        },
        {
            "mixed_straight": 1,
            "all_types": 1,
            "concealed_hand": 1,
            "pung_of_terminals_or_honors": 1,
            "single_wait": 1,
        },
        18,
    ),
    (
        {"hand": "123p456p888p999s55z", "win_tile": "5p", "win": "discard", "discarder": "S"},
        {
            "concealed_hand": 1,
            "two_concealed_pungs": 1,
            "short_straight": 1,
            "pung_of_terminals_or_honors": 1,
            "one_voided_suit": 1,
            "closed_wait": 1,
        },
        8,
    ),
    (
        {"hand": "123m123p123s777z55z", "win_tile": "5z", "win": "discard", "discarder": "S"},
        {
            "mixed_triple_chow": 1,
            "outside_hand": 1,
            "dragon_pung": 1,
            "concealed_hand": 1,
            "single_wait": 1,
        },
        17,
    ),
    (
        {"hand": "111m222p333s789m55z", "win_tile": "9m", "win": "discard", "discarder": "S"},
        {
            "three_concealed_pungs": 1,
            "mixed_shifted_pungs": 1,
            "concealed_hand": 1,
            "pung_of_terminals_or_honors": 1,
        },
        27,
    ),
    (
        {
            "hand": "456s11z",
            "win_tile": "6s",
            "melds": ["chow 234m", "chow 678p", "pung 888s"],
            "win": "discard",
            "discarder": "W",
            "seat": "S",
            "round": "S",
        },
        {"chicken_hand": 1},
        8,
    ),
    (
        {
            "hand": "123m456p789s11z",
            "win_tile": "6p",
            "melds": ["pung 777z"],
            "events": ["last_tile"],
        },
        {"mixed_straight": 1, "last_tile_draw": 1, "all_types": 1, "dragon_pung": 1},
        24,
    ),
    (
        {
            "hand": "123m456p789s11z",
            "win_tile": "6p",
            "melds": ["pung 777z"],
            "events": ["last_tile"],
            "win": "discard",
            "discarder": "N",
        },
        {"mixed_straight": 1, "last_tile_claim": 1, "all_types": 1, "dragon_pung": 1},
        24,
    ),
    (
        {
            "hand": "123m456p789s11z",
            "win_tile": "6p",
            "melds": ["kong 7777z"],
            "events": ["replacement"],
        },
        {
            "mixed_straight": 1,
            "out_with_replacement_tile": 1,
            "all_types": 1,
            "dragon_pung": 1,
            "melded_kong": 1,
        },
        25,
    ),
    (
        {
            "hand": "123m456p789s11z",
            "win_tile": "6p",
            "melds": ["pung 777z"],
            "events": ["robbing_kong"],
            "win": "discard",
            "discarder": "N",
        },
        {"mixed_straight": 1, "robbing_the_kong": 1, "all_types": 1, "dragon_pung": 1},
        24,
    ),
    (
        {
            "hand": "666s888m55z",
            "win_tile": "8m",
            "melds": ["pung 222m", "pung 444p"],
            "win": "discard",
            "discarder": "N",
        },
        {"all_pungs": 1},
        6,
    ),
    (
        {
            "hand": "123m456m111z999m55z",
            "win_tile": "6m",
            "win": "discard",
            "discarder": "N",
            "seat": "S",
            "round": "S",
        },
        {
            "half_flush": 1,
            "concealed_hand": 1,
            "two_concealed_pungs": 1,
            "short_straight": 1,
            "pung_of_terminals_or_honors": 2,
        },
        13,
    ),
    (
        {"hand": "123m234p345s777z99m", "win_tile": "9m", "win": "discard", "discarder": "N"},
        {"mixed_shifted_chows": 1, "dragon_pung": 1, "concealed_hand": 1, "single_wait": 1},
        11,
    ),
    (
        {
            "hand": "66z",
            "win_tile": "6z",
            "melds": ["chow 123m", "pung 555p", "chow 789s", "pung 222z"],
            "win": "discard",
            "discarder": "E",
            "seat": "N",
        },
        {"all_types": 1, "melded_hand": 1, "pung_of_terminals_or_honors": 1},
        13,
    ),
    (
        {"hand": "123s456s77z", "win_tile": "7z", "melds": ["ckong 1111m", "ckong 5555p"]},
        {
            "two_concealed_kongs": 1,
            "fully_concealed_hand": 1,
            "short_straight": 1,
            "pung_of_terminals_or_honors": 1,
            "single_wait": 1,
        },
        13,
    ),
    (
        {
            "hand": "123s456s77z",
            "win_tile": "7z",
            "melds": ["kong 1111m", "kong 5555p"],
            "win": "discard",
            "discarder": "S",
        },
        {
            "two_melded_kongs": 1,
            "short_straight": 1,
            "pung_of_terminals_or_honors": 1,
            "single_wait": 1,
        },
        7,
    ),
    (
        {
            "hand": "123s456s77z",
            "win_tile": "7z",
            "melds": ["kong 1111m", "ckong 5555p"],
            "win": "discard",
            "discarder": "S",
        },
        {
            "melded_and_concealed_kong": 1,
            "short_straight": 1,
            "pung_of_terminals_or_honors": 1,
            "single_wait": 1,
        },
        8,
    ),
    (
        {
            "hand": "123s456s789m77z",
            "win_tile": "7z",
            "melds": ["ckong 5555p"],
            "win": "discard",
            "discarder": "S",
        },
        {"concealed_hand": 1, "concealed_kong": 1, "short_straight": 1, "single_wait": 1},
        6,
    ),
    (
        {"hand": "555666z123m456p99s", "win_tile": "9s", "win": "discard", "discarder": "S"},
        {"two_dragon_pungs": 1, "concealed_hand": 1, "two_concealed_pungs": 1, "single_wait": 1},
        11,
    ),
    (
        {
            "hand": "123m789p111z999s11p",
            "win_tile": "3m",
            "win": "discard",
            "discarder": "S",
            "seat": "W",
            "round": "W",
        },
        {
            "outside_hand": 1,
            "concealed_hand": 1,
            "two_concealed_pungs": 1,
            "pung_of_terminals_or_honors": 2,
            "edge_wait": 1,
        },
        11,
    ),
    (
        {
            "hand": "123m456p789s11z",
            "win_tile": "6p",
            "melds": ["pung 777z"],
            "events": ["last_copy"],
            "win": "discard",
            "discarder": "S",
        },
        {"mixed_straight": 1, "all_types": 1, "last_copy": 1, "dragon_pung": 1},
        20,
    ),
    (
        {"hand": "123m123m11m456p789s", "win_tile": "6p", "win": "discard", "discarder": "S"},
        {
            "mixed_straight": 1,
            "concealed_hand": 1,
            "all_chows": 1,
            "tile_hog": 1,
            "pure_double_chow": 1,
        },
        15,
    ),
    (
        {
            "hand": "12m345p678s234s55p3m",
            "win_tile": "3m",
            "melds": [],
            "win": "discard",
            "discarder": "S",
        },
        {"mixed_shifted_chows": 1, "concealed_hand": 1, "all_chows": 1, "edge_wait": 1},
        11,
    ),
    (
        {"hand": "234m456p678s55s", "win_tile": "5p", "melds": ["chow 345p"]},
        {"all_chows": 1, "all_simples": 1, "closed_wait": 1, "self_drawn": 1},
        6,
    ),
    (
        {"hand": "123m789m456p456s99p", "win_tile": "2m", "win": "discard", "discarder": "S"},
        {
            "concealed_hand": 1,
            "all_chows": 1,
            "mixed_double_chow": 1,
            "two_terminal_chows": 1,
            "closed_wait": 1,
        },
        7,
    ),
    (
        {
            "hand": "123m456m456s99s",
            "win_tile": "9s",
            "melds": ["chow 789p"],
            "win": "discard",
            "discarder": "S",
        },
        {"mixed_straight": 1, "all_chows": 1, "mixed_double_chow": 1, "single_wait": 1},
        12,
    ),
    (
        {
            "hand": "123m456p789s11z",
            "win_tile": "6p",
            "melds": ["pung 777z"],
            "bonus": "1f5f",
            "options": {"flowers": True},
        },
        {"mixed_straight": 1, "all_types": 1, "dragon_pung": 1, "self_drawn": 1, "flower_tiles": 2},
        19,
    ),
    (
        {
            "hand": "123p456m99s",
            "win_tile": "9s",
            "melds": ["chow 123p", "chow 123p"],
            "win": "discard",
            "discarder": "N",
        },
        {"pure_triple_chow": 1, "all_chows": 1, "single_wait": 1},
        27,
    ),
    (
        {"hand": "222m222p567s789s11z", "win_tile": "5s", "win": "discard", "discarder": "N"},
        {"concealed_hand": 1, "double_pung": 1, "two_concealed_pungs": 1},
        6,
    ),
    (
        {"hand": "123456789m12355m", "win_tile": "5m"},
        {
            "full_flush": 1,
            "pure_straight": 1,
            "fully_concealed_hand": 1,
            "all_chows": 1,
            "pure_double_chow": 1,
            "closed_wait": 1,
        },
        48,
    ),
]
"""(request fields, the fan with their counts, the total with flowers)."""


def fan_of(**fields: Any) -> dict[str, int]:
    return {score.id: score.count for score in score_mcr(**fields).patterns}


@pytest.mark.parametrize(("fields", "expected", "total"), EVERY_FAN)
def test_every_fan(fields: dict[str, Any], expected: dict[str, int], total: int) -> None:
    result = score_mcr(**fields)
    assert {score.id: score.count for score in result.patterns} == expected
    assert result.fan == result.tai == total
    assert result.unit == "fan"
    assert sum(score.fan for score in result.patterns) == total


def test_every_fan_is_drawn_once_at_least() -> None:
    drawn = {name for _, expected, _ in EVERY_FAN for name in expected}
    assert drawn == {fan.id for fan in (*FANS, FLOWER)}
    # The rule book's 81 (the flower among them) and 明暗杠, which the current calculator counts.
    assert len(FANS) + 1 == 82


def test_the_table_holds_the_rule_books_values() -> None:
    values = [fan.value for fan in FANS]
    assert values == sorted(values, reverse=True)
    counts = {value: values.count(value) for value in set(values)}
    assert counts == {
        88: 7,
        64: 6,
        48: 2,
        32: 3,
        24: 9,
        16: 6,
        12: 5,
        8: 9,
        6: 7,
        5: 1,
        4: 4,
        2: 10,
        1: 12,
    }
    assert all(fan.hans and fan.hant and fan.english for fan in FANS)
    assert BY_ID["nine_gates"].hant == "九蓮寶燈"
    for fan in FANS:
        assert set(fan.excludes) | fan.absorbs <= set(BY_ID), fan.id


EARNED_BY_CASES: list[tuple[str, dict[str, Any], dict[str, list[str]]]] = [
    # A fan of sets names its sets; one of the whole hand every group; a wait its group.
    (
        "123m456m789m123p55p",
        {"win": "discard", "discarder": "S"},
        {
            "pure_straight": ["123m", "456m", "789m"],
            "all_chows": ["123m", "456m", "789m", "123p", "55p"],
            "mixed_double_chow": ["123m", "123p"],
            "single_wait": ["55p"],
        },
    ),
    # The winning tile for a fan of the win; the chow for an edge wait.
    (
        "123m456m789p123s77z",
        {"win_tile": "3m", "events": ["last_tile"]},
        {
            "last_tile_draw": ["3m"],
            "edge_wait": ["123m"],
            "mixed_straight": ["456m", "789p", "123s"],
        },
    ),
    (
        "123m456p789s11122z",
        {"win_tile": "2m", "win": "discard", "discarder": "W"},
        {"closed_wait": ["123m"]},
    ),
    # The kongs; the four copies of a tile hog.
    (
        "234m55p",
        {"melds": ["kong 1111z", "ckong 7777z", "pung 999s"], "win_tile": "4m"},
        {
            "melded_and_concealed_kong": ["1111z", "7777z"],
            "dragon_pung": ["7777z"],
            "self_drawn": ["4m"],
        },
    ),
    ("111122m33m456p789s", {"win_tile": "3m"}, {"tile_hog": ["1111m"]}),
    # The pungs and the pair of little four winds; a knitted straight's nine tiles.
    (
        "123m11z",
        {
            "melds": ["pung 222z", "pung 333z", "pung 444z"],
            "win": "discard",
            "discarder": "S",
            "win_tile": "1z",
        },
        {"little_four_winds": ["222z", "333z", "444z", "11z"]},
    ),
    ("147m258p369s11122z", {"win_tile": "9s"}, {"knitted_straight": ["147m258p369s"]}),
    # Each flower.
    (
        "234m345m567p678s55s",
        {"bonus": "1f3f", "options": {"flowers": True}},
        {"flower_tiles": ["1f", "3f"]},
    ),
]


@pytest.mark.parametrize(("hand", "fields", "expected"), EARNED_BY_CASES)
def test_each_fan_names_the_tiles_behind_it(
    hand: str, fields: dict[str, Any], expected: dict[str, list[str]]
) -> None:
    earned = {score.id: list(score.items) for score in score_mcr(hand, **fields).patterns}
    assert {name: earned.get(name) for name in expected} == expected


def test_scores_carry_both_chinese_names() -> None:
    score = score_mcr("19m19p19s12345677z").patterns[0]
    assert score.to_json() == {
        "id": "thirteen_orphans",
        "name": "Thirteen orphans",
        "name_hans": "十三幺",
        "name_hant": "十三么",
        "tai": 88,
        "value": 88,
        "count": 1,
        "earned_by": ["19m19p19s123456z", "77z"],
    }


# The principles.


def test_non_repeat_a_fan_implied_is_not_counted() -> None:
    # All green implies one voided suit; seven pairs a concealed hand.
    assert fan_of(hand="223344666888s66z", win_tile="6z", win="discard", discarder="W") == {
        "all_green": 1,
        "concealed_hand": 1,
        "two_concealed_pungs": 1,
        "pure_double_chow": 1,
        "single_wait": 1,
    }


def test_non_repeat_a_fan_left_out_leaves_nothing_out() -> None:
    # Four concealed pungs leaves out the fully concealed hand, which would leave out the
    # self-draw: the self-draw counts.
    found = fan_of(hand="111m333p555s777m99s", win_tile="9s")
    assert "fully_concealed_hand" not in found
    assert found["self_drawn"] == 1


def test_non_repeat_by_number_nine_gates_leaves_out_one_pung_of_terminals() -> None:
    assert fan_of(hand="1112345678999m5m")["pung_of_terminals_or_honors"] == 1


def test_non_separation_a_straight_is_not_split_into_smaller_combinations() -> None:
    assert fan_of(hand="123456789p234s55m", win_tile="5m") == {
        "pure_straight": 1,
        "fully_concealed_hand": 1,
        "all_chows": 1,
        "single_wait": 1,
    }


def test_non_identical_a_chow_does_not_make_the_same_fan_twice() -> None:
    # 123m 123m 123p: one pure double chow and one mixed double chow, not two mixed.
    found = fan_of(hand="123m123m123p789s55z", win_tile="8s", win="discard", discarder="S")
    assert found["pure_double_chow"] == 1
    assert found["mixed_double_chow"] == 1


def test_account_once_each_set_joins_the_others_once() -> None:
    # 234567s 234567p: two mixed double chows and one short straight, not two of each.
    found = fan_of(hand="234567s234567p11z")
    assert (found["mixed_double_chow"], found["short_straight"]) == (2, 1)


def test_high_versus_low_the_reading_worth_most() -> None:
    # 111 222 333p as pungs (pure shifted pungs, three concealed pungs: 44) rather than as
    # chows (pure triple chow: 28).
    result = score_mcr("123123123p456m99s", win_tile="6m", win="discard", discarder="W")
    assert result.fan == 44
    assert result.groups == ("456m", "111p", "222p", "333p", "99s")


def test_equal_readings_report_the_pure_triple_chow() -> None:
    result = score_mcr("444555666p34599p", win_tile="6p", win="discard", discarder="N")
    assert result.fan == 56
    assert result.groups == ("345p", "456p", "456p", "456p", "99p")


def test_a_wind_pung_is_not_also_a_pung_of_honors() -> None:
    assert fan_of(hand="123m456p789s111z55z", win_tile="5z") == {
        "mixed_straight": 1,
        "all_types": 1,
        "fully_concealed_hand": 1,
        "prevalent_wind": 1,
        "seat_wind": 1,
        "single_wait": 1,
    }


def test_chicken_hand_only_when_nothing_else_scores() -> None:
    fields = {
        "hand": "456s11z",
        "win_tile": "6s",
        "melds": ["chow 234m", "chow 678p", "pung 888s"],
        "win": "discard",
        "discarder": "W",
        "seat": "S",
        "round": "S",
    }
    assert fan_of(**fields) == {"chicken_hand": 1}
    assert fan_of(**{**fields, "win": "self_draw", "discarder": None}) == {"self_drawn": 1}


def test_the_principles_serve_any_table() -> None:
    table = (
        Element("a", 8, excludes={"b": None}),
        Element("b", 4, excludes={"c": None}),
        Element("c", 2),
        Element("twice", 1, combination=True),
        Element("pair", 1, combination=True),
        Element("other_pair", 1, combination=True),
        Element("third_pair", 1, combination=True),
        Element("single", 1),
        Element("set_fan", 2, absorbs=frozenset({"single"})),
        Element("nothing", 5, fallback=True),
    )
    one, two, three = frozenset({0}), frozenset({1}), frozenset({2})
    counted = apply_principles(
        table,
        {
            "a": [frozenset()],
            "b": [frozenset()],
            "c": [frozenset()],
            # Non-identical: one set does not make the same combination twice.
            "twice": [one | two, one | three],
            "single": [one, two],
            "set_fan": [one],
            "nothing": [frozenset()],
        },
    )
    # Non-repeat: a leaves out b, and b, left out, leaves out nothing; set_fan takes its own
    # set's single; the fallback is not needed.
    assert counted == {
        "a": [frozenset()],
        "c": [frozenset()],
        "twice": [one | two],
        "single": [two],
        "set_fan": [one],
    }
    # Account-once: three pairs of three sets close a cycle; two of them are counted.
    assert apply_principles(
        table, {"pair": [one | two], "other_pair": [two | three], "third_pair": [one | three]}
    ) == {"pair": [one | two], "other_pair": [two | three]}
    assert apply_principles(table, {"nothing": [frozenset()]}) == {"nothing": [frozenset()]}


# The minimum, flowers and the settlement.


def test_the_result_in_the_contracts_fields() -> None:
    result = score_mcr(
        "123m456p789s11z",
        win_tile="6p",
        melds=["pung 777z"],
        bonus="1f",
        options={"flowers": True},
        win="discard",
        discarder="N",
    )
    assert result.to_json() == {
        "valid": True,
        "profile": "mcr",
        "unit": "fan",
        "tai": 17,
        "raw_tai": 17,
        "meets_minimum": True,
        "patterns": [
            {
                "id": "mixed_straight",
                "name": "Mixed straight",
                "name_hans": "花龙",
                "name_hant": "花龍",
                "tai": 8,
                "value": 8,
                "count": 1,
                "earned_by": ["123m", "456p", "789s"],
            },
            {
                "id": "all_types",
                "name": "All types",
                "name_hans": "五门齐",
                "name_hant": "五門齊",
                "tai": 6,
                "value": 6,
                "count": 1,
                "earned_by": ["777z", "123m", "456p", "789s", "11z"],
            },
            {
                "id": "dragon_pung",
                "name": "Dragon pung",
                "name_hans": "箭刻",
                "name_hant": "箭刻",
                "tai": 2,
                "value": 2,
                "count": 1,
                "earned_by": ["777z"],
            },
            {
                "id": "flower_tiles",
                "name": "Flower tiles",
                "name_hans": "花牌",
                "name_hant": "花牌",
                "tai": 1,
                "value": 1,
                "count": 1,
                "earned_by": ["1f"],
            },
        ],
        "groups": ["777z", "123m", "456p", "789s", "11z"],
        "payments": {"E": 41, "S": -8, "W": -8, "N": -25},
        "notes": [],
        "winning_group": "456p",
        "wait": "two_sided",
    }


@pytest.mark.parametrize(
    ("hand", "win_tile", "win", "winning_group", "wait"),
    [
        # The group a wait fan names, when the hand waited on that kind alone.
        ("123m456m789m123p55p", "5p", "discard", "55p", "pair"),
        ("123m456m789m123p55s", "2p", "discard", "123p", "closed"),
        ("123m456m789m123p55s", "3p", "self_draw", "123p", "edge"),
        # Else a chow holding the tile, a pung of it, the pair.
        ("123m456m789m234p55s", "4p", "discard", "234p", "two_sided"),
        ("123m456m789m555p11s", "5p", "discard", "555p", "pung"),
        ("123m456m789m555p11s", "5p", "self_draw", "555p", "pung"),
        ("1133557799m11p22s", "2s", "self_draw", "22s", "pair"),
        ("147m258p369s555z11z", "5z", "discard", "555z", "pung"),
        ("147m258p369s555z11z", "1z", "discard", "11z", "pair"),
        # A knitted tile, or a single of thirteen orphans: the knitted or single tiles.
        ("147m258p369s555z11z", "4m", "self_draw", "147m258p369s", "single"),
        ("147m258p3s1234567z", "3s", "self_draw", "147m258p3s1234567z", "single"),
        ("19m19p19s1234567z1m", "7z", "self_draw", "9m19p19s1234567z", "single"),
        ("19m19p19s1234567z1m", "1m", "self_draw", "11m", "pair"),
    ],
)
def test_the_winning_group_and_the_tiles_role_in_it(
    hand: str, win_tile: str, win: str, winning_group: str, wait: str
) -> None:
    discarder = {"discarder": "N"} if win == "discard" else {}
    result = score_mcr(hand, win_tile=win_tile, win=win, **discarder).to_json()
    assert (result["winning_group"], result["wait"]) == (winning_group, wait)
    assert winning_group in result["groups"]


def test_self_draw_pays_eight_and_the_fan_from_each() -> None:
    result = score_mcr("123456789p234s55m", win_tile="5m", seat="S")
    assert result.payments == {Wind.EAST: -31, Wind.SOUTH: 93, Wind.WEST: -31, Wind.NORTH: -31}


def test_a_discard_pays_eight_and_the_fan_the_others_eight() -> None:
    result = score_mcr("444555666p34599p", win_tile="6p", win="discard", discarder="N")
    assert result.payments == {Wind.EAST: 80, Wind.SOUTH: -8, Wind.WEST: -8, Wind.NORTH: -64}
    assert sum(result.payments.values()) == 0


def test_under_the_minimum_nothing_is_paid() -> None:
    result = score_mcr(
        "666s888m55z", win_tile="8m", melds=["pung 222m", "pung 444p"], win="discard", discarder="N"
    )
    assert (result.fan, result.meets_minimum, MINIMUM) == (6, False, 8)
    assert set(result.payments.values()) == {0}


def test_flowers_count_one_fan_each_but_not_toward_the_minimum() -> None:
    fields = {
        "hand": "666s888m55z",
        "win_tile": "8m",
        "melds": ["pung 222m", "pung 444p"],
        "win": "discard",
        "discarder": "N",
        "options": {"flowers": True},
    }
    result = score_mcr(**fields, bonus="1f2f5f")
    assert (result.fan, result.flowers, result.meets_minimum) == (9, 3, False)
    assert result.patterns[-1].id == "flower_tiles"
    result = score_mcr("123456789p234s55m", win_tile="5m", bonus="1f2f", options={"flowers": True})
    assert (result.fan, result.meets_minimum) == (25, True)
    assert result.payments[Wind.EAST] == 3 * (8 + 25)


def test_the_last_copy_is_known_when_the_melds_show_three() -> None:
    found = fan_of(
        hand="456p789s234m11z", win_tile="5p", melds=["pung 555p"], win="discard", discarder="S"
    )
    assert found["last_copy"] == 1


def test_a_kind_held_four_times_is_no_wait() -> None:
    # 1112345679999m waits on 8m alone: the four 9m are in the hand.
    assert fan_of(hand="1112345679999m8m", win="discard", discarder="S")["closed_wait"] == 1
    # 78p waits on 6p alone, the four 9p being a kong: a two-sided wait all the same.
    found = fan_of(
        hand="678p77s",
        win_tile="6p",
        melds=["ckong 9999p", "kong 7777m", "ckong 8888s"],
        win="discard",
        discarder="S",
    )
    assert not {"edge_wait", "closed_wait", "single_wait"} & set(found)


def test_waits_are_scored() -> None:
    waits = mcr_waits("1112345678999m", win="discard", discarder="N")
    assert [wait.tile for wait in waits] == [f"{rank}m" for rank in range(1, 10)]
    assert all(
        wait.result is not None and wait.result.patterns[0].id == "nine_gates" for wait in waits
    )
    assert [wait.tile for wait in mcr_waits("19m19p19s1234567z")] == [
        "1m",
        "9m",
        "1p",
        "9p",
        "1s",
        "9s",
        "1z",
        "2z",
        "3z",
        "4z",
        "5z",
        "6z",
        "7z",
    ]


def test_a_wait_refused_says_why() -> None:
    waits = mcr_waits(
        "123m456p789s1z", melds=["pung 777z"], events=["robbing_kong"], win="discard", discarder="N"
    )
    assert [(wait.tile, wait.refusal, wait.refusal_key, wait.refusal_params) for wait in waits] == [
        (
            "1z",
            "events: robbing_kong (抢杠和): the robbed East (1z) is the fourth copy, so the "
            "winner holds no other",
            "refusal.mcr_robbing_kong_copies",
            {"tile": "1z"},
        ),
    ]


# Refusals.


@pytest.mark.parametrize(
    ("fields", "error", "message"),
    [
        (
            {
                "events": ["replacement"],
                "melds": ["kong 7777z"],
                "win": "discard",
                "discarder": "N",
            },
            NotAWinError,
            'events: replacement (杠上开花) is a self-draw; win must be "self_draw"',
        ),
        (
            {"events": ["replacement"]},
            NotAWinError,
            "events: replacement (杠上开花) without a kong in melds",
        ),
        (
            {"events": ["robbing_kong"]},
            NotAWinError,
            'events: robbing_kong (抢杠和) on a self-draw; win must be "discard"',
        ),
        (
            {"events": ["robbing_kong"], "win_tile": "1z", "win": "discard", "discarder": "N"},
            NotAWinError,
            "events: robbing_kong (抢杠和): the robbed East (1z) is the fourth copy, so the winner "
            "holds no other",
        ),
        (
            {"events": ["robbing_kong", "last_tile"], "win": "discard", "discarder": "N"},
            NotAWinError,
            "events: robbing_kong with last_tile: no kong is declared on the last tile",
        ),
        (
            {"events": ["last_copy"], "win_tile": "1z"},
            NotAWinError,
            "events: last_copy (和绝张), but the hand holds another East (1z)",
        ),
        (
            {"events": ["heavenly"]},
            InvalidRequestError,
            'events: unknown event "heavenly": mcr has last_copy, last_tile, replacement, '
            "robbing_kong",
        ),
        (
            {"bonus": "1f"},
            InvalidRequestError,
            "bonus: flowers are not played (option flowers is off by default)",
        ),
        (
            {"bonus": "1a", "options": {"flowers": True}},
            InvalidRequestError,
            "bonus: mcr has flowers and seasons, no animals",
        ),
        (
            {"options": {"kiriage": True}},
            InvalidRequestError,
            'options: unknown option "kiriage": mcr has flowers',
        ),
        ({"options": {"flowers": 1}}, InvalidRequestError, "options: flowers is true or false"),
        ({"win": "ron"}, InvalidRequestError, 'win: "ron" is neither "self_draw" nor "discard"'),
        (
            {"win": "discard"},
            InvalidRequestError,
            "discarder: a discard win needs the discarder's seat",
        ),
        (
            {"win": "discard", "discarder": "E"},
            NotAWinError,
            "discarder: the winner cannot win on their own discard",
        ),
        ({"discarder": "S"}, NotAWinError, "discarder: a self-drawn win has no discarder"),
    ],
)
def test_refusals(fields: dict[str, Any], error: type[CompanionError], message: str) -> None:
    request = {"hand": "123m456p789s11z", "win_tile": "6p", "melds": ["pung 777z"], **fields}
    with pytest.raises(error) as refused:
        score_mcr(**request)
    assert refused.value.message == message


def test_not_a_win() -> None:
    with pytest.raises(NotAWinError) as refused:
        score_mcr("123m456p789s13577z")
    assert refused.value.message == (
        "not a win: the tiles make no four sets and a pair, seven pairs, thirteen orphans, "
        "honors and knitted tiles, or knitted straight with a set and a pair"
    )

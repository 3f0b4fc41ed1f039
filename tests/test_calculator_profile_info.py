"""What the calculator page is told of riichi's options: no form field for an option with one
allowed value, and each rule set's settings so that choosing one sets the others."""

from __future__ import annotations

from companion.api.profiles import all_profiles, option_fields, profile_info
from companion.rules import profiles
from companion.rules.options import Options
from companion.rules.riichi.options import PRESETS, RiichiOptions
from companion.rules.riichi.yaku import OPTIONAL_YAKU

OPTIONAL = [entry.option for entry in OPTIONAL_YAKU]
"""The optional yaku's options, declared with the yaku (`renhou`...)."""


def _riichi_options() -> dict[str, dict[str, object]]:
    info = profile_info(profiles()["riichi"])
    return {option["name"]: option for option in info["options"]}


def test_riichi_offers_no_minimum_and_no_overrides() -> None:
    assert RiichiOptions.form_hidden == frozenset({"min_tai", "tai_overrides"})
    assert list(_riichi_options()) == [
        "preset",
        "red_fives",
        "open_tanyao",
        "kiriage",
        "kazoe",
        "double_yakuman",
        "multiple_yakuman",
        "double_wind_pair_fu",
        *OPTIONAL,
        "honba_value",
        "head_bump",
        "suukantsu_liability",
        # the table's (`table_rule`: the create form offers them, the calculator does not)
        "length",
        "start_points",
        "return_points",
        "abortive_draws",
        "triple_ron_draws",
        "nagashi_mangan",
        "bust_ends",
        "chombo",
        "chombo_penalty",
        "ties",
        "all_last_stop",
        "extension",
    ]
    table = [name for name, option in _riichi_options().items() if option.get("table_rule")]
    assert set(table) == RiichiOptions.table_rules - {"uma"}  # uma, a list, is no form field
    assert list(_riichi_options())[-len(table) :] == table


def test_the_other_profiles_still_offer_their_minimum() -> None:
    assert Options.form_hidden == frozenset()
    for profile_id in ("sg", "sg-table", "tw"):
        names = [option["name"] for option in option_fields(profiles()[profile_id])]
        assert "min_tai" in names, profile_id
        assert "tai_overrides" not in names, profile_id


def test_the_preset_choice_carries_each_rule_set_s_settings() -> None:
    preset = _riichi_options()["preset"]
    presets = preset["presets"]
    assert isinstance(presets, dict)
    # Every value but uma's, a list no form field holds.
    assert presets == {
        name: {key: value for key, value in values.items() if key != "uma"}
        for name, values in PRESETS.items()
    }
    assert presets["ema2016"]["red_fives"] is False
    assert presets["tenhou"]["red_fives"] is True
    assert presets["mleague"] == {
        "red_fives": True,
        "open_tanyao": True,
        "kiriage": True,
        "kazoe": "sanbaiman",
        "double_yakuman": False,
        "multiple_yakuman": True,
        "double_wind_pair_fu": 2,
        **{entry.option: entry.presets.get("mleague", entry.default) for entry in OPTIONAL_YAKU},
        "honba_value": 300,
        "head_bump": True,
        "length": "hanchan",
        "start_points": 25000,
        "return_points": 30000,
        "abortive_draws": False,
        "triple_ron_draws": False,
        "nagashi_mangan": True,
        "bust_ends": False,
        "chombo": "mangan",
        "chombo_penalty": 20000,
        "ties": "seat",
        "all_last_stop": False,
        "extension": False,
    }
    # Every setting of a rule set is an option the form shows.
    shown = set(_riichi_options())
    for values in presets.values():
        assert set(values) <= shown


def test_only_riichi_and_sanma_are_played_without_bonus_tiles() -> None:
    bonus = {info["id"]: info["bonus_tiles"] for info in all_profiles()}
    assert bonus == {
        "sg": True,
        "sg-table": True,
        "tw": True,
        "hk": True,
        "riichi": False,
        "sanma": False,
        "mcr": True,
    }


def test_sanma_declares_its_three_seats_its_tiles_and_its_kita() -> None:
    """What the page draws sanma from, rather than knowing it by name: three seats, the 2m-8m
    out of play, no claimed chow, North set aside counted in `kita`, riichi's words."""
    info = profile_info(profiles()["sanma"])
    assert info["seats"] == ["E", "S", "W"]
    assert info["out_of_play"] == ["2m", "3m", "4m", "5m", "6m", "7m", "8m"]
    assert info["claimed_chows"] is False
    assert info["set_aside"] == {"field": "kita", "tile": "4z", "most": 4}
    assert info["family"] == "riichi"
    assert "kita" in info["fields"]


def test_sanma_offers_the_tsumo_payments_and_no_rule_set() -> None:
    options = {option["name"]: option for option in profile_info(profiles()["sanma"])["options"]}
    assert options["tsumo"] == {
        "name": "tsumo",
        "type": "choice",
        "default": "loss",
        "choices": ["loss", "bisection"],
    }
    assert "preset" not in options
    # The options of a whole game are a table's (of three), which the calculator leaves out.
    table_rules = {name for name, option in options.items() if option.get("table_rule")}
    assert "noten_total" in table_rules and "start_points" in table_rules
    assert "triple_ron_draws" not in options
    assert (options["start_points"]["default"], options["return_points"]["default"]) == (
        35_000,
        40_000,
    )
    assert options["noten_total"]["default"] == 2_000
    assert options["honba_value"]["default"] == 200


def test_every_other_profile_seats_four_and_plays_every_tile() -> None:
    for info in all_profiles():
        if info["id"] == "sanma":
            continue
        assert info["seats"] == ["E", "S", "W", "N"], info["id"]
        assert info["out_of_play"] == [], info["id"]
        assert info["claimed_chows"] is True, info["id"]
        assert info["set_aside"] is None, info["id"]
    families = {info["id"]: info["family"] for info in all_profiles()}
    assert families["riichi"] == "riichi" and families["mcr"] == "mcr"

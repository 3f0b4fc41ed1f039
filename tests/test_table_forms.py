"""A create form's options (`web.table_forms.options_from_form`): a field is the form's own
choice where it differs from what the chosen rule set plays, else from the profile's default,
so that the table plays what the form showed."""

from __future__ import annotations

from typing import Any

from companion.web.table_forms import options_from_form, table_profile_infos


def riichi() -> dict[str, Any]:
    return next(profile for profile in table_profile_infos() if profile["id"] == "riichi")


def as_shown(preset: str) -> dict[str, str]:
    """The riichi form as the page shows it once `preset` is chosen: every field at the value
    the rule set (else the profile) plays; a checkbox not ticked is not sent."""
    profile = riichi()
    by_preset = next(o for o in profile["options"] if o.get("presets"))["presets"][preset]
    form = {}
    for option in profile["options"]:
        value = by_preset.get(option["name"], option["default"])
        key = f"option:riichi:{option['name']}"
        if option["type"] == "bool":
            if value:
                form[key] = "true"
        else:
            form[key] = str(value)
    form["option:riichi:preset"] = preset
    return form


def test_a_rule_sets_own_values_are_not_sent_again() -> None:
    # EMA 2016 plays no red fives and 30,000 starts: the form showing them sends the rule set.
    assert options_from_form(riichi(), as_shown("ema2016")) == {"preset": "ema2016"}


def test_a_field_set_back_to_the_profiles_default_is_kept_under_a_rule_set() -> None:
    # Red fives ticked under EMA 2016 (which plays none): the profile's default, but not the
    # rule set's, so it is sent; dropped, the table would play without them.
    form = {
        **as_shown("ema2016"),
        "option:riichi:red_fives": "true",
        "option:riichi:start_points": "25000",
    }
    assert options_from_form(riichi(), form) == {
        "preset": "ema2016",
        "red_fives": True,
        "start_points": 25000,
    }

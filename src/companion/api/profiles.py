"""What a client needs to know about each profile to build a request: derived from the engine.

The calculator page draws its form from this (and `GET /api/profiles` returns it): the set count,
the options with their types and defaults, which circumstances of a win (the request's `events`)
and which extra fields the profile uses. Those are the profile's declared capabilities
(`Profile.circumstances`, `pay_for_all`, `animals`...), so a profile's rules are never repeated
or guessed at here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from typing import Any, get_type_hints

from companion.rules import profiles
from companion.rules.options import Options
from companion.rules.profile import AnyProfile
from companion.rules.riichi.options import (
    CHOMBO_STYLES,
    KAZOE_LIMITS,
    LENGTHS,
    PRESETS,
    RENHOU_VALUES,
    TIE_RULES,
)
from companion.rules.sanma.options import TSUMO_PAYMENTS
from companion.settlement import amount_json

# Choices of string options, where a free text box would only invite mistakes.
OPTION_CHOICES: dict[str, tuple[str, ...]] = {
    "wait_rule": ("role", "single"),
    "curve": ("half_spicy", "spicy"),
    "gun": ("full", "half"),
    "preset": tuple(PRESETS),
    "kazoe": KAZOE_LIMITS,
    "renhou": RENHOU_VALUES,
    "length": LENGTHS,
    "chombo": CHOMBO_STYLES,
    "ties": TIE_RULES,
    "tsumo": TSUMO_PAYMENTS,
}
# A choice whose every value sets the other options (riichi's rule sets): a form shows each
# value's settings when it is chosen, since an option the request sets wins over the preset.
OPTION_PRESETS: dict[str, Mapping[str, Mapping[str, Any]]] = {"preset": PRESETS}
# Options no form offers (still accepted in JSON requests); an options type names its own in
# `form_hidden`.
HIDDEN_OPTIONS = frozenset({"tai_overrides", "chart"})


def _option_type(hint: Any) -> str | None:
    if hint is bool:
        return "bool"
    if hint is int:
        return "int"
    if hint is Fraction:
        return "number"
    if hint is str:
        return "choice"
    return None


def option_fields(profile: AnyProfile) -> list[dict[str, Any]]:
    """The options a form can set: name, type (`int`, `number`, `bool`, `choice`), default;
    a choice's `choices`, and for a preset the other options' value under each (`presets`);
    and for a bool option declared as bringing in or changing a pattern (a house rule), that
    `pattern` and its `value` (tai, or faan) under the option, so that a label need not
    repeat it."""
    options_type: type[Options] = profile.options_type
    hints = get_type_hints(options_type)
    fields = []
    for field in dataclasses.fields(options_type):
        kind = _option_type(hints.get(field.name))
        if kind is None or field.name in HIDDEN_OPTIONS or field.name in options_type.derived:
            continue
        if field.name in options_type.form_hidden:
            continue
        if field.default is dataclasses.MISSING:
            continue
        default: Any = field.default
        if isinstance(default, Fraction):
            default = amount_json(default)
        entry: dict[str, Any] = {"name": field.name, "type": kind, "default": default}
        if field.name in options_type.table_rules:
            entry["table_rule"] = True  # the ledger's: not scoring's, so not the calculator's
        if kind == "choice":
            if field.name not in OPTION_CHOICES:
                continue
            entry["choices"] = list(OPTION_CHOICES[field.name])
            if field.name in OPTION_PRESETS:
                # Each rule set's values of the options a form offers (not `uma`, a list).
                entry["presets"] = {
                    name: {
                        option: value
                        for option, value in values.items()
                        if _option_type(hints.get(option)) is not None
                    }
                    for name, values in OPTION_PRESETS[field.name].items()
                }
        if kind == "bool":
            entry.update(_house_rule_pattern(profile, field.name))
        fields.append(entry)
    return fields


def _house_rule_pattern(profile: AnyProfile, option: str) -> dict[str, Any]:
    """The pattern a bool option's house rule brings in or changes, and its value with the
    option on and every other option at its default (nothing when it names no one pattern).
    A limit hand has no value of its own here: it is worth the table's maximum, which is
    another option (hk's `max_faan`)."""
    rules = [rule for rule in profile.house_rules if rule.option == option and rule.value is True]
    if len(rules) != 1 or rules[0].pattern_id is None:
        return {}
    pattern_id = rules[0].pattern_id
    played = profile.patterns_for(profile.parse_options({option: True}))
    pattern = next(pattern for pattern in played if pattern.id == pattern_id)
    if pattern.limit:
        return {"pattern": pattern_id}
    return {"pattern": pattern_id, "value": pattern.tai}


def profile_info(profile: AnyProfile) -> dict[str, Any]:
    """One profile as the calculator needs it."""
    fields: list[str] = []
    if profile.dealer_streak:
        fields += ["dealer", "dealer_streak"]
    if profile.table_discards:
        fields.append("table_discards")
    if profile.pay_for_all:
        fields.append("liable")
    fields += profile.request_fields
    return {
        "id": profile.id,
        "name": profile.name,
        "unit": profile.unit,
        "sets": profile.structure.sets,
        "tiles": 3 * profile.structure.sets + 2,
        "options": option_fields(profile),
        "events": list(profile.event_names),
        "fields": fields,
        "flower_wins": [kind.value for kind in profile.flower_wins],
        "animals": profile.animals,
        "bonus_tiles": profile.bonus_tiles,
        "tables": profile.keeps_tables,
        # What differs at the table and in the set (sanma: three seats, no 2m-8m, no claimed
        # chow, the North set aside counted in `kita`), so that a form need not know a profile.
        "seats": [seat.value for seat in profile.seats],
        "out_of_play": sorted(tile.mpsz for tile in profile.out_of_play),
        "claimed_chows": profile.claimed_chows,
        "set_aside": None
        if profile.set_aside is None
        else {
            "field": profile.set_aside.field,
            "tile": profile.set_aside.tile.mpsz,
            "most": profile.set_aside.most,
        },
        # The profile whose words (events, the liable seat) it shares: sanma speaks riichi's.
        "family": profile.family or profile.id,
        "patterns": [
            {"id": pattern.id, "name": pattern.name, "tai": pattern.tai}
            for pattern in (*profile.patterns, *profile.flower_wins.values())
        ],
    }


@cache
def all_profiles() -> tuple[dict[str, Any], ...]:
    """Every profile's info, in the engine's order (computed once)."""
    return tuple(profile_info(profile) for profile in profiles().values())

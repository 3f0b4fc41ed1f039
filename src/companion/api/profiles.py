"""What a client needs to know about each profile to build a request: derived from the engine.

The calculator page draws its form from this (and `GET /api/profiles` returns it): the set count,
the options with their types and defaults, which events and which extra fields the profile
accepts. Events and pay-for-all are found by asking the profile's own `check_context`, so a
profile's rules are never repeated here.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from functools import cache
from typing import Any, get_type_hints

from companion.context import Event, WinContext, WinType
from companion.errors import CompanionError
from companion.rules import profiles
from companion.rules.base import Options, Profile
from companion.scoring import score
from companion.settlement import amount_json
from companion.tiles import Wind

# Choices of string options, where a free text box would only invite mistakes.
OPTION_CHOICES: dict[str, tuple[str, ...]] = {
    "wait_rule": ("role", "single"),
    "curve": ("half_spicy", "spicy"),
    "gun": ("full", "half"),
}
# Options the form does not offer (still accepted in JSON requests).
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


def option_fields(options_type: type[Options]) -> list[dict[str, Any]]:
    """The options a form can set: name, type (`int`, `number`, `bool`, `choice`), default."""
    hints = get_type_hints(options_type)
    fields = []
    for field in dataclasses.fields(options_type):
        kind = _option_type(hints.get(field.name))
        if kind is None or field.name in HIDDEN_OPTIONS or field.name in options_type.derived:
            continue
        if field.default is dataclasses.MISSING:
            continue
        default: Any = field.default
        if isinstance(default, Fraction):
            default = amount_json(default)
        entry: dict[str, Any] = {"name": field.name, "type": kind, "default": default}
        if kind == "choice":
            if field.name not in OPTION_CHOICES:
                continue
            entry["choices"] = list(OPTION_CHOICES[field.name])
        fields.append(entry)
    return fields


def _accepts(profile: Profile, options: Options, contexts: list[WinContext]) -> bool:
    for context in contexts:
        try:
            profile.check_context(context, options)
        except CompanionError:
            continue
        return True
    return False


def _probe_contexts(**changes: Any) -> list[WinContext]:
    return [
        WinContext(win=WinType.SELF_DRAW, seat=Wind.EAST, **changes),
        WinContext(win=WinType.SELF_DRAW, seat=Wind.SOUTH, **changes),
        WinContext(win=WinType.DISCARD, seat=Wind.SOUTH, discarder=Wind.EAST, **changes),
    ]


def _uses_animals(profile: Profile) -> bool:
    """Whether a plain winning hand with an animal tile is still a win in this profile."""
    sets = ["123m", "456m", "789m", "123p", "456p"][: profile.structure.sets]
    request = {"profile": profile.id, "hand": "".join(sets) + "11s", "bonus": "1a"}
    try:
        return score(request).valid
    except CompanionError:
        return False


def profile_info(profile: Profile) -> dict[str, Any]:
    """One profile as the calculator needs it."""
    options = profile.parse_options({})
    events = [
        event.value
        for event in Event
        if _accepts(profile, options, _probe_contexts(events=frozenset({event})))
    ]
    fields: list[str] = []
    if profile.dealer_tai(WinContext()) is not None:
        fields += ["dealer", "dealer_streak"]
    pattern_ids = profile.pattern_ids()
    if pattern_ids & {"very_early_win", "early_win"}:
        fields.append("table_discards")
    if _accepts(profile, options, _probe_contexts(liable=Wind.WEST)):
        fields.append("liable")
    return {
        "id": profile.id,
        "name": profile.name,
        "unit": profile.unit,
        "sets": profile.structure.sets,
        "tiles": 3 * profile.structure.sets + 2,
        "options": option_fields(profile.options_type),
        "events": events,
        "fields": fields,
        "flower_wins": [kind.value for kind in profile.flower_wins],
        "animals": _uses_animals(profile),
        "patterns": [
            {"id": pattern.id, "name": pattern.name, "tai": pattern.tai}
            for pattern in (*profile.patterns, *profile.flower_wins.values())
        ],
    }


@cache
def all_profiles() -> tuple[dict[str, Any], ...]:
    """Every profile's info, in the engine's order (computed once)."""
    return tuple(profile_info(profile) for profile in profiles().values())

"""The create form's fields and how a submitted form reads: each profile's options as form
fields, and the options a form sets (those that differ from the profile's defaults)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from fastapi import Request

from companion.api.profiles import all_profiles
from companion.errors import CompanionError, InvalidRequestError
from companion.ledger.state import MAX_PLANNED_HANDS, MAX_PLANNED_ROUNDS
from companion.rules import get_profile
from companion.rules.options import parse_amount, parse_whole
from companion.web import i18n
from companion.web.pages import script_data
from companion.web.templating import request_language


def table_profile_infos() -> tuple[dict[str, Any], ...]:
    """The profiles a table may play (the ledger keeps their tables), as `all_profiles`."""
    return tuple(profile for profile in all_profiles() if profile["tables"])


def option_fields(lang: str) -> list[dict[str, Any]]:
    """Each profile's form options (from the engine), for the create form."""
    found = []
    for profile in table_profile_infos():
        t = i18n.Translator(lang, profile["unit"])
        options = []
        for option in profile["options"]:
            name = option["name"]
            entry = dict(option)
            entry["field"] = f"option:{profile['id']}:{name}"
            entry["label"] = t.option_label(profile["id"], option)
            if option["type"] == "choice":
                entry["choice_labels"] = [
                    (choice, t.get(f"option.{name}.{choice}", choice))
                    for choice in option["choices"]
                ]
            options.append(entry)
        found.append({"id": profile["id"], "options": options})
    return found


def _length_line(t: i18n.Translator, profile_id: str) -> str | None:
    """What the form says in place of the planned hands and rounds of a profile whose rules say
    how long its game is, as the ledger reads them: a fixed number of hands
    (`Profile.game_hands`: mcr's 16), or a points game's own length option (`points_game`:
    riichi's `length`, hanchan or tonpuusen). None where a table plans its length."""
    engine = get_profile(profile_id)
    if engine.game_hands is not None:
        return t("tables.fixed_length", n=engine.game_hands)
    if engine.points_game:
        return t("tables.length_points_game")
    return None


def length_lines(t: i18n.Translator) -> dict[str, str]:
    """By profile, the line that stands for the planned hands and rounds where the profile's
    rules say how long its game is: the ledger refuses any planned length there, so the form
    offers none."""
    lines = {profile["id"]: _length_line(t, profile["id"]) for profile in table_profile_infos()}
    return {profile: line for profile, line in lines.items() if line is not None}


def plans_length(profile: dict[str, Any]) -> bool:
    """Whether the form reads a planned length for `profile`: not where it has a length line. A
    form sent without its script may still carry the hands or rounds typed before its profile
    was changed to such a one; they are not read, as another profile's options are not."""
    return _length_line(i18n.Translator(i18n.EN), profile["id"]) is None


def _differs(kind: str, text: str, default: Any) -> bool:
    if kind == "number":
        # The JSON API's bounded reading: `Fraction("1e10000000")` alone would take seconds.
        try:
            return parse_amount(text, "option") != Fraction(str(default))
        except InvalidRequestError:
            return True  # the ledger refuses it with a message that names it
    return text != str(default)


def planned_count(
    t: i18n.Translator, form: dict[str, str], field: str, least: int, most: int
) -> int | None:
    """The form's planned `hands` or `rounds`: blank for none, else a whole number from `least`
    to `most` in ASCII digits (`²` or `٣` are not read as numbers); refused naming the field."""
    text = form.get(field, "").strip()
    if not text:
        return None
    number = parse_whole(text)
    if number is None or number < least:
        raise FormError(t(f"tables.error_{field}"))
    if number > most:
        raise FormError(t(f"tables.error_{field}_most", most=f"{most:,}"))
    return number


def options_from_form(profile: dict[str, Any], form: dict[str, str]) -> dict[str, Any]:
    """The options a create form sets that differ from the profile's defaults (JSON values;
    the ledger validates them)."""
    options: dict[str, Any] = {}
    # A rule set chosen gives its options their values: a field is the form's own choice where
    # it differs from what the rule set (else the profile) plays, so the form plays as it shows.
    played: dict[str, Any] = {}
    for option in profile["options"]:
        presets = option.get("presets")
        if presets:
            chosen = form.get(f"option:{profile['id']}:{option['name']}", option["default"])
            played.update(presets.get(str(chosen).strip(), {}))
    for option in profile["options"]:
        name, kind = option["name"], option["type"]
        default = played.get(name, option["default"])
        key = f"option:{profile['id']}:{name}"
        if kind == "bool":
            value = form.get(key) == "true"
            if value != default:
                options[name] = value
            continue
        text = form.get(key, "").strip()
        if not text:
            continue
        if kind == "int":
            number = parse_whole(text)
            if number is None:
                options[name] = text  # the ledger refuses it with a message that names it
                continue
            if number != default:
                options[name] = number
        elif _differs(kind, text, default):
            options[name] = text
    return options


@dataclass(frozen=True)
class TablePlan:
    """What a create form (a table's, an event's) says every table plays."""

    profile: str
    options: dict[str, Any]
    hands: int | None
    rounds: int | None
    seats: int = 4
    """How many sit at a table: four, or three (sanma's `seats`)."""


def table_plan(t: i18n.Translator, form: dict[str, str]) -> TablePlan:
    """The form's profile, its options that differ from the defaults and each table's planned
    hands or rounds (none where the profile's rules say its length); FormError names a field
    it cannot read."""
    profiles = {profile["id"]: profile for profile in table_profile_infos()}
    profile = profiles.get(form.get("profile", "sg"))
    if profile is None:
        raise FormError(t("tables.error_profile"))
    hands = rounds = None
    if plans_length(profile):
        # Hands 0 goes on to the ledger, which says a plan is at least one hand.
        hands = planned_count(t, form, "hands", 0, MAX_PLANNED_HANDS)
        rounds = planned_count(t, form, "rounds", 1, MAX_PLANNED_ROUNDS)
    return TablePlan(
        profile["id"], options_from_form(profile, form), hands, rounds, len(profile["seats"])
    )


def create_context(
    request: Request, form: dict[str, str] | None = None, error: str = ""
) -> dict[str, Any]:
    lang = request_language(request)
    values = form or {}
    profiles = table_profile_infos()
    # A refused form comes back with its profile; `?profile=mcr` opens the form for one.
    chosen = values.get("profile") or request.query_params.get("profile", "sg")
    if chosen not in {profile["id"] for profile in profiles}:
        chosen = "sg"
    lines = length_lines(i18n.Translator(lang))
    return {
        "profiles": profiles,
        "profile_options": option_fields(lang),
        "chosen": chosen,
        "length_lines": lines,
        "length_fixed": chosen in lines,
        "values": values,
        "error": error,
        "page_data": script_data(lang),
    }


class FormError(CompanionError):
    """A create form that cannot be read."""

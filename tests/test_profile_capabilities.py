"""Each profile's declared capabilities (`Profile.circumstances`, `pay_for_all`, `animals`...)
are what its engine does: the adapters offer exactly these, so a declaration the engine
contradicts would offer a player something refused, or hide something scored."""

from __future__ import annotations

from typing import Any

import pytest

from companion.context import Circumstance, WinContext, WinType
from companion.errors import CompanionError
from companion.payouts import payout_options
from companion.rules.house_rules import HouseRule
from companion.rules.profile import Profile
from companion.scoring import score, score_several
from companion.shapes import Shape
from companion.tiles import Wind
from shared_profiles import SHARED

PROFILES = list(SHARED.values())
ids = [profile.id for profile in PROFILES]


def accepts(profile: Profile, **changes: Any) -> bool:
    """Whether any plain context (the dealer's or another seat's self-draw, a discard win)
    with `changes` passes the profile's own checks."""
    options = profile.parse_options({})
    for context in (
        WinContext(win=WinType.SELF_DRAW, seat=Wind.EAST, **changes),
        WinContext(win=WinType.SELF_DRAW, seat=Wind.SOUTH, **changes),
        WinContext(win=WinType.DISCARD, seat=Wind.SOUTH, discarder=Wind.EAST, **changes),
    ):
        try:
            profile.check_context(context, options)
        except CompanionError:
            continue
        return True
    return False


def plain_win(profile: Profile) -> str:
    """Sets and a pair, all concealed: a win in every profile."""
    return "".join(["123m", "456m", "789m", "123p", "456p"][: profile.structure.sets]) + "11s"


@pytest.mark.parametrize("profile", PROFILES, ids=ids)
def test_the_declared_circumstances_are_the_accepted_ones(profile: Profile) -> None:
    accepted = [
        circumstance
        for circumstance in Circumstance
        if accepts(profile, circumstances=frozenset({circumstance}))
    ]
    assert list(profile.circumstances) == accepted


@pytest.mark.parametrize("profile", PROFILES, ids=ids)
def test_drawn_circumstances_are_never_discard_wins(profile: Profile) -> None:
    assert profile.drawn_circumstances <= set(profile.circumstances)
    options = profile.parse_options({})
    for circumstance in profile.circumstances:
        context = WinContext(
            win=WinType.DISCARD,
            seat=Wind.SOUTH,
            discarder=Wind.EAST,
            circumstances=frozenset({circumstance}),
        )
        try:
            profile.check_context(context, options)
        except CompanionError:
            refused = True
        else:
            refused = False
        # Heavenly, the dealer's first draw, is refused by the checks every profile shares.
        assert refused == (
            circumstance in profile.drawn_circumstances or circumstance is Circumstance.HEAVENLY
        ), circumstance


@pytest.mark.parametrize("profile", PROFILES, ids=ids)
def test_pay_for_all_is_declared_where_a_seat_may_be_liable(profile: Profile) -> None:
    assert profile.pay_for_all == accepts(profile, liable=Wind.WEST)


@pytest.mark.parametrize("profile", PROFILES, ids=ids)
def test_animals_are_declared_where_they_score(profile: Profile) -> None:
    request = {"profile": profile.id, "hand": plain_win(profile), "bonus": "1a"}
    try:
        result = score(request)
    except CompanionError:
        scored = False
    else:
        scored = result.valid and any("1a" in p.earned_by for p in result.patterns)
    assert profile.animals == scored


@pytest.mark.parametrize("profile", PROFILES, ids=ids)
def test_table_discards_are_declared_where_a_pattern_counts_them(profile: Profile) -> None:
    early = {"very_early_win", "early_win"}
    assert profile.table_discards == bool(profile.pattern_ids() & early)


@pytest.mark.parametrize("profile", PROFILES, ids=ids)
def test_the_dealer_streak_is_declared_where_dealer_tai_is_paid(profile: Profile) -> None:
    assert profile.dealer_streak == (profile.dealer_tai(WinContext()) is not None)


@pytest.mark.parametrize("profile", PROFILES, ids=ids)
def test_several_winners_are_declared_where_one_discard_pays_several(profile: Profile) -> None:
    hand = plain_win(profile)
    requests = [
        {"profile": profile.id, "hand": hand, "seat": seat, "win": "discard", "discarder": "E"}
        for seat in ("S", "W")
    ]
    try:
        allowed = score_several(requests).valid
    except CompanionError:
        allowed = False
    assert profile.several_winners == allowed


@pytest.mark.parametrize("profile", PROFILES, ids=ids)
def test_a_preference_of_readings_is_declared(profile: Profile) -> None:
    """The scorer asks `preference` on a tie only of a profile that declares one: a profile
    whose `preference` is its own must say so, or its ties would go to the first reading."""
    own = type(profile).preference is not Profile.preference
    assert profile.prefers_readings == own
    if own:
        # tw reports the pair wait where a chow reads the same (456m5m5m won on 5m).
        result = score({"profile": profile.id, "hand": "123m456m789m123p4565p5p", "win_tile": "5p"})
        assert result.reading is not None and result.reading.role.value == "pair"


@pytest.mark.parametrize("profile", PROFILES, ids=ids)
def test_instant_payouts_are_declared_where_the_table_settles_them(profile: Profile) -> None:
    try:
        payout_options(profile.id)
    except CompanionError:
        settled = False
    else:
        settled = True
    assert profile.instant_payouts == settled


# Equal options parse to one object (the scorer's memos tell options apart by identity); what
# the parser tells apart (a number against a flag or a decimal) never shares one.
@pytest.mark.parametrize("profile", sorted(SHARED))
def test_equal_options_are_parsed_once(profile: str) -> None:
    from companion.rules import get_profile

    rules = get_profile(profile)
    assert rules.parse_options({}) is rules.parse_options({})
    minimum = "min_faan" if profile == "hk" else "min_tai"
    first = rules.parse_options({minimum: 3, "tai_overrides": {}})
    assert rules.parse_options({"tai_overrides": {}, minimum: 3}) is first
    assert rules.parse_options({minimum: 2}) is not first
    with pytest.raises(CompanionError) as refusal:
        rules.parse_options({minimum: True})
    assert str(refusal.value) == f"option {minimum} must be a whole number"


def test_options_keys_keep_each_value_s_type() -> None:
    from companion.rules.profile import options_key

    assert options_key({"a": 1}) != options_key({"a": True})
    assert options_key({"a": 1}) != options_key({"a": 1.0})
    assert options_key({"a": {"b": 1}}) == options_key({"a": {"b": 1}})
    assert options_key({"a": [1]}) is None
    assert options_key({1: 1}) is None


# --- house rules: options that change the shapes or the pattern table -------------------------

HOUSE_RULES = [(profile, rule) for profile in PROFILES for rule in profile.house_rules]


@pytest.mark.parametrize(
    ("profile", "rule"), HOUSE_RULES, ids=[f"{p.id}:{r.option}" for p, r in HOUSE_RULES]
)
def test_a_house_rule_changes_its_patterns_and_shapes_only_when_it_holds(
    profile: Profile, rule: HouseRule
) -> None:
    plain = profile.parse_options({})
    played = profile.parse_options({rule.option: rule.value})
    assert not rule.holds(plain) and rule.holds(played)
    before = {pattern.id: pattern for pattern in profile.patterns_for(plain)}
    after = {pattern.id: pattern for pattern in profile.patterns_for(played)}
    added = {pattern.id for pattern in rule.adds}
    assert set(after) == set(before) | added and not added & set(before)
    assert {pattern.id for pattern in rule.adds} <= profile.pattern_ids_for(played)
    for pattern_id, changes in rule.changes.items():
        assert after[pattern_id] != before[pattern_id]
        for name, value in changes.items():
            # hk makes every limit hand worth the table's maximum after the house rules.
            if not (name == "tai" and after[pattern_id].limit):
                assert getattr(after[pattern_id], name) == value, (pattern_id, name)
    # Every other pattern is as it was (hk's limit hands but replace what is not a limit hand).
    unchanged = {key for key, pattern in before.items() if not pattern.limit} - set(rule.changes)
    assert all(after[pattern_id] == before[pattern_id] for pattern_id in unchanged)
    for shape in rule.allows:
        assert not getattr(profile.structure_for(plain), shape.value)
        assert getattr(profile.structure_for(played), shape.value)
    # One table per combination of house rules, so that the scorer compiles it once.
    assert profile.patterns_for(profile.parse_options({rule.option: rule.value})) is (
        profile.patterns_for(played)
    )


def test_house_rules_of_no_option_or_no_pattern_are_refused_when_the_profile_is_made() -> None:
    from companion.rules.singapore.profile import SgProfile

    class NoSuchOption(SgProfile):
        house_rules = (HouseRule("no_such_option", adds=()),)

    class NoSuchPattern(SgProfile):
        house_rules = (HouseRule("min_tai", 0, changes={"no_such_pattern": {"tai": 1}}),)

    with pytest.raises(ValueError, match="no_such_option"):
        NoSuchOption()
    with pytest.raises(ValueError, match="no_such_pattern"):
        NoSuchPattern()
    with pytest.raises(ValueError, match="always a win"):
        HouseRule("min_tai", 0, allows=frozenset({Shape.STANDARD}))


def test_a_form_shows_the_value_of_the_pattern_a_house_rule_brings() -> None:
    from companion.api.profiles import all_profiles

    options = {
        (profile["id"], option["name"]): option
        for profile in all_profiles()
        for option in profile["options"]
    }
    assert options["hk", "seven_pairs"] == {
        "name": "seven_pairs",
        "type": "bool",
        "default": False,
        "pattern": "seven_pairs",
        "value": 4,
    }
    # A limit hand is worth the table's maximum (max_faan), so it is shown without a value.
    assert options["hk", "great_dragons_limit"]["pattern"] == "big_dragons"
    assert "value" not in options["hk", "great_dragons_limit"]
    # An option that changes no pattern, or several (tw's wait rule), names none.
    assert "pattern" not in options["sg-table", "shooter_pays"]
    assert "pattern" not in options["tw", "wait_rule"]

"""Scoring profiles: one module per profile, its patterns as data plus its settlement."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.errors import InvalidRequestError
from companion.shapes import FIVE_SETS, FOUR_SETS, Structure

if TYPE_CHECKING:
    from companion.rules.base import Profile

PROFILE_STRUCTURES: dict[str, Structure] = {
    "sg": FOUR_SETS,
    "sg-table": FOUR_SETS,
    "tw": FIVE_SETS,
}


def structure_of(profile: str) -> Structure:
    """The winning shapes of a profile id; `InvalidRequestError` for an unknown id."""
    return get_profile(profile).structure


def profiles() -> dict[str, Profile]:
    """Every profile by id, imported on first use."""
    from companion.rules.sg import SG
    from companion.rules.sg_table import SG_TABLE
    from companion.rules.tw import TW

    return {profile.id: profile for profile in (SG, SG_TABLE, TW)}


def get_profile(profile: str) -> Profile:
    known = profiles()
    if profile not in known:
        raise InvalidRequestError(f'unknown profile "{profile}": use one of {", ".join(known)}')
    return known[profile]

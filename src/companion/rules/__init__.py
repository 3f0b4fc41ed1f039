"""Scoring profiles: one module per profile, its patterns as data plus its settlement."""

from __future__ import annotations

from companion.errors import InvalidRequestError
from companion.shapes import FIVE_SETS, FOUR_SETS, Structure

PROFILE_STRUCTURES: dict[str, Structure] = {
    "sg": FOUR_SETS,
    "sg-table": FOUR_SETS,
    "tw": FIVE_SETS,
}


def structure_of(profile: str) -> Structure:
    """The winning shapes of a profile id; `InvalidRequestError` for an unknown id."""
    try:
        return PROFILE_STRUCTURES[profile]
    except KeyError:
        known = ", ".join(PROFILE_STRUCTURES)
        raise InvalidRequestError(f'unknown profile "{profile}": use one of {known}') from None

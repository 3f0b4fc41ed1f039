"""Scoring profiles: one module per profile, its patterns as data plus its settlement."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from companion.errors import InvalidRequestError

if TYPE_CHECKING:
    from companion.rules.profile import AnyProfile
    from companion.shapes import Structure


@cache
def profiles() -> dict[str, AnyProfile]:
    """Every profile by id. Imported on first use: the profile modules import this package."""
    from companion.rules.hk import HK
    from companion.rules.mcr.profile import MCR
    from companion.rules.riichi.profile import RIICHI
    from companion.rules.sg import SG
    from companion.rules.sg_table import SG_TABLE
    from companion.rules.tw import TW

    return {profile.id: profile for profile in (SG, SG_TABLE, TW, HK, RIICHI, MCR)}


def table_profiles() -> dict[str, AnyProfile]:
    """The profiles whose tables the ledger keeps (`keeps_tables`), by id, in order."""
    return {key: profile for key, profile in profiles().items() if profile.keeps_tables}


def get_profile(profile: str) -> AnyProfile:
    """The profile of an id; `InvalidRequestError` for an unknown id."""
    known = profiles()
    if profile not in known:
        raise InvalidRequestError(f'unknown profile "{profile}": use one of {", ".join(known)}')
    return known[profile]


def structure_of(profile: str) -> Structure:
    """The winning shapes of a profile id; `InvalidRequestError` for an unknown id."""
    return get_profile(profile).structure

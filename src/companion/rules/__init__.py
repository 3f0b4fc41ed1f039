"""Scoring profiles, and the registry of them by id.

Each profile family is a package: `singapore` (`sg`, `sg-table`), `tw`, `hk`, `riichi` and `mcr`,
each with its pattern table as data, its options and its profile (the registered object is in
its `profile` module). The modules beside them are the machinery every family shares: the
profile's base classes (`profile`), patterns and their compiled tables (`patterns`,
`compiled`), the facts and feature bits a pattern asks of a reading (`facts`, `features`,
`predicates`), options (`options`), the value of a hand (`value`), the checks of what cannot
happen (`legality`), the principles that leave patterns out (`principles`) and the reading of
a request a profile reads itself (`own_request`)."""

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
    from companion.rules.hk.profile import HK
    from companion.rules.mcr.profile import MCR
    from companion.rules.riichi.profile import RIICHI
    from companion.rules.singapore.profile import SG, SG_TABLE
    from companion.rules.tw.profile import TW

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

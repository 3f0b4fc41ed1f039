"""Scoring profiles, and the registry of them by id.

Each profile family is a package: `singapore` (`sg`, `sg-table`), `tw`, `hk`, `riichi`, `sanma`
(three-player riichi, built from riichi's parts) and `mcr`, each with its pattern table as data
(sanma's is riichi's), its options and its profile (the registered object is in its `profile`
module). The modules beside them are the machinery every family shares: the
profile's base classes (`profile`), patterns and their compiled tables (`patterns`,
`compiled`), the facts and feature bits a pattern asks of a reading (`facts`, `features`,
`predicates`), options (`options`), the value of a hand (`value`), the checks of what cannot
happen (`legality`), the principles that leave patterns out (`principles`) and the reading of
a request a profile reads itself (`own_request`)."""

from __future__ import annotations

import importlib
from functools import cache
from typing import TYPE_CHECKING

from companion.errors import InvalidRequestError

if TYPE_CHECKING:
    from companion.rules.profile import AnyProfile
    from companion.shapes import Structure


PROFILES = {
    "sg": ("companion.rules.singapore.profile", "SG"),
    "sg-table": ("companion.rules.singapore.profile", "SG_TABLE"),
    "tw": ("companion.rules.tw.profile", "TW"),
    "hk": ("companion.rules.hk.profile", "HK"),
    "riichi": ("companion.rules.riichi.profile", "RIICHI"),
    "sanma": ("companion.rules.sanma.profile", "SANMA"),
    "mcr": ("companion.rules.mcr.profile", "MCR"),
}
"""Each profile's id, in the order they are listed, and where it is declared (its module and
its name there). A profile is imported when it is first asked for, so that scoring one hand
imports that hand's profile and no other: `companion score` starts in about two thirds of the
time it took with all of them (docs/performance.md). The profile modules import this package, so
none is imported here at import time."""

_LOADED: dict[str, AnyProfile] = {}


@cache
def profiles() -> dict[str, AnyProfile]:
    """Every profile by id."""
    return {profile: get_profile(profile) for profile in PROFILES}


def table_profiles() -> dict[str, AnyProfile]:
    """The profiles whose tables the ledger keeps (`keeps_tables`), by id, in order."""
    return {key: profile for key, profile in profiles().items() if profile.keeps_tables}


def get_profile(profile: str) -> AnyProfile:
    """The profile of an id; `InvalidRequestError` for an unknown id."""
    found = _LOADED.get(profile)
    if found is None:
        if profile not in PROFILES:
            known = ", ".join(PROFILES)
            raise InvalidRequestError(f'unknown profile "{profile}": use one of {known}')
        module, name = PROFILES[profile]
        found = _LOADED[profile] = getattr(importlib.import_module(module), name)
    return found


def structure_of(profile: str) -> Structure:
    """The winning shapes of a profile id; `InvalidRequestError` for an unknown id."""
    return get_profile(profile).structure

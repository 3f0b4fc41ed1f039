"""Typed errors. Each message is written for a player at the table, not for a developer.

The common refusals also carry a stable `key` and their `params` beside the English text, so an
adapter can say the same in a player's language, naming tiles as its page does: the engine
knows no language. `params` hold JSON values: numbers, strings, a tile as its MPSZ code under
a name `tile` or ending in `_tile`, a list of tiles under a name `tiles` or ending in `_tiles`,
seats, events, declared groups and flower wins under their own names (docs/contract.md,
*Refusals in a player's language*). Only a raise builds them: the hot path never does."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

Params = Mapping[str, Any]
"""A refusal's parameters: JSON values (see the module's docstring)."""


class Problem(NamedTuple):
    """One thing wrong with a hand: the English text, and the key and parameters that say it in
    another language (None for a problem without one)."""

    text: str
    key: str | None = None
    params: Params | None = None


class CompanionError(Exception):
    """Base of every error Companion raises on purpose."""

    def __init__(self, *args: object, key: str | None = None, params: Params | None = None):
        super().__init__(*args)
        self.key = key
        """The message's stable key (`refusal.not_a_win`), or None: then only the English."""
        self.params: Params = {} if params is None else params

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else self.__class__.__name__


class TileParseError(CompanionError):
    """A tile string could not be read."""


class InvalidHandError(CompanionError):
    """The tiles cannot form a hand of the requested size: one message per problem. Its key is
    its problem's when there is one problem with a key."""

    def __init__(self, problems: Sequence[str | Problem]) -> None:
        found = [Problem(item) if isinstance(item, str) else item for item in problems]
        self.problems = tuple(problem.text for problem in found)
        only = found[0] if len(found) == 1 else None
        key = only.key if only is not None else None
        super().__init__(
            "; ".join(self.problems), key=key, params=only.params if key and only else None
        )


class InvalidRequestError(CompanionError):
    """A request is not well-formed: a missing or unknown field value."""


class NotAWinError(CompanionError):
    """The request is well-formed but the hand is not a legal win in its profile."""

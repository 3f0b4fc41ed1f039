"""Typed errors. Each message is written for a player at the table, not for a developer."""

from __future__ import annotations


class CompanionError(Exception):
    """Base of every error Companion raises on purpose."""

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else self.__class__.__name__


class TileParseError(CompanionError):
    """A tile string could not be read."""


class InvalidHandError(CompanionError):
    """The tiles cannot form a hand of the requested size: one message per problem."""

    def __init__(self, problems: list[str] | tuple[str, ...]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(self.problems))


class InvalidRequestError(CompanionError):
    """A request is not well-formed: a missing or unknown field value."""


class NotAWinError(CompanionError):
    """The request is well-formed but the hand is not a legal win in its profile."""

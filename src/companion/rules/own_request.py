"""The request of a profile that reads its own (`Profile.reads_own_requests`: riichi, mcr),
declared as data: which fields it reads and of what kind, which shared fields it has no use
for and why. `RequestShape.read` checks the types and gives the fields as the profile's engine
takes them; the tiles, the events and what cannot happen are the engine's to judge.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from companion.errors import InvalidRequestError, NotAWinError
from companion.tiles import Wind

TEXTS = ("hand", "win_tile", "win")
"""Fields of one string."""
WINDS = ("seat", "round", "discarder", "liable")
"""Fields of one wind, written as a seat letter."""
LISTS = ("melds", "events")
"""Fields of a list of strings (one string is a list of one)."""


@dataclass(frozen=True)
class RequestShape:
    """What a profile's request holds.

    `fields`: every field it reads, `profile` included. `texts`, `winds`, `lists`: those of one
    string, of one wind, of a list of strings. `counts`: whole-number fields with the most each
    may be. `refused`: fields of the other profiles it has no use for, each with the reason a
    request carrying one (anything but an empty value) is refused. `read_options`: reads and
    checks the options (raising `InvalidRequestError`)."""

    profile: str
    fields: frozenset[str]
    read_options: Callable[[Mapping[str, Any]], object]
    texts: tuple[str, ...] = TEXTS
    winds: tuple[str, ...] = WINDS
    lists: tuple[str, ...] = LISTS
    counts: Mapping[str, int] = field(default_factory=dict)
    refused: Mapping[str, str] = field(default_factory=dict)

    def read(self, data: Any) -> dict[str, Any]:
        """The request's fields, read (`InvalidRequestError` names the field at fault)."""
        if not isinstance(data, Mapping):
            raise InvalidRequestError("a scoring request must be a JSON object")
        unknown = sorted(
            str(name) for name in data if name not in self.fields and name not in self.refused
        )
        if unknown:
            raise InvalidRequestError(
                f"unknown field {', '.join(repr(name) for name in unknown)}: a {self.profile} "
                "request has " + ", ".join(sorted(self.fields))
            )
        for name, why in self.refused.items():
            if data.get(name) not in (None, "", []):
                raise InvalidRequestError(f"{name}: {why}")
        found: dict[str, Any] = {}
        for name in (*self.texts, *self.winds):
            value = data.get(name)
            if value is None or name not in self.fields:
                continue
            if not isinstance(value, str):
                raise InvalidRequestError(f"{name} must be a string")
            if name in self.winds and Wind.from_letter(value) is None:
                raise InvalidRequestError(f"{name} must be a wind: E, S, W or N (got {value!r})")
            found[name] = value
        if "hand" not in found:
            raise InvalidRequestError(
                "hand is required: the concealed tiles, winning tile included"
            )
        bonus = data.get("bonus")
        if "bonus" in self.fields and bonus is not None:
            if isinstance(bonus, list) and all(isinstance(item, str) for item in bonus):
                bonus = " ".join(bonus)
            if not isinstance(bonus, str):
                raise InvalidRequestError('bonus must be a string of tiles such as "1f5f"')
            found["bonus"] = bonus
        for name in self.lists:
            value = data.get(name)
            if value is None:
                continue
            if isinstance(value, str):
                value = [value]
            if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
                raise InvalidRequestError(f"{name} must be a list of strings")
            found[name] = tuple(value)
        for name, most in self.counts.items():
            value = data.get(name)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidRequestError(f"{name} must be a whole number")
            if not 0 <= value <= most:
                raise InvalidRequestError(f"{name} must be a whole number from 0 to {most:,}")
            found[name] = value
        options = data.get("options")
        if options is not None:
            if not isinstance(options, Mapping):
                raise InvalidRequestError("options must be an object of option names and values")
            self.read_options(options)
            found["options"] = dict(options)
        return found


def read_win(win: str, seat: str, discarder: str | None) -> tuple[Wind, bool, Wind | None]:
    """The winner, whether the win is on a discard, and who discarded: `InvalidRequestError`
    for a `win` that is neither, or a discard win without its discarder; `NotAWinError` for a
    winner on their own discard, or a self-draw with a discarder."""
    if win not in ("self_draw", "discard"):
        raise InvalidRequestError(f'win: "{win}" is neither "self_draw" nor "discard"')
    winner = Wind.parse(seat)
    by_discard = win == "discard"
    payer = Wind.parse(discarder) if discarder else None
    if by_discard and payer is None:
        raise InvalidRequestError("discarder: a discard win needs the discarder's seat")
    if payer is winner:
        raise NotAWinError("discarder: the winner cannot win on their own discard")
    if not by_discard and payer is not None:
        raise NotAWinError("discarder: a self-drawn win has no discarder")
    return winner, by_discard, payer


class Wait(Protocol):
    """A tile a hand one short waits on, as a profile's engine answers it: what the win scores
    (`result`), or why it is none (`refusal`, with its key and parameters)."""

    @property
    def tile(self) -> str: ...
    @property
    def refusal(self) -> str | None: ...
    @property
    def refusal_key(self) -> str | None: ...
    @property
    def refusal_params(self) -> Mapping[str, Any] | None: ...


def waits_answer(
    profile: str,
    found: Sequence[Wait],
    result_json: Callable[[Wait], dict[str, Any]],
) -> dict[str, Any]:
    """The waits API's answer: each wait's result (`result_json` of a wait that scores), or its
    refusal as a result with `valid` false, its key kept for the page's language."""
    scores: dict[str, Any] = {}
    for wait in found:
        if wait.refusal is None:
            scores[wait.tile] = result_json(wait)
            continue
        refused: dict[str, Any] = {"valid": False, "profile": profile, "error": wait.refusal}
        if wait.refusal_key is not None:
            refused["error_key"] = wait.refusal_key
            refused["error_params"] = dict(wait.refusal_params or {})
        scores[wait.tile] = refused
    return {"profile": profile, "waits": [wait.tile for wait in found], "scores": scores}

"""Reading a table request's JSON body: `Body` reads it field by field, with messages that name
the field; `read_entry` reads a win, a drawn hand or an instant payout; `correction_fields` a
void's or an amendment's reason, author, key and expected version."""

from __future__ import annotations

from typing import Any

from companion.errors import InvalidRequestError
from companion.ledger.entries import DrawInput, Entry, PayoutInput, WinInput, WinnerInput


class Body:
    """A JSON object from a request, read field by field with messages that name the field."""

    def __init__(self, data: Any, allowed: set[str], what: str = "the request") -> None:
        if not isinstance(data, dict):
            raise InvalidRequestError(f"{what} must be a JSON object")
        unknown = sorted(str(name) for name in data if name not in allowed)
        if unknown:
            names = ", ".join(repr(name) for name in unknown)
            raise InvalidRequestError(f"unknown field {names} in {what}")
        self.data: dict[str, Any] = data
        self.what = what

    def has(self, name: str) -> bool:
        return self.data.get(name) is not None

    def text(self, name: str, *, required: bool = False) -> str | None:
        value = self.data.get(name)
        if value is None:
            if required:
                raise InvalidRequestError(f"{name} is required in {self.what}")
            return None
        if not isinstance(value, str):
            raise InvalidRequestError(f"{name} must be a string")
        return value

    def required_text(self, name: str) -> str:
        value = self.text(name, required=True)
        assert value is not None
        return value

    def whole(self, name: str, *, minimum: int | None = None) -> int | None:
        value = self.data.get(name)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidRequestError(f"{name} must be a whole number")
        if minimum is not None and value < minimum:
            raise InvalidRequestError(f"{name} must be at least {minimum}")
        return value

    def flag(self, name: str) -> bool:
        value = self.data.get(name)
        if value is None:
            return False
        if not isinstance(value, bool):
            raise InvalidRequestError(f"{name} must be true or false")
        return value

    def mapping(self, name: str) -> dict[str, Any] | None:
        value = self.data.get(name)
        if value is None:
            return None
        if not isinstance(value, dict):
            raise InvalidRequestError(f"{name} must be a JSON object")
        return value


_WIN_FIELDS = {"winner", "winners", "from", "self_draw", "tai", "hand", "liable"}
_PAYOUT_FIELDS = {"player", "event", "at_start"}
_KIND_FIELDS = {"win": _WIN_FIELDS, "draw": set(), "payout": _PAYOUT_FIELDS}


def read_entry(data: Any, extra: set[str]) -> tuple[Entry, Body]:
    """A win, drawn hand or payout from a request body (`extra`: the other fields allowed)."""
    kind = data.get("kind") if isinstance(data, dict) else None
    if not isinstance(kind, str) or kind not in _KIND_FIELDS:
        Body(data, {"kind", *_WIN_FIELDS, *_PAYOUT_FIELDS, *extra})  # refuse a non-object first
        raise InvalidRequestError('kind is required: "win", "draw" or "payout"')
    body = Body(data, {"kind", *_KIND_FIELDS[kind], *extra})
    if kind == "draw":
        return DrawInput(), body
    if kind == "payout":
        player = body.required_text("player")
        event = body.required_text("event")
        return PayoutInput(player, event, body.flag("at_start")), body
    return _win(body), body


def _winner(body: Body, name: str) -> WinnerInput:
    tai = body.whole("tai")
    hand = body.mapping("hand")
    if (tai is None) == (hand is None):
        raise InvalidRequestError(
            f"give {name}'s agreed tai (tai) or the winning hand (hand), one of the two"
        )
    return WinnerInput(name, tai=tai, hand=hand)


def _win(body: Body) -> Entry:
    listed = body.data.get("winners")
    if listed is not None:
        if body.has("winner") or body.has("tai") or body.has("hand"):
            raise InvalidRequestError(
                "give winner with tai or hand, or winners as a list, not both"
            )
        if not isinstance(listed, list) or not listed:
            raise InvalidRequestError('winners must be a list of {"name", "tai" | "hand"} objects')
        winners = []
        for item in listed:
            part = Body(item, {"name", "tai", "hand"}, "a winner")
            winners.append(_winner(part, part.required_text("name")))
    else:
        winners = [_winner(body, body.required_text("winner"))]
    discarder = body.text("from")
    self_draw = body.flag("self_draw")
    if self_draw == (discarder is not None):
        raise InvalidRequestError(
            'say how the hand was won: "from" (who discarded) or "self_draw": true, one of the two'
        )
    return WinInput(tuple(winners), discarder, body.text("liable"))


def correction_fields(body: Body) -> dict[str, Any]:
    """`reason`, `by`, `key` and `expect` (the event's version) as the ledger takes them."""
    return {
        "reason": body.required_text("reason"),
        "by": body.text("by") or "",
        "key": body.text("key"),
        "expect": body.whole("expect", minimum=0),
    }

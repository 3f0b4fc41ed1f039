"""What a player records for a hand: a `Record`, the one typed value a phone (through the API
body), the command line or a form builds once, and which the service, the ledger's entry,
replay, the state, the exports and the history take whole.

What every record carries besides its kind's own fields is declared once, in `Extras`: each of
its fields (optional, with a default) becomes, without an edit elsewhere, a field of every
record's API body (`api/table_bodies.py`), a flag of every record command
(`cli/table_record.py`), a key of the stored entry and of the fingerprint of its idempotency key
(left out at its default, so that a stored fingerprint stays what it was), a column of the CSV
and a key of the JSON export (`ledger/columns.py`) and a line of the history (the command line's
and the web page's)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import MISSING, Field, dataclass, field, fields
from typing import Any, ClassVar, get_type_hints

from companion.names import name_key

# ---------------------------------------------------------------------------------------------
# What every record carries


def extra(description: str, *, label: str, default: Any = None) -> Any:
    """An `Extras` field: optional, with what the API body, the command line's flag and the
    export's column say of it (`description`) and what the history calls it (`label`)."""
    return field(default=default, metadata={"description": description, "label": label})


@dataclass(frozen=True)
class Extras:
    """The optional fields every record has, whatever its kind. A field here is all it takes
    for a hand to carry one more thing through every layer: declare it with `extra()`, typed
    `str | None` or `int | None`."""


@dataclass(frozen=True)
class ExtraField:
    """One of `Extras`' fields as the generic code reads it."""

    name: str
    kind: type
    """`str` or `int`: what its value is when given."""
    default: Any
    description: str
    label: str


_FIELDS: dict[type[Extras], tuple[ExtraField, ...]] = {}


def extra_fields(extras_type: type[Extras] = Extras) -> tuple[ExtraField, ...]:
    """`extras_type`'s fields, in declaration order (read once: every stored entry asks)."""
    known = _FIELDS.get(extras_type)
    if known is None:
        known = _FIELDS[extras_type] = _read_fields(extras_type)
    return known


def _read_fields(extras_type: type[Extras]) -> tuple[ExtraField, ...]:
    hints = get_type_hints(extras_type)
    found = []
    for declared in fields(extras_type):
        found.append(
            ExtraField(
                declared.name,
                _value_kind(declared.name, hints[declared.name]),
                _default(declared),
                str(declared.metadata.get("description", declared.name)),
                str(declared.metadata.get("label", declared.name)),
            )
        )
    return tuple(found)


def _value_kind(name: str, hint: Any) -> type:
    for kind in (str, int):
        if hint in (kind, kind | None):
            return kind
    raise TypeError(f"Extras.{name}: a record's extra is str or int (or None), not {hint}")


def _default(declared: Field[Any]) -> Any:
    if declared.default is MISSING:
        raise TypeError(f"Extras.{declared.name}: a record's extra is optional: give a default")
    return declared.default


def extras_json(extras: Extras) -> dict[str, Any]:
    """The extras that are given (not at their default), by name: a stored entry's keys and its
    fingerprint's, so that neither changes for a record that gives none."""
    found = {}
    for extra_field in extra_fields(type(extras)):
        value = getattr(extras, extra_field.name)
        if value != extra_field.default:
            found[extra_field.name] = value
    return found


def extras_from_json(data: Mapping[str, Any], extras_type: type[Extras] = Extras) -> Extras:
    """The extras a stored entry (or an export) holds; absent keys at their default."""
    return extras_type(
        **{
            extra_field.name: data[extra_field.name]
            for extra_field in extra_fields(extras_type)
            if data.get(extra_field.name) is not None
        }
    )


def extras_shown(extras: Extras) -> tuple[tuple[str, str, str], ...]:
    """The extras that are given, for a history line: each one's name, label and value."""
    return tuple(
        (extra_field.name, extra_field.label, str(value))
        for extra_field in extra_fields(type(extras))
        if (value := getattr(extras, extra_field.name)) != extra_field.default
    )


NO_EXTRAS = Extras()


# ---------------------------------------------------------------------------------------------
# The records


@dataclass(frozen=True)
class WinnerRecord:
    """One winner: agreed tai (quick entry) or a scoring request (full hand), not both."""

    name: str
    tai: int | None = None
    hand: Mapping[str, Any] | None = None
    han: int | None = None
    """A points game's winner (riichi): the hand's han, with `fu` (which may be left out from
    5 han up); or its `yakuman` count; or a `limit` name (mangan...). In place of `tai`."""
    fu: int | None = None
    yakuman: int | None = None
    limit: str | None = None
    flowers: int | None = None
    """With agreed `tai` where the profile takes them (`Profile.agreed_flowers`: MCR with
    flowers): the winner's flowers, each one more and never toward the minimum."""

    @property
    def value_given(self) -> bool:
        """Whether a points game's value (han, fu, yakuman or a limit) is given."""
        return any(value is not None for value in (self.han, self.fu, self.yakuman, self.limit))

    def to_json(self) -> dict[str, Any]:
        return {**_fields_json(self), "name": _folded(self.name)}


@dataclass(frozen=True)
class WinRecord:
    winners: tuple[WinnerRecord, ...]
    discarder: str | None = None
    """The player who discarded the winning tile; None for a self-draw."""
    liable: str | None = None
    riichi: tuple[str, ...] = ()
    """A points game: the players who declared riichi in this hand (each puts a stick down)."""
    extras: Extras = NO_EXTRAS
    kind: ClassVar[str] = "win"

    def to_json(self) -> dict[str, Any]:
        """What the record asks for (its key's fingerprint): every field, a new one included
        without an edit here; the players' names as the table compares them."""
        return {
            "kind": self.kind,
            **_fields_json(self),
            "winners": [winner.to_json() for winner in self.winners],
            "discarder": _folded(self.discarder),
            "liable": _folded(self.liable),
        }


@dataclass(frozen=True)
class DrawRecord:
    """A drawn hand. In a points game (riichi): an exhaustive draw with the players `tenpai`
    (and those paid a `nagashi` mangan), or an `abortive` draw by its kind; the players who
    declared `riichi` in it either way."""

    tenpai: tuple[str, ...] = ()
    riichi: tuple[str, ...] = ()
    nagashi: tuple[str, ...] = ()
    abortive: str | None = None
    extras: Extras = NO_EXTRAS
    kind: ClassVar[str] = "draw"

    @property
    def says_nothing(self) -> bool:
        """A drawn hand with nothing of a points game's (its extras aside)."""
        return (self.tenpai, self.riichi, self.nagashi, self.abortive) == ((), (), (), None)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, **_fields_json(self)}


@dataclass(frozen=True)
class ChomboRecord:
    """A points game: a player's chombo (foul); the hand is dealt again."""

    player: str
    extras: Extras = NO_EXTRAS
    kind: ClassVar[str] = "chombo"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "player": _folded(self.player), **extras_json(self.extras)}


STOP_MEANING = (
    "{money}: the session ends here, after at least one hand (no payments; the table is "
    "finished until the stop is voided); {points}: the leading dealer of the last hand stops "
    "the game"
)
"""What a stop does at each kind of table, as the API and the command line say it (`money`,
`points`: the profiles of each kind)."""


@dataclass(frozen=True)
class StopRecord:
    """A money table: the session ends here (`entries.Stop`). A points game: the leading dealer
    of the last hand stops the game."""

    extras: Extras = NO_EXTRAS
    kind: ClassVar[str] = "stop"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, **extras_json(self.extras)}


@dataclass(frozen=True)
class PayoutRecord:
    player: str
    event: str
    """The payout's kind (`PayoutKind`: bite, four_flowers...); its JSON name stays `event`."""
    at_start: bool = False
    extras: Extras = NO_EXTRAS
    kind: ClassVar[str] = "payout"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "player": name_key(self.player),
            "event": self.event.strip().lower().replace("-", "_").replace(" ", "_"),
            "at_start": self.at_start,
            **extras_json(self.extras),
        }


Record = WinRecord | DrawRecord | PayoutRecord | ChomboRecord | StopRecord
"""What a player records for a hand, whole."""


def _folded(name: str | None) -> str | None:
    return None if name is None else name_key(name)


def _fields_json(record: WinRecord | WinnerRecord | DrawRecord) -> dict[str, Any]:
    """Every field, names folded as the table compares them, the extras by their own names; a
    field at its default is left out, so a record's fingerprint stays what it was before
    fields were added."""
    found: dict[str, Any] = {}
    for declared in fields(record):
        value = getattr(record, declared.name)
        if isinstance(value, Extras):
            found.update(extras_json(value))
            continue
        if value == declared.default and declared.name not in (
            "tai",
            "hand",
            "discarder",
            "liable",
        ):
            continue
        if isinstance(value, tuple) and all(isinstance(item, str) for item in value):
            value = [_folded(item) for item in value]
        found[declared.name] = value
    return found


def fingerprint(operation: Mapping[str, Any]) -> str:
    """A stable digest of what a write asked for, to tell a repeated key's payload apart."""
    text = json.dumps(operation, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()

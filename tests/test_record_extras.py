"""What every record carries besides its kind's fields (`records.Extras`), through the generic
code that turns each of its fields into a body field, a flag, stored JSON and an export column.

`Extras` declares no field of its own yet: the generic path is held to a test-only subclass
with one field (`note`), the field a hand would carry next, so that each step fails when it
stops reading the declaration."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, make_dataclass
from typing import Any

import pytest

from companion.api.table_bodies import body_fields, extras_model
from companion.cli.table_record import add_extras_arguments, extras_of
from companion.errors import InvalidRequestError
from companion.ledger.records import (
    DrawRecord,
    Extras,
    extra,
    extra_fields,
    extras_from_json,
    extras_json,
    extras_shown,
    fingerprint,
)

NOTE = "a note on the hand"
NoteExtras: type[Extras] = make_dataclass(
    "NoteExtras",
    [("note", "str | None", extra(NOTE, label="Note"))],
    bases=(Extras,),
    frozen=True,
)


def noted(text: str | None) -> Extras:
    made: Extras = NoteExtras(note=text)  # type: ignore[call-arg]
    return made


def test_an_extra_is_read_from_its_declaration() -> None:
    (field,) = extra_fields(NoteExtras)
    assert (field.name, field.kind, field.default, field.description, field.label) == (
        "note",
        str,
        None,
        NOTE,
        "Note",
    )
    assert extra_fields(Extras) == ()


def test_an_extra_must_be_optional_and_plain() -> None:
    @dataclass(frozen=True)
    class Listed(Extras):
        tags: list[str] | None = None

    with pytest.raises(TypeError, match="str or int"):
        extra_fields(Listed)


def test_an_extra_is_a_body_field_with_its_description() -> None:
    model = extras_model(NoteExtras)
    (field,) = body_fields(model)
    assert (field.name, field.required, field.default, field.demand) == (
        "note",
        False,
        None,
        "a string",
    )
    assert model.model_json_schema()["properties"]["note"]["description"] == NOTE
    with pytest.raises(InvalidRequestError, match="note must be a string"):
        field.check(3)


def test_an_extra_is_a_flag_of_a_record_command() -> None:
    parser = argparse.ArgumentParser()
    add_extras_arguments(parser, NoteExtras)
    assert NOTE in parser.format_help()
    given = parser.parse_args(["--note", "dealt again"])
    assert extras_of(given, NoteExtras) == noted("dealt again")
    assert extras_of(parser.parse_args([]), NoteExtras) == noted(None)


def test_an_extra_is_stored_when_given_and_left_out_at_its_default() -> None:
    assert extras_json(noted(None)) == {}
    assert extras_json(noted("late")) == {"note": "late"}
    assert extras_from_json({"note": "late", "kind": "draw"}, NoteExtras) == noted("late")
    assert extras_from_json({"kind": "draw"}, NoteExtras) == noted(None)
    assert extras_shown(noted("late")) == (("note", "Note", "late"),)
    assert extras_shown(noted(None)) == ()


def test_a_record_without_extras_keeps_its_fingerprint() -> None:
    """A stored key compares its record's fingerprint: a record that gives no extra has the one
    it had before extras were declared; one that gives an extra has another."""
    plain: dict[str, Any] = {"op": "record", **DrawRecord().to_json()}
    assert plain == {"op": "record", "kind": "draw"}
    with_note = {"op": "record", **DrawRecord(extras=noted("late")).to_json()}
    assert with_note == {"op": "record", "kind": "draw", "note": "late"}
    assert fingerprint(with_note) != fingerprint(plain)

"""What every record carries besides its kind's fields (`records.Extras`), through the generic
code that turns each of its fields into a body field, a flag, stored JSON and an export column.

The generic path is held to a test-only subclass with one field of its own (`remark`), whatever
`Extras` declares, so that each step fails when it stops reading the declaration."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, make_dataclass
from typing import Any

import pytest

from companion.api.table_bodies import BodyField, BodyModel, body_fields, extras_model
from companion.cli.table_record import add_extras_arguments, extras_of
from companion.errors import InvalidRequestError
from companion.ledger.columns import columns
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

NOTE = "a remark on the hand"
NoteExtras: type[Extras] = make_dataclass(
    "NoteExtras",
    [("remark", "str | None", extra(NOTE, label="Remark"))],
    bases=(Extras,),
    frozen=True,
)


def noted(text: str | None) -> Extras:
    made: Extras = NoteExtras(remark=text)  # type: ignore[call-arg]
    return made


def remark_field(model: type[BodyModel]) -> BodyField:
    return next(field for field in body_fields(model) if field.name == "remark")


def test_an_extra_is_read_from_its_declaration() -> None:
    *inherited, field = extra_fields(NoteExtras)
    assert (field.name, field.kind, field.default, field.description, field.label) == (
        "remark",
        str,
        None,
        NOTE,
        "Remark",
    )
    assert tuple(inherited) == extra_fields(Extras)


def test_an_extra_must_be_optional_and_plain() -> None:
    @dataclass(frozen=True)
    class Listed(Extras):
        tags: list[str] | None = None

    with pytest.raises(TypeError, match="str or int"):
        extra_fields(Listed)


def test_an_extra_is_a_body_field_with_its_description() -> None:
    model = extras_model(NoteExtras)
    field = remark_field(model)
    assert (field.name, field.required, field.default, field.demand) == (
        "remark",
        False,
        None,
        "a string",
    )
    assert model.model_json_schema()["properties"]["remark"]["description"] == NOTE
    with pytest.raises(InvalidRequestError, match="remark must be a string"):
        field.check(3)


def test_an_extra_is_a_flag_of_a_record_command() -> None:
    parser = argparse.ArgumentParser()
    add_extras_arguments(parser, NoteExtras)
    assert NOTE in parser.format_help()
    given = parser.parse_args(["--remark", "dealt again"])
    assert extras_of(given, NoteExtras) == noted("dealt again")
    assert extras_of(parser.parse_args([]), NoteExtras) == noted(None)


def test_an_extra_is_stored_when_given_and_left_out_at_its_default() -> None:
    assert extras_json(noted(None)) == {}
    assert extras_json(noted("late")) == {"remark": "late"}
    assert extras_from_json({"remark": "late", "kind": "draw"}, NoteExtras) == noted("late")
    assert extras_from_json({"kind": "draw"}, NoteExtras) == noted(None)
    assert extras_shown(noted("late")) == (("remark", "Remark", "late"),)
    assert extras_shown(noted(None)) == ()


def test_an_extra_is_a_column_of_both_exports() -> None:
    (column,) = [column for column in columns(NoteExtras) if column.name == "remark"]
    assert (column.description, column.csv, column.json) == (NOTE, True, "remark")
    assert "remark" not in [column.name for column in columns()]


def test_a_record_without_extras_keeps_its_fingerprint() -> None:
    """A stored key compares its record's fingerprint: a record that gives no extra has the one
    it had before extras were declared; one that gives an extra has another."""
    plain: dict[str, Any] = {"op": "record", **DrawRecord().to_json()}
    assert plain == {"op": "record", "kind": "draw"}
    with_note = {"op": "record", **DrawRecord(extras=noted("late")).to_json()}
    assert with_note == {"op": "record", "kind": "draw", "remark": "late"}
    assert fingerprint(with_note) != fingerprint(plain)

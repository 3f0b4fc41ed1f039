"""The table writes' bodies are declared once, as models (`api/table_bodies.py`): the reader
takes its fields from them, `/openapi.json` its request schemas, docs/web.md its tables."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import Field

from companion.api import create_app
from companion.api.body_docs import fields_table
from companion.api.table_bodies import (
    ENTRY_BODIES,
    BodyModel,
    Correction,
    CreateTable,
    Recording,
    WinBody,
    body_fields,
    field_names,
    kind_of,
    read_body,
    read_record,
)
from companion.api.table_docs import model_schema, summary
from companion.errors import InvalidRequestError
from companion.ledger.records import PayoutRecord, WinnerRecord, WinRecord

WEB_MD = Path(__file__).resolve().parents[1] / "docs" / "web.md"


def test_the_openapi_bodies_have_the_models_fields() -> None:
    paths = TestClient(create_app("sqlite:///:memory:")).get("/openapi.json").json()["paths"]

    def documented(path: str) -> set[str]:
        body = paths[path]["post"]["requestBody"]["content"]["application/json"]["schema"]
        return set(body["properties"])

    entries = field_names(*ENTRY_BODIES)
    assert documented("/api/tables") == field_names(CreateTable)
    assert documented("/api/tables/{table_id}/hands") == entries | field_names(Recording)
    assert documented("/api/tables/{table_id}/preview") == entries | field_names(Recording)
    assert documented("/api/tables/{table_id}/events/{seq}/void") == field_names(Correction)
    amend = documented("/api/tables/{table_id}/events/{seq}/amend")
    assert amend == entries | field_names(Correction)
    assert "expect_hand" not in amend  # an amendment refuses it: the schema no longer offers it


A_VALUE = {
    "a string": "Ann",
    "a whole number": 2,
    "true or false": True,
    "a JSON object": {},
}
NOT_A_VALUE = {"a string": 5, "a whole number": "2", "true or false": "yes", "a JSON object": []}


def required_values(model: type[BodyModel]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for field in body_fields(model):
        if field.name == "kind":
            values["kind"] = kind_of(model)
        elif field.required:
            values[field.name] = (
                ["Ann", "Ben", "Cat", "Dan"] if field.listed else A_VALUE[field.demand]
            )
    return values


@pytest.mark.parametrize(
    ("model", "field"),
    [
        (model, field)
        for model in (CreateTable, *ENTRY_BODIES, Recording, Correction)
        for field in body_fields(model)
        if field.name != "kind"
    ],
    ids=lambda item: getattr(item, "name", getattr(item, "__name__", "")),
)
def test_every_declared_field_is_read_as_declared(model: type[BodyModel], field: Any) -> None:
    """Each field a model declares is taken, and a value of another type is refused with the
    field's name and what it must be."""
    base = required_values(model)
    wrong = "x" if field.listed else NOT_A_VALUE[field.demand]
    with pytest.raises(InvalidRequestError) as refused:
        read_body(model, {**base, field.name: wrong})
    assert refused.value.message == f"{field.name} must be {field.demand}"
    read = read_body(model, base)
    expected = base[field.name] if field.required else field.default
    assert getattr(read, field.attribute) == expected


def test_a_field_the_body_does_not_declare_is_refused_by_name() -> None:
    with pytest.raises(InvalidRequestError) as refused:
        read_body(Correction, {"reason": "x", "honba": 1})
    assert refused.value.message == "unknown field 'honba' in the request"


def test_an_entry_reads_into_the_ledgers_input() -> None:
    entry, recording = read_record(
        {"kind": "win", "winner": "Ann", "from": "Ben", "tai": 3, "key": "k", "expect_hand": 2},
        Recording,
    )
    assert entry == WinRecord((WinnerRecord("Ann", tai=3),), "Ben", None)
    assert (recording.key, recording.expect_hand) == ("k", 2)
    entry, correction = read_record(
        {"kind": "payout", "player": "Cat", "event": "bite", "reason": "late"}, Correction
    )
    assert entry == PayoutRecord("Cat", "bite", False)
    assert correction.fields() == {"reason": "late", "by": "", "key": None, "expect": None}


class HonbaWin(WinBody):
    """A win with the repeat counters on the table."""

    honba: int | None = Field(None, ge=0, description="repeat counters on the table")


def test_a_new_field_is_one_line_of_its_model() -> None:
    """What a new field of a recorded hand costs the API: its line in the model gives the
    reader, the schema, the route's summary and the docs' row."""
    body = {"kind": "win", "winner": "Ann", "self_draw": True, "tai": 1, "honba": 2}
    assert read_body(HonbaWin, body).honba == 2
    with pytest.raises(InvalidRequestError) as refused:
        read_body(HonbaWin, {**body, "honba": -1})
    assert refused.value.message == "honba must be at least 0"
    assert model_schema(HonbaWin)["properties"]["honba"]["description"] == (
        "repeat counters on the table"
    )
    assert summary(HonbaWin).endswith('"flowers"?, "honba"?}')
    assert fields_table(HonbaWin).endswith(
        "| `honba` | whole number ≥ 0 |  | repeat counters on the table |"
    )

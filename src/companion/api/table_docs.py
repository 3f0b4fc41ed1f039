"""The OpenAPI documentation of `/api/tables`, made from the body models of
`api/table_bodies.py`: each write's request schema and the summaries the route descriptions
give; and the error answers of each endpoint. (docs/web.md's tables of the same fields:
`api/body_docs.py`.)"""

from __future__ import annotations

from typing import Any

from companion.api.schemas import ErrorDoc
from companion.api.table_bodies import (
    ENTRY_BODIES,
    BodyModel,
    Correction,
    CreateTable,
    Recording,
    body_fields,
    kind_of,
)

# ---------------------------------------------------------------------------------------------
# OpenAPI request bodies


def _inlined(schema: Any, definitions: dict[str, Any]) -> Any:
    """`schema` with its `$defs` references replaced by what they refer to (a route's body is
    one self-contained schema; no body model refers to itself)."""
    if isinstance(schema, list):
        return [_inlined(item, definitions) for item in schema]
    if not isinstance(schema, dict):
        return schema
    if "$ref" in schema:
        return _inlined(definitions[schema["$ref"].rsplit("/", 1)[-1]], definitions)
    return {key: _inlined(value, definitions) for key, value in schema.items() if key != "$defs"}


def model_schema(model: type[BodyModel]) -> dict[str, Any]:
    schema = model.model_json_schema()
    inlined: dict[str, Any] = _inlined(schema, schema.get("$defs", {}))
    return inlined


def kind_description() -> str:
    """Which fields go with which `kind`: "`win`: winner, from, ...; `draw`: ..."."""
    parts = []
    for model in ENTRY_BODIES:
        names = [field.name for field in body_fields(model) if field.name != "kind"]
        parts.append(f"`{kind_of(model)}`: {', '.join(names) or 'no other field'}")
    return "; ".join(parts)


def entry_schema(extra: type[BodyModel], title: str) -> dict[str, Any]:
    """One object schema for an entry of any kind with `extra`'s fields: `kind` chooses, and
    its description says which fields go with each kind. (One object rather than a `oneOf` of
    the kinds: the `/docs` page lists a body's fields as one table.)"""
    properties: dict[str, Any] = {
        "kind": {
            "type": "string",
            "enum": [kind_of(model) for model in ENTRY_BODIES],
            "title": "Kind",
            "description": kind_description(),
        }
    }
    for model in ENTRY_BODIES:
        for name, spec in model_schema(model)["properties"].items():
            if name != "kind":
                properties.setdefault(name, spec)
    extras = model_schema(extra)
    properties.update(extras["properties"])
    return {
        "additionalProperties": False,
        "properties": properties,
        "required": ["kind", *extras.get("required", ())],
        "title": title,
        "type": "object",
    }


def request_body(schema: dict[str, Any], example: dict[str, Any]) -> dict[str, Any]:
    """An `openapi_extra` request body: `schema`, with `example` as its example."""
    return {
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": {**schema, "examples": [example]}}},
        }
    }


def model_body(model: type[BodyModel], example: dict[str, Any]) -> dict[str, Any]:
    """An `openapi_extra` request body of `model`'s schema, with `example` as its example."""
    return request_body(model_schema(model), example)


def summary(model: type[BodyModel]) -> str:
    """A body in one line, for a route's description: `{"kind": "payout", "player", "event",
    "at_start"?}` (`?`: optional)."""
    parts = []
    for field in body_fields(model):
        if field.name == "kind":
            parts.append(f'"kind": "{kind_of(model)}"')
        else:
            parts.append(f'"{field.name}"' + ("" if field.required else "?"))
    return "{" + ", ".join(parts) + "}"


def field_list(model: type[BodyModel]) -> str:
    """ "`reason`, `by`, `key` and `expect`": a model's fields named in a sentence."""
    names = [f"`{field.name}`" for field in body_fields(model)]
    return " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)


CREATE_BODY = request_body(
    model_schema(CreateTable),
    {
        "profile": "sg",
        "players": ["Ann", "Ben", "Cat", "Dan"],
        "options": {"min_tai": 1},
        "hands": 16,
    },
)
RECORD_BODY = request_body(
    entry_schema(Recording, "Record"),
    {"kind": "win", "winner": "Ann", "from": "Ben", "tai": 3, "key": "tap-7f3a"},
)
"""`POST .../hands` and `.../preview`."""
VOID_BODY = model_body(Correction, {"reason": "wrong winner", "by": "Dan"})
AMEND_BODY = request_body(
    entry_schema(Correction, "Amend"),
    {
        "kind": "win",
        "winner": "Cat",
        "self_draw": True,
        "tai": 2,
        "reason": "it was Cat's hand",
        "by": "Dan",
    },
)

# ---------------------------------------------------------------------------------------------
# Error answers


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    descriptions = {
        400: "the body is not JSON",
        401: "no write token (Authorization: Bearer <token>)",
        403: "the token is not this table's",
        404: "no table with this id",
        409: "the key was used for something else, the hand was already recorded, "
        "the entry was corrected meanwhile (`expect`), or the table is finished",
        413: "the body is over the size limit",
        415: "the body is not JSON",
        422: "a request that cannot be carried out (a name not at the table, a hand that "
        "is not a win, a limit reached...)",
        429: "too many requests: new tables from this address, or writes to this table "
        "(see Retry-After)",
        503: "the database cannot be reached",
    }
    return {status: {"model": ErrorDoc, "description": descriptions[status]} for status in statuses}


WRITE_ERRORS: dict[int | str, dict[str, Any]] = {
    200: {"description": "the key was already used for this same entry: nothing new"},
    **error_responses(400, 401, 403, 404, 409, 413, 415, 422, 429, 503),
}

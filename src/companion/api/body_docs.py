"""docs/web.md's tables of the table writes' body fields, made from the body models of
`api/table_bodies.py`: each model's fields with their type (as the reader demands it, and the
limits), default and description.

`python -m companion.api.body_docs [docs/web.md]` writes the tables into docs/web.md, between
its `body-fields` markers; tests/test_table_bodies.py fails, showing the difference, while the
file says something else.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from companion.api import table_bodies as bodies
from companion.api.table_bodies import BodyField, BodyModel, body_fields, kind_of
from companion.api.table_docs import model_schema

START = "<!-- body-fields -->"
END = "<!-- /body-fields -->"


def _type_text(model: type[BodyModel], field: BodyField) -> str:
    """What a value must be ("whole number ≥ 1"): the reader's demand with the schema's limits."""
    if field.name == "kind":
        return f'`"{kind_of(model)}"`'
    spec = model_schema(model)["properties"][field.name]
    limits = dict(spec)
    for branch in spec.get("anyOf", ()):
        limits.update(branch)
    if "enum" in limits:
        text = " | ".join(f"`{value}`" for value in limits["enum"])
    else:
        text = field.demand.removeprefix("a ")
    if "minimum" in limits:
        text += f" ≥ {limits['minimum']}"
    if "maxLength" in limits:
        text += f", at most {limits['maxLength']} characters"
    return text


def _cell(text: str) -> str:
    return text.replace("|", "\\|")  # a pipe splits a cell, in a code span too


def fields_table(model: type[BodyModel]) -> str:
    """A model's fields as a Markdown table, headed by its docstring."""
    heading = " ".join((model.__doc__ or model.__name__).split())
    rows = [f"**{heading}**", "", "| field | type | default | meaning |", "|---|---|---|---|"]
    for field in body_fields(model):
        info = model.model_fields[field.attribute]
        if field.required:
            default = "required"
        elif field.default is None:
            default = ""
        else:
            default = f"`{json.dumps(field.default, ensure_ascii=False)}`"
        kind = _cell(_type_text(model, field))
        rows.append(f"| `{field.name}` | {kind} | {default} | {_cell(info.description or '')} |")
    return "\n".join(rows)


def body_tables(models: tuple[type[BodyModel], ...]) -> str:
    """The docs' section of body tables, markers included."""
    return "\n\n".join([START, *(fields_table(model) for model in models), END])


def with_body_tables(text: str, models: tuple[type[BodyModel], ...]) -> str:
    """`text` (docs/web.md) with its body tables made anew."""
    start, end = text.index(START), text.index(END) + len(END)
    return text[:start] + body_tables(models) + text[end:]


DOCUMENTED: tuple[type[BodyModel], ...] = (
    bodies.CreateTable,
    bodies.WinBody,
    bodies.WinnerBody,
    bodies.DrawBody,
    bodies.PayoutBody,
    bodies.ChomboBody,
    bodies.StopBody,
    bodies.Recording,
    bodies.Correction,
)
"""The bodies docs/web.md tabulates, in its order."""


if __name__ == "__main__":
    path = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/web.md")
    text = with_body_tables(path.read_text(encoding="utf-8"), DOCUMENTED)
    path.write_text(text, encoding="utf-8")

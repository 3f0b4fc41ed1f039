"""`/docs`: the API reference, drawn by Companion from its own OpenAPI document.

FastAPI's stock Swagger UI loads its scripts from a CDN and runs inline scripts; Companion serves
everything itself under a strict CSP, so this page renders the same OpenAPI document as plain
HTML instead. The machine-readable document stays at `/openapi.json`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from companion.web.templating import render

router = APIRouter(include_in_schema=False)


@dataclass
class Property:
    name: str
    type: str
    required: bool
    description: str
    default: str


@dataclass
class Operation:
    method: str
    path: str
    summary: str
    description: str
    anchor: str
    properties: list[Property] = field(default_factory=list)
    example: str = ""
    responses: list[tuple[str, str]] = field(default_factory=list)


def _resolve(schema: Any, components: dict[str, Any]) -> dict[str, Any]:
    if isinstance(schema, dict) and "$ref" in schema:
        name = str(schema["$ref"]).rsplit("/", 1)[-1]
        found = components.get("schemas", {}).get(name, {})
        return found if isinstance(found, dict) else {}
    return schema if isinstance(schema, dict) else {}


def _type_of(schema: dict[str, Any]) -> str:
    if "enum" in schema:
        return " | ".join(json.dumps(value) for value in schema["enum"])
    if "const" in schema:
        return json.dumps(schema["const"])
    options = schema.get("anyOf") or schema.get("oneOf")
    if options:
        return " | ".join(_type_of(option) for option in options)
    kind = schema.get("type")
    if kind == "array":
        return f"array of {_type_of(schema.get('items', {}))}"
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1]
    return str(kind or "any")


def _properties(schema: dict[str, Any]) -> list[Property]:
    required = set(schema.get("required", ()))
    found = []
    for name, spec in schema.get("properties", {}).items():
        default = json.dumps(spec["default"]) if "default" in spec else ""
        found.append(
            Property(name, _type_of(spec), name in required, spec.get("description", ""), default)
        )
    return found


def operations(document: dict[str, Any]) -> list[Operation]:
    """The documented operations of an OpenAPI document, in path order."""
    components = document.get("components", {})
    found = []
    for path, methods in document.get("paths", {}).items():
        for method, spec in methods.items():
            body = spec.get("requestBody", {}).get("content", {}).get("application/json", {})
            schema = _resolve(body.get("schema", {}), components)
            examples = schema.get("examples") or []
            operation = Operation(
                method=method.upper(),
                path=path,
                summary=spec.get("summary", ""),
                description=spec.get("description", ""),
                anchor=f"{method}-{path}".replace("/", "-").replace("{", "").replace("}", ""),
                properties=_properties(schema),
                example=json.dumps(examples[0], indent=2, ensure_ascii=False) if examples else "",
                responses=[
                    (str(status), str(answer.get("description", "")))
                    for status, answer in spec.get("responses", {}).items()
                ],
            )
            found.append(operation)
    return found


@router.get("/docs", response_class=HTMLResponse)
async def api_docs(request: Request) -> HTMLResponse:
    document = request.app.openapi()
    return render(
        request,
        "api_docs.html",
        title=document.get("info", {}).get("title", "Companion"),
        version=document.get("info", {}).get("version", ""),
        operations=operations(document),
    )

"""Errors as JSON (`{"error": "..."}`) for the API, as a page for a browser; never a traceback.

- `InvalidRequestError` (a request that is not well-formed): 422.
- A rate limit's refusal (`api.limits.TooManyRequestsError`): 429 with its `Retry-After`.
- Any other `CompanionError` (tiles that cannot be read, a hand of the wrong size...): 400, or
  the error's own `http_status` (415 for a body that is not JSON); a 503 (the database
  unreachable or full) carries `Retry-After`.
- FastAPI's own validation errors (path or query parameters): 422.
- HTTP errors keep their status (404, 405, 401, 403...) and headers.
- Anything else: 500 with a generic message; the traceback goes to the log only.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from companion.api.security import RETRY_AFTER_SECONDS
from companion.errors import CompanionError, InvalidRequestError

logger = logging.getLogger("companion.api")

JSON_PREFIXES = ("/api/", "/openapi.json")


def wants_json(request: Request) -> bool:
    """API paths answer in JSON; pages answer with an HTML page."""
    path = request.url.path
    return path.startswith(JSON_PREFIXES) or path == "/api"


def error_json(
    status: int,
    message: str,
    headers: dict[str, str] | None = None,
    refusal: CompanionError | None = None,
) -> JSONResponse:
    return JSONResponse(
        {"error": message, **refusal_fields(refusal)}, status_code=status, headers=headers
    )


def retry_headers(status: int) -> dict[str, str] | None:
    """`Retry-After` for a 503: the refusal is for now, not for the request."""
    return {"Retry-After": str(RETRY_AFTER_SECONDS)} if status == 503 else None


def refusal_fields(refusal: CompanionError | None) -> dict[str, Any]:
    """`error_key` and `error_params` of a refusal that has a key (docs/contract.md), so a page
    says it in its own language; nothing for one without."""
    if refusal is None or refusal.key is None:
        return {}
    return {"error_key": refusal.key, "error_params": dict(refusal.params)}


def _describe_validation(errors: Any) -> str:
    parts = []
    for error in errors if isinstance(errors, list | tuple) else ():
        if not isinstance(error, dict):
            continue
        location = ".".join(str(item) for item in error.get("loc", ()) if item != "body")
        message = str(error.get("msg", "is not valid"))
        parts.append(f"{location}: {message}" if location else message)
    return "; ".join(parts) or "the request is not valid"


async def _render_error(
    request: Request, status: int, message: str, refusal: CompanionError | None = None
) -> Response:
    # Imported here: the web package imports the API's helpers, not the other way round at
    # import time.
    from companion.web.templating import render_error

    return render_error(request, status, message, refusal)


def install_error_handlers(app: FastAPI) -> None:
    async def companion_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, CompanionError)
        default = 422 if isinstance(exc, InvalidRequestError) else 400
        status = int(getattr(exc, "http_status", default))
        headers = retry_headers(status)
        retry_after = getattr(exc, "retry_after", None)  # a 429's (`api.limits`)
        if retry_after is not None:
            headers = {"Retry-After": str(retry_after)}
        if wants_json(request):
            return error_json(status, exc.message, headers, refusal=exc)
        # A 429's page says it in the reader's language.
        shown = exc if status == 429 else None
        response = await _render_error(request, status, exc.message, shown)
        response.headers.update(headers or {})
        return response

    async def validation_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        message = _describe_validation(exc.errors())
        if wants_json(request):
            return error_json(422, message)
        return await _render_error(request, 422, message)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        headers = dict(exc.headers) if exc.headers else None
        message = str(exc.detail) if exc.detail else "error"
        if exc.status_code == 404 and message == "Not Found":
            message = f"there is nothing at {request.url.path}"
        if exc.status_code == 405 and message == "Method Not Allowed":
            message = f"{request.method} is not allowed on {request.url.path}"
        if wants_json(request):
            return error_json(exc.status_code, message, headers)
        response = await _render_error(request, exc.status_code, message)
        if headers:
            response.headers.update(headers)
        return response

    async def unexpected_error(request: Request, exc: Exception) -> Response:
        logger.exception("unexpected error on %s %s", request.method, request.url.path)
        return error_json(500, "Companion hit an unexpected error")

    app.add_exception_handler(CompanionError, companion_error)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(Exception, unexpected_error)

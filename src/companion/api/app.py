"""The web app: `create_app()` puts the API, the pages, the static files and the safety nets
together.

Areas are routers: `ROUTERS` lists them in order (JSON API routers under `/api/...`, page
routers for HTML). A new area (the tables) adds its API router and its page router to the list
and its nav item to `companion.web.templating.NAV`; the middleware, error handlers, templates,
catalogue and static files are shared.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from urllib.parse import urlsplit

from fastapi import APIRouter, FastAPI
from starlette.datastructures import MutableHeaders
from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import companion
from companion.api import (
    clubs,
    docs,
    event_day,
    event_stream,
    events,
    scoring,
    table_preview,
    table_stream,
    tables,
)
from companion.api.errors import install_error_handlers
from companion.api.limits import RateLimiter, RateLimits
from companion.api.security import MAX_BODY, SecurityMiddleware
from companion.web import (
    club_forms,
    club_organiser,
    club_pages,
    event_forms,
    event_pages,
    pages,
    table_pages,
    table_share,
)
from companion.web import event_day as event_day_pages
from companion.web.templating import STATIC_DIR

ROUTERS: list[APIRouter] = [
    scoring.router,
    tables.router,
    events.router,
    event_day.router,
    clubs.router,
    table_stream.router,
    event_stream.router,
    table_preview.router,
    pages.router,
    table_pages.router,
    table_share.router,
    event_pages.router,
    event_day_pages.router,
    club_organiser.router,
    club_pages.router,
    club_forms.router,
    event_forms.router,
    docs.router,
]
"""Every area's routers, in the order they are matched."""

TRUSTED_ORIGINS_ENV = "COMPANION_TRUSTED_ORIGINS"

DESCRIPTION = """Score mahjong hands: one request in, one result out, as docs/contract.md describes.

Errors are JSON objects with an `error` message: 400 for a body that is not JSON, 413 for one
over the size limit, 415 for one not sent as JSON, 422 for a request that is not well-formed.
A hand that is well-formed but not a legal win is a 200 result with `"valid": false`."""


COMPRESS_LEVEL = 6
"""gzip's level: 9 saves a few bytes more on a table page for about twice the time."""
COMPRESS_FROM = 500
"""Bodies shorter than this (bytes) are sent as they are: gzip's header would eat the gain."""


class _Compressed:
    """Pages, styles, scripts and JSON sent gzip-compressed to a client that accepts it
    (Starlette's `GZipMiddleware`, which adds `Vary: Accept-Encoding`), never the live stream:
    an event stream's messages must leave as they are written, and a compressor holds them until
    its buffer fills. The stream is passed by its path (`/api/tables/{id}/stream`), as well as
    by its content type (which newer Starlettes skip themselves), so that no version buffers it.
    A compressed response's ETag is made weak (`W/"…"`): the bytes differ from the file's,
    the content does not, and revalidation (`If-None-Match`, a 304) works as before."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.gzip = GZipMiddleware(app, minimum_size=COMPRESS_FROM, compresslevel=COMPRESS_LEVEL)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path: str = scope.get("path", "")
        if scope["type"] != "http" or (
            path.startswith("/api/tables/") and path.endswith("/stream")
        ):
            await self.app(scope, receive, send)
            return

        async def weak_etag(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                etag = headers.get("etag")
                if etag and headers.get("content-encoding") and not etag.startswith("W/"):
                    headers["etag"] = f"W/{etag}"
            await send(message)

        await self.gzip(scope, receive, weak_etag)


class _StaticFiles(StaticFiles):
    """Static files that browsers revalidate (their ETag makes that cheap)."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        response.headers.setdefault("cache-control", "no-cache")
        return response


def create_app(
    database_url: str | None = None,
    *,
    max_body: int = MAX_BODY,
    trusted_origins: Iterable[str] | None = None,
    allowed_hosts: Iterable[str] | None = None,
    any_ip_host: bool = False,
    rate_limits: RateLimits | None = None,
    public_url: str | None = None,
    listen_host: str | None = None,
) -> FastAPI:
    """The Companion web app.

    `database_url` (`--db`) is kept in `app.state.database_url` for the areas that store things;
    `database_url(request)` resolves it as the ledger does (None: `COMPANION_DATABASE_URL`, else
    the SQLite file in the user's data directory). `max_body` limits request bodies
    (bytes). `trusted_origins` are extra origins allowed to post, for a reverse proxy that
    rewrites the Host header (default: `COMPANION_TRUSTED_ORIGINS`, comma-separated).
    `allowed_hosts` (`--allowed-host`) are the host names it answers for (None: any; `companion
    serve` always passes a list), `any_ip_host` allows any IP literal too (a server on every
    interface). `rate_limits` are the token buckets for creating tables and writing to one
    (default: `RateLimits()`, on with generous numbers). `public_url` (`--public-url`) is the
    address a table's links carry; `listen_host` (`--host`) the address the server listens on,
    from which the links' address is chosen without it (`companion.web.table_share`).
    """
    app = FastAPI(
        title="Companion",
        version=companion.__version__,
        description=DESCRIPTION,
        docs_url=None,
        redoc_url=None,
        swagger_ui_oauth2_redirect_url=None,
        openapi_url="/openapi.json",
        debug=False,
    )
    app.state.database_url = database_url
    app.state.rate_limiter = RateLimiter(rate_limits or RateLimits())
    app.state.public_url = public_url
    app.state.listen_host = listen_host
    origins = trusted_origins
    if origins is None:
        origins = [o.strip() for o in os.environ.get(TRUSTED_ORIGINS_ENV, "").split(",")]
    if public_url:
        # Its pages post back to it, whatever Host header a proxy in front passes on.
        parts = urlsplit(public_url)
        origins = [*origins, f"{parts.scheme}://{parts.netloc}"]
    app.add_middleware(
        SecurityMiddleware,
        max_body=max_body,
        trusted_origins=[o for o in origins if o],
        allowed_hosts=None if allowed_hosts is None else list(allowed_hosts),
        any_ip_host=any_ip_host,
    )
    app.add_middleware(_Compressed)  # outermost: it compresses what every other layer sent
    install_error_handlers(app)
    for router in ROUTERS:
        app.include_router(router)
    app.mount("/static", _StaticFiles(directory=STATIC_DIR), name="static")
    return app

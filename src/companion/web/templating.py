"""Shared page rendering: the Jinja environment, the language of a request, the layout context.

Every page renders through `render(request, "name.html", **context)`, which gives its template:

- `t("key", **fields)`: a catalogue message in the page's language; `lang`, `languages`;
- `csrf_field()`: the hidden CSRF input every `<form method="post">` must contain;
- `static("app.css")`: a versioned URL under `/static/`; `tiles_url`: the tile sprite;
- `tile(mpsz, label)`: an inline `<svg>` of one tile from the sprite;
- `nav`: the header's links (`NAV` below; later areas append theirs), `path`: the current path.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup, escape

from companion.api.security import CSRF_FIELD, csrf_token
from companion.errors import CompanionError
from companion.web import i18n
from companion.web.tiles_svg import sprite_version

WEB_DIR = Path(__file__).resolve().parent
TEMPLATES_DIR = WEB_DIR / "templates"
STATIC_DIR = WEB_DIR / "static"
TILES_PATH = "/assets/tiles.svg"


@dataclass(frozen=True)
class NavItem:
    path: str
    label_key: str
    """A catalogue key."""


NAV: list[NavItem] = [
    NavItem("/", "nav.calculator"),
    NavItem("/tables", "nav.tables"),
    NavItem("/events", "nav.events"),
    NavItem("/clubs", "nav.clubs"),
    NavItem("/docs", "nav.api_docs"),
]
"""The header's links, in order. A new area adds its item (e.g. `/tables`) where it is set up."""


@cache
def static_version() -> str:
    """A hash of every static file, so their URLs change when they do."""
    digest = hashlib.sha256()
    for path in sorted(STATIC_DIR.rglob("*")):
        if path.is_file():
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def static_url(name: str) -> str:
    return f"/static/{name}?v={static_version()}"


def tiles_url() -> str:
    return f"{TILES_PATH}?v={sprite_version()}"


def tile_svg(mpsz: str, label: str = "", css_class: str = "tile") -> Markup:
    """One tile drawn from the sprite. With a `label` it is an image with that name; without,
    it is decoration (the surrounding element names it)."""
    role = f' role="img" aria-label="{escape(label)}"' if label else ' aria-hidden="true"'
    return Markup(
        f'<svg class="{escape(css_class)}" viewBox="0 0 60 80"{role} focusable="false">'
        f'<use href="{escape(tiles_url())}#t-{escape(mpsz)}"></use></svg>'
    )


def inline_code(text: str) -> Markup:
    """Escape `text` and show its `backticked` parts as code (for OpenAPI descriptions)."""
    parts = str(text).split("`")
    return Markup("").join(
        Markup("<code>{}</code>").format(part) if index % 2 else escape(part)
        for index, part in enumerate(parts)
    )


def _environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(str(TEMPLATES_DIR)),
        autoescape=select_autoescape(("html", "xml")),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals.update(static=static_url, tile=tile_svg, language_names=i18n.LANGUAGE_NAMES)
    env.filters["inline_code"] = inline_code
    return env


templates = Jinja2Templates(env=_environment())


def request_language(request: Request) -> str:
    """The page language: `?lang=`, then the `companion_lang` cookie, then Accept-Language."""
    return i18n.negotiate(
        request.query_params.get("lang"),
        request.cookies.get(i18n.LANGUAGE_COOKIE),
        request.headers.get("accept-language"),
    )


def page_context(request: Request) -> dict[str, Any]:
    lang = request_language(request)
    token = csrf_token(request)

    def csrf_field() -> Markup:
        return Markup(f'<input type="hidden" name="{CSRF_FIELD}" value="{escape(token)}">')

    return {
        "lang": lang,
        "languages": i18n.LANGUAGES,
        "t": i18n.Translator(lang),
        "csrf_field": csrf_field,
        "tiles_url": tiles_url(),
        "nav": NAV,
        "path": request.url.path,
    }


def remember_language(request: Request, response: Response) -> None:
    """Keep a `?lang=` choice in the language cookie."""
    chosen = i18n.normalize_language(request.query_params.get("lang"))
    if chosen:
        set_language_cookie(response, chosen)


def set_language_cookie(response: Response, lang: str) -> None:
    response.set_cookie(
        i18n.LANGUAGE_COOKIE, lang, max_age=365 * 24 * 3600, samesite="lax", httponly=True
    )


def render(request: Request, name: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    """A page from `templates/`, with the layout's context; `?lang=` is remembered."""
    response = templates.TemplateResponse(
        request, name, {**page_context(request), **context}, status_code=status_code
    )
    remember_language(request, response)
    return response


def render_error(
    request: Request, status: int, message: str, refusal: CompanionError | None = None
) -> HTMLResponse:
    """The error page, in the request's language, with the error's own message (a keyed
    `refusal`'s in that language too)."""
    t = i18n.Translator(request_language(request))
    summaries = {
        404: "error.not_found",
        403: "error.forbidden",
        413: "error.too_large",
        429: "error.too_many",
    }
    summary = t(summaries.get(status, "error.generic"))
    if refusal is not None and refusal.key is not None and t.has(refusal.key):
        message = t(refusal.key, **refusal.params)
    return render(request, "error.html", status_code=status, summary=summary, message=message)

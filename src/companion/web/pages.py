"""The calculator page, the language switch, the tile sprite, and what makes the app
installable and usable offline: the web app manifest and the service worker (`/sw.js`)."""

from __future__ import annotations

import json
from functools import cache
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from companion.api.profiles import all_profiles
from companion.api.security import read_form
from companion.tiles import Tile
from companion.web import i18n
from companion.web.templating import (
    STATIC_DIR,
    TILES_PATH,
    render,
    request_language,
    set_language_cookie,
    static_url,
    static_version,
    tiles_url,
)
from companion.web.tiles_svg import RED_FIVES, sprite

router = APIRouter(include_in_schema=False)

PICKER_ROWS: tuple[tuple[str, tuple[str, ...]], ...] = tuple(
    (suit, tuple(tile.mpsz for tile in Tile if tile.suit.value == suit)) for suit in "mpsz"
)
"""The playing tiles by suit: characters, circles, bamboo, honors."""
BONUS_ROWS: tuple[tuple[str, tuple[str, ...]], ...] = tuple(
    (suit, tuple(tile.mpsz for tile in Tile if tile.suit.value == suit)) for suit in "fa"
)
"""Flowers and seasons, then animals."""


def page_tile_names(lang: str) -> dict[str, str]:
    """Every tile's name in `lang` by MPSZ, riichi's red fives (`0m 0p 0s`) included."""
    names = i18n.tile_names(lang)
    names.update((mpsz, i18n.translate(lang, f"tile.{mpsz}")) for mpsz in RED_FIVES)
    return names


def editor_context(lang: str) -> dict[str, Any]:
    """What the hand editor component (`components/hand_editor.html`) needs."""
    return {
        "picker_rows": PICKER_ROWS,
        "red_fives": RED_FIVES,
        "bonus_rows": BONUS_ROWS,
        "tile_names": page_tile_names(lang),
    }


def script_data(lang: str, **extra: Any) -> dict[str, Any]:
    """The page's JSON data block for its scripts: messages, names, profiles, URLs."""
    return {
        "lang": lang,
        "messages": i18n.catalogue(lang),
        "patterns": i18n.pattern_names(lang),
        "tiles": page_tile_names(lang),
        "profiles": list(all_profiles()),
        "tilesUrl": tiles_url(),
        "api": {"score": "/api/score", "waits": "/api/waits"},
        **extra,
    }


@router.get("/", response_class=HTMLResponse)
async def calculator(request: Request) -> HTMLResponse:
    lang = request_language(request)
    return render(
        request,
        "calculator.html",
        profiles=all_profiles(),
        page_data=script_data(lang),
        **editor_context(lang),
    )


def safe_next(target: str | None) -> str:
    """A local path to go back to; anything else (another site, `//host`) becomes `/`."""
    if not target or not target.startswith("/") or target.startswith("//"):
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or "\\" in target:
        return "/"
    return target


@router.post("/lang")
async def switch_language(request: Request) -> Response:
    """The header's language buttons: remember the choice and go back (CSRF-checked form)."""
    form = read_form(await request.body())
    lang = i18n.normalize_language(form.get("lang")) or i18n.DEFAULT_LANGUAGE
    response = RedirectResponse(safe_next(form.get("next")), status_code=303)
    set_language_cookie(response, lang)
    return response


@router.get(TILES_PATH)
async def tiles_sprite() -> Response:
    return Response(
        sprite(),
        media_type="image/svg+xml",
        headers={"cache-control": "public, max-age=86400"},
    )


# ---------------------------------------------------------------------------------------------
# Installable and offline

MANIFEST_PATH = "/manifest.webmanifest"
SHELL_PAGES = ("/", "/tables")
"""The pages the service worker keeps from the start (a table's page is kept once seen)."""


def shell_files() -> list[str]:
    """What the service worker caches on install: the pages above, the stylesheets, the
    scripts (with the URLs the pages use, and the bare ones that modules import), the tile
    sprite, the icon and the manifest."""
    scripts = sorted(path.relative_to(STATIC_DIR).as_posix() for path in STATIC_DIR.rglob("*.js"))
    scripts = [name for name in scripts if name != "js/sw.js"]
    files = [*SHELL_PAGES, MANIFEST_PATH, tiles_url()]
    for name in ("app.css", "tables.css", "icon.svg", *scripts):
        files.extend((static_url(name), f"/static/{name}"))
    return files


@cache
def service_worker() -> str:
    source = (STATIC_DIR / "js" / "sw.js").read_text(encoding="utf-8")
    return source.replace("__VERSION__", static_version()).replace(
        "__SHELL__", json.dumps(shell_files())
    )


@router.get("/sw.js")
async def service_worker_script() -> Response:
    # At the root, so that it may serve every page of the site; revalidated on each visit, so
    # a new release replaces it (its cache name carries the static files' version).
    return Response(
        service_worker(),
        media_type="text/javascript",
        headers={"cache-control": "no-cache"},
    )


@router.get(MANIFEST_PATH)
async def manifest(request: Request) -> Response:
    t = i18n.Translator(request_language(request))
    data = {
        "name": t("app.name"),
        "short_name": t("app.name"),
        "description": t("app.tagline"),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#f4f1e8",
        "theme_color": "#1f6b4f",
        "icons": [
            {"src": static_url("icon.svg"), "sizes": "any", "type": "image/svg+xml"},
            {
                "src": static_url("icon.svg"),
                "sizes": "any",
                "type": "image/svg+xml",
                "purpose": "maskable",
            },
        ],
    }
    return Response(
        json.dumps(data, ensure_ascii=False),
        media_type="application/manifest+json",
        headers={"cache-control": "no-cache"},
    )

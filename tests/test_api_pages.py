"""The pages: the calculator in its three languages, the API reference, the tile sprite and
static files (the catalogues themselves: tests/test_catalogues.py)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from companion.api import create_app
from companion.rules import profiles
from companion.tiles import Tile
from companion.web.templating import STATIC_DIR


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


class Collector(HTMLParser):
    """Scripts, elements with a style attribute, and every src/href."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[dict[str, str | None]] = []
        self.styled: list[str] = []
        self.urls: list[str] = []
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        self.tags.append((tag, attributes))
        if tag == "script":
            self.scripts.append(attributes)
        if "style" in attributes:
            self.styled.append(tag)
        for name in ("src", "href"):
            value = attributes.get(name)
            if value:
                self.urls.append(value)


def parse(html: str) -> Collector:
    collector = Collector()
    collector.feed(html)
    return collector


def page_data(html: str) -> dict[str, object]:
    match = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', html, re.S)
    assert match, "the page has no data block"
    data = json.loads(match.group(1))
    assert isinstance(data, dict)
    return data


# --- The calculator -------------------------------------------------------------------------


def test_the_calculator_page(client: TestClient) -> None:
    response = client.get("/", headers={"accept-language": "en-GB,en;q=0.8"})
    assert response.status_code == 200
    html = response.text
    assert '<html lang="en">' in html
    assert "Score a hand" in html
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    page = parse(html)
    picker = [attrs["data-tile"] for tag, attrs in page.tags if "data-tile" in attrs]
    # The playing tiles, then riichi's red fives (a row the script shows for riichi alone).
    assert picker == [tile.mpsz for tile in Tile if tile < Tile.PLUM] + ["0m", "0p", "0s"]
    red_row = [attrs for tag, attrs in page.tags if "data-red-row" in attrs]
    assert len(red_row) == 1 and "hidden" in red_row[0]
    bonus = [attrs["data-bonus"] for tag, attrs in page.tags if "data-bonus" in attrs]
    assert bonus == [tile.mpsz for tile in Tile if tile >= Tile.PLUM]
    modes = [attrs["value"] for tag, attrs in page.tags if "data-mode" in attrs]
    assert modes == ["tile", "chow", "pung", "kong", "akong", "ckong"]
    data = page_data(html)
    assert data["lang"] == "en"
    assert {p["id"] for p in data["profiles"]} == set(profiles())  # type: ignore[attr-defined]
    assert data["api"] == {"score": "/api/score", "waits": "/api/waits"}


def test_no_inline_script_or_style_and_nothing_from_elsewhere(client: TestClient) -> None:
    for path in ("/", "/docs", "/nowhere", "/?lang=zh-Hant"):
        page = parse(client.get(path).text)
        for script in page.scripts:
            assert script.get("src") or script.get("type") == "application/json", script
        assert not page.styled, f"{path}: style attributes on {page.styled}"
        for url in page.urls:
            assert url.startswith(("/", "#")), f"{path} refers to {url}"


def test_the_page_in_traditional_chinese(client: TestClient) -> None:
    fresh = TestClient(create_app())
    response = fresh.get("/?lang=zh-Hant")
    assert '<html lang="zh-Hant">' in response.text
    assert "計算台數" in response.text
    assert "companion_lang=zh-Hant" in response.headers["set-cookie"]
    data = page_data(response.text)
    assert data["patterns"]["dragon_set"] == "三元刻"  # type: ignore[index]
    assert data["tiles"]["5s"] == "五索"  # type: ignore[index]
    again = fresh.get("/")
    assert '<html lang="zh-Hant">' in again.text, "the choice is kept in a cookie"


def test_the_page_in_simplified_chinese(client: TestClient) -> None:
    fresh = TestClient(create_app())
    response = fresh.get("/?lang=zh-Hans")
    assert '<html lang="zh-Hans">' in response.text
    assert "计算台数" in response.text and "計算台數" not in response.text
    assert "companion_lang=zh-Hans" in response.headers["set-cookie"]
    data = page_data(response.text)
    assert data["lang"] == "zh-Hans"
    assert data["messages"]["mode.kong"] == "明杠"  # type: ignore[index]
    assert data["patterns"]["all_terminals"] == "清幺九"  # type: ignore[index]
    assert data["tiles"]["6z"] == "发财"  # type: ignore[index]
    again = fresh.get("/docs")
    assert '<html lang="zh-Hans">' in again.text, "the choice is kept in a cookie"
    assert "API 文档" in again.text


@pytest.mark.parametrize(
    ("accept", "lang"),
    [
        ("zh-TW,zh;q=0.9", "zh-Hant"),
        ("zh-Hant-HK", "zh-Hant"),
        ("zh-HK", "zh-Hant"),
        ("zh-CN,zh;q=0.9,en;q=0.8", "zh-Hans"),
        ("zh-SG", "zh-Hans"),
        ("zh-Hans", "zh-Hans"),
        ("zh-Hans-MY", "zh-Hans"),
        ("zh", "zh-Hans"),
        ("fr, de", "en"),
        ("fr, zh-Hant;q=0.5", "zh-Hant"),
        ("", "en"),
    ],
)
def test_the_browser_language_is_the_default(client: TestClient, accept: str, lang: str) -> None:
    fresh = TestClient(create_app())
    html = fresh.get("/", headers={"accept-language": accept}).text
    assert f'<html lang="{lang}">' in html


def test_the_language_switch(client: TestClient) -> None:
    fresh = TestClient(create_app())
    html = fresh.get("/docs").text
    token = fresh.cookies.get("companion_csrf")
    assert 'action="/lang"' in html and 'name="next" value="/docs"' in html
    response = fresh.post("/lang", data={"lang": "zh-Hant", "next": "/docs", "csrf_token": token})
    assert response.status_code == 200
    assert str(response.url).endswith("/docs")
    assert '<html lang="zh-Hant">' in response.text


def test_the_language_menu_offers_the_three_languages(client: TestClient) -> None:
    page = parse(TestClient(create_app()).get("/?lang=zh-Hans").text)
    buttons = [attrs for tag, attrs in page.tags if tag == "button" and attrs.get("name") == "lang"]
    assert [(b["value"], b["lang"], b["aria-pressed"]) for b in buttons] == [
        ("en", "en", "false"),
        ("zh-Hant", "zh-Hant", "false"),
        ("zh-Hans", "zh-Hans", "true"),
    ]
    html = TestClient(create_app()).get("/?lang=en").text
    for name in ("English", "繁體中文", "简体中文"):
        assert f">{name}</button>" in html


def test_an_error_page_in_chinese() -> None:
    client = TestClient(create_app())
    client.cookies.set("companion_lang", "zh-Hant")
    response = client.get("/nowhere")
    assert response.status_code == 404
    assert "找不到這一頁" in response.text
    client.cookies.set("companion_lang", "zh-Hans")
    assert "这里没有页面" in client.get("/nowhere").text


# --- The API reference, sprite and static files ---------------------------------------------


def test_the_api_reference(client: TestClient) -> None:
    response = client.get("/docs")
    assert response.status_code == 200
    html = response.text
    for path in ("/api/score", "/api/waits", "/api/profiles"):
        assert f"<code>{path}</code>" in html
    assert "win_tile" in html and "openapi.json" in html
    assert "<code>&#34;valid&#34;: false</code>" in html or '<code>"valid": false</code>' in html
    assert "cdn" not in html.lower()
    assert client.get("/redoc").status_code == 404


def test_the_tile_sprite(client: TestClient) -> None:
    response = client.get("/assets/tiles.svg")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("image/svg+xml")
    root = ET.fromstring(response.text)
    ids = {symbol.get("id") for symbol in root.iter("{http://www.w3.org/2000/svg}symbol")}
    assert ids == {f"t-{tile.mpsz}" for tile in Tile} | {"t-0m", "t-0p", "t-0s", "t-back"}
    assert " style=" not in response.text
    assert "http://" not in response.text.replace("http://www.w3.org/", "")


def test_static_files(client: TestClient) -> None:
    for name in ("app.css", "icon.svg", "js/calculator.js"):
        response = client.get(f"/static/{name}")
        assert response.status_code == 200, name
        assert response.headers["cache-control"] == "no-cache"
    assert client.get("/static/../i18n.py").status_code == 404


def test_every_script_import_exists() -> None:
    for script in STATIC_DIR.rglob("*.js"):
        for target in re.findall(r'from "(\./[^"]+)"', script.read_text()):
            assert (script.parent / target).resolve().is_file(), f"{script.name} imports {target}"


def test_web_files_are_packaged() -> None:
    pyproject = (Path(__file__).resolve().parents[1] / "pyproject.toml").read_text()
    assert "web/templates" in pyproject and "web/static" in pyproject

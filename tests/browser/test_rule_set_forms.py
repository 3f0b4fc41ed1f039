"""The create forms of /tables and /events in a real browser: choosing a rule set (riichi's
`preset`) shows its values in every option field, and the table or event made plays what the
form showed (issue 37: the form kept Tenhou's values while the server stored EMA's)."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

Tab = Any  # tests/browser/conftest.py's Tab: a Playwright page, its base URL and its errors

PLAYERS = ("Ann", "Ben", "Cat", "Dan")


def riichi_info(base: str) -> dict[str, Any]:
    profiles = httpx.get(f"{base}/api/profiles").json()
    profiles = profiles.get("profiles", profiles) if isinstance(profiles, dict) else profiles
    return next(profile for profile in profiles if profile["id"] == "riichi")


def shown(page: Any, options: list[dict[str, Any]]) -> dict[str, Any]:
    """Each riichi option as the form shows it, as JSON values."""
    found: dict[str, Any] = {}
    for option in options:
        field = page.locator(f"[name='option:riichi:{option['name']}']")
        if field.count() == 0:
            continue
        if option["type"] == "bool":
            found[option["name"]] = field.is_checked()
        elif option["type"] == "int":
            found[option["name"]] = int(field.input_value())
        else:
            found[option["name"]] = field.input_value()
    return found


def played(stored: dict[str, Any], options: list[dict[str, Any]]) -> dict[str, Any]:
    """What a table with the `stored` options plays, option by option: its own value, else
    its rule set's, else the profile's default."""
    preset = next(option for option in options if option.get("presets"))
    chosen = stored.get(preset["name"], preset["default"])
    by_preset = preset["presets"].get(chosen, {})
    return {
        option["name"]: stored.get(option["name"], by_preset.get(option["name"], option["default"]))
        for option in options
    }


@pytest.mark.parametrize(
    ("page_path", "lang"), [("/tables", "en"), ("/events", "zh-Hans"), ("/tables", "zh-Hant")]
)
def test_each_rule_set_shows_what_is_played(desktop: Tab, page_path: str, lang: str) -> None:
    page = desktop.page
    info = riichi_info(desktop.base)
    options = info["options"]
    presets = next(option for option in options if option.get("presets"))["presets"]
    assert len(presets) >= 5
    for name in presets:
        desktop.goto(f"{page_path}?lang={lang}")
        page.locator("#create-profile").select_option("riichi")
        page.locator("#create-options summary").click()
        page.locator("[name='option:riichi:preset']").select_option(name)
        form_values = shown(page, options)
        # Every option the rule set has a value for shows that value.
        for option, value in presets[name].items():
            if option in form_values:
                assert form_values[option] == value, (name, option)
        if page_path == "/tables":
            for seat, player in enumerate(PLAYERS):
                page.locator(f"#player{seat}").fill(player)
            page.locator("#create-submit").click()
            page.wait_for_url(re.compile(r"/t/[a-z0-9]{8}$"))
            made = page.url.rsplit("/", 1)[1]
            stored = httpx.get(f"{desktop.base}/api/tables/{made}").json()["options"]
        else:
            page.locator("#event-name").fill(f"Night {name}")
            page.locator("#event-players").fill("\n".join(PLAYERS))
            page.locator("#event-rounds").fill("1")
            page.locator("#create-submit").click()
            page.wait_for_url(re.compile(r"/e/[a-z0-9]{8}"))
            made = re.search(r"/e/([a-z0-9]{8})", page.url).group(1)  # type: ignore[union-attr]
            stored = httpx.get(f"{desktop.base}/api/events/{made}").json()["options"]
        plays = played(stored, options)
        assert {option: plays[option] for option in form_values} == form_values, name

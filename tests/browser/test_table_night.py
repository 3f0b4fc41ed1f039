"""A table night as a newcomer meets it, in Chromium: a table page opened once reopens offline
with the hand waiting to be sent; New hand starts the calculator's next hand afresh; the tile
picker keeps a suit on one row on a phone; a long session's board stays readable."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

PHONE = {"width": 375, "height": 812}
DESKTOP = {"width": 1280, "height": 800}
PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
OFFLINE_ERRORS = ("ERR_INTERNET_DISCONNECTED", "Failed to load resource", "net::ERR")


def create(base: str, players: list[str] = PLAYERS, **fields: Any) -> tuple[str, str]:
    response = httpx.post(
        f"{base}/api/tables", json={"profile": "sg", "players": players, **fields}
    )
    assert response.status_code == 201, response.text
    return response.json()["id"], response.json()["token"]


@pytest.fixture
def offline_phone(browser: Any) -> Iterator[tuple[Any, Any, list[str]]]:
    """A phone whose service worker runs (the other browser tests block it)."""
    context = browser.new_context(
        viewport=PHONE,
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        locale="en-US",
        service_workers="allow",
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield context, page, errors
    context.close()


def test_a_table_page_opened_once_reopens_offline_with_its_waiting_hand(
    offline_phone: tuple[Any, Any, list[str]], live_server: str
) -> None:
    context, page, errors = offline_phone
    table_id, token = create(live_server)
    # Opened once, from the write link, on a device that has never seen the app.
    page.goto(f"{live_server}/t/{table_id}?lang=en#token={token}")
    page.wait_for_selector("body[data-ready='true']")
    page.wait_for_selector("body[data-kept='true']")
    kept = page.evaluate(
        """async () => {
          const names = await caches.keys();
          const urls = [];
          for (const name of names) {
            for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
          }
          return urls;
        }"""
    )
    assert f"{live_server}/t/{table_id}?lang=en" in kept
    assert f"{live_server}/t/{table_id}/board?lang=en" in kept
    assert not [url for url in kept if "#" in url or "token" in url], "no fragment in a key"

    context.set_offline(True)
    page.reload()
    page.wait_for_selector("body[data-ready='true']")
    expect(page.locator("#offline-banner")).to_be_visible()
    expect(page.locator("#record")).to_be_visible()  # the table, not the calculator
    expect(page.locator("#scoreboard [data-player='1'] [data-name]")).to_have_text("Ben")
    for name, value in (("winner", "1"), ("from", "2"), ("tai", "3")):
        page.locator(f"#record-form input[name='{name}'][value='{value}'] + span").click()
    page.locator("#record-submit").click()
    expect(page.locator("#outbox-list li")).to_have_count(1)

    # Reloaded again with no connection: the table and its pending hand are there.
    page.reload()
    page.wait_for_selector("body[data-ready='true']")
    expect(page.locator("h1")).to_contain_text(table_id)
    expect(page.locator("#outbox-list li[data-state='waiting']")).to_contain_text(
        "Ben wins 3 tai from Cat"
    )
    assert httpx.get(f"{live_server}/api/tables/{table_id}/history").json()["events"] == []

    context.set_offline(False)
    expect(page.locator("#history [data-seq='1']")).to_contain_text("Ben wins 3 tai from Cat")
    expect(page.locator("#outbox")).to_be_hidden()
    assert not [e for e in errors if not any(part in e for part in OFFLINE_ERRORS)], errors

"""The organiser's token in a real browser with the service worker on: the organiser's part of
the page (every table's write link) is never kept by the service worker, so offline a fetch of
it without the token finds nothing; and the organiser's page forgets the event's token as a
table's page forgets its write link, leaving no trace of it on the device."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from test_table_tokens import CACHED_URLS, TRACES

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

EIGHT = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]

OFFLINE_PANEL = """async (url) => {
  try {
    const response = await fetch(url, { headers: { Accept: "text/html" } });
    return [response.status, await response.text()];
  } catch (error) {
    return [0, String(error)];
  }
}"""
"""The organiser's part fetched without the token, as anyone holding the device could."""


def test_the_organisers_part_is_never_cached_and_its_token_can_be_forgotten(
    browser: Any, live_server: str
) -> None:
    created = httpx.post(
        f"{live_server}/api/events",
        json={"name": "Cup", "players": EIGHT, "rounds": 2, "first_round": "listed"},
    ).json()
    event_id, token = created["id"], created["token"]
    auth = {"Authorization": f"Bearer {token}"}
    seated = httpx.post(
        f"{live_server}/api/events/{event_id}/rounds", json={"round": 1}, headers=auth
    )
    assert seated.status_code == 201, seated.text
    write_tokens = [
        table["token"]
        for table in httpx.get(f"{live_server}/api/events/{event_id}/tokens", headers=auth).json()[
            "tables"
        ]
    ]
    context = browser.new_context(
        viewport={"width": 375, "height": 812}, locale="en-US", service_workers="allow"
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())  # "Forget the organiser's link?": yes
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    organiser = f"{live_server}/e/{event_id}/organiser?lang=en"
    panel = f"{live_server}/e/{event_id}/organiser/panel"

    def open_page(url: str) -> None:
        page.goto("about:blank")
        page.goto(url)
        page.wait_for_selector("body[data-ready='true']")

    try:
        # Opened twice from the organiser's link: the second time under the service worker,
        # which sees the organiser's part fetched with the token.
        open_page(f"{organiser}#token={token}")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        open_page(f"{organiser}#token={token}")
        expect(page.locator("body")).to_have_attribute("data-access", "organiser")
        expect(page.locator("[data-write-link]").first).to_be_attached()
        assert not any("/organiser/panel" in url for url in page.evaluate(CACHED_URLS))
        for write_token in write_tokens:
            assert page.evaluate(TRACES, write_token) == [], "a table's token was kept"

        context.set_offline(True)
        status, body = page.evaluate(OFFLINE_PANEL, panel)
        assert status == 0, f"offline, the organiser's part answered {status}"
        assert not any(write_token in body for write_token in write_tokens)
        context.set_offline(False)

        # Forgotten: the page becomes the reader's, and the device holds no trace of the token.
        assert page.evaluate(TRACES, token) == ["localStorage: companion.events"]
        page.locator("#forget-organiser").click()
        expect(page.locator("body")).to_have_attribute("data-access", "read")
        expect(page.locator("#organiser-panel [data-write-link]")).to_have_count(0)
        assert page.evaluate(TRACES, token) == []
        open_page(organiser)
        expect(page.locator("#no-token")).to_be_visible()
        assert page.evaluate(TRACES, token) == []
    finally:
        context.close()
    assert not errors, errors

"""Write links in a real browser: a wrong link never replaces the token a device writes with."""

from __future__ import annotations

import json
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

Tab = Any  # tests/browser/conftest.py's Tab

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


def stored_token(tab: Tab, table_id: str) -> str | None:
    raw = tab.page.evaluate("localStorage.getItem('companion.tables')")
    token = json.loads(raw or "{}").get(table_id, {}).get("token")
    return token if isinstance(token, str) else None


def test_a_bogus_write_link_does_not_replace_a_working_token(phone: Tab) -> None:
    page = phone.page
    response = page.request.post(phone.base + "/api/tables", data={"players": PLAYERS})
    assert response.status == 201
    table_id, token = response.json()["id"], response.json()["token"]

    phone.goto(f"/t/{table_id}?lang=en#token={token}")
    expect(page.locator(".access-write")).to_be_visible()
    assert stored_token(phone, table_id) == token

    phone.goto("/tables?lang=en")  # a new document, as when the link is opened from a message
    phone.goto(f"/t/{table_id}?lang=en#token=bogus")
    assert "#" not in page.url, "the refused token leaves the address bar"
    assert stored_token(phone, table_id) == token, "the working token is kept"
    expect(page.locator("#access-notice")).to_have_text(
        "The write link you opened does not match this table: this device keeps the write link "
        "it already had."
    )
    expect(page.locator(".access-write")).to_be_visible()
    phone.screenshot("tables-bogus-link")
    page.locator("#record-form input[name='kind'][value='draw'] + span").click()
    page.locator("#record-submit").click()
    expect(page.locator("#confirmation")).to_be_visible()
    history = page.request.get(phone.base + f"/api/tables/{table_id}/history").json()
    assert [event["kind"] for event in history["events"]] == ["draw"]

    # A device without a token is not given the bogus one either: it watches.
    page.evaluate("localStorage.clear()")
    phone.goto("/tables?lang=en")
    phone.goto(f"/t/{table_id}?lang=en#token=bogus")
    assert stored_token(phone, table_id) is None
    expect(page.locator(".access-read")).to_be_visible()
    expect(page.locator("#access-notice")).to_be_visible()
    phone.errors[:] = [error for error in phone.errors if "status of 403" not in error]


def test_a_named_table_pages_its_history(phone: Tab, desktop: Tab) -> None:
    page = desktop.page
    body = {"players": PLAYERS, "name": "Friday night at the club"}
    created = page.request.post(desktop.base + "/api/tables", data=body).json()
    table_id, token = created["id"], created["token"]
    auth = {"Authorization": f"Bearer {token}"}
    for number in range(55):
        win = {"kind": "win", "winner": PLAYERS[number % 4], "tai": 1 + number % 3}
        win["from"] = PLAYERS[(number + 1) % 4]
        hands = page.request.post(
            f"{desktop.base}/api/tables/{table_id}/hands", data=win, headers=auth
        )
        assert hands.status == 201
    for tab in (desktop, phone):
        tab.goto(f"/t/{table_id}?lang=en")
        expect(tab.page.locator("h1 [data-table-name]")).to_have_text("Friday night at the club")
        assert tab.page.title().startswith("Friday night at the club")
        expect(tab.page.locator("#history li[data-seq]")).to_have_count(50)
        expect(tab.page.locator("#history [data-history-range]")).to_have_text(
            "Events 6 to 55 of 55"
        )
        tab.screenshot("tables-named", full_page=False)
        tab.page.locator("#history [data-older]").scroll_into_view_if_needed()
        tab.screenshot("tables-history-older-link", full_page=False)
        tab.page.locator("#history [data-older]").click()
        tab.page.wait_for_selector("body[data-ready='true']")
        assert tab.page.url.endswith(f"/t/{table_id}?before=6#history")
        seqs = tab.page.locator("#history li[data-seq]").evaluate_all(
            "items => items.map(item => Number(item.dataset.seq))"
        )
        assert seqs == [5, 4, 3, 2, 1]
        expect(tab.page.locator("#history [data-older]")).to_have_count(0)
        expect(tab.page.locator("#history [data-newest]")).to_be_visible()
        tab.screenshot("tables-older-history", full_page=False)

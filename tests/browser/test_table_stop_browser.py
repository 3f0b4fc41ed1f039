"""Stopping a money table on its page: the writer's *Stop the table* asks first, Cancel records
nothing, the stop ends the session (Record disabled, the notice says so), a reader on another
device sees *Table stopped* through the live stream, and voiding the stop in the history opens
the table again. Looked at on a 375 px phone and a 1280 px desktop (docs/web.md)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
STOPPED_NOTICE = (
    "The table was stopped: the session is over. Void the stop in the history to play on."
)


def _history_texts(base: str, table_id: str) -> list[str]:
    events = httpx.get(f"{base}/api/tables/{table_id}/history").json()["events"]
    return [event["text"] for event in events]


def test_the_writer_stops_a_money_table_and_a_reader_sees_it(
    phone: Any, desktop: Any, live_server: str
) -> None:
    created = httpx.post(
        f"{live_server}/api/tables",
        json={"profile": "sg", "players": PLAYERS, "name": "Friday sg"},
    ).json()
    table_id, token = created["id"], created["token"]
    headers = {"authorization": f"Bearer {token}"}
    for body in (
        {"kind": "win", "winner": "Ann", "tai": 2, "from": "Ben"},
        {"kind": "win", "winner": "Cat", "tai": 1, "self_draw": True},
    ):
        hand = httpx.post(f"{live_server}/api/tables/{table_id}/hands", json=body, headers=headers)
        assert hand.status_code == 201, hand.text

    phone.goto(f"/t/{table_id}?lang=en#token={token}")
    desktop.goto(f"/t/{table_id}?lang=en")
    writer, reader = phone.page, desktop.page
    expect(reader.locator("#live-status")).to_have_attribute("data-state", "live")
    control = writer.locator("#stop-table")
    expect(control).to_be_visible()
    expect(control.locator(".hint")).to_have_text(
        "Ends the session here: no more hands, the totals stand as they are."
    )
    expect(reader.locator("#stop-open")).to_be_hidden()  # a reader has no record form
    control.scroll_into_view_if_needed()
    phone.screenshot("moneystop-control", full_page=False)

    # Cancel records nothing.
    writer.locator("#stop-open").click()
    dialog = writer.locator("#stop-dialog")
    expect(dialog).to_be_visible()
    expect(writer.locator("#stop-text")).to_have_text(
        "The session ends after hand 2: no more hands are recorded and the totals stand. "
        "Voiding the stop in the history opens the table again."
    )
    phone.screenshot("moneystop-dialog", full_page=False)
    writer.locator("#stop-cancel").click()
    expect(dialog).to_be_hidden()
    assert len(_history_texts(live_server, table_id)) == 2

    writer.locator("#stop-open").click()
    writer.locator("#stop-confirm").click()
    expect(dialog).to_be_hidden()
    expect(writer.locator("#finished-notice")).to_have_text(STOPPED_NOTICE)
    expect(writer.locator("#record-submit")).to_be_disabled()
    expect(control).to_be_hidden()
    expect(writer.locator("#history")).to_contain_text("Table stopped")
    # The other device, through the live stream.
    expect(reader.locator("#history")).to_contain_text("Table stopped")
    assert _history_texts(live_server, table_id)[-1] == "Table stopped"
    phone.screenshot("moneystop-stopped")
    desktop.screenshot("moneystop-stopped")

    # Void the stop from the history: the table opens again.
    writer.locator("#history [data-seq='3'] [data-void]").click()
    writer.locator("#void-reason").fill("one more hand")
    writer.locator("#void-confirm").click()
    expect(writer.locator("#finished-notice")).to_be_hidden()
    expect(control).to_be_visible()
    expect(writer.locator("[data-record-title]")).to_have_text("Record hand 3")
    expect(reader.locator("#history")).to_contain_text("Voids #3")


def test_the_control_in_chinese(desktop: Any, live_server: str) -> None:
    created = httpx.post(
        f"{live_server}/api/tables", json={"profile": "tw", "players": PLAYERS}
    ).json()
    headers = {"authorization": f"Bearer {created['token']}"}
    drawn = httpx.post(
        f"{live_server}/api/tables/{created['id']}/hands", json={"kind": "draw"}, headers=headers
    )
    assert drawn.status_code == 201
    desktop.goto(f"/t/{created['id']}?lang=zh-Hant#token={created['token']}")
    expect(desktop.page.locator("#stop-open")).to_have_text("結束桌局")
    desktop.page.locator("#stop-table").scroll_into_view_if_needed()
    desktop.screenshot("moneystop-control-zh-Hant", full_page=False)
    desktop.page.locator("#stop-open").click()
    expect(desktop.page.locator("#stop-title")).to_have_text("結束桌局\uff1f")
    desktop.screenshot("moneystop-dialog-zh-Hant", full_page=False)
    desktop.page.locator("#stop-confirm").click()
    expect(desktop.page.locator("#history")).to_contain_text("桌局已結束")

"""A table's page across the live stream's lifetime (issue 24): streams of one second while six
draws are recorded; the page opens each next stream itself on `event: reconnect`, shows every
event, and never says it is reconnecting."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

STATES_JS = """() => {
  const status = document.getElementById("live-status");
  window.liveStates = [];
  new MutationObserver(() => window.liveStates.push(status.dataset.state)).observe(
    status, {attributes: true, attributeFilter: ["data-state"]});
}"""


def test_the_page_follows_a_table_across_stream_lifetimes(
    browser: Any, tmp_path: Any, serve_app: Any
) -> None:
    from companion.api import create_app

    app = create_app(f"sqlite:///{tmp_path / 'lifetime.sqlite3'}")
    app.state.stream_lifetime = 1.0
    with serve_app(app) as base:
        created = httpx.post(f"{base}/api/tables", json={"players": ["Ann", "Ben", "Cat", "Dan"]})
        table_id, token = created.json()["id"], created.json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        context = browser.new_context(service_workers="block", locale="en-US")
        try:
            page = context.new_page()
            streams: list[str] = []
            page.on("request", lambda r: streams.append(r.url) if "/stream" in r.url else None)
            page.goto(f"{base}/t/{table_id}")
            page.wait_for_selector("body[data-ready='true']")
            expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
            page.evaluate(STATES_JS)
            for _ in range(6):
                response = httpx.post(
                    f"{base}/api/tables/{table_id}/hands", json={"kind": "draw"}, headers=auth
                )
                assert response.status_code == 201
                time.sleep(0.5)
            for seq in range(1, 7):
                expect(page.locator(f"#history [data-seq='{seq}']")).to_have_count(1)
            assert len(streams) >= 3, streams
            assert set(page.evaluate("window.liveStates")) <= {"live"}
        finally:
            context.close()

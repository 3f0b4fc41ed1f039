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
            "Entries 6 to 55 of 55"
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


TRACES = """async (token) => {
  const forms = [token, encodeURIComponent(token)];
  const holds = (text) => typeof text === "string" && forms.some((form) => text.includes(form));
  const found = [];
  if (holds(location.href)) found.push(`the address bar: ${location.href}`);
  for (const [name, area] of [["localStorage", localStorage], ["sessionStorage", sessionStorage]]) {
    for (let index = 0; index < area.length; index++) {
      const key = area.key(index);
      if (holds(key) || holds(area.getItem(key))) found.push(`${name}: ${key}`);
    }
  }
  for (const info of await indexedDB.databases()) {
    const db = await new Promise((resolve, reject) => {
      const opening = indexedDB.open(info.name);
      opening.onsuccess = () => resolve(opening.result);
      opening.onerror = () => reject(opening.error);
    });
    for (const storeName of db.objectStoreNames) {
      const store = db.transaction(storeName).objectStore(storeName);
      const everything = await new Promise((resolve) => {
        const all = store.getAll();
        const keys = store.getAllKeys();
        keys.onsuccess = () => resolve(JSON.stringify([all.result, keys.result]));
      });
      if (holds(everything)) found.push(`IndexedDB: ${info.name}/${storeName}`);
    }
    db.close();
  }
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const response = await cache.match(request);
      const headers = JSON.stringify([...response.headers]);
      const body = await response.text();
      if (holds(request.url) || holds(response.url) || holds(headers) || holds(body)) {
        found.push(`Cache Storage: ${name} ${request.url}`);
      }
    }
  }
  return found;
}"""
"""Where `token` is on this device: the address bar, Web Storage, IndexedDB, and every Cache
Storage entry's key, URL, headers and body."""


LEFT_BEHIND = """async ([token, tableUrl, shellUrl]) => {
  sessionStorage.setItem("companion.left-behind", JSON.stringify({ token }));
  const name = (await caches.keys()).find((each) => each.startsWith("companion-"));
  const cache = await caches.open(name);
  await cache.put(`${tableUrl}#token=${token}`, await cache.match(tableUrl));
  const page = new Response(`<a href="/t/x#token=${token}">a table</a>`, {
    headers: { "content-type": "text/html" },
  });
  await cache.put(shellUrl, page);
}"""
"""A copy of the table page keyed with the write link's fragment (as the service worker kept
it before its keys dropped the fragment), a copy of the tables page whose body holds the token
(a page the one open does not fetch again meanwhile, as it does its board), and a
sessionStorage entry holding it."""
CACHED_URLS = """async () => {
  const urls = [];
  for (const name of await caches.keys()) {
    urls.push(...(await (await caches.open(name)).keys()).map((request) => request.url));
  }
  return urls;
}"""


def test_forgetting_the_write_link_leaves_no_trace_of_the_token(
    browser: Any, live_server: str
) -> None:
    context = browser.new_context(
        viewport={"width": 375, "height": 812}, locale="en-US", service_workers="allow"
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())  # "Forget the write link?": yes
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    created = page.request.post(live_server + "/api/tables", data={"players": PLAYERS}).json()
    table_id, token = created["id"], created["token"]
    table_url = f"{live_server}/t/{table_id}?lang=en"
    tables_url = f"{live_server}/tables"
    write_link = f"{table_url}#token={token}"

    def cache_name() -> str:
        names: list[str] = page.evaluate("caches.keys()")
        return next(name for name in names if name.startswith("companion-"))

    def open_page(url: str) -> None:
        page.goto("about:blank")  # a new document each time, as a link opened from a message
        page.goto(url)
        page.wait_for_selector("body[data-ready='true']")

    def forget() -> None:
        page.locator("#share summary").click()
        page.locator("#forget").click()
        expect(page.locator("body")).to_have_attribute("data-access", "read")
        assert page.evaluate(TRACES, token) == []

    def reload_as_reader() -> None:
        page.reload()
        page.wait_for_selector("body[data-ready='true']")
        expect(page.locator(".access-read")).to_be_visible()
        assert page.evaluate(TRACES, token) == []

    try:
        # Online: opened from the write link (before and after the service worker controls
        # the page, so that it keeps the page both ways), a hand recorded.
        open_page(write_link)
        page.wait_for_selector("body[data-kept='true']")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        open_page(write_link)
        expect(page.locator(".access-write")).to_be_visible()
        page.locator("#record-form input[name='kind'][value='draw'] + span").click()
        page.locator("#record-submit").click()
        expect(page.locator("#confirmation")).to_be_visible()
        assert page.evaluate(TRACES, token) == ["localStorage: companion.tables"]
        # Copies holding the token, as an older release or another page may have left them.
        page.evaluate(LEFT_BEHIND, [token, table_url, tables_url])
        assert sorted(page.evaluate(TRACES, token)) == [
            f"Cache Storage: {cache_name()} {table_url}#token={token}",
            f"Cache Storage: {cache_name()} {tables_url}",
            "localStorage: companion.tables",
            "sessionStorage: companion.left-behind",
        ]
        forget()
        kept = page.evaluate(CACHED_URLS)
        assert table_url in kept and tables_url in kept, "kept again, without the token"
        reload_as_reader()

        # Offline: the link cannot be checked with the server, so the page writes with it
        # from its address bar (a reload checks again); a hand waits in the outbox.
        context.set_offline(True)
        open_page(write_link)
        expect(page.locator(".access-write")).to_be_visible()
        page.locator("#record-form input[name='kind'][value='draw'] + span").click()
        page.locator("#record-submit").click()
        expect(page.locator("#outbox-list li")).to_have_count(1)
        assert page.evaluate(TRACES, token) == [f"the address bar: {write_link}"]
        forget()
        assert page.url == table_url
        reload_as_reader()

        # The waiting hand held no token: opened from the link again, the device sends it.
        context.set_offline(False)
        open_page(write_link)
        expect(page.locator("#history [data-seq='2']")).to_be_visible()
        expect(page.locator("#outbox")).to_be_hidden()
        # Forgotten from "Your tables on this device" (the tables page): the same.
        open_page(f"{live_server}/tables?lang=en")
        page.locator(f"#my-tables-list li:has(a[href='/t/{table_id}']) button").click()
        expect(page.locator("#my-tables")).to_be_hidden()
        assert page.evaluate(TRACES, token) == []
    finally:
        context.close()
    assert not errors, errors

"""A table night as a newcomer meets it, in Chromium: a table page opened once reopens offline
with the hand waiting to be sent; New hand starts the calculator's next hand afresh; the tile
picker keeps a suit on one row on a phone; a long session's board stays readable."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import httpx
import pytest
from devices import DESKTOP, PHONE, new_context

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
OFFLINE_ERRORS = ("ERR_INTERNET_DISCONNECTED", "Failed to load resource", "net::ERR")


def create(base: str, players: list[str] = PLAYERS, **fields: Any) -> tuple[str, str]:
    response = httpx.post(
        f"{base}/api/tables", json={"profile": "sg", "players": players, **fields}
    )
    assert response.status_code == 201, response.text
    return response.json()["id"], response.json()["token"]


CACHED_URLS = """async () => {
  const kept = {};
  for (const name of await caches.keys()) {
    kept[name] = (await (await caches.open(name)).keys()).map((request) => request.url);
  }
  return kept;
}"""
"""The service worker's caches: {name: [the URL of every kept request]}."""


@pytest.fixture
def offline_phone(browser: Any) -> Iterator[tuple[Any, Any, list[str]]]:
    """A phone whose service worker runs (the other browser tests block it)."""
    context = new_context(browser, PHONE, service_workers="allow")
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
    kept = [url for urls in page.evaluate(CACHED_URLS).values() for url in urls]
    assert f"{live_server}/t/{table_id}?lang=en" in kept
    assert f"{live_server}/t/{table_id}/board?lang=en" in kept
    # The token itself, or a fragment or parameter carrying it (a script named token-store.js
    # is no token).
    carrying = [url for url in kept if "#" in url or "token=" in url or token in url]
    assert not carrying, "no fragment in a key"

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


def test_a_new_release_keeps_the_table_pages_a_device_has_opened(
    offline_phone: tuple[Any, Any, list[str]], live_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.web import pages

    context, page, _ = offline_phone
    table_id, token = create(live_server)
    page.goto(f"{live_server}/t/{table_id}?lang=en#token={token}")
    page.wait_for_selector("body[data-kept='true']")
    page.goto(f"{live_server}/?lang=en")  # the table page is no longer open
    page.wait_for_selector("body[data-ready='true']")
    # A new release: another version of the service worker, with a cache of its own.
    monkeypatch.setattr(pages, "static_version", lambda: "nextrelease")
    pages.service_worker.cache_clear()
    try:
        page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
        deadline = time.monotonic() + 15
        while page.evaluate("caches.keys()") != ["companion-nextrelease"]:
            assert time.monotonic() < deadline, page.evaluate("caches.keys()")
            page.wait_for_timeout(100)
        kept = page.evaluate(CACHED_URLS)["companion-nextrelease"]
        assert f"{live_server}/t/{table_id}?lang=en" in kept
        assert f"{live_server}/t/{table_id}/board?lang=en" in kept
        context.set_offline(True)
        page.goto(f"{live_server}/t/{table_id}?lang=en")
        page.wait_for_selector("body[data-ready='true']")
        expect(page.locator("#record")).to_be_visible()
        expect(page.locator("#offline-banner")).to_be_visible()
    finally:
        monkeypatch.undo()
        pages.service_worker.cache_clear()


def rows_of(page: Any, selector: str) -> list[list[float]]:
    """Each picker row's buttons as the tops of their boxes (one top: one line)."""
    return page.evaluate(
        """(selector) => [...document.querySelectorAll(selector + ' .picker-row')]
          .filter((row) => row.offsetParent !== null)
          .map((row) => [...row.querySelectorAll('button')]
            .map((button) => button.getBoundingClientRect().top))""",
        selector,
    )


def test_the_tile_picker_keeps_a_suit_on_one_row_on_a_phone(phone: Any, live_server: str) -> None:
    page = phone.page
    phone.goto("/?lang=en")
    rows = rows_of(page, "[data-picker]")
    assert [len(row) for row in rows] == [9, 9, 9, 7]
    assert all(len(set(row)) == 1 for row in rows), rows
    picker = page.locator("[data-picker]").bounding_box()
    last = page.locator("[data-picker] [data-tile='9m']").bounding_box()
    assert last["x"] + last["width"] <= picker["x"] + picker["width"] + 0.5
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    # The same editor in a table's record form, and the bonus tiles.
    table_id, token = create(live_server)
    phone.goto(f"/t/{table_id}?lang=en#token={token}")
    page.locator("#record-form input[name='entry'][value='hand'] + span").click()
    rows = rows_of(page, "#table-hand [data-picker]")
    assert [len(row) for row in rows] == [9, 9, 9, 7]
    assert all(len(set(row)) == 1 for row in rows), rows
    assert page.evaluate("document.documentElement.scrollWidth") <= 375


def checked(page: Any, name: str) -> str:
    value: str = page.locator(f"#context-form input[name='{name}']:checked").get_attribute("value")
    return value


def test_new_hand_resets_the_hand_and_clear_keeps_it(phone: Any) -> None:
    page = phone.page
    phone.goto("/?lang=en")
    expect(page.locator("[data-clear-keeps]")).to_contain_text("Clear empties the tiles only")
    for tile in ("1m", "2m", "3m"):
        page.locator(f"[data-picker] [data-tile='{tile}']").click()
    for name, value in (("win", "discard"), ("discarder", "W"), ("seat", "S"), ("round", "W")):
        page.locator(f"#context-form input[name='{name}'][value='{value}'] + span").click()
    page.locator("#events-panel summary").click()
    page.locator("#events input[value='last_tile']").check()
    page.locator("#options-panel summary").click()
    option = page.locator("#options input[type='number']").first
    option.fill("7")
    option_name = option.get_attribute("name")

    # Clear: the tiles go, the rest of the hand stays (as the page says).
    page.locator("#hand-editor [data-clear]").click()
    expect(page.locator("#hand-editor [data-count]")).to_have_text("0 of 14 tiles")
    assert (checked(page, "win"), checked(page, "discarder"), checked(page, "seat")) == (
        "discard",
        "W",
        "S",
    )
    assert page.locator("#events input[value='last_tile']").is_checked()

    page.locator("[data-picker] [data-tile='5p']").click()
    page.locator("#hand-editor [data-fresh]").click()
    expect(page.locator("#hand-editor [data-count]")).to_have_text("0 of 14 tiles")
    assert (checked(page, "win"), checked(page, "seat")) == ("self_draw", "E")
    assert page.locator("#context-form [data-field='discarder']").is_hidden()
    assert not page.locator("#events input[value='last_tile']").is_checked()
    # The table's circumstances stay: the round wind and the options.
    assert checked(page, "round") == "W"
    expect(page.locator(f"#options input[name='{option_name}']")).to_have_value("7")
    # And the next hand starts from them after a reload, too (the settings are kept).
    page.reload()
    page.wait_for_selector("body[data-ready='true']")
    assert (checked(page, "win"), checked(page, "seat"), checked(page, "round")) == (
        "self_draw",
        "E",
        "W",
    )


def test_your_tables_are_listed_by_name(phone: Any, live_server: str) -> None:
    page = phone.page
    table_id, token = create(live_server, name="Friday at Ann's")
    phone.goto(f"/t/{table_id}?lang=en#token={token}")
    phone.goto("/tables?lang=en")
    item = page.locator("#my-tables-list li").first
    expect(item.locator(".table-list-name")).to_have_text("Friday at Ann's")
    expect(item.locator(".table-players")).to_have_text(
        "Ann, Ben, Cat, Dan · Singapore · 0\u20135 tai (sg)"
    )
    assert table_id not in item.inner_text()


LONG_NAMES = [
    "Alexandra Montgomery-Whitfield",
    "Bartholomew Oyelaran",
    "陳大文",
    "Catherine Wellington-Smythe",
]


def long_session(base: str, hands: int = 40) -> tuple[str, str]:
    """A table of `hands` hands over more than four rounds, with long player names: mostly a
    player after the dealer wins (the deal passes), now and then the dealer or a drawn hand."""
    table_id, token = create(base, players=LONG_NAMES, name="Saturday's long night")
    headers = {"Authorization": f"Bearer {token}"}
    dealer = 0
    for hand in range(hands):
        if hand % 7 == 3:
            body: dict[str, Any] = {"kind": "draw"}
        elif hand % 5 == 4:
            body = {"kind": "win", "winner": LONG_NAMES[dealer], "self_draw": True, "tai": 2}
        else:
            winner = (dealer + 1 + hand % 3) % 4
            body = {
                "kind": "win",
                "winner": LONG_NAMES[winner],
                "from": LONG_NAMES[(winner + 1) % 4],
                "tai": 1 + hand % 5,
            }
        response = httpx.post(
            f"{base}/api/tables/{table_id}/hands", json={**body, "key": f"h{hand}"}, headers=headers
        )
        assert response.status_code == 201, response.text
        dealer = LONG_NAMES.index(response.json()["table"]["dealer"])
    return table_id, token


def overflowing(page: Any, selector: str) -> list[str]:
    """The texts of the elements matching `selector` whose content is wider than their box."""
    found: list[str] = page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)]
          .filter((node) => node.offsetParent !== null && node.scrollWidth > node.clientWidth + 1)
          .map((node) => node.textContent)""",
        selector,
    )
    return found


def test_a_long_session_with_long_names_reads_on_a_phone_and_a_desktop(
    browser: Any, live_server: str
) -> None:
    table_id, token = long_session(live_server)
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, locale="en-US"
    )
    page = context.new_page()
    page.goto(f"{live_server}/t/{table_id}?lang=en#token={token}")
    page.wait_for_selector("body[data-ready='true']")
    # More than four rounds: the board says which lap it is.
    expect(page.locator("#scoreboard [data-round]")).to_contain_text("second lap")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    # Whole names in the record form's buttons and in the chart's legend, none cut off.
    buttons = "#record-form .players-choice .segments span"
    assert overflowing(page, buttons) == []
    winner = page.locator("#record-form input[name='winner'][value='0'] + span")
    assert winner.inner_text().replace("\n", " ").replace("- ", "-") == LONG_NAMES[0]
    assert overflowing(page, ".chart-legend span") == []
    legend = page.locator(".chart-legend span").all_inner_texts()
    assert [text.replace("\n", " ") for text in legend] == LONG_NAMES
    # The chart's hand numbers stay apart and readable at 375 px.
    ticks = page.evaluate(
        """() => [...document.querySelectorAll('#chart .x-tick')].map((node) => {
          const box = node.getBoundingClientRect();
          return [box.left, box.right, box.height];
        })"""
    )
    assert len(ticks) >= 5
    for (_, right, _), (left, _, _) in itertools.pairwise(ticks):
        assert right < left, ticks
    assert min(height for _, _, height in ticks) >= 10, "a tick label at least 10 px tall"
    context.close()

    # A reader on a desktop: no column left empty beside the history.
    reader = browser.new_context(viewport=DESKTOP, locale="en-US")
    page = reader.new_page()
    page.goto(f"{live_server}/t/{table_id}?lang=en")
    page.wait_for_selector("body[data-ready='true']")
    layout = page.locator(".table-layout").bounding_box()
    board = page.locator("#scoreboard").bounding_box()
    chart = page.locator("#chart").bounding_box()
    history = page.locator("#history").bounding_box()
    assert abs(board["y"] - chart["y"]) < 1, "the scoreboard beside the chart"
    assert history["width"] > 0.95 * layout["width"], "the history across the page"
    assert history["y"] >= chart["y"] + chart["height"]
    reader.close()


def test_the_history_dates_a_hand_not_from_today(browser: Any, live_server: str) -> None:
    table_id, token = create(live_server)
    response = httpx.post(
        f"{live_server}/api/tables/{table_id}/hands",
        json={"kind": "win", "winner": "Ben", "from": "Cat", "tai": 3},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert response.status_code == 201
    context = browser.new_context(viewport=PHONE, locale="en-US", timezone_id="UTC")
    page = context.new_page()
    page.goto(f"{live_server}/t/{table_id}?lang=en")
    page.wait_for_selector("body[data-ready='true']")
    time = page.locator("#history [data-seq='1'] time")
    expect(time).to_have_attribute("data-dated", "false")
    assert ":" in time.inner_text() and "," not in time.inner_text()
    # Two days later, the same hand shows its date.
    recorded = datetime.fromisoformat(response.json()["event"]["at"])
    page.clock.set_fixed_time(recorded + timedelta(days=2))
    page.reload()
    page.wait_for_selector("body[data-ready='true']")
    expect(time).to_have_attribute("data-dated", "true")
    expect(time).to_contain_text(recorded.strftime("%b %-d,"))  # the year when not this one
    context.close()

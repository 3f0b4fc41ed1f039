"""A live table in real browsers: four phones on one table (one writer, three readers) in step,
on SQLite and with two server processes on PostgreSQL; undo; the QR codes decode
to the right links; a hand recorded offline is sent exactly once, even across closing the page.

Every write must arrive on every other device; how fast is bench/live_arrival.py's to say (a
loaded machine is slow, not wrong): the median and maximum arrival, and the taps a quick-tai win
takes, are printed here only (run with `-s` to see them)."""

from __future__ import annotations

import json
import os
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from devices import DESKTOP, PHONE, new_context

# The page-side watch the benchmark times arrivals with (bench/live_arrival.py).
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from live_arrival import WATCH_JS

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
HANG = 30_000
"""Milliseconds after which a write that has not shown on another device is lost (a hang), not
late: arrival times are bench/live_arrival.py's (about half a second on a quiet machine)."""

# Page-side: the QR code in `selector` (an <img> or a box holding an <svg>) as grey pixels.
QR_PIXELS_JS = """async (selector) => {
  const node = document.querySelector(selector);
  const src = node.tagName === "IMG" ? node.src : "data:image/svg+xml;charset=utf-8," +
    encodeURIComponent(new XMLSerializer().serializeToString(node.querySelector("svg")));
  const image = new Image();
  image.src = src;
  await image.decode();
  const size = 330;
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = size;
  const context = canvas.getContext("2d");
  context.fillStyle = "#fff";
  context.fillRect(0, 0, size, size);
  context.drawImage(image, 0, 0, size, size);
  const rgba = context.getImageData(0, 0, size, size).data;
  const grey = [];
  for (let i = 0; i < rgba.length; i += 4) grey.push(rgba[i]);
  return {size, grey};
}"""


def decode_qr(page: Any, selector: str) -> str:
    zxingcpp = pytest.importorskip("zxingcpp")
    pixels = page.evaluate(QR_PIXELS_JS, selector)
    size = pixels["size"]
    image = memoryview(bytes(pixels["grey"])).cast("B", (size, size))
    found = zxingcpp.read_barcodes(image)
    assert found, f"no QR code could be read in {selector}"
    text: str = found[0].text
    return text


def create(base: str, **fields: Any) -> tuple[str, str]:
    body = {"profile": "sg", "players": PLAYERS, **fields}
    response = httpx.post(f"{base}/api/tables", json=body)
    assert response.status_code == 201, response.text
    return response.json()["id"], response.json()["token"]


def history(base: str, table_id: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = httpx.get(f"{base}/api/tables/{table_id}/history").json()[
        "events"
    ]
    return events


class Device:
    """One phone or computer at the table: its own browser context (own storage)."""

    def __init__(self, browser: Any, base: str, name: str, viewport: dict[str, int], **extra: Any):
        self.context = new_context(browser, viewport, **extra)
        self.base = base
        self.name = name
        self.errors: list[str] = []
        self.urls: list[str] = []
        self.page = self.new_page()

    def new_page(self) -> Any:
        page = self.context.new_page()
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("request", lambda request: self.urls.append(request.url))
        return page

    def open(self, path: str, page: Any = None) -> None:
        page = page or self.page
        page.goto(self.base + path)
        page.wait_for_selector("body[data-ready='true']")

    def screenshot(self, label: str, *, full_page: bool = True) -> None:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        if full_page:
            self.page.evaluate("window.scrollTo(0, 0)")
        self.page.screenshot(
            path=str(SCREENSHOTS / f"{label}-{self.name}.png"), full_page=full_page
        )

    def close(self, allowed: tuple[str, ...] = ()) -> None:
        self.context.close()
        left = [error for error in self.errors if not any(text in error for text in allowed)]
        assert not left, f"{self.name} logged errors: {left}"


def tap(page: Any, name: str, value: str) -> int:
    page.locator(f"#record-form input[name='{name}'][value='{value}'] + span").click()
    return 1


def fill_quick_win(page: Any, winner: int, discarder: int | None, tai: int) -> int:
    """Fill in a quick-tai win, up to the preview of who pays whom; answers the taps."""
    taps = tap(page, "winner", str(winner))
    taps += tap(page, "from", "self" if discarder is None else str(discarder))
    taps += tap(page, "tai", str(tai))
    expect(page.locator("#pays-preview .transfers")).to_be_visible()
    return taps


def quick_win(page: Any, winner: int, discarder: int | None, tai: int) -> int:
    """Record a quick-tai win; answers the taps it took."""
    taps = fill_quick_win(page, winner, discarder, tai)
    page.locator("#record-submit").click()
    return taps + 1


def arrivals(writer: Any, readers: list[Any], seq: int, record: Any) -> list[float]:
    """Record with `record()` on the writer; the ms until event `seq` shows on each reader."""
    for reader in readers:
        reader.page.evaluate(WATCH_JS, seq)
    started = time.time() * 1000
    record()
    found = []
    for reader in readers:
        reader.page.wait_for_function("() => window.arrivedAt !== null", timeout=HANG)
        found.append(reader.page.evaluate("window.arrivedAt") - started)
    return found


def test_four_devices_in_step_undo_and_the_qr_codes(browser: Any, live_server: str) -> None:
    table_id, token = create(live_server, name="Friday at Ann's")
    writer = Device(browser, live_server, "writer", PHONE)
    readers = [
        Device(browser, live_server, "reader-phone", PHONE),
        Device(browser, live_server, "reader-desktop", DESKTOP),
        Device(browser, live_server, "reader-phone-2", PHONE),
    ]
    writer.open(f"/t/{table_id}?lang=en#token={token}")
    for reader in readers:
        reader.open(f"/t/{table_id}?lang=en")
    for device in [writer, *readers]:
        expect(device.page.locator("#live-status")).to_have_attribute("data-state", "live")
        expect(device.page.locator(".table-name")).to_have_text("Friday at Ann's")

    # A reader far down the page stays there; the writer's half-filled form stays filled.
    readers[0].page.evaluate("window.scrollTo(0, 200)")
    scrolled = readers[0].page.evaluate("window.scrollY")
    assert scrolled > 0
    delays: list[float] = []
    taps = 0
    hands = [(0, 1, 3), (2, None, 2), (3, 0, 1), (1, 2, 4), (0, 3, 2)]
    submit = writer.page.locator("#record-submit")
    for seq, (winner, discarder, tai) in enumerate(hands, start=1):
        taps = fill_quick_win(writer.page, winner, discarder, tai) + 1  # and Record
        if seq == 1:
            writer.screenshot("live-table-preview")
        delays += arrivals(writer, readers, seq, submit.click)
        expect(writer.page.locator("#confirmation")).to_contain_text(f"Recorded: hand {seq}.")
    assert len(delays) == len(hands) * len(readers), "every write arrived on every reader"
    median = statistics.median(delays)
    print(
        f"\nwrite to arrival on another device: median {median:.0f} ms, "
        f"max {max(delays):.0f} ms over {len(delays)}"
    )
    print(f"taps to record a quick-tai win: {taps}")
    assert taps == 4
    assert readers[0].page.evaluate("window.scrollY") == scrolled, "the reader keeps its place"
    totals = [
        readers[0].page.locator(f"#scoreboard [data-player='{i}'] [data-total]").inner_text()
        for i in range(4)
    ]
    assert totals == [
        writer.page.locator(f"#scoreboard [data-player='{i}'] [data-total]").inner_text()
        for i in range(4)
    ]

    # The confirmation shows the new totals; Undo voids the hand everywhere.
    confirmation = writer.page.locator("#confirmation")
    for player, total in zip(PLAYERS, totals, strict=True):
        expect(confirmation).to_contain_text(f"{player} {total}")
    writer.screenshot("live-table-recorded", full_page=False)
    undo_delays = arrivals(writer, readers, 6, lambda: writer.page.locator("#undo").click())
    assert len(undo_delays) == len(readers)
    expect(writer.page.locator("#record-status")).to_have_text("Undone: hand 5.")
    for device in [writer, *readers]:
        expect(device.page.locator("#history [data-seq='5']")).to_have_attribute(
            "data-status", "voided"
        )
    assert history(live_server, table_id)[5]["reason"] == "undone by the recorder"

    # Undo of a hand another device has corrected meanwhile is refused, and says why.
    tap(writer.page, "winner", "1")  # a half-filled form, kept through the live updates
    quick_win(writer.page, 2, 1, 1)
    # Event 7 is hand 5 again (the first hand 5 is void): the player reads the hand.
    expect(writer.page.locator("#confirmation")).to_contain_text("Recorded: hand 5.")
    amended = httpx.post(
        f"{live_server}/api/tables/{table_id}/events/7/amend",
        json={"kind": "win", "winner": "Cat", "from": "Ben", "tai": 2, "reason": "2 tai"},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert amended.status_code == 201
    expect(readers[0].page.locator("#history [data-seq='8']")).to_be_visible()
    tap(writer.page, "winner", "3")
    writer.page.locator("#undo").click()
    expect(writer.page.locator("#record-status")).to_have_text(
        "Not undone: hand 5 was corrected on another device meanwhile. See the history."
    )
    assert writer.page.locator("#record-form input[name='winner'][value='3']").is_checked()
    assert [event["kind"] for event in history(live_server, table_id)][6:] == ["win", "amend"]

    # The two links: labelled, with their icons, and QR codes that decode to each link.
    writer.page.locator("#share summary").click()
    write_link = f"{live_server}/t/{table_id}#token={token}"
    read_link = f"{live_server}/t/{table_id}"
    assert decode_qr(writer.page, "#write-qr") == write_link
    assert decode_qr(writer.page, "#read-qr") == read_link
    expect(writer.page.locator("#write-link-label")).to_have_text("Write link")
    expect(writer.page.locator("#read-link-label")).to_have_text("Read-only link")
    assert writer.page.locator(".write-share .link-icon").count() == 1
    assert not any(token in url for url in writer.urls), "the token never goes in a URL"
    readers[0].page.locator("#share summary").click()
    assert decode_qr(readers[0].page, "#read-qr") == read_link
    assert readers[0].page.locator("#write-qr").is_hidden()
    writer.screenshot("live-table-share")
    readers[0].screenshot("live-board")
    readers[1].screenshot("live-board")
    readers[0].page.locator("#share summary").click()
    for device in [writer, *readers]:
        assert (
            device.page.evaluate("document.documentElement.scrollWidth")
            <= (device.page.viewport_size["width"])
        )
    writer.close(allowed=("status of 409",))  # the refused undo, as asked
    for reader in readers:
        reader.close()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture
def lan_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, serve_app: Any) -> Iterator[str]:
    """Companion as a server on every address sees itself, served on loopback only: the app is
    told it listens on 0.0.0.0, and the machine's network address is a documentation one."""
    from companion.api import create_app
    from companion.web import addresses

    monkeypatch.setattr(addresses, "lan_address", lambda: "192.0.2.20")
    app = create_app(f"sqlite:///{tmp_path / 'lan.sqlite3'}", listen_host="0.0.0.0")
    with serve_app(app) as base:
        yield base


def test_a_server_on_every_address_shares_its_network_address(
    browser: Any, lan_server: str
) -> None:
    """Opened on 127.0.0.1, the links and both QR codes carry the network address (the write
    link's QR code is drawn in the browser, from the address the server gave the page)."""
    table_id, token = create(lan_server)
    port = lan_server.rsplit(":", 1)[1]
    writer = Device(browser, lan_server, "lan-writer", PHONE)
    writer.open(f"/t/{table_id}?lang=zh-Hans#token={token}")
    writer.page.evaluate("document.getElementById('share').open = true")
    read_link = f"http://192.0.2.20:{port}/t/{table_id}"
    write_link = f"{read_link}#token={token}"
    expect(writer.page.locator("#write-link")).to_have_value(write_link)
    expect(writer.page.locator("#read-link")).to_have_value(read_link)
    assert decode_qr(writer.page, "#write-qr") == write_link
    assert decode_qr(writer.page, "#read-qr") == read_link
    assert writer.page.locator("#share-warning").count() == 0
    writer.close()


@pytest.fixture
def two_servers(ledger_postgres_url: str, tmp_path: Path) -> Iterator[list[str]]:
    """Two `companion serve` processes on one PostgreSQL database."""
    processes = []
    bases = []
    companion = Path(sys.executable).with_name("companion")
    for _ in range(2):
        port = _free_port()
        log = (tmp_path / f"serve-{port}.log").open("w")
        processes.append(
            subprocess.Popen(
                [str(companion), "serve", "--port", str(port), "--db", ledger_postgres_url],
                stdout=log,
                stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        )
        bases.append(f"http://127.0.0.1:{port}")
    deadline = time.monotonic() + 30
    for base in bases:
        while True:
            try:
                if httpx.get(f"{base}/openapi.json", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the servers did not start"
            time.sleep(0.1)
    yield bases
    started = time.monotonic()
    for process in processes:
        process.terminate()
    for process in processes:
        # uvicorn stops, then re-raises the SIGTERM it caught: -15 is its clean exit.
        assert process.wait(timeout=15) in (0, -15)
    assert time.monotonic() - started < 5, "open streams do not hold up the shutdown"


def test_two_server_processes_on_postgres_keep_four_devices_in_step(
    browser: Any, two_servers: list[str]
) -> None:
    first, second = two_servers
    table_id, token = create(first)
    writer = Device(browser, first, "pg-writer", PHONE)
    readers = [
        Device(browser, second, "pg-reader-1", PHONE),
        Device(browser, second, "pg-reader-2", DESKTOP),
        Device(browser, first, "pg-reader-3", PHONE),
    ]
    writer.open(f"/t/{table_id}?lang=en#token={token}")
    for reader in readers:
        reader.open(f"/t/{table_id}?lang=en")
        expect(reader.page.locator("#live-status")).to_have_attribute("data-state", "live")
    delays: list[float] = []
    submit = writer.page.locator("#record-submit")
    for seq, (winner, tai) in enumerate([(1, 2), (2, 3), (3, 1)], start=1):
        fill_quick_win(writer.page, winner, 0, tai)
        delays += arrivals(writer, readers, seq, submit.click)
    assert len(delays) == 3 * len(readers), "every write arrived on every reader"
    print(
        f"\ntwo processes on PostgreSQL: median {statistics.median(delays):.0f} ms, "
        f"max {max(delays):.0f} ms"
    )
    assert [event["seq"] for event in history(second, table_id)] == [1, 2, 3]
    writer.close()
    for reader in readers:
        reader.close()


OFFLINE_ERRORS = ("ERR_INTERNET_DISCONNECTED", "Failed to load resource", "net::ERR")


def wait_for_service_worker(page: Any) -> None:
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def test_a_hand_recorded_offline_is_sent_once_after_closing_and_reopening(
    browser: Any, live_server: str
) -> None:
    table_id, token = create(live_server)
    phone = Device(browser, live_server, "offline", PHONE, service_workers="allow")
    phone.open(f"/t/{table_id}?lang=en#token={token}")
    wait_for_service_worker(phone.page)
    phone.open(f"/t/{table_id}?lang=en")  # now the page and its board are kept on the device
    phone.open("/?lang=en")
    phone.open(f"/t/{table_id}?lang=en")

    phone.context.set_offline(True)
    page = phone.page
    expect(page.locator("#live-status")).to_have_attribute("data-state", "offline")
    expect(page.locator("#offline-banner")).to_be_visible()
    tap(page, "winner", "1")
    tap(page, "from", "2")
    tap(page, "tai", "3")
    assert page.locator("#pays-preview").is_hidden(), "no preview without the server"
    page.locator("#record-submit").click()
    expect(page.locator("#record-status")).to_have_text(
        "Offline: kept on this device, waiting to send."
    )
    expect(page.locator("#outbox-list li")).to_have_count(1)
    expect(page.locator("#outbox-list li")).to_contain_text("Ben wins 3 tai from Cat")
    phone.screenshot("offline-waiting")

    # Closed and opened again, still offline: the page comes from the device, the hand waits.
    page.close()
    phone.page = phone.new_page()
    phone.open(f"/t/{table_id}?lang=en")
    page = phone.page
    expect(page.locator("#offline-banner")).to_be_visible()
    expect(page.locator("#outbox-list li[data-state='waiting']")).to_have_count(1)
    phone.screenshot("offline-reopened", full_page=False)
    # The same offline state at a desktop's width.
    page.set_viewport_size(DESKTOP)
    expect(page.locator("#offline-banner")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    page.screenshot(path=str(SCREENSHOTS / "offline-reopened-desktop.png"))
    page.set_viewport_size(PHONE)
    calculator = phone.new_page()
    phone.open("/?lang=en", calculator)
    expect(calculator.locator("#offline-banner")).to_be_visible()
    calculator.screenshot(path=str(SCREENSHOTS / "offline-calculator-phone.png"))
    calculator.close()
    assert history(live_server, table_id) == []

    phone.context.set_offline(False)
    expect(page.locator("#history [data-seq='1']")).to_contain_text("Ben wins 3 tai from Cat")
    expect(page.locator("#outbox")).to_be_hidden()
    expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
    phone.open(f"/t/{table_id}?lang=en")  # a reload sends nothing again
    time.sleep(0.3)
    events = history(live_server, table_id)
    assert [(event["kind"], event["hand"]) for event in events] == [("win", 1)]

    # A hand the table has moved past is refused on arrival: shown, and kept to fix or discard.
    phone.context.set_offline(True)
    expect(page.locator("#live-status")).to_have_attribute("data-state", "offline")
    tap(page, "kind", "draw")
    page.locator("#record-submit").click()
    expect(page.locator("#outbox-list li")).to_have_count(1)
    other = httpx.post(
        f"{live_server}/api/tables/{table_id}/hands",
        json={"kind": "draw", "expect_hand": 2},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert other.status_code == 201
    phone.context.set_offline(False)
    refused = page.locator("#outbox-list li[data-state='refused']")
    expect(refused).to_contain_text(
        "The server refused it: hand 2 is already recorded and the next is hand 3"
    )
    phone.screenshot("offline-refused", full_page=False)
    refused.locator("[data-fix]").click()
    expect(page.locator("#outbox")).to_be_hidden()
    assert page.locator("#record-form input[name='kind'][value='draw']").is_checked()
    page.locator("#record-submit").click()
    expect(page.locator("#history [data-seq='3']")).to_be_visible()
    assert [event["hand"] for event in history(live_server, table_id)] == [1, 2, 3]
    phone.close(allowed=OFFLINE_ERRORS)


def test_the_manifest_and_the_service_worker_are_served(live_server: str) -> None:
    manifest = httpx.get(f"{live_server}/manifest.webmanifest?lang=en")
    assert manifest.headers["content-type"] == "application/manifest+json"
    data = json.loads(manifest.text)
    assert (data["name"], data["start_url"], data["display"]) == ("Companion", "/", "standalone")
    worker = httpx.get(f"{live_server}/sw.js")
    assert worker.headers["content-type"].startswith("text/javascript")
    assert "__SHELL__" not in worker.text and '"/tables"' in worker.text


NOTES_SHOTS = Path("/work/wt/_notes/shots")
"""Where the riichi board's screenshots are kept for the closing note, when that folder is
there (a developer's machine); the artifacts folder has them either way."""


def riichi_shot(device: Device, label: str) -> None:
    device.screenshot(label)
    if NOTES_SHOTS.is_dir():
        device.page.evaluate("window.scrollTo(0, 0)")
        device.page.screenshot(path=str(NOTES_SHOTS / f"{label}-{device.name}.png"), full_page=True)


def test_a_riichi_table_on_four_devices(browser: Any, live_server: str) -> None:
    table_id, token = create(
        live_server,
        profile="riichi",
        name="Riichi night",
        options={"preset": "ema2016", "length": "tonpuusen"},
    )
    writer = Device(browser, live_server, "writer", PHONE)
    readers = [
        Device(browser, live_server, "phone", PHONE),
        Device(browser, live_server, "desktop", DESKTOP),
        Device(browser, live_server, "phone-2", PHONE),
    ]
    writer.open(f"/t/{table_id}?lang=en#token={token}")
    for reader in readers:
        reader.open(f"/t/{table_id}?lang=en")
    for device in [writer, *readers]:
        expect(device.page.locator("#live-status")).to_have_attribute("data-state", "live")
        expect(device.page.locator("[data-hand-label]")).to_have_text("East 1, 0 honba")
    page = writer.page

    # A ron at a known han and fu: winner, discarder, han, fu, Record: five taps. Ann's riichi
    # is the switch beside her name; the preview says what moves before Record.
    page.locator("#record-form input[name='riichi'][value='0'] + .riichi-stick").click()
    taps = tap(page, "winner", "0") + tap(page, "from", "1") + tap(page, "han", "3")
    taps += tap(page, "fu", "40")
    expect(page.locator("#pays-preview .game-moves")).to_have_text(
        "Ann +7,700 from Ben, +1,000 deposit 供託"
    )
    riichi_shot(writer, "rtable-preview")
    delays = arrivals(writer, readers, 1, page.locator("#record-submit").click)
    taps += 1
    assert taps == 5 and len(delays) == 3
    expect(page.locator("#confirmation")).to_contain_text("Ann 37,700")
    for device in [writer, *readers]:
        expect(device.page.locator("[data-hand-label]")).to_have_text("East 1, 1 honba")
        expect(device.page.locator("#scoreboard [data-player='0'] [data-total]")).to_contain_text(
            "37,700"
        )
        expect(device.page.locator("#scoreboard [data-player='1'] [data-behind]")).to_have_text(
            "-15,400"
        )

    # An exhaustive draw: Ann and Cat tenpai, Cat's riichi stick stays on the table.
    tap(page, "kind", "draw")
    page.locator("#record-form input[name='tenpai'][value='0'] + span").click()
    page.locator("#record-form input[name='tenpai'][value='2'] + span").click()
    page.locator("#record-form input[name='riichi'][value='2'] + .riichi-stick").click()
    expect(page.locator("#pays-preview .game-moves")).to_contain_text(
        "Cat puts a 1,000 riichi stick down"
    )
    arrivals(writer, readers, 2, page.locator("#record-submit").click)
    for device in [writer, *readers]:
        expect(device.page.locator("[data-sticks]")).to_have_attribute("data-sticks", "1")
        expect(device.page.locator("[data-honba]")).to_have_attribute("data-honba", "2")
    riichi_shot(readers[0], "rtable-mid")
    riichi_shot(readers[1], "rtable-mid")

    # The rest of the game from the API; the board shows the final results with uma.
    headers = {"Authorization": f"Bearer {token}"}
    for body in [
        {"kind": "win", "winner": "Ben", "self_draw": True, "han": 5},
        {"kind": "draw"},
        {"kind": "draw"},
        {"kind": "draw"},
    ]:
        response = httpx.post(
            f"{live_server}/api/tables/{table_id}/hands", json=body, headers=headers
        )
        assert response.status_code == 201, response.text
    for device in [writer, *readers]:
        results = device.page.locator("[data-results] [data-final]")
        expect(results).to_have_count(4)
    assert [
        readers[1].page.locator("[data-results] [data-final]").nth(i).get_attribute("data-final")
        for i in range(4)
    ] == ["+20.0", "+5.4", "-6.7", "-18.7"]
    expect(page.locator("#finished-notice")).to_be_visible()
    riichi_shot(readers[0], "rtable-end")
    riichi_shot(readers[1], "rtable-end")
    expect(readers[1].page.locator("#settle .hint").first).to_have_text(
        "The final results squared up, in thousands of points:"
    )
    # In 繁體中文: the hands and terms in the players' words.
    readers[2].open(f"/t/{table_id}?lang=zh-Hant")
    expect(readers[2].page.locator("#history [data-seq='2'] [data-text]")).to_have_text(
        "荒牌流局\uff1aAnn、Cat 聽牌 · 立直\uff1aCat"
    )
    riichi_shot(readers[2], "rtable-end-zh")
    for device in [writer, *readers]:
        assert (
            device.page.evaluate("document.documentElement.scrollWidth")
            <= device.page.viewport_size["width"]
        )
    writer.close()
    for reader in readers:
        reader.close()


@pytest.mark.parametrize(
    ("lang", "win", "draw"),
    [
        (
            "en",
            "Ben wins 1 han 30 fu on Cat's discard · 立直 riichi: Ann",
            "Exhaustive draw: Ann, Cat tenpai",
        ),
        ("zh-Hans", "Ben 荣和 Cat，1翻30符 · 立直：Ann", "荒牌流局：Ann、Cat 听牌"),  # noqa: RUF001
    ],
)
def test_a_riichi_entry_waiting_to_send_says_what_was_entered(
    browser: Any, live_server: str, lang: str, win: str, draw: str
) -> None:
    table_id, token = create(live_server, profile="riichi")
    phone = Device(browser, live_server, f"offline-riichi-{lang}", PHONE, service_workers="allow")
    phone.open(f"/t/{table_id}?lang={lang}#token={token}")
    wait_for_service_worker(phone.page)
    phone.open(f"/t/{table_id}?lang={lang}")
    phone.context.set_offline(True)
    page = phone.page
    expect(page.locator("#live-status")).to_have_attribute("data-state", "offline")
    page.locator("#record-form input[name='riichi'][value='0'] + .riichi-stick").click()
    tap(page, "winner", "1")
    tap(page, "from", "2")
    tap(page, "han", "1")
    tap(page, "fu", "30")
    page.locator("#record-submit").click()
    expect(page.locator("#outbox-list li .outbox-text")).to_have_text([win])
    tap(page, "kind", "draw")
    page.locator("#record-form input[name='tenpai'][value='0'] + span").click()
    page.locator("#record-form input[name='tenpai'][value='2'] + span").click()
    page.locator("#record-submit").click()
    expect(page.locator("#outbox-list li .outbox-text")).to_have_text([win, draw])
    phone.screenshot(f"offline-riichi-{lang}", full_page=False)
    phone.close(allowed=OFFLINE_ERRORS)


def test_a_riichi_self_draw_preview_names_each_payers_share(browser: Any, live_server: str) -> None:
    table_id, token = create(live_server, profile="riichi")
    writer = Device(browser, live_server, "tsumo-preview", PHONE)
    writer.open(f"/t/{table_id}?lang=en#token={token}")
    page = writer.page
    tap(page, "winner", "1")
    tap(page, "from", "self")
    tap(page, "han", "2")
    tap(page, "fu", "30")
    # Not "Ben +2,000 from Ann, Cat, Dan", which reads as 2,000 from each: the dealer pays
    # double.
    expect(page.locator("#pays-preview .game-moves")).to_have_text(
        "Ben +2,000: Ann pays 1,000, Cat pays 500, Dan pays 500"
    )
    writer.close()

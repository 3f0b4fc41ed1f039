"""An MCR table in real browsers: a writer's phone and two readers (a phone in 简体中文, a
desktop) in step; a discard win in four taps, flowers, a refused count under 8 fan, a whole
hand scored with the table's winds, a drawn hand (荒庄), and at the end the table points."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from devices import DESKTOP, PHONE
from test_live_table import Device, arrivals, create, tap

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect


def status(device: Device) -> Any:
    return device.page.locator("#scoreboard [data-status]")


def test_an_mcr_table_on_three_devices(browser: Any, live_server: str) -> None:
    table_id, token = create(
        live_server, profile="mcr", name="MCR night", options={"flowers": True}
    )
    writer = Device(browser, live_server, "mcr-writer", PHONE)
    zh = Device(browser, live_server, "mcr-phone-zh", PHONE)
    desktop = Device(browser, live_server, "mcr-desktop", DESKTOP)
    readers = [zh, desktop]
    writer.open(f"/t/{table_id}?lang=en#token={token}")
    zh.open(f"/t/{table_id}?lang=zh-Hans")
    desktop.open(f"/t/{table_id}?lang=en")
    for device in [writer, *readers]:
        expect(device.page.locator("#live-status")).to_have_attribute("data-state", "live")
    expect(status(writer)).to_contain_text("East round, hand 1")
    expect(status(writer)).to_contain_text("Hand 1 of 16")
    expect(status(writer)).to_contain_text("Ann deals")
    expect(status(zh)).to_contain_text("东风圈第 1 局")
    page = writer.page

    # A win on a discard: winner, discarder, fan, Record: four taps. The fan buttons start at 8.
    expect(page.locator("#record-form input[name='tai']").first).to_have_value("8")
    taps = tap(page, "winner", "0") + tap(page, "from", "1") + tap(page, "tai", "12")
    expect(page.locator("#pays-preview .transfers")).to_contain_text(
        re.compile(r"Ben pays Ann\s*20")
    )
    writer.screenshot("mcr-quick-entry")
    delays = arrivals(writer, readers, 1, page.locator("#record-submit").click)
    taps += 1
    assert taps == 4 and len(delays) == 2
    for device in [writer, *readers]:
        expect(device.page.locator("#scoreboard [data-player='0'] [data-total]")).to_have_text(
            "+36"
        )
    expect(status(desktop)).to_contain_text("East round, hand 2")
    expect(status(desktop)).to_contain_text("Ben deals")

    # Under 8 fan is no win: the page says so before Record, and Record waits.
    tap(page, "winner", "2")
    tap(page, "from", "self")
    page.locator("#tai-other").fill("6")
    expect(page.locator("#pays-preview")).to_contain_text(
        "a win needs at least 8 fan, flowers not counted; 6 were entered"
    )
    expect(page.locator("#record-submit")).to_be_disabled()

    # Ben's self-draw of 8 fan and 2 flowers: 18 from each.
    page.locator("#tai-other").fill("")
    tap(page, "winner", "1")
    tap(page, "tai", "8")
    page.locator("#flowers").fill("2")
    expect(page.locator("#pays-preview .transfers")).to_contain_text(
        re.compile(r"Ann pays Ben\s*18")
    )
    arrivals(writer, readers, 2, page.locator("#record-submit").click)
    expect(desktop.page.locator("#history [data-seq='2'] [data-text]")).to_have_text(
        "Ben wins 10 fan, self-drawn (2 of them flowers)"
    )

    # A drawn hand: nobody pays, the deal passes all the same.
    tap(page, "kind", "draw")
    expect(page.locator("[data-kind-panel='draw']")).to_contain_text("the deal passes")
    arrivals(writer, readers, 3, page.locator("#record-submit").click)
    expect(status(desktop)).to_contain_text("Dan deals")

    # A whole hand, scored by the engine with the table's winds: Cat's mixed straight on
    # Dan's discard, 13 fan.
    tap(page, "winner", "2")
    tap(page, "from", "3")
    tap(page, "entry", "hand")
    for tile in (
        "1m",
        "2m",
        "3m",
        "4p",
        "5p",
        "6p",
        "7s",
        "8s",
        "9s",
        "2s",
        "3s",
        "4s",
        "5m",
        "5m",
    ):
        page.locator(f"#table-hand [data-picker] [data-tile='{tile}']").click()
    expect(page.locator("#hand-preview")).to_contain_text("13 fan")
    expect(page.locator("#pays-preview .transfers")).to_contain_text(
        re.compile(r"Dan pays Cat\s*21")
    )
    # Who pays whom is said once, by the players' names: the hand's preview lists no payments.
    assert page.locator("#hand-preview .transfers, #hand-preview .net").count() == 0
    assert page.locator("#record-form .transfers").count() == 1
    arrivals(writer, readers, 4, page.locator("#record-submit").click)
    expect(zh.page.locator("#history [data-seq='4'] [data-text]")).to_contain_text(
        "Cat 和 13 番\uff0cDan 放炮"
    )
    expect(zh.page.locator("#history [data-seq='2'] [data-text]")).to_contain_text("Ben 自摸 10 番")
    expect(zh.page.locator("#history [data-seq='3'] [data-text]")).to_have_text("荒庄")
    expect(status(zh)).to_contain_text("南风圈第 1 局")
    for device in [writer, *readers]:
        device.screenshot("mcr-mid")

    # The rest of the game from the API: at the end, the table points by place.
    headers = {"Authorization": f"Bearer {token}"}
    for _ in range(12):
        response = httpx.post(
            f"{live_server}/api/tables/{table_id}/hands", json={"kind": "draw"}, headers=headers
        )
        assert response.status_code == 201, response.text
    for device in [writer, *readers]:
        expect(device.page.locator("[data-table-points] li")).to_have_count(4)
    # Ann 36 - 18 - 8 = 10, Ben -20 + 54 - 8 = 26, Cat -8 - 18 + 37 = 11, Dan -8 - 18 - 21.
    rows = desktop.page.locator("[data-table-points] li")
    assert [rows.nth(i).inner_text().split("\n") for i in range(4)] == [
        ["1", "Ben", "+26", "4"],
        ["2", "Cat", "+11", "2"],
        ["3", "Ann", "+10", "1"],
        ["4", "Dan", "-47", "0"],
    ]
    expect(status(desktop)).to_contain_text("Game over")
    expect(desktop.page.locator("#scoreboard [data-finished]")).to_have_text("All 16 hands played")
    expect(page.locator("#finished-notice")).to_be_visible()
    expect(zh.page.locator("#scoreboard .results-title")).to_have_text("标准分")
    for device in [writer, *readers]:
        device.screenshot("mcr-end")
        assert (
            device.page.evaluate("document.documentElement.scrollWidth")
            <= device.page.viewport_size["width"]
        )
    writer.close()
    for reader in readers:
        reader.close()

"""A sanma table in real browsers: made from the create form (three player fields for sanma),
a han and fu win entered in five taps on one phone and seen live on two other phones and a
computer, a draw, then the game to its end, the standings with the three-player uma and oka.
Screenshots at 375 and 1280 px go to artifacts/screenshots (and /work/wt/shots/sanma when that
folder is there)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from devices import DESKTOP, PHONE
from test_live_table import Device, arrivals, tap

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

SHOTS = Path("/work/wt/shots/sanma")
"""Where the screenshots are kept for the closing note, when that folder is there (a
developer's machine); the artifacts folder has them either way."""


def shot(device: Device, label: str) -> None:
    device.screenshot(label)
    if SHOTS.is_dir():
        device.page.evaluate("window.scrollTo(0, 0)")
        device.page.screenshot(path=str(SHOTS / f"{label}-{device.name}.png"), full_page=True)


def test_a_sanma_table_from_the_form_on_three_devices(browser: Any, live_server: str) -> None:
    writer = Device(browser, live_server, "writer", PHONE)
    page = writer.page
    writer.open("/tables?lang=en")
    page.locator("#create-profile").select_option("sanma")
    # Three seats: North's field goes (and is not sent).
    expect(page.locator(".player-field[data-seat='N']")).to_be_hidden()
    expect(page.locator("#player3")).to_be_disabled()
    expect(page.locator("[data-seat-count='3']")).to_have_text(
        "Three players: East deals first; the deal then passes to South and West."
    )
    expect(page.locator("[data-seat-count='4']")).to_be_hidden()
    for index, name in enumerate(["Aki", "Bo", "Chen"]):
        page.locator(f"#player{index}").fill(name)
    page.locator("#create-name").fill("Sanma night")
    shot(writer, "sanma-create")
    with page.expect_response(
        lambda response: response.request.method == "POST" and response.url.endswith("/tables")
    ) as created:
        page.locator("#create-submit").click()
    # The write link, as the form's answer gives it: the token rides in the fragment.
    link = created.value.headers["location"]
    table_id = link.split("/t/")[1].split("#")[0]
    write_token = link.split("#token=")[1].split("&")[0]
    page.wait_for_selector("body[data-ready='true']")
    readers = [
        Device(browser, live_server, "phone", PHONE),
        Device(browser, live_server, "desktop", DESKTOP),
        Device(browser, live_server, "phone-2", PHONE),
    ]
    for reader in readers:
        reader.open(f"/t/{table_id}?lang=en")
    for device in [writer, *readers]:
        expect(device.page.locator("#live-status")).to_have_attribute("data-state", "live")
        expect(device.page.locator("[data-hand-label]")).to_have_text("East 1, 0 honba")
        expect(device.page.locator("#scoreboard [data-player]")).to_have_count(3)

    # Bo's 3 han 30 fu on Aki's discard: winner, discarder, han, fu, Record: five taps. Chen's
    # riichi stick is the switch beside her name.
    page.locator("#record-form input[name='riichi'][value='2'] + .riichi-stick").click()
    taps = tap(page, "winner", "1") + tap(page, "from", "0") + tap(page, "han", "3")
    taps += tap(page, "fu", "30")
    expect(page.locator("#pays-preview .game-moves li")).to_have_text(
        ["Bo +3,900 from Aki, +1,000 deposit 供託", "Chen puts a 1,000 riichi stick down"]
    )
    shot(writer, "sanma-preview")
    delays = arrivals(writer, readers, 1, page.locator("#record-submit").click)
    taps += 1
    assert taps == 5 and len(delays) == 3
    for device in [writer, *readers]:
        expect(device.page.locator("[data-hand-label]")).to_have_text("East 2, 0 honba")
        expect(device.page.locator("#scoreboard [data-player='1'] [data-total]")).to_contain_text(
            "39,900"
        )

    # An exhaustive draw at East 2: Aki and Chen tenpai, 1,000 each from Bo, the dealer.
    tap(page, "kind", "draw")
    page.locator("#record-form input[name='tenpai'][value='0'] + span").click()
    page.locator("#record-form input[name='tenpai'][value='2'] + span").click()
    arrivals(writer, readers, 2, page.locator("#record-submit").click)
    for device in [writer, *readers]:
        expect(device.page.locator("[data-hand-label]")).to_have_text("East 3, 1 honba")
        expect(device.page.locator("#scoreboard [data-player='1'] [data-total]")).to_contain_text(
            "37,900"
        )
    shot(readers[0], "sanma-mid")
    shot(readers[1], "sanma-mid")

    # The rest of the game from the API, with the writer's token: Aki's
    # 4 han 30 fu self-drawn, Bo's mangan on Chen's discard, a draw, Aki's 2 han 30 fu on Bo's
    # discard at South 3: Bo 41,600, Aki 40,400, Chen 23,000.
    headers = {"Authorization": f"Bearer {write_token}"}
    for body in [
        {"kind": "win", "winner": "Aki", "self_draw": True, "han": 4, "fu": 30},
        {"kind": "win", "winner": "Bo", "from": "Chen", "limit": "mangan"},
        {"kind": "draw"},
        {"kind": "win", "winner": "Aki", "from": "Bo", "han": 2, "fu": 30},
    ]:
        response = httpx.post(
            f"{live_server}/api/tables/{table_id}/hands", json=body, headers=headers
        )
        assert response.status_code == 201, response.text
    for device in [writer, *readers]:
        expect(device.page.locator("[data-results] [data-final]")).to_have_count(3)
    # Bo (41,600 - 40,000) / 1000 + 15 + 15 (the oka) = 31.6; Aki 0.4; Chen -17 - 15.
    assert [
        readers[1].page.locator("[data-results] [data-final]").nth(i).get_attribute("data-final")
        for i in range(3)
    ] == ["+31.6", "+0.4", "-32.0"]
    expect(page.locator("#finished-notice")).to_be_visible()
    shot(readers[0], "sanma-end")
    shot(readers[1], "sanma-end")
    # In 简体中文: the same three results, the hands in the players' words.
    readers[2].open(f"/t/{table_id}?lang=zh-Hans")
    expect(readers[2].page.locator("[data-results] [data-final]")).to_have_count(3)
    expect(readers[2].page.locator("#history [data-seq='2'] [data-text]")).to_have_text(
        "荒牌流局\uff1aAki、Chen 听牌"
    )
    shot(readers[2], "sanma-end-zh")
    for device in [writer, *readers]:
        assert (
            device.page.evaluate("document.documentElement.scrollWidth")
            <= device.page.viewport_size["width"]
        )
    writer.close()
    for reader in readers:
        reader.close()

"""The table pages in a real browser: create a table, record three hands, check the totals, void
one and check again; the spectator link cannot write; a full hand, an amendment and the keyboard
on a desktop in Traditional Chinese."""

from __future__ import annotations

import re
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

Tab = Any  # tests/browser/conftest.py's Tab: a Playwright page, its base URL and its errors

PLAYERS = ("Ann", "Ben", "Cat", "Dan")


def choose(page: Any, name: str, value: str) -> None:
    page.locator(f"#record-form input[name='{name}'][value='{value}'] + span").click()


def record_quick(page: Any, winner: int, discarder: int | None, tai: int, event: int) -> None:
    """Four taps: who won, whose discard (or self-draw), the tai, Record. `event` is the event
    number the history shows; the confirmation names the hand (here the same number: no hand
    before it is void)."""
    choose(page, "winner", str(winner))
    choose(page, "from", "self" if discarder is None else str(discarder))
    choose(page, "tai", str(tai))
    page.locator("#record-submit").click()
    expect(page.locator("#confirmation")).to_contain_text(f"Recorded: hand {event}.")
    expect(page.locator(f"#history [data-seq='{event}']")).to_be_visible()


def totals(page: Any) -> list[str]:
    return [
        page.locator(f"#scoreboard [data-player='{i}'] [data-total]").inner_text() for i in range(4)
    ]


def create_by_api(tab: Tab) -> tuple[str, str]:
    response = tab.page.request.post(
        tab.base + "/api/tables", data={"profile": "sg", "players": list(PLAYERS)}
    )
    assert response.status == 201
    data = response.json()
    return data["id"], data["token"]


def test_create_record_three_hands_void_one_and_spectate(phone: Tab, desktop: Tab) -> None:
    page = phone.page
    phone.goto("/tables?lang=en")
    for seat, name in enumerate(PLAYERS):
        page.locator(f"#player{seat}").fill(name)
    assert page.locator("[data-profile-options='tw']").is_hidden()
    phone.screenshot("tables-new")
    page.locator("#create-submit").click()
    page.wait_for_url(re.compile(r"/t/[a-z0-9]{8}$"))
    page.wait_for_selector("body[data-ready='true']")
    table_id = page.url.rsplit("/", 1)[1]
    assert "#" not in page.url, "the token leaves the address bar"
    expect(page.locator("#created-notice")).to_be_visible()
    expect(page.locator(".access-write")).to_be_visible()
    assert page.locator("#write-link").input_value().startswith(f"{phone.base}/t/{table_id}#token=")
    assert page.locator("#read-link").input_value() == f"{phone.base}/t/{table_id}"

    record_quick(page, winner=0, discarder=1, tai=3, event=1)  # Ann from Ben: dealer stays
    record_quick(page, winner=2, discarder=None, tai=2, event=2)  # Cat self-drawn: deal passes
    record_quick(page, winner=3, discarder=0, tai=1, event=3)  # Dan from Ann: deal passes
    assert totals(page) == ["+10", "-13", "+7", "-4"]
    assert page.locator("#scoreboard .is-dealer [data-name]").inner_text() == "Cat"
    assert page.locator("#scoreboard [data-hand]").get_attribute("data-hand") == "4"
    assert "Record hand 4" in page.locator("#record-heading").inner_text()
    assert page.locator("#chart polyline").count() == 4
    assert page.evaluate("document.documentElement.scrollWidth") <= 375, "no sideways scrolling"
    phone.screenshot("tables-board")

    page.locator("#history [data-seq='2'] [data-void]").click()
    dialog = page.locator("#void-dialog")
    expect(dialog).to_be_visible()
    page.locator("#void-reason").fill("Cat was a tile short")
    page.locator("#void-by").select_option("Dan")
    phone.screenshot("tables-void", full_page=False)
    page.locator("#void-confirm").click()
    expect(dialog).to_be_hidden()
    expect(page.locator("#history [data-seq='2']")).to_have_attribute("data-status", "voided")
    # A voided hand offers Void no more, nor Amend; the others keep both.
    assert (
        page.locator(
            "#history [data-seq='2'] [data-amend], #history [data-seq='2'] [data-void]"
        ).count()
        == 0
    )
    assert page.locator("#history [data-seq='3'] [data-amend]").count() == 1
    assert totals(page) == ["+14", "-9", "-5", "0"]
    assert page.locator("#scoreboard .is-dealer [data-name]").inner_text() == "Ben"
    assert "Voids #2" in page.locator("#history [data-seq='4']").inner_text()
    assert "Cat was a tile short" in page.locator("#history [data-seq='4']").inner_text()
    phone.screenshot("tables-voided")

    spectator = desktop.page
    desktop.goto(f"/t/{table_id}?lang=en")
    expect(spectator.locator(".access-read")).to_be_visible()
    assert spectator.locator("#record").is_hidden()
    assert spectator.locator("#history [data-void]").first.is_hidden()
    assert spectator.locator("#write-link").input_value() == ""
    assert totals(spectator) == ["+14", "-9", "-5", "0"]
    statuses = spectator.evaluate(
        """async (url) => {
            const post = (headers) => fetch(url, {
                method: "POST",
                headers: {"Content-Type": "application/json", ...headers},
                body: JSON.stringify({kind: "draw"}),
            }).then((response) => response.status);
            return [await post({}), await post({Authorization: "Bearer guessed"})];
        }""",
        f"/api/tables/{table_id}/hands",
    )
    assert statuses == [401, 403], "the spectator link cannot write"
    # The browser logs the refused requests; they are what this test asked for.
    desktop.errors[:] = [e for e in desktop.errors if "status of 40" not in e]
    desktop.screenshot("tables-spectator")

    # The writer records a drawn hand; the spectator's page picks it up when it refreshes.
    choose(page, "kind", "draw")
    page.locator("#record-submit").click()
    expect(page.locator("#history [data-seq='5']")).to_be_visible()
    spectator.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(spectator.locator("#history [data-seq='5']")).to_contain_text("Drawn hand")
    assert spectator.locator("#scoreboard [data-hand]").get_attribute("data-hand") == "4"
    assert totals(spectator) == ["+14", "-9", "-5", "0"]

    phone.goto("/tables")
    listed = page.locator(f"#my-tables a[href='/t/{table_id}']")
    expect(listed).to_contain_text("Ann, Ben, Cat, Dan")
    phone.screenshot("tables-list", full_page=False)
    listed.click()
    page.wait_for_selector("body[data-ready='true']")
    expect(page.locator(".access-write")).to_be_visible()


def test_full_hand_keyboard_and_amend_in_chinese_on_a_desktop(desktop: Tab) -> None:
    page = desktop.page
    table_id, token = create_by_api(desktop)
    desktop.goto(f"/t/{table_id}?lang=zh-Hant#token={token}")
    expect(page.locator(".access-write")).to_be_visible()
    assert "記錄第 1 局" in page.locator("#record-heading").inner_text()

    # A full hand: Ann (East) wins on Ben's discard with two dragon pungs and her plum.
    choose(page, "winner", "0")
    choose(page, "from", "1")
    choose(page, "entry", "hand")
    editor = page.locator("#table-hand")
    for tile in ("7z", "6z"):
        editor.locator("input[data-mode][value='pung'] + span").click()
        editor.locator(f"[data-picker] [data-tile='{tile}']").click()
    for tile in ["1m", "2m", "3m", "4p", "5p", "6p", "5s", "5s"]:
        editor.locator(f"[data-picker] [data-tile='{tile}']").click()
    editor.locator("[data-bonus-panel] summary").click()
    editor.locator("[data-bonus='1f']").click()
    preview = page.locator("#hand-preview [data-verdict='good']")
    expect(preview).to_contain_text("3 台")
    assert "三元刻" in page.locator("#hand-preview [data-pattern='dragon_set']").inner_text()
    # Who pays whom is said once, by the players' names, in the pays preview (not by seat in the
    # hand's own preview).
    expect(page.locator("#pays-preview .transfers")).to_contain_text("Ben 付給 Ann")
    assert page.locator("#hand-preview .transfers").count() == 0
    desktop.screenshot("tables-hand")
    page.locator("#record-submit").click()
    expect(page.locator("#history [data-seq='1']")).to_contain_text("Ann 胡 Ben 放槍 3 台")
    assert totals(page) == ["+16", "-8", "-4", "-4"]

    # From the keyboard: Cat self-draws 2 tai.
    page.locator("#record-form input[name='winner'][value='0']").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.locator("input[name='winner'][value='2']").is_checked()
    page.keyboard.press("Tab")
    page.keyboard.press("Space")
    assert page.locator("input[name='from'][value='self']").is_checked()
    page.locator("#record-form input[name='entry'][value='tai']").check()
    page.locator("#record-form input[name='tai'][value='1']").focus()
    page.keyboard.press("ArrowRight")
    assert page.locator("input[name='tai'][value='2']").is_checked()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "record-submit"
    page.keyboard.press("Enter")
    expect(page.locator("#history [data-seq='2']")).to_contain_text("Cat 自摸 2 台")
    assert totals(page) == ["+12", "-12", "+8", "-8"]

    # Amend it: it was 1 tai.
    page.locator("#history [data-seq='2'] [data-amend]").click()
    expect(page.locator("#record-heading")).to_have_text("修改第 2 局")
    assert page.locator("input[name='winner'][value='2']").is_checked(), "prefilled"
    assert page.locator("input[name='tai'][value='2']").is_checked()
    choose(page, "tai", "1")
    # The amendment says who pays whom before it is saved, as recording does: hand 2 at 1 tai.
    pays = page.locator("#pays-preview")
    expect(pays).to_be_visible()
    expect(pays.locator(".transfers li")).to_have_count(3)
    expect(pays.locator(".transfers li")).to_have_text(
        [re.compile(rf"{payer} 付給 Cat\s*2$") for payer in ("Ann", "Ben", "Dan")]
    )
    page.locator("#amend-reason").fill("算錯台數")
    page.locator("#amend-by").select_option("Dan")
    page.locator("#record-submit").click()
    expect(page.locator("#history [data-seq='3']")).to_contain_text("修改 #2")
    assert totals(page) == ["+14", "-10", "+2", "-6"]
    expect(page.locator("#record-heading")).to_have_text("記錄第 3 局")
    assert page.locator("#history [data-seq='2']").get_attribute("data-status") == "amended"
    desktop.screenshot("tables-zh")

    page.locator(".lang-switch button[value='en']").click()
    page.wait_for_selector("html[lang='en'] body[data-ready='true']")
    expect(page.locator(".access-write")).to_be_visible()
    assert "Amends #2: Cat wins 1 tai, self-drawn" in page.locator("#history").inner_text()
    desktop.screenshot("tables-board")


def test_tw_several_winners_on_one_discard_and_a_whole_hand(phone: Tab, desktop: Tab) -> None:
    page = phone.page
    response = page.request.post(
        phone.base + "/api/tables", data={"profile": "tw", "players": list(PLAYERS)}
    )
    assert response.status == 201
    table_id, token = response.json()["id"], response.json()["token"]
    phone.goto(f"/t/{table_id}?lang=en#token={token}")

    # Ann (East, dealing) and Ben both win on Cat's discard: 3 and 5 agreed tai.
    choose(page, "winner", "0")
    page.locator("label.several-toggle").click()
    expect(page.locator("[data-field='winners']")).to_be_visible()
    assert page.locator("[data-field='winner']").is_hidden()
    assert page.locator("input[name='winners'][value='0']").is_checked(), "Ann carried over"
    assert page.locator("[data-field='entry']").is_hidden(), "agreed tai only"
    choose(page, "winners", "1")
    assert page.locator("input[name='from'][value='self']").is_disabled()
    assert page.locator("input[name='from'][value='1']").is_disabled()
    choose(page, "from", "2")
    choose(page, "tai_0", "3")
    choose(page, "tai_1", "5")
    assert page.locator("[data-winner-tai='2']").is_hidden()
    assert page.evaluate("document.documentElement.scrollWidth") <= 375, "no sideways scrolling"
    phone.screenshot("tables-tw-several")
    page.locator("#record-submit").click()
    expect(page.locator("#confirmation")).to_be_visible()
    entry = page.locator("#history [data-seq='1']")
    expect(entry).to_contain_text("Ann wins 3 tai from Cat + 1 dealer tai and Ben wins 5 tai")
    assert page.locator("#history [data-seq]").count() == 1, "one event for both winners"
    assert totals(page) == ["+4", "+5", "-9", "0"]
    assert page.locator("#scoreboard .is-dealer [data-name]").inner_text() == "Ann"
    assert not page.locator("#several").is_checked(), "back to one winner"
    phone.screenshot("tables-tw-board")

    # On a desktop: amend it (prefilled with both winners), then a whole hand with an added
    # kong and the table's discards, which scores an early win.
    page = desktop.page
    desktop.goto(f"/t/{table_id}?lang=en#token={token}")
    page.locator("#history [data-seq='1'] [data-amend]").click()
    assert page.locator("#several").is_checked()
    assert page.locator("input[name='tai_0'][value='3']").is_checked()
    assert page.locator("input[name='tai_1'][value='5']").is_checked()
    assert page.locator("input[name='from'][value='2']").is_checked()
    choose(page, "tai_1", "4")
    page.locator("#amend-reason").fill("Ben had 4")
    desktop.screenshot("tables-tw-amend")
    page.locator("#record-submit").click()
    expect(page.locator("#history [data-seq='2']")).to_contain_text("Ben wins 4 tai from Cat")
    assert totals(page) == ["+4", "+4", "-8", "0"]

    choose(page, "winner", "3")
    choose(page, "from", "1")
    choose(page, "entry", "hand")
    editor = page.locator("#table-hand")
    for mode, tile in (("akong", "1m"), ("pung", "5z"), ("pung", "6z"), ("chow", "2p")):
        editor.locator(f"input[data-mode][value='{mode}'] + span").click()
        editor.locator(f"[data-picker] [data-tile='{tile}']").click()
    for tile in ["3s", "4s", "5s", "9p", "9p"]:
        editor.locator(f"[data-picker] [data-tile='{tile}']").click()
    kong = editor.locator("[data-hand] .hand-group").first
    assert kong.locator(".hand-group-label").inner_text() == "Added kong"
    assert kong.locator("svg").count() == 4
    # Four claimed groups took four discards, and Ben's winning discard is the fifth.
    page.locator("#table-discards").fill("5")
    expect(page.locator("#hand-preview [data-pattern='very_early_win']")).to_be_visible()
    assert page.locator("#hand-preview [data-pattern='melded_kong']").is_visible()
    expect(page.locator("#hand-preview [data-verdict='good']")).to_contain_text("17 tai")
    desktop.screenshot("tables-tw-hand")
    page.locator("#record-submit").click()
    expect(page.locator("#history [data-seq='3']")).to_contain_text("Dan wins")
    expect(page.locator("#history [data-seq='3']")).to_contain_text("(full hand)")
    assert totals(page) == ["+4", "-13", "-8", "+17"]

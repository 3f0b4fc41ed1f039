"""A club made and organised in a real browser, at phone and desktop widths: the create form,
the organiser's link kept on the device and taken out of the address bar, the roster changed
from the organiser's page (add, rename, merge, unmerge, attach a table whose new names join,
a refusal said in the page's language), a private club read on the organiser's device and
refused on another, and "forget" taking the token away. Screenshots of each page."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest
from devices import DESKTOP, PHONE
from test_event_leaderboard import SCREENSHOTS, Device

from companion.api import create_app
from companion.ledger.repository import Ledger
from companion.web import i18n

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

SHOTS = Path("/work/wt/shots/club2")
"""Where the screenshots are copied for the integrator, when that folder exists."""


@pytest.fixture
def served(
    tmp_path: Path, serve_app: Callable[[Any], AbstractContextManager[str]]
) -> Iterator[tuple[str, Ledger]]:
    url = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    with Ledger.open(url) as ledger, serve_app(create_app(url)) as base:
        yield base, ledger


def _shot(device: Device, label: str) -> None:
    device.screenshot(label)
    if SHOTS.is_dir():
        shutil.copy(SCREENSHOTS / f"{label}-{device.name}.png", SHOTS)


def _act(page: Any, form: str, fields: dict[str, str], said: str) -> None:
    for selector, value in fields.items():
        field = page.locator(f"{form} {selector}")
        if field.evaluate("node => node.tagName") == "SELECT":
            field.select_option(label=value)
        else:
            field.fill(value)
    page.click(f"{form} button[type=submit]")
    expect(page.locator("#action-status")).to_have_text(said)


@pytest.mark.parametrize(
    ("viewport", "name", "lang"), [(PHONE, "phone", "zh-Hans"), (DESKTOP, "desktop", "en")]
)
def test_a_club_made_and_organised_on_the_web(
    browser: Any, served: tuple[str, Ledger], viewport: dict[str, int], name: str, lang: str
) -> None:
    base, ledger = served
    say = lambda key, **fields: i18n.translate(lang, key, **fields)  # noqa: E731
    device = Device(browser, base, name, viewport)
    page = device.page
    page.goto(f"{base}/clubs?lang={lang}")
    page.fill("#club-name", "Thursday Riichi")
    page.check("#club-private")
    device.fits()
    _shot(device, "club-create")
    page.click("#create-submit")
    page.wait_for_selector("body[data-ready='true']")
    expect(page.locator("#new-club")).to_be_visible()
    club = page.url.split("/c/")[1].split("/")[0]
    assert page.url == f"{base}/c/{club}/organise"  # the token left the address bar
    link = page.locator("#organiser-link").input_value()
    token = link.split("#token=")[1]
    kept = page.evaluate("JSON.parse(localStorage.getItem('companion.clubs'))")
    assert kept[club]["token"] == token
    expect(page.locator("[data-roster]")).to_have_count(0)

    added = say("club.done_add", name="Ann")
    _act(page, "#form-add", {"#add-name": "Ann", "#add-nickname": "Annie"}, added)
    _act(page, "#form-add", {"#add-name": "Ben"}, say("club.done_add", name="Ben"))
    _act(page, "#form-add", {"#add-name": "Cat"}, say("club.done_add", name="Cat"))
    # A name taken without case: refused in the page's language, nothing added.
    taken = say("refusal.club_same_name", name="ANN", holder="Ann")
    _act(page, "#form-add", {"#add-name": "ANN"}, say("club.refused", why=taken))
    expect(page.locator("[data-roster] tbody tr")).to_have_count(3)
    _act(
        page,
        "#form-rename",
        {"#rename-name": "Ben", "#rename-new": "Benjamin"},
        say("club.done_rename", name="Ben", new_name="Benjamin"),
    )
    _act(
        page,
        "#form-merge",
        {"#merge-name": "Cat", "#merge-into": "Ann"},
        say("club.done_merge", name="Cat", into="Ann"),
    )
    expect(page.locator("[data-roster] tbody tr")).to_have_count(2)
    _act(page, "#form-unmerge", {"#unmerge-name": "Cat"}, say("club.done_unmerge", name="Cat"))
    table = ledger.create_table("riichi", ["ann", "Dan", "Eve", "Fay"])
    _act(
        page,
        "#form-attach",
        {"#attach-id": table.id},
        say("club.joined_roster", names="Dan, Eve, Fay"),
    )
    # What the form did is said at the foot of the screen, where the organiser is looking.
    status = page.locator("#action-status").bounding_box()
    assert status is not None and status["y"] + status["height"] <= viewport["height"] + 1
    page.screenshot(path=str(SCREENSHOTS / f"club-organiser-said-{name}.png"))
    if SHOTS.is_dir():
        shutil.copy(SCREENSHOTS / f"club-organiser-said-{name}.png", SHOTS)
    names = page.locator("[data-roster] tbody tr").evaluate_all(
        "rows => rows.map(row => row.dataset.player)"
    )
    assert names == ["Ann", "Benjamin", "Cat", "Dan", "Eve", "Fay"]
    device.fits()
    _shot(device, "club-organiser")

    # The organiser's device reads the private club's leaderboard with the token it keeps.
    page.goto(f"{base}/c/{club}")
    page.wait_for_selector("body[data-ready='true']")
    expect(page.locator("[data-leaderboard], [data-empty]")).to_have_count(1)
    expect(page.locator("[data-private-club]")).to_have_count(0)
    # Another device without the token is refused, in its language.
    other = Device(browser, base, name, viewport)
    other.page.goto(f"{base}/c/{club}?lang={lang}")
    other.page.wait_for_selector("body[data-ready='true']")
    refusal = say("refusal.club_private")
    expect(other.page.locator("[data-refusal]")).to_have_text(refusal[:1].upper() + refusal[1:])
    other.fits()
    _shot(other, "club-private")
    other.close(allowed=("status of 403",))

    page.goto(f"{base}/c/{club}/organise")
    page.wait_for_selector("body[data-ready='true']")
    expect(page.locator("[data-roster] tbody tr")).to_have_count(6)
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#forget-organiser")
    expect(page.locator("#no-token")).to_be_visible()
    expect(page.locator("[data-roster]")).to_have_count(0)
    assert club not in page.evaluate("JSON.parse(localStorage.getItem('companion.clubs'))")
    # The refused name's 409, and the private page's 403 before it is read with the token.
    device.close(allowed=("status of 409", "status of 403"))

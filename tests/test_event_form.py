"""Starting an event on the web (`GET`/`POST /events`): the form, a real event made from it and
the organiser's link it lands on, its refusals on the form with what was typed kept, in the
page's language where the refusal has a key."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from companion.api import create_app
from companion.api.deps import close_ledgers
from companion.api.limits import Rate, RateLimiter, RateLimits
from companion.api.security import CONTENT_SECURITY_POLICY
from companion.web.templating import NAV

EIGHT = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
LOCATION = re.compile(r"^/e/(?P<id>[a-z0-9]+)#token=(?P<token>[A-Za-z0-9_-]+)&new=1$")


def csrf(client: TestClient) -> str:
    client.get("/events")
    token = client.cookies.get("companion_csrf")
    assert isinstance(token, str) and token
    return token


def form(client: TestClient, **fields: str) -> dict[str, str]:
    return {
        "csrf_token": csrf(client),
        "name": "Club night",
        "players": "\n".join(EIGHT),
        "event_rounds": "3",
        "profile": "sg",
        **fields,
    }


def refusal(page: str) -> str:
    found = re.search(r'id="create-error">\s*<p><strong>[^<]*</strong></p>\s*<p>([^<]*)</p>', page)
    assert found, page
    return html.unescape(found.group(1))


def field_names(page: str) -> set[str]:
    return set(re.findall(r'<(?:input|select|textarea)[^>]* name="([^"]+)"', page))


def test_the_nav_has_the_events() -> None:
    assert [item.path for item in NAV] == ["/", "/tables", "/events", "/clubs", "/docs"]


@pytest.mark.parametrize(
    ("lang", "title", "players"),
    [
        ("en", "Start an event", "Players, one per line"),
        ("zh-Hans", "创建赛事", "玩家（每行一位）"),  # noqa: RUF001
    ],
)
def test_the_events_page(client: TestClient, lang: str, title: str, players: str) -> None:
    response = client.get(f"/events?lang={lang}")
    assert response.status_code == 200
    assert response.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    page = response.text
    assert f'<h2 id="new-event-heading">{title}</h2>' in page
    assert f'<label for="event-players">{players}</label>' in page
    assert '<form class="create-form" id="create-form" method="post" action="/events">' in page
    assert {
        "csrf_token",
        "name",
        "players",
        "event_rounds",
        "leftover",
        "profile",
        "hands",
        "rounds",
        "first_round",
        "seed",
        "later_rounds",
        "by",
        "option:sg-table:shooter_pays",
        "option:mcr:flowers",
    } <= field_names(page)
    # The tables page points an organiser here.
    assert '<a href="/events">' in client.get(f"/tables?lang={lang}").text


def test_an_mcr_event_plans_no_length(client: TestClient) -> None:
    page = client.get("/events?profile=mcr&lang=en").text
    assert '<fieldset class="length-fields" id="length-fields" hidden disabled>' in page
    assert "16 hands: four rounds of four. The rules fix the length." in page


def test_the_form_starts_an_event_and_lands_on_the_organisers_link(client: TestClient) -> None:
    players = "  Ann \n\nBen\nCat\nDan\n Eve\nFay\nGus\nHal\n\n"
    sent = form(
        client,
        players=players,
        hands="8",
        first_round="listed",
        seed="7",
        later_rounds="by-standing",
        by="Mia",
        **{"option:sg:min_tai": "2", "option:sg:seven_pairs": "true"},
    )
    response = client.post("/events", data=sent, follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["cache-control"] == "no-store"
    found = LOCATION.match(response.headers["location"])
    assert found, response.headers["location"]
    event_id, token = found["id"], found["token"]

    event: dict[str, Any] = client.get(f"/api/events/{event_id}").json()
    assert (event["name"], event["profile"], event["rounds"]) == ("Club night", "sg", 3)
    assert [player["name"] for player in event["players"]] == EIGHT
    assert (event["first_round"], event["later_rounds"], event["seed"]) == (
        "listed",
        "by-standing",
        7,
    )
    assert (event["table_hands"], event["options"]) == (8, {"min_tai": 2, "seven_pairs": True})
    # The token in the link is the organiser's: it seats round 1, as listed.
    headers = {"Authorization": f"Bearer {token}"}
    seated = client.post(f"/api/events/{event_id}/rounds", json={"round": 1}, headers=headers)
    assert seated.status_code == 201
    assert [table["players"] for table in seated.json()["tables"]] == [EIGHT[:4], EIGHT[4:]]
    audit = client.get(f"/api/events/{event_id}/audit", headers=headers).json()
    assert [(entry["kind"], entry["by"]) for entry in audit["audit"]] == [
        ("create", "Mia"),
        ("seat", ""),
    ]


def test_an_mcr_event_from_the_form_ignores_a_length_typed_before(client: TestClient) -> None:
    # Without the script, hands typed for another profile still reach the server: not read;
    # every table plays MCR's own 16.
    response = client.post(
        "/events", data=form(client, profile="mcr", hands="8", rounds="2"), follow_redirects=False
    )
    assert response.status_code == 303
    event_id = LOCATION.match(response.headers["location"])["id"]  # type: ignore[index]
    event = client.get(f"/api/events/{event_id}").json()
    assert (event["profile"], event["table_hands"], event["table_rounds"]) == ("mcr", 16, None)


@pytest.mark.parametrize(
    ("fields", "lang", "message"),
    [
        (
            {"players": "\n".join([*EIGHT, "Ivy"])},
            "en",
            "9 players leave 1 over at tables of four: bring in 3 more to substitute, or give 1 "
            "of them a bye",
        ),
        (
            {"players": "\n".join([*EIGHT, "Ivy"])},
            "zh-Hans",
            "9 名玩家按四人一桌会多出 1 人：可再请 3 人替补，或让其中 1 人轮空。",  # noqa: RUF001
        ),
        ({"players": "Ann"}, "en", "a table needs 4 players, and the event has 1"),
        ({"name": " "}, "en", "an event's name cannot be empty"),
        ({"event_rounds": "x"}, "en", "The number of rounds must be a whole number, at least 1."),
        ({"event_rounds": "0"}, "zh-Hant", "輪數須為整數，至少為 1。"),  # noqa: RUF001
        ({"seed": "-1"}, "en", "A seed is a whole number, 0 or more."),
        (
            {"seed": "9999999999999999999"},
            "zh-Hans",
            "随机种子须为 0 到 9223372036854775807 之间的整数。",
        ),
        (
            {"players": "\n".join([*EIGHT[:7], "Ann, Ben"])},
            "zh-Hant",
            "玩家名字不能包含逗號：Ann, Ben。",  # noqa: RUF001
        ),
        ({"leftover": "bye"}, "en", "leftover must be one of substitutes, byes; got 'bye'"),
        ({"hands": "0"}, "en", "the planned number of hands must be at least 1"),
    ],
)
def test_a_refused_form_comes_back_with_what_was_typed(
    client: TestClient, fields: dict[str, str], lang: str, message: str
) -> None:
    sent = form(client, **fields, by="Mia")
    response = client.post(f"/events?lang={lang}", data=sent, follow_redirects=False)
    assert response.status_code == 422
    page = response.text
    assert refusal(page) == message
    typed = html.escape(sent["players"], quote=False)
    assert f'spellcheck="false">{typed}</textarea>' in page
    assert 'name="by" type="text" maxlength="200" autocomplete="off" value="Mia"' in page


def test_the_form_needs_its_csrf_token(client: TestClient) -> None:
    sent = form(client)
    del sent["csrf_token"]
    assert client.post("/events", data=sent, follow_redirects=False).status_code == 403


def test_the_form_counts_against_the_creation_limit_of_the_api(tmp_path: Path) -> None:
    limits = RateLimits(create=Rate(2, 3600), write=None)
    app = create_app(f"sqlite:///{tmp_path / 'ledger.sqlite3'}", rate_limits=limits)
    app.state.rate_limiter = RateLimiter(limits, clock=lambda: 0.0)  # no refill between requests
    with TestClient(app) as client:
        body = {"name": "Night", "profile": "sg", "players": EIGHT, "rounds": 2}
        assert client.post("/api/events", json=body).status_code == 201
        assert client.post("/events", data=form(client), follow_redirects=False).status_code == 303
        refused = client.post("/events", data=form(client), follow_redirects=False)
        assert (refused.status_code, refused.headers["retry-after"]) == (429, "1800")
        assert client.post("/api/events", json=body).status_code == 429
    close_ledgers(app)

"""Access: who may write, what a missing id answers, and hostile names shown safely.

- A write without a token is a 401, with another table's token or a malformed one a 401 or 403;
  none of them records anything.
- An id that does not exist is a 404 for everyone: readers, writers with or without a token,
  the API and the pages.
- Names, reasons, "by" and keys holding markup, SQL or any Unicode are stored and returned
  verbatim by the JSON API and the exports, and the HTML pages show them escaped (no markup of
  theirs reaches the page), on SQLite and PostgreSQL.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from companion.api import create_app
from companion.api.deps import close_ledgers
from export_rows import export_header, export_rows

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
HOSTILE_PLAYERS = [
    "<script>alert(1)</script>",
    "\"'; DROP TABLE ledger_events;--",
    "李小龍 🀄 Ünïcødé",
    "Ann & <b onmouseover=alert(2)>Ben</b>",
]
HOSTILE_REASON = "<img src=x onerror=alert(3)>'); DELETE FROM ledger_tables; -- \u202e\u200b"
HOSTILE_BY = "</textarea><svg onload=alert(4)>"
HOSTILE_KEY = "<script>k</script>' OR '1'='1"
RAW = [
    "<script>alert(1)</script>",
    "<b onmouseover",
    "<img src=x",
    "</textarea><svg",
    "<svg onload",
]
"""What must never appear raw in a page that shows the hostile text."""


@pytest.fixture
def client(ledger_url: str) -> Iterator[TestClient]:
    """The app on a new SQLite file, and on this session's PostgreSQL database."""
    app = create_app(ledger_url)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client
    close_ledgers(app)


def new_table(client: TestClient, players: list[str] = PLAYERS) -> tuple[str, str]:
    response = client.post("/api/tables", json={"profile": "sg", "players": players})
    assert response.status_code == 201, response.text
    data = response.json()
    return data["id"], data["token"]


def events(client: TestClient, table_id: str) -> list[dict[str, Any]]:
    response = client.get(f"/api/tables/{table_id}/history")
    assert response.status_code == 200, response.text
    found: list[dict[str, Any]] = response.json()["events"]
    return found


WRITES = [
    ("hands", {"kind": "win", "winner": "Ann", "from": "Ben", "tai": 1}),
    ("events/1/void", {"reason": "wrong"}),
    ("events/1/amend", {"kind": "draw", "reason": "wrong"}),
]

MISSING = [
    None,  # no Authorization header
    "",
    "Bearer",
    "Bearer ",
    "Bearer \t ",
    "Basic QW5uOkJlbg==",
    "Token {token}",
    "{token}",  # the right token without its scheme
    "Bearer: {token}",
]
"""Authorization headers that present no Bearer token at all: 401."""

WRONG = [
    "Bearer {other}",  # another table's token
    "Bearer {token}x",
    "Bearer {upper}",
    "Bearer {token} {token}",
    "Bearer " + "A" * 8192,
    "Bearer \x00",
    "Bearer <script>alert(1)</script>",
    "Bearer ' OR '1'='1",
    "Bearer ключ🀄",  # sent as UTF-8 bytes; a server reads header bytes as Latin-1
]
"""Headers that present a token that is not this table's: 403."""


def header(template: str, token: str, other: str) -> bytes:
    return template.format(token=token, other=other, upper=token.upper()).encode("utf-8")


@pytest.mark.parametrize(("suffix", "body"), WRITES)
def test_only_the_tables_own_token_may_write(
    client: TestClient, suffix: str, body: dict[str, Any]
) -> None:
    table_id, token = new_table(client)
    _, other = new_table(client)
    assert (
        client.post(
            f"/api/tables/{table_id}/hands",
            json={"kind": "draw"},
            headers={"authorization": f"Bearer {token}"},
        ).status_code
        == 201
    )
    url = f"/api/tables/{table_id}/{suffix}"
    before = events(client, table_id)
    for template in MISSING:
        headers = {} if template is None else {"authorization": header(template, token, other)}
        response = client.post(url, json=body, headers=headers)
        assert response.status_code == 401, (template, response.text)
        assert response.headers["www-authenticate"] == "Bearer"
        assert "token" in response.json()["error"]
    for template in WRONG:
        headers = {"authorization": header(template, token, other)}
        response = client.post(url, json=body, headers=headers)
        assert response.status_code == 403, (template, response.text)
        assert response.json() == {"error": "the token does not match this table"}
    assert events(client, table_id) == before, "nothing was written"
    allowed = client.post(url, json=body, headers={"authorization": f"Bearer {token}"})
    assert allowed.status_code == 201, allowed.text


UNKNOWN_IDS = [
    "zzzzzzzz",
    "ZZZZZZZZ",
    "a",
    "0" * 300,
    "<script>alert(1)</script>",
    "1' OR '1'='1",
    "李",
    "x\x00",  # PostgreSQL cannot even compare text with a NUL: still a 404, not a 503
]


@pytest.mark.parametrize("table_id", UNKNOWN_IDS)
def test_an_id_that_does_not_exist_is_a_404_for_everyone(client: TestClient, table_id: str) -> None:
    from urllib.parse import quote

    _, token = new_table(client)
    path = quote(table_id, safe="")
    for url in (f"/api/tables/{path}", f"/api/tables/{path}/history", f"/api/tables/{path}/export"):
        response = client.get(url)
        assert response.status_code == 404, (url, response.text)
        assert response.json()["error"], "a JSON message (an id with a slash matches no route)"
    for suffix, body in WRITES:
        for headers in (
            {},
            {"authorization": "Bearer wrong"},
            {"authorization": f"Bearer {token}"},
        ):
            response = client.post(f"/api/tables/{path}/{suffix}", json=body, headers=headers)
            assert response.status_code == 404, (suffix, headers, response.text)
    for url in (f"/t/{path}", f"/t/{path}/board"):
        page = client.get(url)
        assert page.status_code == 404
        assert page.headers["content-type"].startswith("text/html")
        for raw in RAW:
            assert raw not in page.text, "the id is shown escaped"


def test_an_event_that_does_not_exist_is_refused_and_nothing_recorded(client: TestClient) -> None:
    table_id, token = new_table(client)
    auth = {"authorization": f"Bearer {token}"}
    for suffix, body in WRITES[1:]:
        response = client.post(
            f"/api/tables/{table_id}/{suffix.replace('1', '99')}", json=body, headers=auth
        )
        assert response.status_code == 404, response.text
        assert response.json() == {"error": "this table has no entry 99"}
    assert events(client, table_id) == []


def page_data(html: str) -> dict[str, Any]:
    match = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', html, re.S)
    assert match, "the page has its data block"
    data: dict[str, Any] = json.loads(match.group(1))
    return data


def test_hostile_names_and_reasons_are_stored_verbatim_and_shown_escaped(
    client: TestClient,
) -> None:
    table_id, token = new_table(client, HOSTILE_PLAYERS)
    auth = {"authorization": f"Bearer {token}"}
    script, sql, chinese, bold = HOSTILE_PLAYERS
    win = {"kind": "win", "winner": script, "from": sql, "tai": 2, "key": HOSTILE_KEY}
    first = client.post(f"/api/tables/{table_id}/hands", json=win, headers=auth)
    assert first.status_code == 201, first.text
    again = client.post(f"/api/tables/{table_id}/hands", json=win, headers=auth)
    assert again.status_code == 200 and again.json()["duplicate"] is True, "the key matched"
    second = {"kind": "win", "winner": bold, "self_draw": True, "tai": 1}
    assert (
        client.post(f"/api/tables/{table_id}/hands", json=second, headers=auth).status_code == 201
    )
    void = {"reason": HOSTILE_REASON, "by": HOSTILE_BY}
    voided = client.post(f"/api/tables/{table_id}/events/2/void", json=void, headers=auth)
    assert voided.status_code == 201, voided.text

    # The JSON API returns every string exactly as sent.
    table = client.get(f"/api/tables/{table_id}").json()
    assert [player["name"] for player in table["players"]] == HOSTILE_PLAYERS
    history = events(client, table_id)
    assert len(history) == 3, "the SQL in the names ran nowhere: the record is whole"
    assert history[0]["outcome"]["winners"][0]["name"] == script
    assert history[0]["outcome"]["discarder"] == sql
    assert history[0]["key"] == HOSTILE_KEY
    assert history[1]["outcome"]["winners"][0]["name"] == bold
    assert history[2]["reason"] == HOSTILE_REASON and history[2]["by"] == HOSTILE_BY
    totals = [player["total"] for player in table["players"]]
    assert totals[0] > 0 and sum(totals) == 0, "only the win counts: the self-draw is void"

    exported = client.get(f"/api/tables/{table_id}/export").json()
    assert exported["table"]["players"] == HOSTILE_PLAYERS
    assert exported["events"][2]["reason"] == HOSTILE_REASON
    text = client.get(f"/api/tables/{table_id}/export?format=csv").text
    assert set(HOSTILE_PLAYERS) <= set(export_header(text))
    void = export_rows(text)[2]
    assert (void["reason"], void["by"]) == (HOSTILE_REASON, HOSTILE_BY)

    # The pages show them escaped: none of their markup is in the page, their text is.
    for url in (f"/t/{table_id}", f"/t/{table_id}/board"):
        page = client.get(url)
        assert page.status_code == 200, page.text
        html = page.text
        for raw in RAW:
            assert raw not in html, (url, raw)
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert "&lt;img src=x onerror=alert(3)&gt;" in html
        assert "&lt;/textarea&gt;&lt;svg onload=alert(4)&gt;" in html
        assert chinese in html
    data = page_data(client.get(f"/t/{table_id}").text)
    assert data["table"]["players"] == HOSTILE_PLAYERS, "the script's data keeps them verbatim"

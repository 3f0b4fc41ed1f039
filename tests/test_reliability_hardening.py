"""Hardening for a public server: what a client may store, spreadsheet-safe CSV, forms and hosts,
corrections that race, rate limits. (Slow clients and many processes: test_reliability_serve.py.)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from companion.api import create_app
from companion.api.deps import close_ledgers
from companion.cli import main as cli_main
from companion.ledger.export import spreadsheet_text
from companion.ledger.records import WinRecord
from export_rows import export_header, export_rows

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
FORMULA_PLAYERS = ["=1+2", "+SUM(1;2)", "-2+3", "@cmd"]


@pytest.fixture
def any_client(ledger_url: str) -> Iterator[TestClient]:
    app = create_app(ledger_url)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client
    close_ledgers(app)


def new_table(client: TestClient, players: list[str] = PLAYERS, **fields: Any) -> tuple[str, str]:
    response = client.post("/api/tables", json={"profile": "sg", "players": players, **fields})
    assert response.status_code == 201, response.text
    data = response.json()
    return data["id"], data["token"]


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


# ---------------------------------------------------------------------------------------------
# CSV export: formula cells


def test_spreadsheet_text_neutralises_every_formula_start() -> None:
    for start in ("=", "+", "-", "@", "\t", "\r"):
        assert spreadsheet_text(f"{start}1+1") == f"'{start}1+1"
    assert spreadsheet_text("Ann") == "Ann"
    assert spreadsheet_text("") == ""
    assert spreadsheet_text("1-2") == "1-2"


def formula_table(client: TestClient) -> str:
    table_id, token = new_table(client, FORMULA_PLAYERS)
    win = {"kind": "win", "winner": "=1+2", "from": "-2+3", "tai": 2}
    assert client.post(f"/api/tables/{table_id}/hands", json=win, headers=bearer(token)).is_success
    void = {"reason": "=HYPERLINK(1)", "by": "@cmd"}
    url = f"/api/tables/{table_id}/events/1/void"
    assert client.post(url, json=void, headers=bearer(token)).status_code == 201
    return table_id


def check_formula_csv(text: str) -> None:
    header = export_header(text)
    assert {f"'{name}" for name in FORMULA_PLAYERS} <= set(header)
    assert {f"'{name} total" for name in FORMULA_PLAYERS} <= set(header)
    columns, corrected = export_rows(text)
    assert columns["dealer"] == "'=1+2"
    assert columns["winners"] == ""  # the win is void: no winner counts
    assert columns["description"] == "'=1+2 wins 2 tai (agreed) on -2+3's discard"
    assert corrected["reason"] == "'=HYPERLINK(1)" and corrected["by"] == "'@cmd"
    # amounts are Companion's own numbers: a negative amount stays a number
    assert [columns[f"'{name}"] for name in FORMULA_PLAYERS] == ["0", "0", "0", "0"]
    cells = [*header, *(cell for row in (columns, corrected) for cell in row.values())]
    assert not any(cell.startswith(("=", "+", "@")) for cell in cells)


def test_http_csv_export_neutralises_formulas_and_json_stays_exact(client: TestClient) -> None:
    table_id = formula_table(client)
    check_formula_csv(client.get(f"/api/tables/{table_id}/export?format=csv").text)
    exported = client.get(f"/api/tables/{table_id}/export").json()
    assert exported["table"]["players"] == FORMULA_PLAYERS
    assert exported["events"][1]["reason"] == "=HYPERLINK(1)"
    assert exported["events"][1]["by"] == "@cmd"


def test_cli_csv_export_neutralises_formulas(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table_id = formula_table(client)
    target = tmp_path / "out.csv"
    url = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    argv = ["table", "export", table_id, "--format", "csv", "-o", str(target), "--db", url]
    assert cli_main(argv) == 0
    check_formula_csv(target.read_text())


# ---------------------------------------------------------------------------------------------
# Forms, JSON and hosts


def csrf_cookie(client: TestClient) -> str:
    client.get("/tables")
    token = client.cookies.get("companion_csrf")
    assert token
    return token


@pytest.mark.parametrize("content_type", ["text/plain", None, "application/json"])
def test_a_page_write_needs_the_csrf_field_whatever_its_content_type(
    client: TestClient, content_type: str | None
) -> None:
    csrf_cookie(client)
    body = b"profile=sg&player0=Ann&player1=Ben&player2=Cat&player3=Dan"
    headers = {} if content_type is None else {"content-type": content_type}
    created = client.post("/tables", content=body, headers=headers, follow_redirects=False)
    assert created.status_code == 403
    assert created.json()["error"] == (
        "the form's security token is missing or out of date: reload the page"
    )
    language = client.post("/lang", content=b"lang=zh-Hant", headers=headers)
    assert language.status_code == 403
    assert "companion_lang" not in client.cookies


def test_a_page_write_with_the_csrf_field_goes_through_as_text_plain(client: TestClient) -> None:
    token = csrf_cookie(client)
    body = f"lang=zh-Hant&next=/tables&csrf_token={token}".encode()
    response = client.post(
        "/lang", content=body, headers={"content-type": "text/plain"}, follow_redirects=False
    )
    assert response.status_code == 303 and response.headers["location"] == "/tables"


@pytest.mark.parametrize("content_type", ["application/x-www-form-urlencoded", "text/plain"])
def test_the_json_api_answers_a_wrong_content_type_with_415(
    client: TestClient, content_type: str
) -> None:
    table_id, token = new_table(client)
    csrf_cookie(client)
    headers = {**bearer(token), "content-type": content_type}
    response = client.post(f"/api/tables/{table_id}/hands", content=b"kind=draw", headers=headers)
    assert response.status_code == 415
    assert response.json()["error"] == (
        "send the request as JSON, with Content-Type: application/json"
    )
    created = client.post("/api/tables", content=b"a=1", headers={"content-type": content_type})
    assert created.status_code == 415


@pytest.fixture
def loopback_client(tmp_path: Path) -> Iterator[TestClient]:
    """The app as `companion serve` sets it up on 127.0.0.1 (its default allow-list)."""
    from companion.api.security import default_allowed_hosts

    hosts, any_ip = default_allowed_hosts("127.0.0.1")
    app = create_app(
        f"sqlite:///{tmp_path / 'ledger.sqlite3'}", allowed_hosts=hosts, any_ip_host=any_ip
    )
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        yield client
    close_ledgers(app)


def test_default_allowed_hosts() -> None:
    from companion.api.security import default_allowed_hosts

    assert default_allowed_hosts("127.0.0.1") == (["127.0.0.1", "localhost", "::1"], False)
    assert default_allowed_hosts("0.0.0.0", ["scores.example"]) == (
        ["0.0.0.0", "localhost", "127.0.0.1", "::1", "scores.example"],
        True,
    )
    assert default_allowed_hosts("::1") == (["::1", "localhost", "127.0.0.1"], False)


@pytest.mark.parametrize(
    "host", ["127.0.0.1:8000", "localhost:8000", "LOCALHOST", "[::1]:8000", "127.0.0.1"]
)
def test_the_loopback_server_answers_its_own_hosts(loopback_client: TestClient, host: str) -> None:
    assert loopback_client.get("/api/health", headers={"host": host}).status_code == 200


@pytest.mark.parametrize(
    "host", ["rebind.example:8000", "rebind.example", "192.168.1.20:8000", "", "127.0.0.1.evil"]
)
def test_a_rebound_name_cannot_reach_the_loopback_server(
    loopback_client: TestClient, host: str
) -> None:
    for method, path in (("GET", "/api/health"), ("GET", "/tables"), ("POST", "/api/tables")):
        response = loopback_client.request(method, path, headers={"host": host}, json={})
        assert response.status_code == 400, (method, path)
        assert response.json() == {"error": "this server does not answer for that host name"}


def test_a_server_on_every_interface_answers_any_address_but_only_listed_names(
    tmp_path: Path,
) -> None:
    from companion.api.security import default_allowed_hosts

    hosts, any_ip = default_allowed_hosts("0.0.0.0", ["scores.example"])
    app = create_app(f"sqlite:///{tmp_path / 'l.sqlite3'}", allowed_hosts=hosts, any_ip_host=any_ip)
    with TestClient(app) as client:
        for host in ("192.168.1.20:8000", "[fe80::1]:8000", "scores.example", "localhost"):
            assert client.get("/api/health", headers={"host": host}).status_code == 200, host
        assert client.get("/api/health", headers={"host": "rebind.example"}).status_code == 400


# ---------------------------------------------------------------------------------------------
# Rate limits


def test_rate_limits_are_on_by_default_with_generous_numbers(tmp_path: Path) -> None:
    from companion.api.limits import Rate, RateLimiter, RateLimits

    assert RateLimits() == RateLimits(create=Rate(120, 3600), write=Rate(240, 60))
    limiter = create_app(f"sqlite:///{tmp_path / 'l.sqlite3'}").state.rate_limiter
    assert isinstance(limiter, RateLimiter) and limiter.limits == RateLimits()
    assert Rate.parse("30/60") == Rate(30, 60) and Rate.parse("off") is None
    with pytest.raises(ValueError, match="is not a rate"):
        Rate.parse("fast")


@pytest.fixture
def limited(tmp_path: Path) -> Iterator[TestClient]:
    from companion.api.limits import Rate, RateLimiter, RateLimits

    limits = RateLimits(create=Rate(2, 3600), write=Rate(3, 3600))
    app = create_app(f"sqlite:///{tmp_path / 'ledger.sqlite3'}", rate_limits=limits)
    # A stopped clock: the buckets refill by nothing between requests, so the waits asserted
    # are exact however slowly a busy machine runs the test (it once took 9 s: 1791, not 1800).
    app.state.rate_limiter = RateLimiter(limits, clock=lambda: 0.0)
    with TestClient(app) as client:
        yield client
    close_ledgers(app)


def test_creating_tables_is_limited_per_address_with_429_and_retry_after(
    limited: TestClient,
) -> None:
    new_table(limited)
    new_table(limited)
    refused = limited.post("/api/tables", json={"profile": "sg", "players": PLAYERS})
    assert refused.status_code == 429
    assert refused.headers["retry-after"] == "1800"
    assert refused.json()["error"] == (
        "too many new tables from this address (at most 2 per 3600 s): try again in 1800 s"
    )
    csrf = csrf_cookie(limited)
    form = {"csrf_token": csrf, "profile": "sg", **{f"player{i}": n for i, n in enumerate(PLAYERS)}}
    page = limited.post("/tables", data=form, follow_redirects=False)
    assert page.status_code == 429 and page.headers["retry-after"] == "1800"


def test_writes_are_limited_per_table_and_only_token_holders_spend_them(
    limited: TestClient,
) -> None:
    table_id, token = new_table(limited)
    other_id, other_token = new_table(limited)
    draw = {"kind": "draw"}
    url = f"/api/tables/{table_id}/hands"
    for _ in range(5):  # refused writes (no token, a wrong one) cost the table nothing
        assert limited.post(url, json=draw).status_code == 401
        assert limited.post(url, json=draw, headers=bearer(other_token)).status_code == 403
    for _ in range(3):
        assert limited.post(url, json=draw, headers=bearer(token)).status_code == 201
    refused = limited.post(f"/api/tables/{table_id}/events/1/void", json={"reason": "x"},
                           headers=bearer(token))  # fmt: skip
    assert refused.status_code == 429 and refused.headers["retry-after"] == "1200"
    assert refused.json()["error"] == (
        "too many writes to this table (at most 3 per 3600 s): try again in 1200 s"
    )
    assert len(limited.get(f"/api/tables/{table_id}/history").json()["events"]) == 3
    other = limited.post(f"/api/tables/{other_id}/hands", json=draw, headers=bearer(other_token))
    assert other.status_code == 201, "another table has its own bucket"


def test_a_bucket_refills_at_its_rate() -> None:
    from companion.api.limits import Rate, TokenBuckets

    now = [100.0]
    buckets = TokenBuckets(Rate(2, 10), clock=lambda: now[0])
    assert buckets.take("a") == 0 and buckets.take("a") == 0
    assert buckets.take("a") == pytest.approx(5.0)
    assert buckets.take("b") == 0
    now[0] += 5
    assert buckets.take("a") == 0
    assert buckets.take("a") == pytest.approx(5.0)


# ---------------------------------------------------------------------------------------------
# What a client may store


def test_the_limits_are_the_documented_ones() -> None:
    from companion.ledger import state

    assert (state.MAX_PLAYER_NAME, state.MAX_TABLE_NAME, state.MAX_CORRECTION_TEXT) == (40, 60, 200)
    assert (state.MAX_CORRECTIONS, state.MAX_ENTRIES) == (10, 20_000)


def test_names_at_their_limits_are_stored_and_over_them_refused(any_client: TestClient) -> None:
    longest = ["A" * 40, "B" * 40, "C" * 40, "D" * 40]
    table_id, token = new_table(any_client, longest, name="N" * 60)
    table = any_client.get(f"/api/tables/{table_id}").json()
    assert table["name"] == "N" * 60
    assert [player["name"] for player in table["players"]] == longest
    assert any_client.get(f"/api/tables/{table_id}/export").json()["table"]["name"] == "N" * 60
    assert "N" * 60 in any_client.get(f"/t/{table_id}").text

    body = {"profile": "sg", "players": ["A" * 41, "B", "C", "D"]}
    refused = any_client.post("/api/tables", json=body)
    assert refused.status_code == 422
    assert refused.json()["error"].startswith("a player's name can have at most 40 characters")
    refused = any_client.post("/api/tables", json={**body, "players": PLAYERS, "name": "N" * 61})
    assert refused.status_code == 422
    assert refused.json()["error"] == "a table's name can have at most 60 characters"

    url = f"/api/tables/{table_id}"
    win = {"kind": "win", "winner": "A" * 40, "from": "B" * 40, "tai": 1}
    assert any_client.post(f"{url}/hands", json=win, headers=bearer(token)).status_code == 201
    at_limit = {"reason": "r" * 200, "by": "b" * 200}
    voided = any_client.post(f"{url}/events/1/void", json=at_limit, headers=bearer(token))
    assert voided.status_code == 201, voided.text
    assert voided.json()["event"]["by"] == "b" * 200
    for field, message in (
        ("reason", "a correction's reason can have at most 200 characters"),
        ("by", "by (who corrects) can have at most 200 characters"),
    ):
        over = {**at_limit, field: "x" * 201, "kind": "draw"}
        refused = any_client.post(f"{url}/events/1/amend", json=over, headers=bearer(token))
        assert refused.status_code == 422 and refused.json()["error"] == message


def test_an_event_takes_at_most_ten_corrections(client: TestClient) -> None:
    table_id, token = new_table(client)
    url = f"/api/tables/{table_id}"
    client.post(f"{url}/hands", json={"kind": "draw"}, headers=bearer(token))
    for version in range(10):
        amend = {"kind": "draw", "reason": f"check {version}", "expect": version}
        response = client.post(f"{url}/events/1/amend", json=amend, headers=bearer(token))
        assert response.status_code == 201, response.text
    history = client.get(f"{url}/history").json()["events"]
    assert history[0]["version"] == 10 and history[0]["corrected_by"] == 11
    refused = client.post(
        f"{url}/events/1/void", json={"reason": "once more"}, headers=bearer(token)
    )
    assert refused.status_code == 422
    assert refused.json()["error"] == (
        "an entry can be corrected at most 10 times: entry 1 has been"
    )


def test_a_table_holds_a_bounded_number_of_events(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.ledger import repository

    monkeypatch.setattr(repository, "MAX_ENTRIES", 3)
    table_id, token = new_table(client)
    url = f"/api/tables/{table_id}"
    for _ in range(3):
        assert client.post(f"{url}/hands", json={"kind": "draw"}, headers=bearer(token)).is_success
    for path, body in (("hands", {"kind": "draw"}), ("events/1/void", {"reason": "x"})):
        refused = client.post(f"{url}/{path}", json=body, headers=bearer(token))
        assert refused.status_code == 422
        assert refused.json()["error"] == (
            "a table holds at most 3 entries: this one is full; start a new table"
        )
    assert len(client.get(f"{url}/history").json()["events"]) == 3


# ---------------------------------------------------------------------------------------------
# Corrections that race


def test_a_correction_with_a_stale_expect_is_a_409(client: TestClient) -> None:
    table_id, token = new_table(client)
    url = f"/api/tables/{table_id}"
    win = {"kind": "win", "winner": "Ann", "from": "Ben", "tai": 1}
    client.post(f"{url}/hands", json=win, headers=bearer(token))
    assert client.get(f"{url}/history").json()["events"][0]["version"] == 0
    first = {**win, "tai": 2, "reason": "two", "expect": 0}
    assert (
        client.post(f"{url}/events/1/amend", json=first, headers=bearer(token)).status_code == 201
    )
    second = {**win, "tai": 3, "reason": "three", "expect": 0}
    stale = client.post(f"{url}/events/1/amend", json=second, headers=bearer(token))
    assert stale.status_code == 409
    assert stale.json()["error"] == (
        "entry 1 is at version 1, not 0: it was corrected meanwhile; see the history before "
        "correcting it again"
    )
    void = client.post(
        f"{url}/events/1/void", json={"reason": "x", "expect": 0}, headers=bearer(token)
    )
    assert void.status_code == 409
    events = client.get(f"{url}/history").json()["events"]
    assert len(events) == 2 and events[0]["effective"]["winners"][0]["tai"] == 2
    assert events[0]["version"] == 1
    fresh = {**second, "expect": 1}
    assert (
        client.post(f"{url}/events/1/amend", json=fresh, headers=bearer(token)).status_code == 201
    )
    bad = client.post(
        f"{url}/events/1/void", json={"reason": "x", "expect": -1}, headers=bearer(token)
    )
    assert bad.status_code == 422 and bad.json()["error"] == "expect must be at least 0"


def test_racing_amends_of_one_event_let_exactly_one_win(ledger_url: str) -> None:
    import threading

    from companion.ledger.errors import StaleWriteError
    from companion.ledger.records import WinnerRecord, WinRecord
    from companion.ledger.repository import Ledger

    racers = 8
    with Ledger.open(ledger_url) as ledger:
        table = ledger.create_table("sg", PLAYERS)
        ledger.record(table.id, WinRecord((WinnerRecord("Ann", tai=1),), discarder="Ben"))
        barrier = threading.Barrier(racers)
        outcomes: list[str] = []
        lock = threading.Lock()

        def amend(number: int) -> None:
            entry = WinRecord((WinnerRecord("Ann", tai=1 + number % 5),), "Cat")
            barrier.wait(timeout=30)
            try:
                ledger.amend(table.id, 1, entry, reason=f"racer {number}", expect=0)
                result = "amended"
            except StaleWriteError:
                result = "stale"
            with lock:
                outcomes.append(result)

        threads = [threading.Thread(target=amend, args=(n,)) for n in range(racers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert sorted(outcomes) == ["amended"] + ["stale"] * (racers - 1)
        history = ledger.history(table.id)
        assert len(history) == 2 and history[0].version == 1


# ---------------------------------------------------------------------------------------------
# Long tables: the page and its work do not grow with the record


def long_table(client: TestClient, hands: int) -> str:
    from companion.ledger.records import WinnerRecord
    from companion.ledger.repository import Ledger

    table_id, _ = new_table(client)
    url = str(client.app.state.database_url)  # type: ignore[attr-defined]
    with Ledger.open(url) as ledger:
        for number in range(hands):
            winner, discarder = PLAYERS[number % 4], PLAYERS[(number + 1) % 4]
            ledger.record(
                table_id,
                WinRecord((WinnerRecord(winner, tai=1 + number % 3),), discarder=discarder),
            )
    return table_id


def shown_events(html: str) -> list[int]:
    return [int(seq) for seq in re.findall(r'<li class="entry [^"]*" data-seq="(\d+)"', html)]


def test_the_history_is_paged_newest_first_with_an_older_link(client: TestClient) -> None:
    from companion.web.table_chart import CHART_POINTS
    from companion.web.table_history import HISTORY_PAGE

    assert (HISTORY_PAGE, CHART_POINTS) == (50, 120)
    table_id = long_table(client, 130)
    for path in (f"/t/{table_id}", f"/t/{table_id}/board"):
        html = client.get(path).text
        assert shown_events(html) == list(range(130, 80, -1))
        assert f'href="/t/{table_id}?before=81#history"' in html
        assert "Entries 81 to 130 of 130" in html and "data-newest" not in html
        polylines = re.findall(r'<polyline points="([^"]+)"', html)
        assert len(polylines) == 4
        assert all(len(points.split()) == CHART_POINTS + 1 for points in polylines)
    older = client.get(f"/t/{table_id}/board?before=81").text
    assert shown_events(older) == list(range(80, 30, -1))
    assert f'href="/t/{table_id}?before=31#history"' in older and "data-newest" in older
    oldest = client.get(f"/t/{table_id}?before=31").text
    assert shown_events(oldest) == list(range(30, 0, -1))
    assert "data-older" not in oldest and "Entries 1 to 30 of 130" in oldest
    # The API's history stays whole.
    assert len(client.get(f"/api/tables/{table_id}/history").json()["events"]) == 130


def test_a_short_table_has_one_page_and_every_chart_point(client: TestClient) -> None:
    table_id = long_table(client, 3)
    html = client.get(f"/t/{table_id}/board").text
    assert shown_events(html) == [3, 2, 1]
    assert "history-pages" not in html
    polylines = re.findall(r'<polyline points="([^"]+)"', html)
    assert [len(points.split()) for points in polylines] == [4, 4, 4, 4]


def test_the_board_is_built_once_per_state_of_the_record(client: TestClient) -> None:
    from companion.web import table_pages

    table_id, token = new_table(client)
    client.post(f"/api/tables/{table_id}/hands", json={"kind": "draw"}, headers=bearer(token))
    built: list[int] = []
    original = table_pages.board_context

    def counting(*args: Any, **kwargs: Any) -> dict[str, Any]:
        built.append(1)
        return original(*args, **kwargs)

    table_pages.board_context = counting  # type: ignore[assignment]
    try:
        first = client.get(f"/t/{table_id}/board").text
        assert client.get(f"/t/{table_id}/board").text == first
        assert len(built) == 1, "the second request is served from the first one's board"
        client.post(f"/api/tables/{table_id}/hands", json={"kind": "draw"}, headers=bearer(token))
        assert shown_events(client.get(f"/t/{table_id}/board").text) == [2, 1]
        assert len(built) == 2, "a new event makes a new board"
    finally:
        table_pages.board_context = original  # type: ignore[assignment]


# ---------------------------------------------------------------------------------------------
# A full disk: 503 with Retry-After


def test_a_full_disk_is_a_503_with_retry_after(tmp_path: Path) -> None:
    from sqlalchemy import event, text

    url = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    app = create_app(url)
    with TestClient(app, raise_server_exceptions=False) as client:
        table_id, token = new_table(client)
        client.get("/tables")
        csrf = client.cookies["companion_csrf"]
        engine = app.state.ledgers[url].engine
        with engine.connect() as connection:
            pages = connection.execute(text("PRAGMA page_count")).scalar_one()

        # SQLite's own "database or disk is full" once the file holds as many pages as now.
        @event.listens_for(engine, "connect")
        def full(connection: Any, _record: Any) -> None:
            connection.execute(f"PRAGMA max_page_count = {pages}")

        engine.dispose()
        answers = []
        for hand in range(1, 200):
            body = {"kind": "draw", "expect_hand": hand, "key": f"draw-{hand}"}
            response = client.post(
                f"/api/tables/{table_id}/hands", json=body, headers=bearer(token)
            )
            answers.append(response.status_code)
            if response.status_code != 201:
                break
        assert response.status_code == 503, answers
        assert response.headers["retry-after"] == "5"
        assert response.json()["error"].endswith(": database or disk is full"), response.text
        form = {
            "csrf_token": csrf,
            "profile": "sg",
            **{f"player{i}": n for i, n in enumerate(PLAYERS)},
        }
        for _ in range(100):  # a table's row may still fit in the last page's free space
            page = client.post("/tables", data=form, follow_redirects=False)
            if page.status_code != 303:
                break
        assert page.status_code == 503, page.text[:300]
        assert page.headers["retry-after"] == "5"
        assert "database or disk is full" in page.text
    close_ledgers(app)


# ---------------------------------------------------------------------------------------------
# Results within 2^53, as requests are


MAX = 2**53
TW_HAND = {"profile": "tw", "hand": "123m456m789m123p456p11s", "win_tile": "1s", "win": "self_draw"}


def test_tw_refuses_tai_and_stakes_that_would_pay_beyond_2_53(client: TestClient) -> None:
    created = client.post("/api/tables", json={"profile": "tw", "players": PLAYERS}).json()
    url, auth = f"/api/tables/{created['id']}/hands", bearer(created["token"])
    win = {"kind": "win", "winner": "Ann", "self_draw": True}
    refused = client.post(url, json={**win, "tai": MAX}, headers=auth)
    assert (refused.status_code, refused.json()["error"]) == (
        422,
        f"tai can be at most 1,000 for a tw hand, not {MAX}",
    )
    assert client.post(url, json={**win, "tai": 1000}, headers=auth).status_code == 201
    for name in ("base", "per_tai"):
        options = {name: 10**12}
        body = {"profile": "tw", "players": PLAYERS, "options": options}
        answer = client.post("/api/tables", json=body)
        assert (answer.status_code, answer.json()["error"]) == (
            422,
            f"option {name} can be at most 1,000,000",
        )
    cases = {
        "dealer_streak can be at most 100,000": {"dealer_streak": 2**52},
        "option tai_overrides: self_draw can be at most 1,000": {
            "options": {"tai_overrides": {"self_draw": MAX}}
        },
        "option per_tai can be at most 1,000,000": {"options": {"per_tai": 10**7}},
    }
    for message, extra in cases.items():
        response = client.post("/api/score", json={**TW_HAND, **extra})
        assert (response.status_code, response.json()["error"]) == (422, message)
    # Everything at its limit at once pays far within 2^53.
    overrides = dict.fromkeys(("self_draw", "fully_concealed_self_draw"), 1000)
    options = {"per_tai": 10**6, "base": 10**6, "tai_overrides": overrides}
    most = client.post("/api/score", json={**TW_HAND, "dealer_streak": 100_000, "options": options})
    assert most.status_code == 200, most.text
    assert max(abs(amount) for amount in most.json()["payments"].values()) < MAX // 1000


def test_the_create_form_names_a_tw_stake_beyond_its_limit(client: TestClient) -> None:
    client.get("/tables")
    form = {
        "csrf_token": client.cookies["companion_csrf"],
        "profile": "tw",
        "option:tw:per_tai": "10000000",
        **{f"player{seat}": name for seat, name in enumerate(PLAYERS)},
    }
    page = client.post("/tables?lang=en", data=form, follow_redirects=False)
    assert page.status_code == 422
    assert "<p>option per_tai can be at most 1,000,000</p>" in page.text


def test_a_table_total_never_passes_2_53(client: TestClient) -> None:
    options = {"share": 10**12, "cap": 10}
    body = {"profile": "sg-table", "players": PLAYERS, "options": options}
    created = client.post("/api/tables", json=body).json()
    base, auth = f"/api/tables/{created['id']}", bearer(created["token"])
    win = {"kind": "win", "winner": "Ann", "self_draw": True, "tai": 10}
    for total in (3_072_000_000_000_000, 6_144_000_000_000_000):
        answer = client.post(f"{base}/hands", json=win, headers=auth)
        assert answer.json()["event"]["totals"]["Ann"] == total
    message = (
        "this entry would take Ann's total beyond 2^53 (9,007,199,254,740,992), the most a "
        "table's amounts may reach: nothing recorded"
    )
    refused = client.post(f"{base}/hands", json=win, headers=auth)
    assert (refused.status_code, refused.json()["error"]) == (422, message)
    preview = client.post(f"{base}/preview", json=win, headers=auth).json()
    assert preview == {"recordable": False, "error": message, "status": 422}
    assert client.get(base).json()["hands"] == 2


def test_a_plan_beyond_what_a_table_holds_is_refused_at_every_door(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The JSON API took `hands` up to 2^53, `companion table new --hands 2^63` was a traceback
    (`OverflowError` on SQLite)."""
    for field, most in (("hands", 20_000), ("rounds", 5_000)):
        body = {"profile": "sg", "players": PLAYERS, field: most + 1}
        refused = client.post("/api/tables", json=body)
        assert (refused.status_code, refused.json()["error"]) == (
            422,
            f"the planned number of {field} can be at most {most:,}",
        )
        assert client.post("/api/tables", json={**body, field: most}).status_code == 201
    database = str(tmp_path / "cli.sqlite3")
    players = ",".join(PLAYERS)
    status = cli_main(["table", "new", "--db", database, "--players", players, "--hands", "20001"])
    assert status == 2
    assert (
        capsys.readouterr()
        .err.strip()
        .endswith("the planned number of hands can be at most 20,000")
    )
    # 2^63 is refused before the ledger, as the server's form reads it.
    with pytest.raises(SystemExit) as leave:
        cli_main(["table", "new", "--db", database, "--players", players, "--hands", str(2**63)])
    assert leave.value.code == 2
    assert (
        "argument --hands: '9223372036854775808' is not a whole number in digits 0-9 up to "
        "9,007,199,254,740,992"
    ) in capsys.readouterr().err

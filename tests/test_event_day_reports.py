"""The event's reports (issue 39): each entrant's EMA number and country, the results in the
EMA's columns as CSV, the printable results (A4, no script) and round sheet (each table, its
seats, its QR code), and the chombos recorded. Through the service, the API, the pages and the
command line; bad input refused in the reader's language, nothing written."""

from __future__ import annotations

# ruff: noqa: RUF001  (the Chinese messages are written with full-width punctuation, on purpose)
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from companion.api import create_app
from companion.ledger.event_book.service import EventBook
from companion.ledger.records import ChomboRecord, WinnerRecord, WinRecord
from companion.ledger.repository import Ledger
from event_day_helpers import http_event, refused
from test_ledger_cli import ok, run

FOUR = ["Ann Lee", "Ben van Dijk", "Cat", "Dan"]


@pytest.fixture
def book(tmp_path: Path) -> Iterator[EventBook]:
    with Ledger.open(f"sqlite:///{tmp_path / 'ledger.sqlite3'}") as ledger:
        yield EventBook(ledger)


def riichi_night(book: EventBook) -> tuple[str, str]:
    """A riichi event of four over one round: Ann Lee wins 3 han 30 fu off Ben, Cat's chombo."""
    created = book.create_event("Riichi", "riichi", None, FOUR, 1, seed=1, first_round="listed")
    table = book.seat_round(created.id, 1).tables[0].table
    book.ledger.record(table, WinRecord((WinnerRecord("Ann Lee", han=3, fu=30),), "Ben van Dijk"))
    book.ledger.record(table, ChomboRecord("Cat"))
    return created.id, table


def test_the_ema_results_file(book: EventBook) -> None:
    event_id, table = riichi_night(book)
    entry = book.set_entrant(event_id, "ann lee", ema_id=" 04010123 ", country="fra", by="Mia")
    assert (entry.kind, entry.player, entry.details) == (
        "entrant",
        "Ann Lee",
        {"ema_id": "04010123", "country": "FRA"},
    )
    book.set_entrant(event_id, "Ben van Dijk", country="NLD")
    # Rank points are the standings' total, the score its second key (the points); a number or
    # country not known is left empty.
    assert book.ema_csv(event_id) == (
        "Place,EMA number,Last name,First name,Country,Rank points,Score\n"
        "1,04010123,Lee,Ann,FRA,9.8,34800\n"
        "2,,Dan,,,2,27000\n"
        "3,,Dijk,Ben van,NLD,-3.8,21200\n"
        "4,,Cat,,,-8,17000\n"
    )
    book.set_entrant(event_id, "Ann Lee", ema_id="")  # cleared
    assert book.results(event_id)[0].to_json() == {
        "place": 1,
        "tied": False,
        "name": "Ann Lee",
        "ema_id": None,
        "last_name": "Lee",
        "first_name": "Ann",
        "country": "FRA",
        "rank_points": "9.8",
        "score": "34800",
        "withdrawn": False,
    }
    assert [chombo.to_json() | {"at": None} for chombo in book.chombos(event_id)] == [
        {"round": 1, "table": 1, "table_id": table, "seq": 2, "player": "Cat", "at": None}
    ]


def test_bad_entrant_details_are_refused_and_nothing_is_written(book: EventBook) -> None:
    event_id, _ = riichi_night(book)
    audit = book.audit(event_id)
    wrong = refused(lambda: book.set_entrant(event_id, "Cat", ema_id="4010123", country="FRA"))
    assert (wrong.key, str(wrong)) == (
        "refusal.day_ema_id",
        "an EMA number is eight digits (such as 04010123); got '4010123'",
    )
    assert refused(lambda: book.set_entrant(event_id, "Cat", country="France")).key == (
        "refusal.day_country"
    )
    assert refused(lambda: book.set_entrant(event_id, "Zed", ema_id="04010123")).key == (
        "refusal.event_unknown_player"
    )
    assert book.audit(event_id) == audit
    assert book.results(event_id)[3].to_json()["country"] is None


def test_the_reports_over_http_and_the_printed_pages(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    with Ledger.open(url) as ledger:
        book = EventBook(ledger)
        event_id, table = riichi_night(book)
        token = book.create_event("Other", "sg", None, FOUR, 1).token  # not this event's
    with TestClient(create_app(url), raise_server_exceptions=False) as client:
        entrants = f"/api/events/{event_id}/entrants"
        body = {"player": "Cat", "ema_id": "12", "country": "GBR"}
        assert client.post(entrants, json=body).status_code == 401
        assert (
            client.post(entrants, json=body, headers={"authorization": f"Bearer {token}"})
        ).status_code == 403
        csv = client.get(f"/api/events/{event_id}/results?format=ema")
        assert csv.status_code == 200
        assert csv.headers["content-type"] == "text/csv; charset=utf-8"
        assert csv.text.splitlines()[0] == (
            "Place,EMA number,Last name,First name,Country,Rank points,Score"
        )
        results = client.get(f"/api/events/{event_id}/results").json()["results"]
        assert [line["name"] for line in results] == ["Ann Lee", "Dan", "Ben van Dijk", "Cat"]
        chombos = client.get(f"/api/events/{event_id}/chombos").json()["chombos"]
        assert [(chombo["player"], chombo["table_id"]) for chombo in chombos] == [("Cat", table)]
        page = client.get(f"/e/{event_id}/results?lang=en")
        assert page.status_code == 200
        assert "<script" not in page.text and "print.css" in page.text
        assert "<td>Ann Lee</td>" in page.text and "Chombos" in page.text
        assert "<td>1</td><td>1</td><td>Cat</td>" in page.text
        sheet = client.get(f"/e/{event_id}/rounds/1/sheet?lang=zh-Hant")
        assert sheet.status_code == 200 and "<script" not in sheet.text
        assert f'<img src="/t/{table}/qr.svg" alt="第 1 桌頁面的 QR 碼"' in sheet.text
        assert "<strong>Ann Lee</strong>" in sheet.text
        unseated = client.get(f"/e/{event_id}/rounds/2/sheet?lang=zh-Hans")
        assert unseated.status_code == 422
        assert "第 2 轮尚未排座：没有座位表可打印" in unseated.text
        paths = client.get("/openapi.json").json()["paths"]
        for path in ("entrants", "results", "chombos"):
            assert f"/api/events/{{event_id}}/{path}" in paths


def test_the_reports_from_the_command_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'cli.sqlite3'}"
    with Ledger.open(url) as ledger:
        event_id, _ = riichi_night(EventBook(ledger))
    entrant = ("event", "entrant", event_id, "--player", "Ann Lee", "--db", url)
    assert ok(capsys, *entrant, "--ema-id", "04010123", "--country", "FRA") == (
        "Ann Lee: EMA number 04010123, country FRA.\n"
    )
    code, _, err = run(capsys, *entrant, "--ema-id", "x")
    assert (code, err) == (
        2,
        "companion: an EMA number is eight digits (such as 04010123); got 'x'\n",
    )
    ema = ok(capsys, "event", "results", event_id, "--ema", "--db", url)
    assert ema.splitlines()[1] == "1,04010123,Lee,Ann,FRA,9.8,34800"
    assert ok(capsys, "event", "results", event_id, "--db", url).splitlines()[0] == (
        "1. Ann Lee (04010123): 9.8 / 34800"
    )
    chombos = ok(capsys, "event", "chombos", event_id, "--db", url)
    assert chombos.startswith("Round 1, table 1: Cat (entry 2, ")


def test_the_day_s_public_reads_count_against_the_read_limit(tmp_path: Path) -> None:
    from companion.api.limits import Rate, RateLimiter, RateLimits

    url = f"sqlite:///{tmp_path / 'limited.sqlite3'}"
    limits = RateLimits(create=None, read=Rate(3, 60))
    app = create_app(url, rate_limits=limits)
    app.state.rate_limiter = RateLimiter(limits, clock=lambda: 0.0)  # nothing refills
    with TestClient(app) as client:
        event_id, _, _ = http_event(client)
        # The chombos and the printable results read every table's record: an export's cost.
        assert client.get(f"/api/events/{event_id}/chombos").status_code == 429
        assert client.get(f"/e/{event_id}/results").status_code == 429
        for path in (
            f"/api/events/{event_id}/results",
            f"/e/{event_id}/rounds/1/sheet",
            f"/api/events/{event_id}/results?format=ema",
        ):
            assert client.get(path).status_code == 200
        over = client.get(f"/e/{event_id}/rounds/1/sheet")  # the fourth read of three
        assert (over.status_code, over.headers["retry-after"]) == (429, "20")

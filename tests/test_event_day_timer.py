"""A round's timer on the day (issue 39): extended, paused and resumed through the service, the
API and the command line; the event's rule for time-up; what a table page says once the time is
up ("last hand", "1 more hand"), and the tables running late on the organiser's page."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from companion.api import create_app
from companion.events.day import TimeUp, time_up
from companion.ledger.event_book.service import EventBook
from companion.ledger.repository import Ledger
from event_day_helpers import EIGHT, age_entries, age_timers, http_event, refused, seated_event, win
from test_ledger_cli import ok, run


@pytest.fixture
def book(tmp_path: Path) -> Iterator[EventBook]:
    with Ledger.open(f"sqlite:///{tmp_path / 'ledger.sqlite3'}") as ledger:
        yield EventBook(ledger)


def test_time_up_counts_the_hand_in_play_and_the_rule() -> None:
    assert time_up(0, 0) == TimeUp(0, 1)
    assert (time_up(0, 0).state, time_up(0, 1).state) == ("last_hand", "stop")
    plus_one = [time_up(1, hands) for hands in range(4)]
    assert [state.state for state in plus_one] == ["more_hands", "last_hand", "stop", "stop"]
    assert [state.more for state in plus_one] == [1, 0, 0, 0]


def test_extend_pause_and_resume_move_the_end(book: EventBook) -> None:
    event_id = seated_event(book)
    started = book.start_timer(event_id, 1, 30)
    extended = book.extend_timer(event_id, 1, 5)
    assert (extended.started_at, extended.minutes) == (started.started_at, 35)
    assert extended.ends_at == started.ends_at + timedelta(minutes=5)
    paused = book.pause_timer(event_id, 1)
    assert paused.paused_at is not None
    left = paused.left_at(paused.paused_at)
    # Paused, the time left stands still whatever the clock says.
    assert paused.left_at(paused.paused_at + timedelta(hours=1)) == left
    assert book.event(event_id).seated[0].timer == paused
    resumed = book.resume_timer(event_id, 1)
    assert resumed.paused_at is None
    assert resumed.started_at >= started.started_at
    assert resumed.ends_at - resumed.started_at == timedelta(minutes=35)
    kinds = [(entry.kind, (entry.details or {}).get("change")) for entry in book.audit(event_id)]
    assert kinds[-4:] == [
        ("timer", None),
        ("timer", "extend"),
        ("timer", "pause"),
        ("timer", "resume"),
    ]


def test_a_timer_that_does_not_run_is_refused_and_nothing_is_written(book: EventBook) -> None:
    event_id = seated_event(book)
    before = len(book.audit(event_id))
    no_timer = refused(lambda: book.extend_timer(event_id, 1, 5))
    assert (no_timer.key, str(no_timer)) == (
        "refusal.day_no_timer",
        "round 1 has no timer: start one first",
    )
    assert no_timer.http_status == 409
    assert refused(lambda: book.resume_timer(event_id, 1)).key == "refusal.day_no_timer"
    book.start_timer(event_id, 1, 30)
    assert refused(lambda: book.resume_timer(event_id, 1)).key == "refusal.day_timer_not_paused"
    book.pause_timer(event_id, 1)
    assert refused(lambda: book.pause_timer(event_id, 1)).key == "refusal.day_timer_paused"
    book.resume_timer(event_id, 1)
    assert refused(lambda: book.extend_timer(event_id, 1, 0)).key == "refusal.day_extend_minutes"
    assert refused(lambda: book.extend_timer(event_id, 1, 600 * 2)).key in (
        "refusal.day_extend_minutes",
        "refusal.day_timer_total",
    )
    age_timers(book.ledger, 31)
    up = refused(lambda: book.extend_timer(event_id, 1, 5))
    assert str(up) == "round 1's time is up: its timer does not run; start a new one"
    assert len(book.audit(event_id)) == before + 3  # the start, the pause, the resume


def test_the_day_rules_are_event_data(book: EventBook) -> None:
    event_id = seated_event(book)
    assert book.day_rules(event_id).to_json() == {"time_up_hands": 0, "void_score": "0"}
    assert book.set_day_rules(event_id, time_up_hands=1).to_json() == {
        "time_up_hands": 1,
        "void_score": "0",
    }
    assert book.set_day_rules(event_id, void_score=" Average ").void_score == "average"
    assert book.set_day_rules(event_id, void_score="-2.5").void_score == "-5/2"
    assert book.event(event_id).to_json()["time_up_hands"] == 1
    bad = refused(lambda: book.set_day_rules(event_id, void_score="lots"))
    assert (bad.key, str(bad)) == (
        "refusal.day_void_score",
        "a void score is a number (0, -5, 2.5) or \"average\"; got 'lots'",
    )
    assert refused(lambda: book.set_day_rules(event_id, time_up_hands=5)).key == (
        "refusal.day_time_up_hands"
    )
    assert book.day_rules(event_id).void_score == "-5/2"


def test_late_tables_follow_the_hands_since_time_ran_out(book: EventBook) -> None:
    event_id = seated_event(book)
    book.set_day_rules(event_id, time_up_hands=1)
    book.start_timer(event_id, 1, 30)
    one, two = book.event(event_id).seated[0].tables
    win(book.ledger, one.table, "Ann", "Ben")
    assert book.late_tables(event_id) == ()
    age_timers(book.ledger, 31)
    age_entries(book.ledger, 40)  # the hand was played before the time ran out: not counted
    late = book.late_tables(event_id)
    assert [(table.number, table.time_up.state) for table in late] == [
        (1, "more_hands"),
        (2, "more_hands"),
    ]
    win(book.ledger, one.table, "Cat", "Dan")
    win(book.ledger, two.table, "Eve", "Fay")
    win(book.ledger, two.table, "Gus", "Hal")
    assert [table.to_json() for table in book.late_tables(event_id)] == [
        {
            "round": 1,
            "number": 1,
            "table": one.table,
            "players": EIGHT[:4],
            "hands_since": 1,
            "left": 1,
            "state": "last_hand",
        },
        {
            "round": 1,
            "number": 2,
            "table": two.table,
            "players": EIGHT[4:],
            "hands_since": 2,
            "left": 0,
            "state": "stop",
        },
    ]


# --- HTTP -------------------------------------------------------------------------------------


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[TestClient, Ledger]]:
    url = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    app = create_app(url)
    with TestClient(app, raise_server_exceptions=False) as client, Ledger.open(url) as ledger:
        yield client, ledger


def test_the_timer_over_http(served: tuple[TestClient, Ledger]) -> None:
    client, _ = served
    event_id, auth, _ = http_event(client)
    api = f"/api/events/{event_id}"
    extend = {"round": 1, "minutes": 5}
    assert client.post(f"{api}/timers/extend", json=extend).status_code == 401
    assert (
        client.post(
            f"{api}/timers/extend", json=extend, headers={"authorization": "Bearer x"}
        ).status_code
        == 403
    )
    assert client.post("/api/events/nope/timers/extend", json=extend).status_code == 404
    refused = client.post(f"{api}/timers/extend", json=extend, headers=auth)
    assert refused.status_code == 409
    assert refused.json()["error_key"] == "refusal.day_no_timer"
    assert refused.json()["error_params"] == {"round": 1}
    started = client.post(f"{api}/timers", json={"round": 1, "minutes": 30}, headers=auth)
    assert started.status_code == 201
    done = client.post(f"{api}/timers/extend", json=extend, headers=auth)
    assert (done.status_code, done.json()["minutes"]) == (201, 35)
    paused = client.post(f"{api}/timers/pause", json={"round": 1}, headers=auth)
    assert paused.status_code == 201 and paused.json()["paused_at"]
    again = client.post(f"{api}/timers/pause", json={"round": 1}, headers=auth)
    assert (again.status_code, again.json()["error_key"]) == (409, "refusal.day_timer_paused")
    resumed = client.post(f"{api}/timers/resume", json={"round": 1}, headers=auth)
    assert resumed.status_code == 201 and resumed.json()["paused_at"] is None
    rules = client.post(f"{api}/rules", json={"time_up_hands": 1}, headers=auth)
    assert (rules.status_code, rules.json()) == (201, {"time_up_hands": 1, "void_score": "0"})
    bad = client.post(f"{api}/rules", json={"void_score": "x"}, headers=auth)
    assert (bad.status_code, bad.json()["error_key"]) == (422, "refusal.day_void_score")
    assert client.get(f"{api}/late").json() == {"tables": []}
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("timers/extend", "timers/pause", "timers/resume", "rules", "late"):
        assert f"/api/events/{{event_id}}/{path}" in paths


def test_the_pages_say_what_a_table_still_plays(served: tuple[TestClient, Ledger]) -> None:
    client, ledger = served
    event_id, auth, (one, two) = http_event(client)
    api = f"/api/events/{event_id}"
    client.post(f"{api}/rules", json={"time_up_hands": 1}, headers=auth)
    client.post(f"{api}/timers", json={"round": 1, "minutes": 30}, headers=auth)
    page = client.get(f"/t/{one}").text
    # Before time is up the line counts down; what it will say at zero is in the page.
    assert f'data-timer-url="/e/{event_id}/tables/{one}/timer"' in page
    assert 'data-up-text="Time&#39;s up · 1 more hand(s) after this one"' in page
    client.post(f"{api}/timers/pause", json={"round": 1}, headers=auth)
    line = client.get(f"/e/{event_id}/tables/{one}/timer").text
    assert "data-paused" in line
    assert re.search(r"Paused · (30:00|29:\d\d) left</strong>", line)
    client.post(f"{api}/timers/resume", json={"round": 1}, headers=auth)
    age_timers(ledger, 31)
    line = client.get(f"/e/{event_id}/tables/{one}/timer").text
    assert "Time&#39;s up · 1 more hand(s) after this one</strong>" in line
    win(ledger, one, "Ann", "Ben")
    line = client.get(f"/e/{event_id}/tables/{one}/timer").text
    assert "Time&#39;s up · last hand</strong>" in line
    zh = client.get(f"/e/{event_id}/tables/{one}/timer", headers={"accept-language": "zh-Hant"})
    assert "時間到 · 最後一局" in zh.text
    assert client.get(f"/e/{event_id}/tables/nope/timer").status_code == 404
    panel = client.get(f"/e/{event_id}/organiser/panel", headers=auth).text
    assert f'<li class="late-table is-last_hand" data-table="{one}">' in panel
    assert f'<li class="late-table is-more_hands" data-table="{two}">' in panel
    assert "Round 1 timer paused" in panel and "Round 1 timer resumed" in panel


def test_the_timer_from_the_command_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'cli.sqlite3'}"
    with Ledger.open(url) as ledger:
        event_id = seated_event(EventBook(ledger))
    base = ("event", "timer", event_id, "--round", "1", "--db", url)
    code, _, err = run(capsys, *base, "--extend", "5")
    assert (code, err) == (2, "companion: round 1 has no timer: start one first\n")
    assert ok(capsys, *base, "--minutes", "30").startswith("Round 1: 30 minutes, ends at ")
    assert ok(capsys, *base, "--extend", "5").startswith("Round 1: 35 minutes, ends at ")
    assert ok(capsys, *base, "--pause") == "Round 1: paused with 34 minutes left.\n"
    assert ok(capsys, *base, "--resume", "--json").startswith('{"round": 1, "started_at": ')
    code, _, err = run(capsys, *base, "--pause", "--resume")
    assert code == 2 and "not allowed with argument" in err
    rules = ok(capsys, "event", "rules", event_id, "--time-up-hands", "1", "--db", url)
    assert rules == "When time is up: the hand in play and 1 more hand. A voided table scores 0.\n"

# ruff: noqa: RUF001  (the Chinese messages are written with full-width punctuation, on purpose)
"""An event's pages: the leaderboard (`/e/{id}`, its board fragment, the projector view), the
organiser's page and its token-only panel, the round timer (its own line, and on the event's
table pages); and the words they are built from (`event_views`), on hand-made JSON."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from typing import Any

import pytest
from fastapi.testclient import TestClient

from companion.api import create_app
from companion.ledger.event_book import store
from companion.ledger.event_book.service import EventBook
from companion.ledger.repository import Ledger
from companion.web import event_views, i18n

EIGHT = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
NOW = datetime(2026, 12, 2, 19, 0, tzinfo=UTC)
EN = i18n.Translator("en")


# ---------------------------------------------------------------------------------------------
# The words, from hand-made JSON


def row(name: str, rank: int, total: str, **extra: Any) -> dict[str, Any]:
    return {
        "name": name,
        "rank": rank,
        "tied": False,
        "total": float(Fraction(total)),
        "total_exact": total,
        "secondary": None,
        "secondary_exact": None,
        "tables": 1,
        "penalties": [],
        "withdrawn": False,
        "provisional": False,
        **extra,
    }


def test_shared_ranks_read_as_ties_and_money_is_signed() -> None:
    standings = {
        "rule": "money",
        "rows": [
            row("Ann", 1, "14"),
            row("Ben", 2, "3", tied=True),
            row("Cat", 2, "3", tied=True),
            row("Dan", 4, "-20", provisional=True, withdrawn=True),
        ],
        "unfinished": [],
    }
    rows = event_views.row_views(EN, standings)
    assert [(r.rank, r.name, r.total, r.sign) for r in rows] == [
        ("1", "Ann", "+14", "plus"),
        ("=2", "Ben", "+3", "plus"),
        ("=2", "Cat", "+3", "plus"),
        ("4", "Dan", "-20", "minus"),
    ]
    assert (rows[3].provisional, rows[3].withdrawn, rows[0].provisional) == (True, True, False)


def test_a_penalty_is_worded_with_its_reason_and_who_decided() -> None:
    penalty = {"player": "Ann", "amount": -10, "amount_exact": "-10", "reason": "late", "by": "Mia"}
    standings = {"rule": "money", "rows": [row("Ann", 1, "4", penalties=[penalty])]}
    [ann] = event_views.row_views(EN, standings)
    assert ann.penalties == ("-10: late (Mia)",)
    zh = event_views.row_views(i18n.Translator("zh-Hant"), standings)[0]
    assert zh.penalties == ("-10：late（Mia）",)


def test_riichi_finals_have_one_decimal_and_points_as_the_second_key() -> None:
    standings = {
        "rule": "finals",
        "rows": [
            row("Ann", 1, "463/10", secondary=61300, secondary_exact="61300"),
            row("Ben", 2, "0", secondary=30000, secondary_exact="30000"),
            row("Cat", 3, "-123/10", secondary=17700, secondary_exact="17700"),
        ],
    }
    rows = event_views.row_views(EN, standings)
    assert [(r.total, r.secondary) for r in rows] == [
        ("+46.3", "61,300"),
        ("0.0", "30,000"),
        ("-12.3", "17,700"),
    ]


def test_mcr_table_points_keep_shared_places_exact_and_scores_signed() -> None:
    standings = {
        "rule": "table-points",
        "rows": [
            row("Ann", 1, "7", secondary=52, secondary_exact="52"),
            row("Ben", 2, "3/2", secondary=-8, secondary_exact="-8"),
        ],
    }
    rows = event_views.row_views(EN, standings)
    assert [(r.total, r.secondary, r.sign) for r in rows] == [("7", "+52", ""), ("1.5", "-8", "")]


def test_the_timer_counts_down_and_then_says_times_up() -> None:
    ends = NOW + timedelta(minutes=41, seconds=12)
    timer = {"started_at": "", "minutes": 60, "ends_at": ends.isoformat()}
    view = event_views.timer_view(EN, 2, timer, NOW)
    assert view is not None
    assert (view.text, view.left_ms, view.done) == ("41:12 left", 2_472_000, False)
    # A part of a second left still reads as a second: the countdown shows 0:00 only at the end.
    almost = event_views.timer_view(EN, 2, timer, ends - timedelta(milliseconds=300))
    assert almost is not None and almost.text == "0:01 left"
    over = event_views.timer_view(EN, 2, timer, ends + timedelta(seconds=5))
    assert over is not None and (over.text, over.left_ms, over.done) == ("Time's up", 0, True)
    assert event_views.timer_view(EN, 2, None, NOW) is None
    assert event_views.clock_text(3900) == "1:05:00"
    zh = event_views.timer_view(i18n.Translator("zh-Hans"), 2, timer, NOW)
    assert zh is not None and zh.text == "剩余 41:12"


def test_the_rounds_progress_and_seating_in_seat_order() -> None:
    event = {
        "id": "abcd2345",
        "name": "Club night",
        "profile": "sg",
        "rounds": 3,
        "current_round": 2,
        "progress": {"round": 2, "finished": 1, "tables": 2},
        "seated": [
            {
                "round": 2,
                "tables": [
                    {
                        "number": 1,
                        "table": "t1",
                        "players": EIGHT[:4],
                        "finished": True,
                        "hands": 8,
                    },
                    {
                        "number": 2,
                        "table": "t2",
                        "players": EIGHT[4:],
                        "finished": False,
                        "hands": 3,
                    },
                ],
                "byes": ["Kim"],
                "repeats": 1,
                "seat_repeats": 0,
                "timer": None,
            }
        ],
    }
    context = event_views.event_context(EN, event, {"rule": "money", "rows": []}, NOW)
    assert (context["round_text"], context["progress_text"]) == (
        "Round 2 of 3",
        "1 of 2 tables finished",
    )
    this_round = context["this_round"]
    assert [seat.seat + ":" + seat.name for seat in this_round.tables[1].seats] == [
        "E:Eve",
        "S:Fay",
        "W:Gus",
        "N:Hal",
    ]
    assert [table.status for table in this_round.tables] == [
        "finished · hands: 8",
        "playing · hands: 3",
    ]
    assert this_round.byes == "Sitting out: Kim"
    assert (context["next_round"], context["all_rounds_seated"]) == (3, False)
    before = event_views.event_context(
        i18n.Translator("zh-Hant"), {**event, "current_round": None, "seated": []}, {}, NOW
    )
    assert (before["round_text"], before["progress_text"]) == ("尚未排座（共 3 輪）", "")


def test_the_organisers_record_reads_newest_first_with_exact_amounts() -> None:
    audit = [
        {"seq": 1, "kind": "create", "at": "2026-12-02T18:00:00+00:00", "by": "", "details": {}},
        {"seq": 2, "kind": "seat", "at": "2026-12-02T18:01:00+00:00", "by": "Mia", "round": 1},
        {
            "seq": 3,
            "kind": "timer",
            "at": "2026-12-02T18:02:00+00:00",
            "by": "Mia",
            "round": 1,
            "details": {"minutes": 45},
        },
        {
            "seq": 4,
            "kind": "adjust",
            "at": "2026-12-02T18:30:00+00:00",
            "by": "Mia",
            "player": "Cat",
            "amount": -2.5,
            "amount_exact": "-5/2",
            "reason": "late",
        },
        {
            "seq": 5,
            "kind": "withdraw",
            "at": "2026-12-02T19:00:00+00:00",
            "by": "",
            "player": "Dan",
            "round": 2,
        },
    ]
    lines = event_views.audit_lines(EN, audit)
    assert [(line["seq"], line["text"], line["by"]) for line in lines] == [
        ("5", "Dan withdraws after round 2", ""),
        ("4", "Cat -2.5: late", "Mia"),
        ("3", "Round 1 timer started: 45 minutes", "Mia"),
        ("2", "Round 1 seated", "Mia"),
        ("1", "Event created", ""),
    ]
    zh = event_views.audit_lines(i18n.Translator("zh-Hans"), audit)
    assert zh[2]["text"] == "第 1 轮开始计时：45 分钟"


# ---------------------------------------------------------------------------------------------
# The pages, on a real ledger


@dataclass
class Night:
    client: TestClient
    ledger: Ledger
    event: str
    token: str
    tables: list[str]

    @property
    def book(self) -> EventBook:
        return EventBook(self.ledger)

    def record(self, table: str, winner: str, discarder: str, tai: int) -> None:
        token = self.book.write_tokens(self.event, self.token)[table]
        response = self.client.post(
            f"/api/tables/{table}/hands",
            json={"kind": "win", "winner": winner, "from": discarder, "tai": tai},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert response.status_code == 201, response.text


@pytest.fixture
def night(tmp_path: Any) -> Iterator[Night]:
    """Club night: 8 players listed, 3 rounds, round 1 seated (Ann Ben Cat Dan at table 1)."""
    url = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    with Ledger.open(url) as ledger, TestClient(create_app(url)) as client:
        book = EventBook(ledger)
        created = book.create_event(
            "Club night", "sg", {"min_tai": 1}, EIGHT, 3, seed=7, first_round="listed", hands=4
        )
        seated = book.seat_round(created.id, 1, by="Mia")
        yield Night(client, ledger, created.id, created.token, [t.table for t in seated.tables])


def cells(html: str, name: str) -> list[str]:
    """Each standings row's `data-<name>` cell text, in order."""
    return [text.strip() for text in re.findall(rf"data-{name}>([^<]*)<", html)]


def test_the_leaderboard_shows_totals_ties_and_this_rounds_tables(night: Night) -> None:
    night.record(night.tables[0], "Ann", "Ben", 2)
    night.record(night.tables[1], "Eve", "Fay", 2)
    night.book.adjust(night.event, "Cat", -1, "late for round 1", by="Mia")
    page = night.client.get(f"/e/{night.event}?lang=en")
    assert page.status_code == 200
    html = page.text
    assert "<title>Club night · Companion</title>" in html
    assert "Round 1 of 3" in html and "0 of 2 tables finished" in html
    assert cells(html, "name") == ["Ann", "Eve", "Dan", "Gus", "Hal", "Cat", "Ben", "Fay"]
    assert cells(html, "rank") == ["=1", "=1", "=3", "=3", "=3", "6", "=7", "=7"]
    assert cells(html, "total") == ["+8", "+8", "-2", "-2", "-2", "-3", "-4", "-4"]
    assert "-1: late for round 1 (Mia)" in html
    assert html.count("data-provisional ") == 8
    for table in night.tables:
        assert f'href="/t/{table}"' in html
    assert "no timer yet" in html
    # Nothing secret: no write token, no organiser's part.
    for token in [night.token, *night.book.write_tokens(night.event, night.token).values()]:
        assert token not in html
    assert 'id="organiser-body"' not in html
    assert 'class="event-page"' in html

    projector = night.client.get(f"/e/{night.event}?view=projector&lang=en").text
    assert 'class="event-page projector"' in projector
    assert f'href="/e/{night.event}">Normal view</a>' in projector


def test_the_board_fragment_carries_the_regions_and_the_events_version(night: Night) -> None:
    night.record(night.tables[0], "Ann", "Ben", 2)
    board = night.client.get(f"/e/{night.event}/board?lang=en")
    assert board.status_code == 200
    assert board.headers["cache-control"] == "no-store"
    regions = re.findall(r'<section class="card [^"]*" id="([\w-]+)" data-region', board.text)
    assert regions == ["event-status", "standings", "round-tables"]
    # The organiser's 2 actions (create, seat round 1) and table 1's one hand.
    assert '<script type="application/json" id="event-state">{"version": 3}</script>' in board.text


def test_the_leaderboard_in_chinese(night: Night) -> None:
    night.record(night.tables[0], "Ann", "Ben", 2)
    html = night.client.get(f"/e/{night.event}?lang=zh-Hans").text
    assert "第 1 轮（共 3 轮）" in html and "2 桌中 0 桌已完成" in html
    assert ">排行榜</h2>" in html and ">总分</th>" in html


def test_an_unknown_event_is_a_404_page(night: Night) -> None:
    for path in (
        "/e/nosuchev",
        "/e/nosuchev/board",
        "/e/nosuchev/organiser",
        "/e/nosuchev/organiser/panel",
        "/e/nosuchev/timer/1",
    ):
        response = night.client.get(path)
        assert response.status_code == 404, path
        assert "text/html" in response.headers["content-type"]


def test_the_organiser_page_holds_no_secret_and_its_panel_needs_the_token(night: Night) -> None:
    page = night.client.get(f"/e/{night.event}/organiser?lang=en")
    assert page.status_code == 200
    assert "This page needs the organiser&#39;s link." in page.text
    assert 'id="organiser-body"' not in page.text
    write_tokens = night.book.write_tokens(night.event, night.token)
    for token in [night.token, *write_tokens.values()]:
        assert token not in page.text

    panel_url = f"/e/{night.event}/organiser/panel?lang=en"
    missing = night.client.get(panel_url)
    assert (missing.status_code, missing.headers["www-authenticate"]) == (401, "Bearer")
    wrong = night.client.get(panel_url, headers={"Authorization": "Bearer not-the-token"})
    assert wrong.status_code == 403
    panel = night.client.get(panel_url, headers={"Authorization": f"Bearer {night.token}"})
    assert panel.status_code == 200
    assert panel.headers["cache-control"] == "private, no-store"  # never kept (sw.js)
    html = panel.text
    for table, token in write_tokens.items():
        assert f'data-write-link="http://testserver/t/{table}#token={token}"' in html
    assert ">Seat round 2</button>" in html
    assert "Round 1 timer (minutes)" in html
    # Seat order: East, South, West, North.
    table_one = html[html.index(f'data-table="{night.tables[0]}"') :]
    assert re.findall(r'<span class="seat-name">(\w+)</span>', table_one)[:4] == EIGHT[:4]
    # The organiser's record, newest first.
    assert re.findall(r'class="audit-text">([^<]*)<', html) == ["Round 1 seated", "Event created"]
    assert "by Mia" in html


def test_the_timer_on_the_leaderboard_and_on_the_events_table_pages(night: Night) -> None:
    table_page = night.client.get(f"/t/{night.tables[0]}?lang=en").text
    assert '<div class="table-timer" id="table-timer"' in table_page
    assert 'Round 1</span> · <span class="timer-left">no timer yet</span>' in table_page
    assert "js/event-table.js" in table_page

    night.book.start_timer(night.event, 1, 45, by="Mia")
    for path in (f"/e/{night.event}?lang=en", f"/t/{night.tables[1]}?lang=en"):
        html = night.client.get(path).text
        found = re.search(r'data-left-ms="(\d+)"', html)
        assert found is not None and 44 * 60_000 < int(found.group(1)) <= 45 * 60_000, path
        assert re.search(r"Round 1</span> · <strong [^>]*>4[45]:\d\d left</strong>", html), path
    line = night.client.get(f"/e/{night.event}/timer/1?lang=zh-Hant")
    assert line.status_code == 200
    assert re.search(r"第 1 輪</span> · <strong [^>]*>剩餘 4[45]:\d\d</strong>", line.text)


def test_a_table_of_its_own_has_no_timer_line(night: Night) -> None:
    created = night.client.post("/api/tables", json={"players": ["Ann", "Ben", "Cat", "Dan"]})
    html = night.client.get(f"/t/{created.json()['id']}?lang=en").text
    assert "table-timer" not in html and "event-table.js" not in html


def test_the_board_is_worked_out_once_per_version(night: Night, monkeypatch: Any) -> None:
    """Every page following the event asks for its board on the same message: the standings
    are worked out once for each version of the event."""
    worked: list[str] = []
    original = store.standings_from

    def counted(snapshot: Any, tables: Any) -> Any:
        worked.append(snapshot.record.id)
        return original(snapshot, tables)

    monkeypatch.setattr(store, "standings_from", counted)
    for _ in range(3):
        assert night.client.get(f"/e/{night.event}/board").status_code == 200
    assert worked == [night.event]
    night.record(night.tables[0], "Ann", "Ben", 2)
    for _ in range(3):
        board = night.client.get(f"/e/{night.event}/board?lang=en").text
        assert cells(board, "total")[0] == "+8"
    assert worked == [night.event, night.event]


def test_the_organiser_is_told_the_repeats_the_field_cannot_avoid(night: Night) -> None:
    panel_url = f"/e/{night.event}/organiser/panel"
    bearer = {"Authorization": f"Bearer {night.token}"}
    english = night.client.get(f"{panel_url}?lang=en", headers=bearer).text
    # Eight players over three rounds: two tables a round, so each later round seats two of
    # every round-1 table together again (4 a round), and a player meets 9 others in 7.
    assert (
        "A repeat is two players meeting again at a table. With 8 players over 3 rounds, at "
        "least 8 repeats cannot be avoided, however the rounds are seated."
    ) in english
    assert "repeats 0 (0 so far, 0 of them unavoidable) · seat repeats 0" in english
    chinese = night.client.get(f"{panel_url}?lang=zh-Hans", headers=bearer).text
    assert "8 位选手打 3 轮，无论怎样排座，至少有 8 次重复同桌无法避免。" in chinese
    seated = night.book.seat_round(night.event, 2, by="Mia", confirm=True)
    assert seated.repeats == 4
    event = night.client.get(f"/api/events/{night.event}").json()
    assert event["unavoidable_repeats"] == [0, 4, 8]
    assert [
        (r["repeats"], r["total_repeats"], r["unavoidable_repeats"]) for r in event["seated"]
    ] == [
        (0, 0, 0),
        (4, 4, 4),
    ]
    again = night.client.get(f"{panel_url}?lang=en", headers=bearer).text
    assert "repeats 4 (4 so far, 4 of them unavoidable) · seat repeats" in again


def test_a_round_seated_early_keeps_the_tables_still_playing_linked(night: Night) -> None:
    # Issue 37: round 2 seated while round 1's table 2 plays; the leaderboard kept only round
    # 2's tables and timer. Round 1's unfinished table stays linked under its own heading, with
    # round 1's timer beside round 2's; its finished table is not listed again.
    night.book.start_timer(night.event, 1, 45, by="Mia")
    for _ in range(4):
        night.record(night.tables[0], "Ann", "Ben", 1)
    night.record(night.tables[1], "Eve", "Fay", 1)
    second = night.book.seat_round(night.event, 2, confirm=True)
    night.book.start_timer(night.event, 2, 60, by="Mia")
    for lang, heading, timer in (
        (
            "en",
            "Round 1 · still playing",
            r"Round 1 · still playing</span> · <strong[^>]*>4\d:\d\d left",
        ),
        ("zh-Hans", "第 1 轮 · 仍在对局", r"第 1 轮 · 仍在对局</span> · <strong[^>]*>"),
    ):
        for path in (f"/e/{night.event}", f"/e/{night.event}/board"):
            html = night.client.get(f"{path}?lang={lang}").text
            earlier = html[html.index('class="earlier-round"') :]
            assert f'href="/t/{night.tables[1]}"' in earlier
            assert f'href="/t/{night.tables[0]}"' not in html  # round 1's finished table
            assert all(f'href="/t/{table.table}"' in html for table in second.tables)
            assert heading in earlier
            assert re.search(timer, html), (lang, path)
            assert html.count("data-timer ") == 2  # round 2's and round 1's
    # Once round 1's last table is over, only round 2 is shown.
    for _ in range(3):
        night.record(night.tables[1], "Eve", "Fay", 1)
    html = night.client.get(f"/e/{night.event}?lang=en").text
    assert "earlier-round" not in html and f'href="/t/{night.tables[1]}"' not in html


def test_the_organisers_part_offers_to_take_the_last_seating_back(night: Night) -> None:
    bearer = {"Authorization": f"Bearer {night.token}"}
    panel = f"/e/{night.event}/organiser/panel?lang=en"
    html = night.client.get(panel, headers=bearer).text
    assert "Take back round 1&#39;s seating" in html and 'data-action="unseat"' in html
    night.record(night.tables[1], "Eve", "Fay", 1)
    html = night.client.get(panel, headers=bearer).text
    assert 'data-action="unseat"' not in html  # a hand recorded: no longer offered
    night.book.seat_round(night.event, 2, confirm=True)
    night.book.unseat_round(night.event, 2, by="Mia")
    html = night.client.get(panel, headers=bearer).text
    assert "Round 2 seating taken back" in html
    chinese = night.client.get(panel.replace("lang=en", "lang=zh-Hans"), headers=bearer).text
    assert "第 2 轮排座已撤回" in chinese

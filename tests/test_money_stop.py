"""Stopping a money table (sg, sg-table, tw, hk): the session ends at a stop entry, which pays
nothing; the table is finished, a further hand is refused, voiding the stop reopens it. Through
the ledger, the API (with its exports and history), the command line, and a club, which rates
the stopped table as a finished game (docs/ledger.md, docs/clubs.md)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from companion.ledger.club_book.service import ClubBook
from companion.ledger.errors import LedgerError, TableFinishedError, UnknownEntryError
from companion.ledger.records import DrawRecord, StopRecord, WinnerRecord, WinRecord
from companion.ledger.repository import Ledger
from export_rows import export_rows
from test_ledger_cli import ok, run

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
STOPPED = "the table was stopped: no hand is played after it"
NOTHING_PLAYED = "nothing was played at this table: a table is stopped after at least one hand"


def win(winner: str, tai: int, discarder: str | None = None) -> WinRecord:
    return WinRecord((WinnerRecord(winner, tai=tai),), discarder)


# sg, a share of 1: a win of t tai pays in shares of 2^(t-1); the discarder pays two shares and
# the others one, at a self-draw each pays two.
THREE_HANDS = [
    win("Ann", 2, "Ben"),  # Ann +8, Ben -4, Cat -2, Dan -2
    win("Ben", 1),  # Ben +6, the others -2 each
    win("Cat", 3, "Ann"),  # Cat +16, Ann -8, Ben -4, Dan -4
]
NETS = {"Ann": -2, "Ben": -2, "Cat": 12, "Dan": -8}


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[Ledger]:
    with Ledger.open(f"sqlite:///{tmp_path / 'ledger.sqlite3'}") as opened:
        yield opened


def test_a_stop_ends_the_session_and_its_void_reopens_it(ledger: Ledger) -> None:
    table = ledger.create_table("sg", PLAYERS)
    with pytest.raises(LedgerError) as nothing:
        ledger.record(table.id, StopRecord())
    assert (nothing.value.message, nothing.value.key) == (
        NOTHING_PLAYED,
        "refusal.stop_nothing_played",
    )
    for hand in THREE_HANDS:
        ledger.record(table.id, hand)
    stopped = ledger.record(table.id, StopRecord())
    state = stopped.replay.state
    assert (state.finished, state.stopped, state.hands) == (True, True, 3)
    assert dict(zip(PLAYERS, state.totals, strict=True)) == NETS  # the stop pays nothing
    assert stopped.replay.entries[-1].amounts == (Fraction(0),) * 4
    with pytest.raises(TableFinishedError) as refused:
        ledger.record(table.id, DrawRecord())
    assert (refused.value.message, refused.value.key) == (STOPPED, "refusal.table_stopped")
    with pytest.raises(TableFinishedError):
        ledger.record(table.id, StopRecord())
    # A hand is not amended into a stop: hands would follow it.
    with pytest.raises(UnknownEntryError) as amend:
        ledger.amend(table.id, 2, StopRecord(), reason="ended early")
    assert amend.value.key == "refusal.stop_by_amend"
    reopened = ledger.void(table.id, stopped.stored.seq, reason="one more hand")
    assert (reopened.replay.state.finished, reopened.replay.state.stopped) == (False, False)
    after = ledger.record(table.id, win("Dan", 1))
    assert after.replay.state.hands == 4


def test_a_table_with_planned_hands_stops_early_and_mcr_does_not(ledger: Ledger) -> None:
    planned = ledger.create_table("tw", PLAYERS, hands=8)
    ledger.record(planned.id, DrawRecord())
    state = ledger.record(planned.id, StopRecord()).replay.state
    assert (state.finished, state.hands, state.planned_hands) == (True, 1, 8)
    assert state.finished_text == STOPPED
    mcr = ledger.create_table("mcr", PLAYERS)
    ledger.record(mcr.id, DrawRecord())
    with pytest.raises(LedgerError) as fixed:
        ledger.record(mcr.id, StopRecord())
    assert fixed.value.message == (
        "a mcr game is 16 hands: it ends when they are all played, and is not stopped"
    )
    assert fixed.value.key == "refusal.stop_fixed_game"


# --- The API ----------------------------------------------------------------------------------


def _post(client: TestClient, table: tuple[str, str], path: str, body: dict[str, Any]) -> Any:
    table_id, token = table
    headers = {"authorization": f"Bearer {token}"}
    return client.post(f"/api/tables/{table_id}/{path}", json=body, headers=headers)


def test_the_api_stops_refuses_after_and_reopens_on_void(client: TestClient) -> None:
    created = client.post("/api/tables", json={"profile": "sg", "players": PLAYERS}).json()
    table = (created["id"], created["token"])
    nothing = _post(client, table, "hands", {"kind": "stop"})
    assert nothing.status_code == 422
    assert nothing.json()["error"] == NOTHING_PLAYED
    assert nothing.json()["error_key"] == "refusal.stop_nothing_played"
    hands = [
        {"kind": "win", "winner": "Ann", "tai": 2, "from": "Ben"},
        {"kind": "win", "winner": "Ben", "tai": 1, "self_draw": True},
        {"kind": "win", "winner": "Cat", "tai": 3, "from": "Ann"},
    ]
    for hand in hands:
        assert _post(client, table, "hands", hand).status_code == 201
    stop = _post(client, table, "hands", {"kind": "stop", "expect_hand": 4})
    assert stop.status_code == 201, stop.text
    assert stop.json()["event"]["kind"] == "stop"
    standings = client.get(f"/api/tables/{table[0]}").json()
    assert (standings["finished"], standings["stopped"], standings["next_hand"]) == (
        True,
        True,
        None,
    )
    assert {player["name"]: player["total"] for player in standings["players"]} == NETS
    refused = _post(client, table, "hands", {"kind": "draw"})
    assert refused.status_code == 409
    assert (refused.json()["error"], refused.json()["error_key"]) == (
        STOPPED,
        "refusal.table_stopped",
    )
    history = client.get(f"/api/tables/{table[0]}/history").json()
    last = history["events"][-1]
    assert (last["seq"], last["kind"], last["text"], last["status"], last["hand"]) == (
        4,
        "stop",
        "Table stopped",
        "recorded",
        None,  # the stop is in no hand: it ends them
    )
    assert last["amounts"] == {"Ann": 0, "Ben": 0, "Cat": 0, "Dan": 0}
    assert last["totals"] == NETS
    exported = client.get(f"/api/tables/{table[0]}/export").json()
    assert exported["events"][-1]["outcome"] == {"kind": "stop"}
    assert exported["standings"]["finished"] is True
    rows = export_rows(client.get(f"/api/tables/{table[0]}/export?format=csv").text)
    assert (rows[-1]["kind"], rows[-1]["description"], rows[-1]["Ann total"]) == (
        "stop",
        "Table stopped",
        "-2",
    )
    void = _post(client, table, "events/4/void", {"reason": "one more"})
    assert void.status_code == 201, void.text
    reopened = client.get(f"/api/tables/{table[0]}").json()
    assert (reopened["finished"], reopened["stopped"], reopened["next_hand"]) == (False, False, 4)
    assert _post(client, table, "hands", {"kind": "draw"}).status_code == 201


def test_the_table_page_says_table_stopped(client: TestClient) -> None:
    created = client.post("/api/tables", json={"profile": "hk", "players": PLAYERS}).json()
    table = (created["id"], created["token"])
    assert _post(client, table, "hands", {"kind": "draw"}).status_code == 201
    page = client.get(f"/t/{table[0]}").text
    assert 'id="stop-table"' in page and 'id="stop-dialog"' in page
    assert _post(client, table, "hands", {"kind": "stop"}).status_code == 201
    said_in = (("en", "Table stopped"), ("zh-Hans", "桌局已结束"), ("zh-Hant", "桌局已結束"))
    for lang, said in said_in:
        board = client.get(f"/t/{table[0]}/board?lang={lang}").text
        assert said in board, lang
    board = client.get(f"/t/{table[0]}/board?lang=en").text
    assert "Table stopped after hand 1" in board
    assert 'data-amend="1"' in board and 'data-amend="2"' not in board  # a stop is voided
    # A points game keeps the dealer's own stop: the page has no money table's control.
    riichi = client.post("/api/tables", json={"profile": "riichi", "players": PLAYERS}).json()
    assert 'id="stop-table"' not in client.get(f"/t/{riichi['id']}").text


# --- The command line -------------------------------------------------------------------------


def test_the_command_line_stops_and_refuses_after(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COMPANION_DATABASE_URL", raising=False)
    url = f"sqlite:///{tmp_path / 'cli.sqlite3'}"
    table = ok(capsys, "table", "new", "--players", ",".join(PLAYERS), "--db", url).strip()
    code, _, err = run(capsys, "table", "stop", table, "--db", url)
    assert (code, err.strip()) == (2, f"companion: {NOTHING_PLAYED}")
    ok(capsys, "table", "win", table, "--winner", "Ann", "--tai", "2", "--from", "Ben", "--db", url)
    out = ok(capsys, "table", "stop", table, "--db", url)
    assert "Table stopped" in out
    code, _, err = run(capsys, "table", "draw", table, "--db", url)
    assert (code, err.strip()) == (2, f"companion: {STOPPED}")
    data = json.loads(ok(capsys, "table", "standings", table, "--json", "--db", url))
    assert (data["finished"], data["stopped"]) == (True, True)
    code, out, _ = run(capsys, "table", "stop", "--help")
    assert code == 0
    assert "the session ends here" in " ".join(out.split())


# --- A club -----------------------------------------------------------------------------------


def test_a_stopped_money_table_is_a_rated_game_of_its_club(ledger: Ledger) -> None:
    book = ClubBook(ledger)
    club = book.create_club("Friday sg", "total").id
    table, _ = book.create_table(club, "sg", PLAYERS)
    for hand in THREE_HANDS:
        ledger.record(table.id, hand)
    assert book.record(club).games == ()  # not over: not rated
    stopped = ledger.record(table.id, StopRecord())
    (game,) = book.record(club).games
    assert game.table_id == table.id
    assert game.finished_at == stopped.stored.at.replace(tzinfo=game.finished_at.tzinfo)
    # Places from the nets: Cat 12 first, Ann and Ben -2 share second, Dan -8 fourth.
    assert game.places == (2, 2, 1, 4)
    assert game.results == tuple(map(Fraction, (-2, -2, 12, -8)))
    assert len(game.hands) == 3  # the stop is no hand
    record, ratings = book.ratings(club)
    board = [
        (record.name_of(p.player), p.total, p.games) for p in ratings.leaderboard(record.rating)
    ]
    assert board == [
        ("Cat", Fraction(12), 1),
        ("Ann", Fraction(-2), 1),
        ("Ben", Fraction(-2), 1),
        ("Dan", Fraction(-8), 1),
    ]
    # Voided, the stop no longer ends the game: the club has no game of it.
    ledger.void(table.id, stopped.stored.seq, reason="played on")
    assert book.record(club).games == ()


def test_a_stopped_table_whose_hands_are_voided_is_no_game(ledger: Ledger) -> None:
    book = ClubBook(ledger)
    club = book.create_club("Friday sg", "total").id
    table, _ = book.create_table(club, "sg", PLAYERS)
    ledger.record(table.id, THREE_HANDS[0])
    ledger.record(table.id, StopRecord())
    assert len(book.record(club).games) == 1
    # The stop stands (it is its own entry), but nothing was played before it now.
    state = ledger.void(table.id, 1, reason="wrong table").replay.state
    assert (state.stopped, state.hands) == (True, 0)
    assert book.record(club).games == ()


def test_the_running_totals_chart_ends_at_the_last_hand_not_at_the_stop(ledger: Ledger) -> None:
    from companion.web import i18n
    from companion.web.table_chart import chart

    table = ledger.create_table("sg", PLAYERS)
    for hand in THREE_HANDS:
        ledger.record(table.id, hand)
    stopped = ledger.record(table.id, StopRecord())
    drawn = chart(i18n.Translator("en"), stopped.replay)
    assert drawn is not None
    # Four points a player (the start and three hands), the last at the right edge, over hand 3.
    for series in drawn.series:
        assert len(series.points.split()) == 4
        assert series.end_x == drawn.right
    assert [label for _, label in drawn.x_ticks] == ["0", "1", "2", "3"]

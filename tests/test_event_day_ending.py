"""Tables ended early (issue 39): "as it stands" (a riichi table's uma and oka on the points as
they stood, an MCR table's table points on the hands played, a money table's totals; hands
recorded after the end do not count) or void (the event's void score, or each player's average
of their other tables); in the standings and the organiser's record; reopened while the round
is open. Through the service, the API and the command line; refusals write nothing."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from companion.api import create_app
from companion.ledger.event_book.service import EventBook
from companion.ledger.records import WinnerRecord, WinRecord
from companion.ledger.repository import Ledger
from event_day_helpers import EIGHT, http_event, refused, seated_event, win
from test_ledger_cli import ok, run


@pytest.fixture
def book(tmp_path: Path) -> Iterator[EventBook]:
    with Ledger.open(f"sqlite:///{tmp_path / 'ledger.sqlite3'}") as ledger:
        yield EventBook(ledger)


def rows(book: EventBook, event_id: str) -> dict[str, tuple[Fraction, Fraction | None, bool]]:
    return {
        row.name: (row.total, row.secondary, row.provisional)
        for row in book.standings(event_id).rows
    }


def test_a_riichi_table_as_it_stands_gets_uma_and_oka_on_its_points(book: EventBook) -> None:
    event_id = book.create_event(
        "Riichi", "riichi", None, EIGHT, 2, seed=1, first_round="listed"
    ).id
    one = book.seat_round(event_id, 1).tables[0].table
    # Ann (East) wins 3 han 30 fu off Ben: a dealer's 5,800.
    book.ledger.record(one, WinRecord((WinnerRecord("Ann", han=3, fu=30),), "Ben"))
    assert rows(book, event_id)["Ann"][2] is True  # provisional while it plays
    entry = book.end_table(event_id, 1, "as-it-stands", "out of time", by="Mia")
    assert (entry.kind, entry.reason, entry.by) == ("end", "out of time", "Mia")
    assert entry.details == {"table": 1, "table_id": one, "mode": "as-it-stands", "last_seq": 1}
    # As if the game ended now: the riichi defaults (25,000 start, 30,000 return, uma 20/10,
    # oka 20), places by points, Cat and Dan level placed by seat.
    standings = rows(book, event_id)
    assert standings["Ann"] == (Fraction(408, 10), Fraction(30800), False)
    assert standings["Cat"] == (Fraction(5), Fraction(25000), False)
    assert standings["Dan"] == (Fraction(-15), Fraction(25000), False)
    assert standings["Ben"] == (Fraction(-308, 10), Fraction(19200), False)
    assert book.event(event_id).seated[0].tables[0].ended == "as-it-stands"
    assert book.event(event_id).seated[0].finished == 1
    # No hand is recorded after the end (it would not count), until the table is reopened.
    late = WinRecord((WinnerRecord("Ben", han=4, fu=30),), "Ann")
    assert refused(lambda: book.ledger.record(one, late)).key == "refusal.day_table_ended"
    assert len(book.ledger.history(one)) == 1
    assert rows(book, event_id)["Ann"] == standings["Ann"]
    # Reopened while round 1 is open: it plays on, counted as its game stands (provisional).
    reopened = book.reopen_table(event_id, 1, by="Mia")
    assert (reopened.kind, reopened.details) == (
        "reopen",
        {"table": 1, "table_id": one, "mode": "as-it-stands"},
    )
    assert rows(book, event_id)["Ann"][2] is True
    assert [entry.kind for entry in book.audit(event_id)][-2:] == ["end", "reopen"]
    book.ledger.record(one, late)  # reopened: its hands are taken again
    ben = next(p for p in book.ledger.standings(one)["players"] if p["name"] == "Ben")
    assert rows(book, event_id)["Ben"][1] == Fraction(ben["points"]) > Fraction(19200)


def test_an_mcr_table_as_it_stands_gets_table_points_on_the_hands_played(book: EventBook) -> None:
    event_id = book.create_event("MCR", "mcr", None, EIGHT[:4], 1, seed=1, first_round="listed").id
    table = book.seat_round(event_id, 1).tables[0].table
    book.ledger.record(table, WinRecord((WinnerRecord("Cat", tai=8),), "Ann"))
    book.end_table(event_id, 1, "as-it-stands", "a player fell ill")
    standings = rows(book, event_id)
    assert standings["Cat"] == (Fraction(4), Fraction(32), False)
    assert standings["Ben"] == (Fraction(3, 2), Fraction(-8), False)
    assert standings["Dan"] == (Fraction(3, 2), Fraction(-8), False)
    assert standings["Ann"] == (Fraction(0), Fraction(-16), False)


def test_a_void_table_scores_the_void_score_or_the_average(book: EventBook) -> None:
    event_id = seated_event(book, hands=1, rounds=2)
    one, two = book.event(event_id).seated[0].tables
    win(book.ledger, one.table, "Ann", "Ben", 3)
    win(book.ledger, two.table, "Eve", "Fay", 2)
    round_one = {name: total for name, (total, _, _) in rows(book, event_id).items()}
    book.seat_round(event_id, 2)
    three = book.event(event_id).seated[1].tables[0]
    book.end_table(event_id, 1, "void", "fire alarm")  # round 2's table 1, before a hand
    # The void score 0: its players' totals are their round 1's.
    voided = rows(book, event_id)
    assert {name: voided[name][0] for name in three.players} == {
        name: round_one[name] for name in three.players
    }
    assert not any(voided[name][2] for name in three.players)  # not provisional: it counts
    # A void score of -5: each player of the voided table takes -5 for it.
    book.set_day_rules(event_id, void_score="-5")
    minus = rows(book, event_id)
    assert {name: minus[name][0] for name in three.players} == {
        name: round_one[name] - 5 for name in three.players
    }
    # Their average of their other tables: the one they played in round 1, so twice it.
    book.set_day_rules(event_id, void_score="average")
    averaged = rows(book, event_id)
    assert {name: averaged[name][0] for name in three.players} == {
        name: 2 * round_one[name] for name in three.players
    }
    assert book.event(event_id).seated[1].tables[0].ended == "void"


def test_bad_ends_are_refused_and_nothing_is_written(book: EventBook) -> None:
    event_id = seated_event(book, hands=1)
    one, _ = book.event(event_id).seated[0].tables
    win(book.ledger, one.table, "Ann", "Ben")  # table 1's one hand: its game is over
    audit = book.audit(event_id)
    over = refused(lambda: book.end_table(event_id, 1, "void", "late"))
    assert (over.key, str(over)) == (
        "refusal.day_end_finished",
        "table 1 of round 1 has finished its game: there is nothing to end",
    )
    assert (
        refused(lambda: book.end_table(event_id, 2, "gone", "late")).key == "refusal.day_end_mode"
    )
    assert refused(lambda: book.end_table(event_id, 2, "void", " ")).key == (
        "refusal.day_end_reason_empty"
    )
    assert (
        refused(lambda: book.end_table(event_id, 3, "void", "late")).key == "refusal.day_no_table"
    )
    assert refused(lambda: book.reopen_table(event_id, 2)).key == "refusal.day_reopen_not_ended"
    assert book.audit(event_id) == audit
    book.end_table(event_id, 2, "void", "late")
    assert refused(lambda: book.end_table(event_id, 2, "as-it-stands", "x")).key == (
        "refusal.day_end_ended"
    )
    book.seat_round(event_id, 2)
    closed = refused(lambda: book.reopen_table(event_id, 2, round_number=1))
    assert (closed.key, str(closed)) == (
        "refusal.day_reopen_closed",
        "round 1 is closed (round 2 is seated): its tables' ends stand",
    )


def test_ends_over_http_and_on_the_pages(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    with TestClient(create_app(url), raise_server_exceptions=False) as client:
        event_id, auth, _ = http_event(client)
        endings = f"/api/events/{event_id}/endings"
        end = {"table": 2, "mode": "void", "reason": "fire alarm", "by": "Mia"}
        assert client.post(endings, json=end).status_code == 401
        assert client.post(endings, json={**end, "mode": "x"}, headers=auth).status_code == 422
        done = client.post(endings, json=end, headers=auth)
        assert (done.status_code, done.json()["kind"], done.json()["reason"]) == (
            201,
            "end",
            "fire alarm",
        )
        again = client.post(endings, json=end, headers=auth)
        assert (again.status_code, again.json()["error_key"]) == (409, "refusal.day_end_ended")
        # The ended table takes no hand: 409 with its key, said in the reader's language.
        tokens = client.get(f"/api/events/{event_id}/tokens", headers=auth).json()["tables"]
        two = tokens[1]
        hand = {"kind": "win", "winner": "Eve", "from": "Fay", "tai": 2}
        write = {"authorization": f"Bearer {two['token']}"}
        hands = f"/api/tables/{two['table']}/hands"
        late = client.post(hands, json=hand, headers=write)
        assert (late.status_code, late.json()["error_key"], late.json()["error_params"]) == (
            409,
            "refusal.day_table_ended",
            {"round": 1, "number": 2},
        )
        assert late.json()["error"] == (
            "table 2 of round 1 was ended early by the event's organiser: no hand is recorded "
            "at it unless they reopen it"
        )
        assert client.get(f"/api/tables/{two['table']}").json()["hands"] == 0
        event = client.get(f"/api/events/{event_id}").json()
        assert event["seated"][0]["tables"][1]["ended"] == "void"
        assert event["progress"] == {"round": 1, "finished": 1, "tables": 2}
        panel = client.get(f"/e/{event_id}/organiser/panel", headers=auth).text
        assert "table 2 of round 1 ended early (void): fire alarm" in panel
        assert 'data-action="reopen" data-round="1" data-table="2"' in panel
        assert "ended early: void · hands: 0" in client.get(f"/e/{event_id}").text
        reopened = client.post(f"{endings}/reopen", json={"table": 2}, headers=auth)
        assert (reopened.status_code, reopened.json()["kind"]) == (201, "reopen")
        assert client.post(hands, json=hand, headers=write).status_code == 201
        paths = client.get("/openapi.json").json()["paths"]
        assert {
            "/api/events/{event_id}/endings",
            "/api/events/{event_id}/endings/reopen",
        } <= set(paths)


def test_end_from_the_command_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'cli.sqlite3'}"
    with Ledger.open(url) as ledger:
        event_id = seated_event(EventBook(ledger))
    base = ("event", "end", event_id, "--table", "2", "--db", url)
    assert ok(capsys, *base, "--as-it-stands", "--reason", "out of time") == (
        "Round 1, table 2: ended as it stands (out of time).\n"
    )
    code, _, err = run(capsys, *base, "--void", "--reason", "again")
    assert (code, err) == (
        2,
        "companion: table 2 of round 1 is ended already: reopen it first to end it another way\n",
    )
    code, _, err = run(capsys, *base, "--reason", "no mode")
    assert code == 2 and "one of the arguments --as-it-stands --void is required" in err
    reopen = ("event", "reopen", event_id, "--table", "2", "--db", url)
    assert ok(capsys, *reopen) == "Round 1, table 2: reopened; it plays on.\n"

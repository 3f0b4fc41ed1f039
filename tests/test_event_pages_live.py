"""`GET /api/events/{id}/stream`: an event's leaderboard follows its tables' notices, from a
real server (uvicorn in a thread) on SQLite: a hand at one of its tables, a hand at a table of a
round seated after the stream opened, and an organiser's action through the API (announced as
`event:<id>`) each send the event's new version; a table of no event sends nothing; resuming
after a version is told at once when the event has moved on."""

from __future__ import annotations

from typing import Any

import httpx

from companion.api.event_stream import read_event_state
from companion.api.streams import StreamSlots
from companion.ledger.event_book.service import EventBook
from companion.ledger.repository import Ledger
from test_api_live import Stream, serving

EIGHT = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


def win(base: str, table: str, token: str, winner: str, discarder: str) -> None:
    response = httpx.post(
        f"{base}/api/tables/{table}/hands",
        json={"kind": "win", "winner": winner, "from": discarder, "tai": 2},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert response.status_code == 201, response.text


def test_the_events_stream_follows_its_tables_and_the_organiser(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    with Ledger.open(url) as ledger, serving(url) as server:
        book = EventBook(ledger)
        created = book.create_event("Club night", "sg", {}, EIGHT, 3, first_round="listed")
        one, two = (table.table for table in book.seat_round(created.id, 1).tables)
        tokens = book.write_tokens(created.id, created.token)
        base = server.base
        stream = Stream(f"{base}/api/events/{created.id}/stream")
        assert stream.status == 200 and stream.content_type.startswith("text/event-stream")

        # Version 2: the organiser created the event and seated round 1; no hand yet.
        win(base, one, tokens[one], "Ann", "Ben")
        message = stream.next()
        assert (message.id, message.event, message.data) == (
            "3",
            "event",
            {"version": 3, "actions": 2},
        )
        win(base, two, tokens[two], "Eve", "Fay")
        assert stream.next().data == {"version": 4, "actions": 2}

        # A table of no event moves nothing here.
        own = httpx.post(f"{base}/api/tables", json={"players": EIGHT[:4]}).json()
        win(base, own["id"], own["token"], "Ann", "Ben")
        assert stream.nothing_more()

        # An organiser's action through the API is announced as `event:<id>` (round 2 seated:
        # version 5), and a table of a round seated after the stream opened is looked up on its
        # first hand.
        organiser = {"Authorization": f"Bearer {created.token}"}
        seated = httpx.post(
            f"{base}/api/events/{created.id}/rounds",
            json={"round": 2, "confirm": True},
            headers=organiser,
        )
        assert seated.status_code == 201, seated.text
        assert stream.next().data == {"version": 5, "actions": 3}
        tokens = book.write_tokens(created.id, created.token)
        three = book.event(created.id).seated[1].tables[0]
        win(base, three.table, tokens[three.table], three.players[0], three.players[1])
        assert stream.next().data == {"version": 6, "actions": 3}
        timer = httpx.post(
            f"{base}/api/events/{created.id}/timers",
            json={"round": 2, "minutes": 40},
            headers=organiser,
        )
        assert timer.status_code == 201, timer.text
        assert stream.next().data == {"version": 7, "actions": 4}

        # Resuming after version 4 is told at once that the event is at version 7.
        resumed = Stream(f"{base}/api/events/{created.id}/stream", headers={"Last-Event-ID": "4"})
        assert resumed.next().data == {"version": 7, "actions": 4}
        assert resumed.nothing_more()


def test_an_unknown_events_stream_is_a_404(tmp_path: Any) -> None:
    with serving(f"sqlite:///{tmp_path / 'ledger.sqlite3'}") as server:
        response = httpx.get(f"{server.base}/api/events/nosuchev/stream")
        assert response.status_code == 404
        assert "error" in response.json()
        bad = httpx.get(f"{server.base}/api/events/nosuchev/stream?after=-1")
        assert bad.status_code == 422


def test_an_events_stream_resumed_past_its_version_is_a_409(tmp_path: Any) -> None:
    """A version the event never reached (a client of another server, or a forged one) is
    refused as a table's stream refuses it, not answered with a silent stream."""
    url = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    with Ledger.open(url) as ledger, serving(url) as server:
        created = EventBook(ledger).create_event("Cup", "sg", {}, EIGHT, 2, first_round="listed")
        version = read_event_state(ledger, created.id).version
        url = f"{server.base}/api/events/{created.id}/stream"
        response = httpx.get(f"{url}?after=99")
        assert response.status_code == 409
        assert response.json()["error"] == (
            f"after 99 is beyond this event's version ({version}): "
            "load the event again and follow it from there"
        )
        response = httpx.get(url, headers={"Last-Event-ID": "50"})
        assert response.status_code == 409
        assert response.json()["error"].startswith("Last-Event-ID 50 is beyond this event's")
        assert Stream(url, {"Last-Event-ID": str(version)}).nothing_more()  # its version: open


def test_two_servers_on_one_postgres_database(ledger_postgres_url: str) -> None:
    """A hand and an organiser's action through one server reach an event's stream held by
    another (two processes, as NOTIFY carries them: `event:<id>:<seq>` for the organiser)."""
    with serving(ledger_postgres_url) as first, serving(ledger_postgres_url) as second:
        created = httpx.post(
            f"{first.base}/api/events",
            json={"name": "League", "players": EIGHT, "rounds": 2, "first_round": "listed"},
        )
        assert created.status_code == 201, created.text
        event_id, token = created.json()["id"], created.json()["token"]
        organiser = {"Authorization": f"Bearer {token}"}
        seated = httpx.post(
            f"{first.base}/api/events/{event_id}/rounds", json={"round": 1}, headers=organiser
        )
        assert seated.status_code == 201, seated.text
        stream = Stream(f"{second.base}/api/events/{event_id}/stream")
        hub = second.app.state.live_hub
        assert hub.listener is not None and hub.listener.listening.wait(5)

        tokens = httpx.get(f"{first.base}/api/events/{event_id}/tokens", headers=organiser)
        assert tokens.status_code == 200, tokens.text
        table = seated.json()["tables"][0]
        write_token = tokens.json()["tables"][0]["token"]
        win(first.base, table["table"], write_token, "Ann", "Ben")
        assert stream.next().data == {"version": 3, "actions": 2}
        timer = httpx.post(
            f"{first.base}/api/events/{event_id}/timers",
            json={"round": 1, "minutes": 30},
            headers=organiser,
        )
        assert timer.status_code == 201, timer.text
        assert stream.next().data == {"version": 4, "actions": 3}
        assert stream.nothing_more()


def test_event_streams_count_with_the_tables_streams_and_are_released(tmp_path: Any) -> None:
    """An event's stream takes a slot as a table's does (a table page of an event holds both);
    a refused or an unknown event's stream gives its slot back."""
    url = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    slots = StreamSlots(per_address=2, total=1000)
    with Ledger.open(url) as ledger, serving(url, stream_slots=slots) as server:
        book = EventBook(ledger)
        created = book.create_event("Club night", "sg", {}, EIGHT, 2, first_round="listed")
        table = book.seat_round(created.id, 1).tables[0].table
        missing = httpx.get(f"{server.base}/api/events/nosuchev/stream")
        assert missing.status_code == 404
        assert slots.open == 0, "the unknown event's stream gave its slot back"
        held = [
            Stream(f"{server.base}/api/tables/{table}/stream"),
            Stream(f"{server.base}/api/events/{created.id}/stream"),
        ]
        assert [stream.status for stream in held] == [200, 200]
        refused = httpx.get(f"{server.base}/api/events/{created.id}/stream")
        assert (refused.status_code, refused.headers["retry-after"]) == (429, "10")
        assert slots.open == 2

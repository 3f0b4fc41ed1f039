"""`/api/events`: every endpoint, the organiser's token checked as a table's (404 before 401
and 403), clean refusals with their keys, the exports, the OpenAPI bodies and docs/events.md's
tables of their fields."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from companion.api import create_app
from export_rows import export_rows

EIGHT = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def new_event(client: TestClient, **fields: Any) -> tuple[str, str]:
    body = {"name": "Club night", "players": EIGHT, "rounds": 2, "seed": 7} | fields
    response = client.post("/api/events", json=body)
    assert response.status_code == 201, response.text
    data = response.json()
    return data["id"], data["token"]


def test_an_event_over_http(client: TestClient) -> None:
    response = client.post(
        "/api/events",
        json={
            "name": "Club night",
            "profile": "sg",
            "players": EIGHT,
            "rounds": 2,
            "first_round": "listed",
            "hands": 1,
            "by": "Mia",
        },
    )
    assert response.status_code == 201
    assert response.headers["cache-control"] == "no-store"
    data = response.json()
    event, token = data["id"], data["token"]
    assert response.headers["location"] == f"/api/events/{event}"
    assert data["links"] == {
        "read": f"/e/{event}",
        "api": f"/api/events/{event}",
        "organise": f"/e/{event}#token={token}",
    }
    assert data["event"]["players"][0] == {
        "name": "Ann",
        "joins": 1,
        "withdraws_after": None,
        "withdrawn": False,
    }
    assert (data["event"]["seated"], data["event"]["progress"]) == ([], None)

    seated = client.post(f"/api/events/{event}/rounds", json={"round": 1}, headers=bearer(token))
    assert seated.status_code == 201, seated.text
    round_1 = seated.json()
    assert [table["players"] for table in round_1["tables"]] == [EIGHT[:4], EIGHT[4:]]
    one, two = (table["table"] for table in round_1["tables"])
    assert set(round_1["write_links"]) == {one, two}
    table_token = round_1["write_links"][one].split("#token=")[1]

    # The tables are ordinary tables: hands recorded with their own write tokens.
    hand = {"kind": "win", "winner": "Cat", "from": "Ann", "tai": 2}
    assert client.post(
        f"/api/tables/{one}/hands", json=hand, headers=bearer(token)
    ).status_code == (403)
    recorded = client.post(f"/api/tables/{one}/hands", json=hand, headers=bearer(table_token))
    assert recorded.status_code == 201

    view = client.get(f"/api/events/{event}").json()
    assert view["progress"] == {"round": 1, "finished": 1, "tables": 2}
    assert view["seated"][0]["tables"][0] == {
        "number": 1,
        "table": one,
        "players": EIGHT[:4],
        "finished": True,
        "hands": 1,
        "ended": None,
    }
    penalty = {"player": "Cat", "amount": "-3/2", "reason": "late", "by": "Mia"}
    answer = client.post(f"/api/events/{event}/penalties", json=penalty, headers=bearer(token))
    assert answer.status_code == 201
    assert (answer.json()["amount"], answer.json()["amount_exact"]) == (-1.5, "-3/2")
    board = client.get(f"/api/events/{event}/standings").json()
    assert [(row["name"], row["total_exact"], row["rank"]) for row in board["rows"]] == [
        ("Cat", "13/2", 1),
        ("Eve", "0", 2),
        ("Fay", "0", 2),
        ("Gus", "0", 2),
        ("Hal", "0", 2),
        ("Ben", "-2", 6),
        ("Dan", "-2", 6),
        ("Ann", "-4", 8),
    ]
    assert (board["id"], board["name"], board["rule"], board["unfinished"]) == (
        event,
        "Club night",
        "money",
        [{"round": 1, "table": two}],
    )

    join = {"name": "Ivy", "joins": 2}
    assert client.post(f"/api/events/{event}/players", json=join, headers=bearer(token)).json() == {
        "name": "Ivy",
        "joins": 2,
        "withdraws_after": None,
        "withdrawn": False,
    }
    leave = {"player": "Hal", "after_round": 1}
    answer = client.post(f"/api/events/{event}/withdrawals", json=leave, headers=bearer(token))
    assert (answer.status_code, answer.json()["withdraws_after"]) == (201, 1)
    timer = client.post(
        f"/api/events/{event}/timers", json={"round": 1, "minutes": 50}, headers=bearer(token)
    )
    assert (timer.status_code, timer.json()["minutes"], timer.json()["round"]) == (201, 50, 1)
    assert client.get(f"/api/events/{event}").json()["seated"][0]["timer"] == timer.json()

    tokens = client.get(f"/api/events/{event}/tokens", headers=bearer(token)).json()
    assert [(t["round"], t["number"], t["table"]) for t in tokens["tables"]] == [
        (1, 1, one),
        (1, 2, two),
    ]
    assert tokens["tables"][0]["token"] == table_token
    audit = client.get(f"/api/events/{event}/audit").json()["audit"]
    assert [(entry["kind"], entry["by"]) for entry in audit] == [
        ("create", "Mia"),
        ("seat", ""),
        ("adjust", "Mia"),
        ("join", ""),
        ("withdraw", ""),
        ("timer", ""),
    ]

    exported = client.get(f"/api/events/{event}/export")
    assert exported.headers["content-disposition"] == (
        f"attachment; filename=\"companion-{event}.json\"; filename*=UTF-8''"
        f"Club%20night%20%28{event}%29.json"
    )
    assert [table["table"]["id"] for table in exported.json()["tables"]] == [one, two]
    assert token not in exported.text and table_token not in exported.text
    rows = export_rows(client.get(f"/api/events/{event}/export?format=csv").text)
    assert (rows[0]["rank"], rows[0]["name"], rows[0]["total"], rows[0]["adjustments"]) == (
        "1",
        "Cat",
        "13/2",
        "late (Mia): -3/2",
    )


def test_the_organisers_token_is_checked_as_a_tables(client: TestClient) -> None:
    event, token = new_event(client)
    seat = {"round": 1}
    unknown = client.post("/api/events/nosuchid/rounds", json=seat, headers=bearer(token))
    assert (unknown.status_code, unknown.json()) == (
        404,
        {
            "error": "no event with id 'nosuchid'",
            "error_key": "refusal.event_unknown",
            "error_params": {"event": "nosuchid"},
        },
    )
    missing = client.post(f"/api/events/{event}/rounds", json=seat)
    assert missing.status_code == 401
    assert missing.headers["www-authenticate"] == "Bearer"
    assert missing.json() == {
        "error": "the organiser's actions need the event's token: send Authorization: Bearer "
        "<token>"
    }
    wrong = client.post(f"/api/events/{event}/rounds", json=seat, headers=bearer(token + "x"))
    assert (wrong.status_code, wrong.json()) == (
        403,
        {"error": "the token does not match this event"},
    )
    # No token, a wrong one: the body is not even read.
    assert client.post(f"/api/events/{event}/penalties", json={}).status_code == 401
    assert client.get(f"/api/events/{event}/tokens").status_code == 401
    assert client.get(f"/api/events/{event}/access").json() == {"id": event, "access": "read"}
    assert client.get(f"/api/events/{event}/access", headers=bearer(token)).json() == {
        "id": event,
        "access": "organise",
    }
    assert client.get(f"/api/events/{event}/access", headers=bearer("x")).status_code == 403


def test_refusals_are_clean_with_their_keys(client: TestClient) -> None:
    uneven = client.post(
        "/api/events", json={"name": "N", "players": [f"P{n}" for n in range(1, 19)], "rounds": 2}
    )
    assert (uneven.status_code, uneven.json()) == (
        422,
        {
            "error": (
                "18 players leave 2 over at tables of four: "
                "bring in 2 more to substitute, or give 2 of them a bye"
            ),
            "error_key": "refusal.event_uneven",
            "error_params": {
                "players": 18,
                "tables": 4,
                "over": 2,
                "substitutes": 2,
                "round": None,
            },
        },
    )
    refused = client.post("/api/events", json={"name": "N", "players": EIGHT, "rounds": "2"})
    assert (refused.status_code, refused.json()) == (
        422,
        {"error": "rounds must be a whole number"},
    )
    refused = client.post("/api/events", json={"name": "N", "players": EIGHT, "rounds": 2, "x": 1})
    assert (refused.status_code, refused.json()) == (
        422,
        {"error": "unknown field 'x' in the request"},
    )
    refused = client.post(
        "/api/events", json={"name": "N", "players": EIGHT, "rounds": 2, "leftover": "bye"}
    )
    assert refused.json() == {"error": "leftover must be one of substitutes, byes; got 'bye'"}
    refused = client.post("/api/events", json={"name": "N", "players": EIGHT, "rounds": 2,
                                               "profile": "nope"})  # fmt: skip
    assert (refused.status_code, refused.json()) == (
        422,
        {"error": 'unknown profile "nope": use one of sg, sg-table, tw, hk, riichi, sanma, mcr'},
    )

    event, token = new_event(client)
    again = [
        client.post(f"/api/events/{event}/rounds", json={"round": 1}, headers=bearer(token))
        for _ in range(2)
    ]
    assert [answer.status_code for answer in again] == [201, 409]
    assert again[1].json() == {
        "error": "round 1 is already seated",
        "error_key": "refusal.event_round_seated",
        "error_params": {"round": 1},
    }
    nobody = client.post(
        f"/api/events/{event}/penalties",
        json={"player": "Zed", "amount": "-1", "reason": "late"},
        headers=bearer(token),
    )
    assert (nobody.status_code, nobody.json()["error"]) == (
        422,
        "no player named Zed in this event",
    )
    assert client.get(f"/api/events/{event}/export?format=xml").json() == {
        "error": 'format must be "json" or "csv"'
    }
    assert client.get("/api/events/nosuchid/standings").status_code == 404


def test_the_openapi_document_has_the_event_bodies() -> None:
    document = create_app("sqlite:///:memory:").openapi()
    paths = document["paths"]
    assert {
        "/api/events",
        "/api/events/{event_id}",
        "/api/events/{event_id}/standings",
        "/api/events/{event_id}/rounds",
        "/api/events/{event_id}/penalties",
        "/api/events/{event_id}/withdrawals",
        "/api/events/{event_id}/players",
        "/api/events/{event_id}/timers",
        "/api/events/{event_id}/export",
        "/api/events/{event_id}/tokens",
        "/api/events/{event_id}/audit",
    } <= set(paths)
    schema = paths["/api/events"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert schema["required"] == ["name", "players", "rounds"]
    assert schema["properties"]["later_rounds"]["enum"] == ["no-repeats", "by-standing"]
    seat = paths["/api/events/{event_id}/rounds"]["post"]
    assert set(seat["responses"]) >= {"201", "401", "403", "404", "409", "422"}


def test_a_round_is_seated_while_tables_play_only_when_confirmed(client: TestClient) -> None:
    # Issue 37: round 2 seated with one tap while round 1 still played.
    event, token = new_event(client, first_round="listed", hands=1)
    first = client.post(f"/api/events/{event}/rounds", json={"round": 1}, headers=bearer(token))
    one, two = (table["table"] for table in first.json()["tables"])
    table_token = first.json()["write_links"][one].split("#token=")[1]
    hand = {"kind": "win", "winner": "Cat", "from": "Ann", "tai": 2}
    client.post(f"/api/tables/{one}/hands", json=hand, headers=bearer(table_token))

    refused = client.post(f"/api/events/{event}/rounds", json={"round": 2}, headers=bearer(token))
    assert (refused.status_code, refused.json()) == (
        409,
        {
            "error": "still playing: table 2 of round 1; confirm to seat round 2 all the same",
            "error_key": "refusal.event_tables_playing",
            "error_params": {"round": 2, "playing": [{"round": 1, "number": 2, "table": two}]},
        },
    )
    assert client.get(f"/api/events/{event}").json()["current_round"] == 1
    unconfirmed = {"round": 2, "confirm": False}
    assert (
        client.post(f"/api/events/{event}/rounds", json=unconfirmed, headers=bearer(token))
    ).status_code == 409
    confirmed = client.post(
        f"/api/events/{event}/rounds", json={"round": 2, "confirm": True}, headers=bearer(token)
    )
    assert (confirmed.status_code, confirmed.json()["round"]) == (201, 2)
    not_a_bool = {"round": 3, "confirm": "yes"}
    answer = client.post(f"/api/events/{event}/rounds", json=not_a_bool, headers=bearer(token))
    assert (answer.status_code, answer.json()) == (422, {"error": "confirm must be true or false"})


def test_the_last_seating_is_taken_back_by_the_organiser_only(client: TestClient) -> None:
    event, token = new_event(client, first_round="listed", hands=1)
    client.post(f"/api/events/{event}/rounds", json={"round": 1}, headers=bearer(token))
    second = client.post(
        f"/api/events/{event}/rounds", json={"round": 2, "confirm": True}, headers=bearer(token)
    ).json()
    three, four = (table["table"] for table in second["tables"])
    back = {"round": 2, "by": "Mia"}
    assert client.post(f"/api/events/{event}/unseat", json=back).status_code == 401
    wrong = client.post(f"/api/events/{event}/unseat", json=back, headers=bearer(token + "x"))
    assert wrong.status_code == 403
    older = {"round": 1}
    refused = client.post(f"/api/events/{event}/unseat", json=older, headers=bearer(token))
    assert (refused.status_code, refused.json()) == (
        409,
        {
            "error": "round 2 is seated after it: only the last seated round can be taken "
            "back; got round 1",
            "error_key": "refusal.event_unseat_not_last",
            "error_params": {"round": 1, "last": 2},
        },
    )
    # A hand at round 2's second table: refused, naming it; nothing changes.
    table_token = second["write_links"][four].split("#token=")[1]
    east, south = second["tables"][1]["players"][:2]
    hand = {"kind": "win", "winner": east, "from": south, "tai": 1}
    played = client.post(f"/api/tables/{four}/hands", json=hand, headers=bearer(table_token))
    assert played.status_code == 201
    refused = client.post(f"/api/events/{event}/unseat", json=back, headers=bearer(token))
    assert (refused.status_code, refused.json()) == (
        409,
        {
            "error": "table 2 of round 2 has a hand recorded: a round's seating is taken back "
            "only before any of its tables records one",
            "error_key": "refusal.event_unseat_played",
            "error_params": {"round": 2, "number": 2, "table": four},
        },
    )
    assert client.get(f"/api/events/{event}").json()["current_round"] == 2

    # Another event, round 2 without a hand: taken back (200, the record's new entry).
    event, token = new_event(client, first_round="listed", hands=1)
    client.post(f"/api/events/{event}/rounds", json={"round": 1}, headers=bearer(token))
    second = client.post(
        f"/api/events/{event}/rounds", json={"round": 2, "confirm": True}, headers=bearer(token)
    ).json()
    three, four = (table["table"] for table in second["tables"])
    done = client.post(f"/api/events/{event}/unseat", json=back, headers=bearer(token))
    assert done.status_code == 200
    entry = done.json()
    assert (entry["kind"], entry["round"], entry["by"], entry["details"]) == (
        "unseat",
        2,
        "Mia",
        {"tables": {"1": three, "2": four}},
    )
    view = client.get(f"/api/events/{event}").json()
    assert ([seated["round"] for seated in view["seated"]], view["current_round"]) == ([1], 1)
    tokens = client.get(f"/api/events/{event}/tokens", headers=bearer(token)).json()["tables"]
    assert {table["table"] for table in tokens}.isdisjoint({three, four})
    kinds = [line["kind"] for line in client.get(f"/api/events/{event}/audit").json()["audit"]]
    assert kinds == ["create", "seat", "seat", "unseat"]
    # The ledger keeps the tables (append-only): their own pages still answer.
    assert client.get(f"/api/tables/{three}").status_code == 200
    again = client.post(f"/api/events/{event}/unseat", json=back, headers=bearer(token))
    assert (again.status_code, again.json()["error_key"]) == (
        409,
        "refusal.event_unseat_not_seated",
    )

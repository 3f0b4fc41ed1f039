"""`/api/tables` and the table pages: every endpoint, every refusal (404 before 401/403, the
token compared in constant time by the ledger), idempotency, corrections, export, the create
form with its CSRF check, the pages in both languages, and no 500 for any body."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.api import create_app
from companion.api.deps import close_ledgers
from companion.api.security import CONTENT_SECURITY_POLICY
from companion.ledger.repository import Ledger
from companion.rules import table_profiles
from companion.web.templating import NAV
from export_rows import export_rows

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
DRAGON_HAND = {"hand": "123m456p55s", "melds": ["pung 777z", "pung 666z"], "bonus": "1f"}
"""docs/contract.md's example hand: 3 tai in `sg` for South in the South round; for East in the East
round (the first hand at a table) the plum is the seat flower and no wind counts: 3 tai too."""


def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'ledger.sqlite3'}"


def make_client(url: str) -> Iterator[TestClient]:
    app = create_app(url)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client
    close_ledgers(app)


@pytest.fixture
def any_client(ledger_url: str) -> Iterator[TestClient]:
    """The app on SQLite and on PostgreSQL (conftest.py's `ledger_url`)."""
    yield from make_client(ledger_url)


def new_table(client: TestClient, **fields: Any) -> tuple[str, str]:
    body = {"profile": "sg", "players": PLAYERS, **fields}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    data = response.json()
    return data["id"], data["token"]


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def record(client: TestClient, table: tuple[str, str], body: dict[str, Any]) -> Any:
    table_id, token = table
    return client.post(f"/api/tables/{table_id}/hands", json=body, headers=bearer(token))


def totals(client: TestClient, table_id: str) -> dict[str, Any]:
    data = client.get(f"/api/tables/{table_id}").json()
    return {player["name"]: player["total"] for player in data["players"]}


@pytest.fixture
def table(client: TestClient) -> tuple[str, str]:
    return new_table(client)


# --- Creating a table -------------------------------------------------------------------------


def test_creating_a_table_gives_its_id_and_write_token_once(any_client: TestClient) -> None:
    client = any_client
    body = {"profile": "sg", "players": PLAYERS, "options": {"min_tai": 2}, "hands": 16}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201
    assert response.headers["cache-control"] == "no-store"
    data = response.json()
    table_id, token = data["id"], data["token"]
    assert re.fullmatch(r"[a-z0-9]{8}", table_id)
    assert response.headers["location"] == f"/api/tables/{table_id}"
    assert data["links"] == {
        "read": f"/t/{table_id}",
        "write": f"/t/{table_id}#token={token}",
        "api": f"/api/tables/{table_id}",
    }
    assert data["profile"] == "sg" and data["options"] == {"min_tai": 2}
    assert data["planned_hands"] == 16 and data["hands"] == 0 and data["next_hand"] == 1
    assert [(p["name"], p["seat"], p["total"]) for p in data["players"]] == [
        ("Ann", "E", 0),
        ("Ben", "S", 0),
        ("Cat", "W", 0),
        ("Dan", "N", 0),
    ]
    assert data["dealer"] == "Ann" and data["round"] == "E"
    shown = client.get(f"/api/tables/{table_id}").json()
    assert "token" not in shown and "write" not in shown["links"]
    assert token not in json.dumps(client.get(f"/api/tables/{table_id}/history").json())


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"players": ["Ann", "Ben", "Cat"]}, "four players"),
        ({"players": ["Ann", "Ben", "Cat", "ann"]}, "different name"),
        ({"players": ["Ann", "Ben", "Cat", ""]}, "empty"),
        ({"players": "Ann,Ben,Cat,Dan"}, "players must be a list"),
        ({"players": ["Ann", "Ben", "Cat", 4]}, "players must be a list"),
        ({"players": PLAYERS, "profile": "jp"}, "profile"),
        ({"players": PLAYERS, "profile": 3}, "profile must be a string"),
        ({"players": PLAYERS, "options": {"min_tai": "2"}}, "min_tai"),
        ({"players": PLAYERS, "options": {"nope": 1}}, "nope"),
        ({"players": PLAYERS, "options": [1]}, "options must be a JSON object"),
        ({"players": PLAYERS, "hands": 0}, "at least 1"),
        ({"players": PLAYERS, "hands": True}, "hands must be a whole number"),
        ({"players": PLAYERS, "colour": "red"}, "unknown field 'colour'"),
        ([], "must be a JSON object"),
    ],
)
def test_a_table_that_cannot_be_made_is_a_422(client: TestClient, body: Any, message: str) -> None:
    response = client.post("/api/tables", json=body)
    assert response.status_code == 422
    assert message in response.json()["error"]


def test_the_documented_profiles_are_the_registrys(client: TestClient) -> None:
    """The create body's `profile` enum is read from the profile registry: a new profile is
    documented without an edit in the API, and the schema stays as it was written by hand."""
    create = client.get("/openapi.json").json()["paths"]["/api/tables"]["post"]
    schema = create["requestBody"]["content"]["application/json"]["schema"]
    profile = schema["properties"]["profile"]
    assert profile["enum"] == list(table_profiles())
    assert json.dumps(profile) == json.dumps(
        {
            "type": "string",
            "enum": ["sg", "sg-table", "tw", "hk", "riichi", "sanma", "mcr"],
            "title": "Profile",
            "default": "sg",
        }
    )


def test_the_documented_capabilities_are_the_profiles_declarations(client: TestClient) -> None:
    """Where the record body's documentation names profiles, it names those that declare the
    capability (today's words exactly)."""
    paths = client.get("/openapi.json").json()["paths"]
    record = paths["/api/tables/{table_id}/hands"]["post"]
    fields = record["requestBody"]["content"]["application/json"]["schema"]["properties"]
    several = [p.id for p in table_profiles().values() if p.several_winners]
    pay_for_all = [p.id for p in table_profiles().values() if p.pay_for_all]
    instant = [p.id for p in table_profiles().values() if p.instant_payouts]
    assert (several, pay_for_all, instant) == (
        ["tw", "riichi", "sanma"],
        ["sg-table", "hk", "riichi", "sanma"],
        ["sg-table"],
    )
    assert fields["winners"]["description"] == (
        '`tw`, `riichi`, `sanma`: several winners on one discard, `[{"name", "tai" | "hand"}]`'
    )
    assert fields["liable"]["description"] == (
        "`sg-table`, `hk`, `riichi`, `sanma`: who pays for all"
    )
    assert fields["riichi"]["description"] == (
        "`riichi`, `sanma`: who declared riichi in this hand (a stick each)"
    )
    assert "; an `sg-table` instant payout: `{" in record["description"]


def test_an_unknown_profile_is_refused_with_the_registrys_ids(client: TestClient) -> None:
    response = client.post("/api/tables", json={"profile": "jp", "players": PLAYERS})
    assert response.status_code == 422
    assert response.headers["content-type"] == "application/json"
    assert response.content == (
        b'{"error":"unknown profile \\"jp\\": use one of sg, sg-table, tw, hk, riichi, sanma, mcr"}'
    )


def test_create_refuses_what_is_not_json(client: TestClient) -> None:
    bad = client.post("/api/tables", content=b"{", headers={"content-type": "application/json"})
    assert bad.status_code == 400 and "not valid JSON" in bad.json()["error"]
    form = client.post("/api/tables", content=b"a=1", headers={"content-type": "text/plain"})
    assert form.status_code == 415
    huge = client.post("/api/tables", json={"players": ["x" * 70_000] * 4})
    assert huge.status_code == 413
    assert client.get("/api/tables").status_code == 405, "there is no listing of tables"


# --- Reading ----------------------------------------------------------------------------------


def test_reading_needs_only_the_id(client: TestClient, table: tuple[str, str]) -> None:
    table_id, _ = table
    assert record(
        client, table, {"kind": "win", "winner": "Ann", "from": "Ben", "tai": 3}
    ).is_success
    state = client.get(f"/api/tables/{table_id}")
    assert state.status_code == 200
    data = state.json()
    assert data["id"] == table_id and data["hands"] == 1
    assert totals(client, table_id) == {"Ann": 16, "Ben": -8, "Cat": -4, "Dan": -4}
    assert data["settle_up"][0] == {
        "from": "Ben",
        "to": "Ann",
        "amount": 8,
        "amount_exact": "8",
        "text": "Ben pays Ann 8",
    }
    upper = client.get(f"/api/tables/{table_id.upper()}")
    assert upper.status_code == 200 and upper.json()["id"] == table_id
    history = client.get(f"/api/tables/{table_id}/history").json()
    assert history["id"] == table_id
    [event] = history["events"]
    assert event["seq"] == 1 and event["kind"] == "win" and event["status"] == "recorded"
    assert event["outcome"]["winners"][0]["name"] == "Ann"
    assert event["totals"] == {"Ann": 16, "Ben": -8, "Cat": -4, "Dan": -4}


@pytest.mark.parametrize("suffix", ["", "/history", "/export", "/export?format=csv"])
def test_an_unknown_table_is_a_404(client: TestClient, suffix: str) -> None:
    response = client.get(f"/api/tables/zzzzzzzz{suffix}")
    assert response.status_code == 404
    assert response.json() == {"error": "no table with id 'zzzzzzzz'"}


def test_export(client: TestClient, table: tuple[str, str]) -> None:
    table_id, _ = table
    record(client, table, {"kind": "win", "winner": "Cat", "self_draw": True, "tai": 1})
    as_json = client.get(f"/api/tables/{table_id}/export")
    assert as_json.status_code == 200
    assert f'filename="companion-{table_id}.json"' in as_json.headers["content-disposition"]
    data = as_json.json()
    assert data["table"]["id"] == table_id and len(data["events"]) == 1
    as_csv = client.get(f"/api/tables/{table_id}/export?format=csv")
    assert as_csv.status_code == 200
    assert as_csv.headers["content-type"].startswith("text/csv")
    (row,) = export_rows(as_csv.text)
    assert (row["event"], row["kind"]) == ("1", "win") and "Cat total" in row
    wrong = client.get(f"/api/tables/{table_id}/export?format=xml")
    assert wrong.status_code == 422


def test_a_named_tables_export_is_saved_under_its_name(client: TestClient) -> None:
    created = client.post(
        "/api/tables", json={"profile": "sg", "players": PLAYERS, "name": "Friday 牌局"}
    )
    table_id = created.json()["id"]
    for suffix in ("csv", "json"):
        saved = client.get(f"/api/tables/{table_id}/export?format={suffix}")
        assert saved.headers["content-disposition"] == (
            f'attachment; filename="companion-{table_id}.{suffix}"; '
            f"filename*=UTF-8''Friday%20%E7%89%8C%E5%B1%80%20%28{table_id}%29.{suffix}"
        )


# --- Recording --------------------------------------------------------------------------------


def test_record_wins_draws_and_rotation(any_client: TestClient) -> None:
    client = any_client
    table = new_table(client)
    table_id = table[0]
    first = record(client, table, {"kind": "win", "winner": "Ann", "from": "Ben", "tai": 3})
    assert first.status_code == 201
    data = first.json()
    assert data["duplicate"] is False
    assert data["event"]["seq"] == 1 and data["event"]["amounts"]["Ann"] == 16
    assert data["table"]["dealer"] == "Ann", "the dealer keeps the deal on a win"
    second = record(client, table, {"kind": "win", "winner": "cat", "self_draw": True, "tai": 2})
    assert second.status_code == 201
    assert second.json()["table"]["dealer"] == "Ben", "a non-dealer's win passes the deal"
    assert [p["seat"] for p in second.json()["table"]["players"]] == ["N", "E", "S", "W"]
    draw = record(client, table, {"kind": "draw"})
    assert draw.status_code == 201 and draw.json()["table"]["hands"] == 3
    assert totals(client, table_id) == {"Ann": 12, "Ben": -12, "Cat": 8, "Dan": -8}


def test_record_a_full_hand(client: TestClient, table: tuple[str, str]) -> None:
    body = {"kind": "win", "winner": "Ann", "from": "Ben", "hand": DRAGON_HAND}
    response = record(client, table, body)
    assert response.status_code == 201, response.text
    winner = response.json()["event"]["outcome"]["winners"][0]
    assert winner["entry"] == "hand" and winner["tai"] == 3
    assert winner["request"]["seat"] == "E" and winner["request"]["discarder"] == "S"
    assert {p["name"] for p in winner["patterns"]} == {"Dragon set", "Seat flower or season"}
    not_a_win = {**body, "hand": {"hand": "123m456p789s11357z"}}
    refused = record(client, table, not_a_win)
    assert refused.status_code == 422 and "not a win" in refused.json()["error"]
    unknown = record(client, table, {**body, "hand": {**DRAGON_HAND, "seat": "W", "x": 1}})
    assert unknown.status_code == 422 and "'x'" in unknown.json()["error"]


def test_sg_table_payouts_and_pay_for_all(client: TestClient) -> None:
    table = new_table(client, profile="sg-table")
    payout = record(client, table, {"kind": "payout", "player": "Cat", "event": "bite"})
    assert payout.status_code == 201
    assert payout.json()["event"]["amounts"] == {"Ann": -2, "Ben": -2, "Cat": 6, "Dan": -2}
    assert payout.json()["table"]["hands"] == 0, "an instant payout is not a hand"
    liable = {"kind": "win", "winner": "Ann", "from": "Ben", "tai": 1, "liable": "Dan"}
    response = record(client, table, liable)
    assert response.status_code == 201
    assert response.json()["event"]["amounts"] == {"Ann": 4, "Ben": 0, "Cat": 0, "Dan": -4}
    limit = record(client, table, {"kind": "win", "winner": "Ann", "self_draw": True, "tai": 10})
    assert limit.status_code == 201


def test_several_winners_on_one_discard_in_tw(client: TestClient) -> None:
    table = new_table(client, profile="tw")
    body = {
        "kind": "win",
        "from": "Dan",
        "winners": [{"name": "Ben", "tai": 3}, {"name": "Cat", "tai": 5}],
    }
    response = record(client, table, body)
    assert response.status_code == 201, response.text
    assert [w["name"] for w in response.json()["event"]["outcome"]["winners"]] == ["Ben", "Cat"]
    sg = new_table(client)
    assert record(client, sg, body).status_code == 422


def test_several_winners_hands_must_agree_on_the_discard(client: TestClient) -> None:
    table = new_table(client, profile="tw")  # Ann deals; Ben S, Cat W, Dan N
    regular = {"hand": "456m789p222s678s5m5m", "melds": ["chow 123m"]}
    on_5m = {"hand": "444p234s11z567s34m5m", "melds": ["chow 123m"], "bonus": "1f2f"}
    body = {
        "kind": "win",
        "from": "Ann",
        "winners": [{"name": "Ben", "hand": regular}, {"name": "Dan", "hand": on_5m}],
    }
    on_7s = {
        **body,
        "winners": [body["winners"][0], {"name": "Dan", "hand": {**on_5m, "win_tile": "7s"}}],
    }
    refused = record(client, table, on_7s)
    assert refused.status_code == 422
    assert refused.json()["error"] == (
        "the winners of one discard win on the same tile (win_tile): S on 5m, N on 7s"
    )
    response = record(client, table, body)
    assert response.status_code == 201, response.text
    assert response.json()["event"]["amounts"] == {"Ann": -14, "Ben": 9, "Cat": 0, "Dan": 5}


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, "kind is required"),
        ({"kind": "deal"}, "kind is required"),
        ({"kind": ["win"]}, "kind is required"),
        ({"kind": {"win": 1}}, "kind is required"),
        ({"kind": "draw", "winner": "Ann"}, "unknown field 'winner'"),
        ({"kind": "win", "from": "Ben", "tai": 3}, "winner is required"),
        ({"kind": "win", "winner": "Ann", "tai": 3}, "say how the hand was won"),
        (
            {"kind": "win", "winner": "Ann", "from": "Ben", "self_draw": True, "tai": 3},
            "say how the hand was won",
        ),
        ({"kind": "win", "winner": "Ann", "from": "Ben"}, "agreed tai"),
        (
            {"kind": "win", "winner": "Ann", "from": "Ben", "tai": 3, "hand": DRAGON_HAND},
            "agreed tai",
        ),
        ({"kind": "win", "winner": "Eve", "from": "Ben", "tai": 3}, "no player named Eve"),
        ({"kind": "win", "winner": "Ann", "from": "ann", "tai": 3}, "own discard"),
        ({"kind": "win", "winner": "Ann", "from": "Ben", "tai": 6}, "0 to 5 tai"),
        ({"kind": "win", "winner": "Ann", "from": "Ben", "tai": 0}, "under the table's minimum"),
        ({"kind": "win", "winner": "Ann", "from": "Ben", "tai": True}, "whole number"),
        ({"kind": "win", "winner": "Ann", "from": "Ben", "tai": "3"}, "whole number"),
        ({"kind": "win", "winner": 1, "from": "Ben", "tai": 3}, "winner must be a string"),
        ({"kind": "win", "winner": "Ann", "from": "Ben", "tai": 1, "liable": "Dan"}, "pay-for-all"),
        ({"kind": "win", "winners": [], "from": "Ben"}, "winners must be a list"),
        ({"kind": "win", "winners": ["Ann"], "from": "Ben"}, "a winner must be a JSON object"),
        ({"kind": "payout", "player": "Cat", "event": "bite"}, "sg-table"),
        ({"kind": "payout", "player": "Cat"}, "event is required"),
        ({"kind": "draw", "expect_hand": 0}, "expect_hand must be at least 1"),
        ({"kind": "draw", "key": "k" * 201}, "at most 200"),
        ({"kind": "draw", "key": 5}, "key must be a string"),
    ],
)
def test_an_entry_that_cannot_be_recorded_is_a_422(
    client: TestClient, table: tuple[str, str], body: dict[str, Any], message: str
) -> None:
    response = record(client, table, body)
    assert response.status_code == 422, response.text
    assert message in response.json()["error"]
    assert client.get(f"/api/tables/{table[0]}/history").json()["events"] == []


def test_record_refuses_what_is_not_json(client: TestClient, table: tuple[str, str]) -> None:
    table_id, token = table
    url = f"/api/tables/{table_id}/hands"
    headers = {**bearer(token), "content-type": "application/json"}
    assert client.post(url, content=b"[", headers=headers).status_code == 400
    assert client.post(url, content=b"", headers=headers).status_code == 400
    form = {**bearer(token), "content-type": "text/plain"}
    assert client.post(url, content=b"kind=draw", headers=form).status_code == 415
    assert record(client, table, {"kind": "draw", "key": "x" * 70_000}).status_code == 413


# --- The write token --------------------------------------------------------------------------

WRITES = [
    ("/hands", {"kind": "draw"}),
    ("/events/1/void", {"reason": "wrong"}),
    ("/events/1/amend", {"kind": "draw", "reason": "wrong"}),
]


@pytest.mark.parametrize(("suffix", "body"), WRITES)
def test_every_write_needs_the_tables_token(
    any_client: TestClient, suffix: str, body: dict[str, Any]
) -> None:
    client = any_client
    table = new_table(client)
    other = new_table(client)
    table_id, token = table
    assert record(client, table, {"kind": "win", "winner": "Ann", "from": "Ben", "tai": 1})
    url = f"/api/tables/{table_id}{suffix}"
    missing = client.post(url, json=body)
    assert missing.status_code == 401
    assert missing.headers["www-authenticate"] == "Bearer"
    assert "token" in missing.json()["error"]
    for header in ("Basic QW5uOkJlbg==", "Bearer", "Bearer  ", token):
        assert client.post(url, json=body, headers={"authorization": header}).status_code == 401
    for wrong in (token + "x", token[:-1], other[1], "x" * 500, "\x00"):
        response = client.post(url, json=body, headers=bearer(wrong))
        assert response.status_code == 403, wrong
        assert response.json() == {"error": "the token does not match this table"}
    history = client.get(f"/api/tables/{table_id}/history").json()["events"]
    assert len(history) == 1, "nothing was written without the token"
    allowed = client.post(url, json=body, headers=bearer(token))
    assert allowed.status_code == 201, allowed.text


@pytest.mark.parametrize(("suffix", "body"), WRITES)
def test_an_unknown_table_is_a_404_before_any_token_check(
    client: TestClient, table: tuple[str, str], suffix: str, body: dict[str, Any]
) -> None:
    url = f"/api/tables/zzzzzzzz{suffix}"
    for headers in ({}, bearer("wrong"), bearer(table[1])):
        response = client.post(url, content=b"not json", headers=headers)
        assert response.status_code == 404
        assert response.json() == {"error": "no table with id 'zzzzzzzz'"}


def test_the_body_is_read_only_after_the_token_is_checked(
    client: TestClient, table: tuple[str, str]
) -> None:
    url = f"/api/tables/{table[0]}/hands"
    assert client.post(url, content=b"not json").status_code == 401
    assert client.post(url, content=b"not json", headers=bearer("x")).status_code == 403


def test_a_cross_site_write_is_refused_even_with_the_token(
    client: TestClient, table: tuple[str, str]
) -> None:
    headers = {**bearer(table[1]), "origin": "https://evil.example"}
    response = client.post(f"/api/tables/{table[0]}/hands", json={"kind": "draw"}, headers=headers)
    assert response.status_code == 403


def test_tokens_are_checked_by_the_ledger_in_constant_time(
    client: TestClient, table: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import hmac

    seen: list[tuple[str, str]] = []
    real = hmac.compare_digest

    def spy(a: Any, b: Any) -> bool:
        seen.append((a, b))
        return real(a, b)

    monkeypatch.setattr("companion.ledger.repository.hmac.compare_digest", spy)
    record(client, table, {"kind": "draw"})
    assert seen, "the token went through hmac.compare_digest"
    assert all(table[1] not in pair for pair in seen), "digests are compared, not the token"


# --- Idempotency and stale writes -------------------------------------------------------------


def test_the_same_key_records_once(client: TestClient, table: tuple[str, str]) -> None:
    body = {"kind": "win", "winner": "Ann", "from": "Ben", "tai": 2, "key": "tap-1"}
    first = record(client, table, body)
    again = record(client, table, {**body, "winner": "ann"})
    assert first.status_code == 201 and again.status_code == 200
    assert again.json()["duplicate"] is True
    assert again.json()["event"]["seq"] == first.json()["event"]["seq"] == 1
    conflict = record(client, table, {**body, "tai": 3})
    assert conflict.status_code == 409
    assert "already used for entry 1" in conflict.json()["error"]
    assert len(client.get(f"/api/tables/{table[0]}/history").json()["events"]) == 1


def test_expect_hand_and_finished_tables_are_409s(client: TestClient) -> None:
    table = new_table(client, hands=2)
    assert record(client, table, {"kind": "draw", "expect_hand": 1}).status_code == 201
    stale = record(client, table, {"kind": "draw", "expect_hand": 1})
    assert stale.status_code == 409 and "already recorded" in stale.json()["error"]
    early = record(client, table, {"kind": "draw", "expect_hand": 5})
    assert early.status_code == 409
    assert record(client, table, {"kind": "draw", "expect_hand": 2}).status_code == 201
    finished = record(client, table, {"kind": "draw"})
    assert finished.status_code == 409 and "all played" in finished.json()["error"]
    assert client.get(f"/api/tables/{table[0]}").json()["finished"] is True


# --- Corrections ------------------------------------------------------------------------------


def correct(
    client: TestClient, table: tuple[str, str], seq: int | str, what: str, body: dict[str, Any]
) -> Any:
    url = f"/api/tables/{table[0]}/events/{seq}/{what}"
    return client.post(url, json=body, headers=bearer(table[1]))


def test_void_and_amend(any_client: TestClient) -> None:
    client = any_client
    table = new_table(client)
    table_id = table[0]
    record(client, table, {"kind": "win", "winner": "Ann", "from": "Ben", "tai": 3})
    record(client, table, {"kind": "win", "winner": "Cat", "self_draw": True, "tai": 2})
    record(client, table, {"kind": "win", "winner": "Dan", "from": "Ann", "tai": 1})
    assert totals(client, table_id) == {"Ann": 10, "Ben": -13, "Cat": 7, "Dan": -4}
    voided = correct(client, table, 2, "void", {"reason": "Cat was a tile short", "by": "Dan"})
    assert voided.status_code == 201, voided.text
    event = voided.json()["event"]
    assert event["kind"] == "void" and event["target"] == 2 and event["by"] == "Dan"
    assert totals(client, table_id) == {"Ann": 14, "Ben": -9, "Cat": -5, "Dan": 0}
    assert voided.json()["table"]["hands"] == 2
    events = client.get(f"/api/tables/{table_id}/history").json()["events"]
    assert [e["status"] for e in events] == ["recorded", "voided", "recorded", "void"]
    again = correct(client, table, 2, "void", {"reason": "twice"})
    assert again.status_code == 422 and "already void" in again.json()["error"]
    missing = correct(client, table, 99, "void", {"reason": "no such hand"})
    assert missing.status_code == 404 and "no entry 99" in missing.json()["error"]
    correction = correct(client, table, 4, "void", {"reason": "undo the void"})
    assert correction.status_code == 422 and "is a correction" in correction.json()["error"]
    amend = {"kind": "win", "winner": "Dan", "self_draw": True, "tai": 1, "reason": "self-drawn"}
    amended = correct(client, table, 3, "amend", amend)
    assert amended.status_code == 201, amended.text
    assert totals(client, table_id) == {"Ann": 14, "Ben": -10, "Cat": -6, "Dan": 2}
    restored = correct(client, table, 2, "amend", {"kind": "draw", "reason": "it was a draw"})
    assert restored.status_code == 201
    assert restored.json()["table"]["hands"] == 3


@pytest.mark.parametrize(
    ("seq", "what", "body", "status", "message"),
    [
        (1, "void", {}, 422, "reason is required"),
        (1, "void", {"reason": "  "}, 422, "a correction needs a reason"),
        (1, "void", {"reason": "x", "by": "b" * 201}, 422, "at most 200"),
        (1, "void", {"reason": "x", "kind": "draw"}, 422, "unknown field 'kind'"),
        (9, "void", {"reason": "x"}, 404, "no entry 9"),
        (2, "void", {"reason": "x"}, 422, "is a correction"),
        ("one", "void", {"reason": "x"}, 422, "seq"),
        (1, "amend", {"kind": "draw"}, 422, "reason is required"),
        (1, "amend", {"reason": "x"}, 422, "kind is required"),
        (1, "amend", {"kind": "win", "winner": "Eve", "self_draw": True, "tai": 1, "reason": "x"},
         422, "no player named Eve"),
        (1, "erase", {"reason": "x"}, 404, "nothing at"),
    ],
)  # fmt: skip
def test_corrections_that_cannot_be_made(
    client: TestClient,
    table: tuple[str, str],
    seq: Any,
    what: str,
    body: dict[str, Any],
    status: int,
    message: str,
) -> None:
    record(client, table, {"kind": "draw"})
    correct(client, table, 1, "amend", {"kind": "draw", "reason": "same"})
    response = correct(client, table, seq, what, body)
    assert response.status_code == status, response.text
    assert message in response.json()["error"]


def test_a_correction_key_records_once(client: TestClient, table: tuple[str, str]) -> None:
    record(client, table, {"kind": "draw"})
    body = {"reason": "no", "key": "void-1"}
    assert correct(client, table, 1, "void", body).status_code == 201
    again = correct(client, table, 1, "void", body)
    assert again.status_code == 200 and again.json()["duplicate"] is True


# --- Nothing gives a 500 ----------------------------------------------------------------------

_names = st.sampled_from(["Ann", "Ben", "cat", "Eve", "", 3, None])
_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 20) | st.text(max_size=5) | _names,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
_bodies = (
    st.fixed_dictionaries(
        {},
        optional={
            "kind": st.sampled_from(["win", "draw", "payout", "void", 1, ["win"], {"win": 1}]),
            "winner": _names,
            "from": _names,
            "self_draw": st.booleans() | st.none() | st.integers(0, 1),
            "tai": st.integers(-2, 12) | st.booleans() | st.text(max_size=2),
            "hand": st.just(DRAGON_HAND) | _values,
            "winners": _values,
            "liable": _names,
            "player": _names,
            "event": st.sampled_from(["bite", "exposed_kong", "x"]) | _values,
            "at_start": _values,
            "key": st.text(max_size=8) | _values,
            "expect_hand": st.integers(-1, 4) | _values,
            "reason": st.text(max_size=8) | _values,
            "by": _names,
        },
    )
    | _values
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(body=_bodies, path=st.sampled_from(["hands", "events/1/void", "events/1/amend"]))
def test_no_body_gives_a_500(
    client: TestClient, table: tuple[str, str], body: Any, path: str
) -> None:
    if not client.get(f"/api/tables/{table[0]}/history").json()["events"]:
        record(client, table, {"kind": "draw"})
    headers = {**bearer(table[1]), "content-type": "application/json"}
    url = f"/api/tables/{table[0]}/{path}"
    response = client.post(url, content=json.dumps(body), headers=headers)
    assert response.status_code in {200, 201, 409, 422}, response.text
    assert set(response.json()) >= ({"error"} if response.status_code >= 400 else {"event"})


# --- The pages --------------------------------------------------------------------------------


class Page(HTMLParser):
    def __init__(self, html: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def find(self, **wanted: str) -> list[dict[str, str | None]]:
        return [
            attrs
            for _, attrs in self.tags
            if all(
                attrs.get(name.replace("_", "-"), None if value else "-") == (value or None)
                for name, value in wanted.items()
            )
        ]


def check_page(html: str) -> Page:
    """No inline script or style, nothing from elsewhere."""
    page = Page(html)
    for tag, attrs in page.tags:
        assert "style" not in attrs, f"style attribute on {tag}"
        if tag == "script":
            assert attrs.get("src") or attrs.get("type") == "application/json", attrs
        for name in ("src", "href"):
            value = attrs.get(name)
            if value and tag != "use":
                assert value.startswith(("/", "#")), value
    return page


def page_data(html: str) -> dict[str, Any]:
    match = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', html, re.S)
    assert match
    data: dict[str, Any] = json.loads(match.group(1))
    return data


def csrf(client: TestClient) -> str:
    client.get("/tables")
    token = client.cookies.get("companion_csrf")
    assert token
    return token


def test_the_nav_has_the_tables() -> None:
    assert any(item.path == "/tables" for item in NAV)


@pytest.mark.parametrize(("lang", "title"), [("en", "Start a table"), ("zh-Hant", "開新牌桌")])
def test_the_tables_page(client: TestClient, lang: str, title: str) -> None:
    response = client.get(f"/tables?lang={lang}")
    assert response.status_code == 200
    assert response.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    html = response.text
    assert title in html and f'<html lang="{lang}">' in html
    page = check_page(html)
    [form] = page.find(id="create-form")
    assert form["method"] == "post" and form["action"] == "/tables"
    assert page.find(name="csrf_token")
    # North is left to the server: sanma seats three (the next test).
    assert {attrs["name"] for attrs in page.find(type="text") if "required" in attrs} == {
        "player0",
        "player1",
        "player2",
    }
    assert page.find(name="option:sg-table:shooter_pays", type="checkbox")
    assert page.find(name="option:tw:per_tai")


def test_the_tables_page_does_not_open_the_database(tmp_path: Path) -> None:
    url = tmp_path / "untouched" / "ledger.sqlite3"
    app = create_app(f"sqlite:///{url}")
    with TestClient(app) as client:
        assert client.get("/tables").status_code == 200
    assert not url.exists()


def test_the_create_form(client: TestClient) -> None:
    form = {
        "csrf_token": csrf(client),
        "profile": "sg-table",
        "player0": "Ann",
        "player1": " Ben ",
        "player2": "Cat",
        "player3": "Dan",
        "hands": "8",
        "option:sg-table:min_tai": "2",
        "option:sg-table:share": "1",
        "option:sg-table:cap": "5",
        "option:sg-table:shooter_pays": "true",
        "option:sg:min_tai": "4",
    }
    response = client.post("/tables", data=form, follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["cache-control"] == "no-store"
    match = re.fullmatch(r"/t/([a-z0-9]{8})#token=([\w-]+)&new=1", response.headers["location"])
    assert match, response.headers["location"]
    table_id, token = match.groups()
    data = client.get(f"/api/tables/{table_id}").json()
    assert data["profile"] == "sg-table" and data["planned_hands"] == 8
    assert data["options"] == {"min_tai": 2, "shooter_pays": True}, "defaults are not stored"
    assert [p["name"] for p in data["players"]] == PLAYERS
    assert record(client, (table_id, token), {"kind": "draw"}).status_code == 201


def test_the_create_form_offers_tw_s_drawn_hand_repeats(client: TestClient) -> None:
    page = client.get("/tables?lang=zh-Hant").text
    label = "流局算連莊（連莊數加一）"  # noqa: RUF001  (the catalogue's full-width punctuation)
    assert 'name="option:tw:drawn_hand_repeats"' in page and label in page
    [tw] = [p for p in client.get("/api/profiles").json() if p["id"] == "tw"]
    [option] = [o for o in tw["options"] if o["name"] == "drawn_hand_repeats"]
    # A table's rule: offered on the create form, not by the calculator.
    assert option == {
        "name": "drawn_hand_repeats",
        "type": "bool",
        "default": False,
        "table_rule": True,
    }
    form = {
        "csrf_token": csrf(client),
        "profile": "tw",
        **{f"player{index}": name for index, name in enumerate(PLAYERS)},
        "option:tw:drawn_hand_repeats": "true",
    }
    response = client.post("/tables", data=form, follow_redirects=False)
    table_id, token = re.findall(r"/t/([a-z0-9]{8})#token=([\w-]+)", response.headers["location"])[
        0
    ]
    assert client.get(f"/api/tables/{table_id}").json()["options"] == {"drawn_hand_repeats": True}
    assert record(client, (table_id, token), {"kind": "draw"}).status_code == 201
    state = client.get(f"/api/tables/{table_id}").json()
    assert (state["dealer"], state["dealer_streak"]) == ("Ann", 1)


class CreateFormFields(HTMLParser):
    """The create form's fields as a browser without its script has them: `shown`, the names of
    those outside any `hidden` block, and `sent`, of those outside any disabled fieldset."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.blocks: list[dict[str, str | None]] = []
        self.shown: set[str] = set()
        self.sent: set[str] = set()
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag in ("div", "fieldset", "section", "details"):
            self.blocks.append({"tag": tag, **found})
        elif tag in ("input", "select") and found.get("name"):
            name = str(found["name"])
            if not any("hidden" in block for block in self.blocks):
                self.shown.add(name)
            disabled = [b for b in self.blocks if b["tag"] == "fieldset" and "disabled" in b]
            if not disabled and "disabled" not in found:
                self.sent.add(name)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("div", "fieldset", "section", "details"):
            self.blocks.pop()


def length_line(html: str, profile: str) -> str | None:
    """The line standing for the planned length of `profile`, when the page shows it."""
    found = re.search(
        rf'<div class="field length-line" data-length-line="{profile}">\s*'
        r'<p class="field-label">([^<]*)</p>\s*<p class="length-line-text">([^<]*)</p>',
        html,
    )
    return None if found is None else f"{found[1]} | {found[2]}"


MCR_LINES = {
    "en": "How long to play | 16 hands: four rounds of four. The rules fix the length.",
    "zh-Hans": "打多久 | 16 局：四圈，每圈四局。局数由规则规定。",  # noqa: RUF001
    "zh-Hant": "打多久 | 16 局：四圈，每圈四局。局數由規則規定。",  # noqa: RUF001
}
RIICHI_LINES = {
    "en": "How long to play | A hanchan or a tonpuusen: choose it as Game length in the table "
    "options below.",
    "zh-Hans": "打多久 | 半庄或东风战：在下方“桌规选项”的“对局长度”中选择。",  # noqa: RUF001
    "zh-Hant": "打多久 | 半莊或東風戰：在下方「桌規選項」的「對局長度」中選擇。",  # noqa: RUF001
}


@pytest.mark.parametrize("lang", ["en", "zh-Hans", "zh-Hant"])
@pytest.mark.parametrize(
    ("profile", "lines", "option"),
    [("mcr", MCR_LINES, "flowers"), ("riichi", RIICHI_LINES, "length")],
    ids=["mcr", "riichi"],
)
def test_the_create_form_says_a_game_s_own_length_and_offers_none(
    client: TestClient, profile: str, lines: dict[str, str], option: str, lang: str
) -> None:
    """MCR's 16 hands (`game_hands`), riichi's length option (a points game): the ledger
    refuses a planned length for either, so the form says the game's own length instead."""
    html = client.get(f"/tables?lang={lang}&profile={profile}").text
    check_page(html)
    assert f'value="{profile}" selected' in html
    assert length_line(html, profile) == lines[lang]
    fields = CreateFormFields(html)
    assert {"hands", "rounds"}.isdisjoint(fields.shown | fields.sent)
    wanted = {"profile", "player0", "name", f"option:{profile}:{option}"}
    assert wanted <= fields.shown & fields.sent


def test_the_sg_create_form_offers_the_length(client: TestClient) -> None:
    """The default form: the planned hands and rounds, the other games' lines hidden (the
    script shows one when its profile is chosen)."""
    html = client.get("/tables?lang=en").text
    assert 'value="sg" selected' in html
    assert length_line(html, "mcr") is None and length_line(html, "riichi") is None
    for profile in ("mcr", "riichi"):
        assert f'data-length-line="{profile}" hidden>\n      <p class="field-label">' in html
    fields = CreateFormFields(html)
    assert {"hands", "rounds"} <= fields.shown & fields.sent


def test_the_create_form_of_an_unknown_profile_is_sg_s(client: TestClient) -> None:
    html = client.get("/tables?profile=jp").text
    assert 'value="sg" selected' in html
    assert {"hands", "rounds"} <= CreateFormFields(html).sent


def post_create_form(client: TestClient, profile: str, fields: dict[str, str]) -> Any:
    """The create form for `profile` with the four players and `fields`, posted."""
    form = {
        "csrf_token": csrf(client),
        "profile": profile,
        **{f"player{index}": name for index, name in enumerate(PLAYERS)},
        **fields,
    }
    return client.post("/tables?lang=en", data=form, follow_redirects=False)


def created_by_form(client: TestClient, profile: str, fields: dict[str, str]) -> Any:
    """The table the create form made (`GET /api/tables/{id}`)."""
    response = post_create_form(client, profile, fields)
    assert response.status_code == 303, response.text
    table_id = re.findall(r"/t/([a-z0-9]{8})#token=", response.headers["location"])[0]
    return client.get(f"/api/tables/{table_id}").json()


@pytest.mark.parametrize("length", [{}, {"hands": "8"}, {"rounds": "2"}, {"hands": "²"}], ids=str)
def test_the_create_form_makes_an_mcr_table_of_16_hands(
    client: TestClient, length: dict[str, str]
) -> None:
    """What the form sends for MCR: no length; without the script, the hands or rounds typed
    before the profile was changed to MCR, which are not read (the rules fix the length)."""
    data = created_by_form(client, "mcr", length)
    assert (data["profile"], data["planned_hands"], data["planned_rounds"]) == ("mcr", 16, None)


@pytest.mark.parametrize(
    ("fields", "length"),
    [({}, "hanchan"), ({"hands": "8", "option:riichi:length": "tonpuusen"}, "tonpuusen")],
    ids=["default", "tonpuusen"],
)
def test_the_create_form_makes_a_riichi_table_of_its_length_option(
    client: TestClient, fields: dict[str, str], length: str
) -> None:
    """A riichi game ends by its `length`: the form reads no planned hands (a form sent without
    its script may carry them), which the ledger would refuse."""
    data = created_by_form(client, "riichi", fields)
    assert (data["planned_hands"], data["planned_rounds"]) == (None, None)
    # (The boolean options, unchecked here, are stored off: only `length` is this test's.)
    assert data["options"].get("length", "hanchan") == length


def test_a_refused_mcr_form_comes_back_as_mcr_s(client: TestClient) -> None:
    response = post_create_form(client, "mcr", {"player3": "ann"})
    assert response.status_code == 422
    html = response.text
    assert "each player needs a different name: Ann and ann are the same" in html
    assert 'value="mcr" selected' in html
    assert length_line(html, "mcr") == MCR_LINES["en"]
    assert {"hands", "rounds"}.isdisjoint(CreateFormFields(html).sent)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"player3": "ann"}, "different name"),
        ({"hands": "many"}, "whole number"),
        ({"profile": "jp"}, "Choose one of the rules"),
        ({"option:sg:min_tai": "x"}, "min_tai"),
        ({"option:sg:share": "lots"}, "share"),
    ],
)
def test_the_create_form_says_what_is_wrong(
    client: TestClient, changes: dict[str, str], message: str
) -> None:
    form = {"csrf_token": csrf(client), "profile": "sg", "hands": ""}
    form |= {f"player{i}": name for i, name in enumerate(PLAYERS)}
    form |= changes
    response = client.post("/tables", data=form, follow_redirects=False)
    assert response.status_code == 422
    assert message in response.text
    assert 'value="Ben"' in response.text, "what was typed is kept"


def test_the_create_form_needs_its_csrf_token(client: TestClient) -> None:
    csrf(client)
    form = {f"player{i}": name for i, name in enumerate(PLAYERS)}
    assert client.post("/tables", data=form).status_code == 403
    assert client.post("/tables", data={**form, "csrf_token": "x" * 43}).status_code == 403


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_the_table_page(client: TestClient, table: tuple[str, str], lang: str) -> None:
    table_id, token = table
    record(client, table, {"kind": "win", "winner": "Ann", "from": "Ben", "tai": 3})
    record(client, table, {"kind": "win", "winner": "Cat", "self_draw": True, "tai": 2})
    correct(client, table, 1, "void", {"reason": "wrong", "by": "Dan"})
    response = client.get(f"/t/{table_id}?lang={lang}")
    assert response.status_code == 200
    html = response.text
    assert token not in html, "the page never holds the token"
    page = check_page(html)
    data = page_data(html)
    assert data["table"] == {
        "id": table_id,
        "name": "",
        "profile": "sg",
        "options": {},
        "players": PLAYERS,
        "points_game": False,
        "names_dealer": True,
    }
    assert data["api"]["hands"] == f"/api/tables/{table_id}/hands"
    [record_card] = page.find(id="record")
    assert "hidden" in record_card, "the record form is hidden until the page finds a token"
    actions = [attrs for _, attrs in page.tags if attrs.get("class") == "entry-actions"]
    assert actions and all("hidden" in attrs for attrs in actions), "void, amend: writers only"
    assert page.find(data_void="2")
    assert page.find(data_series="0") and "<polyline" in html
    assert page.find(data_seq="3", data_status="void")
    assert page.find(data_seq="1", data_status="voided")
    words = {"en": ("Voids #1", "Cat wins 2 tai, self-drawn", "East round", "Record hand 2"),
             "zh-Hant": ("作廢 #1", "Cat 自摸 2 台", "東風圈", "記錄第 2 局")}  # fmt: skip
    for text in words[lang]:
        assert text in html, text


def test_the_board_fragment(client: TestClient, table: tuple[str, str]) -> None:
    table_id = table[0]
    empty = client.get(f"/t/{table_id}/board?lang=en")
    assert empty.status_code == 200 and "Nothing recorded yet." in empty.text
    assert "<polyline" not in empty.text
    record(client, table, {"kind": "win", "winner": "Dan", "from": "Ann", "tai": 5})
    board = client.get(f"/t/{table_id}/board")
    assert board.headers["cache-control"] == "no-store"
    page = check_page(board.text)
    regions = [attrs["id"] for attrs in page.find(data_region="")]
    assert regions == ["scoreboard", "chart", "settle", "history"]
    match = re.search(r'id="board-state">(.*?)</script>', board.text, re.S)
    assert match
    state = json.loads(match.group(1))
    assert state["next_hand"] == 2 and state["dealer"] == 1
    assert [p["seat"] for p in state["players"]] == ["N", "E", "S", "W"]
    assert re.search(r"Ann pays Dan</span><span class=\"amount\">32<", board.text)


def test_an_unknown_table_page_is_a_404_page(client: TestClient) -> None:
    for path in ("/t/zzzzzzzz", "/t/zzzzzzzz/board"):
        response = client.get(path + "?lang=en")
        assert response.status_code == 404
        assert response.headers["content-type"].startswith("text/html")
        assert "no table with id" in response.text


def test_tw_gets_more_tai_buttons_and_an_input(client: TestClient) -> None:
    table_id, _ = new_table(client, profile="tw")
    page = Page(client.get(f"/t/{table_id}").text)
    values = [attrs["value"] for attrs in page.find(name="tai", type="radio")]
    assert values == [str(n) for n in range(10)]
    assert page.find(id="tai-other")
    sg_table = new_table(client, profile="sg-table")
    page = Page(client.get(f"/t/{sg_table[0]}").text)
    assert [a["value"] for a in page.find(name="tai", type="radio")] == [
        "1",
        "2",
        "3",
        "4",
        "5",
        "10",
    ]
    assert page.find(name="kind", value="payout")


def test_pages_use_the_app_database(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    with Ledger.open(url) as ledger:
        created = ledger.create_table("sg", PLAYERS)
    app: FastAPI = create_app(url)
    with TestClient(app) as client:
        assert client.get(f"/t/{created.id}").status_code == 200
        response = client.post(
            f"/api/tables/{created.id}/hands", json={"kind": "draw"}, headers=bearer(created.token)
        )
        assert response.status_code == 201
    close_ledgers(app)


def test_the_create_form_without_its_script_seats_three_at_sanma(client: TestClient) -> None:
    """Without the page's script all four player fields show: North is not required by the
    browser, so a sanma table can be made with it empty; a table of four still needs it,
    refused by the server with a message."""
    page = client.get("/tables").text
    required = set(re.findall(r'<input id="(player\d)" [^>]*\brequired\b', page))
    assert required == {"player0", "player1", "player2"}
    assert "a three-player rule set (sanma) leaves North empty." in page
    form = {
        "csrf_token": csrf(client),
        "profile": "sanma",
        **{f"player{index}": name for index, name in enumerate(["Aki", "Bo", "Chen"])},
        "player3": "",
    }
    response = client.post("/tables", data=form, follow_redirects=False)
    assert response.status_code == 303
    table_id = re.findall(r"/t/([a-z0-9]{8})#", response.headers["location"])[0]
    names = [p["name"] for p in client.get(f"/api/tables/{table_id}").json()["players"]]
    assert names == ["Aki", "Bo", "Chen"]
    refused = client.post("/tables", data={**form, "profile": "riichi"}, follow_redirects=False)
    assert refused.status_code == 422
    assert "<p>a player&#39;s name cannot be empty</p>" in refused.text

"""`/api/clubs`: a club made, its roster kept with the organiser's token only, its tables,
ratings and a player's page read by anyone with the id, refusals with their keys and nothing
written."""

from __future__ import annotations

import csv
import io
from typing import Any

from fastapi.testclient import TestClient

RIICHI = {"preset": "tenhou", "length": "tonpuusen"}


def _club(client: TestClient) -> tuple[str, dict[str, str]]:
    made = client.post("/api/clubs", json={"name": "Thursday Riichi"})
    assert made.status_code == 201, made.text
    data = made.json()
    assert data["links"]["organise"].startswith(f"/c/{data['id']}/organise#token=")
    return data["id"], {"Authorization": f"Bearer {data['token']}"}


def _refused(answer: Any, status: int, key: str) -> None:
    assert answer.status_code == status, answer.text
    assert answer.json()["error_key"] == key


def test_a_club_over_http(client: TestClient) -> None:
    club, token = _club(client)
    added = client.post(f"/api/clubs/{club}/players", json={"name": "Ann"}, headers=token)
    assert (added.status_code, added.json()["name"]) == (201, "Ann")
    table = client.post(
        f"/api/clubs/{club}/tables",
        json={"profile": "riichi", "players": ["ANN", "Ben", "Cat", "Dan"], "options": RIICHI},
        headers=token,
    )
    assert table.status_code == 201, table.text
    assert table.json()["roster"] == {"joined": ["Ben", "Cat", "Dan"], "known": ["ANN"]}
    table_id, write = table.json()["id"], {"Authorization": f"Bearer {table.json()['token']}"}
    hand = {"kind": "win", "winner": "Ben", "from": "ANN", "yakuman": 1}
    recorded = client.post(f"/api/tables/{table_id}/hands", json=hand, headers=write)
    assert recorded.status_code == 201, recorded.text
    board = client.get(f"/api/clubs/{club}/ratings").json()
    assert [(row["name"], row["tenhou_r"]) for row in board["players"]] == [
        ("Ben", 1530),
        ("Cat", 1510),
        ("Dan", 1490),
        ("Ann", 1470),
    ]
    assert (
        client.get(f"/api/clubs/{club}/ratings", params={"min_games": "2"}).json()["players"] == []
    )
    rows = list(
        csv.DictReader(
            io.StringIO(client.get(f"/api/clubs/{club}/ratings", params={"format": "csv"}).text)
        )
    )
    assert [row["name"] for row in rows] == ["Ben", "Cat", "Dan", "Ann"]
    page = client.get(f"/api/clubs/{club}/players/ann").json()
    assert page["stats"]["deal_ins"] == {"count": 1, "over": 1, "rate": 1.0}
    assert [game["table"] for game in page["games"]] == [table_id]
    assert client.get(f"/api/clubs/{club}").json()["games"] == 1
    renamed = client.post(
        f"/api/clubs/{club}/players/rename",
        json={"name": "ben", "new_name": "Benjamin"},
        headers=token,
    )
    assert renamed.json()["name"] == "Benjamin"
    assert client.get(f"/api/clubs/{club}/players/Ben").json()["player"]["name"] == "Benjamin"


def test_only_the_organiser_edits_the_roster(client: TestClient) -> None:
    club, _ = _club(client)
    body = {"name": "Ann"}
    assert client.post("/api/clubs/nosuch/players", json=body).status_code == 404
    assert client.post(f"/api/clubs/{club}/players", json=body).status_code == 401
    wrong = client.post(
        f"/api/clubs/{club}/players", json=body, headers={"Authorization": "Bearer nope"}
    )
    _refused(wrong, 403, "refusal.club_token")
    assert client.get(f"/api/clubs/{club}").json()["players"] == []


def test_refusals_carry_their_keys_and_write_nothing(client: TestClient) -> None:
    club, token = _club(client)
    client.post(f"/api/clubs/{club}/players", json={"name": "Ann"}, headers=token)
    post = lambda path, body: client.post(f"/api/clubs/{club}{path}", json=body, headers=token)  # noqa: E731
    _refused(post("/players", {"name": "aNN"}), 409, "refusal.club_same_name")
    _refused(post("/players", {"name": " \u200b"}), 422, "refusal.club_player_empty")
    _refused(post("/players", {"name": "x" * 41}), 422, "refusal.club_player_long")
    assert post("/players", {"name": "x" * 201}).status_code == 422
    _refused(post("/players/merge", {"name": "Ann", "into": "ann"}), 422, "refusal.club_merge_self")
    _refused(
        post("/players/rename", {"name": "Zed", "new_name": "Z"}),
        404,
        "refusal.club_player_unknown",
    )
    _refused(post("/attach", {"table": "nosuchid"}), 404, "refusal.club_table_unknown")
    _refused(post("/attach", {}), 422, "refusal.club_attach")
    mcr = client.post("/api/tables", json={"profile": "mcr", "players": ["A", "B", "C", "D"]})
    riichi = post("/tables", {"profile": "riichi", "players": ["E", "F", "G", "H"]})
    assert riichi.status_code == 201
    _refused(post("/attach", {"table": mcr.json()["id"]}), 422, "refusal.club_family")
    _refused(
        client.get(f"/api/clubs/{club}/ratings", params={"as_of": "2025-02-30"}),
        422,
        "refusal.club_date",
    )
    _refused(client.get("/api/clubs/nosuch/ratings"), 404, "refusal.club_unknown")
    names = [player["name"] for player in client.get(f"/api/clubs/{club}").json()["players"]]
    assert names == ["Ann", "E", "F", "G", "H"]


def test_every_players_games_from_the_players_columns(client: TestClient) -> None:
    """The club's export of every player's games: a row per player at each game, each the row
    of that player's own export with their name first, as JSON and as CSV."""
    club, token = _club(client)
    for players, winner, loser in (
        (["Ann", "Ben", "Cat", "Dan"], "Ben", "Ann"),
        (["Ann", "Cat", "Eve", "Fay"], "Eve", "Cat"),
    ):
        made = client.post(
            f"/api/clubs/{club}/tables",
            json={"profile": "riichi", "players": players, "options": RIICHI},
            headers=token,
        ).json()
        hand = {"kind": "win", "winner": winner, "from": loser, "yakuman": 1}
        write = {"Authorization": f"Bearer {made['token']}"}
        assert client.post(f"/api/tables/{made['id']}/hands", json=hand, headers=write).is_success
    every = client.get(f"/api/clubs/{club}/games").json()
    assert (every["club"], every["as_of"], every["since"]) == (club, None, None)
    rows = every["games"]
    assert len(rows) == 8
    assert [row["player"] for row in rows] == [
        "Ann",
        "Cat",
        "Eve",
        "Fay",
        "Ann",
        "Ben",
        "Cat",
        "Dan",
    ]
    for name in ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay"):
        own = client.get(f"/api/clubs/{club}/players/{name}").json()["games"]
        assert [
            {key: value for key, value in row.items() if key != "player"}
            for row in rows
            if row["player"] == name
        ] == own
    text = client.get(f"/api/clubs/{club}/games", params={"format": "csv"})
    assert "Thursday%20Riichi%20games" in text.headers["content-disposition"]
    lines = list(csv.reader(io.StringIO(text.text)))
    assert lines[0] == [
        "player",
        "table",
        "name",
        "finished_at",
        "profile",
        "place",
        "result",
        "opponents",
    ]
    assert [line[0] for line in lines[1:]] == [row["player"] for row in rows]
    assert [line[6] for line in lines[1:]] == [row["result"] for row in rows]
    early = client.get(f"/api/clubs/{club}/games", params={"as_of": "2000-01-01"}).json()
    assert (early["as_of"], early["games"]) == ("2000-01-01", [])
    _refused(client.get("/api/clubs/nosuch/games"), 404, "refusal.club_unknown")

"""An MCR table kept by the ledger (docs/ledger.md, *MCR tables*): a game recorded through the
repository, the command line and the API, corrected, exported, and its standings read by the
event standings as a real table's (`events/standings.py`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from companion.api.app import create_app
from companion.events.standings import StandingRule, table_result
from companion.ledger.errors import TableFinishedError
from companion.ledger.records import DrawRecord, WinnerRecord, WinRecord
from companion.ledger.repository import Ledger
from export_rows import export_rows

NAMES = ("Ann", "Ben", "Cy", "Dee")
A, B, C, D = NAMES


def win(
    winner: str, fan: int, discarder: str | None = None, flowers: int | None = None
) -> WinRecord:
    return WinRecord((WinnerRecord(winner, tai=fan, flowers=flowers),), discarder)


# Twelve draws and four wins: Ann 20 from Ben, Ben's self-draw of 8 + 2 flowers, Cy 16 from
# Dee, Dee 9 from Ann. Ann 36 - 18 - 8 - 17 = -7, Ben -20 + 54 - 8 - 8 = 18, Cy -8 - 18 + 40 - 8
# = 6, Dee -8 - 18 - 24 + 33 = -17.
GAME = [
    win(A, 12, B),
    win(B, 8, flowers=2),
    *[DrawRecord()] * 6,
    win(C, 16, D),
    *[DrawRecord()] * 6,
    win(D, 9, A),
]


def test_a_game_through_the_repository_corrected_and_exported(tmp_path: Path) -> None:
    with Ledger.open(f"sqlite:///{tmp_path / 'm.sqlite3'}") as ledger:
        created = ledger.create_table("mcr", NAMES, options={"flowers": True})
        assert created.setup.planned_hands == 16
        for entry in GAME:
            ledger.record(created.id, entry)
        data = ledger.standings(created.id)
        assert [(row["score"], row["table_points"]) for row in data["players"]] == [
            (-7, "1"),
            (18, "4"),
            (6, "2"),
            (-17, "0"),
        ]
        assert (data["finished"], data["table_points"], data["next_hand"]) == (True, True, None)
        with pytest.raises(TableFinishedError):
            ledger.record(created.id, DrawRecord())
        exported = ledger.export_json(created.id)
        text = ledger.export_csv(created.id)
        # Undo the last hand (a void): the game is playing again, North round, Dee dealing.
        ledger.void(created.id, 16, reason="undo")
        again = ledger.standings(created.id)
        assert (again["finished"], again["round"], again["dealer"], again["next_hand"]) == (
            False,
            "N",
            D,
            16,
        )
        # Table points as the present order would give them: Ben 26, Cy 14, Ann 10, Dee -50.
        assert [(row["score"], row["table_points"]) for row in again["players"]] == [
            (10, "1"),
            (26, "4"),
            (14, "2"),
            (-50, "0"),
        ]
        # An amendment of hand 2 (Ben's flowers were 1) moves everything after it.
        ledger.amend(created.id, 2, win(B, 8, flowers=1), reason="one flower")
        # Ben's self-draw is worth 17 from each, not 18.
        assert [row["score"] for row in ledger.standings(created.id)["players"]] == [
            11,
            23,
            15,
            -49,
        ]
    assert exported["standings"]["players"][1]["table_points"] == "4"
    second = exported["events"][1]
    assert (second["round"], second["dealer"], second["text"]) == (
        "E",
        B,
        "Ben wins 10 fan (agreed, 2 of them flowers), self-drawn",
    )
    assert second["amounts"] == {A: -18, B: 54, C: -18, D: -18}
    rows = export_rows(text)
    assert rows[1]["event"] == "2"
    assert [rows[1][name] for name in (A, B, C, D)] == ["-18", "54", "-18", "-18"]
    assert [rows[1][f"{name} total"] for name in (A, B, C, D)] == ["18", "34", "-26", "-26"]
    assert {column: cell for column, cell in rows[-1].items() if cell} == {
        "kind": "table_points",
        "description": "Table points: 1. Ben 4, 2. Cy 2, 3. Ann 1, 4. Dee 0",
        **dict(zip((A, B, C, D), ["1", "4", "2", "0"], strict=True)),
        **{
            f"{name} total": total
            for name, total in zip((A, B, C, D), ["-7", "18", "6", "-17"], strict=True)
        },
    }


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    from companion.cli import main

    try:
        code = main(list(argv))
    except SystemExit as leave:
        code = int(leave.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_an_mcr_game_from_the_command_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COMPANION_DATABASE_URL", raising=False)
    db = ["--db", f"sqlite:///{tmp_path / 'cli.sqlite3'}"]
    code, out, err = _cli(
        capsys, "table", "new", *db, "--profile", "mcr", "--option", "flowers=true",
        "--players", "Ann,Ben,Cy,Dee",
    )  # fmt: skip
    assert code == 0, err
    table = out.strip()
    code, out, err = _cli(capsys, "table", "win", table, *db, "--winner", A, "--from", B,
                          "--fan", "12")  # fmt: skip
    assert (code, err) == (0, "")
    assert out == (
        "#1   hand 1     E round, Ann deals     Ann wins 12 fan (agreed) on Ben's discard\n"
        "              Ann +36  Ben -20  Cy -8  Dee -8\n"
        "Next: hand 2 of 16, East round hand 2, Ben deals. Table points as it stands:\n"
        "  1. Ann  N     +36     4\n"
        "  2. Cy   S      -8   1.5\n"
        "  2. Dee  W      -8   1.5\n"
        "  4. Ben  E     -20     0  (dealer)\n"
    )
    code, out, err = _cli(capsys, "table", "win", table, *db, "--winner", B, "--self-draw",
                          "--fan", "8", "--flowers", "2")  # fmt: skip
    assert out.splitlines()[0] == (
        "#2   hand 2     E round, Ben deals     Ben wins 10 fan (agreed, 2 of them flowers), "
        "self-drawn"
    )
    code, _, err = _cli(capsys, "table", "win", table, *db, "--winner", C, "--from", D,
                        "--fan", "6")  # fmt: skip
    assert (code, err) == (
        2,
        "companion: a win needs at least 8 fan, flowers not counted; 6 were entered\n",
    )
    hand = tmp_path / "hand.json"
    hand.write_text(json.dumps({"hand": "123m456p789s234s55m"}))
    code, out, err = _cli(capsys, "table", "win", table, *db, "--winner", C, "--from", D,
                          "--hand", str(hand))  # fmt: skip
    assert (code, out.splitlines()[:2]) == (
        0,
        [
            "#3   hand 3     E round, Cy deals      Cy wins 13 fan (hand) on Dee's discard",
            "              Ann -8  Ben -8  Cy +37  Dee -21",
        ],
    )
    for _ in range(13):
        assert _cli(capsys, "table", "draw", table, *db)[0] == 0
    code, out, err = _cli(capsys, "table", "standings", table, *db)
    # Ann 36 - 18 - 8, Ben -20 + 54 - 8, Cy -8 - 18 + 37, Dee -8 - 18 - 21.
    assert out == (
        "Game over: all 16 hands played. Table points:\n"
        "  1. Ben  S     +26     4\n"
        "  2. Cy   W     +11     2\n"
        "  3. Ann  E     +10     1\n"
        "  4. Dee  N     -47     0\n"
    )
    code, _, err = _cli(capsys, "table", "draw", table, *db)
    assert (code, err) == (
        2,
        "companion: the game is over (its 16 hands are all played): no hand is played after it\n",
    )
    data = json.loads(_cli(capsys, "table", "standings", table, *db, "--json")[1])
    assert [(row["name"], row["score"], row["table_points"]) for row in data["players"]] == [
        (A, 10, "1"),
        (B, 26, "4"),
        (C, 11, "2"),
        (D, -47, "0"),
    ]
    code, out, _ = _cli(capsys, "table", "export", table, *db, "--format", "csv")
    table_points = export_rows(out)[-1]
    assert [table_points[name] for name in (A, B, C, D)] == ["1", "4", "2", "0"]
    assert [table_points[f"{name} total"] for name in (A, B, C, D)] == ["10", "26", "11", "-47"]


def test_an_mcr_game_over_the_api_read_by_the_event_standings(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'api.sqlite3'}")) as client:
        created = client.post("/api/tables", json={"profile": "mcr", "players": list(NAMES)}).json()
        assert created["planned_hands"] == 16
        auth = {"authorization": f"Bearer {created['token']}"}
        url = f"/api/tables/{created['id']}"
        body = {"kind": "win", "winner": A, "from": B, "tai": 12}
        preview = client.post(f"{url}/preview", json=body, headers=auth)
        assert preview.status_code == 200, preview.text
        recorded = client.post(f"{url}/hands", json={**body, "expect_hand": 1}, headers=auth)
        assert recorded.status_code == 201, recorded.text
        assert recorded.json()["event"]["text"] == "Ann wins 12 fan (agreed) on Ben's discard"
        refused = client.post(
            f"{url}/hands", json={"kind": "win", "winner": C, "self_draw": True, "tai": 7},
            headers=auth,
        )  # fmt: skip
        assert (refused.status_code, refused.json()) == (
            422,
            {
                "error": "a win needs at least 8 fan, flowers not counted; 7 were entered",
                "error_key": "refusal.mcr_minimum",
                "error_params": {"minimum": 8, "count": 7},
            },
        )
        flowers = client.post(
            f"{url}/hands", json={"kind": "win", "winner": C, "self_draw": True, "tai": 8,
                                  "flowers": 1}, headers=auth,
        )  # fmt: skip
        assert flowers.json()["error"] == "this mcr table plays no flowers (option flowers is off)"
        whole = {
            "kind": "win",
            "winner": C,
            "self_draw": True,
            "hand": {"hand": "234m234p234s678s55p"},
        }
        assert client.post(f"{url}/hands", json=whole, headers=auth).status_code == 201
        for _ in range(14):
            assert (
                client.post(f"{url}/hands", json={"kind": "draw"}, headers=auth).status_code == 201
            )
        late = client.post(f"{url}/hands", json={"kind": "draw"}, headers=auth)
        assert late.status_code == 409
        assert late.json()["error"] == (
            "the game is over (its 16 hands are all played): no hand is played after it"
        )
        standings = client.get(url).json()
    # Hand 2: Cy's self-drawn mixed triple chow, 16 fan: 24 from each.
    assert [(row["score"], row["table_points"]) for row in standings["players"]] == [
        (36 - 24, "2"),
        (-20 - 24, "0"),
        (-8 + 72, "4"),
        (-8 - 24, "1"),
    ]
    result = table_result(created["id"], 1, StandingRule.TABLE_POINTS, standings)
    assert result.finished is True
    assert [(p.name, p.primary, p.secondary) for p in result.players] == [
        (A, 2, 12),
        (B, 0, -44),
        (C, 4, 64),
        (D, 1, -32),
    ]

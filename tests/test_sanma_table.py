"""A sanma table: the riichi points game for three (docs/rules-sanma.md, *The table of three*),
entered as players enter it, every payment and the final standings worked out by hand here;
draws under both noten totals, chombo, bust, the round past the last; the command line, the
API and the exports of a table of three."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from companion.errors import InvalidRequestError
from companion.ledger.build import build_outcome
from companion.ledger.entries import Entry
from companion.ledger.errors import LedgerError
from companion.ledger.records import (
    ChomboRecord,
    DrawRecord,
    Record,
    StopRecord,
    WinnerRecord,
    WinRecord,
)
from companion.ledger.replay import Replay, replay
from companion.ledger.settle import settle_up, transfer_text
from companion.ledger.state import new_setup
from export_rows import export_header, export_rows
from test_ledger_riichi import _cli

AT = datetime(2026, 12, 7, 20, 0, tzinfo=UTC)
NAMES = ("Aki", "Bo", "Chen")
A, B, C = NAMES


class Table:
    """An in-memory record of a table of three, built the way the repository builds it."""

    def __init__(self, **options: Any) -> None:
        self.setup = new_setup("sanma", NAMES, options)
        self.entries: list[Entry] = []

    @property
    def replay(self) -> Replay:
        return replay(self.setup, self.entries)

    def play(self, records: Sequence[Record]) -> Table:
        for record in records:
            built = build_outcome(self.setup, self.replay.state, record)
            self.entries.append(Entry(len(self.entries) + 1, AT, built))
        return self

    def points(self) -> list[tuple[int, ...]]:
        """Each hand's points after it, as the record replays."""
        found = []
        for entry in self.replay.entries:
            assert entry.after.game is not None
            found.append(entry.after.game.points)
        return found

    def labels(self) -> list[str]:
        """The hand each entry was played in."""
        found = []
        for entry in self.replay.entries:
            assert entry.before.game is not None and entry.before.game.hand is not None
            found.append(entry.before.game.hand.label)
        return found

    def standings(self) -> dict[str, Any]:
        return self.replay.state.to_json()


def ron(winner: str, discarder: str, han: int = 0, fu: int | None = None, **more: Any) -> WinRecord:
    riichi = tuple(more.pop("riichi", ()))
    return WinRecord(
        (WinnerRecord(winner, han=han or None, fu=fu, **more),), discarder, None, riichi
    )


def tsumo(winner: str, han: int = 0, fu: int | None = None, **more: Any) -> WinRecord:
    riichi = tuple(more.pop("riichi", ()))
    return WinRecord((WinnerRecord(winner, han=han or None, fu=fu, **more),), None, None, riichi)


def draw(*tenpai: str, riichi: Sequence[str] = ()) -> DrawRecord:
    return DrawRecord(tuple(tenpai), tuple(riichi))


# ---------------------------------------------------------------------------------------------
# A whole hanchan, every payment worked by hand

HANCHAN: list[Record] = [
    # East 1 (Aki deals): Aki (riichi) and Bo tenpai: 1,000 to each from Chen, the noten
    # player (2,000 in all). Aki's stick stays on the table; the dealer keeps the deal.
    draw(A, B, riichi=[A]),
    # East 1, 1 honba: Aki, the dealer, self-draws 2 han 30 fu: base 480, 1,000 from each,
    # and 100 each of the honba's 200: "1000 all", 2,200 and the 1,000 deposit.
    tsumo(A, 2, 30),
    # East 1, 2 honba: Bo 4 han 30 fu on Aki's discard: 7,700 and 400 of honba; Chen's
    # riichi stick goes to Bo. The deal passes.
    ron(B, A, 4, 30, riichi=[C]),
    # East 2 (Bo deals): Chen self-draws a mangan: tsumo loss, 4,000 from the dealer and
    # 2,000 from Aki, nothing from the absent North.
    tsumo(C, limit="mangan"),
    # East 3 (Chen deals): Aki's chombo, a self-drawn mangan reversed: 4,000 to the dealer,
    # 2,000 to Bo. The hand is dealt again: East 3, 0 honba.
    ChomboRecord(A),
    # East 3: Chen alone tenpai: 1,000 from each other. The dealer keeps the deal.
    draw(C),
    # East 3, 1 honba: Aki's haneman on Chen's discard: 12,000 and 200 of honba.
    ron(A, C, 7),
    # South 1 (Aki deals): Bo self-draws 3 han 40 fu: base 1,280: 2,600 from the dealer,
    # 1,300 from Chen.
    tsumo(B, 3, 40),
    # South 2 (Bo deals): nobody tenpai: no payment; the dealer noten passes the deal.
    draw(),
    # South 3, 1 honba (Chen deals, the last hand): Aki 2 han 40 fu on Bo's discard: 2,600
    # and 200 of honba. Bo holds 42,100, past the return (40,000): the game is over.
    ron(A, B, 2, 40),
]


def test_a_hanchan_of_three_through_the_ledger() -> None:
    table = Table().play(HANCHAN)
    assert table.points() == [
        (35_000, 36_000, 33_000),
        (38_200, 34_900, 31_900),
        (30_100, 44_000, 30_900),
        (28_100, 40_000, 36_900),
        (22_100, 42_000, 40_900),
        (21_100, 41_000, 42_900),
        (33_300, 41_000, 30_700),
        (30_700, 44_900, 29_400),
        (30_700, 44_900, 29_400),
        (33_500, 42_100, 29_400),
    ]
    deposits = [entry.after.game.deposits for entry in table.replay.entries]  # type: ignore[union-attr]
    assert deposits == [1_000, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    assert all(
        sum(points) + held == 105_000 for points, held in zip(table.points(), deposits, strict=True)
    )
    assert table.labels() == [
        "East 1, 0 honba",
        "East 1, 1 honba",
        "East 1, 2 honba",
        "East 2, 0 honba",
        "East 3, 0 honba",
        "East 3, 0 honba",
        "East 3, 1 honba",
        "South 1, 0 honba",
        "South 2, 0 honba",
        "South 3, 1 honba",
    ]
    calls = [entry.effective.calls for entry in table.replay.entries if entry.effective]  # type: ignore[union-attr]
    assert [call for call in calls if call] == [
        ("1000 all",),
        ("7700",),
        ("2000-4000",),
        ("12000",),
        ("1300-2600",),
        ("2600",),
    ]
    data = table.standings()
    assert data["finished"] is True and data["ended"] == "last_hand"
    assert [row["seat"] for row in data["players"]] == ["E", "S", "W"]
    assert (data["start_points"], data["return_points"], data["uma"], data["oka"]) == (
        35_000,
        40_000,
        [15, 0, -15],
        15_000,
    )
    # (points - 40,000) / 1000 + uma, and the oka (3 x 5,000) to first place:
    # Bo 2.1 + 15 + 15 = 32.1; Aki -6.5 + 0 = -6.5; Chen -10.6 - 15 = -25.6.
    assert data["results"] == [
        {
            "name": B,
            "place": 1,
            "points": 42_100,
            "uma": 15.0,
            "oka": 15.0,
            "penalty": 0.0,
            "final": 32.1,
            "final_exact": "321/10",
        },
        {
            "name": A,
            "place": 2,
            "points": 33_500,
            "uma": 0.0,
            "oka": 0.0,
            "penalty": 0.0,
            "final": -6.5,
            "final_exact": "-13/2",
        },
        {
            "name": C,
            "place": 3,
            "points": 29_400,
            "uma": -15.0,
            "oka": 0.0,
            "penalty": 0.0,
            "final": -25.6,
            "final_exact": "-128/5",
        },
    ]
    assert [row["final"] for row in data["players"]] == [-6.5, 32.1, -25.6]
    transfers = settle_up(table.replay.state.settle_totals)
    assert [transfer_text(NAMES, transfer) for transfer in transfers] == [
        "Aki pays Bo 6.5",
        "Chen pays Bo 25.6",
    ]
    with pytest.raises(LedgerError, match="the game is over"):
        table.play([draw()])


# ---------------------------------------------------------------------------------------------
# Draws, chombo, the self-draw's payments


@pytest.mark.parametrize(
    ("options", "one_tenpai", "two_tenpai"),
    [
        ({}, (37_000, 34_000, 34_000), (36_000, 36_000, 33_000)),
        ({"noten_total": 3_000}, (38_000, 33_500, 33_500), (36_500, 36_500, 32_000)),
    ],
    ids=["2000", "3000"],
)
def test_the_noten_payments(
    options: dict[str, Any], one_tenpai: tuple[int, ...], two_tenpai: tuple[int, ...]
) -> None:
    """2,000 in all (1,000 from each noten player, 1,000 to each tenpai player), or 3,000
    (1,500 each way); nobody or everybody tenpai pays nothing."""
    assert Table(**options).play([draw(A)]).points() == [one_tenpai]
    assert Table(**options).play([draw(A, B)]).points() == [two_tenpai]
    assert Table(**options).play([draw(A, B, C)]).points() == [(35_000,) * 3]
    assert Table(**options).play([draw()]).points() == [(35_000,) * 3]


def test_a_chombo_under_either_self_draw_payment() -> None:
    """A chombo pays a self-drawn mangan reversed: under bisection each payer adds half of the
    absent North's share (2,000 / 2)."""
    assert Table().play([ChomboRecord(B)]).points() == [(39_000, 29_000, 37_000)]
    assert Table(tsumo="bisection").play([ChomboRecord(B)]).points() == [(40_000, 27_000, 38_000)]
    dealer = Table().play([ChomboRecord(A)])
    assert dealer.points() == [(27_000, 39_000, 39_000)]
    assert dealer.standings()["hand_label"] == "East 1, 0 honba"


def test_a_self_draw_with_kita_scored_from_the_whole_hand() -> None:
    """A whole hand at the table: the table fills in the seat, the round, the honba and the
    deposits; kita are the hand's own field."""
    hand = {
        "hand": "123p456p789s11s99m9m",
        "win_tile": "9m",
        "kita": 2,
        "events": ["riichi"],
    }
    record = WinRecord((WinnerRecord(C, hand=hand),), None, None, ())
    table = Table().play([draw(A), record])
    # East 1, 1 honba: Chen riichi, menzen tsumo and 2 kita: 4 han 30 fu, base 1,920: 3,900
    # from the dealer and 2,000 from Bo, 100 each of the honba; Chen's own stick back.
    assert table.points()[-1] == (37_000 - 4_000, 34_000 - 2_100, 34_000 + 6_100)
    game = table.replay.entries[-1].effective
    assert game is not None and game.game["winners"] == [{"player": 2, "han": 4, "fu": 30}]  # type: ignore[union-attr]


def test_what_three_players_cannot_do_is_refused() -> None:
    with pytest.raises(LedgerError, match="a sanma table has three players in seat order"):
        new_setup("sanma", [*NAMES, "Dana"])
    with pytest.raises(InvalidRequestError, match="option uma must be three whole numbers"):
        new_setup("sanma", NAMES, {"uma": [20, 10, -10, -20]})
    table = Table()
    with pytest.raises(LedgerError, match="no player named Dana"):
        table.play([ron("Dana", A, 1, 30)])
    with pytest.raises(LedgerError, match="the kind is one of nine_terminals, four_kongs"):
        table.play([DrawRecord(abortive="four_winds")])
    assert table.play([DrawRecord(abortive="nine_terminals")]).labels() == ["East 1, 0 honba"]


# ---------------------------------------------------------------------------------------------
# The end of the game


def test_a_bust_ends_the_game() -> None:
    table = Table().play([ron(A, B, limit="mangan"), ron(A, B, yakuman=1)])
    # A dealer's mangan on Bo's discard: 12,000; then a dealer's yakuman, 48,000 and 200.
    assert table.points() == [(47_000, 23_000, 35_000), (95_200, -25_200, 35_000)]
    data = table.standings()
    assert (data["finished"], data["ended"]) == (True, "bust")
    # Aki 55.2 + 15 + 15; Chen -5 + 0; Bo -65.2 - 15.
    assert [row["final"] for row in data["results"]] == [85.2, -5.0, -80.2]


def test_the_game_runs_into_the_next_round_until_someone_has_the_return() -> None:
    """Nobody at 40,000 after South 3: the West round, ended by the first to reach it."""
    table = Table().play([draw() for _ in range(6)])
    assert table.standings()["hand_label"] == "West 1, 6 honba"
    # West 1: Aki, the dealer, 2 han 30 fu self-drawn: 1,000 all and 600 each of 1,200
    # honba: 38,200, short of the return; West 1, 7 honba: Aki's mangan on Bo's discard.
    table.play([tsumo(A, 2, 30), ron(A, B, limit="mangan")])
    assert table.points()[-2:] == [(38_200, 33_400, 33_400), (51_600, 20_000, 33_400)]
    data = table.standings()
    assert (data["finished"], data["ended"]) == (True, "return_reached")
    assert Table().play([draw() for _ in range(9)]).standings()["ended"] == "extension_over"


def test_the_leading_dealer_of_south_3_may_stop() -> None:
    table = Table().play([draw() for _ in range(5)])
    assert table.standings()["hand_label"] == "South 3, 5 honba"
    # Chen, the dealer, self-draws a mangan: 4,000 all and 500 each of 1,000 honba.
    table.play([tsumo(C, limit="mangan"), StopRecord()])
    assert table.points()[-1] == (30_500, 30_500, 44_000)
    data = table.standings()
    assert data["ended"] == "stop"
    # Aki and Bo level: placed by their starting seat (Aki first); Chen 4 + 15 + 15.
    assert [(row["name"], row["final"]) for row in data["results"]] == [
        (C, 34.0),
        (A, -9.5),
        (B, -24.5),
    ]


def test_a_tonpuusen_of_three_is_the_east_round() -> None:
    table = Table(length="tonpuusen").play([ron(B, A, 3, 30), ron(C, A, 3, 30)])
    assert table.standings()["hand_label"] == "East 3, 0 honba"
    table.play([tsumo(B, limit="haneman")])
    # East 3 (Chen deals): Bo's haneman self-drawn: 6,000 from Chen and 3,000 from Aki; Bo at
    # 47,900 has the return: the game is over after its last hand.
    assert table.points()[-1] == (24_200, 47_900, 32_900)
    assert table.standings()["ended"] == "last_hand"


# ---------------------------------------------------------------------------------------------
# The command line, the API, the exports


def test_a_table_of_three_from_the_command_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COMPANION_DATABASE_URL", raising=False)
    db = ["--db", f"sqlite:///{tmp_path / 'cli.sqlite3'}"]
    code, out, err = _cli(capsys, "table", "new", *db, "--profile", "sanma", "--players", "A,B,C,D")
    assert (code, err) == (
        2,
        "companion: a sanma table has three players in seat order, East first; got 4: A, B, C, D\n",
    )
    table = _cli(
        capsys, "table", "new", *db, "--profile", "sanma", "--option", "noten_total=3000",
        "--players", "A,B,C",
    )[1].strip()  # fmt: skip
    assert _cli(capsys, "table", "draw", table, *db, "--tenpai", "A", "--riichi", "A")[0] == 0
    code, out, err = _cli(capsys, "table", "win", table, *db, "--winner", "C", "--self-draw",
                          "--han", "3", "--fu", "30")  # fmt: skip
    assert code == 0, err
    code, out, err = _cli(capsys, "table", "standings", table, *db)
    # East 1: A tenpai alone: 3,000, 1,500 from each; A's stick on the table. East 1, 1 honba:
    # C 3 han 30 fu self-drawn: base 960: 2,000 from the dealer, 1,000 from B, 100 each of the
    # honba, and the deposit: 33,500 + 3,200 + 1,000.
    assert out == (
        "Next: East 2, 0 honba (B deals); on the table: 0 riichi sticks, 0 honba.\n"
        "  A  W    34,900    -2,800\n"
        "  B  E    32,400    -5,300  (dealer)\n"
        "  C  S    37,700     first\n"
    )
    data = json.loads(_cli(capsys, "table", "standings", table, *db, "--json")[1])
    assert [row["points"] for row in data["players"]] == [34_900, 32_400, 37_700]
    assert [row["seat"] for row in data["players"]] == ["W", "E", "S"]
    assert (data["uma"], data["oka"]) == ([15, 0, -15], 15_000)


def test_a_table_of_three_over_the_api(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from companion.api.app import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'api.sqlite3'}")) as client:
        four = client.post("/api/tables", json={"profile": "sanma", "players": [*NAMES, "Dana"]})
        assert four.status_code == 422
        assert four.json()["error"] == (
            "a sanma table has three players in seat order, East first; got 4: Aki, Bo, Chen, Dana"
        )
        created = client.post("/api/tables", json={"profile": "sanma", "players": list(NAMES)})
        assert created.status_code == 201, created.text
        auth = {"authorization": f"Bearer {created.json()['token']}"}
        url = f"/api/tables/{created.json()['id']}"
        body = {"kind": "win", "winner": B, "from": A, "han": 3, "fu": 30, "riichi": [C]}
        recorded = client.post(f"{url}/hands", json={**body, "expect_hand": 1}, headers=auth)
        assert recorded.status_code == 201, recorded.text
        assert (
            recorded.json()["event"]["text"] == "Bo wins 3 han 30 fu on Aki's discard; riichi: Chen"
        )
        draw_body = {"kind": "draw", "tenpai": [A, C]}
        assert client.post(f"{url}/hands", json=draw_body, headers=auth).status_code == 201
        state = client.get(url).json()
        # Bo 3,900 on Aki's discard and Chen's stick; then at East 2 (Bo deals) Aki and Chen
        # tenpai, 1,000 each from Bo; the dealer noten passes the deal, a honba added.
        assert [row["points"] for row in state["players"]] == [32_100, 37_900, 35_000]
        assert (state["hand_label"], state["honba"], state["deposits"]) == (
            "East 3, 1 honba",
            1,
            0,
        )
        assert [row["seat"] for row in state["players"]] == ["S", "W", "E"]
        refused = client.post(
            f"{url}/hands", json={"kind": "win", "winner": A, "from": "Dana", "han": 1, "fu": 30},
            headers=auth,
        )  # fmt: skip
        assert refused.status_code == 422 and "no player named Dana" in refused.json()["error"]


def test_the_exports_of_a_table_of_three(tmp_path: Path) -> None:
    from companion.ledger.repository import Ledger

    with Ledger.open(f"sqlite:///{tmp_path / 'x.sqlite3'}") as ledger:
        created = ledger.create_table("sanma", NAMES)
        for record in HANCHAN:
            ledger.record(created.id, record)
        data = ledger.export_json(created.id)
        text = ledger.export_csv(created.id)
    first = data["events"][0]
    assert first["amounts"] == {A: 0, B: 1_000, C: -2_000}
    assert first["outcome"]["tenpai"] == [A, B] and first["outcome"]["riichi"] == [A]
    assert data["events"][2]["points"] == {A: 30_100, B: 44_000, C: 30_900}
    assert [row["final"] for row in data["standings"]["results"]] == [32.1, -6.5, -25.6]
    points = [f"{name} points" for name in NAMES]
    assert export_header(text)[-7:] == ["hand_label", "riichi", "deposits", "honba", *points]
    rows = export_rows(text)
    assert [rows[2][column] for column in points] == ["30100", "44000", "30900"]
    result = rows[-1]
    final = ["33500", "42100", "29400"]
    assert {column: cell for column, cell in result.items() if cell} == {
        "kind": "result",
        "description": "Final results: 1. Bo 32.1, 2. Aki -6.5, 3. Chen -25.6",
        **dict(zip(NAMES, ["-6.5", "32.1", "-25.6"], strict=True)),
        **{f"{name} total": value for name, value in zip(NAMES, final, strict=True)},
        "deposits": "0",
        "honba": "0",
        **dict(zip(points, final, strict=True)),
    }

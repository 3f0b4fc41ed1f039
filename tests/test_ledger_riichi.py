"""A riichi table on the ledger: whole games of every preset entered as players enter them
(names, han and fu, riichi, tenpai), replayed from the record, against the figures worked out
by hand in tests/test_riichi_game.py (docs/rules-riichi.md, *The table*); corrections replay
the game after them; the refusals."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from companion.ledger.build import build_outcome
from companion.ledger.entries import Correction, Entry, GameHand, outcome_text
from companion.ledger.errors import LedgerError, NotPayableWinError, TableFinishedError
from companion.ledger.records import (
    ChomboRecord,
    DrawRecord,
    Record,
    StopRecord,
    WinnerRecord,
    WinRecord,
)
from companion.ledger.replay import Replay, correction_target, replay
from companion.ledger.settle import settle_up, transfer_text
from companion.ledger.state import new_setup
from export_rows import export_header, export_rows

AT = datetime(2026, 12, 2, 20, 0, tzinfo=UTC)
NAMES = ("Aki", "Bo", "Chen", "Dana")
A, B, C, D = NAMES
FINAL_POINTS = ["35000", "30400", "28300", "26300"]


class Table:
    """An in-memory record, built the way the repository builds it."""

    def __init__(self, preset: str, **options: Any) -> None:
        self.setup = new_setup("riichi", NAMES, {"preset": preset, **options})
        self.events: list[Entry] = []

    @property
    def replay(self) -> Replay:
        return replay(self.setup, self.events)

    def record(self, entry: Record) -> Entry:
        event = Entry(len(self.events) + 1, AT, build_outcome(self.setup, self.replay.state, entry))
        self.events.append(event)
        return event

    def play(self, entries: Sequence[Record]) -> Table:
        for entry in entries:
            self.record(entry)
        return self

    def void(self, seq: int) -> None:
        correction_target(self.replay, seq)
        self.events.append(Entry(len(self.events) + 1, AT, Correction(seq, None, "mistake")))

    def amend(self, seq: int, entry: Record) -> None:
        target = correction_target(self.replay, seq)
        outcome = build_outcome(self.setup, target.before, entry)
        self.events.append(Entry(len(self.events) + 1, AT, Correction(seq, outcome, "mistake")))

    def points(self) -> list[tuple[int, ...]]:
        """Each hand's points after it, as the record replays."""
        found = []
        for entry in self.replay.entries:
            assert entry.after.game is not None
            if entry.effective is not None:
                found.append(entry.after.game.points)
        return found

    def standings(self) -> dict[str, Any]:
        return self.replay.state.to_json()

    def finals(self) -> str:
        """The final results as the standings give them: "1 Dana 45.3, 2 Bo 12.8, ..."."""
        data = self.standings()
        return ", ".join(f"{row['place']} {row['name']} {row['final']}" for row in data["results"])


def ron(winner: str, discarder: str, han: int = 0, fu: int | None = None, **more: Any) -> WinRecord:
    riichi = tuple(more.pop("riichi", ()))
    liable = more.pop("liable", None)
    return WinRecord(
        (WinnerRecord(winner, han=han or None, fu=fu, **more),), discarder, liable, riichi
    )


def tsumo(winner: str, han: int = 0, fu: int | None = None, **more: Any) -> WinRecord:
    riichi = tuple(more.pop("riichi", ()))
    liable = more.pop("liable", None)
    return WinRecord((WinnerRecord(winner, han=han or None, fu=fu, **more),), None, liable, riichi)


def draw(*tenpai: str, riichi: Sequence[str] = (), nagashi: Sequence[str] = ()) -> DrawRecord:
    return DrawRecord(tuple(tenpai), tuple(riichi), tuple(nagashi))


def none_tenpai(count: int) -> list[Record]:
    return [DrawRecord() for _ in range(count)]


# ---------------------------------------------------------------------------------------------
# Whole games, one a preset


def test_a_tenhou_hanchan_through_the_ledger() -> None:
    table = Table("tenhou").play(
        [
            draw(A, B, riichi=[A]),
            draw(D),
            ron(B, D, 4, 30, riichi=[C]),
            tsumo(C, 2, 40),
            ron(D, A, limit="mangan"),
            tsumo(D, 6),
            ron(A, D, 1, 30),
            draw(),
            draw(A, B, C, D, riichi=[B, D]),
            ron(C, A, 3, 40),
            tsumo(B, 3, 20),
            draw(A),
        ]
    )
    assert table.points() == [
        (25_500, 26_500, 23_500, 23_500),
        (24_500, 25_500, 22_500, 26_500),
        (24_500, 39_700, 21_500, 14_300),
        (23_500, 38_100, 25_100, 13_300),
        (15_500, 38_100, 25_100, 21_300),
        (9_500, 32_100, 19_100, 39_300),
        (10_800, 32_100, 19_100, 38_000),
        (10_800, 32_100, 19_100, 38_000),
        (10_800, 31_100, 19_100, 37_000),
        (5_000, 31_100, 26_900, 37_000),
        (4_300, 33_800, 25_600, 36_300),
        (7_300, 32_800, 24_600, 35_300),
    ]
    entries = table.replay.entries
    # East 2, 2 honba: Chen's stick down, Bo 11,600 + 600 and the 2,000 on the table.
    assert entries[2].amounts == (0, 14_200, -1_000, -12_200)
    assert [entry.before.game.hand.label for entry in entries[:3]] == [  # type: ignore[union-attr]
        "East 1, 0 honba",
        "East 1, 1 honba",
        "East 2, 2 honba",
    ]
    body = entries[2].stored.body
    assert isinstance(body, GameHand) and body.calls == ("11600",)
    assert outcome_text(NAMES, body) == "Bo wins 4 han 30 fu on Dana's discard; riichi: Chen"
    data = table.standings()
    assert (data["finished"], data["ended"], data["hand_label"], data["next_hand"]) == (
        True,
        "last_hand",
        None,
        None,
    )
    assert [row["points"] for row in data["players"]] == [7_300, 32_800, 24_600, 35_300]
    assert [row["final"] for row in data["players"]] == [-42.7, 12.8, -15.4, 45.3]
    assert table.finals() == "1 Dana 45.3, 2 Bo 12.8, 3 Chen -15.4, 4 Aki -42.7"
    with pytest.raises(TableFinishedError) as refused:
        table.record(draw())
    assert refused.value.message == (
        "the game is over (the last hand was played): no hand is played after it"
    )
    # Settle-up squares the final results, in thousands of points.
    transfers = settle_up(table.replay.state.settle_totals)
    assert [transfer_text(NAMES, t) for t in transfers] == [
        "Aki pays Dana 42.7",
        "Chen pays Bo 12.8",
        "Chen pays Dana 2.6",
    ]


def test_an_mleague_hanchan_head_bump_liability_nagashi_through_the_ledger() -> None:
    table = Table("mleague").play(
        [
            ChomboRecord(D),
            WinRecord(
                (WinnerRecord(C, limit="mangan"), WinnerRecord(B, han=3, fu=40)), A, None, ()
            ),
            tsumo(C, yakuman=1, liable=D),
            draw(nagashi=[A]),
            ron(D, C, 4, 30),
            draw(A, B, C, D),
            ron(B, A, 1, 30),
            *none_tenpai(3),
            draw(A, riichi=[A]),
        ]
    )
    assert table.points() == [
        (29_000, 27_000, 27_000, 17_000),
        (23_800, 32_200, 27_000, 17_000),
        (23_800, 32_200, 59_000, -15_000),
        (31_800, 30_200, 55_000, -17_000),
        (31_800, 30_200, 42_700, -4_700),
        (31_800, 30_200, 42_700, -4_700),
        (29_900, 32_100, 42_700, -4_700),
        (29_900, 32_100, 42_700, -4_700),
        (29_900, 32_100, 42_700, -4_700),
        (29_900, 32_100, 42_700, -4_700),
        (31_900, 31_100, 41_700, -5_700),
    ]
    texts = [outcome_text(NAMES, entry.stored.body) for entry in table.replay.entries[:4]]  # type: ignore[arg-type]
    assert texts == [
        "Chombo: Dana",
        "Chen wins mangan and Bo wins 3 han 40 fu on Aki's discard",
        "Chen wins yakuman (Dana liable), self-drawn",
        "Exhaustive draw: nobody tenpai; nagashi mangan: Aki",
    ]
    data = table.standings()
    assert data["deposits"] == 1000 and data["finished"]
    # The 1,000 left go to Chen, first.
    assert table.finals() == "1 Chen 62.7, 2 Aki 11.9, 3 Bo -8.9, 4 Dana -65.7"
    assert data["results"][0]["points"] == 42_700


def test_an_ema2016_hanchan_ties_share_and_a_chombo_at_the_end() -> None:
    table = Table("ema2016").play(
        [draw(A, B), ChomboRecord(C), *none_tenpai(7), draw(A, B, riichi=[A, B])]
    )
    data = table.standings()
    assert [row["points"] for row in data["players"]] == [32_000, 32_000, 27_000, 27_000]
    assert table.finals() == "1 Aki 13.0, 1 Bo 13.0, 3 Chen -33.0, 3 Dana -13.0"
    # The penalty is taken off Chen's result and paid to nobody: settle-up squares the rest.
    assert data["results"][2]["penalty"] == 20.0
    transfers = settle_up(table.replay.state.settle_totals)
    assert [transfer_text(NAMES, t) for t in transfers] == [
        "Chen pays Bo 13",
        "Dana pays Aki 13",
    ]


def test_an_ema2025_hanchan_three_winners_kiriage_and_deposits_over_draws() -> None:
    table = Table("ema2025").play(
        [
            WinRecord(
                (
                    WinnerRecord(A, han=4, fu=30),
                    WinnerRecord(C, han=1, fu=30),
                    WinnerRecord(D, han=2, fu=30),
                ),
                B,
                None,
                (D,),
            ),
            ron(A, C, 4, 30),
            draw(B, riichi=[B]),
            draw(),
            ron(D, A, 3, 30),
            *none_tenpai(5),
        ]
    )
    assert table.points()[:5] == [
        (42_000, 15_000, 32_000, 31_000),
        (54_300, 15_000, 19_700, 31_000),
        (53_300, 17_000, 18_700, 30_000),
        (53_300, 17_000, 18_700, 30_000),
        (48_200, 17_000, 18_700, 36_100),
    ]
    first = table.replay.entries[0].stored.body
    assert isinstance(first, GameHand) and first.calls == ("1000", "2000", "12000")
    assert table.finals() == "1 Aki 33.2, 2 Dana 11.1, 3 Chen -16.3, 4 Bo -28.0"


def test_a_wrc_hanchan_head_bump_ties_and_a_chombo() -> None:
    table = Table("wrc").play(
        [
            WinRecord(
                (WinnerRecord(C, limit="mangan"), WinnerRecord(B, han=2, fu=30)), A, None, (B, C)
            ),
            tsumo(B, 3, 60),
            ron(D, B, 2, 25),
            ChomboRecord(D),
            draw(C, D),
            *none_tenpai(2),
            draw(A),
            *none_tenpai(3),
            ron(B, D, 1, 30),
        ]
    )
    assert table.standings()["players"][1]["points"] == 43_700
    assert table.finals() == "1 Bo 28.7, 2 Aki -4.5, 2 Chen -4.5, 4 Dana -39.7"


def test_a_tenhou_bust_ends_the_game_at_once() -> None:
    table = Table("tenhou").play([ron(A, B, yakuman=1, riichi=[C])])
    data = table.standings()
    assert [row["points"] for row in data["players"]] == [74_000, -23_000, 24_000, 25_000]
    assert (data["ended"], data["finished"]) == ("bust", True)
    assert table.finals() == "1 Aki 84.0, 2 Dana 5.0, 3 Chen -16.0, 4 Bo -73.0"


def test_a_tenhou_extension_and_the_dealers_stop() -> None:
    table = Table("tenhou", length="tonpuusen").play([*none_tenpai(4), ron(B, A, 3, 40)])
    labels = [entry.before.game.hand.label for entry in table.replay.entries]  # type: ignore[union-attr]
    assert labels[-1] == "South 1, 4 honba"
    assert table.standings()["ended"] == "return_reached"
    assert table.finals() == "1 Bo 41.4, 2 Chen 5.0, 3 Dana -15.0, 4 Aki -31.4"
    # All-last: dealer Dana wins a mangan on Aki's discard, leads, and stops.
    stop = Table("tenhou", length="tonpuusen").play([*none_tenpai(3), ron(D, A, limit="mangan")])
    stop.record(StopRecord())
    assert stop.standings()["ended"] == "stop"
    assert [entry.hand for entry in stop.replay.entries][-2:] == [4, 5]


# ---------------------------------------------------------------------------------------------
# Corrections replay the game after them


def test_a_void_replays_the_honba_and_deposits_after_it() -> None:
    table = Table("tenhou").play([draw(A, riichi=[A]), ron(B, C, 3, 30)])
    # Bo takes Aki's stick at 1 honba: 3,900 + 300 + 1,000.
    assert table.replay.entries[1].amounts == (0, 5_200, -4_200, 0)
    table.void(1)
    # Without the draw: no stick, no honba.
    assert table.replay.entries[1].amounts == (0, 3_900, -3_900, 0)
    assert table.standings()["hand_label"] == "East 2, 0 honba"


def test_an_outcome_a_correction_made_impossible_counts_nothing() -> None:
    # Bo ron off Aki for a baiman leaves Aki at 9,000... then dealer Aki's yakuman off Bo
    # would bust Bo; amended so that Aki, not Bo, loses the first: Aki under 1,000 cannot
    # declare riichi in the second.
    table = Table("ema2016").play([ron(B, A, limit="baiman"), draw(A, riichi=[A])])
    table.amend(1, ron(B, A, yakuman=1))
    entries = table.replay.entries
    assert entries[1].status == "invalid"
    assert (
        entries[1].refused
        == "riichi: Aki has -2,000 points and cannot put 1,000 down to declare riichi"
    )
    assert entries[1].amounts == (0, 0, 0, 0)
    assert table.standings()["players"][0]["points"] == -2_000


# ---------------------------------------------------------------------------------------------
# Whole hands and refusals


def test_a_whole_hand_is_scored_with_the_tables_seats_honba_and_sticks() -> None:
    # After a draw with Aki tenpai (dealer keeps, 1 honba), Bo declares riichi and wins on
    # Chen's discard: riichi, pinfu, tanyao, 3 han 30 fu: 3,900 + 300, and the stick back.
    table = Table("ema2016").play([draw(A)])
    hand = {"hand": "234m456p678s34588s", "win_tile": "5s", "events": ["riichi"]}
    table.record(WinRecord((WinnerRecord(B, hand=hand),), C))
    entry = table.replay.entries[1]
    body = entry.stored.body
    assert isinstance(body, GameHand)
    assert body.game["riichi"] == [1]
    assert body.game["winners"] == [{"player": 1, "han": 3, "fu": 30}]
    player, request = body.requests[0]
    assert (player, request["seat"], request["honba"], request["riichi_sticks"]) == (1, "S", 1, 1)
    assert outcome_text(NAMES, body) == "Bo wins 3 han 30 fu on Chen's discard; riichi: Bo"
    assert entry.amounts == (0, 4_200, -4_200, 0)


@pytest.mark.parametrize(
    ("entries", "entry", "error", "message"),
    [
        (
            [],
            draw(A, riichi=[B]),
            LedgerError,
            "riichi: Bo declared riichi and is not tenpai at the draw: a riichi without a ready "
            "hand is a chombo; record it as one",
        ),
        ([], ron(A, B, 3), LedgerError, "winner Aki: a hand of 3 han needs its fu"),
        (
            [],
            WinRecord((WinnerRecord(A, tai=3),), B),
            LedgerError,
            "a riichi table counts Aki's hand in han and fu (or yakuman, or a limit), not tai",
        ),
        (
            [],
            StopRecord(),
            LedgerError,
            "stop: this table plays every hand to the end (option all_last_stop)",
        ),
        ([], ron(A, A, 3, 30), LedgerError, "discarder: Aki cannot win on their own discard"),
    ],
)
def test_refusals(
    entries: list[Record], entry: Record, error: type[Exception], message: str
) -> None:
    table = Table("ema2016").play(entries)
    with pytest.raises(error) as refused:
        table.record(entry)
    assert str(refused.value) == message


def test_a_whole_hand_that_is_no_win_is_refused() -> None:
    table = Table("tenhou")
    with pytest.raises(NotPayableWinError) as refused:
        table.record(
            WinRecord((WinnerRecord(B, hand={"hand": "123m456p789s1199m", "win_tile": "9m"}),), C)
        )
    assert str(refused.value).startswith("Bo's hand is not a win")


def test_a_riichi_table_plans_no_hands() -> None:
    with pytest.raises(LedgerError) as refused:
        new_setup("riichi", NAMES, {}, 8)
    assert str(refused.value) == (
        "a riichi game plans no hands or rounds: its length says when it ends "
        "(option length: hanchan or tonpuusen)"
    )


def test_the_results_of_a_share_of_leftover_deposits_are_exact() -> None:
    table = Table("ema2016", length="tonpuusen").play(
        [draw(A, B, C, riichi=[A, B, C]), *none_tenpai(4)]
    )
    data = table.standings()
    # Three tenpai, 1,000 each from Dana, and three sticks down: Aki, Bo and Chen level at
    # 30,000; they share first to third (uma (15 + 5 - 5) / 3 = 5) and the 3,000 left (1,000
    # each): 1 + 5. Dana 27,000: -3 - 15.
    assert data["finished"] and data["deposits"] == 3_000
    assert [row["points"] for row in data["players"]] == [30_000, 30_000, 30_000, 27_000]
    assert [row["final"] for row in data["results"]] == [6.0, 6.0, 6.0, -18.0]
    assert [row["points"] for row in data["results"]] == [31_000, 31_000, 31_000, 27_000]
    assert Fraction(data["results"][0]["final_exact"]) == 6


def test_the_repository_keeps_a_riichi_table(tmp_path: Path) -> None:
    from companion.ledger.repository import Ledger

    with Ledger.open(f"sqlite:///{tmp_path / 'r.sqlite3'}") as ledger:
        created = ledger.create_table("riichi", NAMES, options={"preset": "wrc"})
        ledger.record(created.id, ron(A, B, 3, 40, riichi=[A]))
        ledger.record(created.id, draw(A, C, riichi=[C]))
        data = ledger.standings(created.id)
    assert [row["points"] for row in data["players"]] == [39_200, 20_800, 30_500, 28_500]
    assert (data["deposits"], data["honba"], data["hand_label"]) == (1_000, 2, "East 1, 2 honba")


# ---------------------------------------------------------------------------------------------
# The command line and the API


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    from companion.cli import main

    try:
        code = main(list(argv))
    except SystemExit as leave:
        code = int(leave.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_a_riichi_game_from_the_command_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COMPANION_DATABASE_URL", raising=False)
    db = ["--db", f"sqlite:///{tmp_path / 'cli.sqlite3'}"]
    code, out, err = _cli(
        capsys,
        "table", "new", *db, "--profile", "riichi", "--option", "preset=ema2016",
        "--option", "length=tonpuusen", "--players", "A,B,C,D",
    )  # fmt: skip
    assert code == 0, err
    table = out.strip()
    code, out, err = _cli(
        capsys, "table", "win", table, *db, "--winner", "A", "--from", "B", "--han", "3",
        "--fu", "40", "--riichi", "A",
    )  # fmt: skip
    assert (code, err) == (0, "")
    assert out == (
        "#1   hand 1     East 1, 0 honba        A wins 3 han 40 fu on B's discard; riichi: A\n"
        "              A +7,700  B -7,700\n"
        "Next: East 1, 1 honba (A deals); on the table: 0 riichi sticks, 1 honba.\n"
        "  A  E    37,700     first  (dealer)\n"
        "  B  S    22,300   -15,400\n"
        "  C  W    30,000    -7,700\n"
        "  D  N    30,000    -7,700\n"
    )
    assert _cli(capsys, "table", "draw", table, *db, "--tenpai", "A,C", "--riichi", "C")[0] == 0
    assert (
        _cli(capsys, "table", "win", table, *db, "--winner", "B", "--self-draw", "--han", "5")[0]
        == 0
    )
    code, out, err = _cli(capsys, "table", "standings", table, *db, "--json")
    data = json.loads(out)
    assert [row["points"] for row in data["players"]] == [35_000, 30_400, 28_300, 26_300]
    assert [row["final"] for row in data["players"]] == [None] * 4
    assert (data["deposits"], data["honba"], data["finished"]) == (0, 0, False)
    for _ in range(3):
        assert _cli(capsys, "table", "draw", table, *db)[0] == 0
    data = json.loads(_cli(capsys, "table", "standings", table, *db, "--json")[1])
    # No oka (start = return): (35,000 - 30,000) / 1000 + 15, 0.4 + 5, -1.7 - 5, -3.7 - 15.
    assert [row["final"] for row in data["players"]] == [20.0, 5.4, -6.7, -18.7]
    assert data["finished"] is True
    code, out, err = _cli(capsys, "table", "standings", table, *db)
    assert out == (
        "Game over: the last hand was played. Final results (uma and oka included):\n"
        "  1. A    35,000   +20.0\n"
        "  2. B    30,400    +5.4\n"
        "  3. C    28,300    -6.7\n"
        "  4. D    26,300   -18.7\n"
    )
    code, out, err = _cli(capsys, "table", "draw", table, *db)
    assert (code, err) == (
        2,
        "companion: the game is over (the last hand was played): no hand is played after it\n",
    )
    code, out, err = _cli(capsys, "table", "settle", table, *db)
    assert out == "C pays A 1.3\nC pays B 5.4\nD pays A 18.7\n"


def test_the_command_line_refuses_a_riichi_by_a_player_under_1000(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COMPANION_DATABASE_URL", raising=False)
    db = ["--db", f"sqlite:///{tmp_path / 'cli.sqlite3'}"]
    table = _cli(
        capsys, "table", "new", *db, "--profile", "riichi", "--option", "preset=ema2016",
        "--players", "A,B,C,D",
    )[1].strip()  # fmt: skip
    assert _cli(capsys, "table", "win", table, *db, "--winner", "A", "--from", "B",
                "--yakuman", "1")[0] == 0  # fmt: skip
    code, _, err = _cli(capsys, "table", "draw", table, *db, "--tenpai", "B", "--riichi", "B")
    assert (code, err) == (
        2,
        "companion: riichi: B has -18,000 points and cannot put 1,000 down to declare riichi\n",
    )
    code, _, err = _cli(capsys, "table", "win", table, *db, "--winner", "C", "--from", "B",
                        "--fu", "30")  # fmt: skip
    assert code == 2 and "--fu goes with the --han before it" in err


def test_a_riichi_game_over_the_api(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from companion.api.app import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'api.sqlite3'}")) as client:
        created = client.post(
            "/api/tables",
            json={"profile": "riichi", "players": list(NAMES), "options": {"preset": "wrc"}},
        ).json()
        auth = {"authorization": f"Bearer {created['token']}"}
        url = f"/api/tables/{created['id']}"
        body = {"kind": "win", "winner": A, "from": B, "han": 3, "fu": 40, "riichi": [A]}
        preview = client.post(f"{url}/preview", json=body, headers=auth)
        assert preview.status_code == 200, preview.text
        recorded = client.post(f"{url}/hands", json={**body, "expect_hand": 1}, headers=auth)
        assert recorded.status_code == 201, recorded.text
        assert (
            recorded.json()["event"]["text"] == "Aki wins 3 han 40 fu on Bo's discard; riichi: Aki"
        )
        draw_body = {"kind": "draw", "tenpai": [A, C], "riichi": [C]}
        assert client.post(f"{url}/hands", json=draw_body, headers=auth).status_code == 201
        refused = client.post(
            f"{url}/hands", json={"kind": "draw", "tenpai": [B], "riichi": [D]}, headers=auth
        )
        assert refused.status_code == 422
        assert refused.json()["error"] == (
            "riichi: Dana declared riichi and is not tenpai at the draw: a riichi without a "
            "ready hand is a chombo; record it as one"
        )
        state = client.get(url).json()
        assert [row["points"] for row in state["players"]] == [39_200, 20_800, 30_500, 28_500]
        assert (state["deposits"], state["honba"], state["hand_label"]) == (
            1_000,
            2,
            "East 1, 2 honba",
        )
        chombo = client.post(f"{url}/hands", json={"kind": "chombo", "player": D}, headers=auth)
        assert chombo.status_code == 201
        assert chombo.json()["event"]["text"] == "Chombo: Dana"
        spec = client.get("/openapi.json").json()
        record = spec["paths"]["/api/tables/{table_id}/hands"]["post"]
        assert "a `riichi`, `sanma` chombo" in record["description"]


def test_the_exports_carry_every_hands_points_the_sticks_and_the_final_results(
    tmp_path: Path,
) -> None:
    from companion.ledger.repository import Ledger

    with Ledger.open(f"sqlite:///{tmp_path / 'x.sqlite3'}") as ledger:
        created = ledger.create_table(
            "riichi", NAMES, options={"preset": "ema2016", "length": "tonpuusen"}
        )
        for entry in [ron(A, B, 3, 40, riichi=[A]), draw(A, C, riichi=[C]), tsumo(B, 5)]:
            ledger.record(created.id, entry)
        for _ in range(3):
            ledger.record(created.id, draw())
        data = ledger.export_json(created.id)
        text = ledger.export_csv(created.id)
    second = data["events"][1]
    assert (second["hand_label"], second["deposits"], second["honba"]) == (
        "East 1, 1 honba",
        1_000,
        2,
    )
    assert second["outcome"]["tenpai"] == [A, C] and second["outcome"]["riichi"] == [C]
    assert second["amounts"] == {A: 1_500, B: -1_500, C: 500, D: -1_500}
    assert data["events"][2]["points"] == {A: 35_000, B: 30_400, C: 28_300, D: 26_300}
    assert [row["final"] for row in data["standings"]["results"]] == [20.0, 5.4, -6.7, -18.7]
    points = [f"{name} points" for name in NAMES]
    assert export_header(text)[-8:] == ["hand_label", "riichi", "deposits", "honba", *points]
    rows = export_rows(text)
    second_row = rows[1]
    assert [second_row[column] for column in ("hand_label", "riichi", "deposits", "honba")] == [
        "East 1, 1 honba",
        "Chen",
        "1000",
        "2",
    ]
    assert [second_row[column] for column in points] == ["39200", "20800", "30500", "28500"]
    result = rows[-1]
    assert {column: cell for column, cell in result.items() if cell} == {
        "kind": "result",
        "description": "Final results: 1. Aki 20.0, 2. Bo 5.4, 3. Chen -6.7, 4. Dana -18.7",
        **dict(zip(NAMES, ["20.0", "5.4", "-6.7", "-18.7"], strict=True)),
        **{f"{name} total": value for name, value in zip(NAMES, FINAL_POINTS, strict=True)},
        "deposits": "0",
        "honba": "3",
        **dict(zip(points, FINAL_POINTS, strict=True)),
    }

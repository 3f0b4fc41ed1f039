"""`companion table ...`: the command names other programs depend on, their output, refusals."""

from __future__ import annotations

import csv
import io
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.ledger import db

LAN_ADDRESS = os.environ["COMPANION_LAN_ADDRESS"]
"""The machine's network address as tests/conftest.py gives it to every test."""


@pytest.fixture
def url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.delenv(db.ENV_URL, raising=False)
    return f"sqlite:///{tmp_path / 'cli.sqlite3'}"


def run(capsys: pytest.CaptureFixture[str], *argv: str, stdin: str = "") -> tuple[int, str, str]:
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        code = main(list(argv))
    except SystemExit as leave:
        code = int(leave.code or 0)
    finally:
        sys.stdin = old_stdin
    out, err = capsys.readouterr()
    return code, out, err


def ok(capsys: pytest.CaptureFixture[str], *argv: str, stdin: str = "") -> str:
    code, out, err = run(capsys, *argv, stdin=stdin)
    assert code == 0, err
    return out


def new_table(capsys: pytest.CaptureFixture[str], url: str, *extra: str) -> str:
    out = ok(capsys, "table", "new", "--players", "Ann,Ben,Cat,Dan", "--db", url, *extra)
    return out.strip()


def standings(capsys: pytest.CaptureFixture[str], url: str, table: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        ok(capsys, "table", "standings", table, "--json", "--db", url)
    )
    return data


def test_new_prints_the_id_and_with_json_the_token(
    capsys: pytest.CaptureFixture[str], url: str
) -> None:
    code, out, err = run(
        capsys, "table", "new", "--profile", "sg", "--players", "Ann,Ben,Cat,Dan", "--db", url
    )
    assert code == 0
    assert len(out.strip().split()) == 1  # only the id on stdout, for $(...)
    table = out.strip()
    assert err.splitlines()[1:] == [
        "Write link, for whoever records the hands (shown once: it holds the write token):",
        f"  http://{LAN_ADDRESS}:8000/t/{table}#token={err.split('#token=')[1].split()[0]}",
        "Read-only link, for everyone watching:",
        f"  http://{LAN_ADDRESS}:8000/t/{table}",
    ]
    data = json.loads(
        ok(
            capsys,
            *("table", "new", "--profile", "tw", "--players", "Ann,Ben,Cat,Dan"),
            *("--option", "per_tai=2", "--hands", "16", "--json", "--db", url),
        )
    )
    assert {"id", "token"} <= set(data)
    assert data["read_link"] == f"http://{LAN_ADDRESS}:8000/t/{data['id']}"
    assert data["write_link"] == f"{data['read_link']}#token={data['token']}"
    assert data["options"] == {"per_tai": 2} and data["planned_hands"] == 16


def test_new_prints_the_links_with_the_public_url(
    capsys: pytest.CaptureFixture[str], url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COMPANION_PUBLIC_URL", "https://mahjong.example/club/")
    new = ("table", "new", "--players", "Ann,Ben,Cat,Dan", "--json", "--db", url)
    data = json.loads(ok(capsys, *new))
    assert data["read_link"] == f"https://mahjong.example/club/t/{data['id']}"
    data = json.loads(ok(capsys, *new, "--public-url", "http://10.0.0.7:8080"))
    assert data["write_link"] == f"http://10.0.0.7:8080/t/{data['id']}#token={data['token']}"
    code, _, err = run(capsys, *new, "--public-url", "mahjong.example")
    assert code == 2
    assert err.startswith("companion: --public-url: 'mahjong.example' is not an http:// or")


def test_a_session_from_the_command_line(
    capsys: pytest.CaptureFixture[str], url: str, tmp_path: Path
) -> None:
    table = new_table(capsys, url, "--profile", "sg-table", "--option", "min_tai=1")
    out = ok(capsys, "table", "win", table, "--winner", "Ann", "--from", "Ben", "--tai", "3",
             "--db", url)  # fmt: skip
    assert "Ann wins 3 tai (agreed) on Ben's discard" in out
    assert "Ann +16  Ben -8  Cat -4  Dan -4" in out
    hand = tmp_path / "hand.json"
    hand.write_text(
        json.dumps({"hand": "123m456p55s", "melds": ["pung 777z", "pung 666z"], "bonus": "2f"})
    )
    ok(capsys, "table", "win", table, "--winner", "Ben", "--self-draw", "--hand", str(hand),
       "--db", url)  # fmt: skip
    ok(capsys, "table", "draw", table, "--db", url)
    ok(capsys, "table", "payout", table, "--player", "Cat", "--event", "bite", "--at-start",
       "--db", url)  # fmt: skip
    ok(capsys, "table", "win", table, "--winner", "Dan", "--from", "Ann", "--tai", "1",
       "--liable", "Cat", "--db", url)  # fmt: skip
    data = standings(capsys, url, table)
    assert {"players", "hands", "dealer", "round"} <= set(data)
    assert data["hands"] == 4 and data["round"] == "E"
    # Ann kept the deal, Ben's self-draw took it, the draw kept it, Dan's win passed it on.
    assert data["dealer"] == "Cat"
    history = json.loads(ok(capsys, "table", "history", table, "--json", "--db", url))
    assert [e["kind"] for e in history] == ["win", "win", "draw", "payout", "win"]
    sums = {name: sum(e["amounts"][name] for e in history) for name in ("Ann", "Ben")}
    totals = {p["name"]: p["total"] for p in data["players"]}
    assert totals["Ann"] == sums["Ann"] and totals["Ben"] == sums["Ben"]
    assert history[1]["outcome"]["winners"][0]["entry"] == "hand"
    assert history[4]["outcome"]["liable"] == "Cat"
    assert sum(totals.values()) == 0


def test_void_amend_history_settle_and_export(
    capsys: pytest.CaptureFixture[str], url: str, tmp_path: Path
) -> None:
    table = new_table(capsys, url)
    ok(capsys, "table", "win", table, "--winner", "Ben", "--from", "Ann", "--tai", "2", "--db", url)
    ok(capsys, "table", "win", table, "--winner", "Cat", "--self-draw", "--tai", "1", "--db", url)
    out = ok(capsys, "table", "void", table, "2", "--reason", "not a win", "--by", "Dan",
             "--db", url)  # fmt: skip
    assert "voids #2" in out and "by Dan" in out and "not a win" in out
    ok(capsys, "table", "amend", table, "1", "--reason", "it was Cat", "--winner", "Cat",
       "--from", "Ann", "--tai", "2", "--db", url)  # fmt: skip
    history = ok(capsys, "table", "history", table, "--db", url)
    # The amended hand is shown as amended (its amounts are Cat's), with what was entered.
    assert (
        "[amended by #4] Cat wins 2 tai (agreed) on Ann's discard (entered as: Ben wins 2 tai"
        in history
    )
    assert "[void, see #3]" in history
    assert "correction: voids #2 (by Dan" in history
    assert "correction: amends #1 to: Cat wins 2 tai (agreed) on Ann's discard (from the " in (
        history
    )
    assert "unknown" not in history
    assert ok(capsys, "table", "settle", table, "--db", url) == (
        "Ann pays Cat 4\nBen pays Cat 2\nDan pays Cat 2\n"
    )
    settle = json.loads(ok(capsys, "table", "settle", table, "--json", "--db", url))
    assert settle[0] == {"from": "Ann", "to": "Cat", "amount": "4", "text": "Ann pays Cat 4"}
    rows = list(csv.DictReader(io.StringIO(ok(capsys, "table", "export", table, "--format",
                                              "csv", "--db", url))))  # fmt: skip
    assert [r["status"] for r in rows] == ["amended", "voided", "void", "amend"]
    assert rows[0]["Cat"] == "8" and rows[0]["Cat total"] == "8"
    target = tmp_path / "out.json"
    ok(capsys, "table", "export", table, "--format", "json", "-o", str(target), "--db", url)
    exported = json.loads(target.read_text())
    assert exported["standings"]["dealer"] == "Ben"
    assert exported["events"][3]["reason"] == "it was Cat"


def test_the_key_makes_a_double_tap_harmless(capsys: pytest.CaptureFixture[str], url: str) -> None:
    table = new_table(capsys, url)
    argv = ("table", "win", table, "--winner", "Ann", "--self-draw", "--tai", "2", "--key", "t1")
    ok(capsys, *argv, "--db", url)
    out = ok(capsys, *argv, "--db", url)
    assert "Already recorded as entry 1" in out
    code, _, err = run(capsys, *argv[:-4], "--tai", "3", "--key", "t1", "--db", url)
    assert code == 2 and "already used for entry 1" in err
    assert standings(capsys, url, table)["hands"] == 1


def test_the_database_comes_from_the_environment(
    capsys: pytest.CaptureFixture[str], url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(db.ENV_URL, url)
    table = ok(capsys, "table", "new", "--players", "Ann,Ben,Cat,Dan").strip()
    ok(capsys, "table", "draw", table, "--json")
    assert standings(capsys, url, table)["hands"] == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["win", "{id}", "--winner", "Eve", "--self-draw", "--tai", "1"], "no player named Eve"),
        (["win", "{id}", "--winner", "Ann", "--tai", "1"], "--from NAME (a discard) or --self"),
        (["win", "{id}", "--winner", "Ann", "--self-draw"], "one --tai or --hand per winner"),
        (["win", "{id}", "--winner", "Ann", "--self-draw", "--tai", "0"], "minimum of 1"),
        (["win", "{id}", "--winner", "Ann", "--self-draw", "--hand", "nope.json"], "cannot read"),
        (["payout", "{id}", "--player", "Ann", "--event", "bite"], "no instant payouts"),
        (["void", "{id}", "7", "--reason", "x"], "no entry 7"),
        (["amend", "{id}", "1", "--reason", "x"], "give the corrected entry"),
        (["standings", "nope"], "no table with id 'nope'"),
        (["draw", "{id}", "--expect-hand", "2"], "not being played yet: the next is hand 1"),
    ],
)
def test_refusals_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], url: str, argv: list[str], message: str
) -> None:
    table = new_table(capsys, url)
    code, out, err = run(capsys, "table", *(a.format(id=table) for a in argv), "--db", url)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1 and out == ""


def test_a_hand_can_come_from_standard_input(capsys: pytest.CaptureFixture[str], url: str) -> None:
    table = new_table(capsys, url)
    hand = {"hand": "123m456p55s", "melds": ["pung 777z", "pung 666z"]}
    out = ok(capsys, "table", "win", table, "--winner", "Ann", "--from", "Ben", "--hand", "-",
             "--json", "--db", url, stdin=json.dumps(hand))  # fmt: skip
    recorded = json.loads(out)
    assert recorded["event"]["outcome"]["winners"][0]["tai"] == 2
    assert recorded["standings"]["players"][0]["total"] == 8


@pytest.mark.parametrize("hands", ["٣", "²", "9" * 5000, "9223372036854775808", "1_000"])
def test_numbers_on_the_command_line_are_read_as_the_server_reads_them(
    capsys: pytest.CaptureFixture[str], url: str, hands: str
) -> None:
    """`int` would read `٣` as 3 and thousands of digits in quadratic time; argparse is given
    the same bounded reading as a form field, and refuses in one line naming the flag."""
    code, out, err = run(
        capsys, "table", "new", "--db", url, "--players", "Ann,Ben,Cat,Dan", "--hands", hands
    )
    shown = hands if len(hands) <= 20 else hands[:20] + "…"
    assert code == 2 and out == ""
    assert (
        f"argument --hands: {shown!r} is not a whole number in digits 0-9 up to "
        "9,007,199,254,740,992"
    ) in err


def test_the_history_says_who_corrected_or_that_nobody_was_named() -> None:
    from companion.cli.table_show import who_corrected

    assert who_corrected("Dan") == "by Dan"
    assert who_corrected("the command line") == "from the command line"
    assert who_corrected("") == "no name given"  # an undo on the page that named nobody

"""`companion event ...` as a user types it: the output, exactly, and the refusals."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from companion.ledger import db
from export_rows import export_rows
from test_ledger_cli import ok, run

SERVER = "http://127.0.0.1:8000"


@pytest.fixture
def url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.delenv(db.ENV_URL, raising=False)
    return f"sqlite:///{tmp_path / 'events.sqlite3'}"


@pytest.fixture
def players_file(tmp_path: Path) -> str:
    path = tmp_path / "players.txt"
    # Blank lines and the spaces around a name are left out.
    path.write_text("Ann\nBen\n\n  Cat  \nDan\nEve\nFay\n\nGus\nHal\n\n", encoding="utf-8")
    return str(path)


def new_event(capsys: pytest.CaptureFixture[str], url: str, players: str, *extra: str) -> str:
    out = ok(
        capsys,
        *("event", "new", "--name", "Club night", "--profile", "sg", "--players-file", players),
        *("--rounds", "2", "--seed", "7", "--first-round", "listed", "--hands", "1"),
        *("--db", url, "--public-url", SERVER, *extra),
    )
    return out.strip()


def test_new_prints_the_id_and_the_organisers_link(
    capsys: pytest.CaptureFixture[str], url: str, players_file: str
) -> None:
    code, out, err = run(
        capsys,
        *("event", "new", "--name", "Club night", "--profile", "sg"),
        *("--players-file", players_file, "--rounds", "2", "--db", url),
        *("--public-url", SERVER),
    )
    assert code == 0
    event = out.strip()
    assert re.fullmatch(r"[a-z2-9]{8}", event)  # only the id on stdout, for $(...)
    token = err.split("#token=")[1].split()[0]
    assert err.splitlines() == [
        f"Event {event} (sg): Club night, 8 players, 2 rounds; seat round 1 with: "
        f"companion event seat {event} --round 1",
        "Organiser's link (shown once: it holds the organiser's token):",
        f"  {SERVER}/e/{event}#token={token}",
        "Leaderboard, for everyone:",
        f"  {SERVER}/e/{event}",
    ]
    code, out, err = run(
        capsys,
        *("event", "new", "--name", "League", "--profile", "riichi"),
        *("--option", "preset=tenhou", "--players-file", "-", "--rounds", "3", "--json"),
        *("--db", url, "--public-url", SERVER, "--leftover", "byes"),
        stdin="Ann\nBen\nCat\nDan\nEve\n",
    )
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert set(data) == {"id", "token", "organiser_link", "read_link", "event"}
    assert data["organiser_link"] == f"{SERVER}/e/{data['id']}#token={data['token']}"
    assert (data["event"]["profile"], data["event"]["options"]) == ("riichi", {"preset": "tenhou"})
    assert [player["name"] for player in data["event"]["players"]] == [
        "Ann",
        "Ben",
        "Cat",
        "Dan",
        "Eve",
    ]
    assert (data["event"]["leftover"], data["event"]["rounds"]) == ("byes", 3)


def test_an_event_from_the_command_line(
    capsys: pytest.CaptureFixture[str], url: str, players_file: str
) -> None:
    event = new_event(capsys, url, players_file)
    code, out, err = run(
        capsys, "event", "seat", event, "--round", "1", "--db", url, "--public-url", SERVER
    )
    assert code == 0, err
    one, two = re.findall(r"Table \d \(([a-z2-9]{8}),", out)
    assert out.splitlines() == [
        "Round 1: 2 tables, 0 repeats (0 so far, 0 unavoidable), 0 seat repeats",
        f"  Table 1 ({one}, 0 hands): East Ann, South Ben, West Cat, North Dan",
        f"  Table 2 ({two}, 0 hands): East Eve, South Fay, West Gus, North Hal",
    ]
    links = re.findall(r"Table (\d): (\S+)", err)
    assert [(number, link.split("#token=")[0]) for number, link in links] == [
        ("1", f"{SERVER}/t/{one}"),
        ("2", f"{SERVER}/t/{two}"),
    ]
    # The tables are ordinary tables: hands recorded with `companion table`.
    win = ("table", "win", "--db", url)
    ok(capsys, *win, one, "--winner", "Cat", "--from", "Ann", "--tai", "2")
    ok(capsys, *win, two, "--winner", "Eve", "--from", "Hal", "--tai", "3")
    ok(capsys, "event", "penalty", event, "--player", "Eve", "--amount", "-5", "--reason",
       "late", "--by", "Mia", "--db", url)  # fmt: skip
    assert ok(capsys, "event", "standings", event, "--db", url).splitlines() == [
        "Club night (money)",
        "   1 Eve       +11  1 table; -5 late",
        "   2 Cat        +8  1 table",
        "  3= Ben        -2  1 table",
        "  3= Dan        -2  1 table",
        "  5= Ann        -4  1 table",
        "  5= Fay        -4  1 table",
        "  5= Gus        -4  1 table",
        "   8 Hal        -8  1 table",
    ]
    data = json.loads(ok(capsys, "event", "standings", event, "--json", "--db", url))
    assert [(row["name"], row["total"], row["rank"]) for row in data["rows"]] == [
        ("Eve", 11, 1),
        ("Cat", 8, 2),
        ("Ben", -2, 3),
        ("Dan", -2, 3),
        ("Ann", -4, 5),
        ("Fay", -4, 5),
        ("Gus", -4, 5),
        ("Hal", -8, 8),
    ]
    assert (data["id"], data["name"], data["rule"]) == (event, "Club night", "money")

    assert ok(capsys, "event", "join", event, "--player", "Ivy", "--round", "2",
              "--db", url) == "Ivy joins in round 2.\n"  # fmt: skip
    assert ok(capsys, "event", "withdraw", event, "--player", "hal", "--after-round", "1",
              "--db", url) == "Hal withdraws after round 1.\n"  # fmt: skip
    second = json.loads(ok(capsys, "event", "seat", event, "--round", "2", "--json", "--db", url))
    assert second["round"] == 2
    assert sorted(name for table in second["tables"] for name in table["players"]) == [
        "Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Ivy"
    ]  # fmt: skip
    assert set(second["write_links"]) == {table["table"] for table in second["tables"]}
    timer = ok(capsys, "event", "timer", event, "--round", "2", "--minutes", "45", "--db", url)
    assert re.fullmatch(r"Round 2: 45 minutes, ends at \d\d:\d\d UTC\.\n", timer)

    shown = ok(capsys, "event", "show", event, "--db", url).splitlines()
    assert shown[:5] == [
        f"Club night ({event}, sg): 2 rounds, seed 7, round 1 listed, later rounds no-repeats",
        "Players (9): Ann, Ben, Cat, Dan, Eve, Fay, Gus, Hal (withdrew after round 1), "
        "Ivy (from round 2)",
        # Hal's place taken by Ivy: of round 1's eight, seven meet in two tables again.
        "Repeats (two players meeting again at a table): at least 3 cannot be avoided over "
        "2 rounds.",
        "Round 2: 0 of 2 tables finished",
        "Round 1: 2 tables, 0 repeats (0 so far, 0 unavoidable), 0 seat repeats",
    ]
    assert shown[5] == f"  Table 1 ({one}, finished): East Ann, South Ben, West Cat, North Dan"
    assert re.fullmatch(r"  Timer: 45 minutes, ends at \d\d:\d\d UTC", shown[-1])

    rows = export_rows(ok(capsys, "event", "export", event, "--format", "csv", "--db", url))
    columns = ["rank", "name", "total", "tied", "tables", "withdrawn", "provisional", "adjustments"]
    assert [rows[0][column] for column in columns] == [
        "1", "Eve", "11", "", "2", "", "yes", "late (Mia): -5"
    ]  # fmt: skip
    assert [rows[-1][column] for column in columns] == ["9", "Hal", "-8", "", "1", "yes", "", ""]
    exported: dict[str, Any] = json.loads(ok(capsys, "event", "export", event, "--db", url))
    assert [table["table"]["id"] for table in exported["tables"]][:2] == [one, two]
    assert [entry["kind"] for entry in exported["audit"]] == [
        "create", "seat", "adjust", "join", "withdraw", "seat", "timer"
    ]  # fmt: skip


def test_refusals_are_one_line_with_exit_status_2(
    capsys: pytest.CaptureFixture[str], url: str, tmp_path: Path, players_file: str
) -> None:
    eighteen = tmp_path / "eighteen.txt"
    eighteen.write_text("\n".join(f"P{number}" for number in range(1, 19)), encoding="utf-8")
    base = ("event", "new", "--name", "N", "--rounds", "2", "--db", url)
    assert run(capsys, *base, "--players-file", str(eighteen)) == (
        2,
        "",
        "companion: 18 players leave 2 over at tables of four: "
        "bring in 2 more to substitute, or give 2 of them a bye\n",
    )
    assert run(capsys, *base, "--players-file", str(tmp_path / "none.txt")) == (
        2,
        "",
        f"companion: cannot read {tmp_path / 'none.txt'}: No such file or directory\n",
    )
    event = new_event(capsys, url, players_file)
    assert run(capsys, "event", "seat", event, "--round", "2", "--db", url) == (
        2,
        "",
        "companion: round 1 is the next to seat; got round 2\n",
    )
    assert run(capsys, "event", "standings", "nope", "--db", url) == (
        2,
        "",
        "companion: no event with id 'nope'\n",
    )
    assert run(
        capsys,
        "event",
        "penalty",
        event,
        "--player",
        "Ann",
        "--amount",
        "x",
        "--reason",
        "r",
        "--db",
        url,
    ) == (
        2,
        "",
        "companion: an amount is a number such as -10, 2.5 or 5/2; got 'x'\n",
    )
    assert (
        ok(capsys, "event", "standings", event, "--db", url) == "Club night: no table seated yet.\n"
    )


def test_players_typed_in_and_an_uneven_field_said_by_show(
    capsys: pytest.CaptureFixture[str], url: str
) -> None:
    event = ok(
        capsys,
        *("event", "new", "--name", "Typed", "--players", "Ann, Ben,Cat,Dan,,Eve,Fay,Gus,Hal"),
        *("--rounds", "2", "--first-round", "listed", "--db", url),
    ).strip()
    ok(capsys, "event", "seat", event, "--round", "1", "--db", url)
    ok(capsys, "event", "withdraw", event, "--player", "Ann", "--after-round", "1", "--db", url)
    shown = ok(capsys, "event", "show", event, "--db", url).splitlines()
    assert shown[1:3] == [
        "Players (8): Ann (withdrew after round 1), Ben, Cat, Dan, Eve, Fay, Gus, Hal",
        "The next round cannot be seated: in round 2, 7 players leave 3 over at tables of four: "
        "bring in 1 more to substitute, or give 3 of them a bye",
    ]
    assert run(capsys, "event", "seat", event, "--round", "2", "--db", url)[2] == (
        "companion: in round 2, 7 players leave 3 over at tables of four: bring in 1 more to "
        "substitute, or give 3 of them a bye\n"
    )


def test_a_round_is_seated_while_tables_play_only_with_confirm(
    capsys: pytest.CaptureFixture[str], url: str, players_file: str
) -> None:
    # Issue 37: round 2 was seated with one tap while round 1 still played.
    event = new_event(capsys, url, players_file)
    first = json.loads(ok(capsys, "event", "seat", event, "--round", "1", "--json", "--db", url))
    one, two = (table["table"] for table in first["tables"])
    ok(capsys, "table", "win", "--db", url, one, "--winner", "Cat", "--from", "Ann", "--tai", "2")
    assert run(capsys, "event", "seat", event, "--round", "2", "--db", url) == (
        2,
        "",
        "companion: round 2 is not seated: tables still playing\n"
        f"  Table 2 of round 1 ({two})\n"
        f"Seat it all the same with: companion event seat {event} --round 2 --confirm\n",
    )
    assert ok(capsys, "event", "show", event, "--db", url).count("Round 2") == 0
    code, out, _ = run(capsys, "event", "seat", event, "--round", "2", "--confirm", "--db", url)
    assert (code, out.splitlines()[0][:8]) == (0, "Round 2:")


def test_unseat_takes_the_last_seating_back_before_its_first_hand(
    capsys: pytest.CaptureFixture[str], url: str, players_file: str
) -> None:
    event = new_event(capsys, url, players_file)
    first = json.loads(ok(capsys, "event", "seat", event, "--round", "1", "--json", "--db", url))
    one = first["tables"][0]["table"]
    ok(capsys, "table", "win", "--db", url, one, "--winner", "Cat", "--from", "Ann", "--tai", "2")
    assert run(capsys, "event", "unseat", event, "--round", "1", "--db", url) == (
        2,
        "",
        "companion: table 1 of round 1 has a hand recorded: a round's seating is taken back "
        "only before any of its tables records one\n",
    )
    second = json.loads(
        ok(capsys, "event", "seat", event, "--round", "2", "--confirm", "--json", "--db", url)
    )
    three, four = (table["table"] for table in second["tables"])
    assert run(capsys, "event", "unseat", event, "--round", "1", "--db", url)[0] == 2
    assert ok(capsys, "event", "unseat", event, "--round", "2", "--by", "Mia", "--db", url) == (
        f"Round 2's seating taken back; its tables are no longer the event's: table 1 "
        f"({three}), table 2 ({four}).\n"
    )
    shown = ok(capsys, "event", "show", event, "--db", url)
    assert three not in shown and "Round 1: 1 of 2 tables finished" in shown
    assert run(capsys, "event", "unseat", event, "--round", "2", "--db", url) == (
        2,
        "",
        "companion: round 2 is not seated: there is nothing to take back\n",
    )

"""`companion club ...` and `--club` on `companion table new` and `companion event new`: the
roster kept, the ratings and a player's page printed and exported, refusals on exit status 2
with nothing written."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from club_season import play_season
from companion.ledger import db
from companion.ledger.club_book.service import ClubBook
from companion.ledger.repository import Ledger
from test_ledger_cli import ok, run

SERVER = "http://127.0.0.1:8000"
RIICHI = ("--profile", "riichi", "--option", "preset=tenhou", "--option", "length=tonpuusen")


@pytest.fixture
def url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.delenv(db.ENV_URL, raising=False)
    return f"sqlite:///{tmp_path / 'clubs.sqlite3'}"


def club(capsys: pytest.CaptureFixture[str], url: str, *words: str) -> str:
    return ok(capsys, "club", *words, "--db", url)


def as_json(capsys: pytest.CaptureFixture[str], url: str, *words: str) -> Any:
    return json.loads(club(capsys, url, *words, "--json"))


def test_a_club_from_the_command_line(capsys: pytest.CaptureFixture[str], url: str) -> None:
    code, out, err = run(
        capsys, "club", "new", "--name", " Thursday  Riichi ", "--db", url, "--public-url", SERVER
    )
    assert code == 0
    club_id = out.strip()
    assert f"{SERVER}/c/{club_id}/organise#token=" in err
    assert club(capsys, url, "player", "add", club_id, "Ann", "--nickname", "Annie") == (
        "Added: Ann (Annie)\n"
    )
    code, out, err = run(
        capsys,
        "table",
        "new",
        "--club",
        club_id,
        *RIICHI,
        "--players",
        "ann,Ben,Cat,Dan",
        "--db",
        url,
    )
    assert code == 0
    table = out.strip()
    assert f"Club {club_id}: joined the club's roster: Ben, Cat, Dan (already on it: ann)" in err
    ok(
        capsys,
        "table",
        "win",
        table,
        "--winner",
        "Ben",
        "--from",
        "ann",
        "--yakuman",
        "1",
        "--db",
        url,
    )
    board = as_json(capsys, url, "ratings", club_id)
    assert [row["name"] for row in board["players"]] == ["Ben", "Cat", "Dan", "Ann"]
    assert [row["tenhou_r"] for row in board["players"]] == [1530, 1510, 1490, 1470]
    assert board["players"][0].keys() == {
        "name",
        "games",
        "mu",
        "sigma",
        "ordinal",
        "tenhou_r",
        "total",
        "average_place",
    }
    rows = list(csv.DictReader(io.StringIO(club(capsys, url, "ratings", club_id, "--csv"))))
    assert [(row["name"], row["total"]) for row in rows] == [
        ("Ben", "67"),
        ("Cat", "5"),
        ("Dan", "-15"),
        ("Ann", "-57"),
    ]
    assert club(capsys, url, "player", "rename", club_id, "BEN", "Benjamin") == (
        "Renamed: Benjamin\n"
    )
    page = as_json(capsys, url, "player", "show", club_id, "ben")
    assert page["player"]["name"] == "Benjamin"
    assert [(game["table"], game["place"]) for game in page["games"]] == [(table, 1)]
    assert page["stats"]["wins"] == {"count": 1, "over": 1, "rate": 1.0}
    assert [row["opponent"] for row in page["head_to_head"]] == ["Ann", "Cat", "Dan"]
    games = club(capsys, url, "player", "show", club_id, "Benjamin", "--csv")
    assert games.splitlines()[0] == "table,name,finished_at,profile,place,result,opponents"
    every = list(csv.DictReader(io.StringIO(club(capsys, url, "games", club_id, "--csv"))))
    assert [(row["player"], row["place"], row["table"]) for row in every] == [
        ("Ann", "4", table),
        ("Benjamin", "1", table),
        ("Cat", "2", table),
        ("Dan", "3", table),
    ]
    assert as_json(capsys, url, "games", club_id)["games"][1] == {"player": "Benjamin"} | next(
        iter(as_json(capsys, url, "player", "show", club_id, "ben")["games"])
    )
    # An as-of date before the game: nobody rated.
    assert as_json(capsys, url, "ratings", club_id, "--as-of", "2000-01-01")["players"] == []


@pytest.mark.parametrize(
    ("words", "message"),
    [
        (("player", "add", "{club}", "ANN"), "the name ANN is taken: it means Ann"),
        (("player", "add", "{club}", "x" * 201), "at most 40 characters"),
        (("player", "add", "{club}", " "), "a player's name cannot be empty"),
        (("player", "add", "nosuch", "Bob"), "no club with id 'nosuch'"),
        (("player", "merge", "{club}", "Ann", "ann"), "Ann cannot be merged into themself"),
        (("player", "rename", "{club}", "Zed", "Zoe"), "no player of this club is called Zed"),
        (
            ("ratings", "{club}", "--as-of", "2020-13-01"),
            "a date is written YYYY-MM-DD, not '2020-13-01'",
        ),
        (("attach", "{club}", "--table", "nosuch"), "no table with id 'nosuch'"),
    ],
)
def test_refusals_exit_2_and_write_nothing(
    capsys: pytest.CaptureFixture[str], url: str, words: tuple[str, ...], message: str
) -> None:
    club_id = club(capsys, url, "new", "--name", "Night").strip()
    club(capsys, url, "player", "add", club_id, "Ann")
    code, out, err = run(capsys, "club", *(w.format(club=club_id) for w in words), "--db", url)
    assert (code, out) == (2, "")
    assert message in err
    assert as_json(capsys, url, "ratings", club_id)["players"] == []


def test_an_event_of_another_family_is_refused_before_it_is_made(
    capsys: pytest.CaptureFixture[str], url: str
) -> None:
    club_id = club(capsys, url, "new", "--name", "Night").strip()
    ok(capsys, "table", "new", "--club", club_id, *RIICHI, "--players", "A,B,C,D", "--db", url)
    code, _, err = run(
        capsys,
        "event",
        "new",
        "--club",
        club_id,
        "--name",
        "Spring",
        "--profile",
        "mcr",
        "--players",
        "E,F,G,H",
        "--rounds",
        "1",
        "--db",
        url,
    )
    assert code == 2
    assert "this club rates riichi games: a mcr table or event is of the mcr family" in err
    assert as_json(capsys, url, "ratings", club_id)["players"] == []
    code, out, err = run(
        capsys,
        "event",
        "new",
        "--club",
        club_id,
        "--name",
        "Spring",
        *RIICHI,
        "--players",
        "a,E,F,G",
        "--rounds",
        "1",
        "--db",
        url,
        "--public-url",
        SERVER,
    )
    assert code == 0 and out.strip()
    assert f"Club {club_id}: joined the club's roster: E, F, G (already on it: a)" in err


def test_an_event_of_the_club_seats_round_1_balanced_by_rating(
    capsys: pytest.CaptureFixture[str], url: str
) -> None:
    """`companion event new --club ID --first-round balanced`: round 1 deals the players, best
    first by the club's rating (here OpenSkill's ordinal), to the tables in snake order; a
    newcomer without a rated game comes last, whatever the order they were entered in."""
    players = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"]
    with Ledger.open(url) as ledger:
        book = ClubBook(ledger)
        club_id = book.create_club("Thursday Riichi").id
        play_season(book, club_id, players, 12, seed=3)
        record, ratings = book.ratings(club_id)
        by_ordinal = sorted(
            (player for player in ratings.players.values()), key=lambda p: -p.ordinal
        )
        best = [record.name_of(player.player) for player in by_ordinal] + ["Hal"]
    assert sorted(best) == sorted([*players, "Hal"])
    entered = ["Hal", *reversed(players)]  # not the rated order
    made = json.loads(
        ok(
            capsys,
            "event",
            "new",
            "--club",
            club_id,
            "--name",
            "Spring",
            *RIICHI,
            "--players",
            ",".join(entered),
            "--rounds",
            "2",
            "--first-round",
            "balanced",
            "--db",
            url,
            "--json",
        )
    )
    # The event's entries are in the club's order: the known names best first, then Hal.
    assert made["roster"] == {"joined": ["Hal"], "known": best[:7]}
    seated = json.loads(
        ok(capsys, "event", "seat", made["id"], "--round", "1", "--db", url, "--json")
    )
    tables = [sorted(table["players"]) for table in seated["tables"]]
    # Snake order by hand: the 1st, 4th, 5th and 8th at table 1; the 2nd, 3rd, 6th and 7th at 2.
    assert tables == [
        sorted([best[0], best[3], best[4], best[7]]),
        sorted([best[1], best[2], best[5], best[6]]),
    ]


def test_a_private_club_from_the_command_line(capsys: pytest.CaptureFixture[str], url: str) -> None:
    code, out, err = run(
        capsys, "club", "new", "--name", "Closed", "--private", "--db", url, "--public-url", SERVER
    )
    assert code == 0
    club_id = out.strip()
    assert "Leaderboard, for the organiser only:" in err
    with Ledger.open(url) as ledger:
        assert ClubBook(ledger).record(club_id).private is True
    assert as_json(capsys, url, "set", club_id, "--public") == {"private": False}
    assert club(capsys, url, "set", club_id, "--private") == (
        "Private: the leaderboard, players' pages and exports need the organiser's token\n"
    )
    code, _, err = run(capsys, "club", "set", club_id, "--db", url)
    assert code == 2 and "one of the arguments --private --public is required" in err

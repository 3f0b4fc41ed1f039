"""`companion score`: JSON in and out, the readable breakdown, and clean refusals."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from contract_example import CONTRACT_EXAMPLE


def run(
    argv: list[str], capsys: pytest.CaptureFixture[str], stdin: str = ""
) -> tuple[int, str, str]:
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        code = main(argv)
    except SystemExit as leave:
        code = int(leave.code or 0)
    finally:
        sys.stdin = old_stdin
    out, err = capsys.readouterr()
    return code, out, err


def test_request_on_stdin(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["score"], capsys, json.dumps(CONTRACT_EXAMPLE))
    result = json.loads(out)
    assert code == 0
    assert result["tai"] == 3
    assert result["payments"] == {"E": 16, "S": -8, "W": -4, "N": -4}


def test_request_from_a_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "request.json"
    path.write_text(json.dumps(CONTRACT_EXAMPLE))
    code, out, _ = run(["score", "--json", str(path)], capsys)
    assert code == 0 and json.loads(out)["valid"] is True


def test_readable_breakdown(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["score", "123m456p55s", "--melds", "pung 777z", "pung 666z", "--bonus", "1f"]
    code, out, _ = run([*argv, "--win", "discard", "--from", "S", "--round", "S"], capsys)
    assert code == 0
    assert "sg: 3 tai" in out
    assert "Dragon set" in out and "777z, 666z" in out
    assert "Seat flower or season" in out
    assert "S pays E 8" in out and "W pays E 4" in out
    assert "Net: E +16, S -8, W -4, N -4" in out


def test_hand_with_json_flag_prints_the_result(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["score", "123m456m789p222s44z", "--json", "--event", "last_tile"], capsys)
    result = json.loads(out)
    assert code == 0
    assert [p["id"] for p in result["patterns"]] == ["fully_concealed", "last_tile"]


def test_option_flags(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["score", "123m456m789p222s44z", "--from", "N", "--json"]
    code, out, _ = run([*argv, "--option", "min_tai=0", "--option", "share=2"], capsys)
    assert code == 0
    assert json.loads(out)["payments"] == {"E": 4, "S": -1, "W": -1, "N": -2}


def test_not_a_win_is_a_result_not_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["score", "123m456m789p44z23s"], capsys)
    assert code == 0
    assert out.startswith("Not a win: 13 tiles: one tile short")
    assert "1s (1 of bamboo), 4s (4 of bamboo)" in out


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "must be a JSON object"),
        ('{"hand": "123m", "profile": "jpml"}', "unknown profile"),
        ('{"hand": "123m", "win": "discard"}', "discarder"),
    ],
)
def test_malformed_requests_exit_2(
    capsys: pytest.CaptureFixture[str], stdin: str, message: str
) -> None:
    code, out, err = run(["score"], capsys, stdin)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_missing_file_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(["score", "--json", str(tmp_path / "none.json")], capsys)
    assert code == 2 and "cannot read" in err


def test_console_script_never_shows_a_traceback() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "score"],
        input='{"hand": "123m", "options": {"share": []}}',
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and "share" in done.stderr


@pytest.mark.parametrize(
    "words",
    [
        ["East", "East", "East", "123m", "456p", "789s", "55s"],
        ["east wind", "East", "1z", "123m456p789s", "5", "of", "bamboo", "5 of bamboo"],
        ["111z123m456p789s55s"],
    ],
)
def test_the_hand_in_several_words(capsys: pytest.CaptureFixture[str], words: list[str]) -> None:
    code, out, err = run(["score", *words, "--seat", "S", "--json"], capsys)
    assert (code, err) == (0, "")
    result = json.loads(out)
    assert (result["tai"], [item["id"] for item in result["patterns"]]) == (
        2,
        ["valued_wind", "fully_concealed"],
    )


def test_tiles_by_name_in_quotes(capsys: pytest.CaptureFixture[str]) -> None:
    words = ["1 of characters", "1 of characters", "1 of characters", "234m456p789s55p"]
    code, out, _ = run(["score", *words], capsys)
    assert code == 0
    assert out.splitlines()[1] == "  Fully concealed hand   1 tai      111m, 234m, 456p, 789s, 55p"


def test_a_fifth_copy_reads_as_a_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["score", "1m 1m 1m 1m 1m 23m 456p 789s 55p"], capsys)
    assert code == 0
    assert out == (
        "Not a win: the hand has 15 structural tiles, but a hand of four sets and a pair has "
        "14; 1 of characters (1m) appears 5 times counting declared groups; there are four\n"
    )

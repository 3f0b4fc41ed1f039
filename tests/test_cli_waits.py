"""`companion waits`: JSON and readable output, declared groups, profiles, clean refusals."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Exit status, standard output and standard error of `companion ARGV`."""
    try:
        code = main(argv)
    except SystemExit as leave:
        code = leave.code if isinstance(leave.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def waits_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> list[str]:
    code, out, err = run(["waits", *argv, "--json"], capsys)
    assert (code, err) == (0, "")
    answer = json.loads(out)
    assert list(answer) == ["waits"]
    return list(answer["waits"])


def test_json_lists_waits_in_tile_order(capsys: pytest.CaptureFixture[str]) -> None:
    assert waits_json(["789m1223333445s"], capsys) == ["6s"]
    nine_gates = [f"{rank}m" for rank in range(1, 10)]
    assert waits_json(["1112345678999m"], capsys) == nine_gates
    assert waits_json(["19m19p19s1234567z"], capsys) == [
        *("1m", "9m", "1p", "9p", "1s", "9s"),
        *(f"{rank}z" for rank in range(1, 8)),
    ]


def test_json_for_a_hand_that_waits_on_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    assert waits_json(["1133557799m113z"], capsys) == []


def test_readable_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["waits", "789m1223333445s"], capsys) == (0, "Waits: 6s (6 of bamboo)\n", "")
    code, out, _ = run(["waits", "123m456p789s456s1z"], capsys)
    assert (code, out) == (0, "Waits: 1z (East)\n")
    code, out, _ = run(["waits", "123m456p789s11z45s"], capsys)
    assert (code, out) == (0, "Waits: 3s (3 of bamboo), 6s (6 of bamboo)\n")
    code, out, _ = run(["waits", "123m456p11z22z", "--melds", "pung 777z"], capsys)
    assert (code, out) == (0, "Waits: 1z (East), 2z (South)\n")
    code, out, _ = run(["waits", "1133557799m113z"], capsys)
    assert (code, out) == (0, "No tile completes this hand.\n")


def test_tiles_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    hand = "7m 8m 9m 1s 2s 2s 3s 3s 3s 3s 4s 4s 5 of bamboo"
    assert waits_json([hand], capsys) == ["6s"]


def test_tiles_by_name_in_separate_words(capsys: pytest.CaptureFixture[str]) -> None:
    words = ["East", "East", "East", "1", "of", "characters", "23m", "456p", "789s", "5s"]
    assert waits_json(words, capsys) == ["5s"]


def test_declared_groups(capsys: pytest.CaptureFixture[str]) -> None:
    melds = ["--melds", "pung 777z", "chow 123m", "pung 111s"]
    assert waits_json(["45s11z", *melds], capsys) == ["3s", "6s"]
    # --melds may be repeated; a kong counts as three structural tiles.
    repeated = ["--melds", "pung 777z", "--melds", "chow 123m", "chow 456p", "--melds", "kong 2s"]
    assert waits_json(["1s", *repeated], capsys) == ["1s"]
    assert waits_json(
        ["1s", "--melds", "ckong 2222s", "akong 3333s", "kong 4s", "pung 5s"], capsys
    ) == ["1s"]


def test_a_kind_held_four_times_counting_melds_is_no_wait(
    capsys: pytest.CaptureFixture[str],
) -> None:
    melds = ["chow 123p", "chow 456p", "chow 789p"]
    assert waits_json(["1m", "--melds", "pung 111m", *melds], capsys) == []
    assert waits_json(["1m", "--melds", "chow 123m", *melds], capsys) == ["1m"]


def test_bonus_tiles_do_not_change_waits(capsys: pytest.CaptureFixture[str]) -> None:
    assert waits_json(["789m1223333445s", "--bonus", "1f5f"], capsys) == ["6s"]
    assert waits_json(["789m1223333445s", "--bonus", "spring cat"], capsys) == ["6s"]


def test_default_profile_is_four_sets(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["waits", "123m456m789m123p45p11s"], capsys)
    assert (code, out) == (2, "")
    assert "16 structural tiles" in err and "four sets and a pair has 13" in err


def test_taiwan_profile_asks_for_five_sets(capsys: pytest.CaptureFixture[str]) -> None:
    assert waits_json(["123m456m789m123p45p11s", "--profile", "tw"], capsys) == ["3p", "6p"]
    melds = ["--melds", "pung 777z", "chow 123m"]
    assert waits_json(["456m789m45p11s", *melds, "--profile", "tw"], capsys) == ["3p", "6p"]
    code, out, err = run(["waits", "789m1223333445s", "--profile", "tw"], capsys)
    assert (code, out) == (2, "")
    assert "13 structural tiles" in err and "five sets and a pair has 16" in err


def test_taiwan_profile_reads_seven_pairs_and_a_triplet(
    capsys: pytest.CaptureFixture[str],
) -> None:
    eight_pairs = "1133557799m1133p22z"
    assert waits_json([eight_pairs, "--profile", "tw"], capsys) == [
        *("1m", "3m", "5m", "7m", "9m", "1p", "3p", "2z"),
    ]


def test_singapore_table_profile_asks_for_four_sets(capsys: pytest.CaptureFixture[str]) -> None:
    assert waits_json(["789m1223333445s", "--profile", "sg-table"], capsys) == ["6s"]
    assert waits_json(["119m19p19s123456z", "--profile", "sg-table"], capsys) == ["7z"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["123m456p789s1z5s9x"], 'unknown tile "9x"'),
        (["123m456p789s1z5s0m"], 'unknown tile "0m"'),
        (["123m456p789s1z5s8z"], 'unknown tile "8z"'),
        (["123m456p789s11z"], "11 structural tiles"),
        (["123m456p789s11z5s"], "12 structural tiles"),
        (["123m456p789s11z456s"], "14 structural tiles"),
        (
            ["11111m2345678999m"],
            "1 of characters (1m) appears 5 times counting declared groups; there are four",
        ),
        (["123m456p11z1s", "--melds", "chow 777z"], "chow 777z is not a chow"),
        (["123m456p11z1s", "--melds", "chow 129m"], "is not a chow"),
        (["123m456p11z1s", "--melds", "pung 778z"], 'unknown tile "8z"'),
        (["123m456p11z1s", "--melds", "pung 123m"], "is not a pung"),
        (["123m456p11z1s", "--melds", "foo 777z"], 'unknown group "foo 777z"'),
        (["123m456p11z1s", "--melds", "chow 8m"], "a chow cannot start at 8 of characters"),
        (
            ["1s", "--melds", "pung 1s", "pung 1s", "pung 2s", "pung 3s"],
            "1 of bamboo (1s) appears 7 times",
        ),
        (["789m1223333445s", "--bonus", "1m"], "1 of characters (1m) is not a bonus tile"),
        (["789m1223333445s", "--bonus", "1f1f"], "listed 2 times"),
        (["789m1223333445s", "--bonus", "9f"], 'unknown tile "9f"'),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    for json_flag in ([], ["--json"]):
        code, out, err = run(["waits", *argv, *json_flag], capsys)
        assert (code, out) == (2, "")
        assert err.startswith("companion: ") and err.count("\n") == 1
        assert message in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["waits", "789m1223333445s", "--profile", "jpml"], "invalid choice: 'jpml'"),
        (["waits"], "the following arguments are required: hand"),
        (["waits", "789m1223333445s", "--melds"], "expected at least one argument"),
        (["wait", "789m1223333445s"], "invalid choice: 'wait'"),
    ],
)
def test_bad_command_line_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(argv, capsys)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def companion_command() -> list[str]:
    """The installed console script beside this interpreter, else `python -m companion.cli`."""
    script = Path(sys.executable).with_name("companion")
    return [str(script)] if script.exists() else [sys.executable, "-m", "companion.cli"]


def test_console_script_exit_status_and_no_traceback() -> None:
    def call(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*companion_command(), "waits", *argv],
            capture_output=True,
            text=True,
            check=False,
            timeout=60,
        )

    good = call("45s11z", "--melds", "pung 777z", "chow 123m", "pung 111s", "--json")
    assert (good.returncode, good.stderr) == (0, "")
    assert json.loads(good.stdout) == {"waits": ["3s", "6s"]}
    for argv in (["123m456p789s1z5s9x"], ["123m456p789s11z"], ["1s", "--melds", "chow 777z"]):
        bad = call(*argv)
        assert bad.returncode == 2 and bad.stdout == ""
        assert bad.stderr.startswith("companion: ") and bad.stderr.count("\n") == 1
        assert "Traceback" not in bad.stderr
    unknown = call("789m1223333445s", "--profile", "jpml")
    assert unknown.returncode == 2 and "Traceback" not in unknown.stderr

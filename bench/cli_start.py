"""How fast the command line starts: `companion score HAND` against `mahjong` scoring one hand.

    python bench/cli_start.py [--runs 21] [--json] [--before SRC]

Each side is a whole process timed from its start to its exit, as a person at a terminal waits
for it:

* `companion`: the console script `companion score 234m567m345p678s55s` (`sg`, self-drawn),
  which reads the hand and prints its readable breakdown;
* `mahjong`: `python -c` importing the `mahjong` library's `HandCalculator` and scoring the same
  hand (self-drawn, riichi rules) and printing its han and fu: the floor a Python scorer starts
  from;
* `python`: `python -c pass`, the interpreter alone, for reference;
* `before` (with `--before SRC`): `companion score` again, on the package in the source tree
  `SRC` (an earlier commit's `src/`, from `git archive`), put first on `PYTHONPATH`.

All run on this virtual environment's Python, one after another in turn (one run of each, then
the next round), so that a busy machine weighs on every side alike. One untimed round first
writes the compiled modules (`__pycache__`), whatever `PYTHONDONTWRITEBYTECODE` says: a
person's Python writes them once, and compiling every module again on every start would time
the compiler. The figures are each side's median, and the ratio is
companion's over mahjong's (target: at most 2). `tests/test_cli_imports.py` keeps the command's
imports to what it uses; this script measures what that buys.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

HAND = "234m567m345p678s55s"
MAHJONG = """
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig
from mahjong.tile import TilesConverter

tiles = TilesConverter.string_to_136_array(man="234567", pin="345", sou="67855")
win_tile = TilesConverter.string_to_136_array(sou="5")[0]
found = HandCalculator().estimate_hand_value(tiles, win_tile, config=HandConfig(is_tsumo=True))
assert found.error is None, found.error
print(found.han, "han", found.fu, "fu")
"""
TARGET = 2.0
ENVIRONMENT = {
    name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"
}


@dataclass(frozen=True)
class Side:
    name: str
    command: list[str]
    printed: str
    """What the side's output starts with: the warm-up round checks that it did its work."""
    path: str | None = None
    """A source tree put first on `PYTHONPATH`."""

    def run(self, check: bool = False) -> float:
        """Seconds from the process's start to its exit; a failing side stops the benchmark."""
        environment = dict(ENVIRONMENT)
        if self.path is not None:
            environment["PYTHONPATH"] = self.path
        start = time.perf_counter()
        done = subprocess.run(
            self.command, capture_output=True, text=True, check=False, env=environment
        )
        elapsed = time.perf_counter() - start
        if done.returncode != 0 or (check and not done.stdout.startswith(self.printed)):
            sys.exit(f"{self.shown()} failed ({done.returncode}): {done.stdout}{done.stderr}")
        return elapsed

    def shown(self) -> str:
        """The command as a person would type it (the inline script's first line)."""
        words = [Path(self.command[0]).name, *self.command[1:]]
        text = " ".join(
            word.strip().splitlines()[0] + " ..." if "\n" in word else word for word in words
        )
        return text if self.path is None else f"PYTHONPATH={self.path} {text}"


def companion_command() -> list[str]:
    """The console script beside this Python (as `pip install` writes it), else the module."""
    script = Path(sys.executable).with_name("companion")
    if script.exists():
        return [str(script), "score", HAND]
    return [sys.executable, "-m", "companion.cli", "score", HAND]


def sides(before: str | None) -> list[Side]:
    found = [
        Side("companion", companion_command(), "sg: 5 tai"),
        Side("mahjong", [sys.executable, "-c", MAHJONG], "2 han 30 fu"),
        Side("python", [sys.executable, "-c", "pass"], ""),
    ]
    if before is not None:
        found.append(Side("before", companion_command(), "sg: 5 tai", before))
    return found


def measure(runs: int, timed: list[Side]) -> dict[str, list[float]]:
    for side in timed:
        side.run(check=True)
    times: dict[str, list[float]] = {side.name: [] for side in timed}
    for _ in range(runs):
        for side in timed:
            times[side.name].append(side.run())
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=21, help="timed runs of each side")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--before", metavar="SRC", help="a source tree to time too")
    args = parser.parse_args()
    timed = sides(args.before)
    times = measure(args.runs, timed)
    medians = {name: statistics.median(found) for name, found in times.items()}
    ratios = {
        f"{name}_vs_mahjong": medians[name] / medians["mahjong"]
        for name in ("companion", "before")
        if name in medians
    }
    load = os.getloadavg()[0]
    if args.json:
        figures = {
            "runs": args.runs,
            "median_ms": {name: round(1000 * median, 1) for name, median in medians.items()},
            **{name: round(ratio, 2) for name, ratio in ratios.items()},
            "target": TARGET,
            "python": platform.python_version(),
            "machine": f"{platform.machine()}, {os.cpu_count()} CPUs",
            "load_average": round(load, 2),
        }
        print(json.dumps(figures, indent=2))
        return
    print(f"{args.runs} runs of each side, interleaved; load average {load:.2f}")
    for side in timed:
        found = times[side.name]
        spread = f"({1000 * min(found):.0f}-{1000 * max(found):.0f})"
        print(f"  {side.name:<10} median {1000 * medians[side.name]:5.0f} ms {spread:<10} ", end="")
        print(side.shown())
    for name, ratio in ratios.items():
        verdict = "meets" if ratio <= TARGET else "misses"
        print(f"{name}: {ratio:.2f} ({verdict} the target of at most {TARGET:g})")


if __name__ == "__main__":
    main()

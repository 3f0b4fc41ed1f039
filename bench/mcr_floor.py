"""Where a warm MCR hand's time goes: the fan, or what surrounds them.

    python bench/mcr_floor.py [--hands 3000] [--rounds 5]

Times three things on the same fresh hands (those of `bench/compare.py`'s MCR sides), in one
run, after a warm-up round on other hands:

* `gb`: PyMahjongGB's `MahjongFanCalculator` (C++), as `bench/compare.py` calls it;
* `floor`: what no MCR engine in Python can leave out, and nothing more: the concealed tiles
  counted, the hand's standard readings from the per-suit memos, a reading made for each, a
  result filled with five ready-made scores and its payments looked up. No fan is worked out;
  the special shapes are not looked for;
* `ours`: `score_built`, the whole engine (`mcr_score_per_s` in `bench/compare.py`).

Every timed round is a fresh set of hands, as in `bench/compare.py` (no hand is scored twice,
the memos stay); each figure is a side's best round, in microseconds a hand, and the ratios are
against PyMahjongGB. What separates `ours` from `floor` is the fan: the readings'
facts, the predicates the bits leave open, the combination fan and the principles. The target
`mcr_vs_gb` >= 0.3 asks for `ours` within about 3.3 times PyMahjongGB's figure.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import compare  # noqa: E402 (the bench's own helpers, on the path just set)


def floor_scorer() -> Callable[[Any], object]:
    """The floor: counts, standard readings from the memos, a result of ready scores."""
    from companion.rules.mcr import counting, engine
    from companion.rules.mcr.fans import FANS
    from companion.rules.mcr.result import McrResult
    from companion.rules.mcr.shapes import _UNITS, McrReading, McrShape, _standard_readings

    ready = [counting._SCORES[fan.id][1] for fan in FANS[:5]]

    def run(item: Any) -> object:
        if item is None:
            return None
        hand, context, payer = item
        best: tuple[McrReading, tuple[object, ...], int] | None = None
        key = 0
        for tile in hand.concealed:  # the hand as one key, three bits a kind
            key += _UNITS[tile]
        for sets, pair in _standard_readings(key):
            reading = object.__new__(McrReading)
            reading.__dict__.update(
                shape=McrShape.STANDARD, sets=sets, pair=pair, pairs=(), knitted=()
            )
            patterns = []
            total = 0
            for score, fan, _ in ready:
                patterns.append(score)
                total += fan
            best = (reading, tuple(patterns), total)
        if best is None:
            return None
        result = object.__new__(McrResult)
        result.__dict__.update(
            patterns=best[1],
            groups=(),
            fan=best[2],
            flowers=0,
            meets_minimum=True,
            payments=engine.settle(best[2], context.seat, payer, True),
            winning_group="",
            wait="",
            unit="fan",
            valid=True,
        )
        return result

    return run


def best_time(run: Callable[[Any], object], rounds: Sequence[Sequence[Any]]) -> float:
    """The best of one pass over each round's items, in microseconds an item."""
    best = float("inf")
    for items in rounds:
        start = time.perf_counter()
        for item in items:
            run(item)
        best = min(best, (time.perf_counter() - start) / len(items) * 1e6)
    return best


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    jobs, skipped = compare.mcr_jobs(args.hands, args.seed, args.rounds + 1)
    if not jobs:
        print("\n".join(skipped))
        return
    ours, gb = jobs
    floor = floor_scorer()
    warm, *timed = ours.inputs
    for item in warm:  # every memo warm, on other hands than those timed
        ours.run(item)
        floor(item)
    for item in gb.inputs[0]:
        gb.run(item)
    figures = {
        "gb": best_time(gb.run, gb.inputs[1:]),
        "floor": best_time(floor, timed),
        "ours": best_time(ours.run, timed),
    }
    for name, micros in figures.items():
        ratio = figures["gb"] / micros
        print(f"{name:6s} {micros:8.2f} us a hand   {ratio:6.3f}x PyMahjongGB")
    print(f"the fan's share of ours: {1 - figures['floor'] / figures['ours']:.0%}")


if __name__ == "__main__":
    main()

"""Benchmark: hand readings and waits, Companion against the PyPI peers `mahjong` and `pymahjonggb`.

Every engine gets the same seeded random hands, already converted to its own input format so
that only the work itself is timed:

* complete check   -- 14-tile complete hands: `is_complete` vs `mahjong` `Agari.is_agari`;
* readings         -- the same hands split every way into sets and a pair: `arrangements` vs
                      `mahjong` `HandDivider.divide_hand` (`readings` adds the winning tile's
                      role in every arrangement; no peer has an equivalent);
* waits            -- 13-tile tenpai hands: `waits` (up to 34 completeness checks) vs `mahjong`
                      adding each kind held fewer than four times and calling `Agari.is_agari`
                      (the same work), `pymahjonggb` `RegularShanten` (shanten and useful tiles:
                      the waits of a tenpai hand), and for reference the shanten-only calls
                      `mahjong` `Shanten.calculate_shanten` and `pymahjonggb` `MahjongShanten`,
                      which answer "is it tenpai?" without listing the waits.

The peers' rules differ at the edges (`mahjong` also accepts seven pairs; `pymahjonggb` knows the
Chinese Official shapes), so every equivalent answer is compared with ours and the share of hands
on which they agree is printed. Companion memoises per-suit readings for the life of the
process: "warm" figures time that steady state, "cold" ones clear the memo before every round.

    python bench/shapes.py [--quick] [--json] [--hands N] [--rounds N] [--seed N]

A peer that is not installed (`pip install -e '.[bench]'`) is reported and skipped.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from companion import shapes
from companion.hand import Hand
from companion.shapes import FOUR_SETS, arrangements, is_complete, readings, waits
from companion.tiles import Tile

KINDS = 34
SUITS = (range(9), range(9, 18), range(18, 27))
HONORS = range(27, 34)
GB_CODES = tuple(
    [f"W{rank}" for rank in range(1, 10)]
    + [f"B{rank}" for rank in range(1, 10)]
    + [f"T{rank}" for rank in range(1, 10)]
    + [f"F{rank}" for rank in range(1, 5)]
    + [f"J{rank}" for rank in range(1, 4)]
)
"""pymahjonggb codes by kind: W characters, B circles (dots), T bamboo, F winds, J dragons."""


# --- Hands ------------------------------------------------------------------------------------


def complete_hand(rng: random.Random, sets: int = 4) -> list[int]:
    """`sets` sets and a pair; half of the hands from one suit (plus honors half of the time),
    which read many ways."""
    if rng.random() < 0.5:
        pool = list(range(KINDS))
    else:
        pool = [*rng.choice(SUITS), *(HONORS if rng.random() < 0.5 else ())]
    while True:
        counts = [0] * KINDS
        groups: list[list[int]] = []
        for size in (*(3,) * sets, 2):
            low = rng.choice(pool)
            chow = size == 3 and low < 27 and low % 9 <= 6 and rng.random() < 0.6
            groups.append([low, low + 1, low + 2] if chow else [low] * size)
        for group in groups:
            for tile in group:
                counts[tile] += 1
        if max(counts) <= 4:
            return sorted(tile for group in groups for tile in group)


@dataclass(frozen=True)
class Hands:
    complete: list[list[int]]
    """14 tiles each, the winning tile last."""
    tenpai: list[list[int]]
    """13 tiles each: a complete hand less one tile."""


def make_hands(count: int, seed: int) -> Hands:
    rng = random.Random(seed)
    complete: list[list[int]] = []
    tenpai: list[list[int]] = []
    for _ in range(count):
        tiles = complete_hand(rng)
        winning = tiles.pop(rng.randrange(len(tiles)))
        complete.append([*tiles, winning])
    for _ in range(count):
        tiles = complete_hand(rng)
        del tiles[rng.randrange(len(tiles))]
        tenpai.append(tiles)
    return Hands(complete, tenpai)


def counts_34(tiles: Sequence[int]) -> list[int]:
    counts = [0] * KINDS
    for tile in tiles:
        counts[tile] += 1
    return counts


# --- Timing -----------------------------------------------------------------------------------


@dataclass
class Row:
    operation: str
    engine: str
    hands: int
    per_second: float
    median_seconds: float
    agree: str
    note: str = ""


def time_rounds(
    work: Callable[[], object], rounds: int, before_round: Callable[[], None] | None = None
) -> float:
    """Median seconds of `rounds` timed calls of `work`, after one untimed warm-up call."""
    if before_round is not None:
        before_round()
    work()
    spent: list[float] = []
    for _ in range(rounds):
        if before_round is not None:
            before_round()
        start = time.perf_counter()
        work()
        spent.append(time.perf_counter() - start)
    return statistics.median(spent)


def over_all(function: Callable[[Any], object], inputs: Sequence[Any]) -> Callable[[], object]:
    def work() -> object:
        result = None
        for item in inputs:
            result = function(item)
        return result

    return work


def clear_companion_memo() -> None:
    shapes.clear_memos()


def agreement(ours: Sequence[object], theirs: Sequence[object]) -> str:
    same = sum(a == b for a, b in zip(ours, theirs, strict=True))
    return f"{same}/{len(ours)}"


# --- Engines ----------------------------------------------------------------------------------


def division_key(groups: Sequence[Sequence[int]]) -> tuple[tuple[str, int], ...]:
    """A division as sorted (kind, lowest tile), from lists of tile indices."""
    keys: list[tuple[str, int]] = []
    for group in groups:
        low = min(group)
        if len(group) == 2:
            keys.append(("pair", low))
        elif group[0] == group[1]:
            keys.append(("pung", low))
        else:
            keys.append(("chow", low))
    return tuple(sorted(keys))


def companion_rows(hands: Hands, rounds: int) -> tuple[list[Row], dict[str, list[Any]]]:
    complete = [
        Hand.build([Tile(tile) for tile in tiles], winning_tile=Tile(tiles[-1]))
        for tiles in hands.complete
    ]
    tenpai = [Hand.build([Tile(tile) for tile in tiles], complete=False) for tiles in hands.tenpai]
    answers: dict[str, list[Any]] = {
        "complete": [is_complete(hand, FOUR_SETS) for hand in complete],
        "divisions": [
            sorted(
                division_key([g.tiles for g in groups]) for _, groups in arrangements(h, FOUR_SETS)
            )
            for h in complete
        ],
        "waits": [[int(tile) for tile in waits(hand, FOUR_SETS)] for hand in tenpai],
    }
    count = len(hands.complete)
    jobs: list[tuple[str, str, Callable[[Any], object], list[Hand]]] = [
        ("complete check", "companion is_complete", lambda h: is_complete(h, FOUR_SETS), complete),
        ("readings", "companion arrangements", lambda h: arrangements(h, FOUR_SETS), complete),
        (
            "readings",
            "companion readings (+ winning-tile roles)",
            lambda h: readings(h, FOUR_SETS, discard=False),
            complete,
        ),
        ("waits", "companion waits", lambda h: waits(h, FOUR_SETS), tenpai),
    ]
    rows: list[Row] = []
    for operation, engine, function, inputs in jobs:
        for memo, before in (("warm", None), ("cold", clear_companion_memo)):
            seconds = time_rounds(over_all(function, inputs), rounds, before)
            rows.append(
                Row(operation, f"{engine} [{memo}]", count, count / seconds, seconds, "ours")
            )
    return rows, answers


def mahjong_rows(hands: Hands, rounds: int, ours: dict[str, list[Any]]) -> list[Row]:
    from mahjong.agari import Agari
    from mahjong.hand_calculating.divider import HandDivider
    from mahjong.shanten import Shanten

    agari = Agari()
    divider = HandDivider()
    shanten = Shanten()
    complete = [counts_34(tiles) for tiles in hands.complete]
    tenpai = [counts_34(tiles) for tiles in hands.tenpai]

    def waits_by_agari(counts: list[int]) -> list[int]:
        found: list[int] = []
        for kind in range(KINDS):
            if counts[kind] < 4:
                counts[kind] += 1
                if agari.is_agari(counts):
                    found.append(kind)
                counts[kind] -= 1
        return found

    def standard_divisions(counts: list[int]) -> list[tuple[tuple[str, int], ...]]:
        found = [division_key(groups) for groups in divider.divide_hand(counts)]
        # Seven pairs is a riichi shape, not one of ours.
        return sorted(key for key in found if len(key) == 5)

    def clear_divider_memo() -> None:
        HandDivider._divide_hand_impl.cache_clear()

    count = len(complete)
    agree = {
        "complete": agreement(ours["complete"], [agari.is_agari(c) for c in complete]),
        "divisions": agreement(ours["divisions"], [standard_divisions(c) for c in complete]),
        "waits": agreement(ours["waits"], [waits_by_agari(c) for c in tenpai]),
        "shanten": agreement(
            [bool(found) for found in ours["waits"]],
            [shanten.calculate_shanten(c) == 0 for c in tenpai],
        ),
    }
    jobs: list[tuple[str, str, Callable[[Any], object], list[list[int]], str, str]] = [
        ("complete check", "mahjong Agari.is_agari", agari.is_agari, complete, "complete", ""),
        (
            "readings",
            "mahjong HandDivider.divide_hand",
            divider.divide_hand,
            complete,
            "divisions",
            "its lru_cache(128) cleared every round",
        ),
        ("waits", "mahjong 34 x Agari.is_agari", waits_by_agari, tenpai, "waits", "same work"),
        (
            "waits",
            "mahjong Shanten.calculate_shanten",
            shanten.calculate_shanten,
            tenpai,
            "shanten",
            "tenpai or not; no waits",
        ),
    ]
    rows: list[Row] = []
    for operation, engine, function, inputs, answer, note in jobs:
        before = clear_divider_memo if "HandDivider" in engine else None
        seconds = time_rounds(over_all(function, inputs), rounds, before)
        rows.append(Row(operation, engine, count, count / seconds, seconds, agree[answer], note))
    return rows


def pymahjonggb_rows(hands: Hands, rounds: int, ours: dict[str, list[Any]]) -> list[Row]:
    from MahjongGB import MahjongShanten, RegularShanten  # type: ignore[import-not-found]

    tenpai = [tuple(GB_CODES[tile] for tile in tiles) for tiles in hands.tenpai]
    code_kind = {code: kind for kind, code in enumerate(GB_CODES)}

    def regular_waits(hand: tuple[str, ...]) -> list[int]:
        """The useful tiles of a tenpai hand less the kinds held four times, which ours drop."""
        shanten, useful = RegularShanten(hand)
        if shanten != 0:
            return []
        return sorted(code_kind[code] for code in useful if hand.count(code) < 4)

    def mahjong_shanten(hand: tuple[str, ...]) -> int:
        shanten: int = MahjongShanten((), hand)
        return shanten

    count = len(tenpai)
    waits_agree = agreement(ours["waits"], [regular_waits(hand) for hand in tenpai])
    shanten_agree = agreement(
        [bool(found) for found in ours["waits"]], [mahjong_shanten(h) == 0 for h in tenpai]
    )
    rows: list[Row] = []
    jobs: list[tuple[str, Callable[[Any], object], str, str]] = [
        (
            "pymahjonggb RegularShanten",
            RegularShanten,
            waits_agree,
            "shanten + useful tiles; agree after dropping kinds held 4 times",
        ),
        ("pymahjonggb MahjongShanten", mahjong_shanten, shanten_agree, "tenpai or not; no waits"),
    ]
    for engine, function, agree, note in jobs:
        seconds = time_rounds(over_all(function, tenpai), rounds)
        rows.append(Row("waits", engine, count, count / seconds, seconds, agree, note))
    return rows


# --- Output -----------------------------------------------------------------------------------


def print_table(rows: Sequence[Row], header: str, skipped: Sequence[str]) -> None:
    print(header)
    for line in skipped:
        print(f"  {line}")
    print()
    width = max(len(row.engine) for row in rows)
    print(f"{'operation':<15} {'engine':<{width}} {'per second':>12} {'ms/round':>9}  agree")
    previous = ""
    for row in rows:
        operation = row.operation if row.operation != previous else ""
        previous = row.operation
        note = f"  ({row.note})" if row.note else ""
        print(
            f"{operation:<15} {row.engine:<{width}} {row.per_second:>12,.0f} "
            f"{row.median_seconds * 1000:>9.1f}  {row.agree}{note}"
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="500 hands, 3 rounds (seconds)")
    parser.add_argument("--json", action="store_true", help="print a JSON object")
    parser.add_argument("--hands", type=int, help="hands of each kind (default 2000)")
    parser.add_argument("--rounds", type=int, help="timed rounds, median kept (default 5)")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    count = args.hands or (500 if args.quick else 2000)
    rounds = args.rounds or (3 if args.quick else 5)
    hands = make_hands(count, args.seed)

    rows, ours = companion_rows(hands, rounds)
    skipped: list[str] = []
    peers: list[tuple[str, Callable[[Hands, int, dict[str, list[Any]]], list[Row]]]] = [
        ("mahjong", mahjong_rows),
        ("MahjongGB", pymahjonggb_rows),
    ]
    versions: dict[str, str] = {}
    for module, measure in peers:
        package = "pymahjonggb" if module == "MahjongGB" else module
        try:
            __import__(module)
        except ImportError:
            skipped.append(f"{package} is not installed: skipped (pip install -e '.[bench]')")
            continue
        versions[package] = _version(package)
        rows.extend(measure(hands, rounds, ours))
    order = ["complete check", "readings", "waits"]
    rows.sort(key=lambda row: order.index(row.operation))

    header = "; ".join(
        [
            f"{count} complete 14-tile hands and {count} 13-tile tenpai hands (seed {args.seed})",
            f"median of {rounds} rounds",
            f"Python {sys.version.split()[0]}",
            *(f"{name} {version}" for name, version in versions.items()),
        ]
    )
    if args.json:
        print(
            json.dumps(
                {
                    "hands": count,
                    "rounds": rounds,
                    "seed": args.seed,
                    "python": sys.version.split()[0],
                    "peers": versions,
                    "skipped": skipped,
                    "rows": [asdict(row) for row in rows],
                },
                indent=2,
            )
        )
    else:
        print_table(rows, header, skipped)
    return 0


def _version(package: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:
        return "?"


if __name__ == "__main__":
    sys.exit(main())

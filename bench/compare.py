"""Benchmark: scoring and waits, Companion against the PyPI peers `mahjong` and `pymahjonggb`.

Issue 8, part 1. One process, one fixed seeded set of random hands, each side timed on the same
hands already converted to its own input format, so that only the work itself is timed:

* sg scoring   -- 14-tile complete hands, all concealed, four sets and a pair, won by self-draw
                  with a random seat and round wind: our `sg` profile from a parsed hand to the
                  settled result (patterns, tai and payments) vs `mahjong`
                  `HandCalculator.estimate_hand_value` (yaku, han, fu and points) and
                  `pymahjonggb` `MahjongFanCalculator` (Chinese Official fans);
* waits        -- 13-tile tenpai hands (a complete hand less one tile): our `waits` vs `mahjong`
                  `Shanten.calculate_shanten`, which only answers "tenpai or not";
* tw scoring   -- 17-tile complete hands, five sets and a pair: our `tw` profile, alone;
* hk scoring   -- the 14-tile hands of sg scoring, scored in faan by our `hk` profile, alone.

Our scoring is timed through `companion.scoring.score_hand(profile, hand, context, options)` when
that exists (the hand parsed once, outside the timing; `score` on a request dict, which parses
the hand's text on every call, is shown beside it for reference), else through `score` on a
request dict; the table says which. The complete hands are filtered to those every installed side
accepts as a win, so every side does the same work; the filter is reported. Every round times
each side in turn, so that a slow spell of the machine falls on all of them and the ratios hold
within one run. Companion memoises per-suit readings for the life of the process: the headline
figures time that steady state ("warm", the peers' own caches kept too); the "cold" rows clear
the memos (ours, and `mahjong`'s divider cache) before every pass.

    python bench/compare.py [--quick] [--json] [--hands N] [--rounds N] [--seed N] [--profile]

`--quick` times 1000 hands of each kind over 5 rounds (about 10 s on 2 cores); the default is
3000 hands over 7 rounds. `--json` prints only a JSON object: hands per second by side
(`sg_score_per_s`, `mahjong_score_per_s`, `gb_score_per_s`, `waits_per_s`,
`mahjong_shanten_per_s`, `tw_score_per_s`, `hk_score_per_s`, and `..._cold_per_s`), the target
ratios (`sg_vs_gb`, `sg_vs_mahjong`, `waits_vs_shanten`, `tw_cost_vs_sg`, `hk_cost_vs_sg`, each
with `..._pass`) and the run's
particulars. `--profile` adds cProfile's top functions of our sg scoring loop (on standard error
with `--json`). A peer that is not installed (`pip install -e '.[bench]'`) is reported and
skipped; its figures and ratios are null.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import platform
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion import scoring
from companion.context import WinContext, WinType
from companion.hand import Hand
from companion.rules import get_profile
from companion.shapes import FOUR_SETS, waits
from companion.tiles import WINDS, Tile, format_tiles

# bench/shapes.py: the colleague's shapes benchmark, shared helpers (the script's directory is
# on sys.path when run as `python bench/compare.py`).
from shapes import (
    KINDS,
    Row,
    _version,
    clear_companion_memo,
    complete_hand,
    counts_34,
    over_all,
    print_table,
)

GB_CODES = tuple(
    [f"W{rank}" for rank in range(1, 10)]
    + [f"B{rank}" for rank in range(1, 10)]
    + [f"T{rank}" for rank in range(1, 10)]
    + [f"F{rank}" for rank in range(1, 5)]
    + ["J3", "J2", "J1"]
)
"""pymahjonggb codes by kind. Unlike bench/shapes.py (where a dragon's identity never matters)
the dragons follow their meaning, which scoring needs: J1 is red, J2 green, J3 white (white
counts in Reversible Tiles, green in All Green); Companion's order is white, green, red."""


# --- Hands ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Deal:
    """A complete concealed hand won by self-draw."""

    tiles: tuple[int, ...]
    """14 or 17 tile kinds, the winning tile last."""
    seat: int
    """The winner's seat wind, 0-3 for East-North."""
    round: int
    """The round wind, 0-3."""


def make_deals(count: int, sets: int, rng: random.Random) -> list[Deal]:
    deals: list[Deal] = []
    for _ in range(count):
        tiles = complete_hand(rng, sets)
        winning = tiles.pop(rng.randrange(len(tiles)))
        deals.append(Deal((*tiles, winning), rng.randrange(4), rng.randrange(4)))
    return deals


def tenpai_of(deals: Sequence[Deal], rng: random.Random) -> list[tuple[int, ...]]:
    """Each complete hand less one random tile: 13 tiles that wait at least on that tile."""
    hands: list[tuple[int, ...]] = []
    for deal in deals:
        tiles = list(deal.tiles)
        del tiles[rng.randrange(len(tiles))]
        hands.append(tuple(sorted(tiles)))
    return hands


# --- Sides ------------------------------------------------------------------------------------


@dataclass
class Side:
    """One engine's scoring of complete hands: inputs converted once, then `run` on each."""

    key: str
    engine: str
    run: Callable[[Any], object]
    prepare: Callable[[Deal], object]
    accepts: Callable[[object], bool]
    clear: Callable[[], None] | None = None
    """Clears the side's memo before a cold round."""
    note: str = ""
    raised: int = 0
    """Hands on which the engine raised instead of answering (counted as work done)."""


def companion_side(profile_id: str, *, parsed: bool = True) -> Side:
    """Our scoring of a profile. `parsed`: `score_hand` on a hand built once (when the engine
    has it), else `score` on a request dict, whose hand text it parses on every call."""
    profile = get_profile(profile_id)
    sets = profile.structure.sets
    score_hand: Callable[..., scoring.ScoreResult] | None = getattr(scoring, "score_hand", None)

    def accepts(result: object) -> bool:
        return isinstance(result, scoring.ScoreResult) and result.valid

    if parsed and score_hand is not None:
        options = profile.parse_options({})

        def prepare_hand(deal: Deal) -> tuple[Hand, WinContext]:
            tiles = [Tile(tile) for tile in deal.tiles]
            hand = Hand.build(tiles, winning_tile=tiles[-1], sets=sets)
            seat, round_wind = WINDS[deal.seat], WINDS[deal.round]
            return hand, WinContext(win=WinType.SELF_DRAW, seat=seat, round=round_wind)

        def run_hand(item: tuple[Hand, WinContext]) -> scoring.ScoreResult:
            return score_hand(profile, item[0], item[1], options)

        engine = f"companion {profile_id} score_hand"
        return Side(profile_id, engine, run_hand, prepare_hand, accepts)

    def prepare_request(deal: Deal) -> dict[str, Any]:
        return {
            "profile": profile_id,
            "hand": format_tiles(Tile(tile) for tile in deal.tiles),
            "win_tile": Tile(deal.tiles[-1]).mpsz,
            "win": "self_draw",
            "seat": WINDS[deal.seat].value,
            "round": WINDS[deal.round].value,
        }

    engine = f"companion {profile_id} score(dict)"
    note = "parses the request and its MPSZ text every call"
    return Side(profile_id, engine, scoring.score, prepare_request, accepts, note=note)


def mahjong_side() -> Side:
    from mahjong.constants import EAST
    from mahjong.hand_calculating.divider import HandDivider
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig
    from mahjong.hand_calculating.hand_response import HandResponse

    calculator = HandCalculator()

    def prepare(deal: Deal) -> tuple[list[int], int, HandConfig]:
        copies = [0] * KINDS
        tiles136: list[int] = []
        for kind in deal.tiles:
            tiles136.append(kind * 4 + copies[kind])
            copies[kind] += 1
        config = HandConfig(
            is_tsumo=True, player_wind=EAST + deal.seat, round_wind=EAST + deal.round
        )
        return sorted(tiles136), tiles136[-1], config

    def run(item: tuple[list[int], int, HandConfig]) -> HandResponse:
        return calculator.estimate_hand_value(item[0], item[1], config=item[2])

    def accepts(response: object) -> bool:
        return isinstance(response, HandResponse) and response.error is None

    return Side(
        "mahjong",
        "mahjong HandCalculator.estimate_hand_value",
        run,
        prepare,
        accepts,
        clear=HandDivider._divide_hand_impl.cache_clear,
        note="riichi: yaku, han, fu, points",
    )


def pymahjonggb_side() -> Side:
    from MahjongGB import MahjongFanCalculator  # type: ignore[import-not-found]

    def prepare(deal: Deal) -> tuple[object, ...]:
        hand = tuple(GB_CODES[tile] for tile in deal.tiles[:-1])
        win_tile = GB_CODES[deal.tiles[-1]]
        # pack, hand, winTile, flowerCount, isSelfDrawn, is4thTile, isAboutKong, isWallLast,
        # seatWind, prevalentWind
        return ((), hand, win_tile, 0, True, False, False, False, deal.seat, deal.round)

    def run(item: tuple[Any, ...]) -> object:
        try:
            return MahjongFanCalculator(*item)
        except TypeError as error:  # ERROR_NOT_WIN and the like: an answer all the same
            side.raised += 1
            return error

    def accepts(answer: object) -> bool:
        return isinstance(answer, tuple)

    side = Side("gb", "pymahjonggb MahjongFanCalculator", run, prepare, accepts)
    side.note = "C++, Chinese Official fans"
    return side


# --- Timing -----------------------------------------------------------------------------------


@dataclass
class Job:
    """One engine's pass over its hands, timed as a whole."""

    key: str
    """The JSON key of its warm figure; the cold one is `..._cold_per_s`."""
    operation: str
    engine: str
    work: Callable[[], object]
    count: int
    agree: str
    note: str = ""
    clear: Callable[[], None] | None = None
    """Clears the engine's memo; a job with one is also timed cold."""
    side: Side | None = None


def side_job(side: Side, inputs: Sequence[object], operation: str, key: str, agree: str) -> Job:
    clear = clear_companion_memo if side.key in ("sg", "tw", "hk") else side.clear
    work = over_all(side.run, inputs)
    return Job(key, operation, side.engine, work, len(inputs), agree, side.note, clear, side)


def time_interleaved(jobs: Sequence[Job], rounds: int, *, cold: bool = False) -> list[float]:
    """Median seconds of each job over `rounds` rounds, after one untimed warm-up round. Every
    round times each job in turn, so that a slow spell of the machine falls on all of them.
    `cold` clears a job's memo (untimed) before each of its passes."""

    def timed(job: Job) -> float:
        if cold and job.clear is not None:
            job.clear()
        start = time.perf_counter()
        job.work()
        return time.perf_counter() - start

    for job in jobs:
        timed(job)
    spent: list[list[float]] = [[] for _ in jobs]
    for _ in range(rounds):
        for index, job in enumerate(jobs):
            spent[index].append(timed(job))
    return [statistics.median(times) for times in spent]


@dataclass
class Figures:
    """Hands per second by JSON key (None for a side that was skipped), and the table rows."""

    per_second: dict[str, float | None] = field(default_factory=dict)
    rows: list[Row] = field(default_factory=list)


def measure(jobs: Sequence[Job], rounds: int) -> Figures:
    """Warm figures for every job, timed together; then cold ones for the jobs with a memo."""
    for job in jobs:
        if job.side is not None:
            job.side.raised = 0
    warm = time_interleaved(jobs, rounds)
    cold_jobs = [job for job in jobs if job.clear is not None]
    cold_seconds = time_interleaved(cold_jobs, rounds, cold=True)
    cold = {id(job): seconds for job, seconds in zip(cold_jobs, cold_seconds, strict=True)}
    figures = Figures()
    for job, seconds in zip(jobs, warm, strict=True):
        notes = [job.note] if job.note else []
        if job.side is not None and job.side.raised:
            notes.append(f"raised on {job.side.raised // (rounds + 1)} hands")
        rate = job.count / seconds
        figures.per_second[job.key] = rate
        engine = f"{job.engine} [warm]" if job.clear else job.engine
        note = "; ".join(notes)
        figures.rows.append(Row(job.operation, engine, job.count, rate, seconds, job.agree, note))
        if id(job) in cold:
            seconds = cold[id(job)]
            rate = job.count / seconds
            figures.per_second[job.key.replace("_per_s", "_cold_per_s")] = rate
            engine = f"{job.engine} [cold]"
            figures.rows.append(Row(job.operation, engine, job.count, rate, seconds, job.agree))
    return figures


# --- Targets and output -----------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    key: str
    label: str
    numerator: str
    denominator: str
    bound: float
    at_most: bool = False
    """True when the ratio must stay at or below `bound`, else at or above it."""


TARGETS = (
    Target("sg_vs_gb", "sg scoring / pymahjonggb fans", "sg_score_per_s", "gb_score_per_s", 1.0),
    Target(
        "sg_vs_mahjong",
        "sg scoring / mahjong hand value",
        "sg_score_per_s",
        "mahjong_score_per_s",
        10.0,
    ),
    Target(
        "waits_vs_shanten", "waits / mahjong shanten", "waits_per_s", "mahjong_shanten_per_s", 2.0
    ),
    Target(
        "tw_cost_vs_sg",
        "tw hand cost / sg hand cost",
        "sg_score_per_s",
        "tw_score_per_s",
        2.0,
        at_most=True,
    ),
    Target(
        "hk_cost_vs_sg",
        "hk hand cost / sg hand cost",
        "sg_score_per_s",
        "hk_score_per_s",
        2.0,
        at_most=True,
    ),
)


def ratios(per_second: dict[str, float | None]) -> dict[str, tuple[float | None, bool | None]]:
    """Each target's ratio and whether it passes (None when a side is missing)."""
    found: dict[str, tuple[float | None, bool | None]] = {}
    for target in TARGETS:
        top, bottom = per_second.get(target.numerator), per_second.get(target.denominator)
        if top is None or bottom is None:
            found[target.key] = (None, None)
            continue
        ratio = top / bottom
        passed = ratio <= target.bound if target.at_most else ratio >= target.bound
        found[target.key] = (ratio, passed)
    return found


def print_targets(found: dict[str, tuple[float | None, bool | None]], note: str) -> None:
    print()
    print(f"targets (ratios within this run; {note})")
    for target in TARGETS:
        ratio, passed = found[target.key]
        bound = f"{'<=' if target.at_most else '>='} {target.bound:g}x"
        shown = "n/a" if ratio is None else f"{ratio:.3g}x"
        mark = "skipped" if passed is None else ("PASS" if passed else "FAIL")
        print(f"  {target.label:<34} {shown:>9}  (target {bound:<8}) {mark}")


def machine() -> str:
    cpu = platform.processor() or ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    parts = [platform.machine(), cpu, f"{os.cpu_count()} CPUs", platform.platform(terse=True)]
    return ", ".join(part for part in parts if part)


def profile_loop(side: Side, inputs: Sequence[object], top: int = 15) -> str:
    """cProfile of one pass of `side` over `inputs`: the top functions by cumulative and by own
    time."""
    work = over_all(side.run, inputs)
    work()  # warm the memo, as in the headline figures
    profiler = cProfile.Profile()
    profiler.enable()
    work()
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out).strip_dirs()
    for order in ("cumulative", "tottime"):
        out.write(f"\n--- {side.engine}: {len(inputs)} hands, top {top} by {order} ---\n")
        stats.sort_stats(order).print_stats(top)
    return out.getvalue()


# --- Main -------------------------------------------------------------------------------------


@dataclass
class Prepared:
    """The hands every side is timed on, converted to each side's input format."""

    inputs: dict[str, list[object]]
    """14-tile complete hands by side key (`sg`, `sg_dict`, `mahjong`, `gb`, and `hk` on the
    same hands), then `tw`."""
    tenpai: list[tuple[int, ...]]
    refused: dict[str, int]
    """Hands a side did not accept as a win, dropped for every side."""


def prepare(
    count: int, seed: int, sg_sides: Sequence[Side], peers: Sequence[Side], tw: Side, hk: Side
) -> Prepared:
    rng = random.Random(seed)
    four = make_deals(count, 4, rng)
    five = make_deals(count, 5, rng)
    sides = [*sg_sides, *peers]
    inputs = {side.key: [side.prepare(deal) for deal in four] for side in sides}
    accepted = {
        side.key: [side.accepts(side.run(item)) for item in inputs[side.key]] for side in sides
    }
    keep = [all(answers[index] for answers in accepted.values()) for index in range(count)]
    for key, items in inputs.items():
        inputs[key] = [item for item, kept in zip(items, keep, strict=True) if kept]
    refused = {key: answers.count(False) for key, answers in accepted.items()}
    tw_all = [tw.prepare(deal) for deal in five]
    inputs["tw"] = [item for item in tw_all if tw.accepts(tw.run(item))]
    refused["tw"] = len(tw_all) - len(inputs["tw"])
    kept = [deal for deal, kept in zip(four, keep, strict=True) if kept]
    hk_all = [hk.prepare(deal) for deal in kept]
    inputs["hk"] = [item for item in hk_all if hk.accepts(hk.run(item))]
    refused["hk"] = len(hk_all) - len(inputs["hk"])
    return Prepared(inputs, tenpai_of(kept, random.Random(seed + 1)), refused)


def waits_jobs(tenpai: Sequence[tuple[int, ...]]) -> list[Job]:
    """Our waits, and `mahjong`'s shanten when installed, on the 13-tile hands."""
    hands = [Hand.build([Tile(tile) for tile in tiles], complete=False) for tiles in tenpai]
    ours = [waits(hand, FOUR_SETS) for hand in hands]
    waiting = f"{sum(1 for found in ours if found)}/{len(hands)} wait"
    work = over_all(lambda hand: waits(hand, FOUR_SETS), hands)
    engine = "companion waits"
    note = "the waiting tiles"
    jobs = [
        Job("waits_per_s", "waits", engine, work, len(hands), waiting, note, clear_companion_memo)
    ]
    try:
        from mahjong.shanten import Shanten
    except ImportError:
        return jobs
    shanten = Shanten()
    counts = [counts_34(tiles) for tiles in tenpai]
    same = sum(
        (shanten.calculate_shanten(c) == 0) == bool(found)
        for c, found in zip(counts, ours, strict=True)
    )
    work = over_all(shanten.calculate_shanten, counts)
    engine = "mahjong Shanten.calculate_shanten"
    agree = f"{same}/{len(counts)} agree"
    note = "tenpai or not; no waits"
    jobs.append(Job("mahjong_shanten_per_s", "waits", engine, work, len(counts), agree, note))
    return jobs


def main(argv: Sequence[str] | None = None) -> int:
    began = time.perf_counter()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="1000 hands, 5 rounds (~10 s)")
    parser.add_argument("--json", action="store_true", help="print only a JSON object")
    parser.add_argument("--hands", type=int, help="hands of each kind (default 3000)")
    parser.add_argument("--rounds", type=int, help="timed rounds, median kept (default 7)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--profile", action="store_true", help="cProfile our sg scoring loop")
    args = parser.parse_args(argv)
    count = args.hands or (1000 if args.quick else 3000)
    rounds = args.rounds or (5 if args.quick else 7)

    has_score_hand = hasattr(scoring, "score_hand")
    entry = "score_hand" if has_score_hand else "score(dict)"
    sg = companion_side("sg")
    sg_sides = [sg]
    if has_score_hand:
        # For reference: the same work from the request dict, its text parsed every call.
        sg_dict = companion_side("sg", parsed=False)
        sg_dict.key = "sg_dict"
        sg_sides.append(sg_dict)
    tw = companion_side("tw")
    hk = companion_side("hk")
    skipped: list[str] = []
    versions: dict[str, str] = {}
    peers: list[Side] = []
    for module, package, make in (
        ("mahjong", "mahjong", mahjong_side),
        ("MahjongGB", "pymahjonggb", pymahjonggb_side),
    ):
        try:
            __import__(module)
        except ImportError:
            skipped.append(f"{package} is not installed: skipped (pip install -e '.[bench]')")
            continue
        versions[package] = _version(package)
        peers.append(make())

    hands = prepare(count, args.seed, sg_sides, peers, tw, hk)
    inputs = hands.inputs
    wins = f"{len(inputs['sg'])}/{count} wins"
    keys = {"sg": "sg_score_per_s", "sg_dict": "sg_score_dict_per_s"}
    keys.update(mahjong="mahjong_score_per_s", gb="gb_score_per_s")
    jobs = [
        side_job(side, inputs[side.key], "sg scoring", keys[side.key], wins)
        for side in [*sg_sides, *peers]
    ]
    for job in jobs:
        if job.key == "sg_score_dict_per_s":
            job.clear = None  # the same engine as score_hand: warm figures only
    jobs.extend(waits_jobs(hands.tenpai))
    wins = f"{len(inputs['tw'])}/{count} wins"
    jobs.append(side_job(tw, inputs["tw"], "tw scoring", "tw_score_per_s", wins))
    wins = f"{len(inputs['hk'])}/{len(inputs['sg'])} wins"
    jobs.append(side_job(hk, inputs["hk"], "hk scoring", "hk_score_per_s", wins))
    figures = measure(jobs, rounds)
    for key in ("mahjong_score_per_s", "gb_score_per_s", "mahjong_shanten_per_s"):
        figures.per_second.setdefault(key, None)

    found = ratios(figures.per_second)
    profile_text = profile_loop(sg, inputs["sg"]) if args.profile else ""
    elapsed = time.perf_counter() - began
    filtered = (
        f"hands kept where every side sees a win: {len(inputs['sg'])} of {count} 14-tile, "
        f"{len(inputs['tw'])} of {count} 17-tile; refused by "
        + ", ".join(f"{key} {n}" for key, n in hands.refused.items())
    )

    if args.json:
        data: dict[str, Any] = {
            key: None if value is None else round(value, 1)
            for key, value in figures.per_second.items()
        }
        for key, (ratio, passed) in found.items():
            data[key] = None if ratio is None else round(ratio, 4)
            data[f"{key}_pass"] = passed
        verdicts = [passed for _, passed in found.values()]
        data.update(
            all_pass=None if None in verdicts else all(verdicts),
            companion_entry=entry,
            hands=count,
            hands_timed={
                "complete_14": len(inputs["sg"]),
                "tenpai_13": len(hands.tenpai),
                "complete_17": len(inputs["tw"]),
                "complete_14_hk": len(inputs["hk"]),
            },
            refused=hands.refused,
            rounds=rounds,
            seed=args.seed,
            python=sys.version.split()[0],
            machine=machine(),
            peers=versions,
            skipped=skipped,
            seconds=round(elapsed, 1),
        )
        print(json.dumps(data, indent=2))
        if profile_text:
            print(profile_text, file=sys.stderr)
        return 0

    header = "; ".join(
        [
            f"{count} hands of each kind (seed {args.seed})",
            f"median of {rounds} rounds after a warm-up",
            f"Python {sys.version.split()[0]}",
            *(f"{name} {version}" for name, version in versions.items()),
        ]
    )
    using = f"our scoring is timed through companion.scoring.{entry}"
    if not has_score_hand:
        using += " (there is no score_hand: the hand text is parsed on every call)"
    print_table(figures.rows, header, [f"machine: {machine()}", using, filtered, *skipped])
    print_targets(found, "warm figures")
    print(f"\n{elapsed:.1f} s in main()")
    if profile_text:
        print(profile_text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Instructions per hand of our warm scoring, counted by valgrind's callgrind: a figure that the
machine's load does not move, for comparing two versions of the engine on a busy machine.

    python bench/instructions.py [--profile sg] [--hands 500] [--src OTHER/src]

Warms the memos on two rounds of `bench/compare.py`'s seeded hands (3,000 each; for `riichi`
its riichi wins under the tenhou preset, for `sanma` its three-player wins, each scored by
`score_riichi_request`), then scores `--hands` fresh ones; only that last loop is counted
(callgrind collects inside `map_next`, which nothing else here calls). `--src` counts another
checkout's engine on the same hands. Needs `valgrind` (Debian's package); hash seeds are fixed
so that two runs of one version agree to the instruction. Wall-clock speed is still
`bench/compare.py`'s to report: instructions leave out the memory's latency, so a change that
fills fewer memos gains more in time.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def child(profile_id: str, hands: int) -> None:
    """The counted run: warm-up, then the measured loop inside `map`."""
    sys.path.insert(0, str(HERE))
    import compare  # the bench's own helpers, on the path just set

    if profile_id == "mcr":
        # The MCR differential test's hands, each round a fresh set, read outside the count.
        (ours, *_), _ = compare.mcr_jobs(1000, 2024, 3)
        for item in ours.inputs[0] + ours.inputs[1]:
            ours.run(item)
        list(map(ours.run, ours.inputs[2][:hands]))
        return
    if profile_id in ("riichi", "sanma"):
        # `compare.py`'s riichi wins (tenhou preset) or three-player wins (sanma's defaults),
        # each round a fresh set, read untimed.
        riichi = profile_id == "riichi"
        side = compare.riichi_side() if riichi else compare.sanma_side()
        deal = compare.riichi_deals if riichi else compare.sanma_deals
        deals = deal(3000 * 2 + hands, "2024")
        for item in [side.prepare(deal) for deal in deals[:6000]]:
            side.run(item)
        measured = [side.prepare(deal) for deal in deals[6000:]]
        list(map(side.run, measured))
        return
    sets = 5 if profile_id == "tw" else 4
    side = compare.companion_side(profile_id)
    rounds = compare.round_deals(3000, "2024", 3, sets)
    for deal in rounds[0] + rounds[1]:
        side.run(side.prepare(deal))
    measured = [side.prepare(deal) for deal in rounds[2][:hands]]
    list(map(side.run, measured))


def count(profile_id: str, hands: int, src: str | None) -> int:
    """Instructions collected in the measured loop of one child run."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    if src is not None:
        env["PYTHONPATH"] = src
    with tempfile.TemporaryDirectory() as scratch:
        command = [
            "valgrind",
            "--tool=callgrind",
            "--toggle-collect=map_next",
            f"--callgrind-out-file={scratch}/callgrind.out",
            sys.executable,
            __file__,
            "--child",
            "--profile",
            profile_id,
            "--hands",
            str(hands),
        ]
        run = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if found is None:
        raise SystemExit(f"callgrind printed no count:\n{run.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--profile", default="sg", choices=["sg", "tw", "hk", "sg-table", "mcr", "riichi", "sanma"]
    )
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--src", help="another checkout's src directory, counted the same way")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.profile, args.hands)
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    total = count(args.profile, args.hands, args.src)
    where = args.src or "this checkout"
    print(f"{args.profile}: {total / args.hands:,.0f} instructions a hand ({where})")


if __name__ == "__main__":
    main()

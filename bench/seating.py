"""Benchmark: seating an event (companion.events.seating), every round of it, and its figures.

For each field it prints the time to seat every round (the best of a few runs), the pairs who
meet again (repeats) and the players seated in a wind they had more often than another (seat
repeats), in total and by round, and which way the rounds were seated. The fields: 16 players
over 4 rounds, 32 over 7, 64 over 8, 100 over 8, two the known schedules do not fit (100
over 8 with late entries and byes, 24 over 6), and the largest event, 400 over 40 (issue 39:
under 1 s).

    python bench/seating.py [--seed N] [--runs N] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import time
from dataclasses import dataclass

from companion.events.plan import Entrant, Leftover, Seating, SeatingPlan
from companion.events.seating import seat_event


@dataclass(frozen=True)
class Field:
    label: str
    plan: SeatingPlan


def fields(seed: int) -> list[Field]:
    def plain(count: int, rounds: int) -> Field:
        names = [f"P{number}" for number in range(1, count + 1)]
        return Field(f"{count}/{rounds}", SeatingPlan.of(names, rounds, seed=seed))

    late: list[str | Entrant] = [f"P{number}" for number in range(1, 98)]
    late += [
        Entrant("Late 1", joins=3),
        Entrant("Late 2", joins=5),
        Entrant("Gone", withdraws_after=4),
    ]
    return [
        plain(16, 4),
        plain(32, 7),
        plain(64, 8),
        plain(100, 8),
        Field("100/8 late+byes", SeatingPlan.of(late, 8, seed=seed, leftover=Leftover.BYES)),
        plain(24, 6),
        plain(400, 40),  # the largest event (issue 39: seated in under 1 s)
    ]


def timed(plan: SeatingPlan, runs: int) -> tuple[float, float, Seating]:
    """The best wall time and the best CPU time (this process's: on a shared machine the wall
    time also holds the other jobs' turns) of `runs` seatings, and the seating."""
    best = best_cpu = float("inf")
    seating = seat_event(plan)
    for _ in range(runs):
        start, cpu = time.perf_counter(), time.process_time()
        seating = seat_event(plan)
        best = min(best, time.perf_counter() - start)
        best_cpu = min(best_cpu, time.process_time() - cpu)
    return best, best_cpu, seating


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for field in fields(args.seed):
        seconds, cpu, seating = timed(field.plan, args.runs)
        rows.append(
            {
                "field": field.label,
                "seconds": round(seconds, 4),
                "cpu_seconds": round(cpu, 4),
                "repeats": seating.repeats,
                "seat_repeats": seating.seat_repeats,
                "repeats_by_round": [round_.repeats for round_ in seating.rounds],
                "seat_repeats_by_round": [round_.seat_repeats for round_ in seating.rounds],
                "byes": sum(len(round_.byes) for round_ in seating.rounds),
            }
        )
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    load = os.getloadavg()[0]
    print(f"seating, seed {args.seed}, best of {args.runs} runs, load average {load:.1f}")
    print(
        f"{'field':<16} {'time':>8} {'cpu':>8} {'repeats':>8} {'seat rep':>9}  "
        "by round (repeats | seats)"
    )
    for row in rows:
        by_round = " ".join(map(str, row["repeats_by_round"]))
        seats = " ".join(map(str, row["seat_repeats_by_round"]))
        print(
            f"{row['field']:<16} {row['seconds'] * 1000:>6.1f}ms "
            f"{row['cpu_seconds'] * 1000:>6.1f}ms {row['repeats']:>8} "
            f"{row['seat_repeats']:>9}  {by_round} | {seats}"
        )


if __name__ == "__main__":
    main()

"""How much the default margin moves with the machine's noise alone, per way of measuring it.

Reads the `controls.jsonl` of finished or stopped reductions (their work directories). A
twin measured 5 or more times within one reduction gives that machine's run-to-run noise:
each measure over its twin's median. From those, it draws calibrations many times and
prints, for each way to turn the twin's calibration runs into a margin, its mean and
p10-p90: the range of 3 runs over their median (an earlier margin), and
NOISE_WIDTH standard deviations over the mean of 3, 5 and 7 runs (`calibrate.run_spread`).

    python benchmarks/margin_noise.py WORK_DIR [WORK_DIR ...] [--draws 20000]
    python benchmarks/margin_noise.py WORK_DIR [WORK_DIR ...] --by-length

`--by-length` groups every twin measured 3 or more times in one reduction by its median
seconds instead, and prints each group's NOISE_WIDTH sd over the mean of the pooled
measures (each over its twin's median): how a run's spread within a reduction moves with
its length, what the kill-point floor (`calibrate.DEFAULT_FLOOR_S`) is chosen by.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import sys
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from symshrink.oracle.calibrate import run_spread


def twins(work_dirs: Sequence[Path], least: int) -> list[list[float]]:
    """The measures of every twin measured `least` or more times in one reduction."""
    out: list[list[float]] = []
    for work in work_dirs:
        by_key: dict[str, list[float]] = defaultdict(list)
        for line in (work / "controls.jsonl").read_text().splitlines():
            record = json.loads(line)
            by_key[record["key"]] += record["control"]["measures"]
        out += [measures for measures in by_key.values() if len(measures) >= least]
    return out


def noise(work_dirs: Sequence[Path]) -> list[float]:
    """Every measure of a twin measured 5+ times in one reduction, over that twin's median."""
    out: list[float] = []
    for measures in twins(work_dirs, 5):
        median = statistics.median(measures)
        out += [m / median for m in measures]
    return out


LENGTHS = (0.0, 0.25, 0.5, 1.0, 2.0, float("inf"))


def by_length(work_dirs: Sequence[Path]) -> None:
    """The spread of twins measured 3+ times in a reduction, grouped by their median."""
    print("| twin's median | twins | measures | 1.7 sd / mean, pooled |")
    print("|---|---:|---:|---:|")
    found = twins(work_dirs, 3)
    for lo, hi in itertools.pairwise(LENGTHS):
        inside = [m for m in found if lo <= statistics.median(m) < hi]
        pooled = [x / statistics.median(m) for m in inside for x in m]
        if len(pooled) < 2:
            continue
        rel = run_spread(pooled)
        label = f"{lo:g}-{hi:g} s" if hi != float("inf") else f">= {lo:g} s"
        print(f"| {label} | {len(inside)} | {len(pooled)} | {rel:.3f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("work_dirs", type=Path, nargs="+")
    ap.add_argument("--draws", type=int, default=20000)
    ap.add_argument("--by-length", action="store_true", help="the spread by the twin's length")
    args = ap.parse_args()
    if args.by_length:
        by_length(args.work_dirs)
        return
    pool = noise(args.work_dirs)
    print(f"{len(pool)} measures, coefficient of variation {statistics.stdev(pool):.1%}\n")
    ways: dict[str, tuple[int, Callable[[Sequence[float]], float]]] = {
        "range of 3 / median": (3, lambda s: (max(s) - min(s)) / statistics.median(s)),
        "spread of 3": (3, run_spread),
        "spread of 5": (5, run_spread),
        "spread of 7": (7, run_spread),
    }
    rng = random.Random(0)
    print("| margin measure | mean | p10 | p90 |")
    print("|---|---:|---:|---:|")
    for name, (n, measure) in ways.items():
        values = [measure([rng.choice(pool) for _ in range(n)]) for _ in range(args.draws)]
        deciles = statistics.quantiles(values, n=10)
        print(f"| {name} | {statistics.mean(values):.2f} | {deciles[0]:.2f} | {deciles[-1]:.2f} |")


if __name__ == "__main__":
    main()

"""How much the default margin moves with the machine's noise alone, per way of measuring it.

Reads the `controls.jsonl` of finished or stopped reductions (their work directories). A
twin measured 5 or more times within one reduction gives that machine's run-to-run noise:
each measure over its twin's median. From those, it draws calibrations many times and
prints, for each way to turn the twin's calibration runs into a margin, its mean and
p10-p90: the range of 3 runs over their median (the margin up to this session), and
NOISE_WIDTH standard deviations over the mean of 3, 5 and 7 runs (`Calibration.spread`).

    python benchmarks/margin_noise.py WORK_DIR [WORK_DIR ...] [--draws 20000]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from symshrink.oracle.calibrate import Calibration


def noise(work_dirs: Sequence[Path]) -> list[float]:
    """Every measure of a twin measured 5+ times in one reduction, over that twin's median."""
    out: list[float] = []
    for work in work_dirs:
        by_key: dict[str, list[float]] = defaultdict(list)
        for line in (work / "controls.jsonl").read_text().splitlines():
            record = json.loads(line)
            by_key[record["key"]] += record["control"]["measures"]
        for measures in by_key.values():
            if len(measures) >= 5:
                median = statistics.median(measures)
                out += [m / median for m in measures]
    return out


def spread(runs: Sequence[float]) -> float:
    """The margin's measure as calibration takes it now."""
    return Calibration("cpu", (), 0.0, baseline_measures=tuple(runs)).spread


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("work_dirs", type=Path, nargs="+")
    ap.add_argument("--draws", type=int, default=20000)
    args = ap.parse_args()
    pool = noise(args.work_dirs)
    print(f"{len(pool)} measures, coefficient of variation {statistics.stdev(pool):.1%}\n")
    ways: dict[str, tuple[int, Callable[[Sequence[float]], float]]] = {
        "range of 3 / median": (3, lambda s: (max(s) - min(s)) / statistics.median(s)),
        "spread of 3": (3, spread),
        "spread of 5": (5, spread),
        "spread of 7": (7, spread),
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

"""How a run's CPU time spreads with its length: where a kill-point floor steadies verdicts.

A verdict compares one run's CPU seconds with a kill point; a run at the edge is judged
by its noise. Part of a run's noise is a fixed cost (the fork, the collector, the other
core's load at start), so the shorter the run, the larger its spread relative to it. This
benchmark runs a ladder of repros and their static twins in the oracle's warm child, each
candidate started beside its twin (as the oracle's spare slot measures a twin), `--runs`
rounds, every pair once a round (a drifting load hits them alike). Printed per script:
its median CPU seconds, the standard deviation, and 1.7 standard deviations over the
mean (the margin's measure, `Calibration.spread`); per pair, the same of their ratio;
then the runs pooled by length (each run over its script's median).

    python benchmarks/floor_noise.py REPRO [REPRO ...] [--runs 8]

The verdict's margin is at least `noise.MIN_MARGIN` (0.1): where 1.7 sd / mean of a run
stays under it, a candidate's own noise cannot decide its verdict outside the margin.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from verdict_measure import _run  # one way to run a job to its end

from symshrink.baseline import static_twin
from symshrink.oracle.calibrate import NOISE_WIDTH
from symshrink.repro.parse import parse_file
from symshrink.repro.render import render
from symshrink.sandbox import WarmPool

BINS = (0.0, 0.25, 0.5, 1.0, 2.0, float("inf"))


def widths(values: list[float]) -> tuple[float, float, float]:
    """Median, standard deviation, NOISE_WIDTH sd over the mean."""
    mean = statistics.mean(values)
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    return statistics.median(values), sd, NOISE_WIDTH * sd / mean if mean else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("repros", type=Path, nargs="+")
    ap.add_argument("--runs", type=int, default=8)
    args = ap.parse_args()
    pairs = []
    for path in args.repros:
        model = parse_file(path)
        name = path.parent.name if path.stem == "repro" else path.stem  # a corpus entry's
        pairs.append((name, render(model), render(static_twin(model))))
    times: dict[str, list[float]] = {}
    ratios: dict[str, list[float]] = {}
    pool = WarmPool(slots=2)
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(max_workers=2) as ex:
        scratch = Path(tmp)
        _run(pool, scratch, pairs[0][2])  # warm both slots' caches of the imports
        for _ in range(args.runs):
            for name, repro, twin in pairs:
                r_f = ex.submit(_run, pool, scratch, repro)
                t = _run(pool, scratch, twin).exit.cpu_s
                r = r_f.result().exit.cpu_s
                times.setdefault(name, []).append(r)
                times.setdefault(f"{name} (twin)", []).append(t)
                ratios.setdefault(name, []).append(r / t)
    pool.close()
    print(f"{args.runs} runs of each, candidate beside its twin (CPU s)\n")
    print("| script | median s | sd s | 1.7 sd / mean |")
    print("|---|---:|---:|---:|")
    for name, values in sorted(times.items(), key=lambda kv: statistics.median(kv[1])):
        med, sd, rel = widths(values)
        print(f"| {name} | {med:.3f} | {sd:.3f} | {rel:.3f} |")
    print("\n| pair | median ratio | 1.7 sd / mean of the ratio |")
    print("|---|---:|---:|")
    for name, values in ratios.items():
        med, _, rel = widths(values)
        print(f"| {name} | {med:.2f} | {rel:.3f} |")
    print("\n| run length | scripts | runs | sd s, median | 1.7 sd / mean, pooled | worst script |")
    print("|---|---:|---:|---:|---:|---:|")
    for lo, hi in itertools.pairwise(BINS):
        inside = [v for v in times.values() if lo <= statistics.median(v) < hi]
        if not inside:
            continue
        pooled = [x / statistics.median(v) for v in inside for x in v]
        worst = max(widths(v)[2] for v in inside)
        sd = statistics.median(widths(v)[1] for v in inside)
        label = f"{lo:g}-{hi:g} s" if hi != float("inf") else f">= {lo:g} s"
        rel = widths(pooled)[2]
        print(f"| {label} | {len(inside)} | {len(pooled)} | {sd:.3f} | {rel:.3f} | {worst:.3f} |")


if __name__ == "__main__":
    main()

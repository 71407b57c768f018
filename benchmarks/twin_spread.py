"""How much one run of the original's twin spreads against one of a result's twin, side by side.

Calibration measures the original's twin, while a result is judged against its own twin,
often far shorter once the graph passes have run (the 64-symbol seed's: 0.7-1.6 s, its
result's 0.2-0.3 s; where a graph stage runs, the margin comes from its result's twin:
`CompileOracle.measure_edge`). This runs both twins `--runs`
times, alternating in one warm pool, and prints per twin its median, range and 1.7 sd
over the mean (the margin's measure), over all runs and over the first 5 (what calibration
measures).

    python benchmarks/twin_spread.py ORIGINAL RESULT [--runs 20]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.seed import _run
from symshrink.baseline import static_twin
from symshrink.oracle.calibrate import run_spread
from symshrink.repro.parse import parse_file
from symshrink.repro.render import render
from symshrink.sandbox import WarmPool


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("original", type=Path)
    ap.add_argument("result", type=Path)
    ap.add_argument("--runs", type=int, default=20)
    args = ap.parse_args()
    twins = {
        "original's twin": render(static_twin(parse_file(args.original))),
        "result's twin": render(static_twin(parse_file(args.result))),
    }
    times: dict[str, list[float]] = {name: [] for name in twins}
    pool = WarmPool(slots=1)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for _ in range(args.runs):
                for name, source in twins.items():
                    run = _run(pool, Path(tmp), source, 600.0)
                    if run.error:
                        raise SystemExit(f"{name} failed: {run.error}")
                    times[name].append(run.exit.cpu_s)
    finally:
        pool.close()
    print("| twin | median | range | 1.7 sd / mean | of the first 5 |")
    print("|---|---:|---|---:|---:|")
    for name, xs in times.items():
        print(
            f"| {name} | {statistics.median(xs):.2f} s | {min(xs):.2f}-{max(xs):.2f} s "
            f"| {run_spread(xs):.3f} | {run_spread(xs[:5]):.3f} |"
        )


if __name__ == "__main__":
    main()

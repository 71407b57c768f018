"""How often one fresh run of a finished result is at R x one fresh run of its twin.

seed.py judges each result by 3 fresh runs side by side, each against one run of the twin.
With a twin of ~0.2-0.3 s, one run of it spreads about as much as the margin, so 3 runs
tell little about whether a result is reliably slow. This re-measures given results
(`.min.py` files) N times the same way, interleaved, and prints per result its free
symbols, the median and range of the one-to-one ratios, how many of them reach R, and the
least of its runs against the median of its twin's runs (as verdicts measure the twin).

    python benchmarks/fresh.py RESULT [RESULT ...] [--runs 15] [--ratio 4]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.seed import _against_median_twin, fresh_ratios
from symshrink.repro.parse import parse_file


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results", type=Path, nargs="+")
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--ratio", type=float, default=4.0, help="R")
    ap.add_argument("--timeout", type=float, default=600.0)
    args = ap.parse_args()
    print(
        "| result | free symbols | median ratio | range | runs >= R "
        "| least vs twins' median | twin median |"
    )
    print("|---|---:|---:|---|---:|---:|---:|")
    for path in args.results:
        rows, _, _ = fresh_ratios(path, args.runs, args.timeout, args.ratio)
        failed = [row.error for row in rows if row.error]
        if failed:
            print(f"| {path} | run failed: {failed[0]} |||||", flush=True)
            continue
        ratios = [row.ratio for row in rows]
        twin = statistics.median(row.twin_s for row in rows)
        least = min(_against_median_twin(rows))
        reached = sum(r >= args.ratio for r in ratios)
        print(
            f"| {path} | {len(parse_file(path).free_symbols)} | {statistics.median(ratios):.2f}x "
            f"| {min(ratios):.2f}-{max(ratios):.2f}x | {reached} of {len(rows)} "
            f"| {least:.2f}x | {twin:.2f} s |",
            flush=True,
        )


if __name__ == "__main__":
    main()

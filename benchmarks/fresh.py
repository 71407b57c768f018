"""How often one fresh run of a finished result is at R x one fresh run of its twin.

seed.py judges each result by 3 fresh runs side by side, each against one run of the twin.
With a twin of ~0.2-0.3 s, one run of it spreads about as much as the margin, so 3 runs
tell little about whether a result is reliably slow. This re-measures given results
(`.min.py` files) N times the same way, interleaved, and prints per result its free
symbols, the median and range of the one-to-one ratios, how many of them reach R, and the
least of its runs against the median of its twin's runs (as verdicts measure the twin).

`--fewer K` measures each result again with 1 to K of its free symbols pinned to their
hints (least used first, as the pin pass tries them): where R lies on this machine, and
whether a smaller result could have held it. A 1-minimal result's neighbours fell under
its bar once each during the reduction; this says how far under, on many runs.

    python benchmarks/fresh.py RESULT [RESULT ...] [--runs 15] [--ratio 4] [--fewer K]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.seed import _against_median_twin, fresh_ratios
from symshrink.passes.common import normalize
from symshrink.passes.symbols import pin_edits, rewrite_pins
from symshrink.repro.model import Repro
from symshrink.repro.parse import parse_file


def fewer(model: Repro, k: int) -> list[tuple[str, Repro]]:
    """`model`, then `model` with its first 1..k pin edits applied (those the pass would
    find valid), each with its label."""
    pins = pin_edits(model)
    pinned = ((n, normalize(rewrite_pins(model, pins[:n]))) for n in range(1, k + 1))
    return [("", model)] + [(f" - {n}", m) for n, m in pinned if m is not None]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results", type=Path, nargs="+")
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--ratio", type=float, default=4.0, help="R")
    ap.add_argument("--timeout", type=float, default=600.0)
    ap.add_argument("--fewer", type=int, default=0, help="also with 1..K symbols pinned")
    args = ap.parse_args()
    print(
        "| result | free symbols | median ratio | range | runs >= R "
        "| least vs twins' median | twin median |"
    )
    print("|---|---:|---:|---|---:|---:|---:|")
    for path in args.results:
        for label, model in fewer(parse_file(path), args.fewer):
            name = f"{path}{label}"
            rows, _, _ = fresh_ratios(model, args.runs, args.timeout, args.ratio)
            failed = [row.error for row in rows if row.error]
            if failed:
                print(f"| {name} | run failed: {failed[0]} |||||", flush=True)
                continue
            ratios = [row.ratio for row in rows]
            twin = statistics.median(row.twin_s for row in rows)
            least = min(_against_median_twin(rows))
            reached = sum(r >= args.ratio for r in ratios)
            print(
                f"| {name} | {len(model.free_symbols)} | {statistics.median(ratios):.2f}x "
                f"| {min(ratios):.2f}-{max(ratios):.2f}x | {reached} of {len(rows)} "
                f"| {least:.2f}x | {twin:.2f} s |",
                flush=True,
            )


if __name__ == "__main__":
    main()

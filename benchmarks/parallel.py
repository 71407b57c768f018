"""Speculative -j 2 against -j 1: calls and wall time of whole reductions, in one run.

The planted models of `tests/planted.py` (n free symbols, k planted; the predicate says yes
iff a floor division still uses every planted symbol) judged by that Python predicate after
sleeping `--cost` seconds: a stand-in for a compile, so that what two slots buy shows and
the two cores of this machine are not what is measured.

    python benchmarks/parallel.py [--n 16 64] [--k 1 3] [--seeds 2] [--cost 0.2]

Per case: oracle calls (each distinct candidate once), wall seconds and whether -j 2 ended
at the same result as -j 1 (it must: the speculation makes the same decisions).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from symshrink.reducer import Reducer
from symshrink.repro.render import render
from tests.planted import choose_planted, planted_model, planted_predicate


def reduce(n: int, k: int, seed: int, jobs: int, cost: float) -> tuple[int, float, str]:
    """One reduction: (oracle calls, wall seconds, the result's text)."""
    predicate = planted_predicate(choose_planted(n, k, seed))

    def test(candidate) -> bool:
        time.sleep(cost)
        return predicate(candidate)

    reducer = Reducer(test=test, jobs=jobs)
    started = time.monotonic()
    result = reducer.run(planted_model(n, seed))
    return reducer.stats.oracle_calls, time.monotonic() - started, render(result)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, nargs="+", default=[16, 64])
    ap.add_argument("--k", type=int, nargs="+", default=[1, 3])
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--cost", type=float, default=0.2, help="seconds each oracle call sleeps")
    args = ap.parse_args()
    print("| n | k | seed | calls -j 1 | -j 2 | wall s -j 1 | -j 2 | speed-up | same |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    totals = [0, 0, 0.0, 0.0]
    for n in args.n:
        for k in args.k:
            for seed in range(args.seeds):
                c1, s1, r1 = reduce(n, k, seed, 1, args.cost)
                c2, s2, r2 = reduce(n, k, seed, 2, args.cost)
                for i, v in enumerate((c1, c2, s1, s2)):
                    totals[i] += v
                print(
                    f"| {n} | {k} | {seed} | {c1} | {c2} | {s1:.1f} | {s2:.1f} "
                    f"| {s1 / s2:.2f}x | {'yes' if r1 == r2 else 'NO'} |"
                )
    c1, c2, s1, s2 = totals
    print(
        f"\ntotal: calls {c1} -> {c2} ({c2 / c1:.2f}x), wall {s1:.0f} s -> {s2:.0f} s "
        f"({s1 / s2:.2f}x faster)"
    )


if __name__ == "__main__":
    main()

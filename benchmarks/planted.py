"""Oracle calls to reach a planted ground truth: symshrink vs a plain ddmin, in one run.

Repros are written by torch's own writer (`tests/fixtures_gen.py`, family floordiv_sum:
n dynamic inputs, `k = (s0 + ... + s{n-1})//160 + 866`). The predicate says yes iff a
floor division still uses every one of k planted symbols, so the right answer is known.

    python benchmarks/planted.py [--n 16 64 256] [--k 1 3 5] [--seeds 3]

Reports, per case: calls of plain ddmin over the free symbols (pin the rest), calls of
symshrink's pin-symbols pass alone (same search space), calls of the whole reduction
(every pass to a fixpoint), their ratios, and whether each ended at exactly the planted set.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from symshrink import search
from symshrink.passes.symbols import PIN, pin_edits
from symshrink.reducer import Reducer
from symshrink.repro.candidate import Candidate
from symshrink.repro.parse import parse_file
from tests.fixtures_gen import generate
from tests.planted import choose_planted, planted_predicate


def pin_calls(repro, test, minimizer) -> tuple[int, set[str]]:
    """Calls of `minimizer` over the free symbols, removing = pinning to the hint.

    With `search.ddmin` this is the baseline; with `search.minimize` it is symshrink's
    pin-symbols pass alone (the same search space).
    """
    edits = pin_edits(repro)

    def pinned(kept: tuple) -> bool:
        model = PIN.apply(repro, [e for e in edits if e not in set(kept)])
        return model is not None and test(Candidate.of(model))

    counted = search.CountingPredicate(pinned)
    kept = minimizer(edits, counted)
    return counted.calls, {e.symbol for e in kept}


def full_calls(repro, test) -> tuple[int, set[str]]:
    reducer = Reducer(test=test)
    result = reducer.run(repro)
    return reducer.stats.oracle_calls, set(result.hints)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, nargs="+", default=[16, 64, 256])
    ap.add_argument("--k", type=int, nargs="+", default=[1, 3, 5])
    ap.add_argument("--seeds", type=int, default=3)
    args = ap.parse_args()

    out = Path(tempfile.mkdtemp(prefix="symshrink-planted-"))
    print("| n | k | ddmin calls | pin pass calls | ratio | full reduction calls | ratio | exact |")
    print("|---|---|---|---|---|---|---|---|")
    totals = {"ddmin": 0.0, "pin": 0.0, "full": 0.0}
    start = time.monotonic()
    for n in args.n:
        repro = parse_file(generate("floordiv_sum", out, n=n).path)
        for k in args.k:
            rows = {"ddmin": [], "pin": [], "full": []}
            exact = True
            for seed in range(args.seeds):
                names = sorted(repro.hints)
                planted = {names[int(s[1:])] for s in choose_planted(n, k, seed)}
                test = planted_predicate(planted)
                for name, fn in (
                    ("ddmin", partial(pin_calls, minimizer=search.ddmin)),
                    ("pin", partial(pin_calls, minimizer=search.minimize)),
                    ("full", full_calls),
                ):
                    calls, kept = fn(repro, test)
                    rows[name].append(calls)
                    exact &= kept == planted
            mean = {key: statistics.mean(v) for key, v in rows.items()}
            for key in totals:
                totals[key] += mean[key]
            print(
                f"| {n} | {k} | {mean['ddmin']:.1f} | {mean['pin']:.1f} | "
                f"{mean['pin'] / mean['ddmin']:.2f} | {mean['full']:.1f} | "
                f"{mean['full'] / mean['ddmin']:.2f} | {'yes' if exact else 'NO'} |"
            )
    print(
        f"\ntotal: ddmin {totals['ddmin']:.0f}, pin pass {totals['pin']:.0f} "
        f"({totals['pin'] / totals['ddmin']:.2f}x), full reduction {totals['full']:.0f} "
        f"({totals['full'] / totals['ddmin']:.2f}x); {time.monotonic() - start:.0f} s"
    )


if __name__ == "__main__":
    main()

"""The slippage guard's share on candidates near the edge: of all their time, or beyond their twin.

Candidates are the seed's 64-symbol backward repro (or any repro) with all but k free
symbols pinned to their hints, least-used first as `pin-symbols` tries them (or in a
shuffled order with `--shuffle SEED`). Each candidate and its static twin run once to the
end on one `Bench` (the children of one warm pool, one after the other, the twin's spots
kept as the oracle keeps them); the original runs once, sampled for as long as calibration
samples its reference (8 x its kill point, here in wall time). Each candidate's share of
the original's spots in the phases it visited is taken as its verdict takes it
(`signature.hot_share`): of all its samples (the rule before b1abe73) and of the CPU time
it spends beyond its twin (the rule since).

    python benchmarks/guard_shares.py [REPRO] [--keep 16,12,10,8] [--shuffle SEED] [--ratio 4]

REPRO defaults to the seed's repro, written by torch (`tests/fixtures_gen.py`).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from symshrink.baseline import control, static_twin
from symshrink.bench import Bench, Rule
from symshrink.graph import SymGraph
from symshrink.oracle.calibrate import Calibration
from symshrink.oracle.controls import ControlTime
from symshrink.oracle.original import REFERENCE_FACTOR
from symshrink.oracle.signature import hot_share
from symshrink.passes.symbols import PIN, Pin
from symshrink.repro.candidate import Candidate
from symshrink.repro.model import Repro
from symshrink.repro.parse import parse_file
from symshrink.sandbox import Run
from tests.fixtures_gen import generate

TIMEOUT_S = 300.0


def _keeping(model: Repro, order: list[str], k: int) -> Repro:
    pinned = PIN.apply(model, [Pin(s) for s in order[: max(0, len(order) - k)]])
    assert pinned is not None  # pinning keeps every value
    return pinned


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("repro", type=Path, nargs="?")
    ap.add_argument("--keep", default="16,14,12,11,10,9,8,6")
    ap.add_argument("--shuffle", type=int, default=None)
    ap.add_argument("--ratio", type=float, default=4.0)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="guard-shares-") as tmp:
        scratch = Path(tmp)
        repro = args.repro or generate("aot_frames_outer", scratch, n=64).path
        model = parse_file(repro)
        order = SymGraph(model).symbols_by_use()
        if args.shuffle is not None:
            random.Random(args.shuffle).shuffle(order)
        with Bench(twin_runs=1, scratch=scratch) as bench:
            rule = Rule(ratio=args.ratio)

            def measure(m: Repro, timeout_s: float) -> tuple[Run, ControlTime]:
                """`m` run to its end or `timeout_s`, and its twin's time and spots."""
                candidate = Candidate.of(m)
                measured = bench.measure(candidate, rule, timeout_s)
                twin = bench.controls.get(control(candidate, rule.baseline).key)
                assert measured.run is not None and twin is not None, measured.detail
                return measured.run, twin

            _, twin = measure(static_twin(model), TIMEOUT_S)  # the original's, kept on the bench
            twin_s = twin.seconds
            kill_at = args.ratio * twin_s * 1.1
            reference, _ = measure(model, REFERENCE_FACTOR * kill_at)
            assert reference.profile is not None, reference.error
            cal = Calibration("cpu", (), kill_at, profiles=(reference.profile,))
            print(f"original: twin {twin_s:.2f} s, reference {reference.exit.cpu_s:.1f} s")
            print(
                "| kept symbols | ratio | twin s | top spot | of all | beyond its twin | needed |"
            )
            print("|---:|---:|---:|---|---:|---:|---:|")
            for k in (int(k) for k in args.keep.split(",")):
                run, twin = measure(_keeping(model, order, k), TIMEOUT_S)
                run = run.seen_at(args.ratio * twin.seconds)
                original = cal.like(run)
                assert original is not None
                old, _ = hot_share(original, run.spots())
                new, _ = hot_share(original, run.seconds(), twin.spots)
                top = Counter(run.seconds()).most_common(1)
                print(
                    f"| {k} | {run.exit.cpu_s / twin.seconds:.2f} | {twin.seconds:.2f} "
                    f"| `{top[0][0].rsplit('.', 1)[-1] if top else '-'}` "
                    f"| {old:.0%} | {new:.0%} | {original.share / 2:.0%} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()

"""The slippage guard's share on candidates near the edge: of all their time, or beyond their twin.

Candidates are the seed's 64-symbol backward repro (or any repro) with all but k free
symbols pinned to their hints, least-used first as `pin-symbols` tries them (or in a
shuffled order with `--shuffle SEED`). Each candidate and its static twin run once to the
end in children of one warm pool, one after the other; the original runs once, sampled up
to where calibration samples its reference (8 x its kill point). Each candidate's share of
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

from symshrink.baseline import control
from symshrink.graph import SymGraph
from symshrink.oracle.calibrate import Calibration
from symshrink.oracle.compile_oracle import REFERENCE_FACTOR
from symshrink.oracle.pool import WarmPool
from symshrink.oracle.runner import Job, Limits, Run, Workload
from symshrink.oracle.signature import hot_share
from symshrink.passes.symbols import PIN, Pin
from symshrink.repro.model import Repro
from symshrink.repro.parse import parse_file
from symshrink.repro.render import render
from tests.fixtures_gen import generate

TIMEOUT_S = 300.0


def _run(pool: WarmPool, scratch: Path, source: str, mode: str, kill_at: float | None) -> Run:
    job = Job.create(scratch, source, Workload(retrace={"mode": mode}))
    try:
        return pool.run(job, Limits(timeout_s=TIMEOUT_S, kill_at=kill_at))
    finally:
        job.remove()


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
        pool = WarmPool(slots=1, root=scratch)
        try:

            def twin_of(m: Repro) -> Run:
                ctl = control(render(m), "static")
                return _run(pool, scratch, ctl.source, ctl.mode, None)

            twin = twin_of(model)
            kill_at = args.ratio * twin.exit.cpu_s * 1.1
            reference = _run(pool, scratch, render(model), "preserved", REFERENCE_FACTOR * kill_at)
            assert reference.profile is not None, reference.error
            cal = Calibration("cpu", (), kill_at, profiles=(reference.profile,))
            print(f"original: twin {twin.exit.cpu_s:.2f} s, reference {reference.exit.cpu_s:.1f} s")
            print(
                "| kept symbols | ratio | twin s | top spot | of all | beyond its twin | needed |"
            )
            print("|---:|---:|---:|---|---:|---:|---:|")
            for k in (int(k) for k in args.keep.split(",")):
                candidate = _keeping(model, order, k)
                twin = twin_of(candidate)
                limit = args.ratio * twin.exit.cpu_s
                run = _run(pool, scratch, render(candidate), "preserved", None).seen_at(limit)
                original = cal.like(run)
                assert original is not None
                old, _ = hot_share(original, run.spots())
                new, _ = hot_share(original, run.seconds(), twin.seconds())
                top = Counter(run.seconds()).most_common(1)
                print(
                    f"| {k} | {run.exit.cpu_s / twin.exit.cpu_s:.2f} | {twin.exit.cpu_s:.2f} "
                    f"| `{top[0][0].rsplit('.', 1)[-1] if top else '-'}` "
                    f"| {old:.0%} | {new:.0%} | {original.share / 2:.0%} |",
                    flush=True,
                )
        finally:
            pool.close()


if __name__ == "__main__":
    main()

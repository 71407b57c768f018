"""How timing noise near the threshold hurts a reduction, and what the oracle's margin buys.

A reduction stops at the edge of what counts as slow, so its result is slow by a hair, and
on a busy machine the same candidate's CPU time varies by 10-40 %. `minimize` re-verifies
the result (2 of 3 fresh runs at the threshold) and walks back to a larger one when it
fails. The compile oracle's `margin` asks more of a candidate during the reduction
((1 + margin) × the threshold) than of the result at the end.

This benchmark runs the real `minimize` (compile oracle, reducer, re-verification and
walk-back) on a torch-written repro, with one thing simulated: the child. Its CPU time is
a width-driven cost, `1 + a·w²` seconds for w free symbols (10 s for the original),
inflated by one-sided noise `× (1 + σ·|z|)` as interference does, and it is killed at the
oracle's limit. So each configuration runs in seconds, many seeds can be compared, and
the truth is known.

    python benchmarks/noise.py [--n 16] [--sigma 0.1 0.2] [--margin 0 0.1 auto] [--confirm 0 1]
                               [--seeds 10]

Per (σ, margin, confirm): oracle calls, walk-backs, free symbols of the result, and how often a
fresh run of the result is slow at the threshold (1000 draws): what a maintainer who runs
the minimized repro sees.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from symshrink import minimize as minimize_mod
from symshrink.oracle import CompileOracle, Judging
from symshrink.oracle.runner import Exit, Job, Limits, Run
from symshrink.repro.parse import parse_file
from tests.fixtures_gen import generate

ORIGINAL_S = 10.0


@dataclass
class Cost:
    """Seconds of CPU for w free symbols: 1 + a·w², `ORIGINAL_S` at the original's width."""

    width: int

    def __call__(self, w: int) -> float:
        return 1.0 + (ORIGINAL_S - 1.0) * (w / self.width) ** 2


class NoisyChild:
    """A `Runner` whose child costs `cost(free symbols)` CPU seconds, inflated by noise."""

    slots = 1

    def __init__(self, cost: Cost, sigma: float, rng: random.Random) -> None:
        self.cost, self.sigma, self.rng = cost, sigma, rng

    def draw(self, w: int) -> float:
        return self.cost(w) * (1 + self.sigma * abs(self.rng.gauss(0.0, 1.0)))

    def run(self, job: Job, limits: Limits) -> Run:
        cpu = self.draw(len(parse_file(job.script).hints))
        if limits.kill_at is not None and cpu >= limits.kill_at:
            return Run(Exit("threshold", limits.kill_at, limits.kill_at, -9, True), None, None, "")
        result = {"compile_s": cpu, "trace_s": 0.0, "phases": {"codegen": cpu}}
        return Run(Exit("exited", cpu, cpu, 0, True), result, None, "")

    def close(self) -> None:
        pass


def one(
    repro: Path, sigma: float, margin: float | None, confirm: int, seed: int
) -> dict[str, float]:
    """One real `minimize` run with the simulated child; its calls, walk-backs and result."""
    width = len(parse_file(repro).hints)
    child = NoisyChild(Cost(width), sigma, random.Random(seed))

    def make_oracle(opts, source, work):
        return CompileOracle.create(
            source,
            runner=child,
            judging=Judging(signature=False, margin=opts.margin, confirm=opts.confirm),
            calibration_path=work / minimize_mod.CALIBRATION,
        )

    minimize_mod.make_oracle = make_oracle
    with tempfile.TemporaryDirectory() as tmp:
        opts = minimize_mod.Options(
            repro=repro, out=Path(tmp) / "min.py", progress=False, margin=margin, confirm=confirm
        )
        outcome = minimize_mod.minimize(opts)
    report = outcome.report
    w = report["final"]["free_symbols"]
    threshold = report["threshold_s"]
    fresh = sum(child.draw(w) >= threshold for _ in range(1000)) / 1000
    return {
        "calls": report["oracle_calls"],
        "walked_back": report["walked_back"],
        "free_symbols": w,
        "fresh_slow": fresh,
        "threshold_width": min(v for v in range(width + 1) if child.cost(v) >= threshold),
        "margin_used": report["margin_used"],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=16)
    ap.add_argument("--sigma", type=float, nargs="+", default=[0.1, 0.2])
    ap.add_argument(
        "--margin", type=_margin, nargs="+", default=[0.0, 0.1, None], help="a number or auto"
    )
    ap.add_argument("--confirm", type=int, nargs="+", default=[0, 1])
    ap.add_argument("--seeds", type=int, default=10)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        repro = generate("floordiv_sum", Path(tmp), n=args.n).path
        print(
            "| σ | margin | confirm | calls | walk-backs | free symbols (noise-free edge) "
            "| fresh runs slow | results slow in ≥ 90 % of fresh runs |"
        )
        print("|---|---|---|---|---|---|---|---|")
        grid = [(s, m, c) for s in args.sigma for m in args.margin for c in args.confirm]
        for sigma, margin, confirm in grid:
            rows = [one(repro, sigma, margin, confirm, seed) for seed in range(args.seeds)]
            good = sum(r["fresh_slow"] >= 0.9 for r in rows)
            shown = f"auto ({_mean(rows, 'margin_used'):.2f})" if margin is None else f"{margin:g}"
            print(
                f"| {sigma:g} | {shown} | {confirm} | {_mean(rows, 'calls'):.1f} "
                f"| {_mean(rows, 'walked_back'):.1f} | {_mean(rows, 'free_symbols'):.1f} "
                f"({_mean(rows, 'threshold_width'):.1f}) | {_mean(rows, 'fresh_slow'):.0%} "
                f"| {good}/{len(rows)} |",
                flush=True,
            )


def _margin(text: str) -> float | None:
    return None if text == "auto" else float(text)


def _mean(rows: list[dict[str, float]], key: str) -> float:
    return statistics.mean(r[key] for r in rows)


if __name__ == "__main__":
    main()

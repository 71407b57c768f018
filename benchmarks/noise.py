"""How timing noise and machine load hurt a reduction: ratio verdicts against absolute seconds.

A reduction stops at the edge of what counts as slow, so its result is slow by a hair. On
these 2-core VMs a run's CPU time moves 10-40 % with the other core's load, and the load
itself comes and goes. An absolute threshold moves with it; a ratio against the
candidate's static twin, measured in the same run, cancels what the two share.

This benchmark runs the real `minimize` (compile oracle, calibration, reducer,
re-verification and walk-back) on a torch-written repro, with one thing simulated: the
child. A run with w free symbols costs `BASE_S * (1 + 9 (w/n)²)` CPU seconds (the
original 10x its twin, which has no symbols), times the machine's load (a level in
[1, 1 + drift] that changes every `period` runs), times one-sided noise `1 + σ|z|`, and
is killed at the oracle's limit. So each configuration runs in seconds, many seeds can
be compared, and the truth is known.

    python benchmarks/noise.py [--n 16] [--sigma 0.05 0.1] [--drift 0 0.4] [--confirm 0 1]
                               [--seeds 10]

Per (verdict, σ, drift, confirm): oracle calls, walk-backs, free symbols of the result
(the noise-free edge in brackets, and the spread over seeds: a stable verdict gives the
same result every time), and how often a fresh run of the result under a random load is
slow again (1000 draws): what a maintainer who runs the minimized repro sees.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from symshrink import minimize_oracle
from symshrink import minimizing as minimize_mod
from symshrink.repro.parse import parse_file
from symshrink.sandbox import Exit, Job, Limits, Run
from tests.fixtures_gen import generate

BASE_S = 1.0
RATIO = 4.0
PERIOD = 20  # runs between changes of the machine's load


@dataclass
class Machine:
    """The shared machine: a load level that changes every PERIOD runs, and per-run noise."""

    sigma: float
    drift: float
    rng: random.Random
    runs: int = 0
    load: float = 1.0

    def factor(self) -> float:
        if self.runs % PERIOD == 0:
            self.load = 1.0 + self.drift * self.rng.random()
        self.runs += 1
        return self.load * (1 + self.sigma * abs(self.rng.gauss(0.0, 1.0)))


class SimulatedChild:
    """A `Runner` whose child costs `cost(free symbols)` CPU seconds on `machine`."""

    slots = 1
    shares_scratch = False  # no child: nothing reads a kill file written later

    def __init__(self, width: int, machine: Machine) -> None:
        self.width, self.machine = width, machine
        self.spent = 0.0  # CPU seconds of every run, twins included: what the reduction cost

    def cost(self, w: int) -> float:
        return BASE_S * (1 + 9 * (w / self.width) ** 2)

    def run(self, job: Job, limits: Limits) -> Run:
        cpu = self.cost(len(parse_file(job.script).hints)) * self.machine.factor()
        if limits.kill_at is not None and cpu >= limits.kill_at:
            self.spent += limits.kill_at
            return Run(Exit("threshold", limits.kill_at, limits.kill_at, -9, True), None, None, "")
        self.spent += cpu
        result = {"error": None, "phases": {"codegen": cpu}}
        return Run(Exit("exited", cpu, cpu, 0, True), result, None, "")

    def close(self) -> None:
        pass


def one(repro: Path, verdict: str, sigma: float, drift: float, confirm: int, seed: int) -> dict:
    """One real `minimize` run with the simulated child; its calls, walk-backs and result."""
    width = len(parse_file(repro).hints)
    machine = Machine(sigma, drift, random.Random(seed))
    child = SimulatedChild(width, machine)
    minimize_oracle.remote_runner = lambda *_: child
    # absolute: the limit a quiet machine would give R x the twin, in seconds
    threshold = RATIO * BASE_S if verdict == "absolute" else None
    with tempfile.TemporaryDirectory() as tmp:
        opts = minimize_mod.Options(
            repro=repro,
            out=Path(tmp) / "min.py",
            progress=False,
            ratio=RATIO,
            threshold=threshold,
            confirm=confirm,
            signature=False,
        )
        report = minimize_mod.minimize(opts).report
    assert report is not None
    w = report.final.free_symbols
    draws = []
    for _ in range(1000):  # a maintainer's fresh run, at some other time
        later = Machine(sigma, drift, machine.rng)
        result = child.cost(w) * later.factor()
        twin = BASE_S * later.factor()  # under the same load as the result
        draws.append(result >= threshold if threshold else result / twin >= RATIO)
    edge = min(v for v in range(width + 1) if child.cost(v) >= RATIO * BASE_S)
    return {
        "calls": report.oracle_calls,
        "cpu_s": child.spent,
        "walked_back": report.walked_back,
        "free_symbols": w,
        "edge": edge,
        "fresh_slow": sum(draws) / len(draws),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=16)
    ap.add_argument("--verdict", nargs="+", default=["absolute", "ratio"])
    ap.add_argument("--sigma", type=float, nargs="+", default=[0.05, 0.1])
    ap.add_argument("--drift", type=float, nargs="+", default=[0.0, 0.4])
    ap.add_argument("--confirm", type=int, nargs="+", default=[0, 1])
    ap.add_argument("--seeds", type=int, default=10)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        repro = generate("floordiv_sum", Path(tmp), n=args.n).path
        print(
            "| verdict | σ | drift | confirm | calls | CPU s | walk-backs "
            "| free symbols (edge) [range] | fresh runs slow |"
        )
        print("|---|---|---|---|---|---|---|---|---|")
        grid = [
            (v, s, d, c)
            for v in args.verdict
            for s in args.sigma
            for d in args.drift
            for c in args.confirm
        ]
        for verdict, sigma, drift, confirm in grid:
            rows = [one(repro, verdict, sigma, drift, confirm, s) for s in range(args.seeds)]
            widths = [r["free_symbols"] for r in rows]
            print(
                f"| {verdict} | {sigma:g} | {drift:g} | {confirm} | {_mean(rows, 'calls'):.1f} "
                f"| {_mean(rows, 'cpu_s'):.0f} | {_mean(rows, 'walked_back'):.1f} "
                f"| {statistics.mean(widths):.1f} "
                f"({rows[0]['edge']}) [{min(widths)}-{max(widths)}] "
                f"| {_mean(rows, 'fresh_slow'):.0%} |",
                flush=True,
            )


def _mean(rows: list[dict], key: str) -> float:
    return statistics.mean(r[key] for r in rows) if rows else math.nan


if __name__ == "__main__":
    main()

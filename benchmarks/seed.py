"""The seed's use, end to end: `symshrink minimize R --timeout 600` on a 64-symbol backward repro.

R is written by torch.compile itself (Dynamo + AOTAutograd with Inductor's decompositions,
`tests/fixtures_gen.py --family aot_frames_outer --n N`): the backward graph of a model that
concatenates N dynamic inputs, pads to a multiple of 160, views frames and takes an outer
product, as in the report this project started from. Its compile with the relationships
preserved takes far longer than any timeout here (killed at 120 s; pytorch#181277's took 50
minutes); its static twin ~1 s.

    python benchmarks/seed.py [--n 64] [--timeout 600] [--jobs 1] [--runs 3] [--out DIR]
                              [--floor S] [--margin M]

Prints (and writes DIR/seed.json): the command, wall time, oracle calls, free symbols
N -> n, and the result's time against its twin's on `--runs` fresh runs side by side (each
run to the end, not killed; and each result run against the median of the twin's runs,
as a verdict measures the twin), with each run's hot spot and the result's: the spot with the
most samples over all its runs; and the same over the samples up to R x the twin's time of
each run, where a verdict would have stopped it (what the reduction judged: the end of a
short compile is ordinary codegen that no verdict samples).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from symshrink.baseline import static_twin
from symshrink.repro.model import Repro
from symshrink.repro.parse import parse_file
from symshrink.repro.render import render
from symshrink.sandbox import Job, Limits, Run, WarmPool, Workload, run_in_group
from tests.fixtures_gen import generate


@dataclass(frozen=True)
class FreshRun:
    """One fresh run of the result and one of its twin, each to the end."""

    result_s: float
    twin_s: float
    ratio: float
    hot_spot: str | None
    hot_spot_at_limit: str | None  # over its samples up to R x the twin's time
    error: str | None


def _hottest(counts: Counter[str]) -> str | None:
    top = counts.most_common(1)
    return top[0][0] if top else None


def fresh_ratios(
    model: Repro, runs: int, timeout_s: float, ratio: float
) -> tuple[list[FreshRun], str | None, str | None]:
    """`model` and its static twin, each run to the end `runs` times, interleaved; and
    the model's hot spot over the samples of all its runs, and over those up to `ratio` x
    its twin's time in each (one run of a second holds ~50 samples, too few to tell two
    spots of a similar share apart)."""
    own, twin = render(model), render(static_twin(model))
    rows: list[FreshRun] = []
    samples: Counter[str] = Counter()
    at_limit: Counter[str] = Counter()
    pool = WarmPool(slots=1)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for _ in range(runs):
                result, control = (
                    _run(pool, Path(tmp), source, timeout_s) for source in (own, twin)
                )
                counts = Counter(result.spots())
                limited = Counter(result.spots(ratio * control.exit.cpu_s))
                samples.update(counts)
                at_limit.update(limited)
                rows.append(
                    FreshRun(
                        result_s=round(result.exit.cpu_s, 2),
                        twin_s=round(control.exit.cpu_s, 2),
                        ratio=round(result.exit.cpu_s / control.exit.cpu_s, 2),
                        hot_spot=_hottest(counts),
                        hot_spot_at_limit=_hottest(limited),
                        error=result.error or control.error,
                    )
                )
    finally:
        pool.close()
    return rows, _hottest(samples), _hottest(at_limit)


def _against_median_twin(fresh: list[FreshRun]) -> list[float]:
    twin = statistics.median(run.twin_s for run in fresh)
    return [round(run.result_s / twin, 2) for run in fresh]


def _run(pool: WarmPool, scratch: Path, source: str, timeout_s: float) -> Run:
    job = Job.create(scratch, source, Workload())
    try:
        return pool.run(job, Limits(timeout_s=timeout_s))
    finally:
        job.remove()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=64)
    ap.add_argument("--timeout", type=float, default=600.0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--floor", type=float, default=None, help="minimize's --floor (its default)")
    ap.add_argument("--margin", type=float, default=None, help="minimize's --margin (its default)")
    ap.add_argument("--out", type=Path, default=Path(tempfile.mkdtemp(prefix="seed-")))
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    repro = generate("aot_frames_outer", args.out, n=args.n).path
    result = args.out / f"{repro.stem}.min.py"
    command = [
        sys.executable,
        "-m",
        "symshrink",
        "minimize",
        str(repro),
        "--timeout",
        f"{args.timeout:g}",
        "-j",
        str(args.jobs),
        "-o",
        str(result),
        "--no-progress",
        *(["--floor", f"{args.floor:g}"] if args.floor is not None else []),
        *(["--margin", f"{args.margin:g}"] if args.margin is not None else []),
    ]
    print("$", " ".join(["symshrink", *command[3:]]), flush=True)
    started = time.monotonic()
    # In its own watched process group: a benchmark stopped by a signal takes it along.
    code, stdout, stderr = run_in_group(command, timeout_s=None)
    wall = time.monotonic() - started
    print(stdout.strip() or stderr.strip()[-2000:], flush=True)
    if code != 0:
        raise SystemExit(f"minimize exited {code}")
    report = json.loads((result.with_name(result.name + ".work") / "report.json").read_text())
    fresh, hot_spot, hot_spot_at_limit = fresh_ratios(
        parse_file(result), args.runs, args.timeout, report["ratio"]
    )
    summary = {
        "command": " ".join(["symshrink", *command[3:]]),
        "wall_s": round(wall, 1),
        "oracle_calls": report["oracle_calls"],
        "free_symbols": [report["initial"]["free_symbols"], report["final"]["free_symbols"]],
        "expr_ops": [report["initial"]["expr_ops"], report["final"]["expr_ops"]],
        "fixpoint": report["fixpoint"],
        "reverified": report.get("reverified"),
        "ratio": report["ratio"],
        "original": report["initial"],
        "fresh_runs": [asdict(run) for run in fresh],
        "median_fresh_ratio": statistics.median(run.ratio for run in fresh),
        # Each result run against its twins' median, as verdicts and re-verification
        # measure the twin: one run of a twin of ~0.2 s spreads more than the result's.
        "ratios_vs_median_twin": _against_median_twin(fresh),
        "hot_spot": hot_spot,
        "hot_spot_at_limit": hot_spot_at_limit,
    }
    (args.out / "seed.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()

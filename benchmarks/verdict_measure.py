"""Which measure gives stable verdicts: absolute seconds or a ratio to the static twin, CPU or wall.

A repro and its static twin are run to the end, alternately, `--runs` times in the oracle's
warm child, first as the machine is, then with `--burners` busy processes beside them
(another job on the other core, as on a shared CI machine). For each condition and clock:
the median and relative spread ((max - min) / median) of the repro's seconds, the twin's,
and of their ratio. A verdict measure is as stable as its spread across conditions.

    python benchmarks/verdict_measure.py [REPRO] [--runs 5] [--burners 1]

Default REPRO: the README example (examples/sym_outer_n8.py).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from symshrink.baseline import static_twin
from symshrink.repro.parse import parse_file
from symshrink.repro.render import render
from symshrink.sandbox import Job, Limits, Run, WarmPool, Workload

REPO = Path(__file__).resolve().parents[1]
BURN = "while True: pass"


def pairs(pool: WarmPool, scratch: Path, repro: str, twin: str, runs: int) -> list[tuple[Run, Run]]:
    """(repro run, twin run), alternately, each to the end."""
    return [(_run(pool, scratch, repro), _run(pool, scratch, twin)) for _ in range(runs)]


def _run(pool: WarmPool, scratch: Path, source: str) -> Run:
    job = Job.create(scratch, source, Workload())
    try:
        run = pool.run(job, Limits(timeout_s=600))
    finally:
        job.remove()
    if run.error:
        raise SystemExit(f"a run failed: {run.error}")
    return run


def spread(values: list[float]) -> str:
    med = statistics.median(values)
    return f"{med:.2f} ± {(max(values) - min(values)) / med / 2:.0%}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("repro", type=Path, nargs="?", default=REPO / "examples" / "sym_outer_n8.py")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--burners", type=int, default=1)
    args = ap.parse_args()
    repro = args.repro.read_text()
    twin = render(static_twin(parse_file(args.repro)))
    rows: dict[str, list[tuple[Run, Run]]] = {}
    pool = WarmPool(slots=1)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            scratch = Path(tmp)
            _run(pool, scratch, twin)  # the first fork pays lazy imports: not measured
            rows["as is"] = pairs(pool, scratch, repro, twin, args.runs)
            burners = [subprocess.Popen([sys.executable, "-c", BURN]) for _ in range(args.burners)]
            try:
                rows[f"{args.burners} burner(s) beside"] = pairs(
                    pool, scratch, repro, twin, args.runs
                )
            finally:
                for b in burners:
                    b.kill()
                    b.wait()
    finally:
        pool.close()
    print(f"{args.repro.name}, {args.runs} runs of each per condition (median ± half-spread)\n")
    print("| condition | clock | repro s | twin s | ratio |")
    print("|---|---|---|---|---|")
    every: dict[str, list[float]] = {}
    for condition, measured in rows.items():
        for clock in ("cpu", "wall"):
            a = [r.measure(clock) for r, _ in measured]  # type: ignore[arg-type]
            b = [t.measure(clock) for _, t in measured]  # type: ignore[arg-type]
            ratio = [x / y for x, y in zip(a, b, strict=True)]
            every.setdefault(f"{clock} s", []).extend(a)
            every.setdefault(f"{clock} ratio", []).extend(ratio)
            print(f"| {condition} | {clock} | {spread(a)} | {spread(b)} | {spread(ratio)} |")
    print("\nAcross both conditions (median ± half-spread):")
    for name, values in every.items():
        print(f"- {name}: {spread(values)}")


if __name__ == "__main__":
    main()

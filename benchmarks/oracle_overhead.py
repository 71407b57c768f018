"""Per-candidate overhead of the oracle: warm pool (fork) vs cold children vs `import torch`.

The candidate loads like a repro script (imports torch, defines its module) and returns at
once, so what is timed is launch + load + the oracle's wrapper (job directory, sampler,
result file, supervision, process-group cleanup), not a compile. Modes are interleaved per
repetition so that load from other processes on the machine hits them alike.

    python benchmarks/oracle_overhead.py [--reps 7] [--retrace [SCRIPT]] [--json OUT]

`--retrace` adds an end-to-end row per mode: `symshrink.retrace` of SCRIPT (default: a
one-symbol repro, a trivial compile), no native compile, and a second table of what the
child measured (trace + compile seconds, child CPU seconds): forking from a warm worker
must not change what is measured.
"""

from __future__ import annotations

import argparse
import json
import logging
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from symshrink.sandbox import ColdRunner, Job, Limits, Run, Runner, WarmPool, Workload, child_env

log = logging.getLogger("oracle_overhead")

# Loads like a repro script and returns: no trace, no compile.
LOAD_ONLY = """
import torch
from torch import tensor, device
import torch.fx as fx
from torch.nn import *

class Repro(torch.nn.Module):
    def forward(self, x):
        return (x.sum(),)

mod = Repro()
"""


def cold_import_torch() -> float:
    """The reference: a fresh interpreter that imports torch (what every cold call pays)."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import torch"], env=child_env(), check=True)
    return time.perf_counter() - start


def one_candidate(
    runner: Runner, root: Path, source: str, workload: Workload, measured: list[Run]
) -> float:
    """Wall seconds for one oracle run, from laying out the job to its removal."""
    start = time.perf_counter()
    job = Job.create(root, source, workload)
    run = runner.run(job, Limits(timeout_s=600))
    job.remove()
    took = time.perf_counter() - start
    if run.error or not run.exit.clean:
        raise RuntimeError(f"benchmark candidate failed: {run.error} {run.stderr_tail[-500:]}")
    measured.append(run)
    return took


def row(name: str, times: list[float], reference: float) -> dict[str, float | str]:
    med = statistics.median(times)
    return {
        "mode": name,
        "n": len(times),
        "median_s": med,
        "min_s": min(times),
        "max_s": max(times),
        "ratio": med / reference,
    }


def table(rows: list[dict[str, float | str]]) -> str:
    lines = [
        "| mode | n | median s | min s | max s | × cold `import torch` |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['mode']} | {r['n']} | {r['median_s']:.3f} | {r['min_s']:.3f} "
            f"| {r['max_s']:.3f} | {r['ratio']:.3f} |"
        )
    return "\n".join(lines)


def _one_symbol_repro() -> str:
    """A repro with one free SymInt and a trivial graph, written by torch's own writer."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo's tests/
    from tests.fixtures_gen import generate

    return generate("free_symints", Path(tempfile.mkdtemp(prefix="overhead-"))).path.read_text()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=7)
    parser.add_argument(
        "--retrace",
        nargs="?",
        const="",
        metavar="SCRIPT",
        help="add end-to-end retrace rows (of SCRIPT; default a one-symbol repro)",
    )
    parser.add_argument("--json", type=Path, help="also write the rows as JSON here")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")

    root = Path(tempfile.mkdtemp(prefix="oracle-overhead-"))
    script = Workload(entry="script")
    retrace = Workload()

    start = time.perf_counter()
    pool = WarmPool(slots=1)
    info = pool.warm_up()[0]
    pool_start = time.perf_counter() - start
    log.info("warm worker ready in %.2fs (threads at fork: %s)", pool_start, info["threads"])
    cold = ColdRunner()

    runs: dict[str, list[Run]] = {}

    def candidate(runner: Runner, source: str, workload: Workload, name: str) -> None:
        runs[name] = []
        modes[name] = lambda: one_candidate(runner, root, source, workload, runs[name])

    modes: dict[str, Callable[[], float]] = {
        "cold `python -c 'import torch'` (reference)": cold_import_torch
    }
    candidate(cold, LOAD_ONLY, script, "cold child, load-only candidate")
    candidate(pool, LOAD_ONLY, script, "warm fork, load-only candidate")
    if args.retrace is not None:
        what = Path(args.retrace).name if args.retrace else "a 1-symbol repro"
        source = Path(args.retrace).read_text() if args.retrace else _one_symbol_repro()
        candidate(cold, source, retrace, f"cold child, retrace of {what}")
        candidate(pool, source, retrace, f"warm fork, retrace of {what}")
    times: dict[str, list[float]] = {name: [] for name in modes}
    one_candidate(pool, root, LOAD_ONLY, script, [])  # the first fork faults in page tables
    for i in range(args.reps):
        for name, measure in modes.items():
            times[name].append(measure())
        log.info("repetition %d/%d done", i + 1, args.reps)
    pool.close()
    shutil.rmtree(root, ignore_errors=True)

    reference = statistics.median(next(iter(times.values())))
    rows = [row(name, ts, reference) for name, ts in times.items()]
    print(table(rows))
    print(f"\nwarm worker start (once per worker, imports + CPU probe): {pool_start:.2f} s")
    measured = {name: rs for name, rs in runs.items() if "retrace" in name}
    if measured:
        print("\n| mode | trace + compile s (median) | child CPU s (median) |\n|---|---:|---:|")
        for name, rs in measured.items():
            traced = statistics.median(r.result["trace_s"] + r.result["compile_s"] for r in rs)
            cpu = statistics.median(r.exit.cpu_s for r in rs)
            print(f"| {name} | {traced:.3f} | {cpu:.3f} |")
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "pool_start_s": pool_start}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

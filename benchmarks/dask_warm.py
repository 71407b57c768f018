"""Per-call cost on Dask workers: a cold interpreter per call against each worker's warm pool.

The job is a script that imports torch and builds a tensor, run as the compile oracle's
children run (`entry='script'`): cold, each call starts `python -m symshrink.sandbox.child`
and imports torch; warm, the worker's pool (`connect(..., warm=True)`, torch preloaded)
forks a child that has torch already. A local cluster of `--workers` one-thread workers;
`--calls` calls, `--workers` at a time; the first warm round includes the pools' import.

    python benchmarks/dask_warm.py [--workers 2] [--calls 8]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from symshrink.sandbox import Job, Limits, Workload
from symshrink.sandbox.dask_runner import DaskRunner, connect

SCRIPT = "import torch\nprint(torch.ones(3).sum().item())\n"


def timed_calls(runner: DaskRunner, root: Path, calls: int) -> list[float]:
    """Wall seconds of each call, as the client sees them."""

    def one(_: int) -> float:
        job = Job.create(root, SCRIPT, Workload(entry="script"))
        started = time.monotonic()
        run = runner.run(job, Limits(timeout_s=300, clock="wall"))
        job.remove()
        if run.error:
            raise RuntimeError(run.error)
        return time.monotonic() - started

    with ThreadPoolExecutor(runner.slots) as ex:
        return list(ex.map(one, range(calls)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--calls", type=int, default=8)
    args = ap.parse_args()
    root = Path(tempfile.mkdtemp(prefix="symshrink-dask-warm-"))
    print("| workers | mode | first round s | later calls: median s | max s |")
    print("|---:|---|---:|---:|---:|")
    for warm in (False, True):
        runner = connect(f"local:{args.workers}", warm=warm)
        try:
            first = timed_calls(runner, root, args.workers)
            later = timed_calls(runner, root, args.calls)
        finally:
            runner.close()
        mode = "warm pool" if warm else "cold"
        print(
            f"| {args.workers} | {mode} | {max(first):.2f} | {statistics.median(later):.2f} "
            f"| {max(later):.2f} |"
        )


if __name__ == "__main__":
    main()

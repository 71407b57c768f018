"""Width on a simulated cluster: a recorded reduction replayed through children that sleep.

A minimize run's journal holds every oracle call's verdict and what its first run took
(`wall_s`). This replays the reduction (the same `Reducer`, every pass, from the recorded
original) with each call answered by the journal and paid for by a child that sleeps that
long on a Dask worker: `--scheduler local:W` (`sandbox.dask_runner.connect`), one-thread
workers, W of them, for each W. Sleeping children need no cores, so the wall time shows how
much of the search's work can run side by side, not how many cores this machine has.

    python benchmarks/cluster.py RUN_DIR ORIGINAL [--widths 1 2 4 8 16] [--scale 1.0] [--save DIR]

RUN_DIR is the minimize run's work directory (`REPRO.min.py.work`), ORIGINAL the repro it
reduced. A candidate the recorded run never judged (a wrong guess of the speculation, or a
path the current search takes where the recorded one did not) costs the median call and is
not interesting; the table counts them. `--scale` multiplies every sleep (0.5: half as
long; the ratios between widths stay). Per W: oracle calls, those the journal did not know,
wall seconds of the reduction (the calls' sleeps plus the search), its ratio to W = 1, the
CPU seconds of this process meanwhile (the search's own Python: replays, candidates, the
Dask client), and whether the result is the first width's (`--save DIR` writes each to
DIR/W.py, to compare widths replayed in separate runs).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from symshrink.baseline import is_own_twin
from symshrink.minimize_stages import graph_reducer
from symshrink.passes import SCHEDULE, schedule
from symshrink.records import REPORT, RunRecord
from symshrink.reducer import Reducer
from symshrink.repro.candidate import Candidate
from symshrink.repro.parse import parse_file
from symshrink.repro.render import render
from symshrink.sandbox import CommandRunner, Job, Limits, Workload, run_job
from symshrink.sandbox.dask_runner import connect
from symshrink.verdict import Verdict


def recorded(path: Path) -> dict[str, Verdict]:
    """The journal's verdicts by key (a later line for a key wins, as in `Journal`)."""
    verdicts = {}
    for line in path.read_text().splitlines():
        entry = json.loads(line)
        verdicts[entry["key"]] = Verdict.from_dict(entry["verdict"])
    return verdicts


class Replay:
    """The reducer's test: the recorded verdict, after a child on the cluster slept the
    recorded cost (thread-safe: the reducer calls it from up to W threads at once)."""

    def __init__(
        self, journal: dict[str, Verdict], runner: object, scale: float, root: Path
    ) -> None:
        self.journal, self.runner, self.scale, self.root = journal, runner, scale, root
        self.tag = ""  # the stage's journal prefix (`Reducer.tag`)
        costs = [v.wall_s for v in journal.values() if v.wall_s > 0]
        self.median_s = statistics.median(costs) if costs else 1.0
        self.calls = self.unknown = 0
        self._lock = threading.Lock()

    def __call__(self, candidate: Candidate) -> Verdict:
        recorded = self.journal.get(self.tag + candidate.key)
        with self._lock:
            self.calls += 1
            self.unknown += recorded is None
        cost = (recorded.wall_s if recorded is not None else self.median_s) * self.scale
        job = Job.create(self.root, f"sleep {cost:.3f}\n", Workload(entry="script"))
        try:
            run_job(self.runner, job, Limits(timeout_s=cost + 60))  # type: ignore[arg-type]
        finally:
            job.remove()
        if recorded is None:
            return Verdict(status="fast", interesting=False)
        return Verdict(status=recorded.status, interesting=recorded.interesting)


def replay(
    original: Path,
    journal: dict[str, Verdict],
    width: int,
    scale: float,
    graph_first: bool,
    order: tuple[str, ...] = SCHEDULE,
) -> dict[str, object]:
    """One replay on `local:width`: calls, unknown calls, wall seconds, the result's text.
    With `graph_first` (the recorded run had the stage), the graph passes run first under
    the stage's tag, as `minimize_stages.stages` runs them."""
    runner = connect(f"local:{width}", partial(CommandRunner, ["sh"]))
    try:
        with tempfile.TemporaryDirectory(prefix="symshrink-cluster-") as tmp:
            test = Replay(journal, runner, scale, Path(tmp))
            # the compile oracle's refusal in ratio mode, as the recorded run refused
            reducer = Reducer(
                test=test,
                refuses=is_own_twin,
                passes=schedule(order),
                jobs=runner.slots,
                symmetric=True,  # the compile oracle's, as the recorded run's
            )
            graph = graph_reducer(reducer, test, is_own_twin)
            started, cpu = time.monotonic(), time.process_time()
            result = parse_file(original)
            for stage in [graph, reducer] if graph_first else [reducer]:
                test.tag = stage.tag
                result = stage.run(result)
            seconds, cpu = time.monotonic() - started, time.process_time() - cpu
    finally:
        runner.close()
    return {
        "width": width,
        "calls": reducer.stats.oracle_calls,
        "unknown": test.unknown,
        "wrong_guesses": reducer.stats.speculative_unused,
        "seconds": seconds,
        "cpu": cpu,
        "result": render(result),
        "symbols": len(result.hints),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run_dir", type=Path, help="the minimize run's work directory")
    ap.add_argument("original", type=Path, help="the repro that run reduced")
    ap.add_argument("--widths", type=int, nargs="+", default=[1, 2, 4, 8, 16])
    ap.add_argument("--scale", type=float, default=1.0, help="multiplies every recorded cost")
    ap.add_argument(
        "--save", type=Path, help="write each width's result there (W.py), to compare runs"
    )
    args = ap.parse_args()
    journal = recorded(args.run_dir / "journal.jsonl")
    record = RunRecord.load_from(args.run_dir) if (args.run_dir / REPORT).exists() else None
    graph_first = record is not None and record.graph_first is not None
    order = record.order_at_r if record is not None else SCHEDULE  # as the run had them
    costs = [v for v in journal.values() if v.wall_s > 0]
    print(
        f"{len(costs)} recorded calls, {sum(v.wall_s for v in costs):.0f} s of first "
        f"runs (median {statistics.median(v.wall_s for v in costs):.2f} s), "
        f"scale {args.scale:g}"
    )
    print(
        "| W | oracle calls | not in the journal | wrong guesses | wall s | x W = 1 "
        "| search CPU s | free symbols | same result |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    first: dict[str, object] | None = None
    for width in args.widths:
        row = replay(args.original, journal, width, args.scale, graph_first, order)
        first = first or row
        if args.save is not None:
            args.save.mkdir(parents=True, exist_ok=True)
            (args.save / f"{width}.py").write_text(str(row["result"]))
        print(
            f"| {width} | {row['calls']} | {row['unknown']} | {row['wrong_guesses']} "
            f"| {row['seconds']:.1f} | {row['seconds'] / first['seconds']:.2f} "  # type: ignore[operator]
            f"| {row['cpu']:.1f} | {row['symbols']} "
            f"| {'yes' if row['result'] == first['result'] else 'NO'} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

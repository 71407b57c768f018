"""Oracle calls per minute: the local pool vs a 2-worker Dask cluster, in one run.

The planted suite of `benchmarks/planted.py` (torch-written floordiv_sum repros, k planted
symbols), judged by a `--test` script that says yes iff a floor division still sums every
planted symbol, after sleeping `--cost` seconds: a stand-in for a compile, so that what
parallelism buys shows and the two cores of this machine are not what is measured.

    python benchmarks/dask_calls.py [--n 8 16] [--k 2] [--cost 1.0]

Modes, per case: `local -j 1` (bisect, one call at a time), `local -j 2` (the same search,
speculative, two threads) and `dask` (the same on a LocalCluster of two one-thread worker
processes, as `--scheduler local:2`, started once beforehand and not timed). Calls are the ones
the script logged; `same` says the result equals `local -j 2`'s.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from symshrink.minimizing import Options, minimize
from symshrink.repro.parse import parse_file
from tests.fixtures_gen import generate
from tests.planted import choose_planted

log = logging.getLogger("dask_calls")

# Yes iff some `(...)//` has every planted symbol in its numerator; the cost is a sleep.
SCRIPT = """\
import os, re, sys, time
here = os.path.dirname(os.path.abspath(__file__))
planted, cost = {planted!r}, {cost!r}
text = open(sys.argv[1]).read()
with open(os.path.join(here, "calls"), "a") as f:
    f.write("1\\n")
time.sleep(cost)
numerators = re.findall(r"(\\([^()]*\\)|s\\d+)//", text)
ok = any(planted <= set(re.findall(r"s\\d+", m)) for m in numerators)
sys.exit(0 if ok else 1)
"""


def reduce(case: Path, repro: Path, mode: str, jobs: int, scheduler: str | None) -> dict:
    """One reduction in `case/mode`: calls the script logged, seconds, calls per minute."""
    work = case / mode.replace(" ", "")
    work.mkdir()
    script = work / "interesting.py"
    script.write_text((case / "script.py").read_text())
    out = work / "out.py"
    opts = Options(
        repro=repro,
        out=out,
        test=f"{sys.executable} -S {script}",  # -S: no site-packages, a 0.02 s start
        jobs=jobs,
        scheduler=scheduler,
        progress=False,
    )
    started = time.monotonic()
    outcome = minimize(opts)
    seconds = time.monotonic() - started
    if outcome.exit_code != 0:
        raise RuntimeError(f"{mode}: {outcome.message}")
    calls = len((work / "calls").read_text().split())
    log.info("%s, %s: %d calls in %.1f s", case.name, mode, calls, seconds)
    return {
        "mode": mode,
        "calls": calls,
        "seconds": seconds,
        "per_minute": 60 * calls / seconds,
        "result": out.read_text(),
        "symbols": len(parse_file(out).hints),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, nargs="+", default=[8, 16])
    ap.add_argument("--k", type=int, nargs="+", default=[2])
    ap.add_argument("--cost", type=float, default=1.0, help="seconds each oracle call sleeps")
    ap.add_argument("--json", type=Path, help="also write the rows as JSON here")
    args = ap.parse_args()
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    log.setLevel(logging.INFO)  # this script's progress, not the reducer's or Dask's
    import distributed

    root = Path(tempfile.mkdtemp(prefix="symshrink-dask-calls-"))
    started = time.monotonic()
    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address="127.0.0.1:0",
    )
    log.info("2-worker cluster up in %.1f s", time.monotonic() - started)
    modes = [("local -j 1", 1, None), ("local -j 2", 2, None)]
    modes.append(("dask 2 workers", 1, cluster.scheduler_address))  # jobs: the cluster's
    rows = []
    try:
        for n in args.n:
            repro = generate("floordiv_sum", root, n=n).path
            names = sorted(parse_file(repro).hints)
            for k in args.k:
                planted = {names[int(s[1:])] for s in choose_planted(n, k)}
                case = root / f"n{n}-k{k}"
                case.mkdir()
                (case / "script.py").write_text(SCRIPT.format(planted=planted, cost=args.cost))
                runs = [reduce(case, repro, *mode) for mode in modes]
                for run in runs:
                    run |= {"n": n, "k": k, "same": run["result"] == runs[1]["result"]}
                rows += runs
    finally:
        cluster.close()
    print(table(rows, args.cost))
    if args.json:
        kept = [{key: v for key, v in r.items() if key != "result"} for r in rows]
        args.json.write_text(json.dumps(kept, indent=2))
    return 0


def table(rows: list[dict], cost: float) -> str:
    lines = [
        f"| n | k | mode | oracle calls | wall s | calls / min ({cost:g} s a call) "
        "| final symbols | same as local -j 2 |",
        "|---:|---:|---|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['n']} | {r['k']} | {r['mode']} | {r['calls']} | {r['seconds']:.1f} "
            f"| {r['per_minute']:.1f} | {r['symbols']} | {'yes' if r['same'] else 'NO'} |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())

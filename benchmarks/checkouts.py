"""The README's main job under two or more checkouts, alternately, one run at a time.

Each run copies the repro into a fresh directory and runs
`python -m symshrink minimize REPRO --timeout 600 [ARGS]` with the checkout on PYTHONPATH,
timed by `/usr/bin/time`. Runs alternate between the checkouts, so the machine's load
drifts over all of them alike. Printed, per run: the start time and load average,
oracle calls, wall seconds, CPU (user + sys), the result line's sizes, and whether the
minimal file is the same as that checkout's first run's.

    python benchmarks/checkouts.py OUT old=/path/to/checkout new=/path/to/other \\
        [--rounds 2] [--repro examples/sym_outer_n8.py]

A checkout is any directory holding a `symshrink/` package (a `git worktree` of a commit);
`LABEL=PATH@ARGS` adds minimize options to that label's runs (`j2=.@-j 2`).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from symshrink.sandbox import run_in_group

REPO = Path(__file__).resolve().parents[1]
# Read from the end line, not report.json: the checkouts compared may write different
# record formats, while the end line is what every one of them prints.
RESULT = re.compile(
    r"(\d+ -> \d+ free symbols, \d+ -> \d+ expression operations) in (\d+) oracle calls"
)
TIMES = re.compile(r"([\d.]+) wall ([\d.]+) user ([\d.]+) sys")


def run_once(label: str, tree: Path, repro: Path, out: Path, extra: list[str]) -> str:
    """One timed minimize of a fresh copy of `repro` under `tree`: its table row."""
    work = out / label
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    shutil.copy(repro, work / repro.name)
    load = os.getloadavg()[0]
    start = time.strftime("%H:%M:%S")
    env = {**os.environ, "PYTHONPATH": str(tree)}
    cmd = ["/usr/bin/time", "-f", "%e wall %U user %S sys", sys.executable, "-m", "symshrink"]
    cmd += ["minimize", repro.name, "--timeout", "600", "--no-progress", *extra]
    # In its own watched process group: a benchmark stopped by a signal takes it along.
    code, stdout, stderr = run_in_group(cmd, timeout_s=None, cwd=work, env=env)
    (work / "out.txt").write_text(stdout)
    (work / "err.txt").write_text(stderr)
    times = TIMES.findall(stderr)
    result = RESULT.search(stdout)
    if code != 0 or not times or result is None:
        return f"| {label} {start} | {load:.1f} | failed (exit {code}) | | | |"
    wall, user, sys_s = times[-1]
    minimal = work / repro.name.replace(".py", ".min.py")
    digest = hashlib.sha256(minimal.read_bytes()).hexdigest()[:8] if minimal.exists() else "-"
    return (
        f"| {label} {start} | {load:.1f} | {result[2]} | {float(wall):.0f} s "
        f"| {float(user):.0f} + {float(sys_s):.0f} s | {result[1]} | {digest} |"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="a directory for the runs")
    ap.add_argument("checkouts", nargs="+", help="LABEL=PATH, two or more")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--repro", type=Path, default=REPO / "examples" / "sym_outer_n8.py")
    args = ap.parse_args()
    trees = []
    for spec in args.checkouts:
        label, _, rest = spec.partition("=")
        tree, _, opts = rest.partition("@")
        if not label or not (Path(tree) / "symshrink").is_dir():
            ap.error(f"{spec}: a checkout is LABEL=PATH[@ARGS], PATH holding symshrink/")
        trees.append((label, Path(tree).resolve(), opts.split()))
    print("| run | load | calls | wall | CPU user + sys | result | minimal file |")
    print("|---|---:|---:|---:|---:|---|---|")
    for r in range(1, args.rounds + 1):
        for label, tree, opts in trees:
            row = run_once(f"{label}-{r}", tree, args.repro.resolve(), args.out, opts)
            print(row, flush=True)


if __name__ == "__main__":
    main()

"""What every program here shares: its command line and how its first call is timed.

Each program defines `build(n, static)` returning the call whose first run compiles: the
program as its source wrote it (symbolic: `dynamic=True`, `mark_dynamic` or unbacked
`.item()` values) or, with `--static`, its static twin (the same code with every size a
constant), so that the two can be compared in fresh processes. `--warmup` compiles a
trivial function first, so that torch's one-time first-compile cost (~3 s here) is not in
the measured call. The measured call's CPU seconds in this process (`time.process_time`:
the C++ compiler's children are not in it) and its wall seconds are printed as
`compile_cpu_s=... wall_s=...` for `measure.py`. Run without options, a program is what
a user would run (what `symshrink capture` and `triage` see).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable


def run(doc: str, build: Callable[[int, bool], Callable[[], object]], default_n: int) -> None:
    """Parse the shared options, build the program at width N, time its first call."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--n", type=int, default=default_n, help=f"the width (default {default_n})")
    ap.add_argument("--static", action="store_true", help="the static twin: every size a constant")
    ap.add_argument("--warmup", action="store_true", help="compile a trivial function first")
    args = ap.parse_args()
    import torch

    if args.warmup:
        torch.compile(lambda x: x + 1, dynamic=not args.static)(torch.ones(3))
    call = build(args.n, args.static)
    wall, cpu = time.perf_counter(), time.process_time()
    call()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    mode = "static" if args.static else "symbolic"
    print(f"n={args.n} mode={mode} compile_cpu_s={cpu:.2f} wall_s={wall:.2f}")

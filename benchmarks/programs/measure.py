"""Each program's first-call compile, symbolic against its static twin, in fresh processes.

For every program named (default: all in this folder), `--runs` times alternately: the
program as written, then its static twin (`--static`), each in a fresh `python` with
`--warmup` (a trivial compile first, so torch's one-time first-compile cost is not in the
measured call) and with Inductor's FX graph and AOTAutograd caches off. Printed: a
markdown table with the CPU seconds of the measured call (median ± half the spread,
`time.process_time` in the program's process), the ratio of the medians, the median wall
seconds of each, and the load average before and after.

    python benchmarks/programs/measure.py [NAME[:N] ...] [--runs 3]

`NAME:N` measures a program at width N (its `--n`); NAME alone at its default.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from verdict_measure import spread  # one way to print a median and its spread

HERE = Path(__file__).resolve().parent

# A graph an earlier run compiled would come back from Inductor's FX graph cache or the
# AOTAutograd cache in a blink: each run compiles afresh (as `symshrink capture` does).
NO_CACHE = {**os.environ, "TORCHINDUCTOR_FX_GRAPH_CACHE": "0", "TORCHINDUCTOR_AUTOGRAD_CACHE": "0"}
LINE = re.compile(r"n=(\d+) mode=\w+ compile_cpu_s=([\d.]+) wall_s=([\d.]+)")


def programs() -> list[str]:
    """Every runnable program here (the helpers start with `_`; this script is not one)."""
    names = (p.stem for p in HERE.glob("*.py") if not p.name.startswith("_"))
    return sorted(n for n in names if n != Path(__file__).stem)


def once(name: str, n: int | None, static: bool) -> tuple[int, float, float]:
    """(n, CPU s, wall s) of one fresh run of the program's first call."""
    cmd = [sys.executable, str(HERE / f"{name}.py"), "--warmup"]
    cmd += ["--n", str(n)] if n is not None else []
    cmd += ["--static"] if static else []
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=3600, env=NO_CACHE)
    found = LINE.search(out.stdout)
    if out.returncode != 0 or not found:
        raise SystemExit(f"{name}: {' '.join(cmd)} failed ({out.returncode}): {out.stderr[-500:]}")
    return int(found[1]), float(found[2]), float(found[3])


def load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help="NAME or NAME:N (default: every program)")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    cols = ["program", "n", "symbolic CPU s", "static CPU s", "ratio", "wall s (sym / static)"]
    print("| " + " | ".join([*cols, "load before -> after"]) + " |")
    print("|---" * (len(cols) + 1) + "|")
    for spec in args.names or programs():
        name, _, width = spec.partition(":")
        before = load()
        sym: list[tuple[int, float, float]] = []
        sta: list[tuple[int, float, float]] = []
        for _ in range(args.runs):
            sym.append(once(name, int(width) if width else None, static=False))
            sta.append(once(name, int(width) if width else None, static=True))
        cpu_s, cpu_t = [r[1] for r in sym], [r[1] for r in sta]
        ratio = statistics.median(cpu_s) / statistics.median(cpu_t)
        walls = [statistics.median(r[2] for r in runs) for runs in (sym, sta)]
        wall = " / ".join(f"{w:.1f}" for w in walls)
        print(
            f"| {name} | {sym[0][0]} | {spread(cpu_s)} | {spread(cpu_t)} | {ratio:.1f}x "
            f"| {wall} | {before} -> {load()} |",
            flush=True,
        )


if __name__ == "__main__":
    main()

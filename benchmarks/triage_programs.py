"""`symshrink triage` on public slow programs (`benchmarks/programs/`): the table of
docs/triage.md.

Each program runs as a user would run it (`python benchmarks/programs/NAME.py`, or at
width N with `NAME:N`), one after the other, each under `symshrink triage --budget B`
into OUT/NAME; the table is read back from each triage.json: the verdict, wall seconds
per stage, free symbols before and after the reduction, the ratio to the static twin
through the retrace before and after and through the result's `program.py`, the match,
and the load average before and after each run.

    python benchmarks/triage_programs.py [NAME[:N] ...] [-o OUT] [--budget 20m]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from symshrink.records import Triage

PROGRAMS = Path(__file__).resolve().parent / "programs"


def programs() -> list[str]:
    """Every runnable program there (helpers start with `_`; `measure.py` is a script)."""
    return sorted(
        p.stem for p in PROGRAMS.glob("*.py") if not p.name.startswith("_") and p.stem != "measure"
    )


def load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def triage(name: str, n: str | None, out: Path, budget: str) -> tuple[Triage, str, str]:
    """One program's triage record and the load averages before and after it."""
    argv = [sys.executable, str(PROGRAMS / f"{name}.py"), *(["--n", n] if n else [])]
    before = load()
    command = [sys.executable, "-m", "symshrink", "triage", "-o", str(out)]
    subprocess.run(
        [*command, "--budget", budget, "--no-progress", "--", *argv], check=False, timeout=86400
    )
    return Triage.load(out / Triage.FILE), before, load()


def _x(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f}x"


def row(name: str, t: Triage, before: str, after: str) -> str:
    stages = ", ".join(f"{k} {v:.0f}" for k, v in t.seconds.items())
    symbols = (
        f"{t.free_symbols_before} → {t.free_symbols_after}"
        if t.free_symbols_after is not None
        else str(t.free_symbols_before if t.free_symbols_before is not None else "—")
    )
    ratio = f"{_x(t.ratio_before)} → {_x(t.ratio_after)}" if t.ratio_before else "—"
    found = (f"{t.match.entry} ({t.match.score:.2f})" if t.match else t.verdict) + (
        "" if t.minimal is not False else ", not minimal yet"
    )
    cells = [
        name,
        t.verdict,
        f"{t.total_s:.0f} ({stages})",
        symbols,
        ratio,
        _x(t.program_ratio),
        found,
        f"{before} / {after}",
    ]
    return "| " + " | ".join(cells) + " |"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help="NAME or NAME:N (default: every program)")
    ap.add_argument("-o", "--out", type=Path, default=Path("triage-programs"))
    ap.add_argument("--budget", default="20m")
    args = ap.parse_args()
    print(
        "| program | verdict | wall s (per stage) | free symbols | ratio to the twin "
        "(retrace) | ratio through program.py | match | load before / after |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for spec in args.names or programs():
        name, _, n = spec.partition(":")
        t, before, after = triage(name, n or None, args.out / spec.replace(":", "_n"), args.budget)
        print(row(spec, t, before, after), flush=True)


if __name__ == "__main__":
    main()

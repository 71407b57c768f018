"""Seconds per compile phase: relationships preserved vs independent symbols vs caps raised.

For each family and N, a fixture is written by torch's own `save_graph_repro`, then
retraced in a fresh child (`python -m symshrink.retrace --json --no-native-compile`,
PYTHONHASHSEED=0) under each configuration, with a wall-clock timeout per run:

- preserved    the SymInt relationships of the script (symshrink's wrapper)
- independent  what `run_repro` does: every SymInt input and tensor dim a fresh symbol
- caps         preserved, with torch 2.13's two sympy cut-offs raised to 10**6 (1000000):
               `_MAX_ADD_TERMS_FOR_POLY_GCD` (safe_gcd skips Adds of more than 20 terms)
               and `_MAX_SYMBOLS_FOR_EXPENSIVE_SYMPY_OPS` (Inductor's sizevars)

    python benchmarks/retrace_modes.py [--n 4 8 16 24] [--family floordiv_sum ...]
                                       [--config preserved ...] [--timeout 300] [--json OUT]

Families come from tests/fixtures_gen.py (`modidx_outer` and `max_outer` were first
measured here and live there now).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from symshrink.retrace import PHASES  # noqa: E402
from tests import fixtures_gen  # noqa: E402

log = logging.getLogger("retrace_modes")

CAPS = {
    "torch.utils._sympy.functions._MAX_ADD_TERMS_FOR_POLY_GCD": "1000000",
    "torch._inductor.sizevars._MAX_SYMBOLS_FOR_EXPENSIVE_SYMPY_OPS": "1000000",
}
CONFIGS: dict[str, tuple[str, dict[str, str]]] = {
    "preserved": ("preserved", {}),
    "independent": ("independent", {}),
    "caps": ("preserved", CAPS),
}


# ------------------------------------------------------------------------ running


def run_one(script: Path, config: str, timeout: float) -> dict[str, Any]:
    """One retrace in a fresh child; its JSON result, or status timeout / error.

    The child's Inductor cache goes under the fixture's directory, so a child killed at
    the timeout leaves nothing behind once that directory is removed.
    """
    mode, settings = CONFIGS[config]
    cmd = [sys.executable, "-m", "symshrink.retrace", str(script), "--json"]
    cmd += ["--no-native-compile", "--mode", mode]
    for name, value in settings.items():
        cmd += ["--torch-setting", f"{name}={value}"]
    env = {
        **os.environ,
        "PYTHONHASHSEED": "0",
        "PYTHONPATH": str(REPO),
        "TORCHINDUCTOR_CACHE_DIR": str(script.parent / "inductor"),
    }
    start = time.perf_counter()
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,  # its own process group, killed whole on timeout
    )
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return {"status": f"timeout {timeout:.0f}s", "wall_s": time.perf_counter() - start}
    wall = time.perf_counter() - start
    try:
        result = json.loads(out)
    except json.JSONDecodeError:
        tail = err.strip().splitlines()[-1:] or ["no output"]
        return {"status": f"crash: {tail[0][:80]}", "wall_s": wall}
    result["status"] = "ok" if result["error"] is None else f"error: {result['error'][:80]}"
    result["wall_s"] = wall
    return result


def row(family: str, n: int, config: str, r: dict[str, Any]) -> str:
    cells = [f"{family:<13}", f"{n:>3}", f"{config:<12}"]
    if r["status"] != "ok":
        return " ".join(cells) + f"  {r['status']}"
    phases = r["phases"]
    cells += [f"{phases.get(p, 0.0):>9.2f}" for p in PHASES if p != "native"]
    cells += [f"{r['trace_s'] + r['compile_s']:>8.2f}"]
    cells += [f"{r['model_free_symbols']:>4}/{r['graph_free_symbols']:<4}"]
    return " ".join(cells)


def header() -> str:
    names = [f"{p:>9}" for p in PHASES if p != "native"]
    return " ".join([f"{'family':<13}", f"{'N':>3}", f"{'config':<12}", *names, "   total", "syms"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--family", nargs="+", default=["floordiv_sum"])
    parser.add_argument("--n", nargs="+", type=int, default=[4, 8, 16, 24])
    parser.add_argument("--config", nargs="+", choices=sorted(CONFIGS), default=list(CONFIGS))
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per retrace")
    parser.add_argument("--json", type=Path, help="also write every result here")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")

    results = []
    print("model/graph free symbols in `syms`; seconds, no native compile", flush=True)
    print(header(), flush=True)
    with tempfile.TemporaryDirectory(prefix="retrace-modes-") as tmp:
        for family in args.family:
            for n in args.n:
                fixture = fixtures_gen.generate(family, Path(tmp), n=n)
                for config in args.config:
                    r = run_one(fixture.path, config, args.timeout)
                    print(row(family, n, config, r), flush=True)
                    results.append({"family": family, "n": n, "config": config, **r})
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

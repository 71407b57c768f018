"""Interestingness test of the slow case: exit 0 iff a real compile of CANDIDATE is slow.

`symshrink run CANDIDATE --json --no-native-compile` retraces the repro with its SymInt
relationships preserved and stops after Inductor's Python code generation (the C++
compile is ~6 s of noise per call, not the pathology). Text that is no repro fails there.

Slow is measured in CPU seconds of that run (it is single-threaded: one compile thread),
less those of a trivial repro (n = 1: torch's import, a one-symbol trace and compile), not
in wall-clock `compile_s`: on this shared 2-core machine the same original measured
compile_s 12.8 and 17.0 s under colleagues' load and 5.4 to 7.4 s minutes later, so a
wall-clock threshold made the original itself uninteresting. Interesting iff the run
reports no error and its CPU seconds above the trivial repro's reach CONFIG["threshold_s"].

`slow_test.py --measure PATH` prints one run's measures as JSON (calibration; no log).
benchmarks/peers.py copies this file into the case's directory with CONFIG filled in.
Every invocation appends a line to CONFIG["log"] first (calls are counted from it) and
one JSON line with its measures to CONFIG["log"] + ".detail" at the end.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import subprocess
import sys
import time
from typing import Any

CONFIG: dict[str, Any] = {  # @CONFIG@
    "log": os.devnull,
    "threshold_s": 0.0,
    "base_cpu_s": 0.0,
    "cap_s": 600.0,
    "command": ["symshrink", "run", "--json", "--no-native-compile"],
    "env": {},
    "best_dir": None,
}


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure(path: str) -> dict[str, Any]:
    """cpu_s (the run and its waited-for children) and compile_s; error when it failed."""
    before, started = _cpu(), time.monotonic()
    proc = subprocess.Popen(
        [*CONFIG["command"], path],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env={**os.environ, **CONFIG["env"]},
        start_new_session=True,
    )
    try:
        out, _ = proc.communicate(timeout=CONFIG["cap_s"])
    except subprocess.TimeoutExpired:
        out = b""
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)  # and Inductor's compile workers, if any
        proc.wait()
    result: dict[str, Any] = {
        "cpu_s": round(_cpu() - before, 3),
        "wall_s": round(time.monotonic() - started, 3),
    }
    try:
        run = json.loads(out)
    except ValueError:
        run = None
    if not isinstance(run, dict) or run.get("error") is not None:
        result["error"] = run.get("error") if isinstance(run, dict) else "no JSON result"
    else:
        result["compile_s"] = run.get("compile_s")
    return result


def keep_best(path: str) -> None:
    """Keep the smallest interesting candidate per tool: the result of a run that is cut
    at the time limit before the tool writes its own (picire writes it only at the end)."""
    tool = os.environ.get("PEERS_TOOL")
    if not CONFIG.get("best_dir") or not tool:
        return
    target = os.path.join(CONFIG["best_dir"], tool + ".py")
    with open(path, "rb") as f:
        data = f.read()
    try:
        if os.path.getsize(target) <= len(data):
            return
    except OSError:
        pass
    tmp = f"{target}.{os.getpid()}.tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, target)


def main() -> int:
    if len(sys.argv) == 3 and sys.argv[1] == "--measure":
        print(json.dumps(measure(os.path.abspath(sys.argv[2]))))
        return 0
    path = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "repro.py")
    tool = os.environ.get("PEERS_TOOL", "?")
    with open(CONFIG["log"], "a") as f:
        f.write(f"{time.time():.3f} {tool} {path}\n")
    result = measure(path)
    result["slow_cpu_s"] = round(result["cpu_s"] - CONFIG["base_cpu_s"], 3)
    ok = "error" not in result and result["slow_cpu_s"] >= CONFIG["threshold_s"]
    with open(CONFIG["log"] + ".detail", "a") as f:
        f.write(json.dumps({"tool": tool, "interesting": ok, **result}) + "\n")
    if ok:
        keep_best(path)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

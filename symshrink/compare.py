"""`symshrink run --compare`: one repro retraced three ways, side by side, with ratios.

- preserved    the SymInt relationships of the script (what minimize judges)
- independent  what torch's `run_repro` does: every SymInt and tensor dim a fresh symbol
- static twin  every free symbol pinned to its hint (the control of the ratio verdict)

Each runs in a fresh child (`python -m symshrink.retrace --json`, the oracle's child
environment), one after the other, so none inherits another's warm caches. Phase times are
wall seconds measured inside the child; `cpu` is the child's whole CPU time (import
included), the clock the oracle kills on.
"""

from __future__ import annotations

import json
import resource
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from symshrink.baseline import static_twin
from symshrink.repro.parse import parse_file
from symshrink.repro.render import render
from symshrink.retrace import PHASES, RetraceResult
from symshrink.sandbox import child_env, run_in_group


@dataclass(frozen=True)
class Compared:
    """One configuration's retrace and the CPU seconds of its child."""

    config: str
    result: RetraceResult
    cpu_s: float

    @property
    def total_s(self) -> float:
        return self.result.trace_s + self.result.compile_s


def compare(
    repro: Path,
    *,
    no_native_compile: bool = True,
    torch_settings: Mapping[str, str] | None = None,
    device: str | None = None,
) -> list[Compared]:
    """Preserved, independent and static twin retraces of `repro`, in that order."""
    extra = ["--no-native-compile"] if no_native_compile else []
    extra += [f"--torch-setting={k}={v}" for k, v in (torch_settings or {}).items()]
    extra += ["--device", device] if device else []
    with tempfile.TemporaryDirectory(prefix="symshrink-compare-") as tmp:
        twin = Path(tmp) / f"{repro.stem}.twin.py"
        twin.write_text(render(static_twin(parse_file(repro))))
        configs = [
            ("preserved", repro, "preserved"),
            ("independent", repro, "independent"),
            ("static twin", twin, "preserved"),
        ]
        return [
            _child(name, script.resolve(), mode, extra, Path(tmp)) for name, script, mode in configs
        ]


def _child(config: str, script: Path, mode: str, extra: list[str], cwd: Path) -> Compared:
    return Compared(config, *retrace_in_child(script, mode=mode, extra=extra, cwd=cwd))


def retrace_in_child(
    script: Path,
    *,
    mode: str = "preserved",
    extra: Sequence[str] = (),
    cwd: Path,
    timeout_s: float | None = None,
) -> tuple[RetraceResult, float]:
    """`python -m symshrink.retrace SCRIPT --json` in a fresh child: its result and CPU
    seconds. A child still running at `timeout_s` is killed and its result says so."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    argv = [sys.executable, "-m", "symshrink.retrace", str(script), "--json", "--mode", mode]
    # its own watched process group, as the oracle's children: no compile worker outlives it
    code, out, err = run_in_group([*argv, *extra], timeout_s=timeout_s, cwd=cwd, env=child_env())
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    try:
        result = RetraceResult(**json.loads(out))
    except (ValueError, TypeError):
        tail = (err.strip().splitlines() or ["no output"])[-1]
        why = (
            f"still running after {timeout_s:g} s" if code is None else f"the child failed: {tail}"
        )
        result = RetraceResult(script=str(script), mode=mode, error=why)
    return result, cpu


def table(rows: list[Compared]) -> str:
    """Phases (wall s), totals, child CPU s, and each total over the static twin's."""
    twin = next((r for r in rows if r.config == "static twin" and not r.result.error), None)
    shown = [p for p in PHASES if any(p in r.result.phases for r in rows)]
    header = ["config", *shown, "total", "cpu", "x twin"]
    lines = ["  ".join(f"{h:>11}" for h in header)]
    for r in rows:
        if r.result.error:
            lines.append(f"{r.config:>11}  error: {r.result.error}")
            continue
        cells = [f"{r.result.phases.get(p, 0.0):11.2f}" for p in shown]
        ratio = f"{r.total_s / twin.total_s:10.1f}x" if twin and twin.total_s else f"{'—':>11}"
        lines.append(
            "  ".join([f"{r.config:>11}", *cells, f"{r.total_s:11.2f}", f"{r.cpu_s:11.2f}", ratio])
        )
    lines.append(
        "seconds: phases and total are wall time inside the child (trace + compile); cpu is "
        "the child's CPU time, torch's import included"
    )
    symbols = ", ".join(
        f"{r.config} {r.result.graph_free_symbols}" for r in rows if not r.result.error
    )
    lines.append(f"free symbols in the traced graph: {symbols}")
    return "\n".join(lines) + "\n"

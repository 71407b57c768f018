"""Run a repro's `torch.compile` program (`program.py`) and judge it: does the pathology show
through torch.compile as users call it, or only through symshrink's retrace?

`check_program` runs `python PROGRAM --mode static` and `--mode dynamic` k times each,
alternated so that both see the same load, each in a fresh interpreter that leads its own
process group under the lifeline (`oracle.runner.ColdRunner`: killed whole at its limits,
and when symshrink dies, however it dies), with the oracle's child environment (no on-disk
compile caches, one compile thread, a fixed hash seed) and its stack sampler (the dynamic
runs' hot spots). Each run prints the CPU seconds of its compile and first call, after a
warm-up compile. `judge` applies the rule that re-verifies a minimize result: the static
runs' median is the control, a dynamic run is slow at R x it or more, the majority
decides. No margin: that is the reduction's, to keep its candidates off the edge.

This module imports no torch (the children do).
"""

from __future__ import annotations

import json
import statistics
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from symshrink import installed_version
from symshrink.errors import ReproError, UsageError
from symshrink.oracle.calibrate import DEFAULT_RATIO
from symshrink.oracle.noise import Judging
from symshrink.oracle.signature import Signature, merge_counts
from symshrink.program import BACKENDS
from symshrink.records import ProgramCheck, ProgramVerdict, median_is_lower_bound
from symshrink.sandbox import ColdRunner, Job, Limits, Runner, Workload

__all__ = ["PROGRAM_PREFIX", "check_program", "judge", "through_program"]

PROGRAM_PREFIX = "symshrink-program-"  # the scratch folder of one check
STALL_S = 60.0  # as the compile oracle's `Judging.stall_s`: a run idle this long is stuck


@dataclass(frozen=True)
class _Timed:
    """One run: the program's seconds (a lower bound when `stopped`), the CPU it spent
    around them (import, warm-up, inputs) and where its samples went."""

    seconds: float
    overhead_s: float
    stopped: bool
    spots: dict[str, float]


def check_program(
    program: Path,
    *,
    ratio: float = DEFAULT_RATIO,
    runs: int = 3,
    n: int | None = None,
    backend: str = "inductor",
    timeout_s: float = 600.0,
    stop_at: float | None = None,
) -> ProgramCheck:
    """Run `program` (a rendered program.py) `runs` times static and `runs` times dynamic,
    at width `n` (None: its own) with `backend`, and judge it at `ratio` x the static median.

    Each run is stopped at `timeout_s` of wall time; with `stop_at`, a dynamic run is also
    stopped once its compile has used `stop_at` x the static median (its seconds a lower
    bound then), so that a compile that never ends costs that much. A run that fails or
    hangs makes the verdict `error`, with the reason. Raises ReproError for a program that
    cannot be read, UsageError for options out of range.
    """
    if runs < 1 or ratio <= 1 or timeout_s <= 0 or (stop_at is not None and stop_at < ratio):
        raise UsageError("runs >= 1, ratio > 1, timeout > 0 and stop_at >= ratio", program)
    if backend not in BACKENDS:
        raise UsageError(f"backend {backend!r}: not one of {', '.join(BACKENDS)}", program)
    try:
        source = program.read_text()
    except (OSError, UnicodeDecodeError) as e:
        raise ReproError(f"cannot read the program: {e}", program) from None
    argv = ("--backend", backend, *(("--n", str(n)) if n is not None else ()))
    check = _Check(ColdRunner(), source, program.name, argv, timeout_s)
    static: list[_Timed] = []
    dynamic: list[_Timed] = []
    with tempfile.TemporaryDirectory(prefix=PROGRAM_PREFIX) as scratch:
        for _ in range(runs):
            timed = check.run(Path(scratch), "static")
            if not isinstance(timed, str):
                static.append(timed)
                # what a dynamic run spends around its compile, at most: as a static one
                overhead = max(t.overhead_s for t in static)
                median = statistics.median(t.seconds for t in static)
                kill_at = None if stop_at is None else overhead + stop_at * median
                timed = check.run(Path(scratch), "dynamic", kill_at, overhead)
            if isinstance(timed, str):
                return _record("error", timed, ratio, n, backend, static, dynamic)
            dynamic.append(timed)
    verdict, why = judge(
        [t.seconds for t in dynamic],
        [t.seconds for t in static],
        ratio,
        [t.stopped for t in dynamic],
    )
    return _record(verdict, why, ratio, n, backend, static, dynamic)


def judge(
    dynamic_s: Sequence[float],
    static_s: Sequence[float],
    ratio: float,
    stopped: Sequence[bool] = (),
) -> tuple[ProgramVerdict, str]:
    """`slow` when most dynamic runs took `ratio` x the static median or more (a stopped
    run at its lower bound); else `close` when their median is within the oracle's band
    (`Judging.band`) below that, too close to call, and `not slow` below it; with the line
    that says so."""
    control = statistics.median(static_s)
    slow = sum(d >= ratio * control for d in dynamic_s)
    median = statistics.median(dynamic_s) / control
    at = "at least " if median_is_lower_bound(dynamic_s, stopped) else ""
    why = (
        f"{slow} of {len(dynamic_s)} dynamic runs at {ratio:g}x the static median"
        f" ({control:.2f} s) or more; median {at}{median:.1f}x"
    )
    if 2 * slow > len(dynamic_s):
        return "slow", why
    return ("close" if median >= ratio * (1 - Judging.band) else "not slow"), why


def through_program(check: ProgramCheck) -> str:
    """Whether the pathology shows through torch.compile, in a clause: what minimize's end
    line and the report say; with the width it ran at when that was not the repro's own."""
    at = "" if check.n is None else f" at width {check.n}"
    if check.verdict == "slow":
        return f"it reproduces through torch.compile{at} ({check.why})"
    if check.verdict == "close":
        edge = f"at the edge of {check.at_ratio:g}x through torch.compile{at}"
        return f"{edge}, too close to call ({check.why})"
    if check.verdict == "not slow":
        return f"only through symshrink's retrace, not through torch.compile{at} ({check.why})"
    if check.verdict == "error":
        return f"its torch.compile program failed ({check.why})"
    return f"no torch.compile program ({check.why})"


@dataclass(frozen=True)
class _Check:
    """How each run of one program is made."""

    runner: Runner
    source: str
    name: str
    argv: tuple[str, ...]
    timeout_s: float

    def run(
        self, root: Path, mode: str, kill_at: float | None = None, overhead_s: float = 0.0
    ) -> _Timed | str:
        """One run of `mode` in a fresh child: its timing, or why it failed. A dynamic run
        stopped at `kill_at` (CPU s) or the timeout has its CPU less `overhead_s` as seconds."""
        workload = Workload(entry="script", argv=(*self.argv, "--mode", mode))
        job = Job.create(root, self.source, workload, name=self.name)
        limits = Limits(timeout_s=self.timeout_s, kill_at=kill_at, stall_s=STALL_S)
        try:
            run = self.runner.run(job, limits)
            out = job.stdout_path.read_text(errors="replace")
        finally:
            job.remove()
        if run.exit.reason == "threshold" or (run.exit.reason == "timeout" and mode == "dynamic"):
            return _Timed(run.exit.cpu_s - overhead_s, overhead_s, True, run.seconds())
        if run.error is not None or run.exit.reason != "exited":
            return f"the {mode} run failed: {run.error or f'timeout after {self.timeout_s:g} s'}"
        try:
            seconds = float(json.loads(out.splitlines()[-1])["seconds"])
        except (IndexError, ValueError, KeyError, TypeError):
            return f"the {mode} run printed no time: {out[-200:]!r}"
        return _Timed(seconds, run.exit.cpu_s - seconds, False, run.seconds())


def _record(
    verdict: ProgramVerdict,
    why: str,
    ratio: float,
    n: int | None,
    backend: str,
    static: Sequence[_Timed],
    dynamic: Sequence[_Timed],
) -> ProgramCheck:
    control = statistics.median(t.seconds for t in static) if static else 0.0
    return ProgramCheck(
        verdict=verdict,
        why=why,
        at_ratio=ratio,
        n=n,
        backend=backend,
        dynamic_s=tuple(round(t.seconds, 3) for t in dynamic),
        static_s=tuple(round(t.seconds, 3) for t in static),
        stopped=tuple(t.stopped for t in dynamic),
        ratio=(
            round(statistics.median(t.seconds for t in dynamic) / control, 2)
            if dynamic and control > 0
            else None
        ),
        hot_spots=_beyond(dynamic, static),
        torch_version=installed_version("torch"),
    )


def _beyond(dynamic: Sequence[_Timed], static: Sequence[_Timed]) -> tuple[str, ...]:
    """The spots where a dynamic run spent the most CPU beyond a static one (per run, on
    average): what both modes do alike (C++ compile, start-up) is not the pathology."""
    if not dynamic:
        return ()
    spent = merge_counts(t.spots for t in dynamic)
    base = merge_counts(t.spots for t in static)
    extra = {
        spot: s / len(dynamic) - base.get(spot, 0.0) / max(1, len(static))
        for spot, s in spent.items()
    }
    return Signature.from_counts({k: v for k, v in extra.items() if v > 0}).names

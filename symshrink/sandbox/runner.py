"""Parent side: run one candidate in its own process group, kill it at the threshold.

A `Job` is a scratch directory holding the candidate, its spec and, afterwards, its result
and stack samples. `supervise` watches a child that leads its own process group: at the
threshold (on the CPU or wall clock) or at the hard timeout it sends SIGTERM, waits a short
grace for the samples to be flushed, then SIGKILLs the whole group and checks in /proc that
nothing of it survived. `ColdRunner` starts each child as a fresh interpreter; the warm pool
(`pool.py`) forks it from a process that has already imported torch.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any, Literal, Protocol

from symshrink import cancel
from symshrink.sandbox.lifeline import start
from symshrink.sandbox.procs import (
    kill_group,
    python_env,
    read_stat,
    signal_group,
    signal_groups_in,
)
from symshrink.sandbox.profile import Clock, Profile

Reason = Literal["exited", "threshold", "timeout", "stalled"]

_POLL_S = 0.01
STALL_SHARE = 0.05
"""A compile keeps a core busy (a quarter of one on a machine loaded 4x); a deadlocked
child's sampler uses ~0.3 % of one."""

# Environment of every child: no on-disk compile caches (a candidate must not be fast
# because an earlier one left its graph behind, and the sample scripts pin
# TORCHINDUCTOR_CACHE_DIR), no compile-worker pool (the pathology is Python-side), a
# single-threaded OpenBLAS (its pool would start threads before the warm worker forks),
# and a fixed hash seed (sympy's term order, hence its work, depends on it).
CHILD_ENV: dict[str, str] = {
    "TORCHINDUCTOR_FX_GRAPH_CACHE": "0",
    "TORCHINDUCTOR_AUTOGRAD_CACHE": "0",
    "TORCHINDUCTOR_COMPILE_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "PYTHONHASHSEED": "0",
}


def child_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment a child (or warm worker) starts with; `symshrink` stays importable."""
    return python_env({**CHILD_ENV, **(extra or {})})


# The functions that bound the retrace's phases (the ones its `dynamo_timed` keys time),
# so that a child killed mid-compile still says which phase it was stuck in. The first two
# are `symshrink.runtime`'s; a standalone min.py carries that module's code as `__main__`,
# where they are `__main__.trace_graph` and `__main__.compile_graph`. No oracle runs a
# min.py as its script today (`entry='script'` serves stand-ins and `--test` commands, with
# no phase markers, so every sample is in phase `run`); one that does must add those names.
RETRACE_PHASES: dict[str, str] = {
    "symshrink.runtime.trace_graph": "trace",
    "symshrink.runtime.compile_graph": "other",
    "torch._inductor.compile_fx._recursive_post_grad_passes": "post_grad",
    "torch._inductor.graph.GraphLowering.run": "lowering",
    "torch._inductor.scheduler.Scheduler.__init__": "scheduling",
    "torch._inductor.graph.GraphLowering.codegen": "codegen",
    "torch._inductor.codecache.PyCodeCache.load_by_key_path": "native",
}
RETRACE_OPTIONS: dict[str, Any] = {"mode": "preserved", "no_native_compile": True}


@dataclass(frozen=True)
class Workload:
    """What the child does with the candidate script.

    `entry='retrace'` calls `symshrink.retrace.retrace(script, **retrace)` and reports its
    phases; `entry='script'` runs the script as `__main__` (stand-ins, self-running repros,
    a program.py) with `argv` as its arguments.
    `sampler` holds `StackSampler` options (interval_s, modules, libraries, phase_markers).
    `env` is set in the child before the candidate runs; variables that torch reads at
    import belong in `WarmPool(env=...)` instead, since a warm worker imported torch already.
    """

    entry: Literal["script", "retrace"] = "retrace"
    retrace: dict[str, Any] = field(default_factory=dict)
    sampler: dict[str, Any] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    argv: tuple[str, ...] = ()

    def spec(self) -> dict[str, Any]:
        """The child's options: for a retrace, RETRACE_OPTIONS and RETRACE_PHASES by default."""
        if self.entry == "script":
            return {"entry": "script", "retrace": {}, "sampler": self.sampler, "argv": self.argv}
        sampler = {"phase_markers": RETRACE_PHASES, "default_phase": "load", **self.sampler}
        return {
            "entry": "retrace",
            "retrace": {**RETRACE_OPTIONS, **self.retrace},
            "sampler": sampler,
        }


@dataclass(frozen=True)
class Limits:
    """When to stop a child: `kill_at` seconds on `clock` (None: never), `timeout_s` of wall.

    `kill_file`: a file the parent writes the kill point into, and may rewrite: its
    latest number replaces `kill_at` (a candidate started beside its control gets its
    point once the control's time is known; 0 stops a run whose answer is not needed).
    `stall_s`: stop a child that used less than STALL_SHARE of a core in a window of this
    many seconds of wall (None: never). A deadlocked child never reaches a kill point on
    the CPU clock, and would hold its call until the timeout; its sampler thread still
    ticks, so "no CPU at all" would not catch it. Only the leader's CPU counts: a child
    that waits that long on a process of its own counts as stalled."""

    timeout_s: float
    kill_at: float | None = None
    clock: Clock = "cpu"
    grace_s: float = 0.3
    kill_file: str | None = None
    stall_s: float | None = None


def read_kill_point(path: str) -> float | None:
    """The kill point a parent wrote (atomically) into `path`, None while there is none."""
    try:
        return float(Path(path).read_text())
    except (OSError, ValueError):
        return None


JOB_PREFIX = "cand-"


@dataclass(frozen=True)
class Job:
    """A candidate laid out in its own scratch directory (`JOB_PREFIX`...)."""

    dir: Path
    script: Path
    spec_path: Path
    result_path: Path
    samples_path: Path
    stdout_path: Path
    stderr_path: Path

    @classmethod
    def create(
        cls, root: Path | None, source: str, workload: Workload, name: str = "candidate.py"
    ) -> Job:
        d = Path(tempfile.mkdtemp(prefix=JOB_PREFIX, dir=root))
        job = cls(
            dir=d,
            script=d / name,
            spec_path=d / "spec.json",
            result_path=d / "result.json",
            samples_path=d / "samples.txt",
            stdout_path=d / "stdout.txt",
            stderr_path=d / "stderr.txt",
        )
        job.script.write_text(source)
        env = {
            **workload.env,
            "TORCHINDUCTOR_CACHE_DIR": str(d / "inductor"),
            "TRITON_CACHE_DIR": str(d / "triton"),
        }
        spec = {
            **workload.spec(),
            "script": str(job.script),
            "env": env,
            "result": str(job.result_path),
            "samples": str(job.samples_path),
        }
        job.spec_path.write_text(json.dumps(spec))
        return job

    def remove(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)


@dataclass(frozen=True)
class Exit:
    """How a supervised child ended."""

    reason: Reason
    wall_s: float
    cpu_s: float
    returncode: int | None
    clean: bool  # no process of its group survived


@dataclass(frozen=True)
class Run:
    """Everything one child run left: its exit, its result file, its sample timeline."""

    exit: Exit
    result: dict[str, Any] | None
    profile: Profile | None
    stderr_tail: str

    def measure(self, clock: Clock) -> float:
        return self.exit.cpu_s if clock == "cpu" else self.exit.wall_s

    @property
    def error(self) -> str | None:
        """Why the run failed, if it did (a run stopped at a limit has not failed)."""
        if self.exit.reason == "stalled":
            return (
                f"stalled: it had stopped using the CPU ({self.exit.cpu_s:.2f}s CPU in "
                f"{self.exit.wall_s:.0f}s wall; a deadlock?)"
            )
        if self.exit.reason != "exited":
            return None
        if self.result is not None and self.result.get("error"):
            return str(self.result["error"])
        if self.exit.returncode != 0:
            lines = self.stderr_tail.strip().splitlines()
            last = lines[-1] if lines else ""
            return f"exit code {self.exit.returncode}" + (f": {last}" if last else "")
        if self.result is None:
            return "the child wrote no result"
        return None

    def seen_at(self, limit: float, clock: Clock = "cpu") -> Run:
        """The run as a verdict at `limit` sees it: its samples up to there (a run that
        went on longer, to be sampled further, is judged like one stopped at its limit)."""
        return (
            self if self.profile is None else replace(self, profile=self.profile.cut(limit, clock))
        )

    def spots(self, until: float | None = None, clock: Clock = "cpu") -> dict[str, int]:
        """Samples per spot (those before `until` seconds on `clock`)."""
        return self.profile.counts(until, clock) if self.profile else {}

    def seconds(self) -> dict[str, float]:
        """CPU seconds per spot (`Profile.seconds`)."""
        return self.profile.seconds() if self.profile else {}

    @property
    def phase_times(self) -> dict[str, float]:
        """Seconds per phase, as the child reported them."""
        return dict((self.result or {}).get("phases") or {})

    @property
    def slow_phase(self) -> str | None:
        """The phase it was stuck in when stopped, else the longest phase it reported."""
        times = self.phase_times
        if self.exit.reason == "exited" and times:
            return max(times, key=times.__getitem__)
        return self.profile.last_phase if self.profile else None


def _wait_readable(fd: int | None, timeout: float) -> None:
    if fd is None:
        time.sleep(timeout)
    else:
        select.select([fd], [], [], timeout)


def _cpu_s(usage: Any) -> float:
    return float(usage.ru_utime + usage.ru_stime)


def supervise(pid: int, limits: Limits, started: float) -> Exit:
    """Wait for child `pid` (leader of group `pid`) to exit or cross a limit; leave no process.

    The caller must be the child's parent (it reaps it here, which yields its CPU time).
    """
    pidfd: int | None = None
    with contextlib.suppress(OSError, AttributeError):
        pidfd = os.pidfd_open(pid)
    reason: Reason | None = None
    kill_at, kill_file = limits.kill_at, limits.kill_file
    cpu = 0.0
    window = (0.0, 0.0)  # (wall, CPU) where the stall check's window began
    try:
        while True:
            done, status, usage = os.wait4(pid, os.WNOHANG)
            if done == pid:
                wall = time.monotonic() - started
                reason = "exited"
                break
            wall = time.monotonic() - started
            if kill_file is not None and (written := read_kill_point(kill_file)) is not None:
                kill_at = written
            if kill_at is not None or limits.stall_s is not None:
                st = read_stat(pid)
                cpu = st.cpu_s if st is not None else cpu
            measure = wall if limits.clock == "wall" else cpu
            if wall >= limits.timeout_s:
                reason = "timeout"
            elif kill_at is not None and measure >= kill_at:
                reason = "threshold"
            elif limits.stall_s is not None and wall - window[0] >= limits.stall_s:
                if cpu - window[1] < STALL_SHARE * (wall - window[0]):
                    reason = "stalled"
                window = (wall, cpu)
            if reason is not None:
                status, usage = _stop(pid, limits.grace_s)
                break
            _wait_readable(pidfd, _POLL_S)
    except BaseException:  # interrupted: the child must not outlive the wait
        signal_group(pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
        kill_group(pid)
        raise
    finally:
        if pidfd is not None:
            os.close(pidfd)
    clean = kill_group(pid)
    return Exit(
        reason=reason,
        wall_s=wall,
        cpu_s=_cpu_s(usage),
        returncode=os.waitstatus_to_exitcode(status),
        clean=clean,
    )


def _stop(pid: int, grace_s: float) -> tuple[int, Any]:
    """SIGTERM the group, give the leader `grace_s` to flush, then SIGKILL; reap the leader."""
    signal_group(pid, signal.SIGTERM)
    deadline = time.monotonic() + grace_s
    while time.monotonic() < deadline:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done == pid:
            return status, usage
        time.sleep(0.005)
    signal_group(pid, signal.SIGKILL)
    _, status, usage = os.wait4(pid, 0)
    return status, usage


def collect(job: Job, exit_: Exit) -> Run:
    """Read what the child left in its job directory."""
    try:
        result = json.loads(job.result_path.read_text())
    except (OSError, ValueError):
        result = None
    try:
        tail = job.stderr_path.read_text(errors="replace")[-2000:]
    except OSError:
        tail = ""
    return Run(exit_, result, Profile.read(job.samples_path), tail)


def run_job(runner: Runner, job: Job, limits: Limits) -> Run:
    """`runner.run(job, limits)` as part of the current call (`symshrink.cancel`): a cancel
    SIGKILLs the job's processes, found by their working directory whichever runner started
    them (their supervisor still reaps them), and the call raises `Cancelled`, as one
    cancelled before it starts does. A runner whose children run elsewhere (Dask) stops
    them itself. A cancel in the moment between the check and the child's start finds
    nothing to kill: that run goes on to its limit, and the call still raises."""
    token = cancel.current()
    if token is None:
        return runner.run(job, limits)
    token.check()
    try:
        with token.on_cancel(partial(signal_groups_in, [job.dir], signal.SIGKILL)):
            run = runner.run(job, limits)
    except Exception:
        if token.cancelled:
            raise cancel.Cancelled from None
        raise
    token.check()
    return run


class Runner(Protocol):
    """Runs one job to completion or to its limit; `slots` jobs may run at once.
    `shares_scratch`: its children see this process's files, so a kill point written into
    a job's `kill_file` after the job started reaches its child (a run beside another)."""

    slots: int
    shares_scratch: bool

    def run(self, job: Job, limits: Limits) -> Run: ...

    def close(self) -> None: ...


def run_leader(
    cmd: list[str],
    job: Job,
    limits: Limits,
    *,
    env: dict[str, str] | None = None,
    merge_stderr: bool = False,
) -> Run:
    """Run `cmd` in the job's directory as the leader of a new, watched process group,
    supervised to its limits; its output goes to the job's files (stderr into stdout's)."""
    with open(job.stdout_path, "wb") as out, open(job.stderr_path, "wb") as err:
        started = time.monotonic()
        child = start(
            cmd,
            cwd=job.dir,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT if merge_stderr else err,
        )
    with child:
        exit_ = supervise(child.pid, limits, started)
        child.proc.returncode = exit_.returncode  # reaped by supervise; keep Popen from waiting
    return collect(job, exit_)


class ColdRunner:
    """Each candidate in a fresh `python -m symshrink.sandbox.child` (pays the torch import)."""

    shares_scratch = True

    def __init__(self, *, slots: int = 1, python: str = sys.executable) -> None:
        self.slots = slots
        self.python = python
        self._env = child_env()

    def run(self, job: Job, limits: Limits) -> Run:
        cmd = [self.python, "-m", "symshrink.sandbox.child", str(job.spec_path)]
        return run_leader(cmd, job, limits, env=self._env)

    def close(self) -> None:
        """Nothing is kept between runs."""


class CommandRunner:
    """A `Runner` for `--test`: `CMD candidate.py` in the job's directory, its own process group.

    A Runner, so that the command can run wherever runners do (a Dask worker, say).
    """

    shares_scratch = True

    def __init__(self, cmd: Sequence[str], *, slots: int = 1) -> None:
        self.cmd = list(cmd)
        self.slots = slots

    def run(self, job: Job, limits: Limits) -> Run:
        return run_leader([*self.cmd, str(job.script)], job, limits, merge_stderr=True)

    def close(self) -> None:
        """Nothing is kept between runs."""

"""User-defined interestingness: a command (like C-Reduce's test scripts) or a Python callable.

Their verdicts use the same statuses as the compile oracle: 'slow' means "interesting"
(exit 0, or True), 'fast' means not, 'error' that the test itself failed or timed out.
"""

from __future__ import annotations

import logging
import shlex
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from symshrink.oracle.base import BaseOracle
from symshrink.sandbox import CommandRunner, Job, Limits, Runner, Workload, run_job
from symshrink.verdict import Status, Verdict

if TYPE_CHECKING:
    from symshrink.repro.candidate import Candidate

log = logging.getLogger(__name__)


class CallableOracle(BaseOracle):
    """`fn(source) -> bool` of the candidate's script, in this process: for library use and
    millisecond-fast tests."""

    def __init__(self, fn: Callable[[str], bool]) -> None:
        super().__init__()
        self.fn = fn

    def _judge(self, candidate: Candidate) -> Verdict:
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            ok = bool(self.fn(candidate.source))
        except Exception as exc:
            log.debug("interestingness function raised", exc_info=True)
            return Verdict(
                "error",
                False,
                time.perf_counter() - wall,
                time.process_time() - cpu,
                detail=f"{type(exc).__name__}: {exc}",
            )
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        return Verdict("slow" if ok else "fast", ok, wall, cpu)


class CommandOracle(BaseOracle):
    """Runs `CMD candidate.py` in the candidate's own temp dir: exit 0 means interesting.

    The command runs in its own process group, killed whole at `timeout_s` (a timeout is
    an 'error', as in C-Vise: a test that hangs says nothing about the candidate). `runner`
    runs it elsewhere (a `CommandRunner` of the same command, wrapped); the oracle closes it.
    """

    def __init__(
        self,
        cmd: str | Sequence[str],
        *,
        timeout_s: float = 300.0,
        jobs: int = 1,
        filename: str = "candidate.py",
        scratch: Path | None = None,
        runner: Runner | None = None,
    ) -> None:
        self.cmd = shlex.split(cmd) if isinstance(cmd, str) else list(cmd)
        self.runner = runner if runner is not None else CommandRunner(self.cmd, slots=jobs)
        super().__init__(jobs=self.runner.slots)
        self.timeout_s = timeout_s
        self.filename = filename
        self.scratch = scratch

    def _judge(self, candidate: Candidate) -> Verdict:
        job = Job.create(
            self.scratch, candidate.source, Workload(entry="script"), name=self.filename
        )
        try:
            limits = Limits(timeout_s=self.timeout_s, clock="wall")
            exit_ = run_job(self.runner, job, limits).exit
        finally:
            job.remove()
        if exit_.reason == "timeout":
            return Verdict(
                "error", False, exit_.wall_s, exit_.cpu_s, detail=f"timeout after {self.timeout_s}s"
            )
        ok = exit_.returncode == 0
        status: Status = "slow" if ok else "fast"
        return Verdict(status, ok, exit_.wall_s, exit_.cpu_s, detail=f"exit {exit_.returncode}")

    def close(self) -> None:
        self.runner.close()

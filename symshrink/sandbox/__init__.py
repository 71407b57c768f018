"""Running child processes safely: jobs, limits, process groups, warm pools, the lifeline.

The sandbox knows nothing of verdicts. It runs a `Job` (a candidate script in its own
scratch directory) under `Limits` (a kill point on the CPU or wall clock, a hard timeout),
in a child that leads its own process group, and returns a `Run`: how the child ended
(`Exit`) and what its stack sampler saw (`Profile`). A `Runner` runs jobs: `ColdRunner`
starts a fresh interpreter for each, `WarmPool` forks each from a worker that has already
imported torch, `CommandRunner` runs a `--test` command, and `sandbox.dask_runner` (the
`dask` extra, imported on its own) runs them on a Dask cluster. Every child symshrink
starts goes through `start` and is listed with the lifeline's watchdog, so none outlives
a SIGKILLed symshrink; `interrupts` turns SIGINT and SIGTERM into `Interrupted`.

The names below are the sandbox's interface; its modules are its own (a test checks that
nothing outside imports them, `dask_runner` aside). Nothing here imports torch: children
and warm workers do.
"""

from __future__ import annotations

from symshrink.sandbox.lifeline import (
    Child,
    Interrupted,
    interrupts,
    resume,
    run_in_group,
    start,
    stopping,
)
from symshrink.sandbox.pool import POOL_PREFIX, WarmPool
from symshrink.sandbox.procs import group_members, python_env, read_stat, signal_group
from symshrink.sandbox.profile import Clock, Profile
from symshrink.sandbox.runner import (
    JOB_PREFIX,
    RETRACE_PHASES,
    ColdRunner,
    CommandRunner,
    Exit,
    Job,
    Limits,
    Run,
    Runner,
    Workload,
    child_env,
    read_kill_point,
    run_job,
)

__all__ = [
    "JOB_PREFIX",
    "POOL_PREFIX",
    "RETRACE_PHASES",
    "Child",
    "Clock",
    "ColdRunner",
    "CommandRunner",
    "Exit",
    "Interrupted",
    "Job",
    "Limits",
    "Profile",
    "Run",
    "Runner",
    "WarmPool",
    "Workload",
    "child_env",
    "group_members",
    "interrupts",
    "python_env",
    "read_kill_point",
    "read_stat",
    "resume",
    "run_in_group",
    "run_job",
    "signal_group",
    "start",
    "stopping",
]

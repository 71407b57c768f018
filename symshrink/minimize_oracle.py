"""The oracle a minimize run judges with, made from its options, and what of them is
checked before the original runs (a `--test` command that cannot run, an unknown torch
setting, a calibration cut short)."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from symshrink.errors import NotInteresting, UsageError
from symshrink.minimize_options import Options
from symshrink.oracle import CommandOracle, CompileOracle, Judging
from symshrink.oracle.base import BaseOracle
from symshrink.oracle.calibrate import CalibrationError
from symshrink.records import CALIBRATION, CONTROLS, load_calibration
from symshrink.repro.candidate import Candidate
from symshrink.sandbox import CommandRunner, Runner, Workload, child_env, run_in_group

_RESOLVE_SETTINGS = """\
import json, sys
from symshrink.retrace import SettingError, resolve_settings
try:
    resolve_settings(json.loads(sys.argv[1]))
except SettingError as e:
    print(e, file=sys.stderr)
    sys.exit(2)
"""


def check_torch_settings(settings: dict[str, str]) -> None:
    """An unknown --torch-setting is bad input, found before the original runs. Resolving
    one imports torch, which this process never does: a short child resolves them."""
    argv = [sys.executable, "-c", _RESOLVE_SETTINGS, json.dumps(settings)]
    code, _, err = run_in_group(argv, timeout_s=300, env=child_env())
    if code == 2:  # the last line: torch may have warned before
        raise UsageError(f"--torch-setting: {err.strip().splitlines()[-1]}")


def check_oracle_options(opts: Options, work: Path) -> None:
    """What the oracle would otherwise fail on only once it runs, as a traceback or as an
    original that 'cannot be measured'."""
    if opts.test is not None:
        test_command(opts.test)
        return
    if opts.resume and (work / CALIBRATION).exists():
        load_calibration(work / CALIBRATION)  # refused now if cut short or edited
    if opts.torch_settings:
        check_torch_settings(opts.torch_settings)


def test_command(test: str) -> list[str]:
    """The --test command with its program made absolute: it runs in a scratch directory."""
    argv = shlex.split(test)
    if not argv:
        raise UsageError("--test: empty command")
    program = Path(argv[0])
    if program.exists():
        _check_runnable(program)
        argv[0] = str(program.resolve())
    elif shutil.which(argv[0]) is None:
        raise UsageError(f"--test: command not found: {argv[0]}")
    return argv


def _check_runnable(program: Path) -> None:
    """What exec would refuse, said in words: not a file, not executable, no `#!` line."""
    if not program.is_file():
        raise UsageError("--test: not a file", program)
    if not os.access(program, os.X_OK):
        raise UsageError(
            f"--test: not executable (chmod +x it, or --test 'python3 {program}')", program
        )
    with program.open("rb") as f:
        magic = f.read(4)
    if not (magic.startswith(b"#!") or magic == b"\x7fELF"):
        raise UsageError(
            f"--test: no #! line, so it cannot be run (add one, or --test 'sh {program}')",
            program,
        )


def remote_runner(opts: Options, local: Callable[[], Runner] | None = None) -> Runner | None:
    """The Dask runner `--scheduler` asks for: `local` builds the runner on each worker;
    None, each worker's warm pool runs the candidates (the compile oracle's)."""
    if opts.scheduler is None:
        return None
    from symshrink.sandbox.dask_runner import connect  # distributed is an optional extra

    if local is None:
        return connect(opts.scheduler, warm=True)
    return connect(opts.scheduler, local)


def make_oracle(opts: Options, original: Candidate, work: Path) -> BaseOracle:
    """The `--test` command's oracle, else the compile oracle calibrated on the original
    (or loaded from the work directory's calibration, on --resume)."""
    if opts.test is not None:
        argv = test_command(opts.test)
        return CommandOracle(
            argv,
            timeout_s=opts.timeout,
            jobs=opts.jobs,
            scratch=work,
            runner=remote_runner(opts, partial(CommandRunner, argv)),
        )
    retrace_options: dict[str, Any] = {}
    if opts.torch_settings:
        retrace_options["torch_settings"] = dict(opts.torch_settings)
    try:
        return CompileOracle.create(
            original,
            k=opts.calibration_runs,
            ratio=opts.ratio,
            baseline=opts.baseline,
            threshold_s=opts.threshold,
            floor_s=opts.floor,
            jobs=opts.jobs,
            workload=Workload(retrace=retrace_options),
            judging=Judging(
                timeout_s=opts.timeout,
                signature=opts.signature,
                margin=opts.margin,
                confirm=opts.confirm,
                slow_control_runs=opts.calibration_runs,  # as re-verification measures it
            ),
            calibration_path=work / CALIBRATION,
            controls_path=work / CONTROLS,
            scratch=work,
            runner=remote_runner(opts),
        )
    except CalibrationError as e:
        raise NotInteresting(f"the original cannot be measured: {e}") from None

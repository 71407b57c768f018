"""What `symshrink minimize` takes, defined once (`Options`): each option's name, type,
default and role. The CLI takes its flags' defaults from it and passes every flag on by
name (`cli.minimize_options`); `judged_by` (what the journal's verdicts depend on) and the
command rebuilt from a run's record (`command_line`) are derived here; the record
(`records.RunOptions`, a file format) keeps every option not marked LOCAL or API_ONLY.
`tests/test_minimize_options.py` fails when an option is added to one and not the others."""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from symshrink.baseline import BaselineKind
from symshrink.errors import UsageError
from symshrink.oracle import Judging
from symshrink.oracle.calibrate import DEFAULT_FLOOR_S, DEFAULT_RATIO
from symshrink.repro.model import Repro
from symshrink.repro.render import canonical_key

JUDGES = {"judges": True}
"""An option the verdicts depend on: part of `judged_by`, so `--resume` refuses a journal
judged otherwise."""
LOCAL = {"recorded": False}
"""Where this run's files go and how it shows them: not in the run's record."""
API_ONLY = {"recorded": False, "cli": False}
"""An option of the Python API alone (`symshrink.minimize`), not a flag of the command."""
# An option's "flag" (metadata) is its spelling on the command line when not `--name`.


@dataclass
class Options:
    """Everything `symshrink minimize` takes; defaults are the CLI's."""

    repro: Path = field(metadata=LOCAL)
    out: Path | None = field(default=None, metadata=LOCAL)
    work_dir: Path | None = field(default=None, metadata=LOCAL)
    timeout: float = 600.0
    ratio: float = field(default=DEFAULT_RATIO, metadata=JUDGES)
    baseline: BaselineKind = field(default="static", metadata=JUDGES)
    # absolute mode: seconds instead of R x the control
    threshold: float | None = field(default=None, metadata=JUDGES)
    test: str | None = field(default=None, metadata=JUDGES)
    jobs: int = 1
    resume: bool = field(default=False, metadata=LOCAL)
    report_json: Path | None = field(default=None, metadata=LOCAL)
    max_calls: int | None = None
    max_time: float | None = None
    torch_settings: dict[str, str] = field(
        default_factory=dict, metadata={**JUDGES, "flag": "--torch-setting"}
    )
    calibration_runs: int = field(default=3, metadata=API_ONLY)
    signature: bool = field(default=True, metadata=JUDGES)
    margin: float | None = field(default=None, metadata=JUDGES)  # None: noise.margin
    # ratio mode: the least CPU seconds a slow candidate runs (`noise.limit`); 0: none
    floor: float = field(default=DEFAULT_FLOOR_S, metadata=JUDGES)
    confirm: int = field(default=Judging.confirm, metadata=JUDGES)
    graph_first: bool = True  # the graph passes first (minimize_stages.stages)
    progress: bool = field(default=True, metadata=LOCAL)
    scheduler: str | None = None  # Dask: tcp://HOST:PORT or local:N; None: this machine


def judging() -> tuple[str, ...]:
    """The options the journal's verdicts depend on."""
    return tuple(f.name for f in fields(Options) if f.metadata.get("judges", False))


def check_values(opts: Options) -> None:
    """Option values that cannot judge anything, one line each (the CLI's own checks say
    the same earlier; a caller of the Python API gets them here)."""
    bad = [
        (opts.timeout > 0, "timeout must be > 0"),
        (opts.ratio > 1, "ratio must be > 1 (at 1x every candidate is its own twin)"),
        (opts.threshold is None or opts.threshold > 0, "threshold must be > 0"),
        (opts.jobs >= 1, "jobs must be >= 1"),
        (opts.margin is None or opts.margin >= 0, "margin must be >= 0"),
        (opts.floor >= 0, "floor must be >= 0"),
        (opts.confirm >= 0, "confirm must be >= 0"),
        (opts.max_calls is None or opts.max_calls >= 0, "max_calls must be >= 0"),
        (opts.max_time is None or opts.max_time >= 0, "max_time must be >= 0"),
        (opts.calibration_runs >= 1, "calibration_runs must be >= 1"),
    ]
    for ok, what in bad:
        if not ok:
            raise UsageError(what)


def judged_by(opts: Options, original: Repro) -> dict[str, Any]:
    """What the journal's verdicts depend on: the input and the rule that judged it (a
    `--test` command alone, else every other judging option; R, the control and the floor
    mean nothing at an absolute threshold). No floor is no key: a journal judged before
    the floor existed resumes at `--floor 0`."""
    rule: dict[str, Any]
    if opts.test is not None:
        rule = {"test": opts.test}
    else:
        rule = {name: getattr(opts, name) for name in judging() if name != "test"}
        rule["torch_settings"] = dict(opts.torch_settings)
        if opts.threshold is not None:
            rule.update(ratio=None, baseline=None, floor=None)
        if not rule["floor"]:
            del rule["floor"]
    return {"input": canonical_key(original), **rule}


def command_line(repro: str, options: Mapping[str, Any]) -> str:
    """The `symshrink minimize` command that recorded `options` spell (a record's, by the
    options' names): an option at its default, or off, is left out; one on by default
    that is off is its `--no-` flag (None: recorded before the option existed, when it
    was off)."""
    words = ["symshrink", "minimize", repro]
    by_name = {f.name: f for f in fields(Options)}
    for name, value in options.items():
        dashed = name.replace("_", "-")
        flag = by_name[name].metadata.get("flag", f"--{dashed}")
        if by_name[name].default is True:
            words += [] if value else [f"--no-{dashed}"]
        elif value is None or value is False or value == {}:
            continue
        elif isinstance(value, Mapping):
            words += [f"{flag} {shlex.quote(f'{k}={v}')}" for k, v in value.items()]
        else:
            words += [flag, shlex.quote(str(value))]
    if "floor" not in options and options.get("test") is None:
        words += ["--floor", "0"]  # recorded before the kill-point floor existed: none
    return " ".join(words)

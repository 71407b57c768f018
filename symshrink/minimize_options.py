"""What `symshrink minimize` takes: its options, their values checked, and the part of them
that the journal's verdicts depend on."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from symshrink.baseline import BaselineKind
from symshrink.errors import UsageError
from symshrink.oracle import Judging
from symshrink.oracle.calibrate import DEFAULT_RATIO
from symshrink.repro.model import Repro
from symshrink.repro.render import canonical_key


@dataclass
class Options:
    """Everything `symshrink minimize` takes; defaults are the CLI's."""

    repro: Path
    out: Path | None = None
    work_dir: Path | None = None
    timeout: float = 600.0
    ratio: float = DEFAULT_RATIO
    baseline: BaselineKind = "static"
    threshold: float | None = None  # absolute mode: seconds instead of R x the control
    test: str | None = None
    jobs: int = 1
    resume: bool = False
    report_json: Path | None = None
    max_calls: int | None = None
    max_time: float | None = None
    torch_settings: dict[str, str] = field(default_factory=dict)
    calibration_runs: int = 3
    signature: bool = True
    margin: float | None = None  # None: from the calibration's spread
    confirm: int = Judging.confirm
    graph_first: bool = True  # the graph passes first, keeping the headroom (graph_first())
    progress: bool = True
    scheduler: str | None = None  # Dask: tcp://HOST:PORT or local:N; None: this machine


def check_values(opts: Options) -> None:
    """Option values that cannot judge anything, one line each (the CLI's own checks say
    the same earlier; a caller of the Python API gets them here)."""
    bad = [
        (opts.timeout > 0, "timeout must be > 0"),
        (opts.ratio > 1, "ratio must be > 1 (at 1x every candidate is its own twin)"),
        (opts.threshold is None or opts.threshold > 0, "threshold must be > 0"),
        (opts.jobs >= 1, "jobs must be >= 1"),
        (opts.margin is None or opts.margin >= 0, "margin must be >= 0"),
        (opts.confirm >= 0, "confirm must be >= 0"),
        (opts.max_calls is None or opts.max_calls >= 0, "max_calls must be >= 0"),
        (opts.max_time is None or opts.max_time >= 0, "max_time must be >= 0"),
        (opts.calibration_runs >= 1, "calibration_runs must be >= 1"),
    ]
    for ok, what in bad:
        if not ok:
            raise UsageError(what)


def judged_by(opts: Options, original: Repro) -> dict[str, Any]:
    """What the journal's verdicts depend on: the input and the rule that judged it."""
    rule: dict[str, Any] = (
        {"test": opts.test}
        if opts.test is not None
        else {
            "ratio": None if opts.threshold is not None else opts.ratio,
            "baseline": None if opts.threshold is not None else opts.baseline,
            "threshold": opts.threshold,
            "torch_settings": dict(opts.torch_settings),
            "signature": opts.signature,
            "margin": opts.margin,
            "confirm": opts.confirm,
        }
    )
    return {"input": canonical_key(original), **rule}

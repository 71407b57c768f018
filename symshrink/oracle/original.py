"""Calibrating a timing oracle on the original: where the line is drawn, and its first verdict.

In ratio mode the original's control is measured first (CALIBRATION_CONTROL_RUNS times:
their spread is the default margin), which sets the limit, R x its time (at least the
floor). Then the original runs k times, stopped at its kill point (the limit + the
margin), but for one run that goes on longer: it measures how far past its kill point the
original ends (its headroom), and its samples are the slippage guard's reference if the
others are stopped.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from symshrink.oracle import noise
from symshrink.oracle.base import TimingOracle
from symshrink.oracle.calibrate import Calibration, CalibrationError, calibrate
from symshrink.oracle.controls import ControlTime
from symshrink.verdict import Verdict

if TYPE_CHECKING:
    from symshrink.baseline import BaselineKind
    from symshrink.repro.candidate import Candidate

log = logging.getLogger(__name__)

CALIBRATION_CONTROL_RUNS = 5
"""Runs of the original's control at calibration (at least; k if more): their spread is
the default margin, so they are more than the k = 3 of the original's own runs."""
REFERENCE_FACTOR = 8.0
"""How much longer than its kill point an original stopped there runs, once: the slippage
guard's reference, and its headroom if it ends by then (capped by the timeout)."""


def calibrate_on(
    oracle: TimingOracle,
    original: Candidate,
    *,
    k: int,
    ratio: float,
    baseline: BaselineKind,
    threshold_s: float | None,
    floor_s: float = 0.0,
) -> tuple[Calibration, Verdict]:
    """The calibration on the `original` (`threshold_s`: an absolute limit, no control;
    else R x its control, at least `floor_s`), and the original's verdict, which its runs
    decide: k of them (k + 1 when k = 1), stopped at its kill point, but for the longer
    one."""
    clock = oracle.calibration.clock
    control_measures: tuple[float, ...] = ()
    control: ControlTime | None = None
    if threshold_s is None:
        runs = max(k, CALIBRATION_CONTROL_RUNS)
        control, _ = oracle.measured.measure(original, baseline, runs=runs, fresh=True)
        if control.error is not None:
            raise CalibrationError(f"its {baseline} control fails: {control.error}")
        control_measures = control.measures
        threshold_s = noise.limit(control.seconds, ratio, floor_s)
    else:
        floor_s = 0.0  # an absolute threshold is the seconds themselves
    # the margin comes from the control's spread: set the rule before the original runs
    oracle.calibration = Calibration(
        clock,
        (),
        threshold_s,
        ratio=None if not control_measures else ratio,
        baseline=baseline,
        baseline_measures=control_measures,
        floor_s=floor_s,
    )
    kill_at = threshold_s * (1 + oracle.margin)
    # The first of the k runs goes on longer: its vote is the same (still compiling at the
    # kill point = slow); if the others finish, it finishes with them. At least one run is
    # stopped at the kill point: with k = 1 the longer one is extra.
    until = min(REFERENCE_FACTOR * kill_at, oracle.timeout())
    done = oracle.runs(original.source, [until] + [kill_at] * max(k - 1, 1))
    runs_judged, reference = done, None
    if any(r.exit.reason != "exited" for r in done[1:]):
        runs_judged, reference = done[1:], done[0]
        log.info(
            "the original was stopped at its kill point (%.1fs %s): one run sampled "
            "up to %.0fs gives the slippage guard's reference",
            kill_at,
            clock,
            until,
        )
    oracle.calibration = calibrate(
        runs_judged,
        threshold_s=threshold_s,
        clock=clock,
        ratio=oracle.calibration.ratio,
        baseline=baseline,
        baseline_measures=control_measures,
        reference=reference,
        signature=oracle.judging.signature,
        top=oracle.judging.top,
        floor_s=floor_s,
    )
    # the original's runs are judged runs: its first verdict is known now
    seen = [r.seen_at(kill_at, clock) for r in done]  # the longer one, as if stopped
    return oracle.calibration, oracle.verdict(seen, kill_at, control)

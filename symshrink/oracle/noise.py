"""The rules against timing noise: pure functions of what runs measured.

A candidate is judged at its limit: R x its control, but no less than the floor (`limit`:
a shorter run is judged by its noise), or the absolute threshold. During the
reduction the bar is the limit x (1 + margin): a reduction stops at the edge of what counts
as slow, so without a margin its result is slow by a hair. A run is stopped `band` above
the bar; one that ends within `band` of it, either side, is too close to call, and more runs
decide: a candidate's close call is slow only when all of 1 + `reruns` say so
(`all_slow`), the original's runs and a result's re-verification by the majority.
`Judging` holds these knobs; `Outcome` is what the rules need of a run; `at` is the line a
run is judged at: the bar during the reduction, the limit at re-verification.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from symshrink.sandbox import Clock, Run


@dataclass(frozen=True)
class Judging:
    """How runs become verdicts.

    `timeout_s` caps every run's wall time (None: 3 x the kill point, at least 30 s more).
    `margin`: during the reduction a candidate counts as slow only at (1 + margin) x its
    limit, while `reverify` checks the result at the limit itself. A reduction stops at
    the edge of what counts as slow, so without a margin its result is slow by a hair and
    a re-run says no about half the time (benchmarks/noise.py measures this). None: from
    the spread of the original's control runs (`margin`), at least MIN_MARGIN.
    `band`: a first run that ends within this fraction of the bar, below or above,
    is too close to call: up to `reruns` more runs, the majority decides. A run still going
    at (1 + band) x the bar is slow by more than the noise, on its own.
    `confirm`: a slow verdict must be confirmed by this many more runs, all slow (0: the
    band decides; benchmarks/noise.py compares the two).
    `control_runs`: runs of each new control (their median counts).
    `slow_control_runs`: a slow verdict stands only against its control measured right
    before and this many times (their median), as re-verification measures it: a twin is a
    short run, and of the candidates at the edge those whose one twin run was lucky (short)
    would pass, to be walked back when re-verification measures the twin again.
    `stall_s`: on the CPU clock, a run that used under `sandbox.runner.STALL_SHARE` of a
    core in this many seconds of wall is stopped and counts as an error (a deadlocked child
    would otherwise hold its call until `timeout_s`, 600 s in the README's command). A
    compile never waits that long: the compile oracle's children compile no C++.
    """

    band: float = 0.1
    margin: float | None = None
    confirm: int = 0
    reruns: int = 2
    signature: bool = True
    min_ratio: float = 0.5
    top: int = 5
    timeout_s: float | None = None
    grace_s: float = 0.3
    errors_interesting: bool = False
    control_runs: int = 1
    slow_control_runs: int = 3
    stall_s: float | None = 60.0


MIN_MARGIN = 0.1


def limit(control_s: float, ratio: float, floor_s: float = 0.0) -> float:
    """Where a candidate whose control took `control_s` is judged, before the margin: R x
    its control, or the floor where R x its control is shorter (such a candidate must run
    at least `floor_s`). Never under R x the control: slow at its limit is slow at R."""
    return max(ratio * control_s, floor_s)


RATIO_SPREAD = math.sqrt(2)
"""How much more a ratio of two runs spreads than one run, each as noisy as the other."""


def margin(judging: Judging, spread: float, ratio: bool) -> float:
    """How far above its limit a candidate must be during the reduction: the margin asked
    for, else the spread of what a result is re-measured by, at least MIN_MARGIN.

    `spread` is one run's (`Calibration.spread`). Against an absolute threshold a result is
    re-measured by one run of its own; in ratio mode by one run over one of its twin, and
    that ratio spreads RATIO_SPREAD x one run (`benchmarks/fresh.py`: results of the
    64-symbol seed reduced at the spread of one run, 0.15-0.18 on a noisy machine, held R
    in 71 of 75 fresh runs, with 8-11 free symbols; at a margin of 0.35, in 60 of 60, with
    9-10). The spread is the original's twin's until the graph stage has shrunk the model;
    then its result's twin's (`CompileOracle.measure_edge`), which is what results are
    re-measured against, and spreads differently (`benchmarks/twin_spread.py`: 0.23-0.25
    against 0.09-0.19 side by side; in docs/benchmarks.md's seed runs, less as often as more).
    """
    if judging.margin is not None:
        return judging.margin
    return max(MIN_MARGIN, spread * (RATIO_SPREAD if ratio else 1.0))


@dataclass(frozen=True)
class Outcome:
    """What the rules need of one run: its seconds on the oracle's clock, whether it ended
    on its own (not stopped at its kill point), and whether it failed or hit the timeout."""

    seconds: float
    ended: bool = True
    failed: bool = False
    timed_out: bool = False

    @classmethod
    def of(cls, run: Run, clock: Clock) -> Outcome:
        return cls(
            seconds=run.measure(clock),
            ended=run.exit.reason == "exited",
            failed=run.error is not None,
            timed_out=run.exit.reason == "timeout",
        )


def median_run(runs: Sequence[Run], clock: Clock) -> Run:
    """The run with the median time: the representative of several."""
    ordered = sorted(runs, key=lambda r: r.measure(clock))
    return ordered[(len(ordered) - 1) // 2]


def bar(limit_s: float, margin: float) -> float:
    """Where a candidate counts as slow during the reduction: its limit + the margin."""
    return limit_s * (1 + margin)


def stop_at(at: float, band: float) -> float:
    """Where a run judged at `at` is stopped: `band` above it."""
    return at * (1 + band)


def failed(run: Outcome, at: float) -> bool:
    """An error, or the timeout before `at` (a hang says nothing of slowness)."""
    return run.failed or (run.timed_out and run.seconds < at)


def slow(run: Outcome, at: float) -> bool:
    """Stopped at `at`, or finished at or above it."""
    return not failed(run, at) and (not run.ended or run.seconds >= at)


def near(run: Outcome, at: float, band: float) -> bool:
    """Finished, but close enough to `at` (below or above) that noise could have
    decided."""
    return not run.failed and run.ended and abs(run.seconds - at) < at * band


def majority_slow(runs: Sequence[Outcome], at: float) -> bool:
    return 2 * sum(slow(r, at) for r in runs) > len(runs)


def all_slow(runs: Sequence[Outcome], at: float) -> bool:
    """Every run says slow: how a candidate's close call is decided (`another_run`'s
    `unanimous`)."""
    return bool(runs) and all(slow(r, at) for r in runs)


def another_run(
    runs: Sequence[Outcome], at: float, band: float, reruns: int, *, unanimous: bool = False
) -> bool:
    """Whether one more run is needed: the first was too close to call and the majority of
    1 + `reruns` runs is still open; `unanimous`: every run so far says slow (one that
    does not decides: a close call is slow only when all 1 + `reruns` runs say so)."""
    most = 1 + reruns
    if not runs or not near(runs[0], at, band) or len(runs) >= most:
        return False
    slow_runs = sum(slow(r, at) for r in runs)
    if unanimous:
        return slow_runs == len(runs)
    return 2 * max(slow_runs, len(runs) - slow_runs) <= most

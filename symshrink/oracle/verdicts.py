"""A candidate's runs made into its verdict: the majority decides, then the slippage guard.

A slow majority stands only if the candidate is slow for the original's reason: its hot
spots, beyond what its control spends, are the original's (`signature.compare`); else it
is 'slipped'.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from symshrink.oracle.calibrate import Calibration
from symshrink.oracle.controls import ControlTime
from symshrink.oracle.noise import Judging, Outcome, failed, median_run, slow
from symshrink.oracle.signature import Signature, compare, merge_counts, phase_like
from symshrink.sandbox import Clock, Run
from symshrink.verdict import Status, Verdict


def unjudged(why: str, judging: Judging) -> Verdict:
    """The verdict on a candidate that could not be run against a limit (its control
    fails, it does not parse): an error, interesting only if errors are."""
    return Verdict(status="error", interesting=judging.errors_interesting, detail=why)


def decide(
    runs: Sequence[Run],
    at: float,
    control: ControlTime | None,
    *,
    calibration: Calibration,
    judging: Judging,
    reference: Signature | None = None,
    unanimous: bool = False,
) -> Verdict:
    """Majority decision over the runs of one candidate (`unanimous`: slow only when every
    run that did not fail is), then the slippage guard (on what the candidate spends
    beyond its `control`, in ratio mode) against `reference`, else the original's hot
    spots in the phases the candidate's runs are in."""
    clock = calibration.clock
    make = _Maker(clock, judging, None if control is None else control.seconds)
    # where R x the control is under the floor, the candidate was judged at the floor
    floored = (
        calibration.ratio is not None
        and control is not None
        and calibration.floor_s > calibration.ratio * control.seconds
    )
    line = f"{at:.2f}s" + (" (the floor)" if floored else "")
    bad = [r for r in runs if failed(Outcome.of(r, clock), at)]
    ok = [r for r in runs if r not in bad]
    if len(bad) > len(ok):
        rep = bad[0]
        return make("error", rep, rep.error or f"timeout after {rep.exit.wall_s:.1f}s wall")
    slow_runs = [r for r in ok if slow(Outcome.of(r, clock), at)]
    fast = [r for r in ok if r not in slow_runs]
    votes = f" ({len(slow_runs)}/{len(ok)} runs slow)" if len(ok) > 1 else ""
    if (len(slow_runs) < len(ok)) if unanimous else (2 * len(slow_runs) <= len(ok)):
        rep = median_run(fast, clock)
        return make("fast", rep, f"finished in {make.seconds(rep)} < {line}{votes}")
    rep = median_run(slow_runs, clock)
    how = "stopped" if rep.exit.reason != "exited" else "finished"
    detail = f"{how} at {make.seconds(rep)} >= {line}{votes}"
    # CPU seconds per spot, of one run: comparable with the control's
    n = len(slow_runs)
    counts = {spot: s / n for spot, s in merge_counts(r.seconds() for r in slow_runs).items()}
    phase = Counter(r.slow_phase for r in slow_runs).most_common(1)[0][0]
    original = reference or calibration.like(rep, judging.top)
    if judging.signature and original is not None:
        # A run stopped at its kill point is in whatever phase the kill caught it (the
        # original may be in another then: with a margin, the kill comes later); only
        # runs that finished say which phase their time went to.
        finished = all(r.exit.reason == "exited" for r in slow_runs)
        times = merge_counts(r.phase_times for r in slow_runs)
        judged = phase_like(times, original.phases) if finished else None
        same, why = compare(
            original,
            counts,
            judged,
            min_ratio=judging.min_ratio,
            twin=None if control is None else control.spots,
        )
        if not same:
            return make("slipped", rep, f"{detail}; {why}", counts, phase)
    return make("slow", rep, detail, counts, phase)


class _Maker:
    """Verdicts on runs of one candidate, whose control took `baseline_s` (ratio mode)."""

    def __init__(self, clock: Clock, judging: Judging, baseline_s: float | None) -> None:
        self.clock = clock
        self.judging = judging
        self.baseline_s = baseline_s

    def seconds(self, run: Run) -> str:
        """`4.81s cpu`, with its ratio to the control in ratio mode."""
        measure = run.measure(self.clock)
        text = f"{measure:.2f}s {self.clock}"
        if self.baseline_s:
            text += f" ({measure / self.baseline_s:.1f}x its twin's {self.baseline_s:.2f}s)"
        return text

    def __call__(
        self,
        status: Status,
        rep: Run,
        detail: str,
        counts: dict[str, float] | None = None,
        phase: str | None = None,
    ) -> Verdict:
        judging, baseline_s = self.judging, self.baseline_s
        interesting = status == "slow" or (status == "error" and judging.errors_interesting)
        spots = counts if counts is not None else rep.spots()
        measure = rep.measure(self.clock)
        return Verdict(
            status=status,
            interesting=interesting,
            wall_s=rep.exit.wall_s,
            cpu_s=rep.exit.cpu_s,
            slow_phase=phase if phase is not None else rep.slow_phase,
            signature=Signature.from_counts(spots, top=judging.top).names,
            detail=detail,
            baseline_s=baseline_s,
            ratio=measure / baseline_s if baseline_s else None,
            stopped=rep.exit.reason != "exited",
        )

"""The default oracle: is the compile still slow, for the same reason?

A verdict is a ratio measured in the same run: each candidate's control (its static twin,
`symshrink.baseline`) is measured once per canonical form, and the candidate is killed once
it has used R x that time (x (1 + margin) during the reduction): still running then = slow.
An interesting candidate costs R x its twin, a few seconds, whatever the original costs.
`--threshold` keeps an absolute limit instead. Verdicts have hysteresis against timing
noise: the first run is stopped `band` above the limit, and only a run that ends within
`band` of the limit (either side) is run again, the majority of up to 1 + `reruns` runs
deciding. A slow verdict stands only against a control measured right before it: one
measured earlier (under another load, perhaps) is measured again, and the candidate
judged against that. With one job, a spare slot works beside the candidate's first run:
it measures the control (the first run stops where its time says, once known), then
makes the second run a close call needs, stopped if the first turns out clear. A slow
candidate whose hot spots are not the original's is 'slipped'. `reverify` re-runs a final
result, and its control, fresh.
"""

from __future__ import annotations

import itertools
import logging
import shutil
import tempfile
import threading
from collections import Counter, defaultdict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from symshrink.errors import ReproError
from symshrink.files import atomic_write
from symshrink.oracle.base import BaseOracle, Reverification, Timing
from symshrink.oracle.calibrate import DEFAULT_RATIO, Calibration, CalibrationError, calibrate
from symshrink.oracle.controls import ControlTime, ControlTimes
from symshrink.oracle.signature import Signature, compare, merge_counts, phase_like
from symshrink.sandbox import (
    Clock,
    ColdRunner,
    Job,
    Limits,
    Run,
    Runner,
    WarmPool,
    Workload,
    stopping,
)
from symshrink.verdict import Status, Verdict

if TYPE_CHECKING:
    from symshrink.baseline import BaselineKind, Control

log = logging.getLogger(__name__)


MIN_MARGIN = 0.1
CALIBRATION_TWIN_RUNS = 5
"""Runs of the original's control at calibration (at least; k if more): their spread is
the default margin, so they are more than the k = 3 of the original's own runs."""
KILL_PREFIX = "kill-"  # the folder of a first run's kill files, in the scratch directory
REFERENCE_FACTOR = 8.0
"""How much longer than its kill point an original stopped there runs, once: the slippage
guard's reference, and its headroom if it ends by then (capped by the timeout)."""


@dataclass(frozen=True)
class Judging:
    """How runs become verdicts.

    `timeout_s` caps every run's wall time (None: 3 x the kill point, at least 30 s more).
    `margin`: during the reduction a candidate counts as slow only at (1 + margin) x its
    limit, while `reverify` checks the result at the limit itself. A reduction stops at
    the edge of what counts as slow, so without a margin its result is slow by a hair and
    a re-run says no about half the time (benchmarks/noise.py measures this). None: the
    spread of the original's control runs (`Calibration.spread`), at least MIN_MARGIN.
    `band`: a first run that ends within this fraction of the threshold, below or above,
    is too close to call: up to `reruns` more runs, the majority decides. A run still going
    at (1 + band) x the threshold is slow by more than the noise, on its own.
    `confirm`: a slow verdict must be confirmed by this many more runs, all slow (0: the
    band decides; benchmarks/noise.py compares the two).
    `control_runs`: runs of each new control (their median counts).
    `stall_s`: on the CPU clock, a run that used under `runner.STALL_SHARE` of a core in
    this many seconds of wall is stopped and counts as an error (a deadlocked child would
    otherwise hold its call until `timeout_s`, 600 s in the README's command). A compile
    never waits that long: this oracle's children compile no C++ (`RETRACE_OPTIONS`).
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
    stall_s: float | None = 60.0


@dataclass(frozen=True)
class Limit:
    """Where one candidate is stopped: `seconds` (before the margin), from its `twin`
    (ratio mode); `fresh`: its control was measured right before, no other run since (or
    it has none)."""

    seconds: float
    twin: ControlTime | None = None
    fresh: bool = True

    @property
    def baseline_s(self) -> float | None:
        return None if self.twin is None else self.twin.seconds


class CompileOracle(BaseOracle):
    """Judges candidates against a `Calibration` of the original, running them on `runner`."""

    def __init__(
        self,
        calibration: Calibration,
        runner: Runner,
        *,
        workload: Workload | None = None,
        judging: Judging | None = None,
        controls: ControlTimes | None = None,
        scratch: Path | None = None,
        reference: Signature | None = None,
        jobs: int | None = None,
        beside: bool = False,
    ) -> None:
        """`reference`: a recorded signature to compare with instead of the calibration's
        profiles (a corpus entry's, whose original is not at hand). `controls`: the store
        of measured control times (journaled by minimize, so a resumed run reuses them).
        `jobs`: candidates at once (None: the runner's slots). `beside`: a spare slot works
        beside each candidate's first run (`_opening`; one job and a
        local runner of two slots: the runner's processes must see the scratch files)."""
        jobs = runner.slots if jobs is None else jobs
        super().__init__(jobs=jobs)
        self.beside = beside and jobs == 1 and runner.slots >= 2
        self.calibration = calibration
        self.reference = reference
        self.runner = runner
        self.workload = workload or Workload()
        self.judging = judging or Judging()
        self.controls = controls if controls is not None else ControlTimes()
        self._own_scratch = scratch is None
        self.scratch = scratch or Path(tempfile.mkdtemp(prefix="symshrink-oracle-"))
        self._control_locks: defaultdict[str, threading.Lock] = defaultdict(threading.Lock)
        self._run_ids = itertools.count(1)
        self._runs_started = 0  # the oracle's clock for how fresh a control is
        self._measured_at: dict[str, int] = {}  # control key -> runs started when measured
        self._last_control: tuple[str, str, Control] | tuple[()] = ()
        self._original: tuple[str, Verdict] | None = None  # its verdict from calibration

    @classmethod
    def create(
        cls,
        original_source: str,
        *,
        k: int = 3,
        ratio: float = DEFAULT_RATIO,
        baseline: BaselineKind = "static",
        threshold_s: float | None = None,
        clock: Clock = "cpu",
        warm: bool = True,
        jobs: int = 1,
        preload: tuple[str, ...] | None = None,
        workload: Workload | None = None,
        judging: Judging | None = None,
        calibration_path: Path | None = None,
        controls_path: Path | None = None,
        scratch: Path | None = None,
        runner: Runner | None = None,
    ) -> CompileOracle:
        """Start the runner and calibrate on the original (or load a saved calibration).

        Ratio mode (no `threshold_s`): the original's control is measured k times, then the
        original is run k times, each stopped at R x its control (x (1 + margin)); it is
        never waited for. A given `runner` (a Dask cluster, say) replaces the local one
        that `warm`, `jobs` and `preload` describe; the oracle closes it. With one job the
        local runner has a second slot, which works beside each candidate's first run.
        """
        judging = judging or Judging()
        beside = runner is None and jobs == 1 and threshold_s is None
        if runner is None:
            slots = jobs + 1 if beside else jobs
            runner = (
                WarmPool(slots=slots, preload=preload, root=scratch)
                if warm
                else ColdRunner(slots=slots)
            )
        placeholder = Calibration(clock, (), threshold_s or 0.0)
        controls = ControlTimes(controls_path)
        oracle = cls(
            placeholder,
            runner,
            workload=workload,
            judging=judging,
            controls=controls,
            scratch=scratch,
            jobs=jobs,
            beside=beside,
        )
        if calibration_path is not None and calibration_path.exists():
            oracle.calibration = Calibration.load(calibration_path)
            log.info("loaded calibration from %s", calibration_path)
            return oracle
        try:
            oracle.calibration = oracle._calibrate(
                original_source, k=k, ratio=ratio, baseline=baseline, threshold_s=threshold_s
            )
        except BaseException:
            oracle.close()
            raise
        if calibration_path is not None:
            oracle.calibration.save(calibration_path)
        return oracle

    def _calibrate(
        self,
        source: str,
        *,
        k: int,
        ratio: float,
        baseline: BaselineKind,
        threshold_s: float | None,
    ) -> Calibration:
        """The original's control CALIBRATION_TWIN_RUNS times (ratio mode), then the
        original k times (k + 1 when k = 1): stopped at its kill point, but for one run
        that goes on longer, for the guard's reference and the headroom."""
        clock = self.calibration.clock
        baseline_measures: tuple[float, ...] = ()
        twin: ControlTime | None = None
        if threshold_s is None:
            measured, _ = self._measure_control(
                source, baseline, runs=max(k, CALIBRATION_TWIN_RUNS), fresh=True
            )
            twin = measured
            if measured.error is not None:
                raise CalibrationError(f"its {baseline} control fails: {measured.error}")
            baseline_measures = measured.measures
            threshold_s = ratio * measured.seconds
        # the margin comes from the control's spread: set the rule before the original runs
        self.calibration = Calibration(
            clock,
            (),
            threshold_s,
            ratio=None if not baseline_measures else ratio,
            baseline=baseline,
            baseline_measures=baseline_measures,
        )
        kill_at = threshold_s * (1 + self.margin)
        # The first of the k runs goes on longer: its vote is the same (still compiling
        # at the kill point = slow); it measures how far past its kill point the original
        # ends (its headroom: minimizing.graph_first), and its samples are the guard's
        # reference if the others are stopped. If they finish, it finishes with them.
        # At least one run is stopped at the kill point: with k = 1 the longer one is extra.
        until = min(REFERENCE_FACTOR * kill_at, self._timeout())
        done = self._runs(source, [until] + [kill_at] * max(k - 1, 1))
        runs, reference = done, None
        if any(r.exit.reason != "exited" for r in done[1:]):
            runs, reference = done[1:], done[0]
            log.info(
                "the original was stopped at its kill point (%.1fs %s): one run sampled "
                "up to %.0fs gives the slippage guard's reference",
                kill_at,
                clock,
                until,
            )
        calibration = calibrate(
            runs,
            threshold_s=threshold_s,
            clock=clock,
            ratio=self.calibration.ratio,
            baseline=baseline,
            baseline_measures=baseline_measures,
            reference=reference,
            signature=self.judging.signature,
            top=self.judging.top,
        )
        # the original's runs are judged runs: its first verdict is known now
        self.calibration = calibration
        seen = [r.seen_at(kill_at, clock) for r in done]  # the longer one, as if stopped
        self._original = (source, self.verdict(seen, kill_at, twin))
        return calibration

    @property
    def threshold_s(self) -> float:
        """The original's limit before the margin (R x its control in ratio mode)."""
        return self.calibration.threshold_s

    @property
    def margin(self) -> float:
        """How far above its limit a candidate must be during the reduction."""
        if self.judging.margin is not None:
            return self.judging.margin
        return max(MIN_MARGIN, self.calibration.spread)

    def _timeout(self) -> float:
        if self.judging.timeout_s is not None:
            return self.judging.timeout_s
        kill_at = self.threshold_s * (1 + self.margin)
        return max(3 * kill_at, kill_at + 30.0)

    def run(
        self,
        source: str,
        *,
        kill_at: float | None,
        timeout_s: float | None = None,
        mode: str | None = None,
        kill_file: Path | None = None,
    ) -> Run:
        """One child run of `source`, stopped at `kill_at` seconds on the oracle's clock
        (or at the point written into `kill_file` later); `mode` overrides the retrace mode
        (a control's)."""
        workload = self.workload
        if mode is not None:
            workload = replace(workload, retrace={**workload.retrace, "mode": mode})
        self._runs_started = next(self._run_ids)  # threads: count() does not lose one
        job = Job.create(self.scratch, source, workload)
        limits = Limits(
            timeout_s=timeout_s or self._timeout(),
            kill_at=kill_at,
            clock=self.calibration.clock,
            grace_s=self.judging.grace_s,
            kill_file=None if kill_file is None else str(kill_file),
            stall_s=self.judging.stall_s if self.calibration.clock == "cpu" else None,
        )
        try:
            run = self.runner.run(job, limits)
        finally:
            job.remove()
        if not run.exit.clean:
            log.error("processes of a candidate survived SIGKILL (see the warning above)")
        return run

    def _runs(
        self, source: str, kill_ats: Sequence[float | None], mode: str | None = None
    ) -> list[Run]:
        """Runs of one script, one per kill point (k of a control, of the original, of a
        result to re-verify), on every slot of the runner: side by side, as a candidate
        runs beside its control."""

        def run(at: float | None) -> Run:
            return self.run(source, kill_at=at, mode=mode)

        return self._at_once(run, kill_ats, width=self.runner.slots)

    # -- controls ----------------------------------------------------------------------

    def _measure_control(
        self, source: str, kind: BaselineKind, *, runs: int, fresh: bool = False
    ) -> tuple[ControlTime, bool]:
        """The control's time, from the store or measured (`runs` runs) and stored, and
        whether it was measured right before (no run started since).

        `fresh` measures again whatever the store holds (calibration, re-verification)."""
        ctrl = self._control(source, kind)
        # One measurement per key; other keys are measured and looked up meanwhile (with
        # -j 2 one slot confirms a slow candidate against its twin while the other runs).
        with self._control_locks[ctrl.key]:
            known = None if fresh else self.controls.get(ctrl.key)
            if known is not None:
                at = self._measured_at.get(ctrl.key)
                return known, at == self._runs_started
            done = self._runs(ctrl.source, [None] * runs, mode=ctrl.mode)
            failed = next((r for r in done if r.error or r.exit.reason != "exited"), None)
            if failed is not None:
                why = failed.error or f"still running after {failed.exit.wall_s:.0f}s wall"
                measured = ControlTime((), why)
            else:
                clock = self.calibration.clock
                spots = _median_run(done, clock).seconds()
                measured = ControlTime(
                    tuple(r.measure(clock) for r in done),
                    spots={spot: round(s, 3) for spot, s in spots.items()},
                )
            if not stopping():  # an interrupt killed these runs: they measured nothing
                self.controls.put(ctrl.key, measured)
                self._measured_at[ctrl.key] = self._runs_started
            return measured, True

    def _control(self, source: str, kind: BaselineKind) -> Control:
        """`source`'s control, built once per source (a verdict asks for it more than once)."""
        from symshrink.baseline import control  # sympy: `import symshrink.oracle` stays cheap

        last = self._last_control
        if last and last[:2] == (source, kind):
            return last[2]
        ctrl = control(source, kind)
        self._last_control = (source, kind, ctrl)
        return ctrl

    def limit(self, source: str, *, fresh: int = 0) -> Limit | str:
        """Where `source` is stopped (before the margin), or why it cannot be judged.

        `fresh`: measure the control again, this many runs, instead of reusing it."""
        cal = self.calibration
        if cal.ratio is None:
            return Limit(cal.threshold_s)
        try:
            runs = fresh or self.judging.control_runs
            measured, recent = self._measure_control(
                source, cal.baseline, runs=runs, fresh=bool(fresh)
            )
        except ReproError as e:
            return f"the candidate does not parse: {e}"
        if measured.error is not None:
            return f"its {cal.baseline} control fails: {measured.error}"
        return Limit(cal.ratio * measured.seconds, measured, recent)

    # -- verdicts ----------------------------------------------------------------------

    def _judge(self, source: str) -> Verdict:
        if self._original is not None and source == self._original[0]:
            return self._original[1]  # the calibration's runs judged it
        limit, made = self._opening(source)
        if isinstance(limit, str):
            return self._unjudged(limit)
        threshold = self._threshold(limit)
        runs = self._decide(source, threshold, made)
        if self._majority_slow(runs, threshold) and not limit.fresh:
            # Against its control measured now: one measured under another load would
            # move the limit by as much as that load moves the candidate.
            stopped_at = self._stop_at(threshold)
            limit = self.limit(source, fresh=self.judging.control_runs)
            if isinstance(limit, str):
                return self._unjudged(limit)
            threshold = self._threshold(limit)
            clear = len(runs) == 1 and runs[0].exit.reason == "threshold"
            if not (clear and stopped_at >= self._stop_at(threshold)):
                runs = self._decide(source, threshold)
        if self._majority_slow(runs, threshold):
            for _ in range(self.judging.confirm):
                run = self.run(source, kill_at=threshold)
                if not self._slow(run, threshold):  # not confirmed: the fast run says
                    return self.verdict([run], threshold, limit.twin)
                runs.append(run)
        return self.verdict(runs, threshold, limit.twin)

    def _opening(self, source: str) -> tuple[Limit | str, list[Run]]:
        """`source`'s limit and, with a spare slot, its first runs.

        The first run starts at once, with no kill point. The spare slot measures the
        control, which sets the kill point (a control known already is measured again:
        on a spare core that costs no wait, and the verdict needs no stale-control check),
        then starts a second run: the one the band asks for if the first ends too close
        to call. Otherwise the second is stopped when the first ends. Both cores are used,
        and a close call costs one run's time instead of two."""
        if not self.beside or self.calibration.ratio is None:
            return self.limit(source), []
        files = Path(tempfile.mkdtemp(prefix=KILL_PREFIX, dir=self.scratch))
        first_at, second_at = files / "first", files / "second"
        try:
            with ThreadPoolExecutor(max_workers=2, thread_name_prefix="beside") as ex:
                first = ex.submit(self.run, source, kill_at=None, kill_file=first_at)
                point = 0.0  # no limit (an error, an interrupt): stop the run at once
                try:  # the control measured now, beside the run: under the same load
                    limit = self.limit(source, fresh=self.judging.control_runs)
                    if not isinstance(limit, str):
                        point = self._stop_at(self._threshold(limit))
                finally:
                    atomic_write(first_at, repr(point))
                if isinstance(limit, str) or not self.judging.reruns:
                    return limit, [] if isinstance(limit, str) else [first.result()]
                atomic_write(second_at, repr(point))
                second = ex.submit(self.run, source, kill_at=point, kill_file=second_at)
                needed = False
                try:
                    run = first.result()
                    needed = self._near(run, self._threshold(limit))
                finally:
                    if not needed:
                        atomic_write(second_at, "0")
                return limit, [run, second.result()] if needed else [run]
        finally:
            shutil.rmtree(files, ignore_errors=True)

    def _decide(self, source: str, threshold: float, made: Sequence[Run] = ()) -> list[Run]:
        """Runs of `source` (`made` already made), each stopped `band` above the
        threshold: one, unless it ends within the band, then more until a majority of
        1 + `reruns` agrees."""
        kill_at = self._stop_at(threshold)
        runs = list(made) or [self.run(source, kill_at=kill_at)]
        if not self._near(runs[0], threshold):
            return runs
        most = 1 + self.judging.reruns
        while len(runs) < most:
            slow = sum(self._slow(r, threshold) for r in runs)
            if 2 * max(slow, len(runs) - slow) > most:
                break
            runs.append(self.run(source, kill_at=kill_at))
        return runs

    def _threshold(self, limit: Limit) -> float:
        """Where a candidate counts as slow during the reduction: its limit + the margin."""
        return limit.seconds * (1 + self.margin)

    def _stop_at(self, threshold: float) -> float:
        """Where a run judged at `threshold` is stopped: `band` above it."""
        return threshold * (1 + self.judging.band)

    def _majority_slow(self, runs: Sequence[Run], threshold: float) -> bool:
        return 2 * sum(self._slow(r, threshold) for r in runs) > len(runs)

    def timing(self) -> Timing:
        return Timing(self.calibration, self.threshold_s, self.margin)

    def scaled(self, factor: float) -> CompileOracle:
        """This oracle with every limit `factor` times higher (R, or the threshold), and
        its margin: the same runner, twins and scratch. Closing them stays this one's job."""
        cal = self.calibration
        ratio = None if cal.ratio is None else cal.ratio * factor
        return CompileOracle(
            replace(cal, ratio=ratio, threshold_s=cal.threshold_s * factor),
            self.runner,
            workload=self.workload,
            judging=replace(self.judging, margin=self.margin),
            controls=self.controls,
            scratch=self.scratch,
            reference=self.reference,
            jobs=self.jobs,
            beside=self.beside,
        )

    def not_interesting(self, verdict: Verdict) -> str:
        detail = f": {verdict.detail}" if verdict.detail else ""
        cal = self.calibration
        rule = (
            f"slow = {cal.ratio:g}x its {cal.baseline} control"
            if cal.ratio is not None
            else f"threshold {self.threshold_s:.1f} s"
        )
        return f"the original is not slow ({rule}): {verdict.status}{detail}"

    def _unjudged(self, why: str) -> Verdict:
        """The verdict on a candidate that could not be run against a limit (its control
        fails, it does not parse): an error, interesting only if errors are."""
        return Verdict(status="error", interesting=self.judging.errors_interesting, detail=why)

    def reverify(self, source: str, k: int = 3) -> Reverification:
        """Re-run `source` k times at its limit itself (no margin, no band), uncached.

        A reduction drives candidates to the edge, so one lucky kill can be accepted; the
        majority of k fresh runs decides whether the result really is slow. In ratio mode
        its control is measured afresh (k runs) first, so both are measured now.
        """
        limit = self.limit(source, fresh=k)
        if isinstance(limit, str):
            return Reverification((self._unjudged(limit),) * k)
        runs = self._runs(source, [limit.seconds] * k)
        verdicts = tuple(self.verdict([run], limit.seconds, limit.twin) for run in runs)
        return Reverification(verdicts, limit.baseline_s)

    def _near(self, run: Run, threshold: float) -> bool:
        """Finished, but close enough to the threshold (below or above) that noise could
        have decided."""
        measure = run.measure(self.calibration.clock)
        return (
            run.error is None
            and run.exit.reason == "exited"
            and abs(measure - threshold) < threshold * self.judging.band
        )

    def _slow(self, run: Run, threshold: float) -> bool:
        """Stopped at the threshold, or finished at or above it."""
        if self._failed(run, threshold):
            return False
        return run.exit.reason != "exited" or run.measure(self.calibration.clock) >= threshold

    def _failed(self, run: Run, threshold: float) -> bool:
        hung = run.exit.reason == "timeout" and run.measure(self.calibration.clock) < threshold
        return run.error is not None or hung

    def verdict(
        self, runs: Sequence[Run], threshold: float, twin: ControlTime | None = None
    ) -> Verdict:
        """Majority decision over the runs of one candidate, then the slippage guard (on
        what the candidate spends beyond its `twin`, in ratio mode)."""
        clock = self.calibration.clock
        baseline_s = None if twin is None else twin.seconds
        failed = [r for r in runs if self._failed(r, threshold)]
        ok = [r for r in runs if not self._failed(r, threshold)]
        if len(failed) > len(ok):
            rep = failed[0]
            detail = rep.error or f"timeout after {rep.exit.wall_s:.1f}s wall"
            return self._make("error", rep, detail, baseline_s)
        slow = [r for r in ok if self._slow(r, threshold)]
        fast = [r for r in ok if r not in slow]
        votes = f" ({len(slow)}/{len(ok)} runs slow)" if len(ok) > 1 else ""
        if 2 * len(slow) <= len(ok):
            rep = _median_run(fast, clock)
            detail = f"finished in {self._seconds(rep, baseline_s)} < {threshold:.2f}s{votes}"
            return self._make("fast", rep, detail, baseline_s)
        rep = _median_run(slow, clock)
        how = "stopped" if rep.exit.reason != "exited" else "finished"
        detail = f"{how} at {self._seconds(rep, baseline_s)} >= {threshold:.2f}s{votes}"
        # CPU seconds per spot, of one run: comparable with the twin's
        counts = {
            spot: s / len(slow) for spot, s in merge_counts(r.seconds() for r in slow).items()
        }
        phase = Counter(r.slow_phase for r in slow).most_common(1)[0][0]
        original = self.reference or self.calibration.like(rep, self.judging.top)
        if self.judging.signature and original is not None:
            # A run stopped at the threshold is in whatever phase the kill caught it (the
            # original may be in another then: with a margin, the kill comes later); only
            # runs that finished say which phase their time went to.
            finished = all(r.exit.reason == "exited" for r in slow)
            times = merge_counts(r.phase_times for r in slow)
            judged = phase_like(times, original.phases) if finished else None
            same, why = compare(
                original,
                counts,
                judged,
                min_ratio=self.judging.min_ratio,
                twin=None if twin is None else twin.spots,
            )
            if not same:
                return self._make("slipped", rep, f"{detail}; {why}", baseline_s, counts, phase)
        return self._make("slow", rep, detail, baseline_s, counts, phase)

    def _seconds(self, run: Run, baseline_s: float | None) -> str:
        """`4.81s cpu`, with its ratio to the control in ratio mode."""
        measure = run.measure(self.calibration.clock)
        text = f"{measure:.2f}s {self.calibration.clock}"
        if baseline_s:
            text += f" ({measure / baseline_s:.1f}x its twin's {baseline_s:.2f}s)"
        return text

    def _make(
        self,
        status: Status,
        rep: Run,
        detail: str,
        baseline_s: float | None,
        counts: dict[str, float] | None = None,
        phase: str | None = None,
    ) -> Verdict:
        interesting = status == "slow" or (status == "error" and self.judging.errors_interesting)
        spots = counts if counts is not None else rep.spots()
        sig = Signature.from_counts(spots, top=self.judging.top)
        measure = rep.measure(self.calibration.clock)
        return Verdict(
            status=status,
            interesting=interesting,
            wall_s=rep.exit.wall_s,
            cpu_s=rep.exit.cpu_s,
            slow_phase=phase if phase is not None else rep.slow_phase,
            signature=sig.names,
            detail=detail,
            baseline_s=baseline_s,
            ratio=measure / baseline_s if baseline_s else None,
            stopped=rep.exit.reason != "exited",
        )

    def close(self) -> None:
        self.runner.close()
        if self._own_scratch:
            shutil.rmtree(self.scratch, ignore_errors=True)


def _median_run(runs: list[Run], clock: Clock) -> Run:
    """The run with the median time: the representative of several."""
    ordered = sorted(runs, key=lambda r: r.measure(clock))
    return ordered[(len(ordered) - 1) // 2]

"""The default oracle: is the compile still slow, for the same reason?

A verdict is a ratio measured in the same run: each candidate's control (its static twin,
`symshrink.baseline`) is measured once per canonical form, and the candidate is killed once
it has used R x that time, or the floor where that is longer (`noise.limit`), x (1 + margin)
during the reduction: still running then = slow, so an interesting candidate costs R x its
control whatever the original costs. `--threshold` keeps an absolute limit instead. This
module holds the oracle's state and its primitives (a run, a limit, a verdict); `original`
calibrates it, `deciding` runs a candidate as often as the noise rules (`noise`) ask,
`verdicts` makes the runs a verdict (the slippage guard: 'slipped' when the hot spots are
not the original's), `controls` measures the controls. `reverify` re-runs a final result,
and its control, fresh.
"""

from __future__ import annotations

import itertools
import logging
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from symshrink.oracle import deciding, noise
from symshrink.oracle.base import BaseOracle, Reverification, Timing
from symshrink.oracle.calibrate import DEFAULT_RATIO, Calibration
from symshrink.oracle.controls import Controls, ControlTime, ControlTimes, Limit, NoLimit
from symshrink.oracle.noise import Judging
from symshrink.oracle.original import calibrate_on
from symshrink.oracle.signature import Signature
from symshrink.oracle.verdicts import decide, unjudged
from symshrink.sandbox import (
    Clock,
    ColdRunner,
    Job,
    Limits,
    Run,
    Runner,
    WarmPool,
    Workload,
    run_job,
    stopping,
)
from symshrink.verdict import Verdict

if TYPE_CHECKING:
    from symshrink.baseline import BaselineKind
    from symshrink.repro.candidate import Candidate
    from symshrink.repro.model import Repro

log = logging.getLogger(__name__)

EDGE_RUNS = 10
"""Runs of the twin `measure_edge` takes the margin from: 2 s of a 0.2 s twin, whose
spread over 10 runs moves two thirds as much as over calibration's 5 (a standard
deviation's relative error goes as 1 / sqrt(2 (n - 1)))."""


class CompileOracle(BaseOracle):
    """Judges candidates against a `Calibration` of the original, running them on `runner`."""

    symmetric = True  # a compile sees a symbol only through the model, never by its name

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
        calibration_path: Path | None = None,
    ) -> None:
        """`reference`: a recorded signature to compare with instead of the calibration's
        profiles (a corpus entry's, whose original is not at hand). `controls`: the store
        of measured control times (journaled by minimize, so a resumed run reuses them).
        `jobs`: candidates at once (None: the runner's slots). `beside`: a spare slot works
        beside each candidate's first run (`deciding`; one job, two slots or more).
        `calibration_path`: where the calibration is saved again when `measure_edge` adds
        to it."""
        jobs = runner.slots if jobs is None else jobs
        super().__init__(jobs=jobs)
        self.beside = beside and jobs == 1 and runner.slots >= 2
        self.calibration = calibration
        self.calibration_path = calibration_path
        self.reference = reference
        self.runner = runner
        self.workload = workload or Workload()
        self.judging = judging or Judging()
        self.controls = controls if controls is not None else ControlTimes()
        self._own_scratch = scratch is None
        self.scratch = scratch or Path(tempfile.mkdtemp(prefix="symshrink-oracle-"))
        self._run_ids = itertools.count(1)
        self._runs_started = 0  # the oracle's clock for how fresh a control is
        self.measured = Controls(
            self.controls, self.runs, calibration.clock, lambda: self._runs_started
        )
        self._original: tuple[str, Verdict] | None = None  # its key and calibration verdict

    @classmethod
    def create(
        cls,
        original: Candidate,
        *,
        k: int = 3,
        ratio: float = DEFAULT_RATIO,
        baseline: BaselineKind = "static",
        threshold_s: float | None = None,
        floor_s: float = 0.0,
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
        """Start the runner and calibrate on the original (`original.calibrate_on`: it is
        never waited for), or load a saved calibration. `floor_s`: in ratio mode, the least
        a candidate must run to be slow (`noise.limit`). A given `runner` (a Dask cluster,
        say) replaces the local one that `warm`, `jobs` and `preload` describe; the oracle
        closes it. With one job a second slot works beside each candidate's first run: the
        local runner's, or a given one's that `shares_scratch` (a Dask cluster here)."""
        judging = judging or Judging()
        beside = jobs == 1 and threshold_s is None and (runner is None or runner.shares_scratch)
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
            calibration_path=calibration_path,
        )
        if calibration_path is not None and calibration_path.exists():
            oracle.calibration = Calibration.load(calibration_path)
            log.info("loaded calibration from %s", calibration_path)
            return oracle
        try:
            oracle.calibration, verdict = calibrate_on(
                oracle,
                original,
                k=k,
                ratio=ratio,
                baseline=baseline,
                threshold_s=threshold_s,
                floor_s=floor_s,
            )
        except BaseException:
            oracle.close()
            raise
        oracle._original = (original.key, verdict)  # its runs judged it
        if calibration_path is not None:
            oracle.calibration.save(calibration_path)
        return oracle

    @property
    def threshold_s(self) -> float:
        """The original's limit before the margin (R x its control in ratio mode)."""
        return self.calibration.threshold_s

    @property
    def margin(self) -> float:
        """How far above its limit a candidate must be during the reduction."""
        cal = self.calibration
        return noise.margin(self.judging, cal.spread, ratio=cal.ratio is not None)

    def measure_edge(self, model: Repro, runs: int = EDGE_RUNS) -> None:
        """Take the margin from `model`'s control from now on: the model the reduction at R
        starts from, once the graph stage has shrunk the original (`Calibration.spread`).

        Measured once per run: the runs are saved with the calibration, so a resumed run
        judges at the same margin. Nothing to measure against an absolute threshold, with a
        margin asked for, or where the control fails (the original's spread stays)."""
        cal = self.calibration
        if cal.ratio is None or self.judging.margin is not None or cal.edge_measures:
            return
        from symshrink.repro.candidate import Candidate  # sympy: the oracle imports stay cheap

        measured, _ = self.measured.measure(
            Candidate.of(model), cal.baseline, runs=runs, fresh=True
        )
        if measured.error is not None or stopping():
            return
        before = self.margin
        self.calibration = replace(cal, edge_measures=measured.measures)
        if self.calibration_path is not None:
            self.calibration.save(self.calibration_path)
        log.info(
            "margin %.3f (was %.3f): from the graph stage's result's twin, %d runs, median %.2f s",
            self.margin,
            before,
            runs,
            measured.seconds,
        )

    def timeout(self) -> float:
        """Every run's cap on wall time."""
        kill_at = noise.bar(self.threshold_s, self.margin)
        return self.judging.timeout_s or max(3 * kill_at, kill_at + 30.0)

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
            timeout_s=timeout_s or self.timeout(),
            kill_at=kill_at,
            clock=self.calibration.clock,
            grace_s=self.judging.grace_s,
            kill_file=None if kill_file is None else str(kill_file),
            stall_s=self.judging.stall_s if self.calibration.clock == "cpu" else None,
        )
        try:
            run = run_job(self.runner, job, limits)
        finally:
            job.remove()
        if not run.exit.clean:
            log.error("processes of a candidate survived SIGKILL (see the warning above)")
        return run

    def runs(
        self, source: str, kill_ats: Sequence[float | None], mode: str | None = None
    ) -> list[Run]:
        """Runs of one script, one per kill point (k of a control, of the original, of a
        result to re-verify), on every slot of the runner: side by side, as a candidate
        runs beside its control."""

        def run(at: float | None) -> Run:
            return self.run(source, kill_at=at, mode=mode)

        return self._at_once(run, kill_ats, width=self.runner.slots)

    def limit(self, candidate: Candidate, *, fresh: int = 0) -> Limit:
        """Where `candidate` is stopped (before the margin); `NoLimit` says why it cannot be
        judged. `fresh`: measure the control again, this many runs, instead of reusing it."""
        cal = self.calibration
        if cal.ratio is None:
            return Limit(cal.threshold_s)
        runs = fresh or self.judging.control_runs
        measured, recent = self.measured.measure(
            candidate, cal.baseline, runs=runs, fresh=bool(fresh)
        )
        if measured.error is not None:
            raise NoLimit(f"its {cal.baseline} control fails: {measured.error}")
        return Limit(cal.limit(measured.seconds), measured, recent)

    def _judge(self, candidate: Candidate) -> Verdict:
        if self._original is not None and candidate.key == self._original[0]:
            return self._original[1]  # the calibration's runs judged it
        return deciding.judge(self, candidate)

    def timing(self) -> Timing:
        return Timing(self.calibration, self.threshold_s, self.margin)

    def scaled(self, factor: float) -> CompileOracle:
        """This oracle with every limit `factor` times higher (R and the floor, or the
        threshold), and its margin: the same runner, twins and scratch, this one's to close."""
        cal = self.calibration
        ratio = None if cal.ratio is None else cal.ratio * factor
        higher = replace(
            cal, ratio=ratio, threshold_s=cal.threshold_s * factor, floor_s=cal.floor_s * factor
        )
        return CompileOracle(
            higher,
            self.runner,
            workload=self.workload,
            judging=replace(self.judging, margin=self.margin),
            controls=self.controls,
            scratch=self.scratch,
            reference=self.reference,
            jobs=self.jobs,
            beside=self.beside,
        )

    def refuses(self, repro: Repro) -> bool:
        return self.calibration.refuses(repro)

    def not_interesting(self, verdict: Verdict) -> str:
        detail = f": {verdict.detail}" if verdict.detail else ""
        rule = self.calibration.rule()
        return f"the original is not slow ({rule}): {verdict.status}{detail}"

    def reverify(self, candidate: Candidate, k: int = 3) -> Reverification:
        """Re-run `candidate` k times at its limit (no margin, band or floor), uncached.

        A reduction drives candidates to the edge, so one lucky kill can be accepted; the
        majority of k fresh runs decides whether the result really is slow. In ratio mode
        its control is measured afresh (k runs) first: the limit is R x that control. The
        floor (CPU seconds, which the load moves) keeps the reduction off short runs only.
        """
        try:
            limit = self.limit(candidate, fresh=k)
        except NoLimit as e:
            return Reverification((unjudged(str(e), self.judging),) * k)
        control = limit.control
        at = limit.seconds if control is None else self.calibration.limit(control.seconds, False)
        runs = self.runs(candidate.source, [at] * k)
        verdicts = tuple(self.verdict([run], at, control) for run in runs)
        return Reverification(verdicts, limit.baseline_s)

    def verdict(
        self,
        runs: Sequence[Run],
        at: float,
        control: ControlTime | None = None,
        unanimous: bool = False,
    ) -> Verdict:
        """The runs' decision (`verdicts.decide`), then the slippage guard."""
        cal, judging, ref = self.calibration, self.judging, self.reference
        return decide(
            runs, at, control, calibration=cal, judging=judging, reference=ref, unanimous=unanimous
        )

    def close(self) -> None:
        self.runner.close()
        if self._own_scratch:
            shutil.rmtree(self.scratch, ignore_errors=True)

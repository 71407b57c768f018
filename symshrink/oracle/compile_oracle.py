"""The default oracle: is the compile still slow, for the same reason?

Each call runs the candidate in a child (warm-forked or cold) that is killed once it has
used the threshold: an interesting candidate costs the threshold, not its whole compile. A
run that finishes within `band` below the threshold is re-run `reruns` times and the
majority decides (hysteresis against timing noise). A slow candidate whose hot spots are not
the original's is 'slipped'. During a reduction the bar is (1 + margin) × the threshold;
`reverify` re-runs a final result k times at the threshold itself.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from symshrink.oracle.base import BaseOracle
from symshrink.oracle.cache import Cache
from symshrink.oracle.calibrate import DEFAULT_FRACTION, Calibration, calibrate
from symshrink.oracle.pool import WarmPool
from symshrink.oracle.profile import Clock
from symshrink.oracle.runner import ColdRunner, Job, Limits, Run, Runner, Workload
from symshrink.oracle.signature import Signature, compare, merge_counts
from symshrink.oracle.verdict import Status, Verdict

log = logging.getLogger(__name__)


MIN_MARGIN = 0.1


@dataclass(frozen=True)
class Judging:
    """How runs become verdicts.

    `timeout_s` caps every run's wall time; None derives it from the original:
    max(3 × its median time, threshold + 30 s), generous because CPU time is what is
    compared and a busy machine stretches wall time.

    `margin`: during the reduction a candidate counts as slow only at (1 + margin) × the
    threshold, while `reverify` checks the result at the threshold itself. A reduction
    stops at the edge of what counts as slow, so without a margin its result is slow by a
    hair and a re-run says no about half the time (benchmarks/noise.py measures this).
    None: the relative spread of the original's calibration runs, at least MIN_MARGIN
    (the margin that works is about the noise).
    `confirm`: a slow first run is confirmed by this many more, all of which must be slow
    (a reduction tries many candidates at the edge; one lucky run each would let some in).
    """

    band: float = 0.1
    margin: float | None = None
    confirm: int = 1
    reruns: int = 2
    signature: bool = True
    min_ratio: float = 0.5
    top: int = 5
    timeout_s: float | None = None
    grace_s: float = 0.3
    errors_interesting: bool = False


@dataclass(frozen=True)
class Reverification:
    """The final result re-run k times at the original's full time."""

    verdicts: tuple[Verdict, ...]

    @property
    def passed(self) -> bool:
        return 2 * sum(v.interesting for v in self.verdicts) > len(self.verdicts)


class CompileOracle(BaseOracle):
    """Judges candidates against a `Calibration` of the original, running them on `runner`."""

    def __init__(
        self,
        calibration: Calibration,
        runner: Runner,
        *,
        workload: Workload | None = None,
        judging: Judging | None = None,
        cache: Cache | None = None,
        scratch: Path | None = None,
        keep_jobs: bool = False,
        reference: Signature | None = None,
    ) -> None:
        """`reference`: a recorded signature to compare with instead of the calibration's
        profiles (a corpus entry's, whose original is not at hand)."""
        super().__init__(cache=cache, jobs=runner.slots)
        self.calibration = calibration
        self.reference = reference
        self.runner = runner
        self.workload = workload or Workload()
        self.judging = judging or Judging()
        self._own_scratch = scratch is None
        self.scratch = scratch or Path(tempfile.mkdtemp(prefix="symshrink-oracle-"))
        self.keep_jobs = keep_jobs

    @classmethod
    def create(
        cls,
        original_source: str,
        *,
        k: int = 3,
        fraction: float = DEFAULT_FRACTION,
        threshold_s: float | None = None,
        clock: Clock = "cpu",
        warm: bool = True,
        jobs: int = 1,
        preload: tuple[str, ...] | None = None,
        workload: Workload | None = None,
        judging: Judging | None = None,
        cache_path: Path | None = None,
        calibration_path: Path | None = None,
        scratch: Path | None = None,
        runner: Runner | None = None,
    ) -> CompileOracle:
        """Start the runner and calibrate on the original (or load a saved calibration).

        With `threshold_s` and no signature there is nothing to measure and the original is
        not run. A given `runner` (a Dask cluster, say) replaces the local one that `warm`,
        `jobs` and `preload` describe; the oracle closes it.
        """
        judging = judging or Judging()
        if runner is None:
            runner = WarmPool(slots=jobs, preload=preload) if warm else ColdRunner(slots=jobs)
        cache = Cache(cache_path) if cache_path is not None else None
        placeholder = Calibration(clock, (), threshold_s or 0.0)
        oracle = cls(
            placeholder, runner, workload=workload, judging=judging, cache=cache, scratch=scratch
        )
        if calibration_path is not None and calibration_path.exists():
            oracle.calibration = Calibration.load(calibration_path)
            log.info("loaded calibration from %s", calibration_path)
            return oracle
        n = 0 if threshold_s is not None and not judging.signature else k
        timeout = judging.timeout_s or 3600.0
        try:
            runs = oracle._runs([original_source] * n, kill_at=None, timeout_s=timeout)
            oracle.calibration = calibrate(
                runs,
                clock=clock,
                fraction=fraction,
                threshold_s=threshold_s,
                signature=judging.signature,
                top=judging.top,
            )
        except BaseException:
            oracle.close()
            raise
        if calibration_path is not None:
            oracle.calibration.save(calibration_path)
        return oracle

    @property
    def threshold_s(self) -> float:
        return self.calibration.threshold_s

    @property
    def margin(self) -> float:
        """How far above the threshold a candidate must be during the reduction."""
        if self.judging.margin is not None:
            return self.judging.margin
        return max(MIN_MARGIN, self.calibration.spread)

    def _timeout(self) -> float:
        if self.judging.timeout_s is not None:
            return self.judging.timeout_s
        return max(3 * self.calibration.median_s, self.threshold_s + 30.0)

    def run(self, source: str, *, kill_at: float | None, timeout_s: float | None = None) -> Run:
        """One child run of `source`, stopped at `kill_at` seconds on the oracle's clock."""
        job = Job.create(self.scratch, source, self.workload)
        limits = Limits(
            timeout_s=timeout_s or self._timeout(),
            kill_at=kill_at,
            clock=self.calibration.clock,
            grace_s=self.judging.grace_s,
        )
        try:
            run = self.runner.run(job, limits)
        finally:
            if not self.keep_jobs:
                job.remove()
        if not run.exit.clean:
            log.error("processes of a candidate survived SIGKILL (see the warning above)")
        return run

    def _runs(self, sources: Sequence[str], **kwargs: float | None) -> list[Run]:
        if self.runner.slots == 1 or len(sources) <= 1:
            return [self.run(s, **kwargs) for s in sources]
        with ThreadPoolExecutor(max_workers=self.runner.slots) as ex:
            return list(ex.map(lambda s: self.run(s, **kwargs), sources))

    def _judge(self, source: str) -> Verdict:
        threshold = self.threshold_s * (1 + self.margin)
        runs = [self.run(source, kill_at=threshold)]
        if self._near(runs[0], threshold):
            runs += [self.run(source, kill_at=threshold) for _ in range(self.judging.reruns)]
        elif self._slow(runs[0], threshold):
            for _ in range(self.judging.confirm):
                run = self.run(source, kill_at=threshold)
                if not self._slow(run, threshold):
                    return self.verdict([run], threshold)  # not confirmed: the fast run says
                runs.append(run)
        return self.verdict(runs, threshold)

    def reverify(self, source: str, k: int = 3) -> Reverification:
        """Re-run `source` k times at the threshold itself (no hysteresis band), uncached.

        A reduction drives candidates to the edge of the threshold, so one lucky kill can be
        accepted; the majority of k fresh runs decides whether the result really is slow.
        """
        threshold = self.threshold_s
        runs = self._runs([source] * k, kill_at=threshold)
        return Reverification(tuple(self.verdict([run], threshold) for run in runs))

    def _near(self, run: Run, threshold: float) -> bool:
        """Finished, but close enough below the threshold that noise could have decided."""
        measure = run.measure(self.calibration.clock)
        return (
            run.error is None
            and run.exit.reason == "exited"
            and (measure >= threshold * (1 - self.judging.band))
        )

    def _slow(self, run: Run, threshold: float) -> bool:
        """Stopped at the threshold, or finished at or above it."""
        if self._failed(run, threshold):
            return False
        return run.exit.reason != "exited" or run.measure(self.calibration.clock) >= threshold

    def _failed(self, run: Run, threshold: float) -> bool:
        hung = run.exit.reason == "timeout" and run.measure(self.calibration.clock) < threshold
        return run.error is not None or hung

    def verdict(self, runs: Sequence[Run], threshold: float) -> Verdict:
        """Majority decision over the runs of one candidate, then the slippage guard."""
        clock = self.calibration.clock
        failed = [r for r in runs if self._failed(r, threshold)]
        ok = [r for r in runs if not self._failed(r, threshold)]
        if len(failed) > len(ok):
            rep = failed[0]
            detail = rep.error or f"timeout after {rep.exit.wall_s:.1f}s wall"
            return self._make("error", rep, detail)
        slow = [r for r in ok if self._slow(r, threshold)]
        fast = [r for r in ok if r not in slow]
        votes = f" ({len(slow)}/{len(ok)} runs slow)" if len(ok) > 1 else ""
        if 2 * len(slow) <= len(ok):
            rep = _median_run(fast, clock)
            detail = f"finished in {rep.measure(clock):.2f}s {clock} < {threshold:.2f}s{votes}"
            return self._make("fast", rep, detail)
        rep = _median_run(slow, clock)
        how = "stopped" if rep.exit.reason != "exited" else "finished"
        detail = f"{how} at {rep.measure(clock):.2f}s {clock} >= {threshold:.2f}s{votes}"
        counts = merge_counts(r.spots() for r in slow)
        phase = Counter(r.slow_phase for r in slow).most_common(1)[0][0]
        original = self.reference or self.calibration.signature(
            until=threshold, top=self.judging.top
        )
        if self.judging.signature and original is not None:
            # A run stopped at the threshold is in whatever phase the kill caught it (the
            # original may be in another then: with a margin, the kill comes later); only
            # runs that finished say which phase their time went to.
            finished = all(r.exit.reason == "exited" for r in slow)
            judged = phase if finished else None
            same, why = compare(original, counts, judged, min_ratio=self.judging.min_ratio)
            if not same:
                return self._make("slipped", rep, f"{detail}; {why}", counts, phase)
        return self._make("slow", rep, detail, counts, phase)

    def _make(
        self,
        status: Status,
        rep: Run,
        detail: str,
        counts: dict[str, float] | None = None,
        phase: str | None = None,
    ) -> Verdict:
        interesting = status == "slow" or (status == "error" and self.judging.errors_interesting)
        spots = counts if counts is not None else rep.spots()
        sig = Signature.from_counts(spots, top=self.judging.top)
        return Verdict(
            status=status,
            interesting=interesting,
            wall_s=rep.exit.wall_s,
            cpu_s=rep.exit.cpu_s,
            slow_phase=phase if phase is not None else rep.slow_phase,
            signature=sig.names,
            detail=detail,
        )

    def close(self) -> None:
        self.runner.close()
        if self._own_scratch and not self.keep_jobs:
            shutil.rmtree(self.scratch, ignore_errors=True)


def _median_run(runs: list[Run], clock: Clock) -> Run:
    """The run with the median time: the representative of several."""
    ordered = sorted(runs, key=lambda r: r.measure(clock))
    return ordered[(len(ordered) - 1) // 2]

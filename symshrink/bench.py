"""Full runs of a model and its static twin through the compile oracle, judged at R x the twin.

`corpus replay` measures each entry this way, and `corpus sweep` and the report's picture
measure each member of a model's width family (`widths.at_width`) this way, with one
function: the same oracle child `minimize` judged by, the oracle's clock (CPU seconds of the
child), the run's or the entry's torch settings, and each member's own twin measured just
before it on the same warm pool. A point of an entry's sweep and a point of a report's
curve are the same measurement. The model runs to its end (or the timeout), not to R x the
twin, so its time says how slow it is; its hot spots are judged as minimize saw them, up
to R x the twin. This module imports no torch (the oracle's children do).
"""

from __future__ import annotations

import logging
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from symshrink.baseline import BaselineKind
from symshrink.oracle import Calibration, CompileOracle, Judging
from symshrink.oracle.controls import ControlTimes, NoLimit
from symshrink.oracle.signature import Signature
from symshrink.records import CorpusVerdict, WidthPoint
from symshrink.repro.candidate import Candidate
from symshrink.repro.model import Repro
from symshrink.sandbox import Clock, Run, Runner, WarmPool, Workload
from symshrink.verdict import Status
from symshrink.widths import at_width

__all__ = ["TWIN_RUNS", "Bench", "Measured", "Rule", "measure_widths"]

log = logging.getLogger(__name__)

TWIN_RUNS = 3  # runs of each twin; their median counts

_VERDICT_OF_STATUS: dict[Status, CorpusVerdict] = {
    "slow": "still slow",
    "fast": "fixed",
    "error": "error",
    "slipped": "slow, other cause",
}


@dataclass(frozen=True)
class Rule:
    """How a model is judged: slow at `ratio` x its `baseline` control on `clock`, in the hot
    spots of `reference` (None: any), retraced with `torch_settings`."""

    ratio: float
    baseline: BaselineKind = "static"
    clock: Clock = "cpu"
    reference: Signature | None = None
    torch_settings: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Measured:
    """A full run of a model against its twin, judged. `run` is None when the twin could not
    be measured (then the verdict is `error`)."""

    run: Run | None
    verdict: CorpusVerdict
    detail: str
    entry_s: float | None = None  # on the rule's clock; a lower bound when `stopped`
    twin_s: float | None = None
    ratio: float | None = None
    stopped: bool = False
    signature: tuple[str, ...] = ()

    def judged(self) -> dict[str, Any]:
        """The verdict and the times under the names a `WidthPoint` and a `Replay` give them."""
        return {
            "verdict": self.verdict,
            "entry_s": self.entry_s,
            "twin_s": self.twin_s,
            "ratio": self.ratio,
            "stopped": self.stopped,
            "detail": self.detail,
        }


BENCH_PREFIX = "symshrink-bench-"


class Bench:
    """Full runs of models and their twins, each judged by a ratio compile oracle of its own
    rule, all on one runner (a warm pool unless given), so torch is imported once; each
    twin is measured `twin_runs` times, once per bench (twins are shared by canonical form:
    the members of a family cut by pinning share one)."""

    def __init__(
        self, runner: Runner | None = None, twin_runs: int = TWIN_RUNS, scratch: Path | None = None
    ) -> None:
        self.twin_runs = twin_runs
        self.controls = ControlTimes()  # in memory: twins measured on this bench only
        self._scratch = tempfile.TemporaryDirectory(prefix=BENCH_PREFIX, dir=scratch)
        self.scratch = Path(self._scratch.name).resolve()  # children run in folders of their own
        self.runner = runner if runner is not None else WarmPool(slots=1, root=self.scratch)

    def measure(self, candidate: Candidate, rule: Rule, timeout_s: float) -> Measured:
        """Measure `candidate`'s twin, run it to the end (or `timeout_s` of wall time),
        and judge it at R x the twin: `slow, other cause` when slow but not in the rule's
        hot spots."""
        oracle = CompileOracle(
            Calibration(rule.clock, (), 0.0, ratio=rule.ratio, baseline=rule.baseline),
            self.runner,
            workload=Workload(retrace={"torch_settings": dict(rule.torch_settings)}),
            judging=Judging(
                timeout_s=timeout_s,
                signature=rule.reference is not None,
                control_runs=self.twin_runs,
            ),
            controls=self.controls,
            scratch=self.scratch,
            reference=rule.reference,
        )
        try:
            limit = oracle.limit(candidate)
        except NoLimit as e:
            return Measured(run=None, verdict="error", detail=str(e))
        run = oracle.run(candidate.source, kill_at=None, timeout_s=timeout_s)
        # Hot spots as minimize saw them: its runs stopped at R x the control.
        verdict = oracle.verdict([run.seen_at(limit.seconds)], limit.seconds, limit.control)
        return Measured(
            run=run,
            verdict=_VERDICT_OF_STATUS[verdict.status],
            detail=verdict.detail,
            entry_s=round(run.measure(rule.clock), 3),
            twin_s=None if limit.baseline_s is None else round(limit.baseline_s, 3),
            ratio=None if verdict.ratio is None else round(verdict.ratio, 2),
            stopped=run.exit.reason != "exited",
            signature=verdict.signature,
        )

    def __enter__(self) -> Bench:
        return self

    def __exit__(self, *exc: object) -> None:
        self.runner.close()
        self._scratch.cleanup()


def measure_widths(
    bench: Bench, model: Repro, widths: Iterable[int], rule: Rule, timeout_s: float
) -> list[WidthPoint]:
    """Each member of `model`'s width family at `widths` (those that exist), measured on
    `bench` against its own twin and judged by `rule`, in order of width."""
    points = []
    for w in sorted(set(widths)):
        member = at_width(model, w)
        if member is None:
            continue
        measured = bench.measure(Candidate.of(member), rule, timeout_s)
        run = measured.run
        phases = run.phase_times if run is not None else None
        points.append(
            WidthPoint(width=w, free_symbols=len(member.hints), phases=phases, **measured.judged())
        )
        log.info("width %d (%d free symbols): %s", w, len(member.hints), measured.verdict)
    return points

"""What candidates are judged against, measured on the original without waiting for it.

Two modes. *Ratio* (the default): a candidate is slow when it is still compiling at R x its
own control's time (its static twin's, see `symshrink.baseline`), and at least at the floor
(`noise.limit`); the calibration holds R and the floor,
the original's control runs (their spread is how noisy the machine is now) and the
original's runs, each killed at its own kill point like any candidate's: an original that
would compile for 50 minutes costs R x its twin here, not 50 minutes. *Absolute*
(`threshold_s`): slow means still compiling at that many seconds.

The original's runs also give the slippage guard its reference: its hot spots, phase by
phase. A kill point of R x a one-second twin comes before a wide original has reached its
hot spot (the 64-symbol backward repro is still in post_grad at 2 s, and from there on in
`safe_gcd`), so an original stopped at its kill point is sampled once longer, for the
reference only. A candidate is then compared with what the original did in the phases
the candidate's own samples are in: a small candidate reaches the hot phase long before
the original did, so the same phases, not the same seconds, are like with like.
"""

from __future__ import annotations

import json
import logging
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from symshrink.files import atomic_write
from symshrink.oracle import noise
from symshrink.oracle.signature import Signature, compare, major_phases, merge_counts
from symshrink.sandbox import Clock, Profile, Run

if TYPE_CHECKING:
    from symshrink.baseline import BaselineKind
    from symshrink.repro.model import Repro

log = logging.getLogger(__name__)

NOISE_WIDTH = 1.7
"""The default margin in standard deviations of one control run: about the range that 3
runs span on average. Taken from 5 runs, the standard deviation moves less than the range
of 3 (`benchmarks/margin_noise.py` on a noisy machine: p10-p90 0.13-0.35 against
0.09-0.44 for the same noise)."""

DEFAULT_RATIO = 4.0
"""R: the README example is 7-8x its twin (`benchmarks/verdict_measure.py`), the 64-symbol
backward repro over 35x (`benchmarks/seed.py`); a candidate that keeps 4x keeps the
pathology well above the noise."""


DEFAULT_FLOOR_S = 0.5
"""The kill-point floor: in ratio mode a candidate counts as slow only once it has run at
least this many CPU seconds, however small R x its twin (`noise.limit`): a shorter run is
judged by its noise. A twin measured once within a reduction spreads 0.19-0.30 (1.7 sd
over the mean) under 1 s (`benchmarks/margin_noise.py --by-length`), but a slow verdict
stands against the median of 3 (`Judging.slow_control_runs`), and a run spreads about 0.2
at every length from 0.25 s up under a moving load (`benchmarks/floor_noise.py`), which
the ratio cancels and the floor, CPU seconds, does not. At 1 s the floor, not R, bound the
64-symbol seed's result to 10-11 symbols (its graph stage takes the twin to 0.2 s); at
0.5 s the floor does not bind there (its results of 8-11 symbols run about 1 s), and R and
the margin decide (docs/benchmarks.md, the seed's section)."""


def run_spread(runs: Sequence[float]) -> float:
    """NOISE_WIDTH standard deviations of `runs` over their mean (0: fewer than two)."""
    if len(runs) < 2 or statistics.mean(runs) <= 0:
        return 0.0
    return NOISE_WIDTH * statistics.stdev(runs) / statistics.mean(runs)


class CalibrationError(RuntimeError):
    """The original itself fails, or cannot be measured."""


@dataclass(frozen=True)
class Calibration:
    """The judging rule and the original's measurements; saved so a resumed run reuses it.

    `ratio` is R in ratio mode (None: absolute mode, `threshold_s` seconds), `floor_s` the
    least a candidate must run to be slow there (0: no floor; `noise.limit`). In ratio mode
    `threshold_s` is the original's own kill point before the margin, R x its control or
    the floor.
    `measures` are the original's runs on `clock` (lower bounds when `stopped`),
    `baseline_measures` its control's runs. `profiles` are the original's sample timelines
    (none: the slippage guard is off), `phases` its major phases (known only from runs that
    finished), `reference_s` the original's time in its longer reference run (None: there
    was none), `reference_stopped` whether that run, too, was stopped before its end.
    `edge_measures` are the control's runs of the model the reduction at R starts from,
    once the graph stage has shrunk it (`CompileOracle.measure_edge`; none: no such stage):
    the twin a result is re-measured against is that short one, not the original's.
    """

    clock: Clock
    measures: tuple[float, ...]
    threshold_s: float
    phases: tuple[str, ...] = ()
    profiles: tuple[Profile, ...] = ()
    ratio: float | None = None
    baseline: BaselineKind = "static"
    baseline_measures: tuple[float, ...] = ()
    stopped: bool = False
    reference_s: float | None = None
    reference_stopped: bool = True
    floor_s: float = 0.0
    edge_measures: tuple[float, ...] = ()

    def limit(self, control_s: float, floor: bool = True) -> float:
        """Where a candidate whose control took `control_s` is stopped, before the margin
        (ratio mode); R x the control alone without the `floor`."""
        assert self.ratio is not None, "an absolute threshold has no control"
        return noise.limit(control_s, self.ratio, self.floor_s if floor else 0.0)

    def rule(self) -> str:
        """What counts as slow, in words: the log's, and the refusal of an original."""
        if self.ratio is None:
            return f"threshold {self.threshold_s:.1f} s"
        floor = f", at least {self.floor_s:g} s {self.clock} (--floor)" if self.floor_s else ""
        return f"slow = {self.ratio:g}x its {self.baseline} control{floor}"

    def refuses(self, repro: Repro) -> bool:
        """Whether the rule says no to `repro` without a run: against the static twin, a
        model with no free symbol left is its own twin (`baseline.is_own_twin`), ratio 1."""
        from symshrink.baseline import is_own_twin  # sympy: `import symshrink.oracle` stays cheap

        return self.ratio is not None and self.baseline == "static" and is_own_twin(repro)

    @property
    def baseline_s(self) -> float | None:
        """The original's control time (ratio mode), the median of its runs."""
        return statistics.median(self.baseline_measures) if self.baseline_measures else None

    @property
    def median_s(self) -> float:
        """The original's typical time as measured (a lower bound when `stopped`)."""
        return statistics.median(self.measures) if self.measures else self.threshold_s

    @property
    def longest(self) -> tuple[float, bool]:
        """The original's longest measured time on `clock` (its reference run's, if it had
        one), and whether that is a lower bound (the run was stopped before its end)."""
        if self.reference_s is not None:
            return self.reference_s, self.reference_stopped
        return max(self.measures, default=0.0), self.stopped

    @property
    def spread(self) -> float:
        """NOISE_WIDTH standard deviations of one run, relative to their mean, of the runs
        that ran to the end: how noisy a run the margin must cover is.

        In ratio mode those are the control's runs (the original's were stopped), and once
        the graph stage has run, its result's control's (`edge_measures`): a result is
        re-measured against a twin of 0.2 s, not the original's of 0.7-1.7 s, and the two
        spread differently (`benchmarks/twin_spread.py`: 0.23-0.25 against 0.09-0.19 side by
        side; docs/benchmarks.md's seed runs: 0.02-0.31 against 0.01-0.32).
        """
        runs = self.edge_measures or self.baseline_measures
        return run_spread(runs or (() if self.stopped else self.measures))

    def signature(
        self, until: float | None = None, top: int = 5, phases: set[str] | None = None
    ) -> Signature | None:
        """The original's hot spots in its first `until` seconds and in `phases` (None:
        all); None when the guard is off."""
        if not self.profiles:
            return None
        counts = merge_counts(p.counts(until, self.clock, phases) for p in self.profiles)
        return Signature.from_counts(counts, self.phases, top)

    def like(self, run: Run, top: int = 5) -> Signature | None:
        """The original's hot spots in the phases `run` has samples in: what to compare it
        with (all phases when the run recorded none)."""
        visited = run.profile.visited() if run.profile is not None else set()
        return self.signature(top=top, phases=visited or None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "clock": self.clock,
            "measures": list(self.measures),
            "threshold_s": self.threshold_s,
            "phases": list(self.phases),
            "profiles": [p.to_dict() for p in self.profiles],
            "ratio": self.ratio,
            "baseline": self.baseline,
            "baseline_measures": list(self.baseline_measures),
            "stopped": self.stopped,
            "reference_s": self.reference_s,
            "reference_stopped": self.reference_stopped,
            "floor_s": self.floor_s,
            "edge_measures": list(self.edge_measures),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Calibration:
        ratio = data.get("ratio")
        reference = data.get("reference_s")
        return cls(
            clock=data["clock"],
            measures=tuple(_number(m) for m in data["measures"]),
            threshold_s=_number(data["threshold_s"]),
            phases=tuple(data.get("phases", ())),
            profiles=tuple(Profile.from_dict(p) for p in data.get("profiles", ())),
            ratio=None if ratio is None else _number(ratio),
            baseline=data.get("baseline", "static"),
            baseline_measures=tuple(_number(m) for m in data.get("baseline_measures", ())),
            stopped=bool(data.get("stopped", False)),
            reference_s=None if reference is None else _number(reference),
            reference_stopped=bool(data.get("reference_stopped", True)),
            floor_s=_number(data.get("floor_s", 0.0)),  # none before the floor existed
            edge_measures=tuple(_number(m) for m in data.get("edge_measures", ())),
        )

    def save(self, path: Path) -> None:
        atomic_write(path, json.dumps(self.to_dict()))

    @classmethod
    def load(cls, path: Path) -> Calibration:
        return cls.from_dict(json.loads(path.read_text()))


def _number(value: Any) -> float:
    """A number of a saved calibration; anything else means the file was edited or cut."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"not a number: {value!r}")
    return float(value)


def calibrate(
    runs: Sequence[Run],
    *,
    threshold_s: float,
    clock: Clock = "cpu",
    ratio: float | None = None,
    baseline: BaselineKind = "static",
    baseline_measures: Sequence[float] = (),
    reference: Run | None = None,
    signature: bool = True,
    top: int = 5,
    floor_s: float = 0.0,
) -> Calibration:
    """The calibration from the original's runs (finished or stopped at their kill point).

    `threshold_s` is the original's kill point before the margin (R x its control in ratio
    mode); `reference` a run sampled longer for the guard's reference only (it replaces
    the runs' profiles: theirs are its first seconds).
    """
    for run in runs:
        if run.error:
            raise CalibrationError(f"the original fails: {run.error}")
        if run.exit.reason == "timeout" and run.measure(clock) < threshold_s:
            raise CalibrationError(f"the original hit the timeout after {run.exit.wall_s:.1f}s")
    measures = tuple(run.measure(clock) for run in runs)
    stopped = any(run.exit.reason != "exited" for run in runs)
    finished = [r for r in runs if r.exit.reason == "exited"]
    phases = major_phases(merge_counts(r.phase_times for r in finished))
    sampled = [reference] if reference is not None and reference.profile else runs
    profiles = tuple(r.profile for r in sampled if r.profile is not None) if signature else ()
    cal = Calibration(
        clock,
        measures,
        threshold_s,
        phases,
        profiles,
        ratio=ratio,
        baseline=baseline,
        baseline_measures=tuple(baseline_measures),
        stopped=stopped,
        reference_s=None if reference is None else reference.measure(clock),
        reference_stopped=reference is None or reference.exit.reason != "exited",
        floor_s=floor_s,
    )
    sig = cal.signature(top=top)
    if sig is not None:
        if not sig.spots:
            log.warning("the original has no samples in the watched modules: no slippage guard")
        for i, run in enumerate(runs):
            own = cal.like(run, top)
            ok, why = compare(own or sig, run.spots(), run.slow_phase)
            log.log(logging.INFO if ok else logging.WARNING, "calibration run %d %s", i, why)
    control = "" if cal.baseline_s is None else f", control {cal.baseline_s:.2f}s"
    log.info(
        "calibrated: %s%s, the original's limit %.2fs; its runs %s %s (%s), major phases %s,"
        " hot spots %s",
        cal.rule(),
        control,
        threshold_s,
        ", ".join(f"{m:.2f}" for m in measures),
        clock,
        "stopped at the kill point" if stopped else "finished",
        "/".join(phases) or "?",
        sig.names if sig else "(guard off)",
    )
    return cal

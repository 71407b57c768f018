"""The compile oracle's controls (static twins, or run_repro-style retraces): each built
from its candidate's source, measured once per control key and kept in the work directory
(`controls.jsonl`) so a resumed reduction measures no control twice; and the limit a
candidate is stopped at, R x its control's time."""

from __future__ import annotations

import statistics
import threading
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from symshrink.journal import JsonlStore
from symshrink.oracle.noise import median_run
from symshrink.sandbox import Clock, Run, stopping

if TYPE_CHECKING:
    from symshrink.baseline import BaselineKind, Control
    from symshrink.repro.candidate import Candidate


@dataclass(frozen=True)
class ControlTime:
    """A control's measured runs on the oracle's clock, or why it could not be measured,
    and the CPU seconds its median run spent in each hot spot (`spots`): the slippage guard
    judges a candidate on what it does beyond its twin (`signature.compare`)."""

    measures: tuple[float, ...]
    error: str | None = None
    spots: Mapping[str, float] = field(default_factory=dict)

    @property
    def seconds(self) -> float:
        """The median run (the candidates it is compared with are single runs too)."""
        return statistics.median(self.measures)

    def to_dict(self) -> dict[str, Any]:
        return {"measures": list(self.measures), "error": self.error, "spots": dict(self.spots)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ControlTime:
        measures = tuple(float(m) for m in data["measures"])
        error = data.get("error")
        if not measures and error is None:
            raise ValueError("a control time needs measures or an error")
        # a record from before the twin's spots were kept has none: judged on all its time
        spots = {str(name): float(s) for name, s in data.get("spots", {}).items()}
        return cls(measures, None if error is None else str(error), spots)


class ControlTimes(JsonlStore[ControlTime]):
    """Control (static twin) times by control key, measured once each."""

    def __init__(self, path: Path | None = None) -> None:
        super().__init__(
            path, field="control", encode=ControlTime.to_dict, decode=ControlTime.from_dict
        )


class NoLimit(Exception):
    """Why a candidate cannot be judged against a limit: its control fails."""


@dataclass(frozen=True)
class Limit:
    """Where one candidate is stopped: `seconds` (before the margin), from its `control`
    (ratio mode); `fresh`: its control was measured right before, no other run since (or
    it has none)."""

    seconds: float
    control: ControlTime | None = None
    fresh: bool = True

    @property
    def baseline_s(self) -> float | None:
        return None if self.control is None else self.control.seconds


RunAll = Callable[[str, Sequence[float | None], str | None], list[Run]]
"""Runs of one script, one per kill point, in a retrace mode (None: the oracle's)."""


class Controls:
    """Candidates' controls, measured once per key into `store` (`run_all` runs them on the
    oracle's `clock`), and whether each was measured right before: no run started since,
    by the oracle's count of runs started (`started`)."""

    def __init__(
        self, store: ControlTimes, run_all: RunAll, clock: Clock, started: Callable[[], int]
    ) -> None:
        self.store = store
        self._run_all = run_all
        self._clock = clock
        self._started = started
        self._locks: defaultdict[str, threading.Lock] = defaultdict(threading.Lock)
        self._measured_at: dict[str, int] = {}  # control key -> runs started when measured
        self._last: tuple[str, str, Control] | tuple[()] = ()

    def measure(
        self, candidate: Candidate, kind: BaselineKind, *, runs: int, fresh: bool = False
    ) -> tuple[ControlTime, bool]:
        """The control's time, from the store or measured (`runs` runs) and stored, and
        whether it was measured right before (no run started since).

        `fresh` measures again whatever the store holds (calibration, re-verification)."""
        ctrl = self.control(candidate, kind)
        # One measurement per key; other keys are measured and looked up meanwhile (with
        # -j 2 one slot confirms a slow candidate against its control while the other runs).
        with self._locks[ctrl.key]:
            known = None if fresh else self.store.get(ctrl.key)
            if known is not None:
                return known, self._measured_at.get(ctrl.key) == self._started()
            done = self._run_all(ctrl.source, [None] * runs, ctrl.mode)
            failed = next((r for r in done if r.error or r.exit.reason != "exited"), None)
            if failed is not None:
                why = failed.error or f"still running after {failed.exit.wall_s:.0f}s wall"
                measured = ControlTime((), why)
            else:
                spots = median_run(done, self._clock).seconds()
                measured = ControlTime(
                    tuple(r.measure(self._clock) for r in done),
                    spots={spot: round(s, 3) for spot, s in spots.items()},
                )
            if not stopping():  # an interrupt killed these runs: they measured nothing
                self.store.put(ctrl.key, measured)
                self._measured_at[ctrl.key] = self._started()
            return measured, True

    def control(self, candidate: Candidate, kind: BaselineKind) -> Control:
        """`candidate`'s control, built once per candidate (a verdict asks for it more than
        once)."""
        from symshrink.baseline import control  # sympy: `import symshrink.oracle` stays cheap

        last = self._last
        if last and last[:2] == (candidate.key, kind):
            return last[2]
        ctrl = control(candidate, kind)
        self._last = (candidate.key, kind, ctrl)
        return ctrl

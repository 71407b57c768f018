"""The threshold and the signature, from k full runs of the original.

threshold = `fraction` × the median of the original's times (CPU seconds of the child by
default, wall seconds with clock='wall'), unless set explicitly. The time is the whole
child run: with the warm pool that is load + trace + compile (launch and `import torch`
happen before the fork); with cold children it includes the import, ~2.5 s here. The
default fraction 0.5 keeps a candidate that lost half of the pathology, as ddSMT and
C-Reduce do with timeouts derived from the golden run.
"""

from __future__ import annotations

import json
import logging
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from symshrink.oracle.profile import Clock, Profile
from symshrink.oracle.runner import Run
from symshrink.oracle.signature import Signature, compare, major_phases, merge_counts

log = logging.getLogger(__name__)

DEFAULT_FRACTION = 0.5


class CalibrationError(RuntimeError):
    """The original itself fails, or cannot be measured."""


@dataclass(frozen=True)
class Calibration:
    """What the candidates are compared against; saved so a resumed run reuses it.

    `profiles` are the original's sample timelines (none: the slippage guard is off) and
    `phases` its major phases.
    """

    clock: Clock
    measures: tuple[float, ...]
    threshold_s: float
    phases: tuple[str, ...] = ()
    profiles: tuple[Profile, ...] = ()

    @property
    def median_s(self) -> float:
        """The original's typical time (the threshold itself if it was never measured)."""
        return statistics.median(self.measures) if self.measures else self.threshold_s

    @property
    def spread(self) -> float:
        """(max - min) / median of the original's runs: how noisy this machine is now."""
        if len(self.measures) < 2 or self.median_s <= 0:
            return 0.0
        return (max(self.measures) - min(self.measures)) / self.median_s

    def signature(self, until: float | None = None, top: int = 5) -> Signature | None:
        """The original's hot spots in its first `until` seconds (None: the guard is off)."""
        if not self.profiles:
            return None
        counts = merge_counts(p.counts(until, self.clock) for p in self.profiles)
        return Signature.from_counts(counts, self.phases, top)

    def to_dict(self) -> dict[str, Any]:
        return {
            "clock": self.clock,
            "measures": list(self.measures),
            "threshold_s": self.threshold_s,
            "phases": list(self.phases),
            "profiles": [p.to_dict() for p in self.profiles],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Calibration:
        return cls(
            clock=data["clock"],
            measures=tuple(data["measures"]),
            threshold_s=float(data["threshold_s"]),
            phases=tuple(data.get("phases", ())),
            profiles=tuple(Profile.from_dict(p) for p in data.get("profiles", ())),
        )

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(self.to_dict()))

    @classmethod
    def load(cls, path: Path) -> Calibration:
        return cls.from_dict(json.loads(path.read_text()))


def calibrate(
    runs: Sequence[Run],
    *,
    clock: Clock = "cpu",
    fraction: float = DEFAULT_FRACTION,
    threshold_s: float | None = None,
    signature: bool = True,
    top: int = 5,
) -> Calibration:
    """Derive the calibration from full (never killed) runs of the original."""
    for run in runs:
        if run.error:
            raise CalibrationError(f"the original fails: {run.error}")
        if run.exit.reason != "exited":
            raise CalibrationError(f"the original hit the timeout after {run.exit.wall_s:.1f}s")
    measures = tuple(run.measure(clock) for run in runs)
    if threshold_s is None:
        if not measures:
            raise CalibrationError("no threshold given and no run of the original to derive it")
        threshold_s = fraction * statistics.median(measures)
    phases = major_phases(merge_counts(run.phase_times for run in runs))
    profiles = tuple(r.profile for r in runs if r.profile is not None) if signature else ()
    cal = Calibration(clock, measures, threshold_s, phases, profiles)
    sig = cal.signature(threshold_s, top)
    if sig is not None:
        if not sig.spots:
            log.warning("the original has no samples in the watched modules: no slippage guard")
        for i, run in enumerate(runs):
            ok, why = compare(sig, run.spots(threshold_s, clock), run.slow_phase)
            log.log(logging.INFO if ok else logging.WARNING, "calibration run %d %s", i, why)
    log.info(
        "calibrated: %s times %s, threshold %.2fs, major phases %s, hot spots %s",
        clock,
        ", ".join(f"{m:.2f}" for m in measures),
        threshold_s,
        "/".join(phases) or "?",
        sig.names if sig else "(guard off)",
    )
    return cal

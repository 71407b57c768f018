"""The compile oracle's control times (static twins, or run_repro-style retraces), by
control key: measured once each, kept in the work directory (`controls.jsonl`) so a
resumed reduction measures no twin twice."""

from __future__ import annotations

import statistics
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from symshrink.journal import JsonlStore


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

"""The oracle's answer about one candidate: plain data the reducer can store and compare."""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any, Literal

Status = Literal["slow", "fast", "error", "slipped"]
STATUSES: tuple[Status, ...] = ("slow", "fast", "error", "slipped")


@dataclass(frozen=True)
class Verdict:
    """One judged candidate.

    `status` is 'slow' (still shows the pathology; for a custom oracle: the test said yes),
    'fast', 'error' (crash, exception, hang) or 'slipped' (slow, but for another reason than
    the original: the reducer saves it aside and does not accept it). `interesting` is what
    the reducer acts on; it is `status == 'slow'` unless the oracle was told that errors
    are interesting too. `baseline_s` is the time of the candidate's control (its static
    twin) on the oracle's clock and `ratio` the candidate's time over it, when the verdict
    was a ratio; `stopped` says the run was killed at its limit, so its times (and ratio)
    are lower bounds.
    """

    status: Status
    interesting: bool
    wall_s: float = 0.0
    cpu_s: float = 0.0
    slow_phase: str | None = None
    signature: tuple[str, ...] = ()
    detail: str = ""
    baseline_s: float | None = None
    ratio: float | None = None
    stopped: bool = False
    cached: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (`cached` is a property of a lookup, not of the verdict)."""
        data = asdict(self)
        data["signature"] = list(self.signature)
        del data["cached"]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, cached: bool = False) -> Verdict:
        """Inverse of `to_dict`; unknown keys are ignored so old cache files still load."""
        status = data["status"]
        if status not in STATUSES:
            raise ValueError(f"unknown verdict status {status!r}")
        return cls(
            status=status,
            interesting=bool(data["interesting"]),
            wall_s=float(data.get("wall_s", 0.0)),
            cpu_s=float(data.get("cpu_s", 0.0)),
            slow_phase=data.get("slow_phase"),
            signature=tuple(data.get("signature", ())),
            detail=str(data.get("detail", "")),
            baseline_s=None if data.get("baseline_s") is None else float(data["baseline_s"]),
            ratio=None if data.get("ratio") is None else float(data["ratio"]),
            stopped=bool(data.get("stopped", False)),
            cached=cached,
        )

    def as_cached(self) -> Verdict:
        """The same verdict, marked as answered from the cache."""
        return replace(self, cached=True)

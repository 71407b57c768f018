"""Parent side of the sampler: a child's sample timeline, read back from its file.

Keeping the timeline (not just totals) lets the oracle compare like with like: a candidate
killed at T seconds is compared with what the original was doing in its own first T seconds,
not with the whole run, whose tail (the pathology) a truncated profile under-represents.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

log = logging.getLogger(__name__)

Clock = Literal["cpu", "wall"]


@dataclass(frozen=True)
class Profile:
    """Samples as (CPU s, wall s, spot or None), in order, and the last phase seen."""

    samples: tuple[tuple[float, float, str | None], ...]
    last_phase: str | None

    @classmethod
    def parse(cls, text: str) -> Profile:
        """Read the sampler's line format; a line cut short by a kill is skipped."""
        names: dict[int, str] = {}
        samples: list[tuple[float, float, str | None]] = []
        phase: str | None = None
        for line in text.splitlines():
            kind, _, rest = line.partition(" ")
            try:
                if kind == "s":
                    cpu, wall, idx = rest.split(" ")
                    samples.append((float(cpu), float(wall), names.get(int(idx))))
                elif kind == "n":
                    idx, name = rest.split(" ", 1)
                    names[int(idx)] = name
                elif kind == "p" and rest:
                    phase = rest
            except ValueError:
                log.debug("skipped sample line %r", line)
        return cls(tuple(samples), phase)

    @classmethod
    def read(cls, path: Path) -> Profile | None:
        try:
            return cls.parse(path.read_text())
        except OSError:
            return None

    def counts(self, until: float | None = None, clock: Clock = "cpu") -> dict[str, int]:
        """Samples per spot, of those taken before `until` seconds on `clock` (None: all)."""
        at = 0 if clock == "cpu" else 1
        return dict(
            Counter(
                s[2] for s in self.samples if s[2] is not None and (until is None or s[at] <= until)
            )
        )

    def cut(self, until: float, clock: Clock = "cpu") -> Profile:
        """The samples taken up to `until` seconds on `clock`: a run seen as if stopped there."""
        at = 0 if clock == "cpu" else 1
        return Profile(tuple(s for s in self.samples if s[at] <= until), self.last_phase)

    def to_dict(self) -> dict[str, Any]:
        names = sorted({s[2] for s in self.samples if s[2] is not None})
        ids = {n: i for i, n in enumerate(names)}
        rows = [[c, w, ids.get(n, -1) if n is not None else -1] for c, w, n in self.samples]
        return {"names": names, "samples": rows, "last_phase": self.last_phase}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Profile:
        names = data["names"]
        samples = tuple(
            (float(c), float(w), names[i] if i >= 0 else None) for c, w, i in data["samples"]
        )
        return cls(samples, data.get("last_phase"))

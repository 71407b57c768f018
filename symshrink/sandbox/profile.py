"""Parent side of the sampler: a child's sample timeline, read back from its file.

Keeping the timeline (not just totals) lets the oracle compare like with like: a candidate
is compared with what the original did in the phases the candidate's own samples are in,
and a run sampled longer is judged as if stopped at its limit (`cut`). Each sample's CPU
time (`seconds`) lets a candidate be set against its twin, measured on the other core.
"""

from __future__ import annotations

import logging
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

log = logging.getLogger(__name__)

Clock = Literal["cpu", "wall"]
Sample = tuple[float, float, str | None]
"""(CPU s, wall s, spot or None)."""


def _at(sample: Sample, clock: Clock) -> float:
    """When `sample` was taken, in seconds on `clock`."""
    return sample[0] if clock == "cpu" else sample[1]


@dataclass(frozen=True)
class Profile:
    """Samples (`Sample`) in order, and the last phase seen.

    `phases` holds each sample's phase (empty when unknown: an old record), so a candidate
    stopped in some phase can be compared with what the original did in the same phases.
    """

    samples: tuple[Sample, ...]
    last_phase: str | None
    phases: tuple[str | None, ...] = ()

    @classmethod
    def parse(cls, text: str) -> Profile:
        """Read the sampler's line format; a line cut short by a kill is skipped."""
        names: dict[int, str] = {}
        samples: list[Sample] = []
        phases: list[str | None] = []
        phase: str | None = None
        for line in text.splitlines():
            kind, _, rest = line.partition(" ")
            try:
                if kind == "s":
                    cpu, wall, idx = rest.split(" ")
                    samples.append((float(cpu), float(wall), names.get(int(idx))))
                    phases.append(phase)
                elif kind == "n":
                    idx, name = rest.split(" ", 1)
                    names[int(idx)] = name
                elif kind == "p" and rest:
                    phase = rest
            except ValueError:
                log.debug("skipped sample line %r", line)
        return cls(tuple(samples), phase, tuple(phases))

    @classmethod
    def read(cls, path: Path) -> Profile | None:
        try:
            return cls.parse(path.read_text())
        except OSError:
            return None

    def counts(
        self, until: float | None = None, clock: Clock = "cpu", phases: set[str] | None = None
    ) -> dict[str, int]:
        """Samples per spot, of those taken before `until` seconds on `clock` (None: all)
        and, with `phases` (and phases recorded), in one of those phases."""
        known = len(self.phases) == len(self.samples)
        wanted = phases if known else None
        return dict(
            Counter(
                s[2]
                for i, s in enumerate(self.samples)
                if s[2] is not None
                and (until is None or _at(s, clock) <= until)
                and (wanted is None or self.phases[i] in wanted)
            )
        )

    def seconds(self) -> dict[str, float]:
        """CPU seconds per spot: each sample stands for the CPU time since the one before
        it. Sample counts are per tick of wall time, so two runs made under different loads
        (a candidate and its twin on two cores) can only be set against each other in
        seconds. The first sample stands for nothing: what came before it is start-up."""
        seconds: dict[str, float] = defaultdict(float)
        before = self.samples[0][0] if self.samples else 0.0
        for cpu, _, spot in self.samples:
            if spot is not None:
                seconds[spot] += max(0.0, cpu - before)
            before = cpu
        return dict(seconds)

    def visited(self) -> set[str]:
        """The phases this run has samples in."""
        return {p for p in self.phases if p is not None}

    def cut(self, until: float, clock: Clock = "cpu") -> Profile:
        """The samples taken up to `until` seconds on `clock`: a run seen as if stopped there."""
        keep = [i for i, s in enumerate(self.samples) if _at(s, clock) <= until]
        phases = tuple(self.phases[i] for i in keep) if self.phases else ()
        return Profile(tuple(self.samples[i] for i in keep), self.last_phase, phases)

    def to_dict(self) -> dict[str, Any]:
        names = sorted({s[2] for s in self.samples if s[2] is not None})
        ids = {n: i for i, n in enumerate(names)}
        rows = [[c, w, ids.get(n, -1) if n is not None else -1] for c, w, n in self.samples]
        return {
            "names": names,
            "samples": rows,
            "last_phase": self.last_phase,
            "phases": list(self.phases),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Profile:
        names = data["names"]
        samples = tuple(
            (float(c), float(w), names[i] if i >= 0 else None) for c, w, i in data["samples"]
        )
        return cls(samples, data.get("last_phase"), tuple(data.get("phases", ())))

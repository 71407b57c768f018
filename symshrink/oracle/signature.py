"""Why a compile is slow: its slow phase and hot spots, and whether a candidate shares them.

A shrunk candidate can stay slow for a different reason than the original (dropping terms
from a sum can switch sympy from one expensive path to another). The reducer must not
accept such a candidate, or it ends up minimizing some other bug. A candidate matches when
it is slow in one of the original's major phases (those with at least `MAJOR_PHASE` of its
time: sym_outer_n8 spends 45% in scheduling and 42% in codegen, and either may be the
longest in a given run) and at least `min_ratio` of the original's share of samples in its
hot spots lands in those same spots (a share, not a set overlap, so that a noisy
fifth-hottest spot cannot decide). The original's spots are taken in the phases the
candidate's run went through (see `profile.py`). In ratio mode the candidate's share is
taken of what it spends beyond its static twin, so the twin's own work, ~1/R of a
candidate at the edge, does not count against it. Where the original's hottest spot is
one of torch's sympy functions (`FAMILIES`), the others count as its spots too.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

MAJOR_PHASE = 0.25

FAMILIES: tuple[str, ...] = ("torch.utils._sympy.functions",)
"""Modules whose functions are one code path: torch's integer-division functions
(`FloorDiv`, `ModularIndexing`, `Mod`, `PythonMod`, `CeilDiv`) build and evaluate one
another on the same sums, and call `safe_gcd`. The 64-symbol seed spends 89 % in
`safe_gcd` called from `ModularIndexing.eval`; its narrower candidates spend theirs in
`FloorDiv.eval` on the same sum, which ranks fifth in the original at 0.8 %, level with
the sixth: by spots alone, which of the two made the top five would decide whether such a
candidate is slow or 'slipped'."""


@dataclass(frozen=True)
class Signature:
    """The major phases (empty if unknown) and the `top` hottest spots with their shares."""

    phases: tuple[str, ...]
    spots: tuple[tuple[str, float], ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.spots)

    @property
    def family(self) -> str | None:
        """The module of `FAMILIES` that holds the hottest spot, if one does."""
        hottest = self.names[0] if self.spots else ""
        return next((f for f in FAMILIES if hottest.startswith(f + ".")), None)

    def holds(self, spot: str) -> bool:
        """Whether time in `spot` is time on the original's path: one of its hot spots, or
        a function of its hottest spot's family."""
        family = self.family
        return spot in self.names or (family is not None and spot.startswith(family + "."))

    @property
    def share(self) -> float:
        """The fraction of the samples that fell in these spots."""
        return sum(share for _, share in self.spots)

    def to_dict(self) -> dict[str, Any]:
        return {"phases": list(self.phases), "spots": [list(spot) for spot in self.spots]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Signature:
        spots = tuple((str(name), float(share)) for name, share in data.get("spots", ()))
        return cls(tuple(data.get("phases", ())), spots)

    @classmethod
    def from_counts(
        cls, counts: Mapping[str, float], phases: tuple[str, ...] = (), top: int = 5
    ) -> Signature:
        """The `top` spots of `counts` (samples per spot) with their shares."""
        total = sum(counts.values())
        hottest = Counter(counts).most_common(top)
        spots = tuple((name, n / total) for name, n in hottest) if total else ()
        return cls(phases, spots)


def major_phases(times: dict[str, float]) -> tuple[str, ...]:
    """The phases holding at least MAJOR_PHASE of the time, longest first."""
    total = sum(times.values())
    if total <= 0:
        return ()
    ranked = sorted(times, key=lambda p: -times[p])
    return tuple(p for p in ranked if times[p] >= MAJOR_PHASE * total)


def phase_like(times: dict[str, float], original: tuple[str, ...]) -> str | None:
    """The phase of a finished candidate to compare with the original's major phases: one
    of those if it is a major phase of the candidate too (a compile split evenly between
    trace and codegen is slow in codegen as well), else the candidate's longest."""
    majors = major_phases(times)
    return next((p for p in majors if p in original), majors[0] if majors else None)


def merge_counts(runs: Iterable[Mapping[str, float]]) -> dict[str, float]:
    """Sum counts (or seconds) per name over several runs."""
    total: dict[str, float] = defaultdict(float)
    for counts in runs:
        for name, count in counts.items():
            total[name] += count
    return dict(total)


def hot_share(
    original: Signature, counts: Mapping[str, float], twin: Mapping[str, float] | None = None
) -> tuple[float, str]:
    """The share of `counts` in the original's spots, and what it is a share of: of all of
    them, or with `twin` of what they hold beyond the twin's (see `compare`)."""
    inside = sum(n for name, n in counts.items() if original.holds(name))
    total = sum(counts.values())
    beyond = total - sum(twin.values()) if twin else 0.0
    if twin and beyond > 0:
        added = inside - sum(s for name, s in twin.items() if original.holds(name))
        return min(1.0, max(0.0, added) / beyond), "of its time beyond its twin's"
    return (inside / total if total else 0.0), "of its samples"


def compare(
    original: Signature,
    counts: Mapping[str, float],
    phase: str | None,
    *,
    min_ratio: float = 0.5,
    twin: Mapping[str, float] | None = None,
) -> tuple[bool, str]:
    """Whether a candidate with spot `counts`, slow in `phase`, is slow for the same reason.

    With `twin` (the CPU seconds the candidate's twin spent in each spot; `counts` then in
    CPU seconds too) the share is taken of the time the candidate spends beyond its twin:
    what its symbols add. Taken of all its time, the twin's own work dilutes it, most at
    the edge, where a candidate at R x its twin spends ~1/R of its time on that work. Returns
    the answer and a one-line reason. A candidate with no watched samples at all does not
    match: whatever makes it slow is outside sympy and ShapeEnv.
    """
    if original.phases and phase is not None and phase not in original.phases:
        return False, f"slow in phase {phase!r}, the original in {'/'.join(original.phases)}"
    if not original.spots:
        return True, "the original has no hot spots to compare"
    if not sum(counts.values()):
        return False, "no samples in the watched modules"
    share, of = hot_share(original, counts, twin)
    ok = share >= min_ratio * original.share
    verb = "shares" if ok else "does not share"
    family = f" and {original.family}" if original.family else ""
    return ok, (
        f"{verb} the original's hot spots{family}: {share:.0%} {of} there "
        f"(original {original.share:.0%}, needed {min_ratio * original.share:.0%})"
    )

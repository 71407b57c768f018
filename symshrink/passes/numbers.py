"""Shrink hints: first each straight to its floor, then all of them halved at once.

Hints are the values the repro is traced at; small ones read better and keep the tensors
small. A floor is the smallest value not held by a hint that stays (2, 3, 4, ... in the
order of the hints, never 0 or 1): one call takes every hint there whose pathology does not
need it larger, where halving needs log2(hint) accepted calls per step of a factor of two.
What could not go to its floor is then halved, every such hint in one candidate, again
while that stays interesting: a call per halving of them all. Hints are not parts of the
repro, so no hint is proved needed on its own (halving one hint at a time cost the README
example up to 10 of its calls, docs/benchmarks.md). Distinct symbols keep distinct hints,
because symbolic tracing would duck-size equal hints into one symbol and change the repro.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from symshrink.passes import Pass
from symshrink.repro.model import Repro

MIN_HINT = 2


@dataclass(frozen=True)
class Floor:
    symbol: str


@dataclass(frozen=True)
class Halve:
    """Every hint that can halve, halved (`halved`)."""


def floor_edits(repro: Repro) -> list[Floor]:
    """Every hint above its rank's floor (2 for the smallest, 3 for the next...), largest
    first (the same order as halving): the hints that flooring all at once would lower."""
    ranked = sorted(repro.hints, key=lambda s: (repro.hints[s], s))
    above = [s for rank, s in enumerate(ranked) if repro.hints[s] > MIN_HINT + rank]
    return [Floor(s) for s in reversed(above)]


def floor(repro: Repro, chosen: Sequence[Floor]) -> Repro | None:
    """The chosen hints, smallest first, each to the smallest value no other hint holds.

    The floors depend on which hints stay, so any subset is a valid candidate: a hint that
    must stay large does not stop the others from going to 2, 3, 4, ... in one call (a
    floor fixed by rank would collide with a hint that stayed, one step per call)."""
    names = {e.symbol for e in chosen}
    kept = {h for s, h in repro.hints.items() if s not in names}
    free = (v for v in itertools.count(MIN_HINT) if v not in kept)  # rising: no value twice
    order = sorted(names, key=lambda s: (repro.hints[s], s))
    return _with_hints(repro, {s: min(next(free), repro.hints[s]) for s in order})


def halved(repro: Repro) -> dict[str, int]:
    """Each hint halved where its half is at least MIN_HINT and held by no other hint,
    smallest first (a small hint halved frees its value for a larger one's half)."""
    taken = set(repro.hints.values())
    out = {}
    for s in sorted(repro.hints, key=lambda s: (repro.hints[s], s)):
        hint = repro.hints[s]
        if hint // 2 >= MIN_HINT and hint // 2 not in taken:
            taken = (taken - {hint}) | {hint // 2}
            out[s] = hint // 2
    return out


def edits(repro: Repro) -> list[Halve]:
    """One edit, while some hint can halve."""
    return [Halve()] if halved(repro) else []


def rewrite(repro: Repro, chosen: Sequence[Halve]) -> Repro | None:
    return _with_hints(repro, halved(repro) if chosen else {})


def _with_hints(repro: Repro, changed: Mapping[str, int]) -> Repro | None:
    """`repro` with the `changed` hints, or None if two distinct symbols would share one."""
    hints = {**repro.hints, **changed}
    if len(set(hints.values())) < len(set(repro.hints.values())):
        return None
    return repro.replace(hints=hints)


# Hints are the values a repro is traced at, not parts of it: what goes to its floor goes
# in groups (`search.coarse_dd`), the rest is halved all at once, and no hint is proved
# needed on its own (a README run spent 15 of its 60 calls proving them so).
FLOOR = Pass("floor-hints", floor_edits, floor, reopens=False, search="coarse")
HALVE = Pass("shrink-hints", edits, rewrite, reopens=False)
PASSES: list[Pass[Any]] = [FLOOR, HALVE]

"""Shrink hints: halve a symbol's hint, never to 0 or 1, never onto another symbol's hint.

Run to a fixpoint, halving reaches any smaller hint within a factor of two in
log2(hint) accepted steps. Distinct symbols keep distinct hints, because symbolic tracing
would duck-size equal hints into one symbol and change the repro.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from symshrink.passes import Pass
from symshrink.repro.model import Repro

MIN_HINT = 2


@dataclass(frozen=True)
class Halve:
    symbol: str


def edits(repro: Repro) -> list[Halve]:
    """Largest hints first: they shrink the most."""
    names = sorted(repro.hints, key=lambda s: (-repro.hints[s], s))
    return [Halve(s) for s in names if repro.hints[s] // 2 >= MIN_HINT]


def rewrite(repro: Repro, chosen: Sequence[Halve]) -> Repro | None:
    hints = dict(repro.hints)
    for e in chosen:
        hints[e.symbol] //= 2
    if len(set(hints.values())) < len(set(repro.hints.values())):
        return None  # two distinct symbols would now share a hint
    return repro.replace(hints=hints)


PASS = Pass("shrink-hints", edits, rewrite, reopens=False)

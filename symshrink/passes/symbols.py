"""Remove free symbols: pin one to its hint, or merge one into another it shares a user with."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from symshrink.expr import symbol
from symshrink.graph import SymGraph
from symshrink.passes import Pass
from symshrink.passes.common import substitute_model
from symshrink.repro.model import Repro


@dataclass(frozen=True)
class Pin:
    """Replace `symbol` by its hint everywhere: the value stays, the variable goes."""

    symbol: str


@dataclass(frozen=True)
class Merge:
    """Replace `drop` by `keep` everywhere (hints differ, so values change)."""

    drop: str
    keep: str


def pin_edits(repro: Repro) -> list[Pin]:
    """Least-used symbols first: they are the likeliest to be irrelevant."""
    return [Pin(s) for s in SymGraph(repro).symbols_by_use()]


def rewrite_pins(repro: Repro, edits: Sequence[Pin]) -> Repro:
    mapping = {e.symbol: repro.hints[e.symbol] for e in edits}
    return substitute_model(repro, mapping)


def merge_edits(repro: Repro) -> list[Merge]:
    """Merge each symbol into the first other symbol that appears in the same input."""
    graph = SymGraph(repro)
    edits = []
    names = list(repro.hints)
    for i, s in enumerate(names):
        users = set(graph.users(s))
        for keep in names[:i]:
            if users & set(graph.users(keep)):
                edits.append(Merge(s, keep))
                break
    return edits


def rewrite_merges(repro: Repro, edits: Sequence[Merge]) -> Repro | None:
    """Merge targets must themselves stay, so chains resolve in one substitution."""
    dropped = {e.drop for e in edits}
    if any(e.keep in dropped for e in edits):
        return None
    mapping = {e.drop: symbol(e.keep) for e in edits}
    return substitute_model(repro, mapping)


PIN = Pass("pin-symbols", pin_edits, rewrite_pins)
MERGE = Pass("merge-symbols", merge_edits, rewrite_merges)
PASSES: list[Pass[Any]] = [PIN, MERGE]

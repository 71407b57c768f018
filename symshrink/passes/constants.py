"""Inline SymInt inputs that became constants: the literal goes into the graph code.

Pinning symbols leaves SymInt inputs whose expression is a number (`reader.symint(1021,
expr='1021')  # primals_1`): the retrace passes them to forward as plain ints already, so
writing the literal where forward reads the parameter changes nothing the compile sees,
and a repro of 64 such inputs reads as one of a few.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from symshrink.passes import Pass
from symshrink.passes.common import placeholders
from symshrink.repro import source
from symshrink.repro.model import Repro, SymIntInput


@dataclass(frozen=True)
class Inline:
    """Replace forward's parameter `name` by the constant its SymInt input holds."""

    name: str


def edits(repro: Repro) -> list[Inline]:
    return [
        Inline(p)
        for p, x in placeholders(repro)
        if isinstance(x, SymIntInput)
        and x.expr is not None
        and not x.expr.free_symbols
        and x.hint is not None
    ]


def rewrite(repro: Repro, chosen: Sequence[Inline]) -> Repro:
    names = {e.name for e in chosen}
    pairs = placeholders(repro)
    values = {
        p: x.hint
        for p, x in pairs
        if p in names and isinstance(x, SymIntInput) and x.hint is not None
    }
    inputs = tuple(x for p, x in pairs if p not in values)
    code = source.inline_params(repro.module_source, values)
    return repro.replace(inputs=inputs, module_source=code)


PASS = Pass("inline-constants", edits, rewrite)

"""Passes: small pure transformations of a `Repro`, proposed as edits (data).

A pass lists the edits it could make to a model and applies any subset of them at once.
The reducer asks a list minimizer which edits it can apply together while the repro stays
interesting, so one pass contract serves pinning symbols, dropping terms, dropping
inputs and graph outputs alike. Passes never import torch.

A new pass is one module here defining `PASS = Pass(...)` (or `PASSES = [...]`) and its
test; `all_passes()` finds it, with no registry edited elsewhere.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from symshrink.repro.model import Repro

Edit = Hashable
EditsFn = Callable[[Repro], list[Edit]]
ApplyFn = Callable[[Repro, Sequence[Edit]], Repro | None]


@dataclass(frozen=True)
class Pass:
    """`edits(m)` proposes; `apply(m, subset)` makes a smaller model, or None if invalid.

    `tier` orders passes: lower tiers run first and again whenever a later tier makes
    progress. Pinning free symbols comes first (tier 0): on a width-driven original each
    symbol gone makes every later call cheaper; dropping outputs and inputs and
    simplifying expressions (tier 1) come next, fine rewrites after.
    A pass whose changes cannot enable earlier passes (shrinking numbers) sets
    `reopens=False`, so its progress does not send the reducer back to tier 0.
    """

    name: str
    tier: int
    edits: EditsFn
    apply: ApplyFn
    reopens: bool = True


def all_passes() -> list[Pass]:
    """Every pass defined in this package, by tier then name."""
    found: list[Pass] = []
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        found.extend(getattr(module, "PASSES", []))
        if hasattr(module, "PASS"):
            found.append(module.PASS)
    return sorted(found, key=lambda p: (p.tier, p.name))

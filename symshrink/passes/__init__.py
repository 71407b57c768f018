"""Passes: small pure transformations of a `Repro`, proposed as edits (data).

A pass lists the edits it could make to a model and applies any subset of them at once.
The reducer asks a list minimizer which edits it can apply together while the repro stays
interesting, so one pass contract serves pinning symbols, dropping terms, dropping
inputs and graph outputs alike. Passes never import torch.

A new pass is one module here defining `PASS = Pass(...)` (or `PASSES = [...]`), its
test, and its name in `SCHEDULE`.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from symshrink.passes.common import fits, normalize
from symshrink.repro.model import Repro

Edit = TypeVar("Edit", bound=Hashable)

SCHEDULE: tuple[str, ...] = (
    "pin-symbols",
    "merge-inputs",
    "drop-outputs",
    "inline-constants",
    "bypass-nodes",
    "bypass-pairs",
    "simplify-exprs",
    "merge-symbols",
    "lift-divisions",
    "floor-hints",
    "shrink-hints",
)
"""The order in which the reducer runs the passes, round after round. Pinning free symbols
comes first: on a width-driven original each symbol gone makes every later call cheaper;
merging repeated SymInt inputs, dropping outputs and bypassing nodes (one at a time, then
a node with the node it reads) come next (inputs
forward never reads go in every candidate's normalization), then simplifying expressions,
whose candidates compile the graph the bypasses left and whose proofs stand on it (the
planted reductions: 135.5 calls against 137.5 with simplifying before bypassing), fine
rewrites after (merging symbols, then taking out a division: both only from the second
round on, see `Pass.later`), shrinking hints last (once the others are done: it cannot
reopen them), each hint straight to its floor first, then all halved at once.

Every pass spends the same headroom (the original's ratio above R), so what runs first is
what the result loses most of. The graph passes, run first at R, leave the 64-symbol
seed's wide sums at the edge with 25-48 of their free symbols (`benchmarks/seed.py` on a
schedule with them first). So `minimize_stages.stages` runs them first as a stage of their
own, an edit kept only while the candidate stays slow at 2R, where the original's headroom
allows; where it is under 2R, they lead the passes at R instead (`minimize_stages.led_by_graph`)."""

GRAPH_PASSES: tuple[str, ...] = ("drop-outputs", "bypass-nodes", "bypass-pairs")
"""The passes that shrink the graph itself, and with it the twin that every later call is
measured against and killed at a multiple of."""


@dataclass(frozen=True)
class Pass(Generic[Edit]):
    """`edits(m)` proposes; `apply(m, subset)` makes a smaller model, or None if invalid.

    `rewrite(m, subset)` makes the edits (None if they conflict); `apply` normalizes what
    it made and refuses a model whose graph cannot trace at its hints, for every pass
    alike. A pass whose changes cannot enable the others (shrinking numbers) sets
    `reopens=False`: it runs once the others are at their fixpoint, its progress starts no
    new round, and run to its own fixpoint it tries again only the edits its last run made
    (each hint is proved needed once, not again after every other hint's halving).
    `classes(m)` names edits that are interchangeable (pins of symbols that
    occur alike): the search cuts each class by count (`search.by_classes`). `search`
    names the pass's own search strategy (None: the reducer's). `later`: the pass skips
    the reducer's first round (a rewrite that takes what the passes before it could not:
    in the first round they leave the model at the edge, where its candidates are judged
    by the noise, and whatever the round found needed the next one proves again).
    """

    name: str
    edits: Callable[[Repro], list[Edit]]
    rewrite: Callable[[Repro, Sequence[Edit]], Repro | None]
    reopens: bool = True
    classes: Callable[[Repro], list[list[Edit]]] | None = None
    search: str | None = None
    later: bool = False

    def apply(self, repro: Repro, edits: Sequence[Edit]) -> Repro | None:
        """The model with `edits` made and normalized (see `normalize`), or None (also when
        it cannot trace where `repro` could: see `fits`)."""
        rewritten = self.rewrite(repro, edits)
        model = None if rewritten is None else normalize(rewritten)
        return model if model is not None and fits(model, repro) else None


def schedule(names: tuple[str, ...] = SCHEDULE) -> list[Pass[Any]]:
    """The passes defined in this package, those in `names` in that order (all of them, in
    the order of `SCHEDULE`, by default).

    A pass defined but not scheduled, or scheduled but not defined, is a programming
    error: it would silently never run."""
    found: dict[str, Pass[Any]] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        defined = [*getattr(module, "PASSES", []), *filter(None, [getattr(module, "PASS", None)])]
        found.update((p.name, p) for p in defined)
    if sorted(found) != sorted(SCHEDULE):
        raise RuntimeError(f"passes defined {sorted(found)} but scheduled {sorted(SCHEDULE)}")
    return [found[name] for name in names]

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

from symshrink.passes.common import normalize
from symshrink.repro.model import Repro

Edit = Hashable
EditsFn = Callable[[Repro], list[Edit]]
RewriteFn = Callable[[Repro, Sequence[Edit]], Repro | None]

SCHEDULE: tuple[str, ...] = (
    "pin-symbols",
    "drop-inputs",
    "drop-outputs",
    "inline-constants",
    "simplify-exprs",
    "bypass-nodes",
    "merge-symbols",
    "floor-hints",
    "shrink-hints",
)
"""The order in which the reducer runs the passes, round after round, for an original of
much or unknown headroom (a width-driven one). Pinning free symbols comes first: each
symbol gone makes every later call cheaper; dropping outputs and inputs and simplifying
expressions come next, fine rewrites after, shrinking hints last (once the others are
done: it cannot reopen them), each hint straight to its floor first, then by halving.

Every pass spends the same headroom (the original's ratio above R), so what runs first is
what the result loses most of. On the 64-symbol seed the graph passes, run first, leave
the wide sums at the edge with 25-48 of their 64 free symbols (docs/benchmarks.md, sixth
session): there the symbols must go first."""

GRAPH_PASSES: tuple[str, ...] = ("drop-outputs", "bypass-nodes")
"""The passes that shrink the graph itself, and with it the twin every later call is
measured against and killed at a multiple of."""

GRAPH_FIRST_BELOW = 2.0
"""The headroom (the original's time over its kill point, measured to its end) under
which the graph passes go first (`order`). There, graph first reached results of the same
size in far fewer calls: the README example (1.6-1.8x) in 72 calls and 82-86 s against
105-132 calls and 155-178 s; the seed's own family at 16 symbols (1.84x) in 140 calls and
152 s against 342 calls and 469 s, 16 -> 7 symbols both (docs/benchmarks.md, tenth
session). Between it and the 64-symbol seed (over 8x), nothing is measured yet."""


def order(headroom: float | None = None) -> tuple[str, ...]:
    """The passes' names in the order to run them on an original `headroom` times over its
    kill point, measured to its end (None: not known, or no timing oracle).

    The graph passes go first when the headroom is known to be small (GRAPH_FIRST_BELOW),
    as in other reducers: whatever they remove is compiled by no later call. With much
    headroom, or none measured, the free symbols go first (SCHEDULE)."""
    if headroom is None or headroom >= GRAPH_FIRST_BELOW:
        return SCHEDULE
    return GRAPH_PASSES + tuple(name for name in SCHEDULE if name not in GRAPH_PASSES)


@dataclass(frozen=True)
class Pass:
    """`edits(m)` proposes; `apply(m, subset)` makes a smaller model, or None if invalid.

    `rewrite(m, subset)` makes the edits (None if they conflict); `apply` normalizes what
    it made, for every pass alike. A pass whose changes cannot enable the others
    (shrinking numbers) sets `reopens=False`: it runs once the others are at their
    fixpoint, and its progress starts no new round.
    """

    name: str
    edits: EditsFn
    rewrite: RewriteFn
    reopens: bool = True

    def apply(self, repro: Repro, edits: Sequence[Edit]) -> Repro | None:
        """The model with `edits` made and normalized (see `normalize`), or None."""
        rewritten = self.rewrite(repro, edits)
        return None if rewritten is None else normalize(rewritten)


def schedule(names: tuple[str, ...] = SCHEDULE) -> list[Pass]:
    """Every pass defined in this package, in the order of `names` (`SCHEDULE`, `order`).

    A pass defined but not scheduled, or scheduled but not defined, is a programming
    error: it would silently never run."""
    found: dict[str, Pass] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        defined = [*getattr(module, "PASSES", []), *filter(None, [getattr(module, "PASS", None)])]
        found.update((p.name, p) for p in defined)
    if sorted(found) != sorted(names):
        raise RuntimeError(f"passes defined {sorted(found)} but scheduled {sorted(names)}")
    return [found[name] for name in names]

"""The control a ratio verdict measures a candidate against, built from the candidate itself.

Seconds on a shared 2-core machine move 10-40 % with the other core's load; the ratio of
two runs made under the same load moves far less. So "still slow" means: still compiling
at R x the time of the candidate's *control*, measured in the same reduction.

- `static`: the candidate's static twin, every free symbol pinned to its hint, the same
  graph code and inputs otherwise. What is left of its compile time is the graph's own
  cost; what the symbols add is the pathology. Candidates that only pin symbols share the
  original's twin (pinning any subset, then the rest, gives the same script), so most
  twins are measured once.
- `independent`: the candidate retraced the way torch's `run_repro` does it (every size a
  fresh symbol), for pathologies that need symbols but not their relationships.

No torch here: the control is a script (and the retrace mode it runs in).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import sympy

from symshrink.expr import evaluate
from symshrink.passes.symbols import PIN, Pin
from symshrink.repro.candidate import Candidate
from symshrink.repro.model import Repro
from symshrink.repro.render import canonical_key, render

BaselineKind = Literal["static", "independent"]


def static_twin(repro: Repro) -> Repro:
    """`repro` with every backed free symbol pinned to its hint and constants folded.

    Folding (`(16360//160) + 866` -> `968`) makes the twins of candidates that differ only
    in which symbols they had pinned the same script, hence the same key.
    """
    pinned = PIN.apply(repro, [Pin(s) for s in repro.hints])
    if pinned is None:  # pinning keeps every value, so normalize cannot refuse it
        raise AssertionError("pinning every symbol to its hint changed a value")
    return pinned.map_exprs(_fold_constant)


def is_own_twin(repro: Repro) -> bool:
    """No backed free symbol left: pinning them all changes nothing, so against its static
    twin a ratio verdict is 1 (constants folded or not, the compile is the same)."""
    return not repro.hints


def _fold_constant(e: sympy.Expr) -> sympy.Expr:
    if e.free_symbols or e.is_Integer:
        return e
    return sympy.Integer(evaluate(e, {}))


@dataclass(frozen=True)
class Control:
    """The script to run as a candidate's control, the retrace mode, and its cache key."""

    source: str
    mode: str
    key: str


def control(candidate: Candidate, kind: BaselineKind) -> Control:
    """The control of a candidate, derived from its model (its script is not parsed again)."""
    if kind == "independent":
        return Control(candidate.source, "independent", "independent:" + candidate.key)
    twin = static_twin(candidate.repro)
    return Control(render(twin), "preserved", "static:" + canonical_key(twin))

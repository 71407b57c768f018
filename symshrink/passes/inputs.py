"""Drop what the slowness does not need: graph outputs (and the code only they used),
nodes (each replaced by its first operand), inputs.

The node-level reduction torch's fx_minifier does, on our model: fewer outputs leave dead
code, which goes; a node `y = f(x, ...)` bypassed leaves `x` where `y` was read (a
candidate whose shapes no longer fit fails to trace and is rejected); inputs forward no
longer reads can then go too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from symshrink.passes import Pass
from symshrink.passes.common import placeholders
from symshrink.repro import source
from symshrink.repro.model import Repro, TensorInput


@dataclass(frozen=True)
class DropOutput:
    index: int


@dataclass(frozen=True)
class DropInput:
    name: str


@dataclass(frozen=True)
class BypassNode:
    node: str
    operand: str


def output_edits(repro: Repro) -> list[DropOutput]:
    n = source.output_count(repro.module_source)
    return [DropOutput(i) for i in range(n)] if n > 1 else []


def rewrite_output_drops(repro: Repro, edits: Sequence[DropOutput]) -> Repro | None:
    code = source.drop_outputs(repro.module_source, [e.index for e in edits])
    if code is None:
        return None
    return repro.replace(module_source=code)


def bypass_edits(repro: Repro) -> list[BypassNode]:
    return [BypassNode(n, x) for n, x in source.bypassable(repro.module_source)]


def rewrite_bypasses(repro: Repro, edits: Sequence[BypassNode]) -> Repro | None:
    code = source.bypass(repro.module_source, [(e.node, e.operand) for e in edits])
    if code is None:
        return None
    return repro.replace(module_source=code)


def input_edits(repro: Repro) -> list[DropInput]:
    """Inputs whose placeholder forward never reads."""
    used = source.used_params(repro.module_source)
    return [DropInput(p) for p, _ in placeholders(repro) if p not in used]


def rewrite_input_drops(repro: Repro, edits: Sequence[DropInput]) -> Repro:
    names = {e.name for e in edits}
    inputs = tuple(x for p, x in placeholders(repro) if p not in names)
    storages_used = {x.storage for x in inputs if isinstance(x, TensorInput)}
    return repro.replace(
        inputs=inputs,
        storages=tuple(s for s in repro.storages if s.name in storages_used),
        module_source=source.drop_params(repro.module_source, names),
    )


DROP_OUTPUTS = Pass("drop-outputs", output_edits, rewrite_output_drops)
DROP_INPUTS = Pass("drop-inputs", input_edits, rewrite_input_drops)
BYPASS_NODES = Pass("bypass-nodes", bypass_edits, rewrite_bypasses)
PASSES: list[Pass[Any]] = [DROP_OUTPUTS, DROP_INPUTS, BYPASS_NODES]

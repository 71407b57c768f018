"""Drop what the slowness does not need: graph outputs (and the code only they used),
nodes (each replaced by its first operand), SymInt inputs that repeat another.

The node-level reduction torch's fx_minifier does, on our model: fewer outputs leave dead
code, which goes; a node `y = f(x, ...)` bypassed leaves `x` where `y` was read (a
candidate whose shapes no longer fit cannot trace: `shapes.untraceable` refuses it before
any test). Inputs forward no longer reads go in the same candidate (`normalize`). Two
SymInt inputs with one expression (`sym_size_int_64` and `sym_sum`, both the same sum)
are two placeholders the trace may treat apart: read as one, they are one candidate.

A node and the node it reads are also bypassed as one edit (`BypassPair`): slowness is
not monotone in the graph either. In a result of the 64-symbol seed, bypassing the `mul`
that feeds a `sum` alone took its ratio from 5.2x to 4.8x, the `sum` alone to 3.9x, both
at once to 6.3x (docs/benchmarks.md, the seed's section); single bypasses, each judged
fast, never reach the pair.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from symshrink.passes import Pass
from symshrink.passes.common import placeholders
from symshrink.repro import shapes, source
from symshrink.repro.model import Expr, Repro, SymIntInput


@dataclass(frozen=True)
class DropOutput:
    index: int


@dataclass(frozen=True)
class MergeInput:
    """Forward reads SymInt input `drop` as `keep`, an earlier one with the same expression."""

    drop: str
    keep: str


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
    """Nodes whose operand has their shape first (`mul(x, 1)`, `convert_element_type`):
    any set of them can go at once, where bypassing a node that changes the shape (an
    `unsqueeze`, a `view`) leaves a graph that seldom traces, so the search removes the
    former in large groups before it meets the latter. Of the latter, those whose graph
    still traces alone come first: a group of the rest is refused without a call, and
    the search would take it for a needed edit and go on one bypass per call."""
    env = shapes.values(repro)

    def keeps_shape(e: BypassNode) -> bool:
        node, operand = env.get(e.node), env.get(e.operand)
        return (
            isinstance(node, shapes.Tensor)
            and isinstance(operand, shapes.Tensor)
            and node.shape == operand.shape
            and None not in node.shape
        )

    def traces_alone(e: BypassNode) -> bool:
        rewritten = rewrite_bypasses(repro, [e])
        return rewritten is not None and shapes.untraceable(rewritten) is None

    edits = [BypassNode(n, x) for n, x in source.bypassable(repro.module_source)]
    return sorted(
        edits, key=lambda e: (not keeps_shape(e), not keeps_shape(e) and not traces_alone(e))
    )


def rewrite_bypasses(repro: Repro, edits: Sequence[BypassNode]) -> Repro | None:
    code = source.bypass(repro.module_source, [(e.node, e.operand) for e in edits])
    if code is None:
        return None
    return repro.replace(module_source=code)


@dataclass(frozen=True)
class BypassPair:
    """`outer` and `inner`, the node `outer` reads, bypassed at once: `outer`'s readers
    read `inner`'s operand."""

    outer: BypassNode
    inner: BypassNode


def bypass_pair_edits(repro: Repro) -> list[BypassPair]:
    """Each bypassable node that reads another bypassable node, with that node. A pair
    whose graph cannot trace is refused without a call (`Pass.apply`)."""
    nodes = {n: BypassNode(n, x) for n, x in source.bypassable(repro.module_source)}
    return [BypassPair(e, nodes[e.operand]) for e in nodes.values() if e.operand in nodes]


def rewrite_bypass_pairs(repro: Repro, edits: Sequence[BypassPair]) -> Repro | None:
    nodes = dict.fromkeys(node for e in edits for node in (e.outer, e.inner))
    return rewrite_bypasses(repro, list(nodes))


def merge_input_edits(repro: Repro) -> list[MergeInput]:
    """Each SymInt input whose expression an earlier SymInt input has, into the first."""
    first: dict[Expr, str] = {}
    edits = []
    for p, x in placeholders(repro):
        if isinstance(x, SymIntInput) and x.expr is not None:
            if x.expr in first:
                edits.append(MergeInput(p, first[x.expr]))
            else:
                first[x.expr] = p
    return edits


def rewrite_input_merges(repro: Repro, edits: Sequence[MergeInput]) -> Repro:
    reads = {e.drop: e.keep for e in edits}
    return repro.replace(
        inputs=tuple(x for p, x in placeholders(repro) if p not in reads),
        module_source=source.inline_params(repro.module_source, reads),
    )


DROP_OUTPUTS = Pass("drop-outputs", output_edits, rewrite_output_drops)
MERGE_INPUTS = Pass("merge-inputs", merge_input_edits, rewrite_input_merges)
BYPASS_NODES = Pass("bypass-nodes", bypass_edits, rewrite_bypasses)
BYPASS_PAIRS = Pass("bypass-pairs", bypass_pair_edits, rewrite_bypass_pairs)
PASSES: list[Pass[Any]] = [DROP_OUTPUTS, MERGE_INPUTS, BYPASS_NODES, BYPASS_PAIRS]

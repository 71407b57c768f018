"""What every pass needs: substitution across a whole model, normalization, validity, size."""

from __future__ import annotations

import logging
from collections.abc import Mapping

import sympy

from symshrink.errors import ExprError
from symshrink.expr import evaluate, free_symbol_names, op_count, substitute
from symshrink.repro import source
from symshrink.repro.model import Input, Repro, SymIntInput, TensorInput
from symshrink.repro.shapes import untraceable

log = logging.getLogger(__name__)


def substitute_model(repro: Repro, mapping: Mapping[str, sympy.Expr | int]) -> Repro:
    """Replace symbols everywhere in the model (pin to a value, merge into another)."""
    return repro.map_exprs(lambda e: substitute(e, mapping))


def normalize(repro: Repro) -> Repro | None:
    """Drop the inputs forward never reads (`without_dead_inputs`) and the hints of symbols
    nothing uses, and recompute SymInt hints from their expressions.

    Returns None when the edit made the model invalid: an expression that cannot be
    evaluated, or a value that crosses into 0/1 or below (sizes 0 and 1 specialize in
    torch, negative sizes are errors), which would change what the compile can prove.
    """
    repro = without_dead_inputs(repro)
    used: set[str] = set()
    for e in repro.all_exprs():
        used |= free_symbol_names(e)
    hints = {k: v for k, v in repro.hints.items() if k in used}
    inputs = []
    for x in repro.inputs:
        if isinstance(x, SymIntInput) and x.expr is not None and x.hint is not None:
            if not free_symbol_names(x.expr) <= hints.keys():
                return None
            try:
                value = evaluate(x.expr, hints)
            except ExprError:
                return None
            if value < 2 <= x.hint or value < 0:
                return None
            x = SymIntInput(x.name, value, x.expr)
        inputs.append(x)
    for _, t in repro.tensors():
        for e in t.shape:
            if not free_symbol_names(e) <= hints.keys():
                continue  # unbacked; left as written
            try:
                if evaluate(e, hints) < 0:
                    return None
            except ExprError:
                return None
    return repro.replace(hints=hints, inputs=tuple(inputs))


def without_dead_inputs(repro: Repro) -> Repro:
    """`repro` without the inputs its forward never reads (and their storages), nor the
    outputs that return an input unchanged while another output is computed.

    No edit of them can change the compile, so they are not candidates: an input returned
    as it came is no work for Inductor; a symbol that such a tensor carried and other inputs
    still use is carried by the retrace's wrapper instead (`runtime_spec.input_spec`), and
    one that nothing else uses goes with it."""
    passed = source.passthrough_outputs(repro.module_source)
    if passed and len(passed) < source.output_count(repro.module_source):
        dropped = source.drop_outputs(repro.module_source, passed)
        if dropped is not None:
            repro = repro.replace(module_source=dropped)
    pairs = placeholders(repro)
    read = source.used_params(repro.module_source)
    dead = {p for p, _ in pairs if p not in read}
    if not dead:
        return repro
    inputs = tuple(x for p, x in pairs if p not in dead)
    storages = {x.storage for x in inputs if isinstance(x, TensorInput)}
    return repro.replace(
        inputs=inputs,
        storages=tuple(s for s in repro.storages if s.name in storages),
        module_source=source.drop_params(repro.module_source, dead),
    )


def fits(model: Repro, before: Repro) -> bool:
    """False when `model`, made from `before`, cannot trace at its hints where `before`
    could (`shapes.untraceable`: a view that no longer fits, operands that no longer
    broadcast, ...), or a tensor dim crosses into 0/1 (`normalize` checks the SymInts).

    Such a candidate is not interesting, and an oracle call would compile to learn that.
    When the check finds `before` untraceable too, it models some op of this graph wrongly
    (`before` was judged interesting), so it objects to nothing."""
    if _specializes(model, before):
        return False
    why = untraceable(model)
    if why is None or untraceable(before) is not None:
        return True
    log.debug("not traceable: %s", why)
    return False


def _specializes(model: Repro, before: Repro) -> bool:
    """Some tensor input's dim is 0 or 1 at `model`'s hints and was not at `before`'s."""
    was = {x.name: x.shape for _, x in before.tensors()}
    for _, x in model.tensors():
        for e, old in zip(x.shape, was.get(x.name, ()), strict=False):
            if _value(e, model.hints) in (0, 1) and _value(old, before.hints) not in (0, 1):
                return True
    return False


def _value(e: sympy.Expr, hints: Mapping[str, int]) -> int | None:
    if not free_symbol_names(e) <= hints.keys():
        return None
    try:
        return evaluate(e, hints)
    except ExprError:
        return None


def placeholders(repro: Repro) -> list[tuple[str, Input]]:
    """(forward's parameter, its input) pairs; none when the graph code and load_args
    disagree on how many there are (then passes leave both alone)."""
    params = source.forward_params(repro.module_source)
    return list(zip(params, repro.inputs, strict=True)) if len(params) == len(repro.inputs) else []


def size(repro: Repro) -> tuple[int, ...]:
    """What the reducer minimizes, most important first; candidates must be strictly smaller.

    Free symbols, then expression operations, inputs, graph statements and outputs, and
    the sum of hints (smaller numbers read better and allocate less).
    """
    return (
        len(repro.hints),
        sum(op_count(e) for e in repro.input_exprs()),
        len(repro.inputs),
        source.forward_statement_count(repro.module_source),
        source.output_count(repro.module_source),
        sum(repro.hints.values()),
    )

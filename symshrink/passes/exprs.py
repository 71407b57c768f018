"""Simplify derived expressions: drop a term or factor, lift a child, fold to the value.

Two passes share these edits: `simplify-exprs` makes all but those that take out an
integer division, `lift-divisions` makes those, from the second round on (see
`division_edits`).

Edits name a subexpression of the current model (not a position), so the same
subexpression is rewritten the same way everywhere it occurs: a derived size that is both a
SymInt input and a tensor dimension stays one size. All edits of a subset apply in one
bottom-up rebuild, so nested edits compose.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import sympy

from symshrink.errors import ExprError
from symshrink.expr import (
    CeilDiv,
    FloorDiv,
    Mod,
    ModularIndexing,
    PythonMod,
    evaluate,
    free_symbol_names,
)
from symshrink.passes import Pass
from symshrink.passes.symbols import symbol_classes
from symshrink.repro.model import Repro


@dataclass(frozen=True)
class Drop:
    """Remove argument `index` of the Add or Mul `node`."""

    node: sympy.Expr
    index: int


@dataclass(frozen=True)
class Lift:
    """Replace function `node` by its argument `index`."""

    node: sympy.Expr
    index: int


@dataclass(frozen=True)
class Fold:
    """Replace `node` by its value at the hints."""

    node: sympy.Expr


ExprEdit = Drop | Lift | Fold


def subexpressions(repro: Repro) -> list[sympy.Expr]:
    """Distinct compound subexpressions with free symbols, outermost first, in input order.

    Storage sizes are not proposed on their own: they follow the tensors that use them
    (an edit of a shared subexpression still rewrites them too).
    """
    seen: dict[sympy.Expr, None] = {}
    for e in repro.input_exprs():
        for node in sympy.preorder_traversal(e):
            if not node.is_Atom and node.free_symbols and node not in seen:
                seen[node] = None
    return list(seen)


def edits(repro: Repro) -> list[ExprEdit]:
    """Each subexpression's drops, lifts and fold, but no drop of a term that is a pin in
    disguise (`_pins_only`): pin-symbols proves that symbol needed already."""
    out: list[ExprEdit] = []
    exprs = list(repro.input_exprs())
    for node in subexpressions(repro):
        if isinstance(node, sympy.Add | sympy.Mul):
            out.extend(
                Drop(node, i)
                for i in range(len(node.args))
                if not _pins_only(node, i, exprs, repro.hints)
            )
        else:
            out.extend(Lift(node, i) for i, a in enumerate(node.args) if a.free_symbols)
        out.append(Fold(node))
    return out


def _pins_only(
    node: sympy.Expr, index: int, exprs: list[sympy.Expr], hints: Mapping[str, int]
) -> bool:
    """Whether dropping argument `index` of `node` only removes a free symbol: the term
    holds one backed symbol (`s`, `2*s`) that occurs nowhere else in the model, neither in
    `node`'s other arguments nor outside `node`. Dropping it is then pinning that symbol up
    to a constant (its value leaves `node`, as pinning it adds its hint there), which
    pin-symbols tests on the same model."""
    names = free_symbol_names(node.args[index])
    if len(names) != 1 or not names <= hints.keys():
        return False
    (name,) = names
    others = (a for i, a in enumerate(node.args) if i != index)
    if any(name in free_symbol_names(a) for a in others):
        return False
    hidden = sympy.Dummy()
    return all(name not in free_symbol_names(e.xreplace({node: hidden})) for e in exprs)


def drop_classes(repro: Repro) -> list[list[ExprEdit]]:
    """Drops of alike symbols from one sum or product, each class in the order of `edits`.

    Where swapping two symbols maps the model onto itself (`symbols.symbol_classes`) and
    the node too, dropping the one's term is dropping the other's, renamed: which of them
    go does not matter, only how many, and the search cuts the class by count
    (`search.by_classes`) instead of proving each drop needed on its own."""
    alike = {name: i for i, cls in enumerate(symbol_classes(repro)) for name in cls}
    by_class: dict[tuple[sympy.Expr, sympy.Expr, int], list[Drop]] = {}
    for e in edits(repro):
        if isinstance(e, Drop):
            coeff, rest = e.node.args[e.index].as_coeff_Mul()
            if rest.is_Symbol and str(rest) in alike:
                by_class.setdefault((e.node, coeff, alike[str(rest)]), []).append(e)
    classes: list[list[ExprEdit]] = []
    for first, *rest in by_class.values():
        if rest:
            classes.append([first, *(e for e in rest if _swaps_onto_itself(first, e))])
    return classes


def _swaps_onto_itself(a: Drop, b: Drop) -> bool:
    """Whether swapping the symbols `a` and `b` drop maps their node onto itself."""
    x, y = (d.node.args[d.index].as_coeff_Mul()[1] for d in (a, b))
    return bool(a.node.xreplace({x: y, y: x}) == a.node)


def rewrite(repro: Repro, chosen: Sequence[ExprEdit]) -> Repro | None:
    drops: dict[sympy.Expr, set[int]] = {}
    replace: dict[sympy.Expr, ExprEdit] = {}
    for e in chosen:
        if isinstance(e, Drop):
            drops.setdefault(e.node, set()).add(e.index)
        elif e.node in replace:
            return None  # two different replacements of one node
        else:
            replace[e.node] = e
    if set(drops) & set(replace):
        return None
    if any(len(ix) >= len(node.args) for node, ix in drops.items()):
        return None  # nothing left of the sum or product

    memo: dict[sympy.Expr, sympy.Expr] = {}

    def rebuild(node: sympy.Expr) -> sympy.Expr:
        if node in memo:
            return memo[node]
        if node.is_Atom:
            return node
        edit = replace.get(node)
        if isinstance(edit, Fold):
            out: sympy.Expr = sympy.Integer(evaluate(node, repro.hints))
        elif isinstance(edit, Lift):
            out = rebuild(node.args[edit.index])
        else:
            args = [rebuild(a) for i, a in enumerate(node.args) if i not in drops.get(node, ())]
            out = node.func(*args) if args != list(node.args) else node
        memo[node] = out
        return out

    if any(free_symbol_names(e.node) - repro.hints.keys() for e in replace.values()):
        return None  # unbacked symbols have no value to fold to
    try:
        return repro.map_exprs(rebuild)
    except ExprError:
        return None  # folding divided by zero


DIVISIONS = (FloorDiv, ModularIndexing, PythonMod, Mod, CeilDiv)
"""The integer divisions: taking one out is the edit most likely to change why the compile
is slow (floor-division simplification is what drives sympy into polynomial gcds)."""


def _divisions(e: sympy.Basic) -> int:
    return sum(isinstance(node, DIVISIONS) for node in sympy.preorder_traversal(e))


def _takes_out_a_division(edit: ExprEdit) -> bool:
    """Whether `edit` leaves fewer divisions than its node holds: a division lifted to an
    argument or folded to its value, or a term, argument or node that holds one gone."""
    if isinstance(edit, Drop):
        return _divisions(edit.node.args[edit.index]) > 0
    if isinstance(edit, Lift):
        return _divisions(edit.node) > _divisions(edit.node.args[edit.index])
    return _divisions(edit.node) > 0


def simplify_edits(repro: Repro) -> list[ExprEdit]:
    """`edits` but those that take out a division (`division_edits` makes them)."""
    return [e for e in edits(repro) if not _takes_out_a_division(e)]


def division_edits(repro: Repro) -> list[ExprEdit]:
    """The edits that take out a division, for a pass that skips the first round.

    In the first round the pins leave the model at the edge, where bisection batches many
    edits into one candidate judged by the noise; a batch that took the `//160` with it was
    kept as still slow, and the result then reproduced weakly through torch.compile. From
    the second round on, each such edit is its own candidate, asked of a model the other
    passes have already made small."""
    return [e for e in edits(repro) if _takes_out_a_division(e)]


SIMPLIFY = Pass("simplify-exprs", simplify_edits, rewrite, classes=drop_classes)
LIFT_DIVISIONS = Pass("lift-divisions", division_edits, rewrite, later=True)
PASSES = [SIMPLIFY, LIFT_DIVISIONS]

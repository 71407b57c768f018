"""The width family of a repro: its widest sum cut to, or extended to, N free symbols.

The pathologies we chase grow with the number of terms in a sum of sizes, so a repro's
widest sum is the knob: `report` plots time against it and `corpus sweep` finds the
fewest symbols at which an entry is still slow. Where no expression holds a sum (the
graph forms it, as a cat of dynamic inputs does), the knob is the free symbols
themselves: the family can then only be cut.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import sympy

from symshrink.errors import UsageError
from symshrink.expr import symbol
from symshrink.passes.common import normalize, substitute_model
from symshrink.repro.model import Repro

__all__ = ["at_width", "first_clear", "knob", "parse_widths", "widest_sum", "width"]


def widest_sum(repro: Repro) -> sympy.Add | None:
    """The sum with the most free-symbol terms: the knob these pathologies grow with."""
    best, best_n = None, 0
    for e in repro.all_exprs():
        for node in sympy.preorder_traversal(e):
            if isinstance(node, sympy.Add):
                n = len(_terms(node, repro))
                if n > best_n:
                    best, best_n = node, n
    return best


def knob(repro: Repro) -> list[sympy.Symbol]:
    """The symbols the width counts: the widest sum's terms, else every free symbol."""
    return _knob(repro, widest_sum(repro))


def _knob(repro: Repro, add: sympy.Add | None) -> list[sympy.Symbol]:
    if add is not None:
        return _terms(add, repro)
    return sorted((symbol(name) for name in repro.hints), key=str)


def width(repro: Repro) -> int:
    """How many symbols the knob has (0: no free symbol at all)."""
    return len(knob(repro))


def _terms(add: sympy.Add, repro: Repro) -> list[sympy.Symbol]:
    """The free symbols that are terms of `add` up to an integer factor (s, -s, 3*s)."""
    found = set()
    for term in add.args:
        coeff, rest = term.as_coeff_Mul()
        if coeff.is_Integer and rest.is_Symbol and rest.name in repro.hints:
            found.add(rest)
    return sorted(found, key=str)


def at_width(repro: Repro, width: int) -> Repro | None:
    """`repro` with its knob cut to, or its widest sum extended to, `width` symbols.

    Cutting pins the dropped symbols to their hints everywhere; extending appends fresh
    symbols with distinct hints (never 0 or 1) to the widest sum wherever it occurs. None
    when `width` < 1, when there is nothing to cut or no sum to extend, or when the
    result is invalid (see `normalize`).
    """
    add = widest_sum(repro)
    terms = _knob(repro, add)
    if width < 1 or not terms:
        return None
    if width <= len(terms):
        pins = {s.name: repro.hints[s.name] for s in terms[width:]}
        return normalize(substitute_model(repro, pins))
    if add is None:
        return None
    fresh = _fresh_symbols(repro, width - len(terms), start=repro.hints[terms[-1].name])
    wider = sympy.Add(*add.args, *(symbol(name) for name in fresh))
    model = repro.map_exprs(lambda e: e.xreplace({add: wider}))
    return normalize(model.replace(hints={**repro.hints, **fresh}))


def first_clear(repro: Repro, clear: Callable[[Repro], bool], upto: int) -> int | None:
    """The smallest width from `repro`'s own up to `upto` whose member `clear` says yes to,
    one symbol at a time; None where none does, where `repro` has no width, or past a width
    with no member (no sum to extend)."""
    own = width(repro)
    for w in range(own, upto + 1) if own else ():
        member = repro if w == own else at_width(repro, w)
        if member is None:
            return None
        if clear(member):
            return w
    return None


def _fresh_symbols(repro: Repro, n: int, start: int) -> dict[str, int]:
    """`n` new symbol names (`sK`, K past every used number) with hints used by nothing."""
    numbers = [int(m[1]) for name in repro.hints if (m := re.fullmatch(r"[a-z]+(\d+)", name))]
    taken = set(repro.hints.values())
    out: dict[str, int] = {}
    k, hint = max(numbers, default=0) + 1, max(start, 2)
    while len(out) < n:
        hint += 3
        if hint not in taken:
            out[f"s{k}"] = hint
            taken.add(hint)
            k += 1
    return out


def parse_widths(text: str) -> tuple[int, ...]:
    """`"2,4,8"` -> (2, 4, 8); a UsageError for anything but positive integers."""
    try:
        widths = tuple(int(w) for w in text.split(",") if w.strip())
    except ValueError:
        widths = ()
    if not widths or min(widths) < 1:
        raise UsageError(f"widths must be positive integers separated by commas, got {text!r}")
    return widths

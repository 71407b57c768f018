"""Known or new: a repro matched against the corpus by what its pathology is made of.

Two repros of one pathology differ in width, hints, symbol names and in what a reduction
happened to keep. What stays is

- the *shape* of the symbolic expressions, symbols and constants abstracted: every symbol
  is `s`, every constant `c`, a sum of several non-constant terms is `Σ` of the shapes of
  its terms (however many), constant terms and factors go; so `(s0 + ... + s15)//160 + 866`
  and `((3*s21 + s53 + 1012)//160)` are both `FloorDiv(Σ(s),c)`. What torch's writer puts
  on the inputs and what the graph computes from them (FX writes `sym_sum // 160` as
  Python arithmetic in a forward graph) count alike;
- which graph ops take those values (`view` of `FloorDiv(Σ,c)` next to `Σ`: "FloorDiv of
  a sum next to the sum, in a view");
- where the compile spends its time: the hot spots with their shares of the samples, and
  the phase the result is slow in (measured, so known for a minimize run and a corpus
  entry, not for a bare script).

Each is a similarity from 0 to 1: expression shapes and graph uses as a Jaccard index of
their productions (a node's head with its children's heads) and lineages (a node's head
with each head below it), each weighted by how rare it is in the corpus (a sum of symbols
is in every entry and tells little; `PythonMod(Σ,c)` in a `pad` tells a lot); hot spots
as the overlap of their shares, halved when the slow phases differ. The score is their
weighted geometric mean over what both sides have: a match needs all of them (the same
shape slow somewhere else is not the same pathology), and a score never rests on
something unmeasured. A repro and its entry are compared both ways that make sense (the
result and the original against the entry's minimal script and its original), and the
best pair counts: an entry's original is the same family at its own width, its minimal
script what one reduction kept.

Nothing here imports torch or runs anything.
"""

from __future__ import annotations

import ast
import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

import sympy

from symshrink.errors import ExprError
from symshrink.expr import OP_NAMES, FloorDiv, Max, Min, Mod, PythonMod, fold
from symshrink.repro.model import Repro, SymIntInput, TensorInput
from symshrink.repro.parse import parse_file
from symshrink.repro.source import forward_body, forward_params

if TYPE_CHECKING:
    from symshrink.corpus import Entry
    from symshrink.oracle.calibrate import Calibration
    from symshrink.records import RunRecord

__all__ = [
    "KNOWN_AT",
    "WEIGHTS",
    "Features",
    "Scored",
    "Shape",
    "Spots",
    "entry_features",
    "features",
    "rank",
    "run_spots",
]

WEIGHTS = {"exprs": 0.3, "graph": 0.4, "spots": 0.3}
"""How much each part counts, over the parts both sides have."""

KNOWN_AT = 0.6
"""The score from which a repro is that entry's pathology again. Fresh fixtures of the ten
corpus families at other widths and hints score 1.0 against their entry (against its
minimal script alone 0.36-1.0, its entry first in 9 of 10), seven families the corpus
lacks at most 0.45, and each corpus family with its own entry left out at most 0.42
(`tests/test_match.py`, shapes only: no hot spot measured)."""

PHASE_MISMATCH = 0.5  # the hot-spot similarity of two results slow in different phases


# ------------------------------------------------------------------------------ shapes


@dataclass(frozen=True, order=True)
class Shape:
    """An expression with symbols (`s`) and constants (`c`) abstracted; `Σ` a sum of several
    non-constant terms (its children a set: any width is the same sum), `×` a product."""

    head: str
    args: tuple[Shape, ...] = ()

    @property
    def label(self) -> str:
        return self.head + (f"({','.join(a.label for a in self.args)})" if self.args else "")

    @property
    def production(self) -> str:
        """The head and its children's heads: what two reductions of one shape share."""
        return self.head + (f"({','.join(a.head for a in self.args)})" if self.args else "")

    def productions(self) -> Iterable[str]:
        """Every compound node's production, this one's first."""
        if self.args:
            yield self.production
            for a in self.args:
                yield from a.productions()

    def lineage(self) -> Iterable[str]:
        """`A>B` for every node A and every non-constant node B below it: what stays when a
        reduction drops the nodes between them (`PythonMod(Σ(s,×(Σ,Σ)),c)` and
        `PythonMod(×(Σ,Σ),c)` share `PythonMod>×`)."""
        for a in self.args:
            for below in a.heads():
                if below != CONST.head:
                    yield f"{self.head}>{below}"
            yield from a.lineage()

    def heads(self) -> Iterable[str]:
        yield self.head
        for a in self.args:
            yield from a.heads()


CONST, SYMBOL = Shape("c"), Shape("s")
SUM = Shape("Σ")  # in the loose shape: a sum of symbols of any width, a symbol included


def _add(*terms: Shape) -> Shape:
    varying = [t for t in terms if t != CONST]
    if len(varying) <= 1:
        return varying[0] if varying else CONST
    children = tuple(sorted(set(varying)))
    return SUM if children == (SUM,) else Shape("Σ", children)


def _mul(*factors: Shape) -> Shape:
    varying = sorted(f for f in factors if f != CONST)
    if not varying:
        return CONST
    return varying[0] if len(varying) == 1 else Shape("×", tuple(varying))


def _node(name: str, *args: object) -> Shape:
    return Shape(name, tuple(a for a in args if isinstance(a, Shape)))


_SHAPE_OPS: dict[str, Callable[..., Shape]] = {
    **{name: partial(_node, name) for name in OP_NAMES},
    "Integer": lambda _: CONST,
    "Boolean": lambda _: CONST,
    "Add": _add,
    "Mul": _mul,
    "Piecewise": lambda *pairs: Shape("Piecewise", tuple(s for pair in pairs for s in pair)),
}


def shape(expr: sympy.Basic, loose: bool = False) -> Shape:
    """`expr` with its symbols and constants abstracted (ExprError for an unknown node).
    `loose`: a symbol is a sum of width one, so a sum a reduction cut to one symbol keeps
    its shape (`×(s,Σ(s))` is `×(Σ,Σ)` loosely)."""
    return fold(expr, lambda _: SUM if loose else SYMBOL, _SHAPE_OPS)


# ------------------------------------------------------------------- the graph's values

# Graph ops under one name: a decomposition or an alias of the same use.
_SYNONYMS = {
    "iota": "arange",
    "reshape": "view",
    "_unsafe_view": "view",
    "constant_pad_nd": "pad",
    "slice_scatter": "slice",
}
_INT_CALLS = {
    "sym_sum": lambda *args: sympy.Add(*args),
    "sym_max": Max,
    "sym_min": Min,
}


def _op_name(func: ast.expr) -> str | None:
    """`torch.ops.aten.view.default` -> `view`; `torch.sym_sum` -> `sym_sum`."""
    parts: list[str] = []
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    if isinstance(func, ast.Name):
        parts.append(func.id)
    parts.reverse()
    if parts[:2] == ["torch", "ops"] and len(parts) >= 4:
        name = parts[3]
    elif parts:
        name = parts[-1]
    else:
        return None
    return _SYNONYMS.get(name, name)


class _Values:
    """What forward's statements compute as SymInt expressions, from the inputs' own, and
    which graph ops take them (FX writes SymInt arithmetic as Python operators and
    `torch.sym_sum`, sizes as `torch.ops.aten.sym_size.int`)."""

    def __init__(self, repro: Repro) -> None:
        self.ints: dict[str, sympy.Expr] = {}
        self.shapes: dict[str, tuple[sympy.Expr, ...]] = {}
        params = forward_params(repro.module_source)
        for name, x in zip(params, repro.inputs, strict=False):
            if isinstance(x, SymIntInput) and x.expr is not None:
                self.ints[name] = x.expr
            elif isinstance(x, TensorInput):
                self.shapes[name] = x.shape
        self.computed: list[sympy.Expr] = []
        self.uses: list[tuple[str, tuple[sympy.Expr, ...]]] = []  # an op, what it takes
        for stmt in forward_body(repro.module_source):
            value = stmt.value if isinstance(stmt, ast.Assign | ast.Return) else None
            if value is None:
                continue
            result = self.value(value)
            if result is not None and isinstance(stmt, ast.Assign):
                self.computed.append(result)
                for target in stmt.targets:
                    if isinstance(target, ast.Name):
                        self.ints[target.id] = result

    def value(self, node: ast.expr) -> sympy.Expr | None:
        """The SymInt expression `node` computes; None for a tensor (its SymInt arguments
        recorded as uses) or anything else."""
        if isinstance(node, ast.Name):
            return self.ints.get(node.id)
        if isinstance(node, ast.Constant):
            ok = isinstance(node.value, int) and not isinstance(node.value, bool)
            return sympy.Integer(node.value) if ok else None
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            inner = self.value(node.operand)
            return -inner if inner is not None else None
        if isinstance(node, ast.BinOp):
            return self._binop(node)
        if isinstance(node, ast.Call):
            return self._call(node)
        return None

    def _binop(self, node: ast.BinOp) -> sympy.Expr | None:
        a, b = self.value(node.left), self.value(node.right)
        if a is None or b is None:
            return None
        if isinstance(node.op, ast.Add):
            return a + b
        if isinstance(node.op, ast.Sub):
            return a - b
        if isinstance(node.op, ast.Mult):
            return a * b
        if isinstance(node.op, ast.FloorDiv):
            return FloorDiv(a, b)
        if isinstance(node.op, ast.Mod):
            # torch's `%` is PythonMod where it cannot prove the dividend non-negative
            return PythonMod(a, b) if _maybe_negative(a) else Mod(a, b)
        return None

    def _call(self, node: ast.Call) -> sympy.Expr | None:
        name = _op_name(node.func)
        if name == "sym_size" and len(node.args) == 2:
            tensor, dim = node.args
            dims = self.shapes.get(tensor.id) if isinstance(tensor, ast.Name) else None
            if dims is not None and isinstance(dim, ast.Constant) and isinstance(dim.value, int):
                return dims[dim.value] if -len(dims) <= dim.value < len(dims) else None
            return None
        if name in _INT_CALLS:
            first = node.args[0] if node.args else None
            items = first.elts if isinstance(first, ast.List | ast.Tuple) else node.args
            values = [self.value(a) for a in items]
            if values and all(v is not None for v in values):
                return _INT_CALLS[name](*values)
            return None
        if name is not None:
            taken = [self.value(a) for a in _flat([*node.args, *(k.value for k in node.keywords)])]
            derived = [v for v in taken if v is not None and v.free_symbols and not v.is_Symbol]
            if derived:
                self.uses.append((name, tuple(derived)))
        return None


def _flat(nodes: Sequence[ast.expr]) -> Iterable[ast.expr]:
    for n in nodes:
        if isinstance(n, ast.List | ast.Tuple):
            yield from _flat(n.elts)
        else:
            yield n


def _maybe_negative(expr: sympy.Expr) -> bool:
    """A negative coefficient anywhere (symbols are positive sizes)."""
    return any(n.is_Number and n.is_negative for n in sympy.preorder_traversal(expr))


# ----------------------------------------------------------------------------- features


@dataclass(frozen=True)
class Spots:
    """Where a compile spends its time: hot spots with their shares of the samples (the
    original's, at calibration), the result's hottest spots by name, its slow phase."""

    shares: Mapping[str, float] = field(default_factory=dict)
    names: tuple[str, ...] = ()
    phase: str | None = None

    @property
    def known(self) -> bool:
        return bool(self.shares or self.names)


@dataclass(frozen=True)
class Features:
    """What a repro's pathology is made of: the productions of its symbolic expressions,
    the graph ops that take them (`op:production`), and a text for people."""

    exprs: frozenset[str]
    graph: frozenset[str]
    text: str


def features(repro: Repro) -> Features:
    """The model's expression shapes and graph uses; nothing is executed. Loose shapes
    count beside the strict ones, marked `~`."""
    values = _Values(repro)
    exprs: set[str] = set()
    for loose, mark in ((False, ""), (True, "~")):
        for s in _shapes((*repro.input_exprs(), *values.computed), loose):
            exprs.update(mark + f for f in (*s.productions(), *s.lineage()))
    uses: dict[str, set[str]] = {}
    graph: set[str] = set()
    for op, taken in values.uses:
        for loose, mark in ((False, ""), (True, "~")):
            compound = [s for s in _shapes(taken, loose) if s.args]
            together = sorted({s.production for s in compound})
            for s in compound:
                graph.update((f"{mark}{op}:{s.production}", f"{mark}{op}:{s.head}"))
                if not loose:
                    uses.setdefault(s.production, set()).add(op)
            if len(together) > 1:  # `view` of FloorDiv(Σ,c) next to Σ: one feature more
                graph.add(f"{mark}{op}:{'+'.join(together)}")
    text = _describe(_shapes((*repro.input_exprs(), *values.computed), False), uses)
    return Features(frozenset(exprs), frozenset(graph), text)


def _shapes(exprs: Iterable[sympy.Basic], loose: bool) -> list[Shape]:
    """The shapes of those `exprs` that have one."""
    out = []
    for e in exprs:
        try:
            out.append(shape(e, loose))
        except ExprError:
            continue
    return out


def _describe(shapes: Sequence[Shape], uses: Mapping[str, set[str]]) -> str:
    """`FloorDiv(Σ(s),c) in arange, view; Σ(s) in view`: the widest shapes first, where
    the graph takes them."""
    compound = sorted({s for s in shapes if s.args}, key=lambda s: (-len(s.label), s.label))
    kept = [s for s in compound if not any(s.label in o.label and s != o for o in compound)]
    parts = []
    for s in kept[:4]:
        ops = sorted(uses.get(s.production, ()))
        parts.append(s.label + (f" in {', '.join(ops)}" if ops else ""))
    return "; ".join(parts) or "bare symbols only"


# ------------------------------------------------------------------------------ scoring


@dataclass(frozen=True)
class Scored:
    """One corpus entry scored against a repro: the score and its parts (None: a part one
    side does not have, left out of the score)."""

    entry: str
    score: float
    parts: Mapping[str, float | None]
    text: str  # the entry's shape, for people


@dataclass(frozen=True)
class _Entry:
    name: str
    models: tuple[Features, ...]
    spots: Spots


def _weighted_jaccard(a: frozenset[str], b: frozenset[str], w: Mapping[str, float]) -> float:
    unseen = max(w.values(), default=1.0)  # a feature no entry has: as rare as can be
    total = sum(w.get(f, unseen) for f in a | b)
    return sum(w.get(f, unseen) for f in a & b) / total if total else 0.0


def _spot_similarity(a: Spots, b: Spots) -> float | None:
    """The overlap of the originals' hot-spot shares (both sampled at calibration, many
    samples), else of the results' hottest names weighted by rank (one run each: its tail
    is noise); halved for results slow in different phases. None unless both measured."""
    if a.shares and b.shares:
        similarity = _overlap(a.shares, b.shares)
    elif a.names and b.names:
        similarity = _overlap(_ranked(a.names), _ranked(b.names))
    else:
        return None
    if a.phase and b.phase and a.phase != b.phase:
        similarity *= PHASE_MISMATCH
    return similarity


def _overlap(a: Mapping[str, float], b: Mapping[str, float]) -> float:
    """The histogram intersection of two weightings, each normalized to 1."""
    ta, tb = sum(a.values()), sum(b.values())
    return sum(min(a[n] / ta, b[n] / tb) for n in a.keys() & b) if ta and tb else 0.0


def _ranked(names: Sequence[str]) -> dict[str, float]:
    return {n: 1 / (i + 1) for i, n in enumerate(names)}


def _rarity(entries: Sequence[_Entry]) -> dict[str, float]:
    """Each feature's weight, its inverse document frequency: log((N + 1) / the number of
    entries that have it); one no entry has weighs log(N + 1)."""
    df: Counter[str] = Counter()
    for e in entries:
        df.update({f for m in e.models for f in (*m.exprs, *m.graph)})
    n = len(entries) + 1
    return {f: math.log(n / k) for f, k in df.items()}


def _score(
    a: Features, b: Features, spots: float | None, w: Mapping[str, float]
) -> tuple[float, dict[str, float | None]]:
    parts: dict[str, float | None] = {
        "exprs": _weighted_jaccard(a.exprs, b.exprs, w) if a.exprs or b.exprs else None,
        "graph": _weighted_jaccard(a.graph, b.graph, w) if a.graph or b.graph else None,
        "spots": spots,
    }
    known = {k: v for k, v in parts.items() if v is not None}
    weight = sum(WEIGHTS[k] for k in known)
    if not weight or not all(known.values()):
        return 0.0, parts
    score = math.exp(sum(WEIGHTS[k] * math.log(v) for k, v in known.items()) / weight)
    return score, parts


def rank(
    models: Sequence[Features],
    spots: Spots,
    entries: Sequence[tuple[str, Sequence[Features], Spots]],
) -> list[Scored]:
    """Every entry scored against the repro (`models`: the result and its original), best
    first; each entry by its best pair of a model of the repro and one of its own."""
    table = [_Entry(name, tuple(ms), s) for name, ms, s in entries]
    w = _rarity(table)
    out = []
    for e in table:
        spot = _spot_similarity(spots, e.spots)
        best: tuple[float, dict[str, float | None]] | None = None
        for a in models:
            for b in e.models:
                scored = _score(a, b, spot, w)
                if best is None or scored[0] > best[0]:
                    best = scored
        if best is not None:
            out.append(Scored(e.name, round(best[0], 3), best[1], e.models[0].text))
    return sorted(out, key=lambda c: (-c.score, c.entry))


# ------------------------------------------------------------------ runs and entries


def run_spots(record: RunRecord, calibration: Calibration | None) -> Spots:
    """A minimize run's hot spots: the original's shares at calibration, the result's
    hottest names and slow phase at re-verification."""
    reference = calibration.signature() if calibration is not None else None
    return Spots(
        shares=dict(reference.spots) if reference is not None else {},
        names=record.hot_spots or (),
        phase=record.slow_phase,
    )


def entry_features(entry: Entry) -> tuple[str, list[Features], Spots]:
    """A corpus entry as `rank` takes it: its minimal repro's and its original's
    features (the original where the entry keeps a copy), and its recorded hot spots."""
    case = entry.case
    models = [features(parse_file(entry.repro))]
    if case.origin.file is not None and (entry.path / case.origin.file).is_file():
        models.append(features(parse_file(entry.path / case.origin.file)))
    spots = Spots(
        shares=dict(case.reference.spots) if case.reference is not None else {},
        names=case.signature or (),
        phase=case.slow_phase,
    )
    return entry.name, models, spots

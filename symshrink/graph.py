"""The dependency graph of a repro: free symbols -> the inputs whose expressions use them.

A derived view of a `Repro`, rebuilt when needed, never edited: passes read it to order
their work (symbols nothing uses go first, widely shared ones last) and reports draw it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import networkx as nx

from symshrink.expr import free_symbol_names, op_count, torch_str
from symshrink.repro.model import Repro, Storage, SymIntInput, TensorInput


@dataclass(frozen=True)
class Width:
    """How wide a repro is: what the reducer shrinks and reports show."""

    free_symbols: int
    symints: int
    derived_symints: int
    expr_ops: int
    max_symbols_per_expr: int

    def as_dict(self) -> dict[str, int]:
        return dict(self.__dict__)


def input_node(index: int) -> str:
    return f"in{index}"


def storage_node(name: str) -> str:
    return f"storage:{name}"


class SymGraph:
    """Free symbol nodes (kind='symbol') point at input and storage nodes that use them."""

    def __init__(self, repro: Repro) -> None:
        self.repro = repro

    @cached_property
    def graph(self) -> nx.DiGraph:
        g = nx.DiGraph()
        for name, hint in self.repro.hints.items():
            g.add_node(name, kind="symbol", hint=hint, label=f"{name} = {hint}")
        for i, x in enumerate(self.repro.inputs):
            exprs = list(x.exprs())
            g.add_node(input_node(i), kind=_kind(x), name=x.name, label=_label(x))
            for e in exprs:
                for s in free_symbol_names(e):
                    g.add_edge(s, input_node(i))
            if isinstance(x, TensorInput):
                g.add_edge(storage_node(x.storage), input_node(i))
        for s in self.repro.storages:
            g.add_node(storage_node(s.name), kind="storage", label=_storage_label(s))
            for sym in free_symbol_names(s.nbytes):
                g.add_edge(sym, storage_node(s.name))
        return g

    def symbols_of(self, index: int) -> frozenset[str]:
        """Free symbols used by input `index` (its own expressions only)."""
        out: frozenset[str] = frozenset()
        for e in self.repro.inputs[index].exprs():
            out |= free_symbol_names(e)
        return out

    def users(self, symbol: str) -> list[int]:
        """Placeholder indices of the inputs whose expressions use `symbol`."""
        return sorted(int(n[2:]) for n in self.graph.successors(symbol) if n.startswith("in"))

    def unused_symbols(self) -> list[str]:
        """Free symbols with a hint that no expression uses."""
        return [s for s in self.repro.hints if self.graph.out_degree(s) == 0]

    def topological_order(self) -> list[str]:
        """All nodes, symbols before the storages and inputs that use them (stable)."""
        return list(nx.lexicographical_topological_sort(self.graph))

    def symbols_by_use(self) -> list[str]:
        """Free symbols, least used first: the cheapest to pin come first."""
        return sorted(self.repro.hints, key=lambda s: (self.graph.out_degree(s), s))

    def width(self) -> Width:
        exprs = list(self.repro.input_exprs())
        symints = [x for _, x in self.repro.symints()]
        return Width(
            free_symbols=len(self.repro.hints),
            symints=len(symints),
            derived_symints=sum(
                1
                for x in symints
                if x.expr is not None and not x.expr.is_Symbol and x.expr.free_symbols
            ),
            expr_ops=sum(op_count(e) for e in exprs),
            max_symbols_per_expr=max((len(free_symbol_names(e)) for e in exprs), default=0),
        )

    def to_dot(self) -> str:
        lines = ["digraph symshrink {", "  rankdir=LR;"]
        for n, data in self.graph.nodes(data=True):
            shape = {"symbol": "ellipse", "storage": "folder"}.get(data.get("kind"), "box")
            lines.append(f'  "{n}" [label={_quote(data.get("label", n))}, shape={shape}];')
        for a, b in self.graph.edges:
            lines.append(f'  "{a}" -> "{b}";')
        lines.append("}")
        return "\n".join(lines) + "\n"

    def to_mermaid(self) -> str:
        lines = ["graph LR"]
        ids = {n: f"n{i}" for i, n in enumerate(self.graph.nodes)}
        for n, data in self.graph.nodes(data=True):
            label = _mermaid_text(data.get("label", n))
            if data.get("kind") == "symbol":
                lines.append(f'  {ids[n]}(["{label}"])')
            else:
                lines.append(f'  {ids[n]}["{label}"]')
        for a, b in self.graph.edges:
            lines.append(f"  {ids[a]} --> {ids[b]}")
        return "\n".join(lines) + "\n"


def _kind(x: object) -> str:
    if isinstance(x, TensorInput):
        return "tensor"
    if isinstance(x, SymIntInput):
        return "symint"
    return "other"


def _label(x: object) -> str:
    if isinstance(x, TensorInput):
        return f"{x.name}: ({', '.join(torch_str(e) for e in x.shape)})"
    if isinstance(x, SymIntInput):
        expr = torch_str(x.expr) if x.expr is not None else "?"
        return f"{x.name} = {expr}"
    return f"{x.name} ({x.kind})"  # type: ignore[attr-defined]


def _storage_label(s: Storage) -> str:
    return f"{s.name}: {torch_str(s.nbytes)} bytes"


def _mermaid_text(text: str) -> str:
    """Mermaid entity codes for what its renderers would take as syntax or HTML."""
    return text.replace('"', "#quot;").replace("<", "#lt;").replace(">", "#gt;")


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'

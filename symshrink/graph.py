"""The dependency graph of a repro: free symbols -> the inputs whose expressions use them.

A derived view of a `Repro`, rebuilt when needed, never edited: passes read it to order
their work (symbols nothing uses go first, widely shared ones last) and reports draw it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import networkx as nx
import sympy

from symshrink.expr import free_symbol_names, op_count, symbol, torch_str
from symshrink.repro.model import Input, Repro, Storage, SymIntInput, TensorInput


@dataclass(frozen=True)
class Sizes:
    """A repro's sizes: what the reducer shrinks and reports show (the width of
    `widths.py` is another thing: the terms of the widest sum)."""

    free_symbols: int
    symints: int
    derived_symints: int
    expr_ops: int
    max_symbols_per_expr: int

    def as_dict(self) -> dict[str, int]:
        return dict(self.__dict__)


# Free symbols feeding the same derived inputs are drawn as one node from this many on;
# fewer stay readable one by one, each with its hint.
WIDE = 6


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
                for sym in free_symbol_names(e):
                    g.add_edge(sym, input_node(i))
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

    def sizes(self) -> Sizes:
        exprs = list(self.repro.input_exprs())
        symints = [x for _, x in self.repro.symints()]
        return Sizes(
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

    def view(self, *, full: bool = False) -> nx.DiGraph:
        """What the drawings show. `full`: every node. Otherwise, so that a 16-symbol sum is
        a handful of nodes and not a hairball, storages are left out (their sizes repeat
        their tensors'), WIDE or more free symbols feeding the same derived inputs become one
        node, and the other inputs using only such groups one node per kind and groups; a
        merged node's `members` are the nodes it stands for."""
        if full:
            return self.graph
        g = self.graph.subgraph(n for n, kind in self.graph.nodes(data="kind") if kind != "storage")
        derived = {input_node(i) for i, x in enumerate(self.repro.inputs) if _derived(x)}
        groups = self._symbol_groups(g, derived)
        groups |= _input_groups(g, derived, _drawn_as(groups))
        drawn_as = _drawn_as(groups)
        sums = {frozenset(d["members"]): d["sum"] for d in groups.values() if d.get("sum")}
        out = nx.DiGraph()
        for n, data in g.nodes(data=True):
            m = drawn_as.get(n, n)
            if m in out:
                continue
            if n in derived and sums:  # its expressions with each grouped sum named
                data = {**data, "label": _label(self.repro.inputs[int(n[2:])], sums)}
            out.add_node(m, **groups.get(m, data))
        out.add_edges_from((drawn_as.get(a, a), drawn_as.get(b, b)) for a, b in g.edges)
        return out

    def _symbol_groups(self, g: nx.DiGraph, derived: set[str]) -> dict[str, dict[str, Any]]:
        """WIDE or more free symbols with the same derived users, as one node each; a group
        whose symbols are a sum in their users' expressions gets a name, `sum`: Σ and
        their number (`Σ64`), primed where two such groups are as wide."""
        by_users: dict[frozenset[str], list[str]] = defaultdict(list)
        for s in self.repro.hints:
            if users := frozenset(g.successors(s)) & derived:
                by_users[users].append(s)
        groups = {}
        named: set[str] = set()
        for users, symbols in by_users.items():
            if len(symbols) < WIDE:
                continue
            what, name = f"{len(symbols)} symbols", None
            if self._is_a_sum(symbols, users):
                name = f"Σ{len(symbols)}"
                while name in named:
                    name += "'"
                named.add(name)
                what = f"{name}, {what}"
            group = _group("symbol", what, symbols, symbols)
            groups[f"symbols:{symbols[0]}"] = {**group, "sum": name}
        return groups

    def _is_a_sum(self, symbols: list[str], users: frozenset[str]) -> bool:
        """Whether `symbols` are those of a sum in one of the `users`' expressions."""
        names = frozenset(symbols)
        return any(
            isinstance(node, sympy.Add) and free_symbol_names(node) == names
            for user in users
            for e in self.repro.inputs[int(user[2:])].exprs()
            for node in sympy.preorder_traversal(e)
        )

    def to_dot(self, *, full: bool = False) -> str:
        lines = ["digraph symshrink {", "  rankdir=LR;"]
        g = self.view(full=full)
        for n, data in g.nodes(data=True):
            shape = {"symbol": "ellipse", "storage": "folder"}.get(data.get("kind"), "box")
            lines.append(f'  "{n}" [label={_quote(data.get("label", n))}, shape={shape}];')
        for a, b in g.edges:
            lines.append(f'  "{a}" -> "{b}";')
        lines.append("}")
        return "\n".join(lines) + "\n"

    def to_mermaid(self, *, full: bool = False) -> str:
        lines = ["graph LR"]
        g = self.view(full=full)
        ids = {n: f"n{i}" for i, n in enumerate(g.nodes)}
        for n, data in g.nodes(data=True):
            label = _mermaid_text(data.get("label", n))
            if data.get("kind") == "symbol":
                lines.append(f'  {ids[n]}(["{label}"])')
            else:
                lines.append(f'  {ids[n]}["{label}"]')
        for a, b in g.edges:
            lines.append(f"  {ids[a]} --> {ids[b]}")
        return "\n".join(lines) + "\n"


_PLURAL = {"tensor": "tensors", "symint": "SymInts"}


def _input_groups(
    g: nx.DiGraph, derived: set[str], drawn_as: dict[str, str]
) -> dict[str, dict[str, Any]]:
    """Inputs, not derived, of one kind using the same symbol groups only, as one node each."""
    by_uses: dict[tuple[str, frozenset[str]], list[str]] = defaultdict(list)
    for n, kind in g.nodes(data="kind"):
        uses = set(g.predecessors(n))
        if kind != "symbol" and n not in derived and uses and uses <= drawn_as.keys():
            by_uses[kind, frozenset(drawn_as[s] for s in uses)].append(n)
    return {
        f"inputs:{nodes[0]}": _group(
            kind, f"{len(nodes)} {_PLURAL[kind]}", nodes, [g.nodes[n]["name"] for n in nodes]
        )
        for (kind, _), nodes in by_uses.items()
        if len(nodes) > 1
    }


def _group(kind: str, what: str, members: list[str], names: list[str]) -> dict[str, Any]:
    return {"kind": kind, "label": f"{what}: {names[0]}…{names[-1]}", "members": members}


def _drawn_as(groups: dict[str, dict[str, Any]]) -> dict[str, str]:
    """Each merged node -> the group node drawn for it."""
    return {m: node for node, data in groups.items() for m in data["members"]}


def _derived(x: Input) -> bool:
    """An input with an expression other than a bare symbol: the view always shows it."""
    return any(e.free_symbols and not e.is_Symbol for e in x.exprs())


def _kind(x: object) -> str:
    if isinstance(x, TensorInput):
        return "tensor"
    if isinstance(x, SymIntInput):
        return "symint"
    return "other"


def _label(x: Input, sums: Mapping[frozenset[str], str] | None = None) -> str:
    """`x` with its expressions; with `sums`, each sum over a group's symbols is written as
    the group's name (`Σ64 // 160 + 866`, not 64 terms)."""

    def text(e: sympy.Expr) -> str:
        return torch_str(_name_sums(e, sums) if sums else e)

    if isinstance(x, TensorInput):
        return f"{x.name}: ({', '.join(text(e) for e in x.shape)})"
    if isinstance(x, SymIntInput):
        return f"{x.name} = {text(x.expr) if x.expr is not None else '?'}"
    return f"{x.name} ({x.kind})"


def _name_sums(e: sympy.Expr, sums: Mapping[frozenset[str], str]) -> sympy.Expr:
    """`e` with each sum whose symbols are a group's written as the group's name (its
    constant terms kept)."""

    def is_grouped(node: sympy.Basic) -> bool:
        return isinstance(node, sympy.Add) and free_symbol_names(node) in sums

    def named(node: sympy.Add) -> sympy.Expr:
        constant = sympy.Add(*(t for t in node.args if not t.free_symbols))
        return symbol(sums[free_symbol_names(node)]) + constant

    return e.replace(is_grouped, named)


def _storage_label(s: Storage) -> str:
    return f"{s.name}: {torch_str(s.nbytes)} bytes"


def _mermaid_text(text: str) -> str:
    """Mermaid entity codes for what its renderers would take as syntax or HTML."""
    return text.replace('"', "#quot;").replace("<", "#lt;").replace(">", "#gt;")


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'

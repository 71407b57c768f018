"""What `symshrink inspect` shows: a summary of a repro model, as data and as text."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import sympy

from symshrink.errors import ExprError
from symshrink.expr import free_symbol_names, python_str, torch_str
from symshrink.graph import SymGraph
from symshrink.repro.model import OtherInput, Repro


def summary(repro: Repro) -> dict[str, Any]:
    """The JSON form: free symbols, SymInt and tensor inputs, width, warnings."""
    graph = SymGraph(repro)
    symints = [
        {
            "index": i,
            "name": x.name,
            "hint": x.hint,
            "expr": _python_text(x.expr) if x.expr is not None else None,
            "free_symbols": sorted(free_symbol_names(x.expr)) if x.expr is not None else [],
        }
        for i, x in repro.symints()
    ]
    tensors = [
        {
            "index": i,
            "name": t.name,
            "shape": [torch_str(e) for e in t.shape],
            "stride": [torch_str(e) for e in t.stride] if t.stride is not None else None,
            "storage_offset": torch_str(t.storage_offset) if t.storage_offset is not None else None,
            "dtype": t.dtype or "torch.float32",
            "free_symbols": sorted(graph.symbols_of(i)),
        }
        for i, t in repro.tensors()
    ]
    return {
        "free_symbols": dict(repro.hints),
        "symints": symints,
        "tensors": tensors,
        "other_inputs": [
            {"index": i, "name": x.name, "kind": x.kind}
            for i, x in enumerate(repro.inputs)
            if isinstance(x, OtherInput)
        ],
        "n_inputs": len(repro.inputs),
        "unused_symbols": graph.unused_symbols(),
        "width": graph.sizes().as_dict(),  # the JSON key inspect has always printed
        "warnings": warnings(repro),
    }


def _python_text(expr: sympy.Expr) -> str:
    """Plain-Python text where one exists (every integer function but one), else torch's."""
    try:
        return python_str(expr)
    except ExprError:
        return torch_str(expr)


def warnings(repro: Repro) -> list[str]:
    """Properties of the hints that change what a symbolic retrace sees."""
    out = []
    by_hint: dict[int, list[str]] = defaultdict(list)
    for name, hint in repro.hints.items():
        by_hint[hint].append(name)
        if hint in (0, 1):
            out.append(f"{name} = {hint}: sizes 0 and 1 specialize; this symbol becomes a constant")
    for hint, names in sorted(by_hint.items()):
        if len(names) > 1:
            out.append(
                f"{', '.join(names)} share the hint {hint}: symbolic tracing duck-sizes equal "
                "hints into one symbol unless they are told apart"
            )
    if repro.is_old_style:
        out.append("old-style script (no expr=, no hint lines): symbols cannot be related")
    return out


def text(repro: Repro) -> str:
    """The readable form."""
    data = summary(repro)
    width = data["width"]
    lines = [
        f"{len(repro.inputs)} inputs: {len(data['tensors'])} tensors, {len(data['symints'])} "
        f"SymInts ({width['derived_symints']} derived), {len(data['other_inputs'])} other",
        f"{width['free_symbols']} free symbols, {width['expr_ops']} expression operations, "
        f"widest expression uses {width['max_symbols_per_expr']} symbols",
    ]
    if repro.hints:
        lines.append("free symbols: " + ", ".join(f"{k}={v}" for k, v in repro.hints.items()))
    if data["unused_symbols"]:
        lines.append("unused symbols: " + ", ".join(data["unused_symbols"]))
    lines.append("")
    for s in data["symints"]:
        expr = s["expr"] if s["expr"] is not None else "(no expression)"
        lines.append(f"  [{s['index']}] {s['name']}: SymInt {s['hint']} = {expr}")
    for t in data["tensors"]:
        lines.append(f"  [{t['index']}] {t['name']}: {t['dtype']} ({', '.join(t['shape'])})")
    for o in data["other_inputs"]:
        lines.append(f"  [{o['index']}] {o['name']}: {o['kind']}")
    for w in data["warnings"]:
        lines.append(f"warning: {w}")
    return "\n".join(lines) + "\n"

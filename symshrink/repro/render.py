"""Render a `Repro` model back into an after-aot script in torch's own layout.

The output reads like torch's writer output (hint lines, preamble, `class Repro`,
`load_args`, the `run_repro` main block), so torch's tools, `symshrink inspect` and
`parse` all read it, and `parse(render(m)) == m`.
"""

from __future__ import annotations

import hashlib
import textwrap

import sympy

from symshrink.expr import substitute, symbol, torch_str
from symshrink.repro.model import Repro, Storage, SymIntInput, TensorInput

_INDENT = "    "


def render(repro: Repro) -> str:
    """The script text of a model."""
    parts = []
    if repro.hints:
        parts.append("\n".join(f"{name} = {hint}" for name, hint in repro.hints.items()))
        parts.append("")
    if repro.preamble:
        parts.append(repro.preamble)
    parts.append(repro.module_source)
    parts.append("")
    parts.append(render_load_args(repro))
    parts.append("mod = Repro()")
    parts.append(render_main(repro))
    return "\n".join(parts) + "\n"


def canonical_key(repro: Repro) -> str:
    """A hash equal for models that differ only in symbol names (hints kept).

    Symbols are renamed in order of first occurrence over the inputs, so a candidate
    reached twice by different edits is tested once.
    """
    order: dict[str, None] = {}
    for e in repro.all_exprs():
        for node in sympy.preorder_traversal(e):
            if isinstance(node, sympy.Symbol):
                order.setdefault(node.name, None)
    for name in repro.hints:
        order.setdefault(name, None)
    mapping = {name: symbol(f"k{i}") for i, name in enumerate(order)}
    renamed = repro.map_exprs(lambda e: substitute(e, mapping)).replace(
        hints={mapping[k].name: v for k, v in repro.hints.items()}
    )
    return hashlib.sha256(render(renamed).encode()).hexdigest()[:32]


def render_load_args(repro: Repro) -> str:
    lines = ["def load_args(reader):"]
    emitted: set[str] = set()
    storages = {s.name: s for s in repro.storages}
    for x in repro.inputs:
        if isinstance(x, TensorInput):
            if x.storage not in emitted:
                lines.append(_INDENT + render_storage(storages[x.storage]))
                emitted.add(x.storage)
            lines.append(_INDENT + render_tensor(x))
        elif isinstance(x, SymIntInput):
            lines.append(_INDENT + render_symint(x))
        else:
            lines.append(textwrap.indent(x.source, _INDENT))
    for stmt in repro.load_args_tail:
        lines.append(textwrap.indent(stmt, _INDENT))
    if len(lines) == 1:
        lines.append(_INDENT + "pass")
    lines.append("load_args._version = 0")
    return "\n".join(lines)


def render_storage(s: Storage) -> str:
    extra = ""
    if s.device is not None:
        extra += f", device={s.device}"
    if s.dtype_hint is not None:
        extra += f", dtype_hint={s.dtype_hint}"
    return f"{s.name} = reader.storage({s.hash!r}, {torch_str(s.nbytes)}{extra})"


def render_tensor(t: TensorInput) -> str:
    args = [t.storage, _tuple(t.shape)]
    if t.stride is not None:
        args.append(_tuple(t.stride))
    if t.dtype is not None:
        args.append(f"dtype={t.dtype}")
    if t.storage_offset is not None:
        args.append(f"storage_offset={torch_str(t.storage_offset)}")
    args.extend(f"{k}={v}" for k, v in t.metadata)
    if t.requires_grad is not None:
        args.append(f"requires_grad={t.requires_grad!r}")
    if t.is_leaf is not None:
        args.append(f"is_leaf={t.is_leaf!r}")
    return f"reader.tensor({', '.join(args)})  # {t.name}"


def render_symint(x: SymIntInput) -> str:
    if x.expr is None:
        return f"reader.symint({x.hint!r})  # {x.name}"
    return f"reader.symint({x.hint!r}, expr={torch_str(x.expr)!r})  # {x.name}"


def _tuple(exprs: tuple[sympy.Expr, ...]) -> str:
    items = [torch_str(e) for e in exprs]
    if len(items) == 1:
        return f"({items[0]},)"
    return f"({', '.join(items)})"


def render_main(repro: Repro) -> str:
    kwargs = ", ".join(f"{k}={v}" for k, v in repro.run_options)
    return (
        "if __name__ == '__main__':\n"
        "    from torch._dynamo.repro.after_aot import run_repro\n"
        "    with torch.no_grad():\n"
        f"        run_repro(mod, load_args, {kwargs})"
    )

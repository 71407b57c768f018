"""The `class Repro` graph code as data: its forward's parameters, statements and outputs.

FX writes `forward` as straight-line code: one assignment per node (`x = torch.ops...`),
`a = b = None` lines that only free memory, and `return (outs,)`. That is enough to do
the node-level reduction torch's fx_minifier does, on text, with `ast` and no torch.
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import lru_cache

from symshrink.pyast import parse_module

# Calls whose result may be unused but which must stay: in-place and out= ops mutate.
_SIDE_EFFECT_MARKERS = ("_.", "copy_", "resize_", "set_", "print", "_assert", "_check")

# Calls that return an int from a tensor: replacing one by its tensor operand cannot trace.
_INT_OF_TENSOR = ("sym_size", "sym_stride", "sym_numel", "sym_storage_offset")


@lru_cache(maxsize=512)
def _forward(module_source: str) -> tuple[ast.Module, ast.FunctionDef] | None:
    try:
        tree = parse_module(module_source)
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "forward":
            return tree, node
    return None


def forward_params(module_source: str) -> list[str]:
    """Placeholder names of `forward`, in order (without `self`)."""
    found = _forward(module_source)
    if found is None:
        return []
    return [a.arg for a in found[1].args.args[1:]]


def forward_statement_count(module_source: str) -> int:
    """Graph statements of forward, not counting `x = None` memory hints."""
    found = _forward(module_source)
    if found is None:
        return 0
    return sum(1 for s in found[1].body if not _is_release(s))


def forward_body(module_source: str) -> list[ast.stmt]:
    """forward's statements, its return included, without `x = None` memory hints (the
    trees are shared: read them, do not edit them)."""
    found = _forward(module_source)
    return [] if found is None else [s for s in found[1].body if not _is_release(s)]


def used_params(module_source: str) -> set[str]:
    """Parameters of forward that its body reads."""
    found = _forward(module_source)
    if found is None:
        return set()
    params = set(forward_params(module_source))
    return {
        n.id
        for s in found[1].body
        if not _is_release(s)
        for n in ast.walk(s)
        if isinstance(n, ast.Name) and n.id in params
    }


def output_count(module_source: str) -> int:
    found = _forward(module_source)
    if found is None:
        return 0
    ret = _return(found[1])
    return len(ret.value.elts) if ret is not None and isinstance(ret.value, ast.Tuple) else 0


def passthrough_outputs(module_source: str) -> list[int]:
    """The positions of forward's outputs that are its parameters, returned unchanged."""
    found = _forward(module_source)
    ret = None if found is None else _return(found[1])
    if ret is None or not isinstance(ret.value, ast.Tuple):
        return []
    params = set(forward_params(module_source))
    return [i for i, e in enumerate(ret.value.elts) if isinstance(e, ast.Name) and e.id in params]


def drop_outputs(module_source: str, drop: Sequence[int]) -> str | None:
    """Forward without the given outputs, dead code removed; None if nothing would be left."""
    found = _forward(module_source)
    if found is None:
        return None
    tree, fn = _editable_forward(module_source)
    ret = _return(fn)
    if ret is None or not isinstance(ret.value, ast.Tuple):
        return None
    keep = [e for i, e in enumerate(ret.value.elts) if i not in set(drop)]
    if not keep:
        return None
    ret.value.elts = keep
    fn.body = _dead_code_eliminated(fn.body)
    return ast.unparse(tree)


def bypassable(module_source: str) -> list[tuple[str, str]]:
    """(node, operand) pairs: each node `y = f(x, ...)` whose first argument is a name
    (not the size queries, whose int result a tensor cannot replace)."""
    found = _forward(module_source)
    if found is None:
        return []
    pairs = []
    for stmt in found[1].body:
        node = _node_name(stmt)
        call = stmt.value if isinstance(stmt, ast.Assign) else None
        if (
            node is not None
            and isinstance(call, ast.Call)
            and call.args
            and isinstance(call.args[0], ast.Name)
            and not any(m in ast.unparse(call.func) for m in _INT_OF_TENSOR)
        ):
            pairs.append((node, call.args[0].id))
    return pairs


def bypass(module_source: str, pairs: Sequence[tuple[str, str]]) -> str | None:
    """Forward with each node `y` of `pairs` gone and its uses reading its operand instead
    (`y = f(x)`: later `y` reads `x`), dead code removed; None if forward is not found."""
    found = _forward(module_source)
    if found is None:
        return None
    operand = dict(pairs)

    def source_of(name: str) -> str:
        while name in operand:  # a chain y = f(x), z = g(y), both bypassed: z reads x
            name = operand[name]
        return name

    tree, fn = _editable_forward(module_source)
    body = []
    for stmt in fn.body:
        if _is_release(stmt):
            continue  # an operand may now be read after FX released it
        if _node_name(stmt) in operand:
            continue
        for n in ast.walk(stmt):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
                n.id = source_of(n.id)
        body.append(stmt)
    fn.body = _dead_code_eliminated(body)
    return ast.unparse(tree)


def drop_params(module_source: str, names: set[str]) -> str:
    """Forward without the given (unused) parameters."""
    tree, fn = _editable_forward(module_source)
    fn.args.args = [a for a in fn.args.args if a.arg not in names]
    return ast.unparse(tree)


def inline_params(module_source: str, values: Mapping[str, int | str]) -> str:
    """Forward with each parameter of `values` gone and its reads the integer literal
    (`slice(x, 0, primals_1)` -> `slice(x, 0, 1021)`) or the other parameter named; FX's
    release lines go with them."""
    tree, fn = _editable_forward(module_source)
    fn.args.args = [a for a in fn.args.args if a.arg not in values]
    body = []
    for stmt in fn.body:
        if _is_release(stmt):
            continue  # `primals_1 = None` would assign to a literal now
        body.append(_Substitute(_literals(values)).visit(stmt))
    fn.body = body
    return ast.unparse(ast.fix_missing_locations(tree))


def forward_lines(module_source: str, reads: Mapping[str, int | str]) -> list[str]:
    """forward's statements as lines of code (the return included), without FX's release
    lines, each read of a name in `reads` an integer literal or another name instead.

    FX writes SymInt arithmetic one operation a line (`add_57 = primals_1 + primals_3`,
    `add_59 = add_57 + primals_5`, ...). A step read only once, by the next step of such a
    chain, is written into it (`add_59 = primals_1 + primals_3 + primals_5`): the same
    syntax tree, so Python evaluates, and torch traces, the same operations in the same
    order, in one line instead of one per operation.
    """
    _, fn = _editable_forward(module_source)
    body = [_Substitute(_literals(reads)).visit(s) for s in fn.body if not _is_release(s)]
    return [ast.unparse(s) for s in _chained(body)]


def _chained(body: list[ast.stmt]) -> list[ast.stmt]:
    """`body` with each arithmetic step read once, by an arithmetic step, written into it."""
    reads = Counter(
        n.id
        for s in body
        for n in ast.walk(s)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    )
    steps: dict[str, ast.expr] = {}
    out: list[ast.stmt] = []
    for stmt in body:
        name = _node_name(stmt)
        if name is not None and isinstance(stmt, ast.Assign) and _is_arithmetic(stmt.value):
            value = _Substitute(steps).visit(stmt.value)
            if reads[name] == 1 and _read_by_arithmetic(name, body):
                steps[name] = value
                continue
            stmt.value = value
        out.append(stmt)
    return out


def _is_arithmetic(node: ast.expr) -> bool:
    """Python arithmetic on names and literals only: FX's SymInt operations."""
    return isinstance(node, ast.BinOp | ast.UnaryOp) and all(
        isinstance(
            n,
            ast.BinOp
            | ast.UnaryOp
            | ast.Name
            | ast.Constant
            | ast.operator
            | ast.unaryop
            | ast.expr_context,
        )
        for n in ast.walk(node)
    )


def _read_by_arithmetic(name: str, body: list[ast.stmt]) -> bool:
    return any(
        _node_name(s) is not None
        and isinstance(s, ast.Assign)
        and _is_arithmetic(s.value)
        and any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(s.value))
        for s in body
    )


def _literals(values: Mapping[str, int | str]) -> dict[str, ast.expr]:
    """Integers as literals, text as names."""
    return {
        k: ast.Name(v, ast.Load()) if isinstance(v, str) else ast.Constant(v)
        for k, v in values.items()
    }


class _Substitute(ast.NodeTransformer):
    """Reads of the given names become the given expressions."""

    def __init__(self, values: Mapping[str, ast.expr]) -> None:
        self.values = values

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if isinstance(node.ctx, ast.Load) and node.id in self.values:
            return self.values[node.id]
        return node


def _editable_forward(module_source: str) -> tuple[ast.Module, ast.FunctionDef]:
    """A fresh parse to edit (`_forward`'s is cached and shared) and its forward."""
    tree = parse_module(module_source)
    fn = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "forward")
    return tree, fn


def _node_name(stmt: ast.stmt) -> str | None:
    """The node a statement defines: `y = ...` with one plain name (None otherwise)."""
    if (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
    ):
        return stmt.targets[0].id
    return None


def _return(fn: ast.FunctionDef) -> ast.Return | None:
    last = fn.body[-1] if fn.body else None
    return last if isinstance(last, ast.Return) else None


def _is_release(stmt: ast.stmt) -> bool:
    """`a = b = None`: FX's memory release lines, not graph nodes."""
    return (
        isinstance(stmt, ast.Assign)
        and isinstance(stmt.value, ast.Constant)
        and stmt.value.value is None
    )


def _dead_code_eliminated(body: list[ast.stmt]) -> list[ast.stmt]:
    """Keep the statements the return (or a side effect) needs; drop release lines."""
    live: set[str] = set()
    kept: list[ast.stmt] = []
    for stmt in reversed(body):
        if _is_release(stmt):
            continue
        targets = {
            n.id
            for t in getattr(stmt, "targets", [])
            for n in ast.walk(t)
            if isinstance(n, ast.Name)
        }
        needed = (
            isinstance(stmt, ast.Return)
            or not targets
            or bool(targets & live)
            or any(m in ast.unparse(stmt) for m in _SIDE_EFFECT_MARKERS)
        )
        if needed:
            kept.append(stmt)
            live -= targets
            live |= {
                n.id
                for n in ast.walk(stmt)
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
            }
    return list(reversed(kept))

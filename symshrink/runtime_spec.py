"""A `Repro` as the plain data `symshrink.runtime` builds its inputs from.

The runtime needs only torch (the standalone min.py carries it), so it cannot read
symshrink's model: `input_spec` writes each expression as Python code over SymInts
(`symint_code`), each tensor as a `TensorSpec`. `symshrink.retrace` hands the result to
the runtime; `symshrink.standalone` writes the same data into min.py.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Callable

import sympy

from symshrink.errors import ExprError, ReproError
from symshrink.expr import fold, free_symbol_names
from symshrink.pyast import parse_module
from symshrink.repro.model import Input, OtherInput, Repro, SymIntInput, TensorInput
from symshrink.runtime import InputSpec, TensorSpec

__all__ = ["CODE_OPS", "input_spec", "symint_code", "used_symbols"]

_PLAIN_NAME = re.compile(r"^[a-z]+\d+$")  # torch's symbol names: safe as variable names


def _infix(op: str) -> Callable[..., str]:
    return lambda a, b: f"({a} {op} {b})"


def _left_fold(op: str) -> Callable[..., str]:
    """`((a op b) op c)`: the order `functools.reduce` computes in `symint_ops`."""
    return lambda *args: functools.reduce(lambda a, b: f"({a} {op} {b})", args)


def _nested(fn: str) -> Callable[..., str]:
    return lambda *args: functools.reduce(lambda a, b: f"{fn}({a}, {b})", args)


def _call(fn: str) -> Callable[..., str]:
    return lambda *args: f"{fn}({', '.join(args)})"


def _sympy_op(name: str) -> Callable[..., str]:
    """Ops SymInt arithmetic has no operator for: torch's sympy function, via `symint_ops`."""
    return lambda *args: f"ops[{name!r}]({', '.join(args)})"


CODE_OPS: dict[str, Callable[..., str]] = {
    "Integer": lambda n: repr(n) if n >= 0 else f"({n})",
    "Boolean": repr,
    "Add": lambda *args: f"torch.sym_sum([{', '.join(args)}])",
    "Mul": _left_fold("*"),
    "Pow": _infix("**"),
    "PowByNatural": _infix("**"),
    "FloorDiv": _infix("//"),
    "PythonMod": _infix("%"),
    "Mod": _infix("%"),
    "ModularIndexing": _sympy_op("ModularIndexing"),
    "CeilDiv": lambda a, b: f"(-((-{a}) // {b}))",
    "LShift": lambda a, b: f"({a} * 2 ** {b})",
    "RShift": lambda a, b: f"({a} // 2 ** {b})",
    "IntTrueDiv": _infix("/"),
    "FloorToInt": _call("math.floor"),
    "CeilToInt": _call("math.ceil"),
    "TruncToInt": _call("torch.sym_int"),
    "RoundToInt": _call("round"),
    "Where": _sympy_op("Where"),
    "Piecewise": lambda *pairs: _sympy_op("Piecewise")(*(f"({v}, {c})" for v, c in pairs)),
    "Abs": _call("abs"),
    "Max": _nested("torch.sym_max"),
    "Min": _nested("torch.sym_min"),
    "BitwiseFn_bitwise_and": _infix("&"),
    "BitwiseFn_bitwise_or": _infix("|"),
    "BitwiseFn_bitwise_xor": _infix("^"),
    "IsNonOverlappingAndDenseIndicator": _sympy_op("IsNonOverlappingAndDenseIndicator"),
    "Eq": _infix("=="),
    "Ne": _infix("!="),
    "Lt": _infix("<"),
    "Le": _infix("<="),
    "Gt": _infix(">"),
    "Ge": _infix(">="),
    "And": _left_fold("&"),
    "Or": _left_fold("|"),
    "Not": _call("torch.sym_not"),
}
"""Python source of each op over SymInt-valued code, computing what `symint_ops` computes.

The code may use `torch`, `math` and `ops` (`symint_ops(env)`), as `InputSpec` code may.
"""


def _leaf(name: str) -> str:
    return name if _PLAIN_NAME.match(name) else f"syms[{name!r}]"


def symint_code(expr: sympy.Basic) -> str:
    """Python code computing `expr` with real SymInts (symbols as names or `syms[...]`).

    Raises ExprError for a node the printer cannot write.
    """
    return fold(expr, _leaf, CODE_OPS)


def used_symbols(repro: Repro) -> set[str]:
    """Symbols the inputs mention: what the graph must see (a hint line may serve only a
    storage size, which follows from the inputs)."""
    return {n for e in repro.input_exprs() for n in free_symbol_names(e)}


def input_spec(repro: Repro) -> InputSpec:
    """The runtime's data for `repro`'s inputs, in placeholder order.

    Raises ReproError for an expression the code printer cannot write.
    """
    used = used_symbols(repro)
    every = {n for e in repro.all_exprs() for n in free_symbol_names(e)}
    values = []
    for x in repro.inputs:
        try:
            values.append(_value(repro, x))
        except ExprError as e:
            raise ReproError(f"input {x.name}: cannot write it as SymInt code: {e}") from None
    return InputSpec(
        hints=dict(repro.hints),
        unbacked=tuple(sorted(every - set(repro.hints))),
        values=tuple(values),
        carried=tuple(sorted(used - _bare_symbols(repro))),
        used=tuple(sorted(used)),
    )


def _value(repro: Repro, x: Input) -> str | TensorSpec:
    if isinstance(x, SymIntInput):
        return symint_code(x.expr) if x.expr is not None else repr(x.hint)
    if isinstance(x, TensorInput):
        storage = repro.storage(x.storage)
        offset = x.storage_offset is not None and x.storage_offset != 0
        return TensorSpec(
            shape=tuple(symint_code(e) for e in x.shape),
            stride=tuple(symint_code(e) for e in x.stride) if x.stride is not None else None,
            offset=symint_code(x.storage_offset) if offset else None,
            nbytes=symint_code(storage.nbytes) if offset else None,
            dtype=x.dtype or "torch.float32",
            device=storage.device,
        )
    return _other_code(x)


def _other_code(x: OtherInput) -> str:
    """const / unsupported / opaque inputs are None (as torch's InputReader makes them)."""
    if x.kind != "generator":
        return "None"
    stmt = parse_module(x.source.splitlines()[0]).body[0]  # reader.generator(type, index)
    assert isinstance(stmt, ast.Expr | ast.Assign) and isinstance(stmt.value, ast.Call)
    device_args = ", ".join(ast.unparse(a) for a in stmt.value.args)
    return f"torch.Generator(device=device({device_args}))"


def _bare_symbols(repro: Repro) -> set[str]:
    """Symbols some input carries as itself (a SymInt, or a tensor's size or stride)."""
    bare: set[str] = set()
    for x in repro.inputs:
        if isinstance(x, SymIntInput) and x.expr is not None and x.expr.is_Symbol:
            bare.add(x.expr.name)
        elif isinstance(x, TensorInput):
            bare |= {e.name for e in (*x.shape, *(x.stride or ())) if e.is_Symbol}
    return bare

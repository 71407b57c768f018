"""SymInt expressions: torch's printed text <-> sympy trees, with torch's semantics.

A repro script carries SymInt expressions as `str(sympy_expr)` of torch's expressions
(`torch/utils/_sympy/functions.py`): `(((s1 + s21)//160)) + 866`, `Max(s0, s1)`,
`ModularIndexing(s0, 2, 7)`, ...

Why inert: torch's own classes simplify when they are built (`FloorDiv(FloorDiv(a, b), c)`
becomes `FloorDiv(a, b*c)`, gcds cancel, `Max` drops duplicates, `PythonMod` runs sympy's
polynomial gcd). A reducer has to see, and edit, the expression that was *written*, and
must not pay for (or trigger) the very sympy work whose slowness it is reproducing. So
this module defines its own `sympy.Function` classes with torch's names, arities and
printing precedences, whose `eval` never simplifies. They print like torch's classes
(`str(expr)` / `torch_str`) and sort like them, so a sum prints its terms in torch's
order. `Add`, `Mul` and `Pow` are sympy's own canonical ones, as in torch.

torch is not imported here: the reducer runs without it.
"""

from __future__ import annotations

import ast
import functools
import keyword
import math
import operator
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import sympy
from sympy.core.relational import Relational
from sympy.functions.elementary.piecewise import ExprCondPair
from sympy.logic.boolalg import BooleanAtom, BooleanFunction
from sympy.printing.precedence import PRECEDENCE, precedence
from sympy.printing.str import StrPrinter

from symshrink.errors import ExprError
from symshrink.pyast import parse_expression

__all__ = [
    "BUILD_OPS",
    "INT_OPS",
    "KNOWN_FUNCTIONS",
    "OP_NAMES",
    "PYTHON_BUILTINS",
    "Abs",
    "BitwiseFn_bitwise_and",
    "BitwiseFn_bitwise_or",
    "BitwiseFn_bitwise_xor",
    "CeilDiv",
    "CeilToInt",
    "FloorDiv",
    "FloorToInt",
    "IntTrueDiv",
    "IsNonOverlappingAndDenseIndicator",
    "LShift",
    "Max",
    "Min",
    "Mod",
    "ModularIndexing",
    "PowByNatural",
    "PythonMod",
    "RShift",
    "RoundToInt",
    "TruncToInt",
    "Where",
    "evaluate",
    "fold",
    "free_symbol_names",
    "op_count",
    "parse_expr",
    "python_str",
    "substitute",
    "symbol",
    "symint_str",
    "torch_str",
]

T = TypeVar("T")

_ATOM_PREC = PRECEDENCE["Atom"] - 0.5  # parenthesize anything that is not an atom
_MAX_POW_BITS = 1 << 16  # refuse to build or evaluate integer powers larger than this


# --------------------------------------------------------------------------- symbols


@functools.cache
def symbol(name: str) -> sympy.Symbol:
    """The one integer symbol every module uses for `name` (`s0`, `u3`, ...)."""
    if not _is_symbol_name(name):
        raise ExprError(f"invalid symbol name {name!r}")
    return sympy.Symbol(name, integer=True)


def _is_symbol_name(name: str) -> bool:
    return (
        name.isidentifier()
        and not keyword.iskeyword(name)
        and name not in _RESERVED_NAMES
        and name not in _PARSE_CALLS
        and name not in _REJECTED_FUNCTIONS
    )


# ------------------------------------------------------------------ inert functions


class _Inert(sympy.Function):
    """Base of the torch-named functions: `eval` never simplifies anything."""

    @classmethod
    def eval(cls, *args: sympy.Basic) -> None:
        return None


def _all_integer(args: tuple[sympy.Basic, ...]) -> bool | None:
    return True if all(a.is_integer for a in args) else None


class FloorDiv(_Inert):
    """Python `a // b`; prints `(a//b)` exactly like torch's `FloorDiv._sympystr`."""

    nargs = (2,)
    precedence = 35
    is_integer = True

    def _sympystr(self, printer: StrPrinter) -> str:
        base = printer.parenthesize(self.args[0], _ATOM_PREC)
        divisor = printer.parenthesize(self.args[1], _ATOM_PREC)
        return f"({base}//{divisor})"


class ModularIndexing(_Inert):
    """`(a // b) % c`."""

    nargs = (3,)
    precedence = 35
    is_integer = True


class PythonMod(_Inert):
    """Python `a % b` (sign of the divisor); what torch makes of SymInt `%`."""

    nargs = (2,)
    precedence = 35
    is_integer = True


class Mod(_Inert):
    """torch's `Mod`: `a % b`, only meant for non-negative arguments."""

    nargs = (2,)
    precedence = 35
    is_integer = True


class CeilDiv(_Inert):
    """`-(-a // b)`. torch never prints it (its CeilDiv builds a FloorDiv at once)."""

    nargs = (2,)
    is_integer = True


class LShift(_Inert):
    """`a << b` (torch prints it already rewritten as `a*2**b`)."""

    nargs = (2,)
    is_integer = True


class RShift(_Inert):
    """`a >> b` (torch prints it already rewritten as a FloorDiv)."""

    nargs = (2,)
    is_integer = True


class IntTrueDiv(_Inert):
    """Python `a / b` of two ints: a float, used under FloorToInt and friends."""

    nargs = (2,)
    precedence = 35
    is_real = True


class FloorToInt(_Inert):
    """`math.floor(x)`."""

    nargs = (1,)
    is_integer = True


class CeilToInt(_Inert):
    """`math.ceil(x)`."""

    nargs = (1,)
    is_integer = True


class TruncToInt(_Inert):
    """`math.trunc(x)`."""

    nargs = (1,)
    is_integer = True


class RoundToInt(_Inert):
    """`round(x)` (half to even)."""

    nargs = (1,)
    is_integer = True


class PowByNatural(_Inert):
    """`a ** b` with `b >= 0` (torch keeps it when `b` is not a literal)."""

    nargs = (2,)
    precedence = 50
    is_integer = True


class Where(_Inert):
    """`b if c else d`."""

    nargs = (3,)
    precedence = 35

    def _eval_is_integer(self) -> bool | None:
        return _all_integer(self.args[1:])


class Abs(_Inert):
    """`abs(x)` (sympy's own Abs simplifies, so we keep our own)."""

    nargs = (1,)

    def _eval_is_integer(self) -> bool | None:
        return _all_integer(self.args)


class _MinMax(_Inert):
    # torch's Max/Min are LatticeOps, not Functions: their class_key is Basic's (it
    # decides where they sort among the terms of a sum) and they print as atoms
    # (`(a//Max(b, c))`). Arguments keep the written order.
    precedence = PRECEDENCE["Atom"]

    @classmethod
    def class_key(cls) -> tuple[int, int, str]:
        return 5, 0, cls.__name__

    def _eval_is_integer(self) -> bool | None:
        return _all_integer(self.args)


class Max(_MinMax):
    """`max(a, b, ...)`."""


class Min(_MinMax):
    """`min(a, b, ...)`."""


class BitwiseFn_bitwise_and(_Inert):
    """`a & b` on ints."""

    nargs = (2,)
    precedence = PRECEDENCE["BitwiseAnd"]
    is_integer = True


class BitwiseFn_bitwise_or(_Inert):
    """`a | b` on ints."""

    nargs = (2,)
    precedence = PRECEDENCE["BitwiseOr"]
    is_integer = True


class BitwiseFn_bitwise_xor(_Inert):
    """`a ^ b` on ints."""

    nargs = (2,)
    precedence = PRECEDENCE["BitwiseXor"]
    is_integer = True


class IsNonOverlappingAndDenseIndicator(_Inert):
    """1 if sizes `args[:n]` with strides `args[n:]` are non-overlapping and dense."""

    is_integer = True


KNOWN_FUNCTIONS: dict[str, type[sympy.Function]] = {
    cls.__name__: cls
    for cls in (
        FloorDiv,
        ModularIndexing,
        PythonMod,
        Mod,
        CeilDiv,
        LShift,
        RShift,
        IntTrueDiv,
        FloorToInt,
        CeilToInt,
        TruncToInt,
        RoundToInt,
        PowByNatural,
        Where,
        Abs,
        Max,
        Min,
        BitwiseFn_bitwise_and,
        BitwiseFn_bitwise_or,
        BitwiseFn_bitwise_xor,
        IsNonOverlappingAndDenseIndicator,
    )
}
"""Our inert function classes by (torch's) name."""


# ----------------------------------------------------------------------------- fold

# sympy class name -> op name, where they differ.
_OP_RENAMES = {
    "CleanDiv": "FloorDiv",  # torch's exact division (prints as FloorDiv too)
    "Equality": "Eq",
    "Unequality": "Ne",
    "StrictLessThan": "Lt",
    "LessThan": "Le",
    "StrictGreaterThan": "Gt",
    "GreaterThan": "Ge",
}


def fold(expr: sympy.Basic, leaf: Callable[[str], T], ops: Mapping[str, Callable[..., T]]) -> T:
    """Fold `expr` bottom-up: symbols through `leaf(name)`, every other node through `ops`.

    `ops` is keyed by the names in `OP_NAMES`: `Integer` gets a Python int, `Boolean` a
    Python bool, `Piecewise` its `(value, condition)` pairs as tuples, every other op its
    folded arguments in order (`Add`, `Mul`, `Max`, `Min`, `And`, `Or` and
    `IsNonOverlappingAndDenseIndicator` take any number). Evaluation is eager (every
    branch of a Where is folded), like torch's own. Equal subtrees are folded once.
    Raises ExprError for a node it does not know or an op missing from `ops`.
    """
    memo: dict[sympy.Basic, T] = {}

    def go(node: sympy.Basic) -> T:
        try:
            return memo[node]
        except KeyError:
            pass
        if node.is_Symbol:
            out = leaf(node.name)
        elif node.is_Integer:
            out = _op(ops, "Integer")(int(node))
        elif node is sympy.true or node is sympy.false:
            out = _op(ops, "Boolean")(bool(node))
        elif isinstance(node, sympy.Piecewise):
            out = _op(ops, "Piecewise")(*[(go(e), go(c)) for e, c in node.args])
        else:
            out = _op(ops, _op_name(node))(*[go(a) for a in node.args])
        memo[node] = out
        return out

    return go(expr)


def _op_name(node: sympy.Basic) -> str:
    name = type(node).__name__
    name = _OP_RENAMES.get(name, name)
    if name not in OP_NAMES or name in ("Integer", "Boolean", "Piecewise"):
        raise ExprError(f"unsupported expression node {type(node).__name__}: {node}")
    return name


def _op(ops: Mapping[str, Callable[..., T]], name: str) -> Callable[..., T]:
    try:
        return ops[name]
    except KeyError:
        raise ExprError(f"no operation for {name!r}") from None


# ---------------------------------------------------------------- int semantics


def _int_pow(base: Any, exp: Any) -> Any:
    if isinstance(exp, int) and exp < 0:
        raise ExprError(f"negative exponent {exp}")
    if (
        isinstance(base, int)
        and isinstance(exp, int)
        and abs(base) > 1
        and exp * base.bit_length() > _MAX_POW_BITS
    ):
        raise ExprError(f"power {base}**{exp} is too large")
    return base**exp


def _shift(op: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    def shift(a: Any, b: Any) -> Any:
        if b < 0:
            raise ExprError(f"negative shift count {b}")
        if op is operator.lshift and b > _MAX_POW_BITS:
            raise ExprError(f"shift {a} << {b} is too large")
        return op(a, b)

    return shift


def _piecewise(*pairs: tuple[Any, Any]) -> Any:
    for value, cond in pairs:
        if cond:
            return value
    raise ExprError("no Piecewise condition holds")


def _non_overlapping_and_dense(*args: int) -> int:
    """torch's `eval_is_non_overlapping_and_dense`, on ints."""
    if len(args) % 2:
        raise ExprError(f"IsNonOverlappingAndDenseIndicator needs sizes and strides: {args}")
    dim = len(args) // 2
    sizes, strides = args[:dim], args[dim:]
    if dim == 1:
        return int(strides[0] == 1 or sizes[0] < 2)
    expected = 1
    for length, stride in sorted(zip(sizes, strides, strict=True), key=operator.itemgetter(1)):
        if length == 1:
            continue
        if stride != expected:
            return 0
        expected *= length
    return 1


INT_OPS: dict[str, Callable[..., Any]] = {
    "Integer": int,
    "Boolean": bool,
    "Add": lambda *a: sum(a),
    "Mul": lambda *a: math.prod(a),
    "Pow": _int_pow,
    "FloorDiv": operator.floordiv,
    "PythonMod": operator.mod,
    "Mod": operator.mod,
    "ModularIndexing": lambda a, b, c: (a // b) % c,
    "CeilDiv": lambda a, b: -(-a // b),
    "LShift": _shift(operator.lshift),
    "RShift": _shift(operator.rshift),
    "IntTrueDiv": operator.truediv,
    "FloorToInt": math.floor,
    "CeilToInt": math.ceil,
    "TruncToInt": math.trunc,
    "RoundToInt": round,
    "PowByNatural": _int_pow,
    "Where": lambda c, a, b: a if c else b,
    "Piecewise": _piecewise,
    "Abs": abs,
    "Max": max,
    "Min": min,
    "BitwiseFn_bitwise_and": operator.and_,
    "BitwiseFn_bitwise_or": operator.or_,
    "BitwiseFn_bitwise_xor": operator.xor,
    "IsNonOverlappingAndDenseIndicator": _non_overlapping_and_dense,
    "Eq": operator.eq,
    "Ne": operator.ne,
    "Lt": operator.lt,
    "Le": operator.le,
    "Gt": operator.gt,
    "Ge": operator.ge,
    "And": lambda *a: all(a),
    "Or": lambda *a: any(a),
    "Not": operator.not_,
}
"""Python int semantics of every op (`IntTrueDiv` is float division, as in torch)."""

OP_NAMES: frozenset[str] = frozenset(INT_OPS)
"""Every op name `fold` can call; an ops table for `fold` should cover them all."""


def evaluate(expr: sympy.Basic, values: Mapping[str, int]) -> int:
    """The Python int value of `expr` with symbols bound by `values` (relations: bool).

    Raises ExprError for a missing symbol, division or modulo by zero, a negative
    exponent or shift, an unsupported node, or a result that is not an integer.
    """

    def leaf(name: str) -> int:
        try:
            return values[name]
        except KeyError:
            raise ExprError(f"no value for symbol {name!r}") from None

    try:
        out = fold(expr, leaf, INT_OPS)
    except ExprError:
        raise
    except ZeroDivisionError:
        raise ExprError(f"division by zero in {_short(torch_str(expr))}") from None
    except (OverflowError, ValueError, TypeError) as e:
        raise ExprError(f"cannot evaluate {_short(torch_str(expr))}: {e}") from None
    if not isinstance(out, int):
        raise ExprError(f"{_short(torch_str(expr))} is not an integer: {out!r}")
    return out


# ------------------------------------------------------------------ building nodes


def _build_pow(base: sympy.Expr, exp: sympy.Expr) -> sympy.Expr:
    if exp.is_Integer and exp < 0:
        raise ExprError(f"negative exponent in {base}**{exp}")
    if base.is_Integer and exp.is_Integer:
        _int_pow(int(base), int(exp))  # size guard before sympy computes it
    return sympy.Pow(base, exp)


def _bool(value: bool) -> sympy.Basic:
    return sympy.true if value else sympy.false


def _relation(cls: type) -> Callable[[sympy.Expr, sympy.Expr], sympy.Basic]:
    return lambda a, b: cls(a, b, evaluate=False)


BUILD_OPS: dict[str, Callable[..., sympy.Basic]] = {
    "Integer": sympy.Integer,
    "Boolean": _bool,
    "Add": sympy.Add,
    "Mul": sympy.Mul,
    "Pow": _build_pow,
    **KNOWN_FUNCTIONS,
    "Piecewise": lambda *pairs: sympy.Piecewise(*pairs, evaluate=False),
    "Eq": _relation(sympy.Eq),
    "Ne": _relation(sympy.Ne),
    "Lt": _relation(sympy.Lt),
    "Le": _relation(sympy.Le),
    "Gt": _relation(sympy.Gt),
    "Ge": _relation(sympy.Ge),
    "And": lambda *a: sympy.And(*a, evaluate=False),
    "Or": lambda *a: sympy.Or(*a, evaluate=False),
    "Not": lambda a: sympy.Not(a, evaluate=False),
}
"""Constructors of every op: `fold` with these rebuilds an expression the way
`parse_expr` builds it (sympy's canonical Add/Mul/Pow, inert everything else)."""


def substitute(expr: sympy.Basic, mapping: Mapping[str, sympy.Expr | int]) -> sympy.Basic:
    """Replace symbols by name; only the nodes above a replaced symbol are rebuilt.

    Rebuilt nodes are built like `parse_expr` builds them (BUILD_OPS): Add/Mul/Pow
    re-canonicalize (`s0 + s1` with s1 -> s0 is `2*s0`), torch's functions and relations
    stay inert (`FloorDiv(8, 2)` stays). Raises ExprError if a rebuilt node is not
    buildable (a negative literal exponent).
    """
    values = {k: sympy.Integer(v) if isinstance(v, int) else v for k, v in mapping.items()}
    if not values.keys() & free_symbol_names(expr):
        return expr
    memo: dict[sympy.Basic, sympy.Basic] = {}

    def go(node: sympy.Basic) -> sympy.Basic:
        if node.is_Symbol:
            return values.get(node.name, node)
        if node.is_Atom:
            return node
        if node in memo:
            return memo[node]
        if isinstance(node, sympy.Piecewise):
            old = [x for pair in node.args for x in pair.args]
            build = _build_piecewise_flat
        else:
            old = list(node.args)
            build = BUILD_OPS[_op_name(node)]
        new = [go(a) for a in old]
        changed = any(a is not b for a, b in zip(new, old, strict=True))
        out = build(*new) if changed else node
        memo[node] = out
        return out

    return go(expr)


def _build_piecewise_flat(*args: sympy.Basic) -> sympy.Basic:
    return BUILD_OPS["Piecewise"](*zip(args[::2], args[1::2], strict=True))


def free_symbol_names(expr: sympy.Basic) -> frozenset[str]:
    """Names of the free symbols of `expr`."""
    return frozenset(s.name for s in expr.free_symbols)


_NARY = (sympy.Add, sympy.Mul, Max, Min, sympy.And, sympy.Or)


def op_count(expr: sympy.Basic) -> int:
    """Number of binary operations written out in `expr`: what dropping a term shrinks.

    An n-ary associative node (Add, Mul, Max, Min, And, Or) counts n - 1, every other
    compound node (a function, Pow, a relation) counts once per occurrence; a Piecewise's
    (value, condition) pairs do not count themselves. So `s0 + s1` is 1, `s0 + s1 + s2`
    is 2, `s0 - s1` (`Add(s0, Mul(-1, s1))`) is 2, `(s0//2) + 1` is 2.
    """
    count = 0
    stack = [expr]
    while stack:
        node = stack.pop()
        if node.is_Atom:
            continue
        if isinstance(node, _NARY):
            count += len(node.args) - 1
        elif not isinstance(node, ExprCondPair):
            count += 1
        stack.extend(node.args)
    return count


# -------------------------------------------------------------------------- printing


class _TorchPrinter(StrPrinter):
    """sympy's StrPrinter, as torch's `str()` uses it (FloorDiv prints itself)."""


class _PythonPrinter(_TorchPrinter):
    """Same as torch for sums, products and `//`; plain-Python forms for the rest.

    Every form it adds is parenthesized or a call, so sympy's precedence rules for the
    surrounding sums and products stay right in Python.
    """

    def _atom(self, expr: sympy.Basic) -> str:
        text = self._print(expr)
        if precedence(expr) > _ATOM_PREC or _is_wrapped(text):
            return text
        return f"({text})"

    def _infix(self, expr: sympy.Basic, op: str) -> str:
        return "(" + f" {op} ".join(self._atom(a) for a in expr.args) + ")"

    def _call(self, name: str, expr: sympy.Basic) -> str:
        return f"{name}({', '.join(self._print(a) for a in expr.args)})"

    def _print_PythonMod(self, expr: sympy.Basic) -> str:
        return self._infix(expr, "%")

    def _print_Mod(self, expr: sympy.Basic) -> str:
        return self._infix(expr, "%")

    def _print_ModularIndexing(self, expr: sympy.Basic) -> str:
        a, b, c = (self._atom(x) for x in expr.args)
        return f"(({a}//{b}) % {c})"

    def _print_CeilDiv(self, expr: sympy.Basic) -> str:
        a, b = (self._atom(x) for x in expr.args)
        return f"(-((-{a})//{b}))"

    def _print_LShift(self, expr: sympy.Basic) -> str:
        return self._infix(expr, "<<")

    def _print_RShift(self, expr: sympy.Basic) -> str:
        return self._infix(expr, ">>")

    def _print_IntTrueDiv(self, expr: sympy.Basic) -> str:
        return self._infix(expr, "/")

    def _print_PowByNatural(self, expr: sympy.Basic) -> str:
        return self._infix(expr, "**")

    def _print_BitwiseFn_bitwise_and(self, expr: sympy.Basic) -> str:
        return self._infix(expr, "&")

    def _print_BitwiseFn_bitwise_or(self, expr: sympy.Basic) -> str:
        return self._infix(expr, "|")

    def _print_BitwiseFn_bitwise_xor(self, expr: sympy.Basic) -> str:
        return self._infix(expr, "^")

    def _print_FloorToInt(self, expr: sympy.Basic) -> str:
        return f"int({self._atom(expr.args[0])} // 1)"

    def _print_CeilToInt(self, expr: sympy.Basic) -> str:
        return f"int(-(-{self._atom(expr.args[0])} // 1))"

    def _print_TruncToInt(self, expr: sympy.Basic) -> str:
        return self._call("int", expr)

    def _print_RoundToInt(self, expr: sympy.Basic) -> str:
        return self._call("round", expr)

    def _print_Abs(self, expr: sympy.Basic) -> str:
        return self._call("abs", expr)

    def _print_Max(self, expr: sympy.Basic) -> str:
        return self._call("max", expr)

    def _print_Min(self, expr: sympy.Basic) -> str:
        return self._call("min", expr)

    def _print_Where(self, expr: sympy.Basic) -> str:
        c, a, b = (self._print(x) for x in expr.args)
        return f"({a} if {c} else {b})"

    def _print_Piecewise(self, expr: sympy.Basic) -> str:
        out = "None"  # no condition holds: evaluate() raises, Python gives None
        for value, cond in reversed(expr.args):
            if cond is sympy.true:
                out = self._print(value)
            else:
                out = f"({self._print(value)} if {self._print(cond)} else {out})"
        return out

    def _print_Relational(self, expr: sympy.Basic) -> str:
        return f"({self._print(expr.lhs)} {expr.rel_op} {self._print(expr.rhs)})"

    def _print_And(self, expr: sympy.Basic) -> str:
        return "(" + " and ".join(self._print(a) for a in expr.args) + ")"

    def _print_Or(self, expr: sympy.Basic) -> str:
        return "(" + " or ".join(self._print(a) for a in expr.args) + ")"

    def _print_Not(self, expr: sympy.Basic) -> str:
        return f"(not {self._print(expr.args[0])})"


class _SymIntPrinter(_PythonPrinter):
    """python_str's text computing with torch SymInts through public torch API.

    Where plain Python would branch on a value (`max`, `min`, `if`, `and`, `not`, `int()`)
    a SymInt guards on its hint and the expression is gone, so those go through torch's
    symbolic functions instead; everything else reads as python_str (and as torch) prints it.
    """

    def _nested(self, fn: str, expr: sympy.Basic) -> str:
        return functools.reduce(lambda a, b: f"{fn}({a}, {b})", map(self._print, expr.args))

    def _print_Max(self, expr: sympy.Basic) -> str:
        return self._nested("torch.sym_max", expr)

    def _print_Min(self, expr: sympy.Basic) -> str:
        return self._nested("torch.sym_min", expr)

    def _print_Where(self, expr: sympy.Basic) -> str:
        return self._call("torch.sym_ite", expr)

    def _print_Piecewise(self, expr: sympy.Basic) -> str:
        *pairs, (last, default) = expr.args
        if default is not sympy.true:
            raise ExprError("a Piecewise without a default has no SymInt form")
        out = self._print(last)
        for value, cond in reversed(pairs):
            out = f"torch.sym_ite({self._print(cond)}, {self._print(value)}, {out})"
        return out

    def _print_And(self, expr: sympy.Basic) -> str:
        return self._infix(expr, "&")

    def _print_Or(self, expr: sympy.Basic) -> str:
        return self._infix(expr, "|")

    def _print_Not(self, expr: sympy.Basic) -> str:
        return self._call("torch.sym_not", expr)

    def _print_FloorToInt(self, expr: sympy.Basic) -> str:
        return self._call("math.floor", expr)

    def _print_CeilToInt(self, expr: sympy.Basic) -> str:
        return self._call("math.ceil", expr)

    def _print_TruncToInt(self, expr: sympy.Basic) -> str:
        return self._call("torch.sym_int", expr)

    def _print_LShift(self, expr: sympy.Basic) -> str:
        a, b = (self._atom(x) for x in expr.args)
        return f"({a}*2**{b})"

    def _print_RShift(self, expr: sympy.Basic) -> str:
        a, b = (self._atom(x) for x in expr.args)
        return f"({a}//2**{b})"


def _is_wrapped(text: str) -> bool:
    """True if `text` is one parenthesized group or call: `(a + b)`, `max(a, b)`."""
    text = text.lstrip("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789")
    if not text.startswith("("):
        return False
    depth = 0
    for i, ch in enumerate(text):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0:
            return i == len(text) - 1
    return False


PYTHON_BUILTINS: frozenset[str] = frozenset({"abs", "int", "max", "min", "round"})
"""The only builtins `python_str` output calls."""


@functools.lru_cache(maxsize=8192)
def torch_str(expr: sympy.Basic) -> str:
    """The text torch writes for `expr` (`str()` of its sympy expression).

    Cached: a reduction renders each candidate whole, and its candidates share most
    expressions (a 64-term sum printed again per candidate, its terms sorted each time,
    was half of the search's own time on the seed with 8 slots)."""
    return _TorchPrinter().doprint(expr)


def python_str(expr: sympy.Basic) -> str:
    """Text that plain Python evaluates to `evaluate(expr, values)`, given the symbol
    values as globals and only the builtins in `PYTHON_BUILTINS`; no imports.

    Sums, products and floor divisions print exactly as `torch_str` prints them.
    Raises ExprError for nodes `evaluate` does not support and for
    IsNonOverlappingAndDenseIndicator (no plain-Python form).
    """
    _check_printable(expr, "plain-Python")
    return _PythonPrinter().doprint(expr)


def symint_str(expr: sympy.Basic) -> str:
    """Text that computes `expr` with torch SymInts for symbols, through public torch API
    (`torch`, and `math` for FloorToInt / CeilToInt), so that torch traces the expression
    instead of guarding on a value: `torch.sym_max` for Max, `torch.sym_ite` for Where and
    Piecewise, `&` / `|` / `torch.sym_not` on conditions; otherwise as `python_str`.

    Two print as their value, not as torch's own node, which no public API builds:
    ModularIndexing as `((a//b) % c)` (torch makes a FloorDiv and a Mod of it) and Where
    as `torch.sym_ite` (torch makes a Piecewise of it).
    Raises ExprError for nodes `evaluate` does not support, for
    IsNonOverlappingAndDenseIndicator and for a Piecewise without a default.
    """
    _check_printable(expr, "SymInt")
    return _SymIntPrinter().doprint(expr)


def _check_printable(expr: sympy.Basic, form: str) -> None:
    """ExprError for a node the Python printers cannot write (or `evaluate` not evaluate)."""
    for node in sympy.preorder_traversal(expr):
        if node.is_Symbol or node.is_Integer or isinstance(node, ExprCondPair):
            continue
        if node is sympy.true or node is sympy.false or isinstance(node, sympy.Piecewise):
            continue
        if _op_name(node) == "IsNonOverlappingAndDenseIndicator":
            raise ExprError(f"IsNonOverlappingAndDenseIndicator has no {form} form")


# --------------------------------------------------------------------------- parsing

_RESERVED_NAMES = frozenset({"oo", "zoo", "nan", "int_oo", "I", "E", "pi", "S", "None"})

# torch functions that exist but are float-valued: not SymInt expressions.
_FLOAT_UNARY = ("sqrt", "cos", "cosh", "sin", "sinh", "tan", "tanh", "asin", "acos", "atan")
_REJECTED_FUNCTIONS = frozenset(
    {"ToFloat", "FloatTrueDiv", "FloatPow", "TruncToFloat", "RoundDecimal"}
    | {f"OpaqueUnaryFn_{n}" for n in (*_FLOAT_UNARY, "exp", "log", "asinh", "log2")}
)

_INT, _BOOL, _ANY = "int", "bool", "any"

_PARSE_CALLS: dict[
    str, tuple[Callable[..., sympy.Basic], int, int | None, str | tuple[str, ...]]
] = {
    **{
        name: (cls, min(cls.nargs), max(cls.nargs), _INT)
        for name, cls in KNOWN_FUNCTIONS.items()
        if cls.nargs.is_finite_set
    },
    "Max": (Max, 2, None, _INT),
    "Min": (Min, 2, None, _INT),
    "IsNonOverlappingAndDenseIndicator": (IsNonOverlappingAndDenseIndicator, 0, None, _INT),
    "Where": (Where, 3, 3, (_BOOL, _INT, _INT)),
    "CleanDiv": (FloorDiv, 2, 2, _INT),  # prints as FloorDiv; an exact division
    "Identity": (lambda x: x, 1, 1, _ANY),  # prints as plain parentheses
    **{name: (BUILD_OPS[name], 2, 2, _INT) for name in ("Eq", "Ne", "Lt", "Le", "Gt", "Ge")},
    "And": (BUILD_OPS["And"], 1, None, _BOOL),
    "Or": (BUILD_OPS["Or"], 1, None, _BOOL),
    "Not": (BUILD_OPS["Not"], 1, 1, _BOOL),
}
"""Names `parse_expr` calls: builder, min and max argument count, argument kind(s)."""

_BINOPS: dict[type, str] = {
    ast.FloorDiv: "FloorDiv",
    ast.Mod: "PythonMod",
    ast.Pow: "Pow",
    ast.Div: "IntTrueDiv",
    ast.LShift: "LShift",
    ast.RShift: "RShift",
}

_COMPARE: dict[type, str] = {
    ast.Eq: "Eq",
    ast.NotEq: "Ne",
    ast.Lt: "Lt",
    ast.LtE: "Le",
    ast.Gt: "Gt",
    ast.GtE: "Ge",
}


def parse_expr(text: str) -> sympy.Basic:
    """Parse torch's printed SymInt expression (or relation) into an inert sympy tree.

    Reads the text with `ast`, never eval: ints, names (integer symbols), unary `-`,
    `+ - * // % **`, `/` (IntTrueDiv), comparisons, `&`/`|`/`~` and `and`/`or`/`not`
    on relations, `True`/`False`, and calls of the functions in `KNOWN_FUNCTIONS` plus
    Eq/Ne/Lt/Le/Gt/Ge/And/Or/Not/Piecewise; `CleanDiv` reads as FloorDiv and
    `Identity(x)` as `x`. `%` is Python's modulo (PythonMod). Anything else raises
    ExprError naming the problem.
    """
    if not isinstance(text, str):
        raise ExprError(f"expression must be text, got {type(text).__name__}")
    return _parse_cached(text.strip())


@functools.lru_cache(maxsize=8192)
def _parse_cached(text: str) -> sympy.Basic:
    if not text:
        raise ExprError("empty expression")
    try:
        tree = parse_expression(text)
    except SyntaxError as e:
        raise ExprError(f"syntax error in {_short(text)!r}: {e.msg}") from None
    except (ValueError, RecursionError, MemoryError):
        raise ExprError(f"cannot parse {_short(text)!r}") from None
    try:
        return _Builder(text).build(tree.body)
    except RecursionError:
        raise ExprError(f"expression too deeply nested: {_short(text)!r}") from None


def _short(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _is_condition(e: sympy.Basic) -> bool:
    # not isinstance(e, Boolean): sympy's Symbol is a Boolean too
    return isinstance(e, Relational | BooleanFunction | BooleanAtom)


class _Builder:
    def __init__(self, text: str):
        self.text = text

    def fail(self, message: str) -> ExprError:
        return ExprError(f"{message} in {_short(self.text)!r}")

    def build(self, node: ast.AST) -> sympy.Basic:
        try:
            return self._build(node)
        except ExprError:
            raise
        except (TypeError, ValueError, AttributeError) as e:  # sympy refusing a node
            raise self.fail(f"invalid expression ({e})") from None

    def int_arg(self, node: ast.AST) -> sympy.Expr:
        e = self.build(node)
        if _is_condition(e):
            raise self.fail(f"condition {torch_str(e)} used as a number")
        return e

    def bool_arg(self, node: ast.AST) -> sympy.Basic:
        e = self.build(node)
        if not _is_condition(e):
            raise self.fail(f"number {torch_str(e)} used as a condition")
        return e

    def arg(self, node: ast.AST, kind: str) -> sympy.Basic:
        if kind == _INT:
            return self.int_arg(node)
        if kind == _BOOL:
            return self.bool_arg(node)
        return self.build(node)

    def _build(self, node: ast.AST) -> sympy.Basic:
        if isinstance(node, ast.Constant):
            return self.constant(node.value)
        if isinstance(node, ast.Name):
            return self.name(node.id)
        if isinstance(node, ast.UnaryOp):
            return self.unary(node)
        if isinstance(node, ast.BinOp):
            return self.binop(node)
        if isinstance(node, ast.Compare):
            if len(node.ops) != 1:
                raise self.fail("chained comparison")
            name = _COMPARE.get(type(node.ops[0]))
            if name is None:
                raise self.fail(f"unsupported comparison {type(node.ops[0]).__name__}")
            return BUILD_OPS[name](self.int_arg(node.left), self.int_arg(node.comparators[0]))
        if isinstance(node, ast.BoolOp):
            name = "And" if isinstance(node.op, ast.And) else "Or"
            return BUILD_OPS[name](*[self.bool_arg(v) for v in node.values])
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.Attribute):
            raise self.fail("unsupported syntax: attribute access")
        raise self.fail(f"unsupported syntax: {type(node).__name__}")

    def constant(self, value: object) -> sympy.Basic:
        if isinstance(value, bool):
            return _bool(value)
        if isinstance(value, int):
            return sympy.Integer(value)
        if isinstance(value, float):
            raise self.fail(f"float literal {value!r}")
        if isinstance(value, str | bytes):
            raise self.fail("string literal")
        raise self.fail(f"unsupported literal {value!r}")

    def name(self, name: str) -> sympy.Basic:
        if name in _RESERVED_NAMES:
            raise self.fail(f"unsupported constant {name!r}")
        if name in _PARSE_CALLS or name in _REJECTED_FUNCTIONS:
            raise self.fail(f"function {name!r} used as a name")
        return symbol(name)

    def unary(self, node: ast.UnaryOp) -> sympy.Basic:
        if isinstance(node.op, ast.USub):
            return -self.int_arg(node.operand)
        if isinstance(node.op, ast.UAdd):
            return self.int_arg(node.operand)
        # `~` is how sympy prints Not; Python's `not` means the same on conditions.
        return BUILD_OPS["Not"](self.bool_arg(node.operand))

    def binop(self, node: ast.BinOp) -> sympy.Basic:
        if isinstance(node.op, ast.Add | ast.Sub):
            return self.sum(node)
        if isinstance(node.op, ast.Mult):
            return self.product(node)
        if isinstance(node.op, ast.BitAnd | ast.BitOr):
            name = "And" if isinstance(node.op, ast.BitAnd) else "Or"
            return BUILD_OPS[name](self.bool_arg(node.left), self.bool_arg(node.right))
        op = _BINOPS.get(type(node.op))
        if op is None:
            raise self.fail(f"unsupported operator {type(node.op).__name__}")
        return BUILD_OPS[op](self.int_arg(node.left), self.int_arg(node.right))

    def sum(self, chain: ast.BinOp) -> sympy.Basic:
        # One sympy.Add for the whole chain `a + b - c + ...`: linear, not quadratic.
        terms: list[sympy.Basic] = []
        node: ast.expr = chain
        while isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub):
            term = self.int_arg(node.right)
            terms.append(-term if isinstance(node.op, ast.Sub) else term)
            node = node.left
        terms.append(self.int_arg(node))
        return sympy.Add(*reversed(terms))

    def product(self, chain: ast.BinOp) -> sympy.Basic:
        # sympy prints Mul(-2, s0 + s1, x) as `-2*(s0 + s1)*x`; Python reads that as
        # ((-2)*(s0 + s1))*x, and the 2-factor Mul would distribute. So one sympy.Mul for
        # the whole chain, with a leading `-` taken as a factor -1.
        factors: list[ast.expr] = []
        node: ast.expr = chain
        while isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            factors.append(node.right)
            node = node.left
        args: list[sympy.Basic] = []
        while isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            args.append(sympy.S.NegativeOne)
            node = node.operand
        factors.append(node)
        args.extend(self.int_arg(f) for f in reversed(factors))
        return sympy.Mul(*args)

    def call(self, node: ast.Call) -> sympy.Basic:
        if not isinstance(node.func, ast.Name):
            raise self.fail("unsupported call (only named functions)")
        name = node.func.id
        if name in _REJECTED_FUNCTIONS:
            raise self.fail(f"float function {name!r} is not supported in SymInt expressions")
        if name == "Piecewise":
            return self.piecewise(node)
        if name not in _PARSE_CALLS:
            raise self.fail(f"unknown function {name!r}")
        if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            raise self.fail(f"{name}() takes positional arguments only")
        build, lo, hi, kinds = _PARSE_CALLS[name]
        n = len(node.args)
        if n < lo or (hi is not None and n > hi):
            want = f"{lo}" if lo == hi else f"{lo}..{hi}" if hi is not None else f"at least {lo}"
            raise self.fail(f"{name}() takes {want} arguments, got {n}")
        arg_kinds = kinds if isinstance(kinds, tuple) else (kinds,) * n
        return build(*[self.arg(a, k) for a, k in zip(node.args, arg_kinds, strict=True)])

    def piecewise(self, node: ast.Call) -> sympy.Basic:
        if node.keywords or not node.args:
            raise self.fail("Piecewise() takes (value, condition) pairs")
        pairs = []
        for a in node.args:
            if not (isinstance(a, ast.Tuple) and len(a.elts) == 2):
                raise self.fail("Piecewise() takes (value, condition) pairs")
            pairs.append((self.int_arg(a.elts[0]), self.bool_arg(a.elts[1])))
        return BUILD_OPS["Piecewise"](*pairs)

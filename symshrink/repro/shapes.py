"""Whether a model's graph can trace at its hints: shapes carried through forward, no torch.

A candidate whose graph cannot trace (a bypassed node whose tensor no longer fits a `view`,
an `iota` handed a tensor, an expression edited so that two operands no longer broadcast)
is not interesting, and an oracle call is a compile to learn that. The model knows every
size at the hints: the inputs' expressions give the tensors' shapes and the SymInts'
values, and the ops of an after-aot graph give the rest. `untraceable` runs forward on
those shapes and says why it would fail, for the ops it knows (views and reshapes keep
the number of elements, binary ops broadcast, matrix products agree, dims exist, an op
that takes a tensor gets one and a size is not a tensor); what it does not know (an op
not in its table, a value it cannot compute) is unknown and never an objection. So it
only rejects what torch's own checks would reject at the hints.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from symshrink.errors import ExprError
from symshrink.expr import evaluate, free_symbol_names
from symshrink.repro import source
from symshrink.repro.model import Repro, SymIntInput, TensorInput

__all__ = ["UNKNOWN", "Tensor", "untraceable", "values"]


@dataclass(frozen=True)
class Tensor:
    """A tensor's shape at the hints; a dim is None where it cannot be computed. Its
    strides where the ops that made it say them for certain (inputs, `expand`, `permute`,
    views, new tensors), else None."""

    shape: tuple[int | None, ...]
    strides: tuple[int, ...] | None = None

    @property
    def rank(self) -> int:
        return len(self.shape)


class _Unknown:
    """A value the check cannot compute: any use of it is allowed."""

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN = _Unknown()


class _Dotted(str):
    """A dotted name as an argument (`torch.contiguous_format`), by its text."""


_CONTIGUOUS_FORMAT = _Dotted("torch.contiguous_format")


class Untraceable(Exception):
    """The statement being run would fail in torch at the hints; the message says why."""


class _Give(Exception):
    """An op handler cannot say what its result is (an argument it does not model)."""


def untraceable(repro: Repro) -> str | None:
    """Why `repro`'s forward cannot trace at its hints (the statement and what does not
    fit), or None if it can or the check cannot tell."""
    return _run(repro)[1]


def values(repro: Repro) -> dict[str, Any]:
    """The values of forward's names (parameters and nodes) at the hints, as far as forward
    traces: a `Tensor` (its shape), an int, or UNKNOWN."""
    return _run(repro)[0]


def _run(repro: Repro) -> tuple[dict[str, Any], str | None]:
    """The values of forward's names at the hints, up to the statement that cannot trace
    (and why), or all of them."""
    params = source.forward_params(repro.module_source)
    if len(params) != len(repro.inputs):
        return {}, None
    pairs = zip(params, repro.inputs, strict=True)
    env: dict[str, Any] = {p: _input_value(repro, x) for p, x in pairs}
    for stmt in source.forward_body(repro.module_source):
        try:
            if isinstance(stmt, ast.Assign):
                value = _eval(stmt.value, env)
                for target in stmt.targets:
                    if isinstance(target, ast.Name):
                        env[target.id] = value if len(stmt.targets) == 1 else UNKNOWN
                    else:
                        for n in ast.walk(target):
                            if isinstance(n, ast.Name):
                                env[n.id] = UNKNOWN
            elif isinstance(stmt, ast.Return | ast.Expr) and stmt.value is not None:
                _eval(stmt.value, env)
        except Untraceable as e:
            return env, f"{ast.unparse(stmt)}: {e}"
    return env, None


def _input_value(repro: Repro, x: object) -> Any:
    if isinstance(x, TensorInput):
        shape = tuple(_at_hints(e, repro.hints) for e in x.shape)
        if x.stride is None:
            return _contiguous(shape)
        strides = tuple(_at_hints(e, repro.hints) for e in x.stride)
        known = None if None in strides else tuple(d for d in strides if d is not None)
        return Tensor(shape, known)
    if isinstance(x, SymIntInput):
        value = _at_hints(x.expr, repro.hints) if x.expr is not None else x.hint
        return UNKNOWN if value is None else value
    return UNKNOWN


def _at_hints(expr: Any, hints: Mapping[str, int]) -> int | None:
    if not free_symbol_names(expr) <= hints.keys():
        return None  # unbacked
    try:
        return evaluate(expr, hints)
    except ExprError:
        return None


_BINOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}


def _eval(node: ast.expr, env: Mapping[str, Any]) -> Any:
    """The value of an expression of forward; raises Untraceable where torch would fail."""
    if isinstance(node, ast.Name):
        return env.get(node.id, UNKNOWN)
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.List | ast.Tuple):
        return [_eval(e, env) for e in node.elts]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        value = _eval(node.operand, env)
        return -value if _is_int(value) else UNKNOWN
    if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
        left, right = _eval(node.left, env), _eval(node.right, env)
        if _is_int(left) and _is_int(right):
            if isinstance(node.op, ast.FloorDiv | ast.Mod) and right == 0:
                return UNKNOWN
            return _BINOPS[type(node.op)](left, right)
        return UNKNOWN
    if isinstance(node, ast.Attribute):
        return _Dotted(ast.unparse(node))
    if isinstance(node, ast.Call):
        op = _OPS.get(ast.unparse(node.func))
        args = [_eval(a, env) for a in node.args]
        kwargs = {k.arg: _eval(k.value, env) for k in node.keywords if k.arg is not None}
        if (
            op is None
            or any(isinstance(a, ast.Starred) for a in node.args)
            or (any(k.arg is None for k in node.keywords))
        ):
            return UNKNOWN
        try:
            return op(_Args(args, kwargs))
        except _Give:
            return UNKNOWN
    return UNKNOWN


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Args:
    """An op's arguments by position or keyword, as its schema names them."""

    def __init__(self, args: list[Any], kwargs: dict[str, Any]) -> None:
        self.args, self.kwargs = args, kwargs

    def get(self, index: int, name: str, default: Any = UNKNOWN) -> Any:
        if index < len(self.args):
            return self.args[index]
        return self.kwargs.get(name, default)

    def tensor(self, index: int, name: str) -> Tensor:
        """A tensor argument: a number there fails (torch's schema check); unknown gives up."""
        value = self.get(index, name)
        if isinstance(value, Tensor):
            return value
        if isinstance(value, int | float):
            raise Untraceable(f"{name} must be a tensor, got {type(value).__name__} {value}")
        raise _Give

    def operand(self, index: int, name: str) -> Tensor:
        """An operand of the arithmetic ops, which take a number as a 0-dim tensor."""
        value = self.get(index, name)
        if isinstance(value, Tensor):
            return value
        if isinstance(value, int | float):
            return Tensor(())
        raise _Give

    def integer(self, index: int, name: str, default: Any = UNKNOWN) -> int:
        """An int argument (a size, a dim): a tensor of one or more dims there fails."""
        return _as_int(self.get(index, name, default), name)

    def integers(self, index: int, name: str, default: Any = UNKNOWN) -> list[int | None]:
        """A list of ints; an element that cannot be computed is None."""
        value = self.get(index, name, default)
        if isinstance(value, Tensor) and value.rank > 0:
            raise Untraceable(f"{name} must be a list of ints, got a tensor")
        if not isinstance(value, list):
            raise _Give
        out: list[int | None] = []
        for v in value:
            try:
                out.append(_as_int(v, name))
            except _Give:
                out.append(None)
        return out


def _as_int(value: Any, name: str) -> int:
    if _is_int(value):
        return value
    if isinstance(value, Tensor) and value.rank > 0:
        raise Untraceable(f"{name} must be an int, got a tensor of shape {_show(value.shape)}")
    raise _Give  # a 0-dim tensor passes as an int through __index__; unknown


def _show(shape: Sequence[int | None]) -> str:
    return "(" + ", ".join("?" if d is None else str(d) for d in shape) + ")"


def _dim(d: int, rank: int, name: str = "dim") -> int:
    """`d` wrapped into [0, rank) as torch does (a 0-dim tensor has dims -1 and 0)."""
    bound = max(rank, 1)
    if not -bound <= d < bound:
        raise Untraceable(f"{name} {d} out of range for a tensor of {rank} dims")
    return d % bound


def _broadcast(*shapes: tuple[int | None, ...]) -> Tensor:
    rank = max(len(s) for s in shapes)
    out: list[int | None] = []
    for i in range(rank):
        sizes = {s[len(s) - rank + i] for s in shapes if len(s) - rank + i >= 0}
        known = {d for d in sizes if d is not None and d != 1}
        if len(known) > 1:
            raise Untraceable(f"shapes {', '.join(_show(s) for s in shapes)} do not broadcast")
        if None in sizes and not known:
            out.append(None)
        else:
            out.append(known.pop() if known else 1)
    return Tensor(tuple(out))


def _contiguous(shape: tuple[int | None, ...]) -> Tensor:
    if None in shape:
        return Tensor(shape)
    strides, step = [], 1
    for d in reversed(shape):
        strides.append(step)
        step *= max(d or 0, 1)
    return Tensor(shape, tuple(reversed(strides)))


def _view_strides(
    shape: tuple[int, ...], strides: tuple[int, ...], new: tuple[int, ...]
) -> tuple[int, ...] | None:
    """The strides of `new` viewing memory laid out as (shape, strides), or None where no
    view can (ATen's computeStride)."""
    if not shape:
        return tuple(1 for _ in new)
    out = [0] * len(new)
    view_d = len(new) - 1
    base = strides[-1]
    tensor_numel = view_numel = 1
    for d in range(len(shape) - 1, -1, -1):
        tensor_numel *= shape[d]
        if d == 0 or (shape[d - 1] != 1 and strides[d - 1] != tensor_numel * base):
            while view_d >= 0 and (view_numel < tensor_numel or new[view_d] == 1):
                out[view_d] = view_numel * base
                view_numel *= new[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if d > 0:
                base = strides[d - 1]
                tensor_numel = view_numel = 1
    return tuple(out) if view_d == -1 else None


def _numel(shape: Sequence[int | None]) -> int | None:
    return None if None in shape else math.prod(d for d in shape if d is not None)


def _arith(a: _Args) -> Tensor:
    return _broadcast(a.operand(0, "self").shape, a.operand(1, "other").shape)


def _binary(a: _Args) -> Tensor:
    other = a.get(1, "other")
    shapes = [a.tensor(0, "self").shape]
    if isinstance(other, Tensor):
        shapes.append(other.shape)
    return _broadcast(*shapes)


def _where(a: _Args) -> Tensor:
    cond, x, y = a.tensor(0, "condition"), a.tensor(1, "self"), a.tensor(2, "other")
    return _broadcast(cond.shape, x.shape, y.shape)


def _same(a: _Args) -> Tensor:
    return Tensor(a.tensor(0, "self").shape)


def _clone(a: _Args) -> Tensor:
    x = a.tensor(0, "self")
    contiguous = a.kwargs.get("memory_format") == _CONTIGUOUS_FORMAT
    return _contiguous(x.shape) if contiguous else Tensor(x.shape)


def _scalar(a: _Args) -> Tensor:
    return Tensor(())


def _reduce_all(a: _Args) -> Tensor:
    a.tensor(0, "self")
    return Tensor(())


def _reduce_dims(a: _Args) -> Tensor:
    x = a.tensor(0, "self")
    if a.get(1, "dim", None) in (None, []):
        reduced = set(range(x.rank))
    else:
        one = not isinstance(a.get(1, "dim"), list)
        listed = [a.integer(1, "dim")] if one else a.integers(1, "dim")
        if None in listed:
            raise _Give
        reduced = {_dim(d, x.rank) for d in listed if d is not None}
    keep = a.get(2, "keepdim", False)
    if not isinstance(keep, bool):
        raise _Give
    return Tensor(
        tuple(1 if i in reduced else d for i, d in enumerate(x.shape) if keep or i not in reduced)
    )


def _view(a: _Args) -> Tensor:
    x = a.tensor(0, "self")
    sizes = a.integers(1, "size")
    if any(d is not None and d < -1 for d in sizes) or sizes.count(-1) > 1:
        raise Untraceable(f"invalid shape {_show(sizes)}")
    numel = _numel(x.shape)
    if -1 in sizes:
        rest = _numel([d for d in sizes if d != -1])
        if numel is None or rest is None or rest == 0:
            return Tensor(tuple(None if d == -1 else d for d in sizes))
        if numel % rest:
            raise Untraceable(f"shape {_show(sizes)} is invalid for a tensor of {numel} elements")
        return Tensor(tuple(numel // rest if d == -1 else d for d in sizes))
    if numel is not None and _numel(sizes) is not None and numel != _numel(sizes):
        raise Untraceable(
            f"shape {_show(sizes)} is invalid for a tensor of shape {_show(x.shape)} "
            f"({numel} elements)"
        )
    return Tensor(tuple(sizes))


def _strided_view(a: _Args) -> Tensor:
    """`view`: `reshape`'s shapes, and memory that a view can read (no copy)."""
    x, out = a.tensor(0, "self"), _view(a)
    if x.strides is None or None in x.shape or None in out.shape or not _numel(out.shape):
        return out
    old = tuple(d for d in x.shape if d is not None)
    new = tuple(d for d in out.shape if d is not None)
    strides = _view_strides(old, x.strides, new)
    if strides is None:
        raise Untraceable(
            f"cannot view a tensor of shape {_show(old)} and strides {x.strides} as "
            f"{_show(new)}: no strides fit (it would need a copy)"
        )
    return Tensor(out.shape, strides)


def _expand(a: _Args) -> Tensor:
    x = a.tensor(0, "self")
    sizes = a.integers(1, "size")
    if len(sizes) < x.rank:
        raise Untraceable(f"cannot expand {_show(x.shape)} to {len(sizes)} dims")
    lead = len(sizes) - x.rank
    out: list[int | None] = []
    for i, size in enumerate(sizes):
        if i < lead:
            if size is not None and size < 0:
                raise Untraceable(f"expanded size {size} in a new leading dim")
            out.append(size)
            continue
        have = x.shape[i - lead]
        if size == -1:
            out.append(have)
        elif size is not None and have is not None and have not in (1, size):
            raise Untraceable(f"cannot expand {_show(x.shape)} to {_show(sizes)}")
        else:
            out.append(size)
    if x.strides is None or None in out or None in x.shape:
        return Tensor(tuple(out))
    strides = [0] * lead + [
        0 if have == 1 and size != 1 else stride
        for have, size, stride in zip(x.shape, out[lead:], x.strides, strict=True)
    ]
    return Tensor(tuple(out), tuple(strides))


def _permute(a: _Args) -> Tensor:
    x = a.tensor(0, "self")
    dims = a.integers(1, "dims")
    if None in dims:
        raise _Give
    wrapped = [_dim(d, x.rank) for d in dims if d is not None]
    if len(wrapped) != x.rank or sorted(wrapped) != list(range(x.rank)):
        raise Untraceable(f"permute {dims} of a tensor of {x.rank} dims")
    strides = None if x.strides is None else tuple(x.strides[d] for d in wrapped)
    return Tensor(tuple(x.shape[d] for d in wrapped), strides)


def _unsqueeze(a: _Args) -> Tensor:
    x = a.tensor(0, "self")
    d = _dim(a.integer(1, "dim"), x.rank + 1)
    shape = (*x.shape[:d], 1, *x.shape[d:])
    if x.strides is None or (d < x.rank and x.shape[d] is None):
        return Tensor(shape)
    new = 1 if d >= x.rank else x.shape[d] * x.strides[d]  # type: ignore[operator]
    return Tensor(shape, (*x.strides[:d], new, *x.strides[d:]))


def _squeeze_dim(a: _Args) -> Tensor:
    x = a.tensor(0, "self")
    if x.rank == 0:
        return x
    d = _dim(a.integer(1, "dim"), x.rank)
    if x.shape[d] is None:
        raise _Give
    if x.shape[d] != 1:
        return x
    strides = None if x.strides is None else x.strides[:d] + x.strides[d + 1 :]
    return Tensor(x.shape[:d] + x.shape[d + 1 :], strides)


def _transpose(a: _Args) -> Tensor:
    x = a.tensor(0, "self")
    if x.rank == 0:
        return x
    i, j = _dim(a.integer(1, "dim0"), x.rank), _dim(a.integer(2, "dim1"), x.rank)
    shape = list(x.shape)
    shape[i], shape[j] = shape[j], shape[i]
    return Tensor(tuple(shape))


def _t(a: _Args) -> Tensor:
    x = a.tensor(0, "self")
    if x.rank > 2:
        raise Untraceable(f"t() of a tensor of {x.rank} dims")
    return Tensor(tuple(reversed(x.shape)))


def _agree(left: int | None, right: int | None, what: str) -> None:
    if left is not None and right is not None and left != right:
        raise Untraceable(what)


def _mm(a: _Args) -> Tensor:
    x, y = a.tensor(0, "self"), a.tensor(1, "mat2")
    if x.rank != 2 or y.rank != 2:
        raise Untraceable(f"mm of tensors of {x.rank} and {y.rank} dims")
    _agree(x.shape[1], y.shape[0], f"mm of {_show(x.shape)} and {_show(y.shape)}")
    return Tensor((x.shape[0], y.shape[1]))


def _bmm(a: _Args) -> Tensor:
    x, y = a.tensor(0, "self"), a.tensor(1, "mat2")
    if x.rank != 3 or y.rank != 3:
        raise Untraceable(f"bmm of tensors of {x.rank} and {y.rank} dims")
    what = f"bmm of {_show(x.shape)} and {_show(y.shape)}"
    _agree(x.shape[0], y.shape[0], what)
    _agree(x.shape[2], y.shape[1], what)
    return Tensor((x.shape[0], x.shape[1], y.shape[2]))


def _addmm(a: _Args) -> Tensor:
    bias, x, y = a.tensor(0, "self"), a.tensor(1, "mat1"), a.tensor(2, "mat2")
    out = _mm(_Args([x, y], {}))
    _broadcast(bias.shape, out.shape)
    return out


def _cat(a: _Args) -> Tensor:
    parts = a.get(0, "tensors")
    if not isinstance(parts, list) or not all(isinstance(p, Tensor) for p in parts):
        raise _Give
    tensors = [p for p in parts if p.shape != (0,)]  # torch skips legacy empty 1-d tensors
    if not tensors:
        return Tensor((0,))
    rank = tensors[0].rank
    d = _dim(a.integer(1, "dim", 0), rank)
    if any(t.rank != rank for t in tensors):
        raise Untraceable(f"cat of tensors of {sorted({t.rank for t in tensors})} dims")
    out: list[int | None] = []
    for i in range(rank):
        sizes = [t.shape[i] for t in tensors]
        if i == d:
            out.append(None if None in sizes else sum(s for s in sizes if s is not None))
            continue
        known = {s for s in sizes if s is not None}
        if len(known) > 1:
            raise Untraceable(f"cat of {', '.join(_show(t.shape) for t in tensors)} on dim {d}")
        out.append(known.pop() if known and None not in sizes else None)
    return Tensor(tuple(out))


def _slice_length(size: int | None, start: Any, end: Any, step: int) -> int | None:
    """The length of `x[start:end:step]` along a dim of `size`, where it does not depend on
    how the trace clamps or wraps: symbolic tracing need not clamp as eager does."""
    start = 0 if start is None else start
    end = size if end is None else end
    if not (_is_int(size) and _is_int(start) and _is_int(end)) or not 0 <= start <= end <= size:
        return None
    return len(range(start, end, step))


def _slice(a: _Args) -> Tensor:
    x = a.tensor(0, "self")
    if x.rank == 0:
        raise Untraceable("slice() cannot be applied to a 0-dim tensor")
    d = _dim(a.integer(1, "dim", 0), x.rank)
    step = a.integer(4, "step", 1)
    if step <= 0:
        raise Untraceable(f"slice step {step} must be positive")
    length = _slice_length(x.shape[d], a.get(2, "start", None), a.get(3, "end", None), step)
    return Tensor((*x.shape[:d], length, *x.shape[d + 1 :]))


def _slice_scatter(a: _Args) -> Tensor:
    """`self`'s shape; `src` is not checked against the slice: the trace lets a 0-dim one
    through."""
    a.tensor(1, "src")
    return Tensor(a.tensor(0, "self").shape)


def _select(a: _Args) -> Tensor:
    x = a.tensor(0, "self")
    if x.rank == 0:
        raise Untraceable("select() of a 0-dim tensor")
    d, index = _dim(a.integer(1, "dim"), x.rank), a.integer(2, "index")
    size = x.shape[d]
    if size is not None and not -size <= index < size:
        raise Untraceable(f"index {index} out of range for size {size}")
    return Tensor(x.shape[:d] + x.shape[d + 1 :])


def _pad(a: _Args) -> Tensor:
    x = a.tensor(0, "self")
    pad = a.integers(1, "pad")
    if len(pad) % 2 or len(pad) > 2 * x.rank:
        raise Untraceable(f"pad {pad} for a tensor of {x.rank} dims")
    shape = list(x.shape)
    for i in range(len(pad) // 2):
        d, low, high = x.rank - 1 - i, pad[2 * i], pad[2 * i + 1]
        size = shape[d]
        if size is None or low is None or high is None:
            shape[d] = None
            continue
        size += low + high
        if size < 0:
            raise Untraceable(f"padded size {size} of dim {d} is negative")
        shape[d] = size
    return Tensor(tuple(shape))


def _new_shape(a: _Args) -> Tensor:
    sizes = a.integers(0, "size")
    if any(d is not None and d < 0 for d in sizes):
        raise Untraceable(f"negative size in {_show(sizes)}")
    return _contiguous(tuple(sizes))


def _full(a: _Args) -> Tensor:
    fill = a.get(1, "fill_value")
    if isinstance(fill, Tensor):
        raise Untraceable("fill_value must be a number, got a tensor")
    return _new_shape(a)


def _iota(a: _Args) -> Tensor:
    length = a.integer(0, "length")
    if length < 0:
        raise Untraceable(f"iota of negative length {length}")
    return _contiguous((length,))


def _sym_size(a: _Args) -> int:
    x = a.tensor(0, "self")
    size = x.shape[_dim(a.integer(1, "dim"), x.rank)]
    if size is None:
        raise _Give
    return size


def _sym_numel(a: _Args) -> int:
    numel = _numel(a.tensor(0, "self").shape)
    if numel is None:
        raise _Give
    return numel


def _getitem(a: _Args) -> Any:
    items, index = a.get(0, "a"), a.get(1, "b")
    if isinstance(items, list) and _is_int(index) and -len(items) <= index < len(items):
        return items[index]
    raise _Give


def _sym_sum(a: _Args) -> int:
    values = a.get(0, "args")
    if not isinstance(values, list) or not all(_is_int(v) for v in values):
        raise _Give
    return sum(values)


def _ops() -> dict[str, Callable[[_Args], Any]]:
    aten = "torch.ops.aten."
    table: dict[str, Callable[[_Args], Any]] = {}
    for name in ("add", "sub", "mul", "div"):
        table[f"{aten}{name}.Tensor"] = _arith
        table[f"{aten}{name}.Scalar"] = _arith
    for name in ("eq", "ne", "lt", "le", "gt", "ge", "remainder", "bitwise_and", "bitwise_or"):
        table[f"{aten}{name}.Tensor"] = _binary
        table[f"{aten}{name}.Scalar"] = _binary
    for name in ("maximum.default", "minimum.default", "pow.Tensor_Scalar", "rsub.Scalar"):
        table[aten + name] = _binary
    for name in (
        "alias", "neg", "exp", "relu", "abs", "sigmoid", "tanh", "sqrt", "rsqrt",
        "log", "detach", "reciprocal", "ceil", "floor",
    ):  # fmt: skip
        table[f"{aten}{name}.default"] = _same
    table["torch.ops.prims.convert_element_type.default"] = _same
    table[aten + "clone.default"] = _clone
    table[aten + "where.self"] = _where
    table[aten + "sum.default"] = _reduce_all
    for name in ("sum.dim_IntList", "mean.dim", "amax.default", "amin.default"):
        table[aten + name] = _reduce_dims
    table[aten + "view.default"] = _strided_view
    for name in ("reshape.default", "_unsafe_view.default"):
        table[aten + name] = _view
    table[aten + "expand.default"] = _expand
    table[aten + "permute.default"] = _permute
    table[aten + "unsqueeze.default"] = _unsqueeze
    table[aten + "squeeze.dim"] = _squeeze_dim
    table[aten + "transpose.int"] = _transpose
    table[aten + "t.default"] = _t
    table[aten + "mm.default"] = _mm
    table[aten + "bmm.default"] = _bmm
    table[aten + "addmm.default"] = _addmm
    table[aten + "cat.default"] = _cat
    table[aten + "slice.Tensor"] = _slice
    table[aten + "slice_scatter.default"] = _slice_scatter
    table[aten + "select.int"] = _select
    table[aten + "constant_pad_nd.default"] = _pad
    table[aten + "full.default"] = _full
    for name in ("zeros.default", "ones.default", "empty.memory_format"):
        table[aten + name] = _new_shape
    table[aten + "scalar_tensor.default"] = _scalar
    table["torch.ops.prims.iota.default"] = _iota
    table[aten + "sym_size.int"] = _sym_size
    table[aten + "sym_numel.default"] = _sym_numel
    table["torch.sym_sum"] = _sym_sum
    table["operator.getitem"] = _getitem
    return table


_OPS = _ops()

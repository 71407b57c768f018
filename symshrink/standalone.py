"""A repro script that shows the slow compile with only torch installed.

A bug report cannot ask torch developers to install symshrink, and torch's own
`run_repro` retraces every SymInt as an independent symbol, so the slow compile does not
come back. `render_standalone` writes the after-aot layout unchanged (hint lines, the
preamble, `class Repro`, `load_args`, `mod = Repro()`: torch's tools and `symshrink
inspect` still read it, and `parse(render_standalone(m)) == m`) followed by a small
wrapper that does what `symshrink.retrace` does in preserved mode: one symbol per free
symbol with the script's name and hint in a `ShapeEnv(duck_shape=False)`, derived SymInts
as Python code over those SymInts, fake tensors with exactly the model's sizes, strides
and offsets, carriers for symbols no input carries bare, `make_fx(tracing_mode='symbolic')`
and `compile_fx_inner`, timed by phase.

The wrapper's code is real code, not text kept in strings: the `_retrace_*` functions
below and retrace's own helpers (`symint_ops`, `_wrapper`, ...) are copied into the
script with `inspect.getsource`, so there is one implementation, linted and tested. Only
`_retrace_inputs`, the inputs of one model, is generated, by `symint_code`.

`python min.py` retraces and compiles without the C++ step (`--native` includes it) and
prints the compiled graph's free symbols and seconds per phase; `python min.py
--torch-run-repro` runs torch's `run_repro` with the script's original options.
"""

from __future__ import annotations

import ast
import functools
import inspect
import logging
import re
import textwrap
from collections.abc import Callable
from typing import Any

import sympy

from symshrink.errors import ExprError, ReproError
from symshrink.expr import OP_NAMES, fold, free_symbol_names
from symshrink.repro.model import OtherInput, Repro, SymIntInput, TensorInput
from symshrink.repro.render import render, render_main
from symshrink.retrace import (
    _TIMED_KEYS,
    PHASES,
    _caused_by,
    _free_symbols,
    _NativeCompileSkipped,
    _placeholders,
    _quiet,
    _sizes,
    _wrapper,
    symint_ops,
)

log = logging.getLogger(__name__)

__all__ = [
    "CODE_OPS",
    "TORCH_RUN_REPRO_FLAG",
    "is_standalone",
    "render_output",
    "render_standalone",
    "symint_code",
]

TORCH_RUN_REPRO_FLAG = "--torch-run-repro"

_INDENT = "    "
_PLAIN_NAME = re.compile(r"^[a-z]+\d+$")  # torch's symbol names: safe as local variables

# --------------------------------------------------------------------- the code printer


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

The code may use `torch`, `math` and `ops` (the script's `symint_ops(env)`).
"""


def _leaf(name: str) -> str:
    return name if _PLAIN_NAME.match(name) else f"syms[{name!r}]"


def symint_code(expr: sympy.Basic) -> str:
    """Python code computing `expr` with real SymInts (symbols as local names or `syms[...]`).

    Raises ExprError for a node the printer cannot write.
    """
    return fold(expr, _leaf, CODE_OPS)


# ------------------------------------------------------------------ runtime (copied)


def _retrace_symbols(env: Any, hints: dict[str, int], unbacked: list[str]) -> dict[str, Any]:
    """Symbol name -> SymInt: one per free symbol, keeping the script's names and hints.

    No duck sizing (the ShapeEnv's job); hints 0 and 1 specialize to ints, as in torch.
    """
    import re

    from torch._dynamo.source import ConstantSource
    from torch.fx.experimental.symbolic_shapes import DimDynamic

    default_id = env._generate_unique_id

    def same_id(source_name: str) -> int:
        m = re.fullmatch(r"s(\d+)", source_name)
        if m and int(m[1]) not in env.unique_ids:
            env.unique_ids.add(int(m[1]))
            return int(m[1])
        return default_id(source_name)

    env._generate_unique_id = same_id  # s57 stays s57 in every message and graph
    syms: dict[str, Any] = {}
    for name, hint in hints.items():
        src = ConstantSource(name)
        positive = True if hint >= 0 else None
        expr = env.create_symbol(hint, src, dynamic_dim=DimDynamic.DYNAMIC, positive=positive)
        syms[name] = (
            int(expr) if expr.is_number else env.create_symintnode(expr, hint=hint, source=src)
        )
    for name in unbacked:
        with env.ignore_fresh_unbacked_symbols():  # an input: no graph node binds it
            syms[name] = env.create_unbacked_symint()
    return syms


def _retrace_tensor(
    shape: Any,
    stride: Any = None,
    *,
    offset: Any = 0,
    nbytes: Any = None,
    dtype: Any = None,
    device: Any = None,
) -> Any:
    """A fake tensor whose sizes, strides and offset are exactly these (Sym)Ints."""
    import torch
    from torch._prims_common import make_contiguous_strides_for

    dtype = dtype or torch.float32
    stride = list(stride) if stride is not None else make_contiguous_strides_for(shape)
    if isinstance(offset, int) and offset == 0:
        return torch.empty_strided(shape, stride, dtype=dtype, device=device)
    base = torch.empty((nbytes // dtype.itemsize,), dtype=dtype, device=device)
    return torch.as_strided(base, shape, stride, offset)


def _retrace_device(target: Any) -> Any:
    """`torch.device(...)`, moved to `target` unless that is None (run as captured)."""
    import torch

    def device(*args: Any, **kwargs: Any) -> Any:
        dev = args[0] if len(args) == 1 and not kwargs else torch.device(*args, **kwargs)
        return torch.device(target if target is not None else dev)

    return device


def _retrace_main(
    argv: list[str], mod: Any, make_inputs: Any, scope: dict[str, Any], expected: int
) -> int:
    """Retrace `mod` on the preserved inputs, compile with Inductor, print symbols and phases."""
    import argparse
    import contextlib
    import time
    from unittest import mock

    import torch
    import torch._dynamo.config as dynamo_config
    import torch._inductor.config as inductor_config
    from torch._dynamo.utils import compilation_time_metrics
    from torch._inductor.compile_fx import compile_fx_inner
    from torch._inductor.cpu_vec_isa import pick_vec_isa
    from torch._inductor.graph import GraphLowering
    from torch._inductor.utils import fresh_cache
    from torch._subclasses.fake_tensor import FakeTensorMode
    from torch.fx.experimental.proxy_tensor import make_fx
    from torch.fx.experimental.symbolic_shapes import ShapeEnv

    parser = argparse.ArgumentParser(
        description="Retrace this repro with its SymInt relationships preserved (not as "
        "run_repro does, every SymInt a fresh symbol) and time Inductor's compile. "
        "--torch-run-repro runs torch's run_repro instead."
    )
    parser.add_argument("--native", action="store_true", help="include the C++/Triton compile")
    parser.add_argument("--device", help="run here [default: as captured, CPU without CUDA]")
    ns = parser.parse_args(argv)
    target = ns.device or (None if torch.cuda.is_available() else "cpu")
    dev = _retrace_device(target)
    if target is not None:
        scope["device"] = dev  # the graph code calls device(...)

    def stop(*_: Any, **__: Any) -> None:
        raise _NativeCompileSkipped

    env = ShapeEnv(duck_shape=False)
    with contextlib.ExitStack() as stack:
        stack.enter_context(fresh_cache())
        stack.enter_context(inductor_config.patch(force_disable_caches=True, compile_threads=1))
        stack.enter_context(dynamo_config.patch(repro_after=None))
        stack.enter_context(torch.no_grad())
        if not ns.native:  # the vector-ISA probe compiles C++ test programs
            stack.enter_context(inductor_config.patch({"cpp.vec_isa_ok": True}))
            stack.enter_context(mock.patch.object(GraphLowering, "_compile_to_module_lines", stop))
            stack.enter_context(_quiet("torch._inductor.utils", "temporary cache dir kept"))
        with FakeTensorMode(shape_env=env):
            values, carried = make_inputs(env, dev)
            where = next((v.device for v in values if isinstance(v, torch.Tensor)), None)
            carriers = [
                torch.empty((s,), dtype=torch.int8, device=where)
                for s in carried
                if isinstance(s, torch.SymInt)
            ]
        slots: list[tuple[str, Any]] = []
        args: list[Any] = []
        for v in values:
            if isinstance(v, torch.Tensor | torch.SymInt):
                slots.append(("arg", len(args)))
                args.append(v)
            else:  # plain ints and other inputs stay constants, as in the original graph
                slots.append(("const", v))
        seen: list[Any] = []
        t0 = time.perf_counter()
        gm = make_fx(_wrapper(mod, slots, seen), tracing_mode="symbolic")(*args, *carriers)
        trace_s = time.perf_counter() - t0
        symbols = len(_free_symbols(seen))
        example = [
            n.meta.get("val", a) for n, a in zip(_placeholders(gm), [*args, *carriers], strict=True)
        ]
        pick_vec_isa()  # a per-process probe, not part of this graph's compile
        compilation_time_metrics.clear()
        t0 = time.perf_counter()
        try:
            compile_fx_inner(gm, example)
        except Exception as e:
            if not _caused_by(e, _NativeCompileSkipped):
                raise
        compile_s = time.perf_counter() - t0
    times = {p: sum(compilation_time_metrics.get(k, ())) for p, k in _TIMED_KEYS.items()}
    times["codegen"] -= times["scheduling"]  # Scheduler.__init__ runs inside codegen
    if not ns.native:
        del times["native"]
    times = {"trace": trace_s, **times, "other": max(0.0, compile_s - sum(times.values()))}
    print(f"free symbols: {symbols} (the script has {expected})")
    for phase in PHASES:
        if phase in times:
            print(f"{phase:<12}{times[phase]:>10.3f} s")
    print(f"{'total':<12}{trace_s + compile_s:>10.3f} s")
    if symbols != expected:
        print("the compiled graph lost symbols: the relationships are not what the script says")
        return 1
    return 0


# Copied into every script, in this order: retrace's helpers first, then ours.
_RUNTIME: tuple[Any, ...] = (
    symint_ops,
    _NativeCompileSkipped,
    _wrapper,
    _placeholders,
    _sizes,
    _free_symbols,
    _caused_by,
    _quiet,
    _retrace_symbols,
    _retrace_tensor,
    _retrace_device,
    _retrace_main,
)
_RUNTIME_IMPORTS = (
    "import contextlib",
    "import functools",
    "import logging",
    "import math",
    "import operator",
    "from collections.abc import Callable, Iterator, Mapping",
    "from typing import Any",
)


@functools.cache
def _runtime() -> str:
    """The wrapper code every standalone script carries (no symshrink import in it)."""
    banner = "# " + "-" * 76 + "\n# symshrink's retrace, self-contained: needs only torch.\n"
    constants = (
        f"PHASES = {PHASES!r}",
        f"_TIMED_KEYS = {_TIMED_KEYS!r}",
        f"OP_NAMES = frozenset({sorted(OP_NAMES)!r})",
    )
    parts = [banner + "\n".join(_RUNTIME_IMPORTS), "\n".join(constants)]
    parts += [textwrap.dedent(inspect.getsource(obj)).rstrip() for obj in _RUNTIME]
    return "\n\n\n".join(parts) + "\n"


# ------------------------------------------------------------------- the script's inputs


def _inputs_function(repro: Repro) -> str:
    """`_retrace_inputs(env, dev)`: the model's inputs in placeholder order, and the
    symbols that need a carrier, written as code over one set of SymInts."""
    unbacked = _unbacked(repro)
    lines = [
        "def _retrace_inputs(env, dev):",
        f'{_INDENT}"""Inputs of Repro.forward (placeholder order), symbols needing a carrier."""',
        f"{_INDENT}import math",
        "",
        f"{_INDENT}import torch",
        "",
        f"{_INDENT}ops = symint_ops(env)",
        f"{_INDENT}syms = _retrace_symbols(env, {dict(repro.hints)!r}, {unbacked!r})",
    ]
    lines += [
        f"{_INDENT}{name} = syms[{name!r}]"
        for name in (*repro.hints, *unbacked)
        if _PLAIN_NAME.match(name)
    ]
    lines.append(f"{_INDENT}values = [")
    for x in repro.inputs:
        lines.append(f"{_INDENT * 2}{_value_code(repro, x)},  # {x.name}")
    lines.append(f"{_INDENT}]")
    carried = [_leaf(n) for n in sorted(_used_symbols(repro) - _bare_symbols(repro))]
    lines.append(f"{_INDENT}return values, [{', '.join(carried)}]")
    return "\n".join(lines) + "\n"


def _value_code(repro: Repro, x: Any) -> str:
    try:
        if isinstance(x, SymIntInput):
            return symint_code(x.expr) if x.expr is not None else repr(x.hint)
        if isinstance(x, TensorInput):
            return _tensor_code(repro, x)
    except ExprError as e:
        raise ReproError(f"input {x.name}: cannot write it as SymInt code: {e}") from None
    return _other_code(x)


def _tuple_code(exprs: tuple[sympy.Expr, ...]) -> str:
    items = [symint_code(e) for e in exprs]
    return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"


def _tensor_code(repro: Repro, t: TensorInput) -> str:
    storage = repro.storage(t.storage)
    args = [_tuple_code(t.shape)]
    if t.stride is not None:
        args.append(_tuple_code(t.stride))
    if t.storage_offset is not None and t.storage_offset != 0:
        args.append(f"offset={symint_code(t.storage_offset)}")
        args.append(f"nbytes={symint_code(storage.nbytes)}")
    args.append(f"dtype={t.dtype or 'torch.float32'}")
    args.append(f"device=dev({storage.device or repr('cpu')})")
    return f"_retrace_tensor({', '.join(args)})"


def _other_code(x: OtherInput) -> str:
    """const / unsupported / opaque inputs are None (as torch's InputReader makes them)."""
    if x.kind != "generator":
        return "None"
    call = ast.parse(x.source.splitlines()[0]).body[0].value  # reader.generator(type, index)
    device_args = ", ".join(ast.unparse(a) for a in call.args)  # type: ignore[attr-defined]
    return f"torch.Generator(device=dev(torch.device({device_args})))"


def _unbacked(repro: Repro) -> list[str]:
    """Symbols without a hint (u0, ...): what retrace creates as unbacked SymInts."""
    used = {n for e in repro.all_exprs() for n in free_symbol_names(e)}
    return sorted(used - set(repro.hints))


def _used_symbols(repro: Repro) -> set[str]:
    """Symbols the inputs mention: what the graph must see (a hint line may serve only a
    storage size, which follows from the inputs)."""
    return {n for e in repro.input_exprs() for n in free_symbol_names(e)}


def _bare_symbols(repro: Repro) -> set[str]:
    """Symbols some input carries as itself (a SymInt, or a tensor's size or stride)."""
    bare: set[str] = set()
    for x in repro.inputs:
        if isinstance(x, SymIntInput) and x.expr is not None and x.expr.is_Symbol:
            bare.add(x.expr.name)
        elif isinstance(x, TensorInput):
            bare |= {e.name for e in (*x.shape, *(x.stride or ())) if e.is_Symbol}
    return bare


# ------------------------------------------------------------------------------ script


def render_standalone(repro: Repro) -> str:
    """The script of `repro` in torch's after-aot layout, runnable with only torch.

    Raises ReproError for an expression the code printer cannot write.
    """
    text = render(repro)
    torch_main = render_main(repro) + "\n"
    if not text.endswith(torch_main):
        raise RuntimeError("render() no longer ends with render_main(): update standalone")
    expected = len(_used_symbols(repro))
    header = (
        "# A self-contained repro written by symshrink: `python THIS.py` retraces it with its\n"
        "# SymInt relationships preserved and times Inductor's compile (needs only torch).\n"
        f"# `{TORCH_RUN_REPRO_FLAG}` runs torch's own run_repro; `--help` for more.\n"
    )
    main = (
        "if __name__ == '__main__':\n"
        "    import sys\n\n"
        "    import torch\n\n"
        f"    if {TORCH_RUN_REPRO_FLAG!r} in sys.argv[1:]:\n"
        "        # torch's replay: every SymInt becomes an independent symbol\n"
        f"        sys.argv.remove({TORCH_RUN_REPRO_FLAG!r})\n"
        + textwrap.indent(render_main(repro).split("\n", 1)[1], _INDENT)
        + "\n    else:\n"
        "        sys.exit(_retrace_main(sys.argv[1:], mod, _retrace_inputs, globals(), "
        f"{expected}))\n"
    )
    return "\n\n".join(
        [header + text.removesuffix(torch_main), _runtime(), _inputs_function(repro), main]
    )


def is_standalone(text: str) -> bool:
    """Was this script written by `render_standalone` (does `python SCRIPT` retrace it)?"""
    return "sys.exit(_retrace_main(" in text


def render_output(repro: Repro) -> str:
    """What minimize writes for the user: the standalone form, else torch's plain layout.

    A model with an expression the code printer cannot write still deserves a result.
    """
    try:
        return render_standalone(repro)
    except ReproError as e:
        log.warning("writing the plain after-aot form, not a standalone script: %s", e)
        return render(repro)

# A self-contained repro written by symshrink: `python THIS.py` retraces it with its
# SymInt relationships preserved and times Inductor's compile (needs only torch).
# `--torch-run-repro` runs torch's own run_repro; `--help` for more.
s26 = 15
s46 = 7
s47 = 2
s67 = 4
s74 = 33
s75 = 31
s77 = 62
s80 = 32
s83 = 8
s86 = 66
s89 = 3
s90 = 63
s94 = 16

# env var omitted due to stable_output=True
import torch
from torch import tensor, device
import torch.fx as fx
from torch._dynamo.testing import rand_strided
from math import inf
import torch._inductor.inductor_prims



# config omitted due to stable_output=True

isolate_fails_code_str = None





if "__compile_source__" in globals():
    import inspect as __after_aot_inspect
    import linecache as __after_aot_linecache
    __after_aot_filename = __after_aot_inspect.currentframe().f_code.co_filename
    __after_aot_linecache.cache[__after_aot_filename] = (
        len(__compile_source__),
        None,
        __compile_source__.splitlines(True),
        __after_aot_filename,
    )
torch._higher_order_ops.triton_kernel_wrap.kernel_side_table.reset_table()

from torch.nn import *
class Repro(torch.nn.Module):

    def __init__(self) -> None:
        super().__init__()

    def forward(self, arg0_1, arg33_1):
        slice_1 = torch.ops.aten.slice.Tensor(arg0_1, 0, 0, arg33_1)
        return (slice_1,)

def load_args(reader):
    buf0 = reader.storage(None, 852)
    reader.tensor(buf0, (213,), is_leaf=True)  # arg0_1
    reader.symint(131, expr='PythonMod(-s26 - s46 - s47 + s67 - s74 + s75 + s77 + s80 + s83 - s86 + s89 - s90 - s94 + 1045, 213)')  # arg33_1
load_args._version = 0
mod = Repro()


# ----------------------------------------------------------------------------
# symshrink's retrace, self-contained: needs only torch.
import contextlib
import functools
import logging
import math
import operator
from collections.abc import Callable, Iterator, Mapping
from typing import Any


PHASES = ('trace', 'post_grad', 'lowering', 'scheduling', 'codegen', 'native', 'other')
_TIMED_KEYS = {'post_grad': '_recursive_post_grad_passes', 'lowering': 'GraphLowering.run', 'scheduling': 'Scheduler.__init__', 'codegen': 'GraphLowering.codegen', 'native': 'PyCodeCache.load_by_key_path'}
OP_NAMES = frozenset(['Abs', 'Add', 'And', 'BitwiseFn_bitwise_and', 'BitwiseFn_bitwise_or', 'BitwiseFn_bitwise_xor', 'Boolean', 'CeilDiv', 'CeilToInt', 'Eq', 'FloorDiv', 'FloorToInt', 'Ge', 'Gt', 'IntTrueDiv', 'Integer', 'IsNonOverlappingAndDenseIndicator', 'LShift', 'Le', 'Lt', 'Max', 'Min', 'Mod', 'ModularIndexing', 'Mul', 'Ne', 'Not', 'Or', 'Piecewise', 'Pow', 'PowByNatural', 'PythonMod', 'RShift', 'RoundToInt', 'TruncToInt', 'Where'])


def symint_ops(shape_env: Any) -> dict[str, Callable[..., Any]]:
    """`expr.fold` ops that compute with real SymInts, as torch's own tracing would.

    Where SymInt arithmetic has no operator (ModularIndexing, Where, the dense-layout
    indicator), torch's sympy function is built on the arguments' expressions, the way
    Inductor builds it. Covers every name in `expr.OP_NAMES`.
    """
    import sympy
    import torch
    from sympy.core.relational import Relational
    from sympy.logic.boolalg import BooleanFunction
    from torch.utils._sympy import functions as tfn

    def to_sympy(v: Any) -> Any:
        if isinstance(v, torch.SymInt | torch.SymBool | torch.SymFloat):
            return v.node.expr
        return sympy.sympify(v)

    def from_sympy(e: Any) -> Any:
        if e is sympy.true or e is sympy.false:
            return bool(e)
        if e.is_Integer:
            return int(e)
        if isinstance(e, Relational | BooleanFunction):  # not Boolean: a Symbol is one too
            return shape_env.create_symboolnode(e)
        return shape_env.create_symintnode(e, hint=None)

    def direct(fn: Callable[..., Any]) -> Callable[..., Any]:
        return lambda *args: from_sympy(fn(*map(to_sympy, args)))

    def piecewise(*pairs: tuple[Any, Any]) -> Any:
        return from_sympy(sympy.Piecewise(*[(to_sympy(v), to_sympy(c)) for v, c in pairs]))

    def many(op: Callable[[Any, Any], Any]) -> Callable[..., Any]:
        return lambda *args: functools.reduce(op, args)

    ops: dict[str, Callable[..., Any]] = {
        "Integer": int,
        "Boolean": bool,
        "Add": lambda *args: torch.sym_sum(args),
        "Mul": many(operator.mul),
        "Pow": operator.pow,
        "PowByNatural": operator.pow,
        "FloorDiv": operator.floordiv,
        "PythonMod": operator.mod,
        "Mod": operator.mod,
        "ModularIndexing": direct(tfn.ModularIndexing),
        "CeilDiv": lambda a, b: -((-a) // b),
        "LShift": lambda a, b: a * 2**b,
        "RShift": lambda a, b: a // 2**b,
        "IntTrueDiv": operator.truediv,
        "FloorToInt": math.floor,
        "CeilToInt": math.ceil,
        "TruncToInt": torch.sym_int,
        "RoundToInt": round,
        "Where": direct(tfn.Where),
        "Piecewise": piecewise,
        "Abs": abs,
        "Max": many(torch.sym_max),
        "Min": many(torch.sym_min),
        "BitwiseFn_bitwise_and": operator.and_,
        "BitwiseFn_bitwise_or": operator.or_,
        "BitwiseFn_bitwise_xor": operator.xor,
        "IsNonOverlappingAndDenseIndicator": direct(tfn.IsNonOverlappingAndDenseIndicator),
        "Eq": operator.eq,
        "Ne": operator.ne,
        "Lt": operator.lt,
        "Le": operator.le,
        "Gt": operator.gt,
        "Ge": operator.ge,
        "And": many(operator.and_),
        "Or": many(operator.or_),
        "Not": torch.sym_not,
    }
    if ops.keys() != OP_NAMES:
        raise RuntimeError(
            f"SymInt ops table out of date with expr.OP_NAMES: "
            f"missing {sorted(OP_NAMES - ops.keys())}, extra {sorted(ops.keys() - OP_NAMES)}"
        )
    return ops


class _NativeCompileSkipped(Exception):
    """Raised where Inductor would write and load (compile) its output module."""


def _wrapper(inner: Any, slots: list[tuple[str, Any]], seen: list[Any]) -> Any:
    """A module calling `inner` with constants put back in place, returning a tuple.

    Inputs no slot refers to are carriers: they only bind symbols for Inductor. `seen`
    receives the arguments `inner` got, for counting and checking their symbols.
    """
    import torch

    class SymbolicWrapper(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, *args: Any) -> tuple[Any, ...]:
            inner_args = [args[v] if kind == "arg" else v for kind, v in slots]
            seen[:] = inner_args
            out = self.inner(*inner_args)
            return tuple(out) if isinstance(out, list | tuple) else (out,)

    return SymbolicWrapper()


def _placeholders(gm: Any) -> list[Any]:
    return list(gm.graph.find_nodes(op="placeholder"))


def _sizes(v: Any) -> Iterator[Any]:
    """The SymInt-like values of one input: itself, or a tensor's sizes/strides/offset."""
    import torch

    if isinstance(v, torch.Tensor):
        yield from v.shape
        yield from v.stride()
        yield v.storage_offset()
    else:
        yield v


def _free_symbols(values: Any) -> set[Any]:
    import torch

    out: set[Any] = set()
    for v in values:
        for d in _sizes(v):
            if isinstance(d, torch.SymInt | torch.SymBool | torch.SymFloat):
                out |= d.node.expr.free_symbols
    return out


def _caused_by(e: BaseException | None, kind: type[BaseException]) -> bool:
    seen: set[int] = set()
    while e is not None and id(e) not in seen:
        if isinstance(e, kind):
            return True
        seen.add(id(e))
        e = getattr(e, "inner_exception", None) or e.__cause__ or e.__context__
    return False


@contextlib.contextmanager
def _quiet(logger: str, text: str) -> Iterator[None]:
    """Drop one known, harmless log message of a torch logger."""

    def keep(record: logging.LogRecord) -> bool:
        return text not in record.getMessage()

    target = logging.getLogger(logger)
    target.addFilter(keep)
    try:
        yield
    finally:
        target.removeFilter(keep)


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


def _retrace_inputs(env, dev):
    """Inputs of Repro.forward (placeholder order), symbols needing a carrier."""
    import math

    import torch

    ops = symint_ops(env)
    syms = _retrace_symbols(env, {'s26': 15, 's46': 7, 's47': 2, 's67': 4, 's74': 33, 's75': 31, 's77': 62, 's80': 32, 's83': 8, 's86': 66, 's89': 3, 's90': 63, 's94': 16}, [])
    s26 = syms['s26']
    s46 = syms['s46']
    s47 = syms['s47']
    s67 = syms['s67']
    s74 = syms['s74']
    s75 = syms['s75']
    s77 = syms['s77']
    s80 = syms['s80']
    s83 = syms['s83']
    s86 = syms['s86']
    s89 = syms['s89']
    s90 = syms['s90']
    s94 = syms['s94']
    values = [
        _retrace_tensor((213,), dtype=torch.float32, device=dev('cpu')),  # arg0_1
        (torch.sym_sum([1045, s67, s75, s77, s80, s83, s89, ((-1) * s26), ((-1) * s46), ((-1) * s47), ((-1) * s74), ((-1) * s86), ((-1) * s90), ((-1) * s94)]) % 213),  # arg33_1
    ]
    return values, [s26, s46, s47, s67, s74, s75, s77, s80, s83, s86, s89, s90, s94]


if __name__ == '__main__':
    import sys

    import torch

    if '--torch-run-repro' in sys.argv[1:]:
        # torch's replay: every SymInt becomes an independent symbol
        sys.argv.remove('--torch-run-repro')
        from torch._dynamo.repro.after_aot import run_repro
        with torch.no_grad():
            run_repro(mod, load_args, accuracy=False, command='run', save_dir=None, tracing_mode='symbolic', check_str=None)
    else:
        sys.exit(_retrace_main(sys.argv[1:], mod, _retrace_inputs, globals(), 13))

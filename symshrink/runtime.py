"""symshrink's retrace runtime: trace and compile a repro with its SymInt relations kept.

torch 2.13's `run_repro` traces every SymInt input and every tensor dim as a fresh symbol,
so a compile that was slow because of *relations* between sizes (`(Σ s)//160 + 866` next
to `Σ s`) is fast when replayed. Here the inputs are fake tensors and SymInts in one
ShapeEnv: each free symbol is created once (the script's name and hint, no duck sizing),
derived SymInts are computed from them with real SymInt arithmetic, tensors get the
derived sizes, strides and offsets themselves, and a symbol no input carries bare gets a
carrier tensor of that length so that Inductor can bind it. Then
`make_fx(tracing_mode="symbolic")` and Inductor's `compile_fx_inner`, with fresh caches,
timed by phase.

This file is symshrink/runtime.py. symshrink's retrace (its command line and the
minimizer's oracle) runs it, and every self-contained min.py carries it verbatim, so what
`python min.py` measures is what the minimizer measured. Hence the rules of this file: it
imports only torch (inside functions, so importing symshrink stays cheap); the inputs come
as plain data (`InputSpec`, expressions as Python code); there is no `from __future__`
import (min.py embeds the file mid-script, where none is allowed, so annotations must
evaluate as written); and it defines no global name the script's own code uses
(`device`, `torch`, the hint names).
"""

import contextlib
import functools
import importlib
import logging
import math
import operator
import os
import re
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PHASES = ("trace", "post_grad", "lowering", "scheduling", "codegen", "native", "other")
"""Phases in compile order; `other` is compile time outside the named Inductor phases."""

# `dynamo_timed` keys torch 2.13 records in `compilation_time_metrics`, per phase.
# Scheduler.__init__ runs inside GraphLowering.codegen; codegen is reported without it.
TIMED_KEYS = {
    "post_grad": "_recursive_post_grad_passes",
    "lowering": "GraphLowering.run",
    "scheduling": "Scheduler.__init__",
    "codegen": "GraphLowering.codegen",
    "native": "PyCodeCache.load_by_key_path",
}

# Process-wide caches of sympy work in torch 2.13 that Inductor's `fresh_cache` leaves
# alone: warm, they hide most of the work we time (a second in-process retrace of
# floordiv_sum at N = 4 spent 0.4 s in codegen instead of 2.7 s).
_SYMPY_CACHES = (
    "torch.fx.experimental.symbolic_shapes:safe_expand",
    "torch.fx.experimental.symbolic_shapes:_maybe_evaluate_static_worker",
    "torch._inductor.sizevars:stride_at",
    "torch._inductor.sizevars:simplify_index_in_vec_range",
    "torch._inductor.sizevars:stride_at_vec_range",
)

_log = logging.getLogger(__name__)


# ------------------------------------------------------------------------- plain data


@dataclass(frozen=True)
class TensorSpec:
    """A tensor input: sizes, strides, offset and storage bytes as SymInt code; dtype and
    device as code too, as torch's writer writes them (`torch.int64`, `device(...)`)."""

    shape: tuple[str, ...]
    stride: tuple[str, ...] | None = None  # None: contiguous
    offset: str | None = None  # None: 0
    nbytes: str | None = None  # the storage's bytes, needed only with an offset
    dtype: str = "torch.float32"
    device: str | None = None  # None: the CPU


@dataclass(frozen=True)
class InputSpec:
    """A repro's inputs as plain data, so that this module needs no parser.

    Code is Python over the symbols (by name, or `syms['name']`), `torch`, `math`,
    `device` (a `Devices`) and `ops` (`symint_ops`). `values` has one entry per input of
    the script's `Repro.forward`: code (a SymInt, a plain int, `None`, a generator) or a
    tensor.
    """

    hints: Mapping[str, int]  # backed free symbols and their hints
    unbacked: tuple[str, ...]  # free symbols without a hint (u0, ...)
    values: tuple[str | TensorSpec, ...]
    carried: tuple[str, ...]  # symbols no input carries bare: each gets a carrier tensor
    used: tuple[str, ...]  # every free symbol the inputs mention: the graph must keep them


@dataclass
class Timings:
    """Wall seconds of one run, filled as it goes: a failed compile still says how long."""

    trace_s: float = 0.0
    compile_s: float = 0.0
    probe_s: float = 0.0  # Inductor's per-process vector-ISA probe, before the compile
    phases: dict[str, float] = field(default_factory=dict)  # PHASES that ran -> seconds


class Devices:
    """`torch.device(...)` moved to the target device, remembering what was moved.

    The target is the requested device, else where the script was captured (`None`)
    unless CUDA is missing (then the CPU). It replaces the script's global `device`, so
    the graph code's devices move too.
    """

    def __init__(self, requested: str | None) -> None:
        import torch

        self.target = requested or (None if torch.cuda.is_available() else "cpu")
        self.moved: set[str] = set()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        import torch

        dev = args[0] if len(args) == 1 and not kwargs else torch.device(*args, **kwargs)
        dev = torch.device(dev)
        if self.target is None:
            return dev
        target = torch.device(self.target)
        if dev.type != target.type:
            self.moved.add(str(dev))
        return target


# ------------------------------------------------------------------------- SymInt ops


def symint_ops(shape_env: Any) -> dict[str, Callable[..., Any]]:
    """Each op of symshrink's expressions (`expr.OP_NAMES`), computed with real SymInts.

    SymInt arithmetic has operators for most; where it has none (ModularIndexing, Where,
    Piecewise, the dense-layout indicator), torch's sympy function is built on the
    arguments' expressions, the way Inductor builds it. `InputSpec` code calls those as
    `ops[name]`; the whole table is the reference the code printer is tested against.
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

    return {
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


# ----------------------------------------------------------------------------- inputs


def create_symbols(env: Any, hints: Mapping[str, int], unbacked: Sequence[str]) -> dict[str, Any]:
    """Symbol name -> SymInt: one per free symbol, keeping the script's names and hints.

    No duck sizing (the ShapeEnv's job); hints 0 and 1 specialize to ints, as in torch.
    """
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


@dataclass
class Symbolic:
    """What `symbolic_inputs` built."""

    env: Any  # the ShapeEnv
    syms: dict[str, Any]  # symbol name -> SymInt (an int where a hint 0 or 1 specialized)
    values: list[Any]  # per input: a fake tensor, a SymInt, or a constant
    carriers: list[Any]  # int8 fake tensors as long as a symbol no input carries bare


def symbolic_inputs(spec: InputSpec, device: Devices) -> Symbolic:
    """Fake inputs whose sizes are the spec's expressions over one set of symbols."""
    import torch
    from torch._subclasses.fake_tensor import FakeTensorMode
    from torch.fx.experimental.symbolic_shapes import ShapeEnv

    env = ShapeEnv(duck_shape=False)
    syms = create_symbols(env, spec.hints, spec.unbacked)
    names = {**syms, "syms": syms, "torch": torch, "math": math, "device": device}
    names["ops"] = symint_ops(env)

    def value(code: str) -> Any:
        return eval(code, names)

    with FakeTensorMode(shape_env=env):
        values = [
            _fake_tensor(v, value, device) if isinstance(v, TensorSpec) else value(v)
            for v in spec.values
        ]
        where = next((v.device for v in values if isinstance(v, torch.Tensor)), None)
        carriers = [
            torch.empty((syms[name],), dtype=torch.int8, device=where)
            for name in spec.carried
            if isinstance(syms[name], torch.SymInt)
        ]
    return Symbolic(env, syms, values, carriers)


def _fake_tensor(t: TensorSpec, value: Callable[[str], Any], device: Devices) -> Any:
    """A fake tensor whose sizes, strides and offset are exactly the spec's (Sym)Ints."""
    import torch
    from torch._prims_common import make_contiguous_strides_for

    shape = [value(e) for e in t.shape]
    stride = (
        [value(e) for e in t.stride] if t.stride is not None else make_contiguous_strides_for(shape)
    )
    dtype = value(t.dtype)
    dev = device(value(t.device)) if t.device is not None else device("cpu")
    offset = value(t.offset) if t.offset is not None else 0
    if isinstance(offset, int) and offset == 0:
        return torch.empty_strided(shape, stride, dtype=dtype, device=dev)
    assert t.nbytes is not None, "an offset comes with its storage's bytes"
    base = torch.empty((value(t.nbytes) // dtype.itemsize,), dtype=dtype, device=dev)
    return torch.as_strided(base, shape, stride, offset)


def graph_slots(values: Sequence[Any]) -> tuple[list[tuple[str, Any]], list[Any]]:
    """(slots for `wrapper`, graph inputs): tensors and SymInts become graph inputs; plain
    ints and other inputs stay constants, as in the original graph."""
    import torch

    slots: list[tuple[str, Any]] = []
    args: list[Any] = []
    for v in values:
        if isinstance(v, torch.Tensor | torch.SymInt):
            slots.append(("arg", len(args)))
            args.append(v)
        else:
            slots.append(("const", v))
    return slots, args


def wrapper(inner: Any, slots: list[tuple[str, Any]], seen: list[Any]) -> Any:
    """A module calling `inner` with constants put back in place, returning a tuple.

    `slots` holds ("arg", index) or ("const", value) per input of `inner`. Inputs no slot
    refers to are carriers: they only bind symbols for Inductor. `seen` receives the
    arguments `inner` got, for counting and checking their symbols.
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


def free_symbols(values: Any) -> set[Any]:
    """The free symbols of SymInts, or of tensors' sizes, strides and offsets, in `values`."""
    import torch

    out: set[Any] = set()
    for v in values:
        sizes = [*v.shape, *v.stride(), v.storage_offset()] if isinstance(v, torch.Tensor) else [v]
        for d in sizes:
            if isinstance(d, torch.SymInt | torch.SymBool | torch.SymFloat):
                out |= d.node.expr.free_symbols
    return out


# ------------------------------------------------------------------- trace and compile


def trace_graph(module: Any, args: Sequence[Any], timings: Timings) -> Any:
    """`make_fx(tracing_mode="symbolic")` of `module` on `args`: the phase `trace`."""
    from torch.fx.experimental.proxy_tensor import make_fx

    t0 = time.perf_counter()
    gm = make_fx(module, tracing_mode="symbolic")(*args)
    timings.trace_s = timings.phases["trace"] = time.perf_counter() - t0
    return gm


class _NativeCompileSkipped(Exception):
    """Raised where Inductor would write and load (compile) its output module."""


def compile_graph(gm: Any, args: Sequence[Any], timings: Timings, native: bool) -> None:
    """Inductor's `compile_fx_inner` on the traced graph, its time per phase in `timings`.

    Without `native` it stops before the C++ (or Triton) compile of Inductor's output:
    seconds of noise next to a sympy slowness.
    """
    from unittest import mock

    from torch._dynamo.utils import compilation_time_metrics
    from torch._inductor.compile_fx import compile_fx_inner
    from torch._inductor.cpu_vec_isa import pick_vec_isa
    from torch._inductor.graph import GraphLowering

    example = [n.meta.get("val", a) for n, a in zip(_placeholders(gm), args, strict=True)]
    t0 = time.perf_counter()
    pick_vec_isa()  # per-process C++ probe, not part of the graph's compile
    timings.probe_s = time.perf_counter() - t0

    def stop(*_: Any, **__: Any) -> None:
        raise _NativeCompileSkipped

    skip = contextlib.ExitStack()
    # Inductor keeps (and warns about) its cache dir when an exception passes, ours
    # included; that dir is inside our own fresh cache dir, which goes away.
    skip.enter_context(_quiet("torch._inductor.utils", "temporary cache dir kept"))
    if not native:
        skip.enter_context(mock.patch.object(GraphLowering, "_compile_to_module_lines", stop))
    compilation_time_metrics.clear()
    t0 = time.perf_counter()
    try:
        with skip:
            compile_fx_inner(gm, example)
    except Exception as e:
        if not _caused_by(e, _NativeCompileSkipped):
            raise
    finally:
        timings.compile_s = time.perf_counter() - t0
        phases = {p: sum(compilation_time_metrics.get(k, ())) for p, k in TIMED_KEYS.items()}
        phases["codegen"] -= phases["scheduling"]
        if not native:
            del phases["native"]
        phases["other"] = max(0.0, timings.compile_s - sum(phases.values()))
        timings.phases.update(phases)


def _placeholders(gm: Any) -> list[Any]:
    return list(gm.graph.find_nodes(op="placeholder"))


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


# ----------------------------------------------------------------------- cache hygiene


@contextlib.contextmanager
def isolated(native: bool, settings: Sequence[tuple[Any, str, Any]] = ()) -> Iterator[None]:
    """One run with cold caches and the retrace's torch config, all put back afterwards.

    sympy's and torch's caches of sympy work are emptied and Inductor gets an empty cache
    dir, so no earlier run's work is reused; Inductor's caches and compile workers are off
    and no repro of the repro is dumped. `settings` (object, attribute, value) apply on
    top. Everything is restored, since in-process runs repeat.
    """
    import torch
    import torch._dynamo.config as dynamo_config
    import torch._inductor.config as inductor_config

    defaults: list[tuple[Any, str, Any]] = [
        (inductor_config, "force_disable_caches", True),
        (inductor_config, "compile_threads", 1),  # no compile worker processes
        (dynamo_config, "repro_after", None),  # never dump a repro of the repro
    ]
    if not native:  # the vector-ISA probe compiles C++ test programs (~10 s)
        defaults.append((inductor_config.cpp, "vec_isa_ok", True))
    _clear_sympy_caches()
    with _fresh_inductor_cache(), _applied([*defaults, *settings]), torch.no_grad():
        yield


def _clear_sympy_caches() -> None:
    """Empty sympy's own cache and torch's module-level caches of sympy results."""
    import sympy

    sympy.core.cache.clear_cache()
    for item in _SYMPY_CACHES:
        module, _, name = item.partition(":")
        fn = getattr(importlib.import_module(module), name, None)
        if fn is None or not hasattr(fn, "cache_clear"):
            _log.debug("no cache %s in this torch", item)
            continue
        fn.cache_clear()


@contextlib.contextmanager
def _fresh_inductor_cache() -> Iterator[None]:
    """An empty Inductor cache dir for this run, removed afterwards even on failure.

    torch's `fresh_cache` keeps its dir when the compile raises. Ours is made inside the
    caller's TORCHINDUCTOR_CACHE_DIR when one is set (the oracle gives each candidate its
    own, so a child killed at the threshold leaves nothing behind), else in the temp dir.
    """
    from torch._inductor.utils import clear_caches

    parent = os.environ.get("TORCHINDUCTOR_CACHE_DIR")
    if parent:
        Path(parent).mkdir(parents=True, exist_ok=True)
    clear_caches()
    with tempfile.TemporaryDirectory(
        prefix="symshrink-inductor-", dir=parent, ignore_cleanup_errors=True
    ) as tmp:
        try:
            with saved_env(("TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR")):
                os.environ["TORCHINDUCTOR_CACHE_DIR"] = tmp
                os.environ["TRITON_CACHE_DIR"] = os.path.join(tmp, "triton")
                yield
        finally:
            clear_caches()


@contextlib.contextmanager
def saved_env(names: Sequence[str]) -> Iterator[None]:
    """Put these environment variables back as they were (set or unset) afterwards."""
    saved = {k: os.environ.get(k) for k in names}
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@contextlib.contextmanager
def _applied(settings: Sequence[tuple[Any, str, Any]]) -> Iterator[None]:
    """Set attributes, and put the old values back afterwards."""
    saved: list[tuple[Any, str, Any]] = []
    try:
        for obj, attr, value in settings:
            saved.append((obj, attr, getattr(obj, attr)))
            setattr(obj, attr, value)
        yield
    finally:
        for obj, attr, old in reversed(saved):
            setattr(obj, attr, old)


# ---------------------------------------------------------------------- min.py's entry


def standalone_main(argv: Sequence[str], mod: Any, spec: InputSpec, scope: dict[str, Any]) -> int:
    """`python min.py`: retrace `mod` on the spec's inputs, compile, print symbols and phases.

    `scope` is the script's globals (its `device` moves with `--device`). 1 if the graph
    lost a symbol: then the relationships are not what the script says.
    """
    import argparse

    parser = argparse.ArgumentParser(
        description="Retrace this repro with its SymInt relationships preserved (not as "
        "run_repro does, every SymInt a fresh symbol) and time Inductor's compile. "
        "--torch-run-repro runs torch's run_repro instead."
    )
    parser.add_argument("--native", action="store_true", help="include the C++/Triton compile")
    parser.add_argument("--device", help="run here [default: as captured, CPU without CUDA]")
    ns = parser.parse_args(argv)
    device = Devices(ns.device)
    if device.target is not None:
        scope["device"] = device  # the graph code calls device(...)
    timings = Timings()
    seen: list[Any] = []
    with isolated(ns.native):
        built = symbolic_inputs(spec, device)
        slots, args = graph_slots(built.values)
        args += built.carriers
        gm = trace_graph(wrapper(mod, slots, seen), args, timings)
        compile_graph(gm, args, timings, ns.native)
    symbols = len(free_symbols(seen))
    print(f"free symbols: {symbols} (the script has {len(spec.used)})")
    for phase in PHASES:
        if phase in timings.phases:
            print(f"{phase:<12}{timings.phases[phase]:>10.3f} s")
    print(f"{'total':<12}{timings.trace_s + timings.compile_s:>10.3f} s")
    if symbols != len(spec.used):
        print("the compiled graph lost symbols: the relationships are not what the script says")
        return 1
    return 0

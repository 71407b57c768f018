"""Retrace a repro script with its symbolic relationships and time each compile phase.

torch 2.13's `run_repro` traces every SymInt input and every tensor dim as a fresh symbol,
so a compile that was slow because of *relations* between sizes (`(Σ s)//160 + 866`
next to `Σ s`) is fast when replayed. Here the inputs are built as fake tensors and
SymInts in our own ShapeEnv, from the model's expressions: each free symbol is created
once (same name as in the script, no duck sizing), derived SymInts are computed from
them with real SymInt arithmetic, and tensors get the derived sizes, strides and
offsets themselves. A free symbol that no input carries bare gets a carrier tensor of
that length, so Inductor can bind it. Then `make_fx(..., tracing_mode="symbolic")` and
Inductor's `compile_fx_inner` on the symbolic inputs, with fresh caches, timed by phase.

This and the oracle's child are the only modules that import torch, and only inside
functions: `import symshrink.retrace` stays cheap. Loading a script executes it, which
happens here only. `python -m symshrink.retrace SCRIPT --json` is the oracle's child.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import dataclasses
import functools
import importlib
import importlib.util
import itertools
import json
import logging
import math
import operator
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from symshrink.errors import ExprError, ReproError
from symshrink.expr import OP_NAMES, fold, free_symbol_names, parse_expr, torch_str
from symshrink.repro.model import Repro, SymIntInput, TensorInput
from symshrink.repro.parse import parse_file

log = logging.getLogger(__name__)

__all__ = [
    "MODES",
    "PHASES",
    "RetraceResult",
    "SettingError",
    "main",
    "parse_setting_items",
    "resolve_settings",
    "retrace",
    "symint_ops",
]

MODES = ("preserved", "independent")
PHASES = ("trace", "post_grad", "lowering", "scheduling", "codegen", "native", "other")
"""Phases in compile order; `other` is compile time outside the named Inductor phases."""

# `dynamo_timed` keys torch 2.13 records in `compilation_time_metrics`, per phase.
# Scheduler.__init__ runs inside GraphLowering.codegen; codegen is reported without it.
_TIMED_KEYS = {
    "post_grad": "_recursive_post_grad_passes",
    "lowering": "GraphLowering.run",
    "scheduling": "Scheduler.__init__",
    "codegen": "GraphLowering.codegen",
    "native": "PyCodeCache.load_by_key_path",
}

_SYMBOL_ID = re.compile(r"s(\d+)")
_SYMBOL_TOKEN = re.compile(r"\b[a-z]+\d+\b")
_MAX_NOTED_MISMATCHES = 3


class SettingError(ValueError):
    """A `--torch-setting` that does not name an existing attribute or is not a literal."""


@dataclass
class RetraceResult:
    """What one retrace measured; `to_json` is what the oracle's child prints.

    `model_free_symbols` counts the free symbols (backed and unbacked) the script's inputs
    mention; `graph_free_symbols` the distinct free symbols over the SymInts and tensor
    sizes, strides and offsets the script's `Repro.forward` received when traced
    (carriers are not counted). `derived_ok` is True when every one of those values is
    the model's expression under one renaming of symbols. Times are wall seconds;
    `phases` maps each name in `PHASES` that ran to its seconds.
    """

    script: str
    mode: str
    model_free_symbols: int = 0
    graph_free_symbols: int = 0
    derived_ok: bool = False
    trace_s: float = 0.0
    compile_s: float = 0.0
    phases: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    error: str | None = None
    native_compile: bool = True
    device: str = "cpu"

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self), indent=2)

    @classmethod
    def from_json(cls, text: str) -> RetraceResult:
        return cls(**json.loads(text))

    def table(self) -> str:
        """A readable report: symbol counts, one line per phase, notes, error."""
        lines = [
            f"{self.script}: mode {self.mode}, device {self.device}",
            f"free symbols: model {self.model_free_symbols}, graph {self.graph_free_symbols};"
            f" expressions {'match the model' if self.derived_ok else 'differ from the model'}",
            "",
            f"{'phase':<12}{'seconds':>10}",
        ]
        for name in PHASES:
            if name in self.phases:
                lines.append(f"{name:<12}{self.phases[name]:>10.3f}")
            elif name == "native" and not self.native_compile:
                lines.append(f"{name:<12}{'skipped':>10}")
        lines.append(f"{'total':<12}{self.trace_s + self.compile_s:>10.3f}")
        lines += [f"note: {n}" for n in self.notes]
        if self.error:
            lines.append(f"error: {self.error}")
        return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- settings


def parse_setting_items(items: Sequence[str]) -> dict[str, str]:
    """`["torch.x.y=1", ...]` -> `{"torch.x.y": "1"}`; values stay text until applied."""
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise SettingError(f"torch setting {item!r} is not NAME=VALUE")
        out[name.strip()] = value.strip()
    return out


def _resolve_setting(name: str, text: str) -> tuple[Any, str, Any]:
    """(object, attribute, value) for `module.path.attr` = literal text."""
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        raise SettingError(
            f"torch setting {name}: value {text!r} is not a Python literal (1000, False, 'x')"
        ) from None
    parts = name.split(".")
    for i in range(len(parts) - 1, 0, -1):
        module_name = ".".join(parts[:i])
        try:
            obj: Any = importlib.import_module(module_name)
        except ImportError:
            continue
        path = module_name
        for attr in parts[i:-1]:
            if not hasattr(obj, attr):
                raise SettingError(f"unknown torch setting {name}: {path} has no {attr!r}")
            obj = getattr(obj, attr)
            path += f".{attr}"
        if not hasattr(obj, parts[-1]):
            raise SettingError(f"unknown torch setting {name}: {path} has no {parts[-1]!r}")
        return obj, parts[-1], value
    raise SettingError(f"unknown torch setting {name}: no importable module in the name")


def resolve_settings(settings: Mapping[str, str]) -> list[tuple[Any, str, Any]]:
    """(object, attribute, value) of each setting; SettingError for one that does not resolve."""
    return [_resolve_setting(name, text) for name, text in settings.items()]


@contextlib.contextmanager
def _applied(settings: Sequence[tuple[Any, str, Any]]) -> Iterator[None]:
    """Set attributes, and put the old values back afterwards (in-process runs repeat)."""
    saved: list[tuple[Any, str, Any]] = []
    try:
        for obj, attr, value in settings:
            saved.append((obj, attr, getattr(obj, attr)))
            setattr(obj, attr, value)
        yield
    finally:
        for obj, attr, old in reversed(saved):
            setattr(obj, attr, old)


# ---------------------------------------------------------------------- SymInt ops


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


# ------------------------------------------------------------------------- entry point


def retrace(
    script: str | Path,
    *,
    mode: str = "preserved",
    no_native_compile: bool = False,
    torch_settings: Mapping[str, str] | None = None,
    device: str | None = None,
) -> RetraceResult:
    """Trace and compile `script` in this process; failures of the run are `error`.

    `mode="independent"` replays what `run_repro` does (every SymInt input and tensor
    dim a fresh symbol, duck-sized). `no_native_compile` stops after Inductor's Python
    code generation (the ~6 s C++ compile is noise for sympy slowness). `torch_settings`
    maps dotted attribute paths to literal text, applied after the script is loaded.
    `device=None` keeps the script's device unless CUDA is missing (then CPU).
    Raises ReproError for a script that does not parse, SettingError for bad settings.
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    path = Path(script)
    repro = parse_file(path)
    run = _Run(path, repro, mode, no_native_compile, device)
    settings = resolve_settings(torch_settings or {})
    run.execute(settings)
    return run.result


class _NativeCompileSkipped(Exception):
    """Raised where Inductor would write and load (compile) its output module."""


class _Run:
    """One retrace: load the script, build inputs, trace, compile, fill `result`."""

    def __init__(
        self, path: Path, repro: Repro, mode: str, no_native: bool, device: str | None
    ) -> None:
        self.path = path
        self.repro = repro
        self.no_native = no_native
        self.requested_device = device
        self.target: str | None = None  # device to move everything to; None: as captured
        # Symbols the inputs mention (a hint line may also serve a storage size only).
        self.used = {n for x in repro.inputs for e in x.exprs() for n in free_symbol_names(e)}
        self.unbacked = sorted(
            {n for e in repro.all_exprs() for n in free_symbol_names(e)} - set(repro.hints)
        )
        self.result = RetraceResult(
            script=str(path),
            mode=mode,
            model_free_symbols=len(self.used),
            native_compile=not no_native,
        )
        if mode == "preserved" and _is_old_style(repro):
            self.result.mode = "independent"
            self.note(
                "old script (no expr= on SymInts, no hint lines): the relationships are "
                "unknown, ran independent mode instead"
            )
            log.warning("%s: %s", path, self.result.notes[-1])
        self.seen: list[Any] = []  # what the inner Repro.forward received
        self.renaming: dict[str, str] = {}  # torch symbol name -> model symbol name
        self.shape_env: Any = None
        self.rewritten_devices: set[str] = set()

    def note(self, text: str) -> None:
        self.result.notes.append(text)

    def execute(self, settings: Sequence[tuple[Any, str, Any]]) -> None:
        import torch
        import torch._dynamo.config as dynamo_config
        import torch._inductor.config as inductor_config

        self.target = self.requested_device or (None if torch.cuda.is_available() else "cpu")
        self.result.device = self.target or "as captured"
        defaults = [
            (inductor_config, "force_disable_caches", True),
            (inductor_config, "compile_threads", 1),  # no compile worker processes
            (dynamo_config, "repro_after", None),  # never dump a repro of the repro
        ]
        if self.no_native:  # the vector-ISA probe compiles C++ test programs (~10 s)
            defaults.append((inductor_config.cpp, "vec_isa_ok", True))
        phase = "load"
        _clear_sympy_caches()
        try:
            module = self.load_module()
            with _fresh_inductor_cache(), _applied([*defaults, *settings]), torch.no_grad():
                phase = "inputs"
                if self.result.mode == "preserved":
                    wrapper, args = self.preserved_inputs(module)
                else:
                    wrapper, args = self.independent_inputs(module)
                phase = "trace"
                gm = self.trace(wrapper, args)
                phase = "compile"
                self.compile(gm, args)
        except Exception as e:  # any failure of the script is a result, not a crash
            log.debug("retrace of %s failed in %s", self.path, phase, exc_info=True)
            first = (str(e).strip().splitlines() or [""])[0]
            self.result.error = f"{phase}: {type(e).__name__}: {first}"[:500]
        if self.rewritten_devices:
            self.note(
                f"captured on {', '.join(sorted(self.rewritten_devices))}, run on "
                f"{self.target}: Inductor lowers for another backend, timings differ"
            )

    # -- loading -------------------------------------------------------------------

    def load_module(self) -> ModuleType:
        """Execute the script as a module (not as __main__, so run_repro does not run)."""
        saved = {k: os.environ.get(k) for k in _SCRIPT_ENV}
        name = f"_symshrink_repro_{next(_module_ids)}"
        spec = importlib.util.spec_from_file_location(name, self.path)
        if spec is None or spec.loader is None:
            raise ReproError("cannot load as a Python module", self.path)
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        finally:  # the script points TORCHINDUCTOR_CACHE_DIR at a shared directory
            _restore_env(saved)
        for attr in ("load_args", "Repro"):
            if not hasattr(module, attr):
                raise ReproError(f"the script defines no {attr}", self.path)
        if self.target is not None:
            module.device = self.device_of  # graph code and load_args call `device(...)`
        return module

    def device_of(self, *args: Any, **kwargs: Any) -> Any:
        """`torch.device(...)`, moved to the target device (noting what was moved)."""
        import torch

        dev = args[0] if len(args) == 1 and not kwargs else torch.device(*args, **kwargs)
        dev = torch.device(dev)
        if self.target is None:
            return dev
        target = torch.device(self.target)
        if dev.type != target.type:
            self.rewritten_devices.add(str(dev))
        return target

    def inner(self, module: ModuleType) -> Any:
        return module.mod if hasattr(module, "mod") else module.Repro()

    # -- inputs --------------------------------------------------------------------

    def recorded_args(self, module: ModuleType) -> list[Any]:
        """What load_args passes the reader per input, without allocating tensors."""
        reader = _RecordingReader(self.device_of)
        module.load_args(reader)
        if len(reader.args) != len(self.repro.inputs):
            raise ReproError(
                f"load_args makes {len(reader.args)} inputs, the model has "
                f"{len(self.repro.inputs)}",
                self.path,
            )
        return reader.args

    def preserved_inputs(self, module: ModuleType) -> tuple[Any, list[Any]]:
        """Fake inputs whose sizes are the model's expressions over one set of symbols."""
        import torch
        from torch._prims_common import make_contiguous_strides_for
        from torch._subclasses.fake_tensor import FakeTensorMode
        from torch.fx.experimental.symbolic_shapes import ShapeEnv

        recorded = self.recorded_args(module)
        self.shape_env = ShapeEnv(duck_shape=False)
        fake_mode = FakeTensorMode(shape_env=self.shape_env)
        syms = self.create_symbols()
        ops = symint_ops(self.shape_env)

        def value(e: Any) -> Any:
            return fold(e, lambda name: syms[name], ops)

        wrapper_args: list[Any] = []
        slots: list[tuple[str, Any]] = []  # ("arg", index) or ("const", value)
        bare: set[str] = set()
        with fake_mode:
            for x, rec in zip(self.repro.inputs, recorded, strict=True):
                if isinstance(x, SymIntInput) and x.expr is not None:
                    v = value(x.expr)
                elif isinstance(x, TensorInput):
                    shape = [value(e) for e in x.shape]
                    stride = (
                        [value(e) for e in x.stride]
                        if x.stride is not None
                        else make_contiguous_strides_for(shape)
                    )
                    dtype, dev = rec.dtype, rec.device
                    offset = value(x.storage_offset) if x.storage_offset is not None else 0
                    if isinstance(offset, int) and offset == 0:
                        v = torch.empty_strided(shape, stride, dtype=dtype, device=dev)
                    else:
                        nbytes = value(self.repro.storage(x.storage).nbytes)
                        base = torch.empty((nbytes // dtype.itemsize,), dtype=dtype, device=dev)
                        v = torch.as_strided(base, shape, stride, offset)
                    bare |= {str(e) for e in (*x.shape, *(x.stride or ())) if e.is_Symbol}
                else:  # plain ints and other inputs stay constants, as in the original graph
                    slots.append(("const", rec.value))
                    continue
                if isinstance(x, SymIntInput) and x.expr.is_Symbol:
                    bare.add(x.expr.name)
                if isinstance(v, int):
                    slots.append(("const", v))
                    continue
                slots.append(("arg", len(wrapper_args)))
                wrapper_args.append(v)
            n_inner = len(wrapper_args)
            dev = next((r.device for r in recorded if r.device is not None), None)
            for name in sorted(self.used - bare):
                if isinstance(syms[name], torch.SymInt):
                    wrapper_args.append(torch.empty((syms[name],), dtype=torch.int8, device=dev))
        carriers = len(wrapper_args) - n_inner
        if carriers:
            self.note(f"{carriers} free symbol(s) carried by a wrapper tensor (no bare input)")
        return _wrapper(self.inner(module), slots, self.seen), wrapper_args

    def create_symbols(self) -> dict[str, Any]:
        """Model symbol name -> SymInt, with the script's names; hints 0/1 specialize."""
        from torch._dynamo.source import ConstantSource
        from torch.fx.experimental.symbolic_shapes import DimDynamic

        env = self.shape_env
        default_id = env._generate_unique_id

        def same_id(source_name: str) -> int:
            m = _SYMBOL_ID.fullmatch(source_name)
            if m and int(m[1]) not in env.unique_ids:
                env.unique_ids.add(int(m[1]))
                return int(m[1])
            return default_id(source_name)

        env._generate_unique_id = same_id  # symbols keep the script's names (and order)
        syms: dict[str, Any] = {}
        specialized = []
        for name, hint in self.repro.hints.items():
            src = ConstantSource(name)
            positive = True if hint >= 0 else None
            expr = env.create_symbol(hint, src, dynamic_dim=DimDynamic.DYNAMIC, positive=positive)
            if expr.is_number:
                specialized.append(f"{name}={hint}")
                syms[name] = int(expr)
                continue
            syms[name] = env.create_symintnode(expr, hint=hint, source=src)
            self.renaming[str(expr)] = name
        for name in self.unbacked:
            with env.ignore_fresh_unbacked_symbols():  # an input: no graph node binds it
                syms[name] = env.create_unbacked_symint()
            self.renaming[str(syms[name].node.expr)] = name
        if specialized:
            self.note(
                f"hints 0 and 1 specialize: {', '.join(specialized)} became constants "
                "(never shrink a hint to 0 or 1)"
            )
        return syms

    def independent_inputs(self, module: ModuleType) -> tuple[Any, list[Any]]:
        """Concrete inputs, as run_repro loads them; make_fx makes every size a symbol."""
        reader = _concrete_reader(self.device_of)
        module.load_args(reader)
        args = list(reader.args)
        n = len(args)
        self.note("independent: every SymInt input and tensor dim is a fresh, duck-sized symbol")
        return _wrapper(self.inner(module), [("arg", i) for i in range(n)], self.seen), args

    # -- trace and compile ---------------------------------------------------------

    def trace(self, wrapper: Any, args: list[Any]) -> Any:
        from torch.fx.experimental.proxy_tensor import make_fx

        t0 = time.perf_counter()
        gm = make_fx(wrapper, tracing_mode="symbolic")(*args)
        self.result.trace_s = time.perf_counter() - t0
        self.result.phases["trace"] = self.result.trace_s
        inner_symbols = _free_symbols(self.seen)
        self.result.graph_free_symbols = len(inner_symbols)
        graph_symbols = _free_symbols(n.meta.get("val") for n in _placeholders(gm))
        if self.result.model_free_symbols and not graph_symbols:
            raise RuntimeError("the traced graph has no symbols: it would compile static shapes")
        self.check_expressions()
        return gm

    def check_expressions(self) -> None:
        """Every value the inner forward got must be the model's expression, renamed."""
        pairs: list[tuple[str, Any, Any]] = []
        for x, v in zip(self.repro.inputs, self.seen, strict=True):
            if isinstance(x, SymIntInput) and x.expr is not None:
                pairs.append((x.name, x.expr, v))
            elif isinstance(x, TensorInput):
                pairs += [(f"{x.name}.size", e, d) for e, d in zip(x.shape, v.shape, strict=True)]
                if x.stride is not None:
                    strides = zip(x.stride, v.stride(), strict=True)
                    pairs += [(f"{x.name}.stride", e, d) for e, d in strides]
                if x.storage_offset is not None:
                    pairs.append((f"{x.name}.offset", x.storage_offset, v.storage_offset()))
        renaming, problems = _renaming(pairs, self.renaming)
        for name, model, actual in pairs:
            if not _same_expr(model, actual, renaming):
                problems.append(f"{name}: model {torch_str(model)}, graph {_text(actual)}")
        self.result.derived_ok = not problems
        if problems and self.result.mode == "preserved":
            shown = "; ".join(problems[:_MAX_NOTED_MISMATCHES])
            self.note(f"{len(problems)} value(s) differ from the model: {shown}")
        elif problems:
            self.note(f"{len(problems)} of {len(pairs)} values differ from the model's expressions")
            merged = [p for p in problems if "stands for both" in p]
            if merged:
                self.note(f"duck sizing merged symbols with equal hints: {merged[0]}")

    def compile(self, gm: Any, args: list[Any]) -> None:
        from unittest import mock

        from torch._dynamo.utils import compilation_time_metrics
        from torch._inductor.compile_fx import compile_fx_inner
        from torch._inductor.cpu_vec_isa import pick_vec_isa
        from torch._inductor.graph import GraphLowering

        example = [n.meta.get("val", a) for n, a in zip(_placeholders(gm), args, strict=True)]
        t0 = time.perf_counter()
        pick_vec_isa()  # per-process C++ probe, not part of the graph's compile
        if not self.no_native:
            self.note(f"vector ISA probe: {time.perf_counter() - t0:.1f} s")

        def stop(*_: Any, **__: Any) -> None:
            raise _NativeCompileSkipped

        skip = contextlib.ExitStack()
        # Inductor keeps (and warns about) its cache dir when an exception passes, ours
        # included; that dir is inside our own fresh cache dir, which goes away.
        skip.enter_context(_quiet("torch._inductor.utils", "temporary cache dir kept"))
        if self.no_native:
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
            self.result.compile_s = time.perf_counter() - t0
            self.record_phases(compilation_time_metrics)
            self.note_replacements()

    def record_phases(self, metrics: Mapping[str, list[float]]) -> None:
        phases = {p: sum(metrics.get(k, ())) for p, k in _TIMED_KEYS.items()}
        phases["codegen"] -= phases["scheduling"]
        if self.no_native:
            del phases["native"]
        phases["other"] = max(0.0, self.result.compile_s - sum(phases.values()))
        self.result.phases.update(phases)

    def note_replacements(self) -> None:
        """Guards can unify or pin symbols during trace or compile; say so."""
        if self.shape_env is None:
            return
        merged = [
            f"{self.renaming.get(str(s), s)} -> {e}"
            for s, e in self.shape_env.replacements.items()
            if str(s) in self.renaming
        ]
        if merged:
            self.note("guards replaced symbols: " + ", ".join(sorted(merged)[:5]))


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


def _clear_sympy_caches() -> None:
    """Empty sympy's own cache and torch's module-level caches of sympy results."""
    import sympy

    sympy.core.cache.clear_cache()
    for item in _SYMPY_CACHES:
        module, _, name = item.partition(":")
        fn = getattr(importlib.import_module(module), name, None)
        if fn is None or not hasattr(fn, "cache_clear"):
            log.debug("no cache %s in this torch", item)
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
    saved = {k: os.environ.get(k) for k in ("TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR")}
    clear_caches()
    with tempfile.TemporaryDirectory(
        prefix="symshrink-inductor-", dir=parent, ignore_cleanup_errors=True
    ) as tmp:
        os.environ["TORCHINDUCTOR_CACHE_DIR"] = tmp
        os.environ["TRITON_CACHE_DIR"] = os.path.join(tmp, "triton")
        try:
            yield
        finally:
            _restore_env(saved)
            clear_caches()


def _restore_env(saved: Mapping[str, str | None]) -> None:
    for k, v in saved.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


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


_SCRIPT_ENV = ("TORCHINDUCTOR_CACHE_DIR", "TORCHDYNAMO_REPRO_AFTER", "TORCHDYNAMO_REPRO_LEVEL")
_module_ids = itertools.count()


@dataclass
class _Recorded:
    """One load_args input as the script describes it (no data)."""

    value: Any = None
    dtype: Any = None
    device: Any = None


class _RecordingReader:
    """A load_args reader that records dtypes, devices and constants, allocates nothing."""

    def __init__(self, device_of: Callable[..., Any]) -> None:
        import torch

        self.torch = torch
        self.device_of = device_of
        self.args: list[_Recorded] = []

    def storage(self, storage_hash: Any, nbytes: Any, *, device: Any = None, **_: Any) -> Any:
        return self.device_of(device if device is not None else "cpu")

    def tensor(self, storage: Any, *_: Any, dtype: Any = None, **__: Any) -> None:
        self.args.append(_Recorded(dtype=dtype or self.torch.float32, device=storage))

    def symint(self, val: Any, *, expr: str | None = None) -> None:
        self.args.append(_Recorded(value=val))

    def const(self, name: str) -> None:
        self.args.append(_Recorded())

    def unsupported(self, name: str) -> None:
        self.args.append(_Recorded())

    def opaque(self, script_class_name: str) -> None:
        self.args.append(_Recorded())

    def generator(self, device_type: str, device_index: int | None) -> None:
        device = self.device_of(self.torch.device(device_type, device_index))
        self.args.append(_Recorded(value=self.torch.Generator(device=device)))


def _concrete_reader(device_of: Callable[..., Any]) -> Any:
    """torch's InputReader (random data at the hints), with devices moved to the target."""
    import torch
    from torch._dynamo.debug_utils import InputReader

    class _Reader(InputReader):
        def storage(self, storage_hash: Any, nbytes: int, *, device: Any = None, **kw: Any) -> Any:
            dev = device_of(device if device is not None else "cpu")
            return super().storage(storage_hash, nbytes, device=dev, **kw)

        def generator(self, device_type: str, device_index: int | None) -> Any:
            gen = torch.Generator(device=device_of(torch.device(device_type, device_index)))
            self.args.append(gen)
            return gen

    return _Reader(save_dir=None)


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


def _text(v: Any) -> str:
    """torch's printed form of a value (what its writer would write)."""
    return str(v.node.expr) if hasattr(v, "node") else str(v)


def _renaming(
    pairs: list[tuple[str, Any, Any]], known: Mapping[str, str]
) -> tuple[dict[str, str], list[str]]:
    """torch name -> model name from bare-symbol pairs, starting from `known`.

    A renaming must be one-to-one: a torch symbol standing for two model symbols (duck
    sizing) or a model symbol traced as two torch symbols is reported.
    """
    renaming = dict(known)
    problems: list[str] = []
    for name, model, actual in pairs:
        if not (model.is_Symbol and hasattr(actual, "node") and actual.node.expr.is_Symbol):
            continue
        t = str(actual.node.expr)
        if renaming.setdefault(t, model.name) != model.name:
            problems.append(f"{name}: {t} stands for both {renaming[t]} and {model.name}")
    inverse: dict[str, str] = {}
    for t, m in renaming.items():
        if inverse.setdefault(m, t) != t:
            problems.append(f"{m} was traced as two symbols, {inverse[m]} and {t}")
    return renaming, problems


def _same_expr(model: Any, actual: Any, renaming: Mapping[str, str]) -> bool:
    """Does torch's value print as the model's expression once symbols are renamed?"""
    text = _SYMBOL_TOKEN.sub(lambda m: renaming.get(m[0], f"{m[0]}_unmapped"), _text(actual))
    try:
        return parse_expr(text) == model
    except ExprError:
        return False


def _caused_by(e: BaseException | None, kind: type[BaseException]) -> bool:
    seen: set[int] = set()
    while e is not None and id(e) not in seen:
        if isinstance(e, kind):
            return True
        seen.add(id(e))
        e = getattr(e, "inner_exception", None) or e.__cause__ or e.__context__
    return False


def _is_old_style(repro: Repro) -> bool:
    """A pre-2.13 dynamic dump: symbolic tracing asked for, but no expression written."""
    tracing = dict(repro.run_options).get("tracing_mode", "").strip("'\"")
    return repro.is_old_style and tracing == "symbolic"


# --------------------------------------------------------------------------- child CLI


@contextlib.contextmanager
def stdout_to_stderr(enabled: bool = True) -> Iterator[None]:
    """Point file descriptor 1 at stderr while torch runs, so a child's stdout carries only
    the JSON its parent reads (torch and sympy print warnings straight to fd 1)."""
    if not enabled:
        yield
        return
    stdout = os.dup(1)
    try:
        os.dup2(2, 1)
        yield
    finally:
        sys.stdout.flush()
        os.dup2(stdout, 1)
        os.close(stdout)


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m symshrink.retrace SCRIPT [--json] ...`: 0 ok, 1 the run failed, 2 bad input.

    With --json, stdout holds only the JSON result: everything else the run prints
    (torch, the C++ compiler) goes to stderr.
    """
    parser = argparse.ArgumentParser(prog="python -m symshrink.retrace", description=__doc__)
    parser.add_argument("script", type=Path)
    parser.add_argument("--mode", choices=MODES, default="preserved")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--no-native-compile", action="store_true")
    parser.add_argument("--torch-setting", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--device")
    ns = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="symshrink.retrace: %(message)s")
    with stdout_to_stderr(ns.json):
        try:
            result = retrace(
                ns.script,
                mode=ns.mode,
                no_native_compile=ns.no_native_compile,
                torch_settings=parse_setting_items(ns.torch_setting),
                device=ns.device,
            )
            code = 1 if result.error else 0
        except (ReproError, SettingError) as e:
            result = RetraceResult(script=str(ns.script), mode=ns.mode, error=str(e))
            code = 2
    text = result.to_json() if ns.json else result.table()
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    sys.stdout.flush()
    return code


if __name__ == "__main__":
    raise SystemExit(main())

"""Retrace a repro script with its symbolic relationships and time each compile phase.

`symshrink run` and the oracle's children call `retrace`: it parses the script into the
model, loads the script (executing it, which happens here only), hands the model's inputs
to `symshrink.runtime` as plain data (`runtime_spec.input_spec`) and records what the
runtime measured, checked against the model, as a `RetraceResult`. The torch work (inputs,
trace, compile, cache hygiene) is the runtime's, the same code the standalone min.py runs;
only the independent mode, which replays `run_repro`'s inputs, reads the script's
`load_args` with torch's own reader here.

torch is imported only inside functions: `import symshrink.retrace` stays cheap.
`python -m symshrink.retrace SCRIPT --json` is the oracle's child.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import dataclasses
import importlib
import importlib.util
import itertools
import json
import logging
import os
import re
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from symshrink import runtime
from symshrink.errors import ExprError, ReproError
from symshrink.expr import parse_expr, torch_str
from symshrink.repro.model import Repro, SymIntInput, TensorInput
from symshrink.repro.parse import parse_file
from symshrink.runtime import PHASES
from symshrink.runtime_spec import input_spec, used_symbols

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
]

MODES = ("preserved", "independent")

_SYMBOL_TOKEN = re.compile(r"\b[a-z]+\d+\b")
_MAX_NOTED_MISMATCHES = 3
_SCRIPT_ENV = ("TORCHINDUCTOR_CACHE_DIR", "TORCHDYNAMO_REPRO_AFTER", "TORCHDYNAMO_REPRO_LEVEL")
_module_ids = itertools.count()


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
    retrace = _Retrace(path, repro, mode, no_native_compile, device)
    settings = resolve_settings(torch_settings or {})
    retrace.execute(settings)
    return retrace.result


class _Retrace:
    """One retrace: load the script, build inputs, trace, compile, fill `result`."""

    def __init__(
        self, path: Path, repro: Repro, mode: str, no_native: bool, device: str | None
    ) -> None:
        self.path = path
        self.repro = repro
        self.native = not no_native
        self.requested_device = device
        self.result = RetraceResult(
            script=str(path),
            mode=mode,
            model_free_symbols=len(used_symbols(repro)),
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
        self.timings = runtime.Timings()

    def note(self, text: str) -> None:
        self.result.notes.append(text)

    def execute(self, settings: Sequence[tuple[Any, str, Any]]) -> None:
        devices = runtime.Devices(self.requested_device)
        self.result.device = devices.target or "as captured"
        phase = "load"
        try:
            module = self.load_module(devices)
            with runtime.isolated(self.native, settings):
                phase = "inputs"
                if self.result.mode == "preserved":
                    wrapper, args = self.preserved_inputs(module, devices)
                else:
                    wrapper, args = self.independent_inputs(module, devices)
                phase = "trace"
                gm = self.trace(wrapper, args)
                phase = "compile"
                self.compile(gm, args)
        except Exception as e:  # any failure of the script is a result, not a crash
            log.debug("retrace of %s failed in %s", self.path, phase, exc_info=True)
            first = (str(e).strip().splitlines() or [""])[0]
            self.result.error = f"{phase}: {type(e).__name__}: {first}"[:500]
        self.result.trace_s = self.timings.trace_s
        self.result.compile_s = self.timings.compile_s
        self.result.phases.update(self.timings.phases)
        if devices.moved:
            self.note(
                f"captured on {', '.join(sorted(devices.moved))}, run on "
                f"{devices.target}: Inductor lowers for another backend, timings differ"
            )

    # -- loading -------------------------------------------------------------------

    def load_module(self, devices: runtime.Devices) -> ModuleType:
        """Execute the script as a module (not as __main__, so run_repro does not run)."""
        name = f"_symshrink_repro_{next(_module_ids)}"
        spec = importlib.util.spec_from_file_location(name, self.path)
        if spec is None or spec.loader is None:
            raise ReproError("cannot load as a Python module", self.path)
        module = importlib.util.module_from_spec(spec)
        # The script points TORCHINDUCTOR_CACHE_DIR at a shared directory.
        with runtime.saved_env(_SCRIPT_ENV):
            spec.loader.exec_module(module)
        for attr in ("load_args", "Repro"):
            if not hasattr(module, attr):
                raise ReproError(f"the script defines no {attr}", self.path)
        if devices.target is not None:
            vars(module)["device"] = devices  # graph code and load_args call `device(...)`
        return module

    def inner(self, module: ModuleType) -> Any:
        return module.mod if hasattr(module, "mod") else module.Repro()

    # -- inputs --------------------------------------------------------------------

    def preserved_inputs(
        self, module: ModuleType, devices: runtime.Devices
    ) -> tuple[Any, list[Any]]:
        """Fake inputs whose sizes are the model's expressions over one set of symbols."""
        import torch

        built = runtime.symbolic_inputs(input_spec(self.repro), devices)
        self.shape_env = built.env
        specialized = []
        for name, v in built.syms.items():
            if isinstance(v, torch.SymInt):
                self.renaming[str(v.node.expr)] = name
            else:
                specialized.append(f"{name}={self.repro.hints[name]}")
        if specialized:
            self.note(
                f"hints 0 and 1 specialize: {', '.join(specialized)} became constants "
                "(never shrink a hint to 0 or 1)"
            )
        if built.carriers:
            self.note(
                f"{len(built.carriers)} free symbol(s) carried by a wrapper tensor (no bare input)"
            )
        slots, args = runtime.graph_slots(built.values)
        return runtime.wrapper(self.inner(module), slots, self.seen), args + built.carriers

    def independent_inputs(
        self, module: ModuleType, devices: runtime.Devices
    ) -> tuple[Any, list[Any]]:
        """Concrete inputs, as run_repro loads them; make_fx makes every size a symbol."""
        reader = _concrete_reader(devices)
        module.load_args(reader)
        args = list(reader.args)
        slots = [("arg", i) for i in range(len(args))]
        self.note("independent: every SymInt input and tensor dim is a fresh, duck-sized symbol")
        return runtime.wrapper(self.inner(module), slots, self.seen), args

    # -- trace and compile ---------------------------------------------------------

    def trace(self, wrapper: Any, args: list[Any]) -> Any:
        gm = runtime.trace_graph(wrapper, args, self.timings)
        self.result.graph_free_symbols = len(runtime.free_symbols(self.seen))
        placeholders = gm.graph.find_nodes(op="placeholder")
        graph_symbols = runtime.free_symbols(n.meta.get("val") for n in placeholders)
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
        try:
            runtime.compile_graph(gm, args, self.timings, self.native)
        finally:
            if self.native:
                self.note(
                    f"vector ISA probe: {self.timings.probe_s:.1f} s (Inductor compiles small C++ "
                    "programs once per process to learn which vector instructions this CPU has; "
                    "not part of the graph's compile, not in the total)"
                )
            self.note_replacements()

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


def _concrete_reader(devices: runtime.Devices) -> Any:
    """torch's InputReader (random data at the hints), with devices moved to the target."""
    import torch
    from torch._dynamo.debug_utils import InputReader

    class _Reader(InputReader):
        def storage(self, storage_hash: Any, nbytes: int, *, device: Any = None, **kw: Any) -> Any:
            dev = devices(device if device is not None else "cpu")
            return super().storage(storage_hash, nbytes, device=dev, **kw)

        def generator(self, device_type: str, device_index: int | None) -> Any:
            captured = (
                torch.device(device_type)
                if device_index is None
                else torch.device(device_type, device_index)
            )
            gen = torch.Generator(device=devices(captured))
            self.args.append(gen)
            return gen

    return _Reader(save_dir=None)


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

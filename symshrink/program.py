"""A repro as a short `torch.compile` program that measures itself: what a maintainer pastes.

The minimal result (`min.py`) shows the pathology through symshrink's own retrace; a
PyTorch maintainer asks for a self-contained program under 100 lines that shows it
through `torch.compile` as users call it. `render_program` writes one from the model,
with public torch API and the standard library only:

- each free symbol is the length of an int8 tensor (or a dim of the repro's own tensor
  input that is exactly that symbol) marked dynamic with `torch._dynamo.mark_dynamic`;
  unbacked symbols come from `.tolist()` with `capture_scalar_outputs`;
- the derived SymInts are computed from those lengths in Python with the model's
  expressions (`expr.symint_str`), the widest sum named once;
- tensor inputs with derived shapes, strides or offsets are rebuilt inside the compiled
  function with `as_strided` on a flat input of their own, so that the compiler sees
  their sizes as those expressions (a fresh input of that shape would be fresh symbols);
- then the graph's statements, as FX wrote them (`repro.source.forward_lines`).

The program times the compiled function's first call in CPU seconds after a warm-up
compile (torch's one-time first-compile cost would otherwise sit in both modes: 1.2x
instead of 4.6x on sym_outer_floordiv), with a fresh Inductor cache; without `--mode`
it runs both modes in fresh processes of itself and prints their ratio. `--n N` is the
model's width family (`widths.at_width`): the widest sum's symbols past the N-th pinned
(not marked dynamic), or new ones added to it with the hints `widths` gives them.
"""

from __future__ import annotations

import ast
import itertools
import re
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import sympy

from symshrink.errors import ExprError, ReproError, UsageError
from symshrink.expr import ModularIndexing, Where, free_symbol_names, op_count, symbol, symint_str
from symshrink.repro.model import OtherInput, Repro, SymIntInput, TensorInput
from symshrink.repro.source import forward_lines, forward_params
from symshrink.runtime_spec import used_symbols
from symshrink.widths import knob, widest_sum

__all__ = ["BACKENDS", "MODES", "program_path", "render_program"]

MODES = ("dynamic", "static")
BACKENDS = ("eager", "aot_eager", "inductor")

_WIDE_SUM = "wide_sum"  # the widest sum's name where no SymInt input is exactly it
_PROGRAM_NAMES = ("sizes", "more", "items", "flats", "layouts")  # the program's own values
_IMPORTS_BY_NAME = {"device": "from torch import device", "inf": "from math import inf"}
_CONFIG_PREFIXES = ("torch._inductor.config.", "torch.fx.experimental._config.")


@dataclass
class _Names:
    """The program's own names, kept clear of every name the graph code uses."""

    taken: set[str]
    chosen: dict[str, str] = field(default_factory=dict)

    def __getitem__(self, wanted: str) -> str:
        if wanted not in self.chosen:
            name = wanted
            while name in self.taken:
                name += "_"
            self.taken.add(name)
            self.chosen[wanted] = name
        return self.chosen[wanted]


@dataclass(frozen=True)
class _Rebuilt:
    """A tensor input whose layout holds derived expressions: `flat.as_strided(...)`."""

    name: str
    shape: tuple[sympy.Expr, ...]
    stride: tuple[sympy.Expr, ...]
    offset: sympy.Expr
    dtype: str


def program_path(repro: Path) -> Path:
    """Where a repro's program goes: `NAME.program.py` beside `NAME.py` or `NAME.min.py`."""
    stem = repro.name.removesuffix(".py").removesuffix(".min")
    return repro.with_name(f"{stem}.program.py")


def render_program(
    repro: Repro,
    name: str = "repro",
    source: str | None = None,
    settings: Mapping[str, str] | None = None,
    *,
    runs_at: int | None = None,
) -> str:
    """The `torch.compile` program of `repro` (see the module docstring).

    `name` heads its docstring and `source` says which file it was written from;
    `settings` are `--torch-setting` values (`{"torch._inductor.config.x": "1"}`) the
    program applies, as the retrace did. `runs_at`: the width `--n` defaults to, wider
    than the repro's own (a member of its width family where it was clearly slow); the
    repro itself is then `--n` its own width. Raises ReproError for a model no program
    can show: no free symbol, distinct symbols with equal hints (Dynamo would make them
    one symbol: duck sizing), or an expression with no public SymInt form; UsageError for
    a `runs_at` the repro has no width family member at.
    """
    return _Program(repro, settings or {}).render(name, source, runs_at)


class _Program:
    """What the program is made of, worked out once from the model."""

    def __init__(self, repro: Repro, settings: Mapping[str, str]) -> None:
        if repro.is_old_style:
            raise ReproError("no program: the script has no SymInt expressions (before 2.13)")
        self.repro = repro
        self.settings = settings
        self.used = used_symbols(repro)
        self.backed = sorted(self.used & set(repro.hints))
        self.unbacked = sorted(self.used - set(repro.hints))
        if not self.used:
            raise ReproError("no program: the repro has no free symbol to mark dynamic")
        _check_distinct_hints(repro, self.backed)
        params = forward_params(repro.module_source)
        if len(params) != len(repro.inputs):
            raise ReproError("no program: Repro.forward and load_args disagree on the inputs")
        self.names = _Names(_graph_names(repro.module_source) | set(repro.hints))
        self.widest = widest_sum(repro)
        self.knob = [s.name for s in knob(repro)]
        self.direct: list[TensorInput] = []
        self.rebuilt: list[_Rebuilt] = []
        self.reads: dict[str, int | str] = {}  # graph parameter -> literal or name
        self.derived: dict[sympy.Expr, str] = {}  # derived expression -> its name
        for param, x in zip(params, repro.inputs, strict=True):
            self._take(param, x)
        if self.widest is not None and self.widest not in self.derived:
            self.derived[self.widest] = self.names[_WIDE_SUM]
        self.carried = self._carried()
        self.lines = [as_written(line) for line in forward_lines(repro.module_source, self.reads)]
        self.needed = self._needed()
        self.notes = self._notes()

    # ------------------------------------------------------------------ the inputs

    def _take(self, param: str, x: SymIntInput | TensorInput | OtherInput) -> None:
        if isinstance(x, OtherInput):
            self.reads[param] = "None"  # as torch's InputReader makes them
        elif isinstance(x, SymIntInput):
            if x.expr is None or x.expr.is_Integer:
                self.reads[param] = int(x.expr) if x.expr is not None else int(x.hint or 0)
            elif x.expr.is_Symbol:
                self.reads[param] = x.expr.name
            elif x.expr in self.derived:
                self.reads[param] = self.derived[x.expr]
            else:
                self.derived[x.expr] = param
        elif _is_direct(x, self.repro.hints):
            self.direct.append(x)
        else:
            self.rebuilt.append(_rebuilt(x))

    def _carried(self) -> dict[str, str]:
        """Free symbol -> where the graph reads it: a direct tensor's dim, else `sizes`."""
        carried: dict[str, str] = {}
        for t in self.direct:
            for i, e in enumerate(_sizes(t)):
                if e.is_Symbol:
                    carried.setdefault(e.name, f"{t.name}.size({i})")
        return carried

    def _needed(self) -> list[tuple[str, sympy.Expr]]:
        """The derived values the graph reads, and those they read, in defining order."""
        used_names = _names_read(self.lines) | {
            n
            for r in self._used_rebuilt()
            for e in (*r.shape, *r.stride, r.offset)
            for n in free_symbol_names(self._named(e))
        }
        by_name = {n: e for e, n in self.derived.items()}
        needed: dict[str, sympy.Expr] = {}
        todo = [n for n in used_names if n in by_name]
        while todo:
            n = todo.pop()
            if n not in needed:
                needed[n] = by_name[n]
                todo += [m for m in free_symbol_names(self._named(by_name[n], n)) if m in by_name]
        return sorted(needed.items(), key=lambda item: op_count(item[1]))

    def _used_rebuilt(self) -> list[_Rebuilt]:
        read = _names_read(self.lines)
        return [r for r in self.rebuilt if r.name in read]

    def _named(self, e: sympy.Expr, own: str | None = None) -> sympy.Expr:
        """`e` with every derived expression but `own`'s written as its name."""
        return e.xreplace({k: symbol(v) for k, v in self.derived.items() if v != own})

    def _code(self, e: sympy.Expr, own: str | None = None) -> str:
        try:
            text = symint_str(self._named(e, own))
        except ExprError as err:
            raise ReproError(f"no program: {err}") from None
        return ast.unparse(ast.parse(text, mode="eval"))

    def _notes(self) -> list[str]:
        notes = []
        exprs = [e for _, e in self.needed] + [
            e for r in self._used_rebuilt() for e in (*r.shape, *r.stride, r.offset)
        ]
        if any(e.has(ModularIndexing) for e in exprs):
            notes.append(
                "ModularIndexing(x, b, c) is written (x // b) % c: no public API builds torch's"
                " own ModularIndexing, so torch traces a FloorDiv and a Mod instead"
            )
        if any(e.has(Where) for e in exprs):
            notes.append(
                "Where(c, a, b) is written torch.sym_ite(c, a, b), which torch traces as a"
                " Piecewise: no public API builds its Where"
            )
        if any(isinstance(x, OtherInput) and x.kind == "generator" for x in self.repro.inputs):
            notes.append("a generator input is None here: random ops use the default one")
        return notes

    # ------------------------------------------------------------------ the text

    def render(self, name: str, source: str | None, runs_at: int | None = None) -> str:
        own = len(self.knob)
        runs_at = None if runs_at == own else runs_at
        if runs_at is not None:
            if self.widest is None or runs_at < own:
                raise UsageError(f"no width {runs_at} to run at: {name} has {own}, no sum to widen")
            self.notes.append(
                f"--n defaults to {runs_at}, its widest sum widened by {runs_at - own}"
                f" symbol{'s' if runs_at - own > 1 else ''},"
                f" where it was clearly slow when written; --n {own} is {name} itself"
            )
        parts = [self._header(name, source), self._constants(), self._graph()]
        if self._used_rebuilt():
            parts.append(self._derived())
        check = _N_CHECK if self.widest is not None else _N_CHECK_CUT
        harness = _HARNESS.replace(_N_CHECK, check)
        if runs_at is not None:
            harness = harness.replace("default=len(WIDEST)", f"default={runs_at}")
        parts += [self._inputs(), harness]
        return "\n\n".join(p.strip("\n") for p in parts) + "\n"

    def _header(self, name: str, source: str | None) -> str:
        origin = f" from {source}" if source else ""
        lines = [
            f'"""{name}: torch.compile of `graph` with its free symbols\' dims marked dynamic, against',
            f'static shapes, in fresh processes: both CPU times, their ratio (by symshrink{origin})."""',
            *(f"# note: {n}" for n in self.notes),
            "import argparse, itertools, json, os, statistics, subprocess, sys, tempfile, time",
        ]
        code = "\n".join(self.lines) + "".join(self._code(e) for _, e in self.needed)
        if "math." in code:
            lines.append("import math")
        lines.append("import torch")
        read = _names_read(self.lines)
        lines += [line for n, line in _IMPORTS_BY_NAME.items() if n in read]
        lines += [
            line
            for line in self.repro.preamble.splitlines()
            if line.startswith(_CONFIG_PREFIXES) and " = " in line
        ]
        lines += [f"{k} = {v}" for k, v in self.settings.items()]
        if self.unbacked:
            lines.append("torch._dynamo.config.capture_scalar_outputs = True  # .tolist()")
        return "\n".join(lines)

    def _constants(self) -> str:
        sizes = {s: self.repro.hints[s] for s in self.backed}
        grows = " (or adds more to their sum)" if self.widest is not None else ""
        lines = [
            f"SIZES = {sizes!r}  # free symbols: their hints",
            f"WIDEST = {self.knob!r}  # the width: --n N keeps N of these dynamic{grows}",
        ]
        if self.unbacked:
            lines.append(f"ITEMS = {self._items()!r}  # unbacked symbols: values chosen here")
        return "\n".join(lines)

    def _items(self) -> dict[str, int]:
        """Values for the unbacked symbols (they have no hint): distinct, not 0 or 1."""
        taken = set(self.repro.hints.values())
        values = (v for v in itertools.count(7, 3) if v not in taken)
        return {u: next(values) for u in self.unbacked}

    def _from_sizes(self) -> list[str]:
        """The free symbols no direct tensor carries: each the length of an int8 tensor."""
        return [s for s in self.backed if s not in self.carried]

    def _params(self) -> list[str]:
        params = [self.names["sizes"]] if self._from_sizes() else []
        params += [self.names["more"]] if self.widest is not None else []
        params += [self.names["items"]] if self.unbacked else []
        params += [self.names["flats"]] if self._used_rebuilt() else []
        return params + [t.name for t in self.direct]

    def _graph(self) -> str:
        body = []
        if from_sizes := self._from_sizes():
            body.append(f"{_targets(from_sizes)} = (t.size(0) for t in {self.names['sizes']})")
        if self.carried:
            symbols = sorted(self.carried)
            body.append(f"{', '.join(symbols)} = {', '.join(self.carried[s] for s in symbols)}")
        if self.unbacked:
            body.append(f"{_targets(self.unbacked)} = {self.names['items']}.tolist()")
        more = f"[t.size(0) for t in {self.names['more']}]"
        if used := self._used_rebuilt():
            args = [*self.backed, *self.unbacked] + ([more] if self.widest is not None else [])
            outs = [n for n, _ in self.needed] + [self.names["layouts"]]
            body.append(f"{', '.join(outs)} = derived({', '.join(args)})")
            body.append(
                f"{_targets([r.name for r in used])} = (flat.as_strided(*layout) for flat, layout"
                f" in zip({self.names['flats']}, {self.names['layouts']}))"
            )
        else:
            body += self._definitions(f"sum({more})")
        head = f"def graph({', '.join(self._params())}):"
        return "\n".join([head] + [f"    {line}" for line in body + self.lines])

    def _definitions(self, more: str) -> list[str]:
        """`name = code` of each needed derived value; the widest sum gets `more` added."""
        out = []
        for n, e in self.needed:
            code = self._code(e, n)
            out.append(f"{n} = {code} + {more}" if e == self.widest else f"{n} = {code}")
        return out

    def _derived(self) -> str:
        more = [self.names["more"]] if self.widest is not None else []
        params = [*self.backed, *self.unbacked, *more]
        layouts = ", ".join(self._layout(r) for r in self._used_rebuilt())
        outs = ", ".join([n for n, _ in self.needed] + [self.names["layouts"]])
        body = [
            *self._definitions(f"sum({self.names['more']})"),
            f"return {outs}, [{layouts}]",
        ]
        head = (
            f"def derived({', '.join(params)}):"
            "  # sizes, and (size, stride, offset) of the rebuilt tensors: SymInts or ints"
        )
        return "\n".join([head] + [f"    {line}" for line in body]).replace(
            f"return {outs}, [", f"return {outs.removesuffix(', ' + self.names['layouts'])}, ["
        )

    def _layout(self, r: _Rebuilt) -> str:
        shape, stride = _tuple(map(self._code, r.shape)), _tuple(map(self._code, r.stride))
        return f"({shape}, {stride}, {self._code(r.offset)})"

    def _inputs(self) -> str:
        lines = [
            "def inputs(n, dynamic):  # graph's arguments at width n, live symbols' dims dynamic",
            *(_GROW if self.widest is not None else _CUT),
            "    live = set(sizes) - set(WIDEST[n:]) if dynamic else set()  # the rest pinned",
            "    def zeros(shape, dtype=torch.float32):",
            "        t = torch.zeros([sizes.get(d, d) for d in shape], dtype=dtype)",
            "        torch._dynamo.mark_dynamic(t, [i for i, d in enumerate(shape) if d in live])",
            "        return t",
        ]
        values = []
        if from_sizes := self._from_sizes():
            listed = "SIZES" if from_sizes == self.backed else repr(from_sizes)
            values.append(f"[zeros([s], torch.int8) for s in {listed}]")
        if self.widest is not None:
            values.append("[zeros([m], torch.int8) for m in more]")
        if self.unbacked:
            values.append("torch.tensor(list(ITEMS.values()))")
        if used := self._used_rebuilt():
            more = ", list(more.values())" if self.widest is not None else ""
            items = ", *ITEMS.values()" if self.unbacked else ""
            lines.append(f"    *_, layouts = derived(*(sizes[s] for s in SIZES){items}{more})")
            dtypes = ", ".join(r.dtype for r in used)
            lines.append(
                "    flats = [zeros([offset + sum((n - 1) * s for n, s in zip(size, stride)) + 1],"
                f" dtype) for (size, stride, offset), dtype in zip(layouts, [{dtypes}])]"
            )
            values.append("flats")
        values += [f"zeros({_shape(t)}{_dtype_arg(t.dtype)})" for t in self.direct]
        lines += textwrap.wrap(
            f"return [{', '.join(values)}]",
            width=100,
            initial_indent="    ",
            subsequent_indent="        ",
            break_on_hyphens=False,
            break_long_words=False,
        )
        return "\n".join(lines)


def _check_distinct_hints(repro: Repro, backed: Sequence[str]) -> None:
    """Dynamo duck-sizes: dims with equal hints become one symbol."""
    seen: dict[int, str] = {}
    for s in backed:
        hint = repro.hints[s]
        if hint in seen:
            raise ReproError(
                f"no program: {seen[hint]} and {s} have the same hint {hint}, and Dynamo would"
                " make them one symbol (duck sizing)"
            )
        seen[hint] = s


def _is_direct(t: TensorInput, hints: Mapping[str, int]) -> bool:
    """A tensor torch.compile can take as it is: contiguous, no offset, every dim an
    integer or a backed free symbol (marked dynamic)."""
    if any(not (e.is_Integer or (e.is_Symbol and e.name in hints)) for e in _sizes(t)):
        return False
    if t.storage_offset is not None and t.storage_offset != 0:
        return False
    return t.stride is None or _same_strides(t.stride, _contiguous(t.shape), t.shape)


def _rebuilt(t: TensorInput) -> _Rebuilt:
    return _Rebuilt(
        name=t.name,
        shape=t.shape,
        stride=t.stride if t.stride is not None else _contiguous(t.shape),
        offset=t.storage_offset if t.storage_offset is not None else sympy.Integer(0),
        dtype=t.dtype or "torch.float32",
    )


def _contiguous(shape: Sequence[sympy.Expr]) -> tuple[sympy.Expr, ...]:
    strides: list[sympy.Expr] = []
    size: sympy.Expr = sympy.Integer(1)
    for e in reversed(shape):
        strides.append(size)
        size = size * e
    return tuple(reversed(strides))


def _same_strides(
    a: Sequence[sympy.Expr], b: Sequence[sympy.Expr], shape: Sequence[sympy.Expr]
) -> bool:
    """Equal where it matters: a dim of size 1 may have any stride."""
    return all(
        size == 1 or sympy.expand(x - y) == 0 for x, y, size in zip(a, b, shape, strict=True)
    )


_AS_WRITTEN = [
    (re.compile(r"torch\.sym_sum\("), "sum("),
    (re.compile(r"torch\.ops\.aten\.sym_numel\.default\((\w+)\)"), r"\1.numel()"),
]


def as_written(line: str) -> str:
    """A graph line as a user writes it: Dynamo traces `sum` of sizes into `torch.sym_sum`
    and `t.numel()` into `aten.sym_numel`, but cannot trace those calls back on plain ints
    (static mode: "torch.* op returned non-Tensor"); the method or builtin traces to the
    same node in both modes (`aten.sym_size.int` and `sym_stride.int` trace as they are)."""
    for pattern, replacement in _AS_WRITTEN:
        line = pattern.sub(replacement, line)
    return line


def _graph_names(module_source: str) -> set[str]:
    return {n.id for n in ast.walk(ast.parse(module_source)) if isinstance(n, ast.Name)}


def _names_read(lines: Iterable[str]) -> set[str]:
    """The names a function body of these lines reads."""
    tree = ast.parse("def _():\n" + textwrap.indent("\n".join(lines), "    "))
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _targets(names: Sequence[str]) -> str:
    return names[0] + "," if len(names) == 1 else ", ".join(names)


def _tuple(items: Iterable[str]) -> str:
    items = list(items)
    return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"


def _shape(t: TensorInput) -> str:
    return repr([e.name if e.is_Symbol else int(e) for e in _sizes(t)])


def _sizes(t: TensorInput) -> list[sympy.Expr]:
    """`t.shape` as sympy expressions (what the model's `Expr` alias stands for)."""
    return list(t.shape)


def _dtype_arg(dtype: str | None) -> str:
    return "" if dtype in (None, "torch.float32") else f", {dtype}"


_GROW = (
    "    unused = (v for v in itertools.count(max(SIZES[WIDEST[-1]], 2) + 3, 3) if v not in"
    " SIZES.values())",
    '    sizes = {**SIZES, **(more := dict(zip([f"more{i}" for i in range(n - len(WIDEST))],'
    " unused)))}",
)
"""widths.at_width's new symbols: what the program at --n N adds is what the model at
width N adds (`_fresh_symbols`: 3 apart past the last symbol's hint, skipping used ones)."""

_CUT = ("    sizes = SIZES",)

_N_CHECK = "a.n < 1"
_N_CHECK_CUT = "not 1 <= a.n <= len(WIDEST)"

_HARNESS = """
def compile_once(mode, n, backend, instructions):  # CPU s of the first call, after a warm-up
    with tempfile.TemporaryDirectory() as cache:  # a cold Inductor cache
        os.environ["TORCHINDUCTOR_CACHE_DIR"] = cache
        torch.compile(lambda x: x + 1, backend=backend)(torch.ones(3))  # torch's one-time cost
        args = inputs(n, mode == "dynamic")
        torch._dynamo.config.record_compile_time_instruction_count = instructions  # not the warm-up
        compiled = torch.compile(graph, backend=backend, fullgraph=True, dynamic=None if mode == "dynamic" else False)
        start = time.process_time()
        with torch.no_grad():
            compiled(*args)
        seconds = time.process_time() - start
        counted = torch._dynamo.utils.CompileTimeInstructionCounter.value() if instructions else None
        return {"seconds": seconds, "instructions": counted}

def main():
    p = argparse.ArgumentParser(description=__doc__.split(chr(10))[0])
    p.add_argument("--mode", choices=["dynamic", "static"], help="one compile, here; prints JSON")
    p.add_argument("--n", type=int, default=len(WIDEST), help="the width [%(default)s]")
    p.add_argument("--backend", choices=["eager", "aot_eager", "inductor"], default="inductor")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--instructions", action="store_true", help="count compile instructions")
    a = p.parse_args()
    if a.n < 1 or (a.instructions and torch._C._instruction_counter.start() == -1):  # perf_event_open
        p.error(f"--n {a.n}: out of range" if a.n < 1 else "no hardware instruction counters here")
    if a.mode:
        return print(json.dumps(compile_once(a.mode, a.n, a.backend, a.instructions)))
    runs = {"dynamic": [], "static": []}
    for mode in [*runs] * 3:  # 3 runs each, alternated: both modes see the same load
        child = subprocess.run([sys.executable, __file__, *sys.argv[1:], "--mode", mode], capture_output=True, text=True)
        if child.returncode:
            sys.exit(f"the {mode} compile failed:\\n{child.stderr[-3000:]}")
        runs[mode].append(json.loads(child.stdout.splitlines()[-1]))
    times = {m: [r["seconds"] for r in done] for m, done in runs.items()}
    d, s = statistics.median(times["dynamic"]), statistics.median(times["static"])
    out = {"dynamic_s": d, "static_s": s, "ratio": d / s, "n": a.n, "backend": a.backend, "torch": torch.__version__,
           "runs": times, "instructions": {m: [r["instructions"] for r in done] for m, done in runs.items()}}
    if a.json:
        return print(json.dumps(out))
    for m, ts in times.items():
        print(f"{m:<8} {' '.join(f'{t:.2f}' for t in ts)} s CPU (compile and first run)")
    print(f"ratio    {d / s:.1f}x (median over median), n = {a.n}, backend {a.backend}")

if __name__ == "__main__":
    main()
"""

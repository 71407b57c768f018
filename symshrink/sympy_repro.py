"""A pure-sympy reproducer: the slowest sympy call of a slow compile, as a script of its own.

When the hot spot of a compile is a sympy call (`sympy.gcd` reached through
`torch.utils._sympy.functions.safe_gcd` from `FloorDiv.eval`), the bug can be shown with
sympy alone, and shrunk with an oracle that costs seconds instead of a compile:

1. `capture`: a child process (`python -m symshrink.sympy_repro capture SCRIPT --json`)
   wraps the named sympy entry points with a timer, retraces the script
   (`symshrink.retrace.retrace(..., no_native_compile=True)`) and reports the K slowest
   outermost calls with `sympy.srepr` of their arguments (Symbol assumptions included).
   torch looks the functions up as module attributes (`sympy.gcd(a, b)` in `safe_gcd`,
   Inductor's `sizevars`), so patching the attribute on its module is what they see.
2. `render_script`: a script importing only sympy and time that rebuilds the arguments
   from their srepr text, times the call and prints the seconds.
3. `shrink`: the arguments are sums of products; their terms are the items of
   `symshrink.search.minimize`, the oracle runs the rendered script in a subprocess and a
   candidate is interesting iff it finishes without error in at least the threshold (or is
   still running at the hard cap).

A call whose arguments hold one of torch's own sympy functions (FloorDiv, ...) cannot be
rebuilt without torch: it is captured with `torch_specific` set and skipped.

Only the capture child imports torch; this module imports sympy lazily.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import functools
import heapq
import importlib
import itertools
import json
import logging
import re
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from symshrink.files import atomic_write
from symshrink.search import CountingPredicate, minimize

log = logging.getLogger(__name__)

__all__ = [
    "DEFAULT_FUNCTIONS",
    "Built",
    "Call",
    "CaptureError",
    "Shrunk",
    "abstract_torch",
    "build",
    "capture",
    "capture_record",
    "main",
    "parse_seconds",
    "render_script",
    "run_script",
    "shrink",
    "split_terms",
    "term_count",
    "with_terms",
]

DEFAULT_FUNCTIONS = ("sympy.gcd", "sympy.cancel", "sympy.factor_terms")
"""Entry points torch reaches sympy's polynomial machinery through (`sympy.gcd` first)."""

_SECONDS_LINE = re.compile(r"^seconds: ([0-9.eE+-]+)$", re.MULTILINE)


class CaptureError(RuntimeError):
    """The capture child failed (no JSON, or the retrace could not start)."""


@dataclass(frozen=True)
class Call:
    """One sympy call: its function's dotted name, its seconds and srepr'd arguments.

    `torch_specific` names the torch classes found in the arguments (then the call
    cannot be rebuilt with sympy alone); None when the call is pure sympy.
    `abstracted` pairs a Symbol name with the torch subexpression it stands for, when
    the capture replaced torch functions (`FloorDiv(...)`) by Symbols (see `abstract`).
    """

    function: str
    seconds: float
    args: tuple[str, ...]
    kwargs: tuple[tuple[str, str], ...] = ()
    torch_specific: str | None = None
    abstracted: tuple[tuple[str, str], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Call:
        return cls(
            function=d["function"],
            seconds=float(d["seconds"]),
            args=tuple(d["args"]),
            kwargs=tuple((k, v) for k, v in d.get("kwargs", ())),
            torch_specific=d.get("torch_specific"),
            abstracted=tuple((k, v) for k, v in d.get("abstracted", ())),
        )


# ------------------------------------------------------------------------ rendering


def _split_function(function: str) -> tuple[str, str]:
    module, _, attr = function.rpartition(".")
    if not module or not attr:
        raise ValueError(f"function {function!r} is not a dotted module.attribute name")
    return module, attr


def render_script(call: Call, *, where: str = "", repeat: int = 3) -> str:
    """A standalone script (sympy and time only) that times `call` and prints its seconds.

    The arguments are written as their srepr text, which is Python code over sympy's
    names (`Add`, `Mul`, `Symbol('s0', integer=True, positive=True)`, ...). The call runs
    `repeat` times with sympy's cache cleared before each; the fastest run is printed.
    `where` says where the call's seconds were measured ("in the compile of r.py").
    """
    if call.torch_specific:
        raise ValueError(f"{call.function} call uses torch classes: {call.torch_specific}")
    module, attr = _split_function(call.function)
    where = f" {where}" if where else ""
    lines = [
        '"""Standalone sympy reproducer written by symshrink sympy-repro.',
        "",
        f"{call.function} took {call.seconds:.3f} s{where}.",
        "Runs with sympy alone; prints the seconds of the call.",
        *(
            ["", "Symbols standing for PyTorch sympy functions (FloorDiv, ...) in the capture:"]
            + [f"  {name} = {text}" for name, text in call.abstracted]
            if call.abstracted
            else []
        ),
        '"""',
        "",
        "import time",
        "",
        "from sympy import *  # noqa: F403  (srepr text names sympy's classes)",
        "from sympy.core.cache import clear_cache",
        f"from {module} import {attr} as target",
        "",
    ]
    for i, text in enumerate(call.args):
        lines.append(f"arg{i} = {text}")
    for name, text in call.kwargs:
        lines.append(f"kw_{name} = {text}")
    params = [f"arg{i}" for i in range(len(call.args))]
    params += [f"{name}=kw_{name}" for name, _ in call.kwargs]
    lines += [
        "",
        "runs = []",
        f"for _ in range({max(1, repeat)}):",
        "    clear_cache()",
        "    start = time.perf_counter()",
        f"    result = target({', '.join(params)})",
        "    runs.append(time.perf_counter() - start)",
        "seconds = min(runs)",
        "print(f'result: {result}'[:200])",
        "print(f'seconds: {seconds:.6f}')",
        "",
    ]
    return "\n".join(lines)


def parse_seconds(stdout: str) -> float | None:
    """The seconds a rendered script printed (its last `seconds:` line), or None."""
    found = _SECONDS_LINE.findall(stdout)
    return float(found[-1]) if found else None


# ------------------------------------------------------------------------ terms


def _namespace() -> dict[str, Any]:
    import sympy

    return dict(vars(sympy))


def _rebuild(text: str) -> Any:
    """A sympy object from its srepr text (our own captured text, evaluated over sympy)."""
    return eval(text, _namespace())


def _parts(expr: Any) -> tuple[Any, tuple[Any, ...]]:
    """(coefficient outside the sum, terms of the sum) of one argument.

    An Add gives its terms; a Mul with an Add factor (`k*(s0 + ... + sN)`) gives the
    terms of its widest Add factor, the other factors kept outside; anything else is one
    term that cannot be dropped on its own.
    """
    import sympy

    if isinstance(expr, sympy.Add):
        return sympy.Integer(1), expr.args
    if isinstance(expr, sympy.Mul):
        adds = [f for f in expr.args if isinstance(f, sympy.Add)]
        if adds:
            widest = max(adds, key=lambda f: len(f.args))
            rest = [f for f in expr.args if f is not widest]
            return sympy.Mul(*rest), widest.args
    return sympy.Integer(1), (expr,)


def split_terms(call: Call) -> list[list[str]]:
    """The srepr of each droppable term, per argument (a non-sum argument has one)."""
    import sympy

    return [[sympy.srepr(t) for t in _parts(_rebuild(a))[1]] for a in call.args]


def term_count(call: Call) -> int:
    return sum(len(ts) for ts in split_terms(call))


def with_terms(call: Call, kept: set[tuple[int, int]] | Sequence[tuple[int, int]]) -> Call:
    """`call` with only the terms `(argument index, term index)` in `kept`.

    An argument keeps its factor outside the sum; an argument that has no term left
    becomes 0. The seconds are the original's (a candidate is not measured yet).
    """
    import sympy

    keep = set(kept)
    args = []
    for i, text in enumerate(call.args):
        outside, terms = _parts(_rebuild(text))
        chosen = [t for j, t in enumerate(terms) if (i, j) in keep]
        args.append(sympy.srepr(outside * sympy.Add(*chosen)))
    return dataclasses.replace(call, args=tuple(args))


# ------------------------------------------------------------------------ running


def run_script(path: Path, *, timeout: float) -> tuple[float | None, str | None]:
    """Run a rendered script; (seconds, error). Still running at `timeout`: (inf, None).

    The script runs in its own process group, killed whole at the timeout.
    """
    from symshrink.sandbox import child_env, run_in_group

    code, out, err = run_in_group([sys.executable, str(path)], timeout_s=timeout, env=child_env())
    if code is None:
        return float("inf"), None
    if code != 0:
        last = (err.strip().splitlines() or [f"exit code {code}"])[-1]
        return None, last[:300]
    seconds = parse_seconds(out)
    if seconds is None:
        return None, "the script printed no `seconds:` line"
    return seconds, None


def time_call(call: Call, *, timeout: float, work_dir: Path | None = None) -> float | None:
    """Seconds of `call` run standalone (inf if still running at `timeout`; None: failed)."""
    with tempfile.TemporaryDirectory(dir=work_dir) as d:
        path = Path(d) / "candidate.py"
        path.write_text(render_script(call))
        seconds, error = run_script(path, timeout=timeout)
    if error:
        log.debug("candidate failed: %s", error)
    return seconds


# ------------------------------------------------------------------------ shrinking


@dataclass(frozen=True)
class Shrunk:
    """The result of `shrink`: the smallest still-slow call and what it cost to find."""

    call: Call
    seconds: float
    terms_before: int
    terms_after: int
    oracle_calls: int


def shrink(
    call: Call,
    *,
    threshold: float,
    timeout: float,
    test: Callable[[Call], float | None] | None = None,
    strategy: str = "auto",
) -> Shrunk:
    """Drop terms from the arguments of `call` while it still takes >= `threshold` s.

    `test(candidate)` gives a candidate's seconds (None: it failed); the default runs the
    rendered script in a subprocess capped at `timeout`. A candidate that empties an
    argument is rejected without running it.
    """
    measure = test or functools.partial(time_call, timeout=timeout)
    per_arg = split_terms(call)
    items = [(i, j) for i, ts in enumerate(per_arg) for j in range(len(ts))]
    seconds_of: dict[frozenset[tuple[int, int]], float] = {}

    def interesting(kept: tuple[tuple[int, int], ...]) -> bool:
        if any(not any(i == a for i, _ in kept) for a in range(len(per_arg))):
            return False
        seconds = measure(with_terms(call, kept))
        log.info("%d terms: %s s", len(kept), "failed" if seconds is None else f"{seconds:.3f}")
        if seconds is None or seconds < threshold:
            return False
        seconds_of[frozenset(kept)] = seconds
        return True

    predicate = CountingPredicate(interesting)
    kept = minimize(items, predicate, strategy=strategy)
    best = with_terms(call, kept)
    seconds = seconds_of.get(frozenset(kept), call.seconds)
    best = dataclasses.replace(best, seconds=seconds)
    return Shrunk(best, seconds, len(items), len(kept), predicate.calls)


# ------------------------------------------------------------------------ capture (parent)


def capture(
    script: str | Path,
    *,
    functions: Sequence[str] = DEFAULT_FUNCTIONS,
    top: int = 3,
    timeout: float = 900.0,
    abstract: bool = True,
) -> list[Call]:
    """The `top` slowest calls of `functions` while retracing `script`, slowest first.

    Runs `python -m symshrink.sympy_repro capture SCRIPT --json` in a child process (its
    own process group, killed at `timeout`). With `abstract`, torch functions inside the
    arguments become Symbols (`abstract_torch`); without, such calls come back with
    `torch_specific` set and cannot be rendered. Raises CaptureError when the child fails.
    """
    record = capture_record(
        script, functions=functions, top=top, timeout=timeout, abstract=abstract
    )
    return [Call.from_dict(d) for d in record["calls"]]


def capture_record(
    script: str | Path,
    *,
    functions: Sequence[str] = DEFAULT_FUNCTIONS,
    top: int = 3,
    timeout: float = 900.0,
    abstract: bool = True,
) -> dict[str, Any]:
    """`capture`'s child record as it came: the calls, and the compile's seconds and each
    function's total beside them (`compile_s`, `totals`), so a caller can tell whether
    one call dominates the compile."""
    from symshrink.sandbox import child_env, run_in_group

    cmd = [sys.executable, "-m", "symshrink.sympy_repro", "capture", str(script), "--json"]
    cmd += ["--top", str(top)] + ([] if abstract else ["--no-abstract"])
    for f in functions:
        cmd += ["--function", f]
    code, out, err = run_in_group(cmd, timeout_s=timeout, env=child_env())
    if code is None:
        raise CaptureError(f"capture of {script} still running after {timeout:.0f} s")
    try:
        data = json.loads(out)
    except json.JSONDecodeError:
        tail = "\n".join(err.strip().splitlines()[-5:])
        raise CaptureError(f"capture of {script} failed (exit {code}): {tail}") from None
    if data.get("error"):
        log.warning("retrace of %s: %s", script, data["error"])
    return data


# ------------------------------------------------------------------------ capture (child)


@dataclass
class _Recorder:
    """The `top` slowest outermost calls (args kept as objects until the end)."""

    top: int
    heap: list[tuple[float, int, str, tuple[Any, ...], dict[str, Any]]] = field(
        default_factory=list
    )
    counts: dict[str, int] = field(default_factory=dict)
    totals: dict[str, float] = field(default_factory=dict)
    depth: threading.local = field(default_factory=threading.local)
    order: Iterator[int] = field(default_factory=itertools.count)

    def wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def timed(*args: Any, **kwargs: Any) -> Any:
            depth = getattr(self.depth, "n", 0)
            if depth:  # inside another watched call: its time is the outer call's
                return fn(*args, **kwargs)
            self.depth.n = 1
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                seconds = time.perf_counter() - start
                self.depth.n = 0
                self.note(name, seconds, args, kwargs)

        timed.__wrapped_by_symshrink__ = True  # type: ignore[attr-defined]
        return timed

    def note(self, name: str, seconds: float, args: tuple[Any, ...], kw: dict[str, Any]) -> None:
        self.counts[name] = self.counts.get(name, 0) + 1
        self.totals[name] = self.totals.get(name, 0.0) + seconds
        entry = (seconds, next(self.order), name, args, kw)
        # Keep more than `top`: the same arguments often come back, and repeats are merged.
        if len(self.heap) < 4 * self.top:
            heapq.heappush(self.heap, entry)
        elif seconds > self.heap[0][0]:
            heapq.heapreplace(self.heap, entry)

    def calls(self, *, abstract: bool = True) -> list[Call]:
        out: dict[tuple[str, tuple[str, ...], tuple[tuple[str, str], ...]], Call] = {}
        for seconds, _, name, args, kw in sorted(self.heap, key=lambda e: -e[0]):
            names = sorted({n for a in (*args, *kw.values()) for n in _torch_classes(a)})
            pairs: tuple[tuple[str, str], ...] = ()
            if names and abstract:
                values, pairs = abstract_torch([*args, *kw.values()])
                if not any(next(_torch_classes(v), None) for v in values):
                    rest = values[len(args) :]
                    args, kw = tuple(values[: len(args)]), dict(zip(kw, rest, strict=True))
                    names = []
            srepr_args = tuple(_srepr(a) for a in args)
            srepr_kw = tuple((k, _srepr(v)) for k, v in sorted(kw.items()))
            key = (name, srepr_args, srepr_kw)
            if key not in out:
                torch_specific = ", ".join(names) or None
                out[key] = Call(name, seconds, srepr_args, srepr_kw, torch_specific, pairs)
        return list(out.values())[: self.top]


def abstract_torch(values: Sequence[Any]) -> tuple[list[Any], tuple[tuple[str, str], ...]]:
    """Replace each outermost torch-function subexpression (FloorDiv(...)) by a Symbol.

    sympy's polynomial code treats such a subexpression as one more generator, as it does
    a Symbol, so the call keeps its shape. The Symbol carries the subexpression's known
    integer / sign assumptions; the same subexpression gets the same Symbol in every
    value. Returns the new values and (symbol name, subexpression text) pairs.
    """
    import sympy

    mapping: dict[Any, Any] = {}
    pairs: list[tuple[str, str]] = []
    counter = itertools.count()

    def visit(node: Any) -> None:
        if node in mapping:
            return
        if _is_torch(node):
            facts = ("integer", "positive", "nonnegative", "negative", "nonpositive")
            assumptions = {f: True for f in facts if getattr(node, f"is_{f}", None) is True}
            sym = sympy.Symbol(f"{type(node).__name__.lower()}{next(counter)}", **assumptions)
            mapping[node] = sym
            pairs.append((sym.name, str(node)))
            return
        for child in node.args:
            if isinstance(child, sympy.Basic):
                visit(child)

    for v in values:
        if isinstance(v, sympy.Basic):
            visit(v)
    new = [v.xreplace(mapping) if isinstance(v, sympy.Basic) else v for v in values]
    return new, tuple(pairs)


def _is_torch(node: Any) -> bool:
    return any(
        getattr(cls, "__module__", "").split(".")[0] == "torch"
        for cls in (type(node), getattr(node, "func", type(node)))
    )


def _srepr(value: Any) -> str:
    import sympy

    return sympy.srepr(value) if isinstance(value, sympy.Basic) else repr(value)


def _torch_classes(value: Any) -> Iterator[str]:
    """Names of the torch-defined classes inside a sympy value (FloorDiv, ...)."""
    import sympy

    if not isinstance(value, sympy.Basic):
        if type(value).__module__.split(".")[0] == "torch":
            yield type(value).__name__
        return
    for node in sympy.preorder_traversal(value):
        if _is_torch(node):
            yield type(node).__name__


@contextlib.contextmanager
def _patched(recorder: _Recorder, functions: Sequence[str]) -> Iterator[None]:
    saved: list[tuple[Any, str, Any]] = []
    try:
        for name in functions:
            module_name, attr = _split_function(name)
            module = importlib.import_module(module_name)
            original = getattr(module, attr)
            saved.append((module, attr, original))
            setattr(module, attr, recorder.wrap(name, original))
        yield
    finally:
        for module, attr, original in reversed(saved):
            setattr(module, attr, original)


def capture_here(
    script: str | Path,
    *,
    functions: Sequence[str] = DEFAULT_FUNCTIONS,
    top: int = 3,
    abstract: bool = True,
) -> dict[str, Any]:
    """Retrace `script` in this process with `functions` timed (the child's work)."""
    from symshrink.retrace import retrace

    recorder = _Recorder(top)
    with _patched(recorder, functions):
        result = retrace(script, no_native_compile=True)
    return {
        "script": str(script),
        "error": result.error,
        "compile_s": result.trace_s + result.compile_s,
        "phases": result.phases,
        "counts": recorder.counts,
        "totals": recorder.totals,
        "calls": [c.to_dict() for c in recorder.calls(abstract=abstract)],
    }


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m symshrink.sympy_repro capture SCRIPT [--json]`: 0 ok, 1 the retrace failed.

    With --json, stdout holds only the JSON result (torch's output goes to stderr).
    """
    parser = argparse.ArgumentParser(prog="python -m symshrink.sympy_repro")
    sub = parser.add_subparsers(dest="command", required=True)
    cap = sub.add_parser("capture", help="time sympy calls while retracing a repro")
    cap.add_argument("script", type=Path)
    cap.add_argument("--json", action="store_true")
    cap.add_argument("--top", type=int, default=3)
    cap.add_argument("--function", action="append", default=[])
    cap.add_argument("--no-abstract", action="store_true", help="keep torch functions in args")
    ns = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="symshrink.sympy_repro: %(message)s")
    from symshrink.retrace import stdout_to_stderr

    with stdout_to_stderr(ns.json):
        data = capture_here(
            ns.script,
            functions=ns.function or DEFAULT_FUNCTIONS,
            top=ns.top,
            abstract=not ns.no_abstract,
        )
    if ns.json:
        text = json.dumps(data, indent=2)
    else:
        text = "\n".join(
            f"{c['seconds']:8.3f} s  {c['function']}" + (" (torch)" if c["torch_specific"] else "")
            for c in data["calls"]
        )
    sys.stdout.write(text + "\n")
    sys.stdout.flush()
    return 1 if data["error"] else 0


def write_script(path: Path, call: Call, *, where: str = "") -> None:
    atomic_write(path, render_script(call, where=where))


@dataclass(frozen=True)
class Built:
    """What `build` wrote and measured, for the command's summary."""

    out: Path
    full: Path  # the unshrunk script (same as `out` without shrinking)
    captured: Call
    standalone_s: float | None
    shrunk: Shrunk | None
    threshold: float | None
    skipped: tuple[str, ...]  # calls not renderable, one line each
    compile_s: float | None = None  # the captured compile's seconds (trace + compile)
    function_s: float | None = None  # all calls of `captured.function` in that compile

    def summary(self) -> str:
        c = self.captured
        lines = [f"{c.function}: {c.seconds:.3f} s in the compile"]
        if self.standalone_s is None:
            lines.append("standalone: the script failed")
        else:
            lines.append(f"standalone: {self.standalone_s:.3f} s ({self.full})")
        lines += [f"abstracted: {name} = {text}" for name, text in c.abstracted]
        lines += [f"skipped: {s}" for s in self.skipped]
        if self.shrunk is not None:
            r = self.shrunk
            lines.append(
                f"shrunk: {r.terms_before} -> {r.terms_after} terms in {r.oracle_calls} calls, "
                f"{r.seconds:.3f} s >= threshold {self.threshold:.3f} s ({self.out})"
            )
        return "\n".join(lines) + "\n"


def build(
    repro: Path,
    out: Path,
    *,
    threshold: float | None = None,
    timeout: float = 900.0,
    do_shrink: bool = True,
    functions: Sequence[str] = DEFAULT_FUNCTIONS,
) -> Built:
    """Capture, write `out` for the slowest renderable call, verify it, shrink it.

    The unshrunk script goes to `out` (without shrinking) or `OUT.full.py`. The default
    threshold is half the faster of the captured and standalone times; a script that
    does not reach it is not shrunk. Raises CaptureError if no call can be rendered.
    """
    record = capture_record(repro, functions=functions, timeout=timeout)
    calls = [Call.from_dict(d) for d in record["calls"]]
    skipped = tuple(
        f"{c.function} {c.seconds:.3f} s: uses {c.torch_specific}"
        for c in calls
        if c.torch_specific
    )
    usable = [c for c in calls if not c.torch_specific]
    if not usable:
        raise CaptureError(f"no renderable call of {', '.join(functions)} in {repro}")
    call = usable[0]
    shares = {
        "compile_s": record.get("compile_s"),
        "function_s": (record.get("totals") or {}).get(call.function),
    }
    full = out.with_name(f"{out.stem}.full.py") if do_shrink else out
    write_script(full, call, where=f"in the compile of {repro.name}")
    standalone, error = run_script(full, timeout=timeout)
    if error:
        log.warning("%s failed: %s", full, error)
    if not do_shrink or standalone is None:
        return Built(out, full, call, standalone, None, None, skipped, **shares)
    limit = threshold if threshold is not None else 0.5 * min(call.seconds, standalone)
    if standalone < limit:
        log.warning(
            "%s took %.3f s, under the threshold %.3f s: not shrunk", full, standalone, limit
        )
        return Built(out, full, call, standalone, None, limit, skipped, **shares)
    result = shrink(call, threshold=limit, timeout=timeout)
    where = f"alone, shrunk from the call that took {call.seconds:.3f} s in the compile of"
    write_script(out, result.call, where=f"{where} {repro.name}")
    return Built(out, full, call, standalone, result, limit, skipped, **shares)


if __name__ == "__main__":
    raise SystemExit(main())

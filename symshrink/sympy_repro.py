"""A pure-sympy reproducer: the sympy calls of a slow compile, replayed by sympy alone.

The time a symbolic-shape compile spends in sympy is spread over many calls (hundreds of
`sympy.gcd` from torch's `safe_gcd`, `Mod.eval` from `PythonMod.eval`), and one call
replayed alone does not show it: it is short, and it does not see the state the calls
before it left. So the calls are recorded in order and replayed in order:

1. `record`: a child process (`python -m symshrink.sympy_repro record SCRIPT`) wraps the
   entry points torch reaches sympy's polynomial code through (`FUNCTIONS`), retraces the
   script (`symshrink.retrace.retrace(..., no_native_compile=True)`) and keeps every
   outermost call in order: its arguments as sympy objects and its thread CPU seconds.
   torch looks them up as module attributes (`sympy.gcd(a, b)` in `safe_gcd`,
   `sympy.Mod(p, q)` whose cache misses run `Mod.eval`), so patching the attribute (or the
   classmethod) is what it sees. The arguments are printed as sympy's repr text over the
   recording's symbols, each declared once with its assumptions (`integer=True,
   positive=True`); torch's own functions in them (`FloorDiv(...)`) become Symbols with
   the same integer and sign assumptions, the same subexpression the same Symbol in
   every call (`Recording.abstracted` says which).
2. `render_script`: a script needing only sympy that rebuilds the symbols and the calls,
   clears sympy's cache and runs the calls in order, printing their CPU seconds
   (`--per-call`: each call's; `--control`: also the same calls with every symbol an
   integer, the replay's control).
3. `verify`: the replay in `VERIFY_RUNS` fresh processes, each at least `VERIFY_SHARE` of
   the recorded calls' CPU seconds in the compile.
4. `shrink_calls`: delta debugging over the calls, a candidate kept while its replay holds
   `KEEP` of the full replay's seconds and stays `CONTROL_RATIO` x its control. The
   measured per-call seconds pick the first candidate (the slowest calls until they hold
   the target); the search starts from all the calls when that one is not enough.

Only the record child imports torch; this module imports sympy lazily.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import functools
import importlib
import itertools
import json
import logging
import re
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from symshrink.search import CountingPredicate, minimize

log = logging.getLogger(__name__)

__all__ = [
    "CONTROL_RATIO",
    "FUNCTIONS",
    "KEEP",
    "VERIFY_RUNS",
    "VERIFY_SHARE",
    "Built",
    "Call",
    "Measured",
    "RecordError",
    "Recorder",
    "Recording",
    "build",
    "main",
    "measure",
    "record",
    "render_script",
    "script_path",
    "shrink_calls",
    "verify",
]

FUNCTIONS = (
    "sympy.gcd",
    "sympy.core.mod.Mod.eval",
    "sympy.cancel",
    "sympy.factor_terms",
)
"""Entry points torch reaches sympy's polynomial machinery through, none of which calls
back into torch: `sympy.gcd` (`safe_gcd`, Inductor's `sizevars`), `Mod.eval` (the cache
misses of `sympy.Mod`, which `PythonMod.eval` builds), `cancel`, `factor_terms`."""

VERIFY_RUNS = 3  # fresh processes a reproducer is verified in
VERIFY_SHARE = 0.5  # each replays at least this share of the calls' CPU seconds in the compile
KEEP = 0.5  # a shrunk sequence keeps this share of the full replay's seconds
CONTROL_RATIO = 4.0  # ... and takes this many times its control (every symbol an integer)

_LINE = re.compile(r"^(seconds|control|per call): (.*)$", re.MULTILINE)


class RecordError(RuntimeError):
    """The record child failed (no JSON, or the retrace could not start)."""


@dataclass(frozen=True)
class Call:
    """One recorded call: the function's dotted name, its arguments as Python text over
    sympy's names and the recording's symbols, its thread CPU seconds in the compile."""

    function: str
    args: tuple[str, ...]
    cpu_s: float


@dataclass(frozen=True)
class Recording:
    """The calls of one compile in order, and the symbols they use.

    `symbols` pairs a name the arguments use with the sympy text declaring it
    (`Symbol('s0', integer=True, positive=True)`); `abstracted` pairs a Symbol standing for
    one of torch's functions with the subexpression's text; `compile_s` the compile's CPU
    seconds (trace and compile), `error` the retrace's failure, if any.
    """

    script: str
    calls: tuple[Call, ...]
    symbols: tuple[tuple[str, str], ...] = ()
    abstracted: tuple[tuple[str, str], ...] = ()
    compile_s: float | None = None
    error: str | None = None

    @property
    def cpu_s(self) -> float:
        """The calls' CPU seconds in the compile."""
        return sum(c.cpu_s for c in self.calls)

    def only(self, kept: Sequence[int]) -> Recording:
        """The recording with only the calls at `kept` (in their order)."""
        return dataclasses.replace(self, calls=tuple(self.calls[i] for i in sorted(kept)))

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Recording:
        return cls(
            script=d["script"],
            calls=tuple(Call(c["function"], tuple(c["args"]), c["cpu_s"]) for c in d["calls"]),
            symbols=tuple((k, v) for k, v in d.get("symbols", ())),
            abstracted=tuple((k, v) for k, v in d.get("abstracted", ())),
            compile_s=d.get("compile_s"),
            error=d.get("error"),
        )


# ------------------------------------------------------------------------ recording


def _resolve(function: str) -> tuple[str, list[str]]:
    """(module, attribute path) of a dotted name: the longest importable module prefix."""
    parts = function.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        module = ".".join(parts[:cut])
        try:
            importlib.import_module(module)
        except ImportError:
            continue
        return module, parts[cut:]
    raise ValueError(f"function {function!r} is not a dotted module.attribute name")


@dataclass
class Recorder:
    """The outermost calls of the wrapped functions, in order, with their arguments as
    objects (printed at the end, once every symbol is known)."""

    calls: list[tuple[str, tuple[Any, ...], float]] = field(default_factory=list)
    depth: threading.local = field(default_factory=threading.local)

    def wrap(self, name: str, fn: Callable[..., Any], *, bound: bool = False) -> Callable[..., Any]:
        """`fn` timed; `bound`: its first argument (a classmethod's class) is not recorded."""

        @functools.wraps(fn)
        def timed(*args: Any) -> Any:
            if getattr(self.depth, "n", 0):  # inside another watched call: its time
                return fn(*args)
            self.depth.n = 1
            start = time.thread_time()
            try:
                return fn(*args)
            finally:
                seconds = time.thread_time() - start
                self.depth.n = 0
                self.calls.append((name, args[1:] if bound else args, seconds))

        return timed

    @contextlib.contextmanager
    def patched(self, functions: Sequence[str]) -> Iterator[None]:
        """Every function in `functions` wrapped where torch looks it up, meanwhile."""
        saved: list[tuple[Any, str, Any]] = []
        try:
            for name in functions:
                module, path = _resolve(name)
                owner: Any = importlib.import_module(module)
                for attr in path[:-1]:
                    owner = getattr(owner, attr)
                attr = path[-1]
                original = vars(owner).get(attr, getattr(owner, attr))
                if isinstance(original, classmethod):
                    wrapped: Any = classmethod(self.wrap(name, original.__func__, bound=True))
                else:
                    wrapped = self.wrap(name, original)
                saved.append((owner, attr, original))
                setattr(owner, attr, wrapped)
            yield
        finally:
            for owner, attr, original in reversed(saved):
                setattr(owner, attr, original)

    def recording(self, script: str, **kw: Any) -> Recording:
        """The calls printed over declared symbols, torch's functions abstracted. A Symbol
        is declared once by its name unless that name is not a free identifier or names two
        symbols (then it is written out where it occurs)."""
        from sympy import Symbol

        abstraction = _Abstraction()
        calls = []
        for name, args, seconds in self.calls:
            values = [abstraction(a) for a in args]
            calls.append((name, values, seconds))
        found = {s for _, values, _ in calls for v in values for s in _symbols_in(v)}
        names = Counter(s.name for s in found)
        symbols = sorted(
            (s for s in found if type(s) is Symbol and names[s.name] == 1 and _plain_name(s.name)),
            key=lambda s: (len(s.name), s.name),
        )
        printer = _printer(set(symbols))
        return Recording(
            script=script,
            calls=tuple(
                Call(name, tuple(printer.doprint(v) for v in values), round(seconds, 6))
                for name, values, seconds in calls
            ),
            symbols=tuple((s.name, _printer(set()).doprint(s)) for s in symbols),
            abstracted=tuple(abstraction.pairs),
            **kw,
        )


class _Abstraction:
    """Each outermost torch function subexpression (FloorDiv(...)) as a Symbol, the same
    one for the same subexpression in every call. sympy's polynomial code treats such a
    subexpression as one more generator, as it does a Symbol, so a call keeps its shape;
    the Symbol carries the subexpression's known integer and sign assumptions."""

    FACTS = ("integer", "positive", "nonnegative", "negative", "nonpositive")

    def __init__(self) -> None:
        self.mapping: dict[Any, Any] = {}
        self.pairs: list[tuple[str, str]] = []
        self.counter = itertools.count()

    def __call__(self, value: Any) -> Any:
        import sympy

        if isinstance(value, (tuple, list)):
            return type(value)(self(v) for v in value)
        if not isinstance(value, sympy.Basic):
            return value
        self._visit(value)
        return value.xreplace(self.mapping) if self.mapping else value

    def _visit(self, node: Any) -> None:
        import sympy

        if node in self.mapping:
            return
        if _is_torch(node):
            facts = {f: True for f in self.FACTS if getattr(node, f"is_{f}", None) is True}
            symbol = sympy.Symbol(f"{type(node).__name__.lower()}{next(self.counter)}", **facts)
            self.mapping[node] = symbol
            self.pairs.append((symbol.name, str(node)))
            return
        for child in node.args:
            if isinstance(child, sympy.Basic):
                self._visit(child)


def _is_torch(node: Any) -> bool:
    return any(
        getattr(cls, "__module__", "").split(".")[0] == "torch"
        for cls in (type(node), getattr(node, "func", type(node)))
    )


def _symbols_in(value: Any) -> Iterator[Any]:
    import sympy

    if isinstance(value, (tuple, list)):
        for v in value:
            yield from _symbols_in(v)
    elif isinstance(value, sympy.Basic):
        yield from value.atoms(sympy.Symbol)


# Names the rendered script binds itself, besides sympy's.
_SCRIPT_NAMES = {"sys", "time", "clear_cache", "CALLS", "replay", "control", "seconds", "values"}


@functools.cache
def _taken_names() -> frozenset[str]:
    import sympy

    return frozenset(vars(sympy)) | _SCRIPT_NAMES


def _plain_name(name: str) -> bool:
    """A symbol printed as its name (declared once in the script): a free identifier."""
    import keyword

    return name.isidentifier() and not keyword.iskeyword(name) and name not in _taken_names()


def _printer(declared: set[Any]) -> Any:
    """sympy's repr printer (the text rebuilds the object), a declared Symbol by its name."""
    from sympy.printing.repr import ReprPrinter

    class Printer(ReprPrinter):
        def _print_Symbol(self, expr: Any) -> str:
            if expr in declared:
                return str(expr.name)
            return str(super()._print_Symbol(expr))

    return Printer()


def record_here(
    script: str | Path,
    *,
    functions: Sequence[str] = FUNCTIONS,
    torch_settings: Mapping[str, str] | None = None,
) -> Recording:
    """Retrace `script` in this process with `functions` recorded (the child's work)."""
    from symshrink.retrace import retrace

    recorder = Recorder()
    with recorder.patched(functions):
        result = retrace(script, no_native_compile=True, torch_settings=torch_settings)
    return recorder.recording(
        Path(script).name,
        compile_s=round(result.trace_s + result.compile_s, 3),
        error=result.error,
    )


def record(
    script: str | Path,
    *,
    functions: Sequence[str] = FUNCTIONS,
    torch_settings: Mapping[str, str] | None = None,
    timeout: float = 900.0,
) -> Recording:
    """The calls of `functions` while `script` compiles, recorded in a child process (its
    own process group, killed at `timeout`). Raises RecordError when the child fails."""
    from symshrink.sandbox import child_env, run_in_group

    cmd = [sys.executable, "-m", "symshrink.sympy_repro", "record", str(script)]
    for f in functions:
        cmd += ["--function", f]
    for k, v in (torch_settings or {}).items():
        cmd += [f"--torch-setting={k}={v}"]
    code, out, err = run_in_group(cmd, timeout_s=timeout, env=child_env())
    if code is None:
        raise RecordError(f"recording {script} still running after {timeout:.0f} s")
    try:
        recording = Recording.from_dict(json.loads(out))
    except (json.JSONDecodeError, KeyError, TypeError):
        tail = "\n".join(err.strip().splitlines()[-5:])
        raise RecordError(f"recording {script} failed (exit {code}): {tail}") from None
    if recording.error:
        log.warning("retrace of %s: %s", script, recording.error)
    return recording


# ------------------------------------------------------------------------ rendering


def _callable_text(function: str) -> tuple[str, str]:
    """(import line, expression) naming `function` in the script."""
    module, path = _resolve(function)
    return f"from {module} import {path[0]}", ".".join(path)


def render_script(recording: Recording, *, doc: str = "") -> str:
    """A script needing only sympy that replays `recording`'s calls in order from a cold
    cache and prints their CPU seconds; `--per-call` prints each call's, `--control` also
    times the same calls with every symbol an integer (a call that then fails counts its
    time until it failed). `doc` opens its docstring."""
    imports = sorted(
        line
        for line in {_callable_text(c.function)[0] for c in recording.calls}
        if not line.startswith("from sympy import ")  # the star import has it
    )
    names = {f: _callable_text(f)[1] for f in {c.function for c in recording.calls}}
    functions = sorted({c.function for c in recording.calls})
    summary = [
        f"{len(recording.calls)} calls of {', '.join(functions) or 'nothing'}, as recorded in "
        f"order while torch compiled {recording.script}:",
        f"{recording.cpu_s:.3f} s of CPU in that compile"
        + (f" (of its {recording.compile_s:.3f} s)." if recording.compile_s else "."),
        "Replayed here with sympy alone from a cold cache; prints their CPU seconds.",
        "python sympy_repro.py [--per-call] [--control]",
    ]
    if recording.abstracted:
        summary += ["", "Symbols standing for torch's own sympy functions in the compile:"]
        summary += [f"  {name} = {text}" for name, text in recording.abstracted]
    lines = [
        '"""' + (doc.rstrip() + "\n\n" if doc else "") + "\n".join(summary),
        '"""',
        "",
        "import sys",
        "import time",
        "",
        "from sympy import *  # noqa: F403  (the arguments' text names sympy's classes)",
        "from sympy.core.cache import clear_cache",
        *imports,
        "",
        *(f"{name} = {text}" for name, text in recording.symbols),
        "",
        "CALLS = [",
        *(
            f"    ({names[c.function]}, ({''.join(a + ', ' for a in c.args)})),"
            for c in recording.calls
        ),
        "]",
        "",
        "",
        _REPLAY,
    ]
    return "\n".join(lines)


# The rendered script's end: the replay (a failing call fails it; the control's calls
# may fail, with integers in place of symbols, and count their time until then).
_REPLAY = """\
def replay(calls):
    clear_cache()
    seconds = []
    for function, args in calls:
        start = time.process_time()
        try:
            function(*args)
        except Exception:
            if calls is CALLS:
                raise
        seconds.append(time.process_time() - start)
    return seconds


def control():
    \"\"\"The same calls with every symbol an integer.\"\"\"
    free = set().union(*(a.free_symbols for _, args in CALLS for a in args if isinstance(a, Basic)))
    values = {s: Integer(1000 + 7 * i) for i, s in enumerate(sorted(free, key=str))}
    return [
        (f, tuple(a.xreplace(values) if isinstance(a, Basic) else a for a in args))
        for f, args in CALLS
    ]


seconds = replay(CALLS)
print(f"seconds: {sum(seconds):.6f}")
if "--per-call" in sys.argv:
    print("per call: " + " ".join(f"{s:.6f}" for s in seconds))
if "--control" in sys.argv:
    print(f"control: {sum(replay(control())):.6f}")
"""


def script_path(repro: Path) -> Path:
    """Where `symshrink sympy-repro REPRO` writes by default (the bug report looks there)."""
    return repro.with_name(f"{repro.stem}.sympy.py")


# ------------------------------------------------------------------------ running


@dataclass(frozen=True)
class Measured:
    """One replay in a fresh process: its seconds, its control's, each call's."""

    seconds: float
    control_s: float | None = None
    per_call: tuple[float, ...] = ()


def parse_output(stdout: str) -> Measured | None:
    """What a rendered script printed, or None when it printed no `seconds:` line."""
    found = {key: value for key, value in _LINE.findall(stdout)}
    if "seconds" not in found:
        return None
    return Measured(
        float(found["seconds"]),
        float(found["control"]) if "control" in found else None,
        tuple(float(s) for s in found.get("per call", "").split()),
    )


def run_script(path: Path, *, timeout: float, flags: Sequence[str] = ()) -> Measured | str:
    """Run a rendered script in a fresh process (its own process group, killed whole at
    `timeout`); what it measured, or why not in one line."""
    from symshrink.sandbox import child_env, run_in_group

    argv = [sys.executable, str(path), *flags]
    code, out, err = run_in_group(argv, timeout_s=timeout, env=child_env())
    if code is None:
        return f"still running after {timeout:g} s"
    if code != 0:
        return (err.strip().splitlines() or [f"exit code {code}"])[-1][:300]
    return parse_output(out) or "the script printed no `seconds:` line"


def measure(recording: Recording, *, timeout: float, flags: Sequence[str] = ()) -> Measured | str:
    """`recording` rendered and run once in a fresh process."""
    with tempfile.TemporaryDirectory(prefix="symshrink-sympy-") as d:
        path = Path(d) / "candidate.py"
        path.write_text(render_script(recording))
        return run_script(path, timeout=timeout, flags=flags)


def verify(
    path: Path, recorded_s: float, *, timeout: float, runs: int = VERIFY_RUNS
) -> tuple[bool, list[float], str | None]:
    """Run the script at `path` `runs` times in fresh processes: (each run took at least
    VERIFY_SHARE of `recorded_s`, the runs' seconds, the error of a run that failed)."""
    seconds: list[float] = []
    for _ in range(runs):
        result = run_script(path, timeout=timeout)
        if isinstance(result, str):
            return False, seconds, result
        seconds.append(result.seconds)
    return all(s >= VERIFY_SHARE * recorded_s for s in seconds), seconds, None


# ------------------------------------------------------------------------ shrinking


def shrink_calls(
    count: int,
    test: Callable[[tuple[int, ...]], Measured | None],
    *,
    target_s: float,
    per_call: Sequence[float] = (),
    ratio: float = CONTROL_RATIO,
    max_tests: int = 100,
) -> tuple[tuple[int, ...], int]:
    """The indices of a 1-minimal subsequence of `count` calls still slow, and the tests run.

    A candidate (indices in order) is slow when `test` says it takes at least `target_s`
    and `ratio` x its control. The first candidate is the slowest calls by `per_call` (a
    measured replay's seconds for each) until they hold 1.25 x `target_s`; delta debugging
    starts from it when it is slow, else from all the calls. After `max_tests` tests every
    candidate counts as not slow (what is kept then is slow, not 1-minimal).
    """
    tests = 0

    def slow(kept: tuple[int, ...]) -> bool:
        nonlocal tests
        if not kept or tests >= max_tests:
            return False
        tests += 1
        got = test(kept)
        if got is None:
            return False
        control = got.control_s or 0.0
        return got.seconds >= target_s and got.seconds >= ratio * control

    predicate = CountingPredicate(slow)
    everything = tuple(range(count))
    start = everything
    if len(per_call) == count:
        by_cost = sorted(everything, key=lambda i: -per_call[i])
        total, seed = 0.0, []
        for i in by_cost:
            if total >= 1.25 * target_s:
                break
            seed.append(i)
            total += per_call[i]
        candidate = tuple(sorted(seed))
        if candidate != everything and predicate(candidate):
            start = candidate
    kept = minimize(start, predicate)
    return tuple(sorted(kept)), tests


# ------------------------------------------------------------------------ building


@dataclass(frozen=True)
class Built:
    """What `build` recorded, measured and kept.

    `verified`: the full sequence's replay took at least VERIFY_SHARE of its CPU seconds in
    the compile in every one of VERIFY_RUNS fresh processes (`full_runs`). Then `kept` is
    what the script written replays: the shrunk sequence when it verified too, else all
    the calls; `kept_runs` its verifying runs, `control_s` its control's seconds. Else
    `kept` is None and `why` says why, with the numbers.
    """

    recording: Recording
    full_runs: tuple[float, ...] = ()
    verified: bool = False
    kept: Recording | None = None
    kept_runs: tuple[float, ...] = ()
    control_s: float | None = None
    shrink_tests: int = 0
    why: str | None = None

    def summary(self) -> str:
        r = self.recording
        lines = [
            f"recorded: {len(r.calls)} calls, {r.cpu_s:.3f} s of CPU in the compile"
            + (f" of {r.compile_s:.3f} s" if r.compile_s else ""),
        ]
        if self.full_runs:
            runs = ", ".join(f"{s:.3f}" for s in self.full_runs)
            lines.append(f"replayed: {runs} s" + (" (verified)" if self.verified else ""))
        if self.kept is not None:
            runs = ", ".join(f"{s:.3f}" for s in self.kept_runs)
            control = f", control {self.control_s:.3f} s" if self.control_s is not None else ""
            lines.append(
                f"kept: {len(self.kept.calls)} calls ({self.kept.cpu_s:.3f} s in the compile), "
                f"{runs} s alone{control} ({self.shrink_tests} shrink tests)"
            )
        if self.why:
            lines.append(f"not written: {self.why}")
        return "\n".join(lines) + "\n"


def build(
    script: Path,
    out: Path,
    *,
    timeout: float = 900.0,
    do_shrink: bool = True,
    functions: Sequence[str] = FUNCTIONS,
    torch_settings: Mapping[str, str] | None = None,
    doc: str = "",
) -> Built:
    """Record `script`'s compile, verify the replay, shrink it, write `out` when verified.

    Raises RecordError when the recording fails.
    """
    from symshrink.files import atomic_write

    recording = record(script, functions=functions, torch_settings=torch_settings, timeout=timeout)
    if recording.error and not recording.calls:
        raise RecordError(f"the retrace of {script} failed: {recording.error}")
    if not recording.calls:
        return Built(recording, why=f"no call of {', '.join(functions)} in the compile")
    with tempfile.TemporaryDirectory(prefix="symshrink-sympy-") as d:
        full = Path(d) / "full.py"
        full.write_text(render_script(recording, doc=doc))
        verified, runs, error = verify(full, recording.cpu_s, timeout=timeout)
        if not verified:
            half = VERIFY_SHARE * recording.cpu_s
            why = error or (
                f"the replay took {', '.join(f'{s:.3f}' for s in runs)} s with sympy alone, "
                f"under half ({half:.3f} s) of the calls' {recording.cpu_s:.3f} s in the compile"
            )
            return Built(recording, tuple(runs), why=why)
        shrunk = _shrunk(recording, min(runs), timeout, doc, Path(d)) if do_shrink else None
        if shrunk is None:
            control = measure(recording, timeout=timeout, flags=("--control",))
            control_s = control.control_s if isinstance(control, Measured) else None
            shrunk = recording, runs, 0, control_s
        kept, kept_runs, tests, control_s = shrunk
        if len(kept.calls) < len(recording.calls):
            doc += (
                f"\nShrunk by delta debugging from the compile's {len(recording.calls)} calls "
                f"({recording.cpu_s:.3f} s there), kept while they take {KEEP:g} of the full "
                f"replay's seconds and {CONTROL_RATIO:g}x their control."
            )
        atomic_write(out, render_script(kept, doc=doc.strip()))
    return Built(recording, tuple(runs), True, kept, tuple(kept_runs), control_s, tests)


def _shrunk(
    recording: Recording, full_s: float, timeout: float, doc: str, work: Path
) -> tuple[Recording, list[float], int, float | None] | None:
    """The shrunk sequence, its verifying runs, the tests and its control's seconds; None
    when nothing could be dropped or the shrunk sequence does not verify."""
    if len(recording.calls) < 2:
        return None
    first = measure(recording, timeout=timeout, flags=("--per-call",))

    def test(kept: tuple[int, ...]) -> Measured | None:
        got = measure(recording.only(kept), timeout=timeout, flags=("--control",))
        log.info("%d calls: %s", len(kept), got)
        return got if isinstance(got, Measured) else None

    per_call = first.per_call if isinstance(first, Measured) else ()
    kept_ix, tests = shrink_calls(
        len(recording.calls), test, target_s=KEEP * full_s, per_call=per_call
    )
    if len(kept_ix) == len(recording.calls):
        return None
    kept = recording.only(kept_ix)
    path = work / "kept.py"
    path.write_text(render_script(kept, doc=doc))
    ok, runs, _ = verify(path, kept.cpu_s, timeout=timeout)
    if not ok:
        log.info("the shrunk sequence (%d calls) does not verify: %s", len(kept_ix), runs)
        return None
    control = measure(kept, timeout=timeout, flags=("--control",))
    return kept, runs, tests, control.control_s if isinstance(control, Measured) else None


# ------------------------------------------------------------------------ the child


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m symshrink.sympy_repro record SCRIPT`: the recording as JSON on stdout
    (torch's output goes to stderr); 0 ok, 1 the retrace failed."""
    parser = argparse.ArgumentParser(prog="python -m symshrink.sympy_repro")
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", help="record the sympy calls of a retrace, in order")
    rec.add_argument("script", type=Path)
    rec.add_argument("--function", action="append", default=[])
    rec.add_argument("--torch-setting", action="append", default=[])
    ns = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="symshrink.sympy_repro: %(message)s")
    from symshrink.retrace import parse_setting_items, stdout_to_stderr

    with stdout_to_stderr():
        recording = record_here(
            ns.script,
            functions=ns.function or FUNCTIONS,
            torch_settings=parse_setting_items(ns.torch_setting),
        )
    sys.stdout.write(json.dumps(recording.to_dict()) + "\n")
    sys.stdout.flush()
    return 1 if recording.error else 0


if __name__ == "__main__":
    raise SystemExit(main())

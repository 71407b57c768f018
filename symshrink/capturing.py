"""`symshrink capture`: run a program under torch's structured trace and turn its log into
one repro file per compiled graph and a table of where the compile time went.

torch 2.13 (`torch/_logging/_internal.py`) writes TORCH_TRACE's log as records: a glog
prefix and a JSON envelope on one line (`{KIND: metadata, "frame_id", "frame_compile_id",
"attempt", "has_payload": md5 of the payload}`), then the payload's lines, each indented
by a tab; the handler flushes after every record. Inductor's `fx_graph_runnable` artifact
is `save_graph_repro`'s text, logged in `codegen_and_compile` before the post-grad
passes, lowering, scheduling and codegen (on `tests/capture_prog.py floordiv`, ~30 ms
after the graph's `inductor_compile` began and 55 s before it ended): a graph's repro is on
disk while Inductor still works on it, and a program stopped then keeps it. The times are the
`chromium_event` records (`dynamo_timed` begin / end pairs, wall clock): a frame's
`dynamo` span, its `backend_compile` (AOTAutograd and Inductor) and each graph's
`inductor_compile`. `compilation_metrics` carries the same totals, but only once a frame
is done, so it is not read.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from symshrink import installed_version, runtime
from symshrink.errors import ReproError, UsageError
from symshrink.expr import free_symbol_names, op_count, torch_str
from symshrink.files import atomic_write, check_writable
from symshrink.records import CAPTURE, CaptureFrame, CaptureGraph, CaptureRecord
from symshrink.repro.parse import parse_file
from symshrink.sandbox import signal_group, start

POLL_S = 0.2

# (compiled_autograd_id, frame_id, frame_compile_id): one compile of one frame. The
# envelope's `attempt` is left out: only a frame's last attempt reaches the backend.
Key = tuple[int | None, int, int]

# The Inductor phases `symshrink run` reports, by the `dynamo_timed` event that times each
# (the runtime's own table, so both say the same thing).
_PHASE_OF = {event: phase for phase, event in runtime.TIMED_KEYS.items()}
_INDUCTOR = "inductor_compile"
_BACKWARD = "compile_fx.<locals>.bw_compiler"
_AOT_GRAPHS = {"aot_forward_graph": "forward", "aot_inference_graph": "inference"}


# ------------------------------------------------------------------------- the log


@dataclass(frozen=True)
class Record:
    """One structured-trace record: its kind (the envelope's first key), the envelope, the
    payload text (None without one)."""

    kind: str
    meta: dict[str, Any]
    payload: str | None

    @property
    def key(self) -> Key | None:
        if self.meta.get("frame_id") is None:
            return None
        return (
            self.meta.get("compiled_autograd_id"),
            self.meta["frame_id"],
            self.meta.get("frame_compile_id", 0),
        )


class LogReader:
    """The complete records of one growing trace log, as torch flushes them.

    A record is complete once its payload's md5 is the envelope's `has_payload`, so one
    cut short by a kill (or still being written) never counts.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._offset = 0
        self._rest = b""
        self._pending: tuple[dict[str, Any], list[str]] | None = None

    def read(self) -> list[Record]:
        try:
            with open(self.path, "rb") as f:
                f.seek(self._offset)
                data = f.read()
        except OSError:
            return []
        self._offset += len(data)
        *lines, self._rest = (self._rest + data).split(b"\n")
        out: list[Record] = []
        for raw in lines:
            line = raw.decode("utf-8", "replace")
            if line.startswith("\t"):
                if self._pending is not None:
                    self._pending[1].append(line[1:])
                continue
            self._emit_pending(out)
            self._pending = None  # an unfinished one before a new header was cut short
            meta = _envelope(line)
            if meta is not None:
                self._pending = (meta, [])
                self._emit_pending(out)
        self._emit_pending(out)
        return out

    def _emit_pending(self, out: list[Record]) -> None:
        if self._pending is None:
            return
        meta, lines = self._pending
        digest = meta.get("has_payload")
        payload = "\n".join(lines) if digest is not None else None
        if payload is not None and hashlib.md5(payload.encode()).hexdigest() != digest:
            return  # not all of it yet
        out.append(Record(next(iter(meta)), meta, payload))
        self._pending = None


def _envelope(line: str) -> dict[str, Any] | None:
    """The JSON after the glog prefix (`V1201 11:00:31.381000 PID path:LINE] {...}`)."""
    at = line.find("] {")
    if at < 0:
        return None
    try:
        meta = json.loads(line[at + 2 :])
    except ValueError:
        return None
    return meta if isinstance(meta, dict) and meta else None


# ------------------------------------------------------------------ frames and graphs


@dataclass
class Span:
    """Wall-clock seconds (the epoch's, as torch's events): open while `end` is None."""

    start: float
    end: float | None = None

    def seconds(self, now: float) -> float:
        return (self.end if self.end is not None else now) - self.start


@dataclass
class Graph:
    """A graph that reached Inductor: its after-aot repro and its compile."""

    key: Key
    kind: str  # forward / backward / inference
    source: str  # the fx_graph_runnable text
    span: Span | None  # its inductor_compile; None if torch logged the graph outside one
    name: str = ""
    cache_hit: bool = False
    phase_s: dict[str, float] = field(default_factory=dict)
    open_phases: list[str] = field(default_factory=list)
    path: Path | None = None  # where it was written
    check: str | None = None

    @property
    def done(self) -> bool:
        return self.span is None or self.span.end is not None

    def seconds(self, now: float) -> float:
        return self.span.seconds(now) if self.span is not None else 0.0

    def phases(self, now: float) -> dict[str, float]:
        """Its seconds per `symshrink run` phase (codegen without the scheduling inside it)."""
        phases = dict(self.phase_s)
        if "codegen" in phases:
            phases["codegen"] -= phases.get("scheduling", 0.0)
        phases["other"] = max(0.0, self.seconds(now) - sum(phases.values()))
        return phases

    def phase(self, now: float) -> str:
        if not self.done:
            return f"still compiling: {self.open_phases[-1] if self.open_phases else 'Inductor'}"
        if self.cache_hit or self.span is None:
            return "cache hit"
        phases = self.phases(now)
        top = max(phases, key=lambda p: phases[p])
        total = sum(phases.values())
        return f"{top} {phases[top] / total:.0%}" if total > 0 else top


@dataclass
class Frame:
    """One compile of one frame: Dynamo, then the backend (AOTAutograd, Inductor)."""

    key: Key
    span: Span
    where: str = ""
    backend: Span | None = None
    graphs: list[Graph] = field(default_factory=list)

    def split(self, now: float) -> dict[str, float]:
        """Seconds in Dynamo (tracing, guards), AOTAutograd and Inductor (its graphs)."""
        total = self.span.seconds(now)
        backend = self.backend.seconds(now) if self.backend is not None else 0.0
        inductor = sum(g.seconds(now) for g in self.graphs if self._in_backend(g))
        return {
            "dynamo": total - backend,
            "aot": max(0.0, backend - inductor),
            "inductor": inductor,
        }

    def _in_backend(self, g: Graph) -> bool:
        """Compiled inside this frame's backend call (a lazy backward compiles later)."""
        b = self.backend
        return (
            b is not None
            and g.span is not None
            and g.span.start >= b.start
            and (b.end is None or g.span.start <= b.end)
        )

    def state(self) -> str:
        """Where an unfinished compile is."""
        if any(not g.done for g in self.graphs):
            return "Inductor"
        return "AOTAutograd" if self.backend is not None and self.backend.end is None else "Dynamo"


class Trace:
    """What one process's trace log says so far: its frames and the graphs that reached
    Inductor, fed one record at a time."""

    def __init__(self) -> None:
        self.frames: dict[Key, Frame] = {}
        self.graphs: list[Graph] = []
        self._strings: dict[int, str] = {}
        self._open: dict[tuple[Key, str], list[float]] = {}
        self._aot_kind: dict[Key, str] = {}
        self._compiling: dict[Key, Graph] = {}

    def feed(self, rec: Record) -> None:
        if rec.kind == "str":  # interned file names of stack frames: [text, id]
            text, index = rec.meta["str"]
            self._strings[index] = text
            return
        key = rec.key
        if key is None:
            return
        if rec.kind == "chromium_event" and rec.payload:
            self._event(key, json.loads(rec.payload))
        elif rec.kind == "dynamo_start" and key in self.frames:
            stack = rec.meta["dynamo_start"].get("stack") or [{}]
            top = stack[-1]
            file = Path(self._strings.get(top.get("filename", -1), "?")).name
            self.frames[key].where = f"{top.get('name', '?')} ({file}:{top.get('line', '?')})"
        elif rec.kind in _AOT_GRAPHS:
            self._aot_kind[key] = _AOT_GRAPHS[rec.kind]
        elif (
            rec.kind == "artifact"
            and rec.meta["artifact"].get("name") == "fx_graph_runnable"
            and rec.payload is not None
        ):
            self._graph(key, rec.payload)

    def _event(self, key: Key, event: dict[str, Any]) -> None:
        name, ts = event.get("name", ""), event.get("ts", 0.0) / 1e6
        opened = self._open.setdefault((key, name), [])
        graph = self._compiling.get(key)
        if event.get("ph") == "B":
            opened.append(ts)
            if name == "dynamo":
                self.frames.setdefault(key, Frame(key, Span(ts)))
            elif name == "backend_compile" and key in self.frames:
                self.frames[key].backend = Span(ts)
            elif name in _PHASE_OF and graph is not None:
                graph.open_phases.append(_PHASE_OF[name])
        elif event.get("ph") == "E" and opened:
            start = opened.pop()
            args = event.get("args") or {}
            frame = self.frames.get(key)
            if name == "dynamo" and frame is not None:
                frame.span.end = ts
            elif name == "backend_compile" and frame is not None and frame.backend is not None:
                frame.backend.end = ts
            elif name == _INDUCTOR and graph is not None and graph.span is not None:
                graph.span.end = ts
                graph.cache_hit = args.get("cache_state") == "hit"
                del self._compiling[key]
            elif name in _PHASE_OF and graph is not None:
                phase = _PHASE_OF[name]
                if phase in graph.open_phases:
                    graph.open_phases.remove(phase)
                graph.phase_s[phase] = graph.phase_s.get(phase, 0.0) + ts - start

    def _graph(self, key: Key, source: str) -> None:
        inductor = self._open.get((key, _INDUCTOR))
        backward = bool(self._open.get((key, _BACKWARD)))
        kind = "backward" if backward else self._aot_kind.get(key, "forward")
        graph = Graph(key, kind, source, Span(inductor[-1]) if inductor else None)
        self.graphs.append(graph)
        if graph.span is not None:
            self._compiling[key] = graph
        if key in self.frames:
            self.frames[key].graphs.append(graph)

    def compiling_since(self) -> float | None:
        """When the oldest compile still under way began: a frame's, or a graph's that
        Inductor compiles outside its frame's compile (a lazy backward)."""
        starts = [f.span.start for f in self.frames.values() if f.span.end is None]
        for (key, name), opened in self._open.items():
            frame = self.frames.get(key)
            if name == _INDUCTOR and opened and (frame is None or frame.span.end is not None):
                starts.append(opened[0])
        return min(starts, default=None)


def frame_name(key: Key) -> str:
    autograd, frame, compile_ = key
    return f"{'' if autograd is None else f'ca{autograd}_'}{frame}_{compile_}"


# ------------------------------------------------------------------------- the run


@dataclass(frozen=True)
class Options:
    """`timeout`: stop the program once one compile has run this long; `deadline`: once
    the whole run has (a caller's budget; seconds of wall time)."""

    program: tuple[str, ...]
    out: Path
    timeout: float | None = None
    min_seconds: float = 0.0
    check: bool = False
    deadline: float | None = None


@dataclass(frozen=True)
class Outcome:
    """What the CLI shows: the report (stdout), one line for stderr, the exit code; and
    the same as data (capture.json's record)."""

    text: str
    message: str | None
    exit_code: int
    record: CaptureRecord


def capture(options: Options, notify: Callable[[str], None] = lambda _: None) -> Outcome:
    """Run the program with a private TORCH_TRACE, write each graph's repro as it appears,
    and report. `notify` gets one line per event worth knowing while the program runs.

    Inductor's FX graph and AOTAutograd caches are off for the run: a graph compiled by an
    earlier run would come back from the cache in a blink (its repro logged, its compile
    not timed). The C++ kernels' own cache stays: its warm-up is no graph's cost.
    """
    argv = _resolve(options.program)
    if options.out.exists() and not options.out.is_dir():
        raise UsageError("not a folder; choose another -o", options.out)
    check_writable(options.out / CAPTURE)
    with tempfile.TemporaryDirectory(prefix="symshrink-capture-") as tmp:
        env = {
            "TORCH_TRACE": str(Path(tmp) / "trace"),
            "TORCHINDUCTOR_FX_GRAPH_CACHE": "0",
            "TORCHINDUCTOR_AUTOGRAD_CACHE": "0",
        }
        run = _Run(options, env, notify)
        returncode = run.run(argv)
        if options.check and not run.signalled:  # a SIGINT / SIGTERM ends the command
            run.check(Path(tmp))
        return run.outcome(returncode)


def _resolve(program: tuple[str, ...]) -> list[str]:
    """The program's argv, its command found as the shell would; a bad one is exit 2."""
    if not program:
        raise UsageError("no program to run: symshrink capture [OPTIONS] -- python prog.py ...")
    command = program[0]
    found = shutil.which(command) if os.sep not in command else command
    if found is None or not os.access(found, os.X_OK) or os.path.isdir(found):
        script = command.endswith(".py") and os.path.isfile(command)
        hint = f" (a Python script runs as: -- python {command})" if script else ""
        raise UsageError("not a command that can be run" + hint, command)
    return list(program)


class _Run:
    """One program run: its trace logs read as they grow, its graphs written as they
    appear (once they have compiled for --min-seconds), the program stopped at --timeout."""

    def __init__(self, options: Options, env: dict[str, str], notify: Callable[[str], None]):
        self.options = options
        self.env = env
        self.notify = notify
        self.trace_dir = Path(env["TORCH_TRACE"])
        self.logs: dict[Path, tuple[LogReader, Trace]] = {}
        self.names: set[str] = set()
        self.now = time.time()
        self.started = self.now
        self.stopped: str | None = None  # why capture stopped the program
        self.signalled: list[int] = []  # SIGINT / SIGTERM capture passed on to the program

    @property
    def traces(self) -> list[Trace]:
        return [trace for _, trace in self.logs.values()]

    @property
    def graphs(self) -> list[Graph]:
        return [g for t in self.traces for g in t.graphs]

    def run(self, argv: list[str]) -> int:
        """Run the program to its end or to --timeout; its exit code (0 when stopped)."""
        interactive = sys.stdin is not None and sys.stdin.isatty()
        try:
            child = start(
                argv,
                env={**os.environ, **self.env},
                # its own process group: a background group reading the terminal would
                # stop (SIGTTIN) instead of reading
                stdin=subprocess.DEVNULL if interactive else None,
            )
        except OSError as e:  # a script without a #! line, say
            raise UsageError(f"cannot run it: {e.strerror}", argv[0]) from None
        proc = child.proc
        # closing the child kills its whole group: compile workers outlive a finished leader
        with child, _forwarding_signals(child.pid, self.signalled):
            while proc.poll() is None:
                self.poll(time.time())
                self.stopped = self._overdue()
                if self.stopped is not None:
                    break
                time.sleep(POLL_S)
        # what was flushed before the end; a stopped compile is timed to the stop
        self.poll(self.now if self.stopped else time.time())
        return 0 if self.stopped else proc.returncode

    def _overdue(self) -> str | None:
        """Why the program must stop now (None: it need not)."""
        deadline = self.options.deadline
        if deadline is not None and self.now - self.started >= deadline:
            self.notify(f"the run has taken {deadline:g} s, its budget: stopping the program")
            return f"its budget of {deadline:g} s"
        timeout = self.options.timeout
        since = min(
            (s for t in self.traces if (s := t.compiling_since()) is not None), default=None
        )
        if timeout is None or since is None or self.now - since < timeout:
            return None
        self.notify(
            f"a compile has run for {self.now - since:.1f} s (--timeout {timeout:g}): "
            "stopping the program"
        )
        return f"--timeout {timeout:g} s"

    def poll(self, now: float) -> None:
        """Read what the logs say by `now` and write the graphs that are due."""
        self.now = now
        for path in sorted(self.trace_dir.glob("*.log")):
            if path not in self.logs:
                self.logs[path] = (LogReader(path), Trace())
            reader, trace = self.logs[path]
            for rec in reader.read():
                trace.feed(rec)
        self._write_due()

    def _write_due(self) -> None:
        """Name every new graph; write each that has compiled for --min-seconds by now (one
        still compiling will not take less)."""
        for g in self.graphs:
            if not g.name:
                g.name = self._name(g)
            if g.path is None and g.seconds(self.now) >= self.options.min_seconds:
                self._write(g)

    def _name(self, g: Graph) -> str:
        base = f"{frame_name(g.key)}_{g.kind}"
        name, n = base, 1
        while name in self.names:
            n += 1
            name = f"{base}_{n}"
        self.names.add(name)
        return name

    def _write(self, g: Graph) -> None:
        path = self.options.out / f"{g.name}.py"
        private = {f"os.environ['{k}'] = '{v}'" for k, v in self.env.items()}
        text = "\n".join(line for line in g.source.split("\n") if line not in private)
        atomic_write(path, text if text.endswith("\n") else text + "\n")
        g.path = path
        self.notify(f"wrote {path}" + ("" if g.done else " (Inductor is still compiling it)"))

    def check(self, tmp: Path) -> None:
        """Retrace every written repro as `symshrink run --no-native-compile` does, each in
        a fresh child (stopped at --timeout, if given)."""
        from symshrink.compare import retrace_in_child

        cwd = tmp / "check"
        cwd.mkdir()
        for g in self.graphs:
            if g.path is None:
                continue
            result, _ = retrace_in_child(
                g.path.resolve(),
                extra=["--no-native-compile"],
                cwd=cwd,
                timeout_s=self.options.timeout,
            )
            if result.error:
                g.check = f"failed: {result.error}"
            elif not result.derived_ok:
                g.check = "failed: the traced expressions differ from the repro's"
            else:
                g.check = "ok"

    # ------------------------------------------------------------------ the report

    def outcome(self, returncode: int) -> Outcome:
        frames = [f for t in self.traces for f in t.frames.values()]
        rows = sorted(
            (g for g in self.graphs if g.path is not None),
            key=lambda g: g.seconds(self.now),
            reverse=True,
        )
        skipped = sum(1 for g in self.graphs if g.path is None)
        failed = [g for g in rows if g.check and g.check != "ok"]
        code, message = 0, None
        if returncode != 0:
            code = returncode if returncode > 0 else 128 - returncode
            message = (
                f"the program exited with code {returncode}"
                if returncode > 0
                else f"the program was killed by {signal.Signals(-returncode).name}"
            )
        elif not frames:
            code, message = 1, "the program compiled nothing: no torch.compile frame in its trace"
        elif not rows:
            code = 1
            message = (
                f"no graph reached Inductor: Dynamo compiled {len(frames)} frame(s) "
                "(another backend, or stopped before Inductor)"
                if not self.graphs
                else f"no graph compiled for {self.options.min_seconds:g} s or more"
            )
        elif failed:
            code, message = 1, f"{len(failed)} of {len(rows)} repros failed --check"
        record = self._record(frames, rows, skipped, returncode, message if not rows else None)
        record.save(self.options.out / CAPTURE)
        lines = _table(record.graphs, self.options.check) if rows else []
        lines += self._frame_lines(frames)
        if skipped:
            lines.append(
                f"{skipped} graph{'s' if skipped > 1 else ''} compiled in under "
                f"{self.options.min_seconds:g} s (--min-seconds): not written"
            )
        if rows:
            lines.append(f"next: symshrink minimize {shlex.quote(str(rows[0].path))}")
        text = "\n".join(lines) + "\n" if lines else ""
        return Outcome(text, message, code, record)

    def _frame_lines(self, frames: list[Frame]) -> list[str]:
        """Each frame's split, largest first, and plainly what its repros cannot show."""
        lines = []
        for f in sorted(frames, key=lambda f: f.span.seconds(self.now), reverse=True):
            total = f.span.seconds(self.now)
            if total < self.options.min_seconds:
                continue
            split = f.split(self.now)
            done = f.span.end is not None
            at_least = "" if done else "≥ "
            head = f"frame {frame_name(f.key)} {f.where}".rstrip()
            state = "" if done else f", still compiling when stopped (in {f.state()})"
            lines.append(
                f"{head}: {at_least}{total:.1f} s{state}: Dynamo {split['dynamo']:.1f} s, "
                f"AOTAutograd {split['aot']:.1f} s, Inductor {split['inductor']:.1f} s"
            )
            before = split["dynamo"] + split["aot"]
            if not f.graphs:
                lines.append(
                    "  no graph of it reached Inductor: no after-aot repro can reproduce "
                    "this compile's time"
                )
            elif before > split["inductor"] and (done or f.state() != "Inductor"):
                lines.append(
                    f"  {before:.1f} s of it ({before / total:.0%}) went to Dynamo and "
                    "AOTAutograd, before the graph existed: its repros cannot reproduce "
                    "that part, only Inductor's"
                )
        if self.stopped:
            lines.append(
                f"stopped the program at {self.stopped}; what it compiled until then is above"
            )
        return lines

    def _record(
        self,
        frames: list[Frame],
        rows: list[Graph],
        skipped: int,
        returncode: int,
        problem: str | None,
    ) -> CaptureRecord:
        """capture.json: what the table says, as data."""
        graphs = []
        for g in rows:
            assert g.path is not None
            symbols, widest = _read(g.path)
            graphs.append(
                CaptureGraph(
                    graph=g.name,
                    file=g.path.name,
                    frame=frame_name(g.key),
                    kind=g.kind,
                    seconds=round(g.seconds(self.now), 3),
                    done=g.done,
                    phase=g.phase(self.now),
                    phases={k: round(v, 3) for k, v in g.phases(self.now).items()},
                    check=g.check,
                    free_symbols=symbols,
                    widest=widest,
                )
            )
        return CaptureRecord(
            program=self.options.program,
            torch=installed_version("torch"),
            exit_code=returncode,
            stopped_at_timeout=self.stopped is not None,
            timeout=self.options.timeout,
            min_seconds=self.options.min_seconds,
            skipped=skipped,
            frames=tuple(
                CaptureFrame(
                    frame=frame_name(f.key),
                    where=f.where,
                    seconds=round(f.span.seconds(self.now), 3),
                    done=f.span.end is not None,
                    **{f"{k}_s": round(v, 3) for k, v in f.split(self.now).items()},
                    graphs=tuple(g.name for g in f.graphs),
                )
                for f in frames
            ),
            graphs=tuple(graphs),
            problem=problem,
            seconds=round(self.now - self.started, 3),
            signal=self.signalled[0] if self.signalled else None,
        )


def _table(graphs: Sequence[CaptureGraph], check: bool) -> list[str]:
    """graph, free symbols, widest expression, seconds, phase (and --check), as read back
    from the written files."""
    header = ["graph", "free symbols", "widest expression", "seconds", "phase"]
    header += ["check"] if check else []
    cells = []
    for g in graphs:
        symbols = "?" if g.free_symbols is None else str(g.free_symbols)
        seconds = f"{'' if g.done else '≥ '}{g.seconds:.1f}"
        row = [g.graph, symbols, g.widest or "", seconds, g.phase]
        cells.append([*row, g.check or ""] if check else row)
    widths = [max(len(r[i]) for r in [header, *cells]) for i in range(len(header))]
    right = {1, 3}
    return [
        "  ".join(
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(r, widths, strict=True))
        ).rstrip()
        for r in [header, *cells]
    ]


def _read(path: Path) -> tuple[int | None, str]:
    """(free symbols, widest expression) of a written repro (None: it does not parse);
    never executed."""
    try:
        model = parse_file(path)
    except ReproError as e:
        return None, f"unreadable: {e.message}"
    exprs = list(model.input_exprs())
    widest = max(exprs, key=lambda e: (len(free_symbol_names(e)), op_count(e)), default=None)
    if widest is None or len(free_symbol_names(widest)) < 2:
        return len(model.hints), "bare symbols only"
    return len(model.hints), _middle(torch_str(widest))


def _middle(text: str, limit: int = 44) -> str:
    """Its start and its end, cut between terms: a wide sum's tail (`//160) + 866`) says
    what it is."""
    if len(text) <= limit:
        return text
    half = (limit - 3) // 2
    head, tail = text[:half], text[-half:]
    head = head[: head.rfind(" ")] if " " in head else head
    tail = tail[tail.find(" ") + 1 :] if " " in tail else tail
    return f"{head} … {tail}"


@contextlib.contextmanager
def _forwarding_signals(pgid: int, received: list[int]) -> Iterator[None]:
    """SIGINT / SIGTERM go to the program's group (it has no terminal of its own); a second
    SIGINT kills it. The program's exit code then says what happened; `received` gets
    each signal's number (a caller that goes on after the program must not)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    interrupted = False

    def forward(signum: int, _frame: object) -> None:
        nonlocal interrupted
        received.append(signum)
        signal_group(pgid, signal.SIGKILL if interrupted and signum == signal.SIGINT else signum)
        interrupted = interrupted or signum == signal.SIGINT

    saved = {s: signal.signal(s, forward) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, handler in saved.items():
            signal.signal(s, handler)

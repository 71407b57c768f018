"""`symshrink triage`: from a slow program (or a repro) to a paste-ready issue, unattended,
within one time budget.

The stages, in order, each given what is left of the budget:

1. capture (a program only): `capturing.capture` with a deadline of CAPTURE_SHARE of the
   budget. Each graph's repro is written before Inductor starts on it, so a compile that
   never ends still leaves the repro it was stuck on; only which graph is slowest has to
   be known by then.
2. the graph: the slowest written graph with free symbols; when none qualifies, one line
   says why (nothing compiled, no graph with a symbol, the time went to Dynamo and
   AOTAutograd before any graph existed) and triage ends with exit 1.
3. minimize (`minimizing.minimize`, its one entry point) with `max_time` what is left
   less a reserve for what follows it (its own re-verification, the report): a run the
   budget cuts short keeps its best result so far, "not minimal yet". An original that is
   not slow against its static twin ends triage there (exit 1).
4. match: the result against the corpus (`match.rank`): `known` from `match.KNOWN_AT`,
   else `new`; `--add-to-corpus NAME` adds a new one (`corpus.add`).
5. report: `issue.md` (the bug report, with what triage found first) and `triage.json`
   (`records.Triage`).

It prints nothing: what happens is told to `notify` (the CLI's stderr) and the log.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shlex
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from symshrink import installed_version
from symshrink.errors import ReproError, UsageError
from symshrink.files import atomic_write
from symshrink.records import (
    CALIBRATION,
    CAPTURE,
    CaptureFrame,
    CaptureGraph,
    CaptureRecord,
    Replayed,
    RunRecord,
    Triage,
    TriageMatch,
    TriageVerdict,
)

log = logging.getLogger(__name__)

__all__ = [
    "EXIT_CODES",
    "Budget",
    "Options",
    "parse_duration",
    "split_target",
    "triage",
]

ISSUE = "issue.md"
CAPTURE_DIR = "capture"

CAPTURE_SHARE = 0.25
"""The capture stage's part of the budget, at most: the program runs until then, and one
compile that has run half of it is stopped there (that graph is the one to reduce), its
repro kept."""
PROGRAM_CHECK_S = 240.0
AFTER_SHARE = 0.15
AFTER_MAX_SHARE = 0.6
"""What the reduction leaves for what follows it, at most AFTER_MAX_SHARE of the budget:
PROGRAM_CHECK_S for the result's program.py, run by minimize in 3 + 3 fresh processes
(each imports torch and compiles a warm-up first: 262 s for a 1-second compile at load 6
on 2 cores, the same when the graph is tiny), and AFTER_SHARE of the budget for the
re-verification and the widening to the program's width (3 fresh runs of the result
and of each wider member tried, more when it walks back: they cost what the graph's
compile costs), the match and the report."""
CALL_SHARE = 0.2
"""The longest one oracle call may run, as a share of the reduction's time (and at most
minimize's own default, 600 s): calibration's longer reference run is capped by it."""
MAX_GRAPHS = 3
NEXT_GRAPH_SHARE = 0.25
"""A graph that is not slow against its static twin gives way to the next slowest with
free symbols, up to MAX_GRAPHS, while this share of the budget is left to reduce it."""
SLOW_FRAME_S = 5.0  # a frame that took this long with no graph to show for it: Dynamo-time

EXIT_CODES = {
    "new": 0,
    "known": 0,
    "not slow": 1,
    "no symbols": 1,
    "outside any graph": 1,
    "no graph": 1,
    "program failed": 3,
    "interrupted": 130,
}


# ------------------------------------------------------------------------------ budget

_DURATION = re.compile(r"^(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m)?(?:(\d+(?:\.\d+)?)s?)?$")


def parse_duration(text: str) -> float:
    """`20m`, `1h30m`, `90s`, `90` (seconds), `1.5h` as seconds; UsageError otherwise."""
    match = _DURATION.match(text.strip())
    if not text.strip() or match is None or not any(match.groups()):
        raise UsageError(f"not a duration: {text!r} (say 20m, 1h30m, 90s)")
    hours, minutes, seconds = (float(g) if g else 0.0 for g in match.groups())
    total = 3600 * hours + 60 * minutes + seconds
    if total <= 0:
        raise UsageError(f"a budget must be more than 0: {text!r}")
    return total


@dataclass
class Budget:
    """The whole run's wall time, `total_s`, counted from `started` (monotonic)."""

    total_s: float
    started: float = field(default_factory=time.monotonic)

    def elapsed(self, now: float | None = None) -> float:
        """Wall seconds since the start, past the budget too (a stage it cannot stop)."""
        return (time.monotonic() if now is None else now) - self.started

    def left(self, now: float | None = None) -> float:
        return max(0.0, self.total_s - self.elapsed(now))

    @property
    def capture_s(self) -> float:
        return CAPTURE_SHARE * self.total_s

    @property
    def after_s(self) -> float:
        """Kept for what follows the reduction."""
        return min(AFTER_MAX_SHARE, AFTER_SHARE + PROGRAM_CHECK_S / self.total_s) * self.total_s

    def reduction_s(self, now: float | None = None) -> float:
        """What minimize may spend, calibration included (its `max_time`)."""
        return max(0.0, self.left(now) - self.after_s)

    @staticmethod
    def call_s(reduction_s: float) -> float:
        """One oracle call's cap (minimize's `timeout`)."""
        return min(600.0, max(30.0, CALL_SHARE * reduction_s))


# ----------------------------------------------------------------------------- options


@dataclass(frozen=True)
class Options:
    """A program to run (`program`: its argv) or a repro script (`repro`), exactly one."""

    out: Path
    program: tuple[str, ...] = ()
    repro: Path | None = None
    budget_s: float = 1800.0
    corpus: Path | None = None  # None: ./corpora, else the checkout's
    add_to_corpus: str | None = None
    progress: bool = False  # minimize's progress lines on stderr


def _check(options: Options) -> None:
    """Bad input or a bad option, before anything runs (one line, exit 2)."""
    if options.program and options.repro is not None:
        raise UsageError("a program or a repro script, not both")
    if not options.program and options.repro is None:
        raise UsageError("nothing to triage: give a program (-- python prog.py ARGS) or a repro")
    if options.budget_s <= 0:
        raise UsageError("the budget must be more than 0")
    if options.out.exists() and not options.out.is_dir():
        raise UsageError("not a folder; choose another -o", options.out)
    if options.repro is not None:
        from symshrink.repro.parse import NOT_A_REPRO, parse_file

        try:
            parse_file(options.repro)  # one line naming the file when it is not a repro
        except ReproError as e:
            if e.message != NOT_A_REPRO:
                raise
            # Most likely the program itself, given where its repro goes.
            hint = f"; a program goes after --: symshrink triage -- python {options.repro}"
            raise ReproError(e.message + hint, options.repro) from None
    if options.add_to_corpus is not None:
        from symshrink import corpus

        corpus.check_new_name(corpus.find_dir(options.corpus), options.add_to_corpus)


def split_target(target: Sequence[str]) -> tuple[tuple[str, ...], Path | None]:
    """The command line's target: one `.py` argument is a repro script, anything else a
    program to run (`python prog.py` runs a program; `prog.py` alone is a repro).

    Everything after the target is the program's, so an option typed after a script that
    cannot run itself was meant for triage: that is one line saying where options go."""
    first = target[0] if target else ""
    if len(target) == 1 and first.endswith(".py"):
        return (), Path(first)
    cannot_run = len(target) > 1 and first.endswith(".py") and not os.access(first, os.X_OK)
    if cannot_run and target[1].startswith("-"):
        raise UsageError(
            f"options go before it: symshrink triage [OPTIONS] {first} "
            f"(a program: symshrink triage [OPTIONS] -- python {first} ARGS)",
            first,
        )
    return tuple(target), None


# ------------------------------------------------------------------------------ triage


@dataclass
class _Run:
    """What the stages found so far; becomes the Triage record."""

    options: Options
    budget: Budget
    notify: Callable[[str], None]
    seconds: dict[str, float] = field(default_factory=dict)
    capture: CaptureRecord | None = None
    graph: CaptureGraph | None = None
    repro: Path | None = None
    record: RunRecord | None = None
    files: dict[str, str] = field(default_factory=dict)
    interrupted: int | None = None  # the exit code of a reduction SIGINT / SIGTERM stopped
    symbols: int | None = None  # the chosen graph's free symbols
    not_slow: list[str] = field(default_factory=list)  # the graphs tried before it, and why
    current: tuple[str, float] | None = None  # the stage under way and its start

    @contextlib.contextmanager
    def stage(self, name: str) -> Iterator[None]:
        """Time one stage into `seconds` (a record made during it counts it so far)."""
        left = self.budget.left()
        self.notify(f"[{self.budget.elapsed():5.0f}s] {name} ({left / 60:.1f} min left)")
        self.current = (name, time.monotonic())
        try:
            yield
        finally:
            self.seconds[name] = time.monotonic() - self.current[1]
            self.current = None

    def _seconds(self) -> dict[str, float]:
        seconds = dict(self.seconds)
        if self.current is not None:
            name, started = self.current
            seconds[name] = time.monotonic() - started
        return {k: round(v, 3) for k, v in seconds.items()}

    def done(
        self,
        verdict: TriageVerdict,
        why: str,
        *,
        match: TriageMatch | None = None,
        candidates: Sequence[TriageMatch] = (),
        shape: str | None = None,
    ) -> Triage:
        r = self.record
        return Triage(
            verdict=verdict,
            why=why,
            exit_code=self.interrupted or EXIT_CODES[verdict],
            program=self.options.program or None,
            repro=str(self.repro) if self.repro is not None else None,
            graph=self.graph.graph if self.graph is not None else None,
            budget_s=self.budget.total_s,
            seconds=self._seconds(),
            total_s=round(self.budget.elapsed(), 3),
            free_symbols_before=r.initial.free_symbols if r else self.symbols,
            free_symbols_after=r.final.free_symbols if r else None,
            ratio_before=r.initial.ratio if r else None,
            ratio_after=r.final.ratio if r else None,
            program_ratio=r.program_check.ratio if r and r.program_check else None,
            minimal=r.fixpoint if r else None,
            stopped_by=r.stopped_by if r else None,
            match=match,
            candidates=tuple(candidates),
            shape=shape,
            files=dict(self.files),
            torch_version=installed_version("torch"),
            sympy_version=installed_version("sympy"),
            symshrink_version=installed_version("symshrink"),
        )

    def rel(self, path: Path) -> str:
        """A file's name relative to the triage directory."""
        try:
            return str(path.resolve().relative_to(self.options.out.resolve()))
        except ValueError:
            return str(path)


def triage(options: Options, notify: Callable[[str], None] = lambda _: None) -> Triage:
    """Capture (or take the repro), pick the graph, minimize, match, report: the record,
    also written as `OUT/triage.json`. SymshrinkError for bad input or
    options, before anything runs."""
    _check(options)
    run = _Run(options, Budget(options.budget_s), notify)
    options.out.mkdir(parents=True, exist_ok=True)
    result = _stages(run)
    result.save(options.out / Triage.FILE)
    return result


def _stages(run: _Run) -> Triage:
    options = run.options
    if options.program:
        with run.stage("capture"):
            picked = _capture(run)
        if isinstance(picked, Triage):
            return picked
    else:
        from symshrink.repro.parse import parse_file

        assert options.repro is not None
        run.repro = options.repro.resolve()
        run.symbols = len(parse_file(run.repro).hints)
        if not run.symbols:
            return run.done("no symbols", "the repro has no free symbol to reduce")
    with run.stage("minimize"):
        minimized = _minimize(run)
        while isinstance(minimized, Triage) and _next_graph(run, minimized):
            minimized = _minimize(run)
    if isinstance(minimized, Triage):
        if len(run.not_slow) > 1:  # each graph judged, and why it is not slow
            return replace(minimized, why="; ".join(run.not_slow))
        return minimized
    with run.stage("match"):
        verdict, why, match, candidates, shape = _match(run)
    if options.add_to_corpus is not None:
        if verdict == "new":
            with run.stage("add to corpus"):
                why += f"; added to the corpus as {_add(run)}"
        else:
            why += f"; not added to the corpus as {options.add_to_corpus}: it is not new"
    with run.stage("report"):
        found = run.done(verdict, why, match=match, candidates=candidates, shape=shape)
        found.save(options.out / Triage.FILE)  # kept should the report fail
        atomic_write(options.out / ISSUE, _issue(run, found))
        run.files["issue"] = ISSUE
    return run.done(verdict, why, match=match, candidates=candidates, shape=shape)


# ----------------------------------------------------------------------------- capture


def _capture(run: _Run) -> Triage | None:
    """Run the program; pick the graph (`run.graph`, `run.repro`), or say why none."""
    from symshrink import capturing

    out = run.options.out / CAPTURE_DIR
    outcome = capturing.capture(
        capturing.Options(
            program=run.options.program,
            out=out,
            timeout=run.budget.capture_s / 2,
            deadline=run.budget.capture_s,
        ),
        notify=run.notify,
    )
    run.capture = outcome.record
    run.files["capture"] = f"{CAPTURE_DIR}/{CAPTURE}"
    if outcome.record.signal is not None:
        run.interrupted = 128 + outcome.record.signal
        name = signal.Signals(outcome.record.signal).name
        return run.done("interrupted", f"interrupted by {name} during the capture")
    why = _why_none(outcome.record)
    if why is not None:
        return run.done(*why)
    _take(run, next(g for g in outcome.record.graphs if g.free_symbols))
    return None


def _take(run: _Run, graph: CaptureGraph) -> None:
    """Reduce `graph` next."""
    assert graph.file is not None
    run.graph, run.symbols = graph, graph.free_symbols
    run.repro = (run.options.out / CAPTURE_DIR / graph.file).resolve()
    run.notify(
        f"the graph: {graph.graph} ({graph.free_symbols} free symbols, "
        f"{'≥ ' if not graph.done else ''}{graph.seconds:.1f} s in Inductor, {graph.phase})"
    )


def _next_graph(run: _Run, found: Triage) -> bool:
    """After a graph that is not slow against its twin, the next slowest with free
    symbols, while MAX_GRAPHS allows and NEXT_GRAPH_SHARE of the budget is left to reduce
    it (the slowest graph need not be the one slow through its symbols)."""
    if found.verdict != "not slow" or run.capture is None or run.graph is None:
        return False
    run.not_slow.append(f"{run.graph.graph}: {found.why}")
    graphs = [g for g in run.capture.graphs if g.free_symbols]
    tried = len(run.not_slow)
    if tried >= min(MAX_GRAPHS, len(graphs)):
        return False
    if run.budget.reduction_s() < NEXT_GRAPH_SHARE * run.budget.total_s:
        return False
    _take(run, graphs[tried])
    return True


def _before_graphs(frame: CaptureFrame) -> bool:
    """Whether a frame was slow (SLOW_FRAME_S) and most of its time went to Dynamo and
    AOTAutograd, not to Inductor: a frame of 2.4 s split 1.3 / 1.1 on a slow machine is
    neither, only not slow."""
    return frame.seconds >= SLOW_FRAME_S and frame.before_graph_s > frame.inductor_s


def _where_it_went(frame: CaptureFrame) -> str:
    """The line that says a frame's time went to Dynamo and AOTAutograd, with where the
    frame is in the program: what a maintainer reads to look there, not at a graph."""
    head = f"frame {frame.frame} {frame.where}".rstrip()
    return (
        f"{head} took {frame.seconds:.1f} s, {frame.before_graph_s:.1f} s of it in Dynamo "
        "and AOTAutograd before any graph existed"
    )


def _why_none(record: CaptureRecord) -> tuple[TriageVerdict, str] | None:
    """Why no graph of the capture can be reduced (None: one can)."""
    frames = sorted(record.frames, key=lambda f: f.seconds, reverse=True)
    if not record.graphs and record.exit_code != 0:
        return "program failed", (
            f"the program exited with code {record.exit_code} before a graph was written"
        )
    if not frames:
        return "no graph", "the program compiled nothing: no torch.compile frame in its trace"
    slowest = frames[0]
    before = _where_it_went(slowest)
    if not record.graphs:
        if slowest.seconds >= SLOW_FRAME_S:
            return "outside any graph", f"{before}, and no graph of it reached Inductor"
        return "no graph", record.problem or "no graph reached Inductor"
    if not any(g.free_symbols for g in record.graphs):
        if _before_graphs(slowest):
            return "outside any graph", f"{before}; its graphs have no free symbols"
        n = len(record.graphs)
        return "no symbols", (
            f"the {n} graph{'s' if n > 1 else ''} that reached Inductor "
            "compiled with static shapes (no free symbol)"
        )
    return None


# ---------------------------------------------------------------------------- minimize


def _minimize(run: _Run) -> Triage | None:
    """The reduction within what is left; None when it left a result (`run.record`)."""
    from symshrink import minimizing

    assert run.repro is not None
    stem = run.repro.name.removesuffix(".py")
    out = run.options.out / f"{stem}.min.py"
    work = run.options.out / f"{stem}.min.py.work"
    reduction_s = run.budget.reduction_s()
    run.notify(f"reducing {run.repro.name} within {reduction_s / 60:.1f} min")
    outcome = minimizing.minimize(
        minimizing.Options(
            repro=run.repro,
            out=out,
            work_dir=work,
            timeout=round(Budget.call_s(reduction_s)),
            max_time=round(reduction_s),
            progress=run.options.progress,
        )
    )
    if outcome.exit_code > 1:  # 130 / 143: what was reduced until then is still reported
        run.interrupted = outcome.exit_code
    if outcome.report is None:
        if outcome.exit_code == 1:
            return run.done(*_not_slow(run, outcome.message))
        return run.done("interrupted", outcome.message.splitlines()[0])
    run.record = outcome.report
    run.files.update(minimal=run.rel(out), run=run.rel(work))
    if outcome.report.program is not None:
        run.files["program"] = run.rel(Path(outcome.report.program))
    return None


def _not_slow(run: _Run, message: str) -> tuple[TriageVerdict, str]:
    """Not slow against its static twin, and where the frame's time went if not there."""
    line = message.splitlines()[0]
    frame = next(
        (
            f
            for f in (run.capture.frames if run.capture else ())
            if run.graph and f.frame == run.graph.frame
        ),
        None,
    )
    if frame is not None and _before_graphs(frame):
        return "outside any graph", f"{line}; {_where_it_went(frame)}"
    return "not slow", line


# ------------------------------------------------------------------------------- match


def _match(
    run: _Run,
) -> tuple[TriageVerdict, str, TriageMatch | None, list[TriageMatch], str]:
    """Known or new, with the best few scores and the result's shape."""
    from symshrink import corpus, match
    from symshrink.records import load_calibration
    from symshrink.repro.parse import parse_file

    record = run.record
    assert record is not None and run.repro is not None
    result = match.features(parse_file(Path(record.out)))
    original = match.features(parse_file(run.repro))
    calibration_path = run.options.out / run.files["run"] / CALIBRATION
    calibration = load_calibration(calibration_path) if calibration_path.is_file() else None
    spots = match.run_spots(record, calibration)
    try:
        entries = corpus.entries(corpus.find_dir(run.options.corpus))
    except ReproError as e:
        log.warning("no corpus to match against: %s", e)
        entries = []
    ranked = match.rank([result, original], spots, [match.entry_features(e) for e in entries])
    torch = installed_version("torch") or ""
    replays = {e.name: (e.case.replays or {}).get(torch) for e in entries}
    candidates = []
    for c in ranked[:3]:
        last = replays[c.entry]
        verdict = last.verdict if last is not None else None
        candidates.append(TriageMatch(entry=c.entry, score=c.score, replay=verdict, shape=c.text))
    best = candidates[0] if candidates else None
    if best is not None and best.score >= match.KNOWN_AT:
        why = f"matches corpus entry {best.entry} (score {best.score:.2f}): "
        return "known", why + _replay_words(replays[best.entry]), best, candidates, result.text
    closest = f"; closest: {best.entry} at {best.score:.2f}" if best is not None else ""
    why = f"new: no corpus entry scores {match.KNOWN_AT} or more{closest}"
    return "new", why, None, candidates, result.text


def _replay_words(last: Replayed | None) -> str:
    """What the entry's last replay under this torch said: still slow, fixed, ..."""
    torch = installed_version("torch")
    if last is None:
        return f"not replayed under torch {torch} yet (`symshrink corpus replay --record`)"
    ratio = "" if last.ratio is None else f", {'≥ ' if last.stopped else ''}{last.ratio:.2f}x"
    return (
        f"{last.verdict} on this torch ({torch}), per its last replay "
        f"({last.measured[:10]}{ratio} its twin, R = {last.at_ratio:g})"
    )


def _add(run: _Run) -> str:
    """The new result added to the corpus; its entry's name."""
    from symshrink import corpus

    assert run.record is not None and run.options.add_to_corpus is not None
    path = corpus.add(
        Path(run.record.out),
        run.options.add_to_corpus,
        corpus=corpus.find_dir(run.options.corpus),
        run_dir=run.options.out / run.files["run"],
        origin=run.repro,
    )
    run.files["corpus entry"] = str(path)
    return run.options.add_to_corpus


# ------------------------------------------------------------------------------ report


def _issue(run: _Run, result: Triage) -> str:
    """The bug report with what triage found above it."""
    from symshrink import report

    assert run.record is not None
    body = report.render_report(report.load_run(run.options.out / run.files["run"]))
    title, _, rest = body.partition("\n\n")
    return f"{title}\n\n{_triage_section(run, result)}\n\n{rest}"


def _triage_section(run: _Run, result: Triage) -> str:
    r = run.record
    assert r is not None
    lines = ["## Triage", ""]
    if result.verdict == "known":
        lines.append(f"This {result.why}.")
    else:
        lines.append(f"This is {result.why.replace('new: ', 'new to the corpus: ')}.")
    if result.shape:
        lines.append(f"Its shape (symbols and constants abstracted): `{result.shape}`.")
    if not r.fixpoint:
        lines.append(
            "**Not minimal yet**: the time budget ended the reduction after "
            f"{r.oracle_calls} oracle calls; `symshrink minimize --resume` continues it."
        )
    source = (
        f"`{shlex.join(run.options.program)}`, graph `{run.graph.graph}`"
        if run.graph is not None
        else f"`{Path(r.repro).name}`"
    )
    spent = ", ".join(f"{k} {v:.0f} s" for k, v in result.seconds.items())
    lines += [
        "",
        f"From {source}: {r.initial.free_symbols} -> {r.final.free_symbols} free symbols; "
        f"budget {result.budget_s / 60:.0f} min, stages: {spent}.",
    ]
    return "\n".join(lines)

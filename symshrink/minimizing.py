"""`symshrink minimize`: the original, an oracle, the reducer, and files on disk.

This is the glue the CLI calls: it lays out the work directory (journal of verdicts,
calibration, so `--resume` repeats no call), writes the best result so far atomically
after every accepted change, re-verifies the final result and writes the JSON report.
It imports no torch: the oracle runs torch in child processes.
"""

from __future__ import annotations

import json
import logging
import os
import shlex
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

from symshrink import installed_version
from symshrink.baseline import BaselineKind
from symshrink.bench import BENCH_PREFIX
from symshrink.errors import NotInteresting, ReproError, UsageError
from symshrink.files import atomic_write, check_writable, held
from symshrink.journal import Journal
from symshrink.oracle import (
    CommandOracle,
    CompileOracle,
    Judging,
    Reverification,
)
from symshrink.oracle.base import BaseOracle
from symshrink.oracle.calibrate import DEFAULT_RATIO, CalibrationError
from symshrink.oracle.deciding import KILL_PREFIX
from symshrink.passes import GRAPH_PASSES, schedule
from symshrink.program import program_path, render_program
from symshrink.program_check import check_program, through_program
from symshrink.progress import Best, Progress
from symshrink.records import (
    CALIBRATION,
    CONTROLS,
    JOURNAL,
    JUDGED_BY,
    LOCK,
    REPORT,
    ProgramCheck,
    RunOptions,
    RunRecord,
    Side,
    load_calibration,
)
from symshrink.reducer import Reducer, Stats
from symshrink.repro.model import Repro
from symshrink.repro.parse import parse_file
from symshrink.repro.render import canonical_key, render
from symshrink.sandbox import (
    JOB_PREFIX,
    POOL_PREFIX,
    CommandRunner,
    Interrupted,
    Runner,
    Workload,
    child_env,
    interrupts,
    resume,
    run_in_group,
)
from symshrink.standalone import render_output
from symshrink.verdict import Verdict

log = logging.getLogger(__name__)


@dataclass
class Options:
    """Everything `symshrink minimize` takes; defaults are the CLI's."""

    repro: Path
    out: Path | None = None
    work_dir: Path | None = None
    timeout: float = 600.0
    ratio: float = DEFAULT_RATIO
    baseline: BaselineKind = "static"
    threshold: float | None = None  # absolute mode: seconds instead of R x the control
    test: str | None = None
    jobs: int = 1
    resume: bool = False
    report_json: Path | None = None
    max_calls: int | None = None
    max_time: float | None = None
    torch_settings: dict[str, str] = field(default_factory=dict)
    calibration_runs: int = 3
    signature: bool = True
    margin: float | None = None  # None: from the calibration's spread
    confirm: int = Judging.confirm
    graph_first: bool = True  # the graph passes first, keeping the headroom (graph_first())
    progress: bool = True
    scheduler: str | None = None  # Dask: tcp://HOST:PORT or local:N; None: this machine


@dataclass
class Outcome:
    """What a minimization produced; `exit_code` 0 with a result, 1 if nothing to reduce."""

    exit_code: int
    message: str
    original: Repro
    final: Repro | None = None
    out: Path | None = None
    stats: Stats | None = None
    report: RunRecord | None = None


def check_values(opts: Options) -> None:
    """Option values that cannot judge anything, one line each (the CLI's own checks say
    the same earlier; a caller of the Python API gets them here)."""
    bad = [
        (opts.timeout > 0, "timeout must be > 0"),
        (opts.ratio > 1, "ratio must be > 1 (at 1x every candidate is its own twin)"),
        (opts.threshold is None or opts.threshold > 0, "threshold must be > 0"),
        (opts.jobs >= 1, "jobs must be >= 1"),
        (opts.margin is None or opts.margin >= 0, "margin must be >= 0"),
        (opts.confirm >= 0, "confirm must be >= 0"),
        (opts.max_calls is None or opts.max_calls >= 0, "max_calls must be >= 0"),
        (opts.max_time is None or opts.max_time >= 0, "max_time must be >= 0"),
        (opts.calibration_runs >= 1, "calibration_runs must be >= 1"),
    ]
    for ok, what in bad:
        if not ok:
            raise UsageError(what)


def output_path(repro: Path, out: Path | None) -> Path:
    """`foo.py` -> `foo.min.py` beside it; never the input itself."""
    path = out if out is not None else repro.with_name(repro.stem + ".min.py")
    if path.resolve() == repro.resolve():
        raise UsageError("the output would overwrite the input; choose another -o", repro)
    return path


def check_outputs(opts: Options, out: Path) -> None:
    """The files the run writes: the report overwrites neither the input nor the output, and
    each can be written (checked now: the report comes after hours of work)."""
    if opts.report_json is not None:
        for name, path in (("the input", opts.repro), ("the output", out)):
            if opts.report_json.resolve() == path.resolve():
                raise UsageError(
                    f"--report-json would overwrite {name}; choose another path", opts.report_json
                )
        check_writable(opts.report_json)
    check_writable(out)


def work_directory(out: Path, work_dir: Path | None) -> Path:
    """The run's state directory (made if missing)."""
    path = work_dir if work_dir is not None else out.with_name(out.name + ".work")
    path = path.resolve()  # oracle children run in scratch directories of their own
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UsageError(f"cannot make the work directory: {e.strerror}", path) from None
    return path


# The folders made in a work directory while a command runs there, and removed when it
# ends: a killed run leaves them behind (the candidates', the kill files', the warm pool's,
# and those of `symshrink report`'s measurements).
SCRATCH_PREFIXES = (JOB_PREFIX, KILL_PREFIX, POOL_PREFIX, BENCH_PREFIX)


def prepare_work(work: Path, resume: bool) -> None:
    """With the work directory locked: the scratch folders a killed run left go, the
    journal and calibration must be files, and a fresh run starts without them."""
    for folder in (f for prefix in SCRATCH_PREFIXES for f in work.glob(f"{prefix}*")):
        shutil.rmtree(folder, ignore_errors=True)
    for name in (JOURNAL, CONTROLS, CALIBRATION, JUDGED_BY):
        path = work / name
        if path.exists() and not path.is_file():
            raise UsageError("not a regular file; remove it or choose another --work-dir", path)
        if not resume:
            path.unlink(missing_ok=True)


def judged_by(opts: Options, original: Repro) -> dict[str, Any]:
    """What the journal's verdicts depend on: the input and the rule that judged it."""
    rule: dict[str, Any] = (
        {"test": opts.test}
        if opts.test is not None
        else {
            "ratio": None if opts.threshold is not None else opts.ratio,
            "baseline": None if opts.threshold is not None else opts.baseline,
            "threshold": opts.threshold,
            "torch_settings": dict(opts.torch_settings),
            "signature": opts.signature,
            "margin": opts.margin,
            "confirm": opts.confirm,
        }
    )
    return {"input": canonical_key(original), **rule}


def check_resumable(path: Path, judged: dict[str, Any]) -> None:
    """A resumed run must judge as the journal's run did: verdicts of another test, ratio
    or input would be taken as this run's. One line says what differs (exit 2)."""
    try:
        recorded = json.loads(path.read_bytes())
        if not isinstance(recorded, dict):
            raise ValueError
    except (OSError, ValueError):
        raise ReproError("not a record symshrink wrote; remove the work directory", path) from None
    differs = [
        "the input was edited" if key == "input" else f"{key} {recorded.get(key)!r}, now {value!r}"
        for key, value in judged.items()
        if recorded.get(key) != value
    ]
    if differs:
        raise UsageError(
            "--resume: this journal was judged otherwise ("
            + "; ".join(differs)
            + "); run without --resume to start afresh",
            path,
        )


_RESOLVE_SETTINGS = """\
import json, sys
from symshrink.retrace import SettingError, resolve_settings
try:
    resolve_settings(json.loads(sys.argv[1]))
except SettingError as e:
    print(e, file=sys.stderr)
    sys.exit(2)
"""


def check_torch_settings(settings: dict[str, str]) -> None:
    """An unknown --torch-setting is bad input, found before the original runs. Resolving
    one imports torch, which this process never does: a short child resolves them."""
    argv = [sys.executable, "-c", _RESOLVE_SETTINGS, json.dumps(settings)]
    code, _, err = run_in_group(argv, timeout_s=300, env=child_env())
    if code == 2:  # the last line: torch may have warned before
        raise UsageError(f"--torch-setting: {err.strip().splitlines()[-1]}")


def check_oracle_options(opts: Options, work: Path) -> None:
    """What the oracle would otherwise fail on only once it runs, as a traceback or as an
    original that 'cannot be measured'."""
    if opts.test is not None:
        test_command(opts.test)
        return
    if opts.resume and (work / CALIBRATION).exists():
        load_calibration(work / CALIBRATION)  # refused now if cut short or edited
    if opts.torch_settings:
        check_torch_settings(opts.torch_settings)


def test_command(test: str) -> list[str]:
    """The --test command with its program made absolute: it runs in a scratch directory."""
    argv = shlex.split(test)
    if not argv:
        raise UsageError("--test: empty command")
    program = Path(argv[0])
    if program.exists():
        _check_runnable(program)
        argv[0] = str(program.resolve())
    elif shutil.which(argv[0]) is None:
        raise UsageError(f"--test: command not found: {argv[0]}")
    return argv


def _check_runnable(program: Path) -> None:
    """What exec would refuse, said in words: not a file, not executable, no `#!` line."""
    if not program.is_file():
        raise UsageError("--test: not a file", program)
    if not os.access(program, os.X_OK):
        raise UsageError(
            f"--test: not executable (chmod +x it, or --test 'python3 {program}')", program
        )
    with program.open("rb") as f:
        magic = f.read(4)
    if not (magic.startswith(b"#!") or magic == b"\x7fELF"):
        raise UsageError(
            f"--test: no #! line, so it cannot be run (add one, or --test 'sh {program}')",
            program,
        )


def remote_runner(opts: Options, local: Callable[[], Runner] | None = None) -> Runner | None:
    """The Dask runner `--scheduler` asks for: `local` builds the runner on each worker;
    None, each worker's warm pool runs the candidates (the compile oracle's)."""
    if opts.scheduler is None:
        return None
    from symshrink.sandbox.dask_runner import connect  # distributed is an optional extra

    if local is None:
        return connect(opts.scheduler, warm=True)
    return connect(opts.scheduler, local)


def make_oracle(opts: Options, original_source: str, work: Path) -> BaseOracle:
    if opts.test is not None:
        argv = test_command(opts.test)
        return CommandOracle(
            argv,
            timeout_s=opts.timeout,
            jobs=opts.jobs,
            scratch=work,
            runner=remote_runner(opts, partial(CommandRunner, argv)),
        )
    retrace_options: dict[str, Any] = {}
    if opts.torch_settings:
        retrace_options["torch_settings"] = dict(opts.torch_settings)
    try:
        return CompileOracle.create(
            original_source,
            k=opts.calibration_runs,
            ratio=opts.ratio,
            baseline=opts.baseline,
            threshold_s=opts.threshold,
            jobs=opts.jobs,
            workload=Workload(retrace=retrace_options),
            judging=Judging(
                timeout_s=opts.timeout,
                signature=opts.signature,
                margin=opts.margin,
                confirm=opts.confirm,
            ),
            calibration_path=work / CALIBRATION,
            controls_path=work / CONTROLS,
            scratch=work,
            runner=remote_runner(opts),
        )
    except CalibrationError as e:
        raise NotInteresting(f"the original cannot be measured: {e}") from None


def minimize(opts: Options) -> Outcome:
    """The run; bad input (ReproError) or a bad option (UsageError) is
    raised before any oracle call, and the
    work directory is held (locked) until the end."""
    check_values(opts)
    original = parse_file(opts.repro)
    out = output_path(opts.repro, opts.out)
    check_outputs(opts, out)
    work = work_directory(out, opts.work_dir)
    with held(work / LOCK):
        prepare_work(work, opts.resume)
        judged = judged_by(opts, original)
        if opts.resume and (work / JUDGED_BY).exists():
            check_resumable(work / JUDGED_BY, judged)
        check_oracle_options(opts, work)
        atomic_write(work / JUDGED_BY, json.dumps(judged, indent=2) + "\n")
        atomic_write(out, render_output(original))  # a valid result exists from the start
        with interrupts():
            try:
                return _run(opts, original, out, work)
            except Interrupted as e:
                message = f"interrupted by {e}; {out} holds the best result so far"
                return Outcome(e.exit_code, message, original)


def _run(opts: Options, original: Repro, out: Path, work: Path) -> Outcome:
    """Calibrate, check the original, reduce, re-verify, report (SIGINT and SIGTERM raise
    Interrupted; one during the reduction only ends the reduction)."""
    source = render(original)
    started = time.monotonic()
    oracle = None
    interrupted: Interrupted | None = None
    progress = Progress(opts.progress, max_calls=opts.max_calls, max_time=opts.max_time)
    try:
        progress.phase("checking the original")
        oracle = make_oracle(opts, source, work)
        journal = Journal(work / JOURNAL)
        key = canonical_key(original)
        first = journal.get(key)
        if first is None:
            first = oracle(source)
            journal.put(key, first)
        if not first.interesting:
            raise NotInteresting(oracle.not_interesting(first))
        history = [original]  # every accepted improvement, smallest last

        def improved(repro: Repro) -> None:
            history.append(repro)
            atomic_write(out, render_output(repro))

        reducer = Reducer(
            test=lambda repro: oracle(render(repro)),
            jobs=oracle.jobs,
            journal=journal,
            on_improve=improved,
            max_calls=opts.max_calls,
        )
        reducer.on_call = partial(_show, progress)
        headroom = graph_first(oracle) if opts.graph_first else None
        graph_stage: Reducer | None = None
        raised: float | None = None  # by how much the graph stage raised the limits
        if headroom is not None:  # the same reducer (journal, history, budget, one stats)
            keeper, raised = headroom
            graph_stage = replace(
                reducer,
                test=lambda repro: keeper(render(repro)),
                passes=schedule(GRAPH_PASSES),
                tag=GRAPH_FIRST_TAG,
                stats=reducer.stats,
            )

        def reduce(start: Repro) -> Repro:
            """The graph passes keeping the headroom (once, from the original), then every
            pass at R."""
            nonlocal interrupted, graph_stage
            stages, graph_stage = [r for r in (graph_stage, reducer) if r is not None], None
            for stage in stages:
                if opts.max_time is not None:  # counted from the start: calibration included
                    stage.max_time = max(0.0, opts.max_time - (time.monotonic() - started))
                try:
                    start = stage.run(start)
                except Interrupted as e:  # the best result so far is on disk; verify, report it
                    interrupted = e
                    resume()
                    reducer.stats.stopped_by = "interrupted"
                    return stage.best if stage.best is not None else start
            return start

        final, walked_back = original, 0
        failed: list[tuple[Repro, Reverification]] = []
        for again in range(1 + REDUCE_AGAIN):
            if again:
                # What was not slow again is known now: the reduction goes on from the
                # model that was, so that its result is a fixpoint again, not a step of
                # the way.
                for model, fresh in failed:
                    journal.put(canonical_key(model), _not_slow_again(fresh))
                del history[len(history) - len(failed) :]
                progress.phase("reducing on from the re-verified result")
            final = reduce(final)
            progress.phase("re-verifying the result")
            final, check, failed = _verified(oracle, history, opts.calibration_runs)
            walked_back += len(failed)
            settled = not failed or check is None or not check.passed
            if settled or interrupted is not None or not reducer.stats.fixpoint:
                break
        atomic_write(out, render_output(final))
        record = _record(opts, oracle, original, final, reducer.stats, time.monotonic() - started)
        # every run on this work dir, not the original
        record = replace(
            record,
            oracle_calls_total=len(journal) - 1,
            graph_first=None if raised is None else round(raised, 3),
        )
        if check is not None:
            record = replace(
                record,
                final=_checked(record.final, check),
                reverified=check.passed,
                walked_back=walked_back,
                reverify_verdicts=check.verdicts,
                fixpoint=record.fixpoint and not failed,  # a step back is no fixpoint
            )
        record.save(work / REPORT)  # the result stands whatever its program does
        run = interrupted is None and isinstance(oracle, CompileOracle)
        if run:
            progress.phase("running the result's torch.compile program")
        try:
            record = with_program(record, opts, out, final, run=run)
        except Interrupted as e:  # the record above stands
            interrupted = e
            resume()
    except NotInteresting as e:
        return Outcome(1, str(e), original)
    finally:
        progress.close()
        if oracle is not None:
            oracle.close()
    if opts.report_json is not None:
        record.save(opts.report_json)
    record.save(work / REPORT)
    message = end_line(out, record)
    if interrupted is not None:
        message += f"; interrupted by {interrupted}, this is the best result so far"
    if record.program is not None:
        message += f"\nthe torch.compile program: python {shlex.quote(record.program)}"
    message += f"\nthe bug report: symshrink report {shlex.quote(str(work))}"
    code = 0 if interrupted is None else interrupted.exit_code
    return Outcome(code, message, original, final, out, reducer.stats, record)


PROGRAM_STOP = 2.0
"""A dynamic run of the result's program is stopped at this many times R x its static
median: a compile that would not end costs that much, and shows as at least 2R."""


def with_program(
    record: RunRecord, opts: Options, out: Path, final: Repro, *, run: bool
) -> RunRecord:
    """`record` with the result's torch.compile program written beside `out` (atomically)
    and, with `run`, checked against static shapes: k fresh runs of each, judged at R
    (`program_check`). A model the program cannot show is recorded with why, not raised."""
    target = program_path(out)
    try:
        if target.resolve() == opts.repro.resolve():
            raise ReproError(f"no program: {target.name} would overwrite the input")
        text = render_program(
            final, target.name.removesuffix(".program.py"), out.name, opts.torch_settings
        )
    except ReproError as e:
        why = str(e).removeprefix("no program: ")
        check = ProgramCheck(verdict="no program", why=why, at_ratio=opts.ratio)
        return replace(record, program_check=check)
    atomic_write(target, text)
    record = replace(record, program=str(target.resolve()))
    if not run:
        return record
    check = check_program(
        target,
        ratio=opts.ratio,
        runs=opts.calibration_runs,
        timeout_s=opts.timeout,
        stop_at=PROGRAM_STOP * opts.ratio,
    )
    return replace(record, program_check=check)


def end_line(out: Path, record: RunRecord) -> str:
    """What a run says when it ends: sizes, calls, times against the controls, minimality."""
    initial, final = record.initial, record.final
    line = (
        f"{out}: {initial.free_symbols} -> {final.free_symbols} free symbols, "
        f"{initial.expr_ops} -> {final.expr_ops} expression operations in "
        f"{record.oracle_calls} oracle calls ({record.seconds:.0f} s)"
    )
    if initial.slow_phase_s is not None and final.slow_phase_s is not None:
        line += f"; original {_timed(initial)} -> result {_timed(final)}"
    if record.fixpoint:
        line += f", 1-minimal at {_rule(record)}"
    elif record.stopped_by is None:
        line += (
            f"; not 1-minimal: re-verification walked back {record.walked_back} step(s), "
            f"and {REDUCE_AGAIN} more reductions from there did not settle"
        )
    else:
        line += (
            f"; stopped by {record.stopped_by_option} after {record.oracle_calls} "
            "calls: not minimal yet (--resume continues)"
        )
    if record.reverified is False:
        line += "; WARNING: the result was not slow on re-verification"
    if record.program_check is not None:
        line += f"; {through_program(record.program_check)}"
    return line


def _rule(record: RunRecord) -> str:
    """The bar the reduction held every candidate to: R x the twin, or the threshold, with
    the margin (`4.4x (4x + margin 0.1)`)."""
    margin = record.margin_used or 0.0
    if record.ratio:
        bar, unit = record.ratio, "x"
    elif record.oracle == "compile" and record.threshold_s is not None:
        bar, unit = record.threshold_s, " s"
    else:
        return "the test"
    if not margin:
        return f"{bar:g}{unit}"
    return f"{bar * (1 + margin):.2g}{unit} ({bar:g}{unit} + margin {margin:g})"


def _timed(side: Side) -> str:
    """`>= 40.1 s vs twin 1.20 s (>= 33x)`: a time, its control's and their ratio."""
    bound = ">= " if side.lower_bound else ""
    text = f"{bound}{side.slow_phase_s:.1f} s"
    if side.baseline_s and side.ratio is not None:
        text += f" vs twin {side.baseline_s:.2f} s ({bound}{side.ratio:.1f}x)"
    return text


def _record(
    opts: Options, oracle: BaseOracle, original: Repro, final: Repro, stats: Stats, seconds: float
) -> RunRecord:
    """The run's record before its re-verification is added."""
    record = RunRecord(
        repro=str(opts.repro.resolve()),
        out=str(output_path(opts.repro, opts.out).resolve()),
        torch_version=installed_version("torch"),
        sympy_version=installed_version("sympy"),
        symshrink_version=installed_version("symshrink"),
        options=RunOptions.taken_from(opts),
        oracle="test" if opts.test is not None else "compile",
        oracle_calls=stats.oracle_calls,
        speculative_unused=stats.speculative_unused,
        accepted=stats.accepted,
        cache_hits=stats.cache_hits,
        seconds=round(seconds, 3),
        stopped_by=_stopped_by(stats.stopped_by, opts),
        fixpoint=stats.fixpoint,
        per_pass={name: dict(counts) for name, counts in stats.per_pass.items()},
        initial=Side.of(original),
        final=Side.of(final),
    )
    timing = oracle.timing()
    if timing is None:
        return record
    cal = timing.calibration
    longest, stopped = cal.longest
    initial = replace(record.initial, slow_phase_s=round(longest, 3), lower_bound=stopped)
    if cal.baseline_s is not None:
        initial = replace(
            initial, baseline_s=round(cal.baseline_s, 3), ratio=round(longest / cal.baseline_s, 2)
        )
    return replace(
        record,
        initial=initial,
        ratio=cal.ratio,
        baseline=cal.baseline if cal.ratio is not None else None,
        threshold_s=timing.threshold_s,
        margin_used=round(timing.margin, 3),
    )


def _stopped_by(stopped_by: str | None, opts: Options) -> str | None:
    """The budget that stopped the run as the option gave it: each stage of the reduction
    gets what is left of `--max-time`, and says that."""
    if stopped_by is not None and stopped_by.startswith("max_time=") and opts.max_time:
        return f"max_time={opts.max_time:g}"
    return stopped_by


def _checked(side: Side, check: Reverification) -> Side:
    """The result's time as its re-verification measured it, with its fresh control."""
    median = sorted(check.verdicts, key=lambda v: v.cpu_s)[len(check.verdicts) // 2]
    side = replace(side, slow_phase_s=round(median.cpu_s, 3), lower_bound=median.stopped)
    if check.baseline_s and median.ratio is not None:
        side = replace(side, baseline_s=round(check.baseline_s, 3), ratio=round(median.ratio, 2))
    return side


GRAPH_FIRST_BELOW = 2.0
"""The headroom (how far past its kill point the original ends, measured to its end) under
which the graph passes run first (`graph_first`; `--no-graph-first` turns it off). Above
it a call of that stage would cost over twice one at R, and nothing is measured there."""
GRAPH_FIRST_TAG = "graph-first:"  # its verdicts' journal keys: slow at another limit


def graph_first(oracle: BaseOracle) -> tuple[CompileOracle, float] | None:
    """The oracle of the graph passes' first stage, and by how much it raised the limits:
    `oracle` with every limit raised to the original's own time over the margin, so that
    a graph edit is kept only while the candidate keeps the original's ratio; None where
    the headroom is not known, too large to pay (GRAPH_FIRST_BELOW), or within the margin.

    The graph passes make every later call cheaper. Run first at R they spend the headroom
    on the pathology's own nodes where they can; kept at the original's ratio, their
    results stay within the symbols-first order's own run-to-run spread, in less time
    (`benchmarks/checkouts.py` with and without `--no-graph-first`, docs/benchmarks.md)."""
    if not isinstance(oracle, CompileOracle):
        return None
    timing = oracle.timing()
    headroom = timing.headroom
    if headroom is None:
        return None
    factor = headroom / (1 + timing.margin)
    if not (factor > 1 and headroom < GRAPH_FIRST_BELOW):
        return None
    log.info("the graph passes go first, kept at %.2fx the limit: the original's headroom", factor)
    return oracle.scaled(factor), factor


REDUCE_AGAIN = 2
"""How many times a reduction whose result was walked back goes on from the model that
re-verified (a noisy machine can make a run at the edge look slow more than once)."""


def _verified(
    oracle: BaseOracle, history: list[Repro], k: int
) -> tuple[Repro, Reverification | None, list[tuple[Repro, Reverification]]]:
    """The smallest accepted model still slow on k fresh runs at the threshold.

    Reduction drives candidates to the edge of the threshold, so the last accepted one
    may have been a lucky kill; then the previous (larger, slower) one is checked, and so
    on. Returns the model, its re-verification and the smaller models that failed theirs,
    smallest first. A custom `--test` oracle is deterministic by contract: no
    re-verification.
    """
    failed: list[tuple[Repro, Reverification]] = []
    for model in reversed(history):
        check = oracle.reverify(render(model), k=k)
        if check is None:
            return history[-1], None, []
        if check.passed or len(failed) == len(history) - 1:
            if failed:
                log.warning(
                    "the %d smallest result(s) were not slow again; kept a larger one",
                    len(failed),
                )
            return model, check, failed
        failed.append((model, check))
    raise AssertionError("unreachable: history holds at least the original")


def _not_slow_again(check: Reverification) -> Verdict:
    """A failed re-verification as the journal's verdict on its model: one of its runs
    that was not slow."""
    fresh = next(v for v in check.verdicts if not v.interesting)
    return replace(fresh, detail=f"not slow again on re-verification: {fresh.detail}")


def _show(progress: Progress, stats: Stats, best: Repro) -> None:
    """After each oracle call: the pass at work and the best model so far."""
    sizes = Side.of(best)
    progress.phase(f"pass {stats.current_pass}" if stats.current_pass else "reducing")
    progress.update(
        stats.oracle_calls,
        stats.accepted,
        Best(sizes.free_symbols, sizes.expr_ops, stats.best_ratio),
    )

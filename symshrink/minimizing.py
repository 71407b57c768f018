"""`symshrink minimize`: the original, an oracle, the stages of the reduction, the files.

The driver the CLI and the API call: the work directory (`workdir`: journal of verdicts,
calibration, so `--resume` repeats no call) is held and prepared, the oracle made from the
options (`minimize_oracle`), the original checked, the stages run (`minimize_stages`: the
graph stage, every pass at R, re-verification and walking back), the best result so far
written atomically after every accepted change, the record written (`minimize_record`),
and the result's torch.compile program beside it (`minimize_program`). It imports no
torch: the oracle runs torch in child processes.
"""

from __future__ import annotations

import logging
import shlex
import time
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

from symshrink.errors import NotInteresting
from symshrink.journal import Journal
from symshrink.minimize_options import Options, check_values, judged_by
from symshrink.minimize_oracle import check_oracle_options, make_oracle
from symshrink.minimize_program import program_width, with_program
from symshrink.minimize_record import end_line, final_record
from symshrink.minimize_stages import reduce, stages
from symshrink.oracle import CompileOracle
from symshrink.oracle.base import BaseOracle
from symshrink.progress import Best, Progress
from symshrink.records import JOURNAL, REPORT, RunRecord, Side
from symshrink.reducer import Reducer, Stats
from symshrink.repro.candidate import Candidate
from symshrink.repro.model import Repro
from symshrink.repro.parse import parse_file
from symshrink.sandbox import Interrupted, interrupts, resume
from symshrink.workdir import WorkDir

log = logging.getLogger(__name__)

__all__ = ["Options", "Outcome", "minimize"]


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


def minimize(opts: Options) -> Outcome:
    """The run; bad input (ReproError) or a bad option (UsageError) is raised before any
    oracle call, and the work directory is held (locked) until the end."""
    check_values(opts)
    original = parse_file(opts.repro)
    work = WorkDir.make(opts.repro, opts.out, opts.work_dir, opts.report_json)
    judged = judged_by(opts, original)
    with work.locked(judged, opts.resume):
        check_oracle_options(opts, work.path)
        work.judged(judged)
        work.write(original)  # a valid result exists from the start
        with interrupts():
            try:
                return _run(opts, original, work)
            except Interrupted as e:
                message = f"interrupted by {e}; {work.out} holds the best result so far"
                return Outcome(e.exit_code, message, original)


def _run(opts: Options, original: Repro, work: WorkDir) -> Outcome:
    """Calibrate, check the original, run the stages, report (SIGINT and SIGTERM raise
    Interrupted; one during the reduction only ends the reduction)."""
    first = Candidate.of(original)
    started = time.monotonic()
    oracle = None
    progress = Progress(opts.progress, max_calls=opts.max_calls, max_time=opts.max_time)
    try:
        progress.phase("checking the original")
        oracle = make_oracle(opts, first, work.path)
        journal = Journal(work / JOURNAL)
        _check_original(oracle, journal, first)
        history = [original]  # every accepted improvement, smallest last

        def improved(repro: Repro) -> None:
            history.append(repro)
            work.write(repro)

        reducer = Reducer(
            test=oracle,
            refuses=oracle.refuses,
            jobs=oracle.jobs,
            journal=journal,
            on_improve=improved,
            max_calls=opts.max_calls,
            symmetric=oracle.symmetric,
        )
        reducer.on_call = partial(_show, progress)
        run_stages, raised = stages(oracle, reducer, graph_stage=opts.graph_first)
        done = reduce(
            original,
            run_stages,
            oracle=oracle,
            journal=journal,
            history=history,
            k=opts.calibration_runs,
            max_time=opts.max_time,
            started=started,
            phase=progress.phase,
        )
        interrupted = done.interrupted
        work.write(done.final)
        seconds = time.monotonic() - started
        record = final_record(opts, oracle, original, done, reducer.stats, seconds)
        # every run on this work dir, not the original
        record = replace(
            record,
            oracle_calls_total=len(journal) - 1,
            graph_first=None if raised is None else round(raised, 3),
            passes=tuple(p.name for p in run_stages[-1].passes),
        )
        record.save(work / REPORT)  # the result stands whatever its program does
        run = interrupted is None and isinstance(oracle, CompileOracle)
        try:
            runs_at = None
            if interrupted is None and isinstance(oracle, CompileOracle):
                progress.phase("widening the result to where it is clearly slow")
                runs_at = program_width(oracle, done.final, opts.calibration_runs)
                progress.phase("running the result's torch.compile program")
            record = with_program(record, opts, work.out, done.final, run=run, runs_at=runs_at)
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
    message = end_line(work.out, record)
    if interrupted is not None:
        message += f"; interrupted by {interrupted}, this is the best result so far"
    if record.program is not None:
        message += f"\nthe torch.compile program: python {shlex.quote(record.program)}"
    message += f"\nthe bug report: symshrink report {shlex.quote(str(work.path))}"
    code = 0 if interrupted is None else interrupted.exit_code
    return Outcome(code, message, original, done.final, work.out, reducer.stats, record)


def _check_original(oracle: BaseOracle, journal: Journal, original: Candidate) -> None:
    """The original's verdict (journaled: a resumed run asks no more), NotInteresting
    unless it is slow."""
    verdict = journal.get(original.key)
    if verdict is None:
        verdict = oracle(original)
        journal.put(original.key, verdict)
    if not verdict.interesting:
        raise NotInteresting(oracle.not_interesting(verdict))


def _show(progress: Progress, stats: Stats, best: Repro) -> None:
    """After each oracle call: the pass at work and the best model so far."""
    sizes = Side.of(best)
    progress.phase(f"pass {stats.current_pass}" if stats.current_pass else "reducing")
    progress.update(
        stats.oracle_calls,
        stats.accepted,
        Best(sizes.free_symbols, sizes.expr_ops, stats.best_ratio),
    )

"""A minimize run's record (`RunRecord`, report.json) and the line it ends with."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from symshrink import installed_version
from symshrink.minimize_options import Options
from symshrink.minimize_stages import REDUCE_AGAIN, Reduced
from symshrink.oracle import Reverification
from symshrink.oracle.base import BaseOracle
from symshrink.program_check import through_program
from symshrink.records import RunOptions, RunRecord, Side
from symshrink.reducer import Stats
from symshrink.repro.model import Repro
from symshrink.workdir import output_path


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
    the margin (`4.4x (4x + margin 0.1)`), and the floor under R x the twin (`, at least
    1.1 s (floor 1 s + margin)`)."""
    margin = record.margin_used or 0.0
    if record.ratio:
        bar, unit = record.ratio, "x"
    elif record.oracle == "compile" and record.threshold_s is not None:
        bar, unit = record.threshold_s, " s"
    else:
        return "the test"
    floor = record.floor_s if record.ratio else None
    if not margin:
        text = f"{bar:g}{unit}"
        return text + (f", at least {floor:g} s (floor)" if floor else "")
    text = f"{bar * (1 + margin):.2g}{unit} ({bar:g}{unit} + margin {margin:g})"
    if floor:
        text += f", at least {floor * (1 + margin):.2g} s (floor {floor:g} s + margin)"
    return text


def _timed(side: Side) -> str:
    """`>= 40.1 s vs twin 1.20 s (>= 33x)`: a time, its control's and their ratio."""
    bound = ">= " if side.lower_bound else ""
    text = f"{bound}{side.slow_phase_s:.1f} s"
    if side.baseline_s and side.ratio is not None:
        text += f" vs twin {side.baseline_s:.2f} s ({bound}{side.ratio:.1f}x)"
    return text


def final_record(
    opts: Options, oracle: BaseOracle, original: Repro, done: Reduced, stats: Stats, seconds: float
) -> RunRecord:
    """The run's record, with the result's re-verification (when its oracle re-verifies)."""
    record = run_record(opts, oracle, original, done.final, stats, seconds)
    if done.check is None:
        return record
    return replace(
        record,
        final=checked(record.final, done.check),
        reverified=done.check.passed,
        walked_back=done.walked_back,
        reverify_verdicts=done.check.verdicts,
        fixpoint=record.fixpoint and done.kept_last,  # a step back is no fixpoint
    )


def run_record(
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
        stopped_by=stopped_by_as_given(stats.stopped_by, opts),
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
        floor_s=cal.floor_s if cal.ratio is not None and cal.floor_s else None,
        margin_used=round(timing.margin, 3),
    )


def stopped_by_as_given(stopped_by: str | None, opts: Options) -> str | None:
    """The budget that stopped the run as the option gave it: each stage of the reduction
    gets what is left of `--max-time`, and says that."""
    if stopped_by is not None and stopped_by.startswith("max_time=") and opts.max_time:
        return f"max_time={opts.max_time:g}"
    return stopped_by


def checked(side: Side, check: Reverification) -> Side:
    """The result's time as its re-verification measured it, with its fresh control."""
    median = sorted(check.verdicts, key=lambda v: v.cpu_s)[len(check.verdicts) // 2]
    side = replace(side, slow_phase_s=round(median.cpu_s, 3), lower_bound=median.stopped)
    if check.baseline_s and median.ratio is not None:
        side = replace(side, baseline_s=round(check.baseline_s, 3), ratio=round(median.ratio, 2))
    return side

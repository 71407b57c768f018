"""The result's `torch.compile` program: the width it runs at by default, the program
written beside the result, and its check against static shapes (`program_check`).

A 1-minimal result sits at R, where each run of its program says slow or not by the
noise; its program runs by default at the first member of its width family clearly past
R through the retrace (`program_width`), and `--n` its own width is the result itself.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from symshrink.errors import ReproError
from symshrink.files import atomic_write
from symshrink.minimize_options import Options
from symshrink.oracle import CompileOracle
from symshrink.program import program_path, render_program
from symshrink.program_check import check_program
from symshrink.records import ProgramCheck, RunRecord
from symshrink.repro.candidate import Candidate
from symshrink.repro.model import Repro
from symshrink.widths import first_clear, width

PROGRAM_STOP = 2.0
"""A dynamic run of the result's program is stopped at this many times R x its static
median: a compile that would not end costs that much, and shows as at least 2R."""
PROGRAM_RUN_MIN_S = 120.0
"""The least wall time one run of the result's program is given, whatever `--timeout` (an
oracle call's, in a warm worker): each run is a fresh process that imports torch and
compiles a warm-up first, up to a minute on 2 cores at load 6 (a triage of 8 minutes gave
its calls 38 s, and the program's first static run was stopped there)."""


PROGRAM_CLEAR = 1.5
"""How far past R the result's width family member must re-verify through the retrace to
be where its program runs by default: a 1-minimal result sits at R, where each run of its
program says slow or not by the noise."""
PROGRAM_WIDEN_BY = 8  # symbols past the result's own width that `program_width` tries


def program_width(oracle: CompileOracle, final: Repro, k: int) -> int | None:
    """The width the result's program runs at by default: the smallest member of its width
    family (`widths.first_clear`, from its own width up) still slow on k fresh runs at
    PROGRAM_CLEAR x R x its twin; None (its own) where none is, or it has no family."""
    clear = oracle.scaled(PROGRAM_CLEAR)

    def clearly_slow(model: Repro) -> bool:
        return clear.reverify(Candidate.of(model), k=k).passed

    found = first_clear(final, clearly_slow, upto=width(final) + PROGRAM_WIDEN_BY)
    return None if found == width(final) else found


def with_program(
    record: RunRecord,
    opts: Options,
    out: Path,
    final: Repro,
    *,
    run: bool,
    runs_at: int | None = None,
) -> RunRecord:
    """`record` with the result's torch.compile program written beside `out` (atomically)
    and, with `run`, checked against static shapes: k fresh runs of each, judged at R
    (`program_check`), at `runs_at` (`program_width`: the program's default `--n`; None:
    the result's own width). A model the program cannot show is recorded with why."""
    target = program_path(out)
    try:
        if target.resolve() == opts.repro.resolve():
            raise ReproError(f"no program: {target.name} would overwrite the input")
        text = render_program(
            final,
            target.name.removesuffix(".program.py"),
            out.name,
            opts.torch_settings,
            runs_at=runs_at,
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
        n=runs_at,
        timeout_s=max(opts.timeout, PROGRAM_RUN_MIN_S),
        stop_at=PROGRAM_STOP * opts.ratio,
    )
    return replace(record, program_check=check)

"""The Python API, for bots and scripts: `symshrink.capture`, `symshrink.minimize` and
`symshrink.triage`, each returning its typed record (the file it also writes).

Bad input raises `ReproError`, a bad option `UsageError` (one line naming the file, and the
line where known), before anything runs; both are a `SymshrinkError`, the one exception
that bad input or usage raises. `minimize`
raises `NotInteresting` when the original is not slow (triage says so in its record
instead). Nothing here prints: what happens goes to the `symshrink` loggers. SIGINT and
SIGTERM stop a run the way the command's are stopped only when it runs in the main thread;
elsewhere they stay the caller's. The CLI is a layer over the same functions.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from symshrink.errors import NotInteresting, UsageError

if TYPE_CHECKING:
    from symshrink.records import CaptureRecord, RunRecord, Triage

__all__ = ["capture", "minimize", "triage"]

log = logging.getLogger("symshrink")


def capture(
    program: Sequence[str],
    out: str | Path,
    *,
    timeout: float | None = None,
    min_seconds: float = 0.0,
    check: bool = False,
) -> CaptureRecord:
    """Run `program` (an argv: `["python", "prog.py"]`) under torch's structured trace and
    write each compiled graph's after-aot repro into `out`, with capture.json; returns
    its record. The program's own exit code is the record's `exit_code`; `problem` says
    why no graph was written. `timeout`: stop the program once one compile has run that
    long (its repro is kept)."""
    from symshrink import capturing

    if isinstance(program, str):
        raise UsageError("program: an argv list such as ['python', 'prog.py'], not one string")
    if timeout is not None and timeout <= 0:
        raise UsageError("timeout must be > 0")
    if min_seconds < 0:
        raise UsageError("min_seconds must be >= 0")
    options = capturing.Options(
        program=tuple(program),
        out=Path(out),
        timeout=timeout,
        min_seconds=min_seconds,
        check=check,
    )
    return capturing.capture(options, notify=log.info).record


def minimize(repro: str | Path, **options: Any) -> RunRecord:
    """Minimize the after-aot repro `repro`; `options` are `symshrink minimize`'s, by
    their Python names (`out`, `timeout`, `ratio`, `max_time`, `max_calls`, `resume`,
    `jobs`, ...). Writes REPRO.min.py and its work directory as the command does; returns
    the run's record (report.json). Raises NotInteresting when the original is not slow."""
    from dataclasses import fields

    from symshrink import minimizing

    known = {f.name for f in fields(minimizing.Options)} - {"repro", "progress"}
    unknown = sorted(set(options) - known)
    if unknown:
        raise UsageError(f"not an option of minimize: {', '.join(unknown)}")
    for name in ("out", "work_dir", "report_json"):
        if options.get(name) is not None:
            options[name] = Path(options[name])
    outcome = minimizing.minimize(minimizing.Options(repro=Path(repro), progress=False, **options))
    if outcome.exit_code == 1:
        raise NotInteresting(outcome.message)
    if outcome.report is None:  # interrupted before there was a result
        raise KeyboardInterrupt(outcome.message)
    return outcome.report


def triage(
    target: Sequence[str] | str | Path,
    out: str | Path,
    *,
    budget: float | str = 1800.0,
    corpus: str | Path | None = None,
    add_to_corpus: str | None = None,
) -> Triage:
    """Triage a program (`target` an argv: `["python", "prog.py"]`) or an after-aot repro
    (`target` a path) within `budget` (seconds, or a duration such as "20m"): capture,
    pick the graph, minimize, match against the corpus, write `out/issue.md` and
    `out/triage.json`. Returns the record; its `verdict` and `exit_code` say what came
    of it (a program that is not slow is a record, not an exception)."""
    from symshrink import triaging

    program: tuple[str, ...] = ()
    repro: Path | None = None
    if isinstance(target, str | Path):
        repro = Path(target)
    else:
        program = tuple(target)
    budget_s = triaging.parse_duration(budget) if isinstance(budget, str) else float(budget)
    options = triaging.Options(
        out=Path(out),
        program=program,
        repro=repro,
        budget_s=budget_s,
        corpus=Path(corpus) if corpus is not None else None,
        add_to_corpus=add_to_corpus,
    )
    return triaging.triage(options, notify=log.info)

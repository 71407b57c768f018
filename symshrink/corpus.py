"""A corpus of minimized pathologies: `corpora/<name>/`, replayed against any torch.

Each entry is a directory holding what cannot be rendered from anything else, and what a
maintainer reads:

- `repro.py`: the minimal repro in torch's plain after-aot layout (what symshrink parses);
- `program.py`: it as a short `torch.compile` program that measures itself
  (`program.render_program`; `python program.py` needs only torch), unless the model has
  no such program (case.json's `no_program` says why);
- `case.json`: where it came from (names relative to the entry, or the command that
  writes the original: no path of the machine that made it), the torch and sympy
  versions and `torch_settings` it was recorded with, sizes before and after
  minimization (`free_symbols`, `expr_ops`), the entry's time, its static twin's and
  their ratio (`slow_phase_s`, `baseline_s`, `ratio`), R (`ratio` at the top: the ratio
  it was minimized at), the slow phase and the hot spots it was judged by;
- `origin.py`, a copy of the original script when it is small, or `generate.txt`, the
  command that writes it (e.g. `python tests/fixtures_gen.py OUT --family floordiv_sum`).

The retrace script that embeds symshrink's runtime (what `minimize` writes as `min.py`) is
rendered on demand (`render`, `symshrink corpus render NAME`) from `repro.py` and the
runtime of the symshrink that renders it: a stored copy would go stale with every change
to `runtime.py`.

`replay` judges every entry as `minimize` judged it: the compile oracle's child (warm
forked, `--no-native-compile`, the entry's recorded torch settings) measures the entry's
static twin and the entry itself in the same replay, and the entry is `still slow` when
it is still compiling at R x its twin, else `fixed` (`slow, other cause`: slow, but not in
its recorded hot spots; `error`). Seconds do not travel between machines; the ratio of
two runs on the same machine under the same load does. So a maintainer sees which
pathologies still hurt under this torch and these settings, and `--python` puts other
environments' torch versions beside it. `sweep` measures each entry's width family the
same way (`bench.measure_widths`, which the report's picture uses too) and records in
case.json the fewest free symbols at which it is still slow. This module imports no torch
(the oracle's children do).
"""

from __future__ import annotations

import contextlib
import datetime
import json
import logging
import re
import statistics
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from symshrink import installed_version
from symshrink.bench import TWIN_RUNS, Bench, Rule, measure_widths
from symshrink.errors import ReproError, UsageError
from symshrink.files import atomic_write
from symshrink.oracle import Calibration
from symshrink.oracle.calibrate import DEFAULT_RATIO
from symshrink.oracle.signature import Signature
from symshrink.records import (
    CALIBRATION,
    CASE,
    GENERATE,
    ORIGIN,
    PROGRAM,
    REPRO,
    SYMPY_REPRO,
    Case,
    CaseOptions,
    CorpusVerdict,
    Origin,
    ProgramVerdict,
    Replayed,
    ReplayWidth,
    RunRecord,
    RunSummary,
    Side,
    SmallestSlow,
    SympyRepro,
    WidthPoint,
    load_calibration,
)
from symshrink.repro.candidate import Candidate
from symshrink.sandbox import Clock, Runner, run_in_group

if TYPE_CHECKING:
    from symshrink.baseline import BaselineKind
    from symshrink.repro.model import Repro

__all__ = [
    "Entry",
    "Replay",
    "add",
    "check_new_name",
    "entries",
    "find_dir",
    "list_rows",
    "list_table",
    "render",
    "replay",
    "replay_record",
    "replay_table",
    "replay_with",
    "sympy_repros",
    "versions_table",
    "widen",
]

ORIGIN_MAX_BYTES = 64_000  # larger originals are recorded by the command that writes them

log = logging.getLogger(__name__)

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")

# The corpus of the checkout symshrink runs from (an editable install's source tree).
CHECKOUT_CORPUS = Path(__file__).resolve().parents[1] / "corpora"


def find_dir(corpus: Path | None) -> Path:
    """`corpus` if given, else `./corpora`, else the checkout's: the corpus commands work
    from any directory where symshrink is installed from its repository."""
    if corpus is not None:
        return corpus
    for candidate in (Path("corpora"), CHECKOUT_CORPUS):
        if candidate.is_dir():
            return candidate
    raise ReproError(
        f"no corpus directory: neither ./corpora nor {CHECKOUT_CORPUS} exists (give --corpus DIR)"
    )


# ---------------------------------------------------------------------------------- add


def add(
    minimal: Path,
    name: str,
    *,
    corpus: Path,
    run_dir: Path | None = None,
    origin: Path | None = None,
    generate: str | None = None,
    ratio: float | None = None,
    torch_settings: Mapping[str, str] | None = None,
    links: Sequence[str] = (),
    force: bool = False,
) -> Path:
    """Add `minimal` to `corpus` as `name`; returns the entry's directory.

    The script (plain or standalone) must parse with symshrink's parser; the entry keeps
    its model in the plain after-aot layout (`repro.py`) and as a `torch.compile` program
    (`program.py`, with the entry's torch settings). `run_dir` (a minimize work
    directory) fills case.json from its report.json and calibration.json; `ratio` (R) and
    `torch_settings` override what the run recorded; `links` are the issue or PR URLs of
    the report it came from. The original is copied when
    given (or named by the report) and at most ORIGIN_MAX_BYTES, else `generate` (a
    command) is recorded. An existing entry is replaced only with `force`.
    Raises ReproError for bad input, UsageError for a bad name.
    """
    from symshrink.repro.parse import parse_file
    from symshrink.repro.render import render as render_plain
    from symshrink.standalone import render_standalone

    entry_dir = check_new_name(corpus, name, force)
    model = parse_file(minimal)  # ReproError (one line, file and line) if it does not parse
    try:
        render_standalone(model)
        standalone = True
    except ReproError as e:
        log.warning("%s: `corpus render` cannot write its retrace script: %s", name, e)
        standalone = False

    report, calibration = _run_records(run_dir) if run_dir is not None else (None, None)
    origin_path = origin
    if origin_path is None and report is not None and run_dir is not None:
        origin_path = _reported_origin(report, run_dir)
    if origin is not None and not origin.is_file():
        raise ReproError("origin script not found", origin)
    origin_text = None
    if origin_path is not None and origin_path.stat().st_size <= ORIGIN_MAX_BYTES:
        origin_text = origin_path.read_text()
    if origin_text is None and generate is None and origin_path is not None:
        generate = f"# the original ({origin_path.stat().st_size} bytes) was {origin_path.name}"

    settings = dict(report.options.torch_settings) if report is not None else {}
    settings.update(torch_settings or {})
    try:
        program: str | None = _program(model, name, settings)
        no_program = None
    except ReproError as e:
        program, no_program = None, str(e)
    case = _case(
        name,
        sizes=Side.of(model),
        standalone=standalone,
        report=report,
        calibration=calibration,
        origin_path=origin_path,
        origin_copied=origin_text is not None,
        generate=generate,
        ratio=ratio,
        torch_settings=settings,
        links=links,
    )
    case = replace(case, program=PROGRAM if program is not None else None, no_program=no_program)
    if force and entry_dir.exists():  # a replaced entry keeps no stale file
        for stale in (ORIGIN, GENERATE, SYMPY_REPRO, PROGRAM):
            (entry_dir / stale).unlink(missing_ok=True)
    atomic_write(entry_dir / REPRO, render_plain(model))
    if program is not None:
        atomic_write(entry_dir / PROGRAM, program)
    if origin_text is not None:
        atomic_write(entry_dir / ORIGIN, origin_text)
    if generate is not None:
        atomic_write(entry_dir / GENERATE, generate.rstrip("\n") + "\n")
    case.save(entry_dir / CASE)  # last: marks it complete
    return entry_dir


def check_new_name(corpus: Path, name: str, force: bool = False) -> Path:
    """The directory a new entry `name` would take; UsageError for a bad name, or for an
    entry that exists unless `force`."""
    if not _NAME.match(name):
        raise UsageError(f"bad entry name {name!r}: use letters, digits, '_', '-', '.'")
    entry_dir = Path(corpus) / name
    if entry_dir.exists() and not force:
        raise UsageError(f"entry {name!r} exists; pass --force to replace it", entry_dir)
    return entry_dir


def _run_records(run_dir: Path) -> tuple[RunRecord, Calibration | None]:
    """The minimize run's record and (the compile oracle's) calibration."""
    if not run_dir.is_dir():
        raise ReproError("run directory not found", run_dir)
    path = run_dir / CALIBRATION
    return RunRecord.load_from(run_dir), load_calibration(path) if path.is_file() else None


def _reported_origin(report: RunRecord, run_dir: Path) -> Path | None:
    """The original script named by the report: absolute, or beside the run directory."""
    for candidate in (Path(report.repro), run_dir.resolve().parent / report.repro):
        if candidate.is_file():
            return candidate
    return None


def _case(
    name: str,
    *,
    sizes: Side,
    standalone: bool,
    report: RunRecord | None,
    calibration: Calibration | None,
    origin_path: Path | None,
    origin_copied: bool,
    generate: str | None,
    ratio: float | None,
    torch_settings: dict[str, str],
    links: Sequence[str],
) -> Case:
    """case.json: no path of this machine in it (the entry's own files are named relative to
    it), so the entry means the same wherever the corpus is checked out."""
    after = sizes
    if report is not None:  # the script added is the truth for its symbols and operations
        after = replace(report.final, free_symbols=sizes.free_symbols, expr_ops=sizes.expr_ops)
        if after.ratio is not None:
            after = replace(after, measured_by="minimize's re-verification")
    recorded_torch = report.torch_version if report is not None else None
    return Case(
        name=name,
        added=_now(),
        origin=Origin(
            script=origin_path.name if origin_path is not None else None,
            file=ORIGIN if origin_copied else None,
            generate=generate,
        ),
        links=tuple(links),
        torch_version=recorded_torch or installed_version("torch"),
        torch_version_source="report" if recorded_torch else "installed at add",
        sympy_version=installed_version("sympy"),
        symshrink_version=installed_version("symshrink"),
        torch_settings=torch_settings,
        # R: still slow at R x its static twin; replay judges at it (None: DEFAULT_RATIO)
        ratio=ratio if ratio is not None else report.ratio if report is not None else None,
        baseline=(report.baseline if report is not None else None) or "static",
        clock=calibration.clock if calibration is not None else None,
        options=CaseOptions.taken_from(report.options) if report is not None else None,
        margin=_margin(report),
        oracle=report.oracle if report is not None else None,
        before=report.initial if report is not None else None,
        after=after,
        slow_phase=report.slow_phase if report is not None else None,
        calibrated_phases=calibration.phases if calibration is not None else None,
        signature=report.hot_spots if report is not None else None,
        reference=calibration.signature() if calibration is not None else None,
        minimize=RunSummary.taken_from(report) if report is not None else None,
        standalone=standalone,
    )


def _margin(report: RunRecord | None) -> float | None:
    """The margin the run's reduction used, else the one it was given."""
    if report is None:
        return None
    return report.margin_used if report.margin_used is not None else report.options.margin


# --------------------------------------------------------------------------------- list


@dataclass(frozen=True)
class Entry:
    name: str
    path: Path
    case: Case

    @property
    def repro(self) -> Path:
        """The minimal repro, plain after-aot layout."""
        return self.path / REPRO

    @property
    def program(self) -> Path | None:
        """Its torch.compile program (None: the model has none, `case.no_program` says why)."""
        return self.path / self.case.program if self.case.program is not None else None

    @property
    def clock(self) -> Clock:
        """The clock it was measured on (CPU unless recorded)."""
        return self.case.clock or "cpu"

    @property
    def ratio(self) -> float:
        """R: still slow at R x its static twin, as it was minimized (DEFAULT_RATIO for an
        entry minimized at an absolute threshold)."""
        return self.case.ratio or DEFAULT_RATIO

    @property
    def baseline(self) -> BaselineKind:
        """The control it was minimized against."""
        return self.case.baseline

    @property
    def twin_ratio(self) -> float | None:
        """Its time over its twin's as recorded (`after.measured_by` says by what)."""
        return self.case.after.ratio

    @property
    def reference(self) -> Signature | None:
        """The recorded hot spots that make the entry's slowness its own (None: unknown)."""
        return self.case.reference

    def rule(self, settings: Mapping[str, str], ratio: float) -> Rule:
        """How it is judged: at `ratio` x its control, on its clock, in its hot spots."""
        return Rule(ratio, self.baseline, self.clock, self.reference, settings)


def entries(corpus: Path, names: Sequence[str] = ()) -> list[Entry]:
    """The corpus's complete entries (a directory with case.json), sorted by name."""
    corpus = Path(corpus)
    if not corpus.is_dir():
        raise ReproError("corpus directory not found", corpus)
    found = {
        d.name: d
        for d in sorted(corpus.iterdir())
        if d.is_dir() and (d / CASE).is_file() and (d / REPRO).is_file()
    }
    missing = [n for n in names if n not in found]
    if missing:
        raise ReproError(f"no such entry: {', '.join(missing)}", corpus)
    chosen = list(names) if names else list(found)
    return [Entry(n, found[n], Case.load(found[n] / CASE)) for n in chosen]


def list_rows(corpus: Path) -> list[dict[str, Any]]:
    """One row per entry: name, sizes, recorded times against the twin, R, torch."""
    rows = []
    for e in entries(corpus):
        after, smallest = e.case.after, e.case.smallest_slow
        rows.append(
            {
                "name": e.name,
                "free_symbols": after.free_symbols,
                "expr_ops": after.expr_ops,
                "entry_s": after.slow_phase_s,
                "twin_s": after.baseline_s,
                "ratio": e.twin_ratio,
                "lower_bound": bool(after.lower_bound),
                "at_ratio": e.ratio,
                "torch_version": e.case.torch_version,
                "slow_phase": e.case.slow_phase,
                "smallest_slow": smallest.free_symbols if smallest is not None else None,
            }
        )
    return rows


def list_table(rows: Sequence[Mapping[str, Any]]) -> str:
    header = ("name", "symbols", "ops", "entry_s", "twin_s", "ratio", "R", "min_slow", "torch")
    body = [
        (
            r["name"],
            _cell(r["free_symbols"]),
            _cell(r["expr_ops"]),
            _bound(r["entry_s"], r["lower_bound"]),
            _cell(r["twin_s"]),
            _times(r["ratio"], r["lower_bound"]),
            f"{r['at_ratio']:g}",
            _cell(r["smallest_slow"]),
            _cell(r["torch_version"]),
        )
        for r in rows
    ]
    return _table(header, body)


def render(corpus: Path, name: str, *, program: bool = False) -> str:
    """Entry `name`'s retrace script (`standalone.render_standalone` of its repro.py: what
    `minimize` writes as min.py, with this symshrink's runtime), or with `program` its
    torch.compile program as `add` writes it into program.py. Raises ReproError for an
    unknown entry or a model that has no such script."""
    from symshrink.repro.parse import parse_file
    from symshrink.standalone import render_standalone

    (entry,) = entries(corpus, [name])
    model = parse_file(entry.repro)
    if program:
        return _program(model, name, entry.case.torch_settings)
    return render_standalone(model)


def _program(model: Repro, name: str, settings: Mapping[str, str]) -> str:
    """An entry's program.py: its name heads it, read from its repro.py."""
    from symshrink.program import render_program

    return render_program(model, name, REPRO, settings)


# ------------------------------------------------------------------------------- replay


VIAS = ("retrace", "program")  # how replay judges: symshrink's retrace, the entry's program
_VERDICT_OF_PROGRAM: dict[ProgramVerdict, CorpusVerdict] = {
    "slow": "still slow",
    "not slow": "fixed",
    "error": "error",
}


@dataclass
class Replay:
    """One entry replayed: its compile and its static twin's, measured in the same replay.

    `via` says how: `retrace` (symshrink's, the compile oracle's child: `entry_s` the
    entry, `twin_s` the median of its twin's runs) or `program` (its program.py compiled by
    torch.compile in fresh processes: `entry_s` the median of the dynamic runs, `twin_s`
    of the static ones). Both are on `clock`; `ratio` is their quotient, judged against
    `at_ratio` (R); both are lower bounds when `stopped` (the entry hit the timeout).
    `width` is the member of the entry's width family replayed (`Case.replay_width`).
    """

    name: str
    verdict: CorpusVerdict
    at_ratio: float
    via: str = "retrace"  # one of VIAS
    width: int | None = None
    entry_s: float | None = None
    twin_s: float | None = None
    ratio: float | None = None
    stopped: bool = False
    clock: str = "cpu"
    slow_phase: str | None = None
    phases: dict[str, float] = field(default_factory=dict)
    signature: list[str] = field(default_factory=list)
    torch_settings: dict[str, str] = field(default_factory=dict)
    detail: str = ""
    wall_s: float = 0.0


def replay(
    corpus: Path,
    *,
    names: Sequence[str] = (),
    torch_settings: Mapping[str, str] | None = None,
    timeout_s: float = 600.0,
    ratio: float | None = None,
    twin_runs: int = TWIN_RUNS,
    runner: Runner | None = None,
    record: bool = False,
    via: Sequence[str] = ("retrace",),
    own_width: bool = False,
) -> list[Replay]:
    """Judge every entry (or `names`) against its static twin, each way in `via`.

    `retrace`: as `minimize` judged it, still slow at R x its twin (R: `ratio`, else the R
    it was minimized at), the twin measured `twin_runs` times (median) just before the
    entry, both in the oracle's child (warm-forked from one pool for the whole replay
    unless `runner` is given), so both times share this machine's speed and load. The
    entry is not stopped at R x its twin, so `ratio` says how slow it is under this torch
    (at most `timeout_s` of wall time). Its recorded torch_settings apply, overridden by
    `torch_settings`. `program`: its program.py run `twin_runs` times static and dynamic
    in fresh processes (`program_check.check_program`), still slow when most dynamic runs
    take R x the static median (the settings it was rendered with; no hot spots judged).

    Each entry is replayed at its recorded clearly-slow width (`Case.replay_width`), else,
    or with `own_width`, as it is. With `record`, a retrace replay at the entry's own R and
    settings is kept in its case.json as this torch's last (`Case.replays`).
    """
    _check_options(timeout_s, ratio, twin_runs)
    if not via or not set(via) <= set(VIAS):
        raise UsageError(f"--via: one or more of {', '.join(VIAS)}, got {', '.join(via)}")
    if torch_settings and "program" in via:
        raise UsageError("--torch-setting does not reach program.py: it has its entry's own")
    chosen = entries(corpus, names)
    as_recorded = record and ratio is None and not torch_settings
    results = []
    # No warm pool (torch imported, beside the programs' runs) unless something retraces.
    with Bench(runner, twin_runs) if "retrace" in via else contextlib.nullcontext() as bench:
        for entry in chosen:
            at = ratio or entry.ratio
            width = _replay_width(entry, own_width)
            for way in dict.fromkeys(via):
                if way == "program":
                    result = _replay_program(entry, width, at, timeout_s, twin_runs)
                else:
                    assert bench is not None  # a Bench whenever something retraces
                    settings = {**entry.case.torch_settings, **(torch_settings or {})}
                    result = _replay_one(bench, entry, width, settings, timeout_s, at)
                    if as_recorded:
                        _keep_replay(entry, result)
                results.append(result)
    return results


def _replay_width(entry: Entry, own_width: bool) -> int | None:
    """The width to replay `entry` at: its recorded clearly-slow one (None: its own)."""
    recorded = entry.case.replay_width
    if own_width or recorded is None or recorded.width == recorded.own:
        return None
    return recorded.width


def _keep_replay(entry: Entry, result: Replay) -> None:
    """The entry's case.json with `result` as this torch's last replay."""
    torch = installed_version("torch") or "unknown"
    kept = Replayed(
        verdict=result.verdict,
        ratio=result.ratio,
        stopped=result.stopped,
        at_ratio=result.at_ratio,
        measured=_now(),
        width=result.width,
    )
    replays = {**(entry.case.replays or {}), torch: kept}
    replace(entry.case, replays=replays).save(entry.path / CASE)


def _check_options(timeout_s: float, ratio: float | None, twin_runs: int) -> None:
    if timeout_s <= 0 or (ratio is not None and ratio <= 0) or twin_runs < 1:
        raise UsageError("--timeout and --ratio must be > 0, --twin-runs >= 1")


def _replay_one(
    bench: Bench,
    entry: Entry,
    width: int | None,
    settings: dict[str, str],
    timeout_s: float,
    ratio: float,
) -> Replay:
    started = time.monotonic()
    candidate = _candidate_at(entry, width)
    measured = bench.measure(candidate, entry.rule(settings, ratio), timeout_s)
    run = measured.run
    return Replay(
        name=entry.name,
        at_ratio=ratio,
        width=width,
        clock=entry.clock,
        slow_phase=run.slow_phase if run is not None else None,
        phases=run.phase_times if run is not None else {},
        signature=list(measured.signature),
        torch_settings=settings,
        wall_s=round(time.monotonic() - started, 3),
        **measured.judged(),
    )


def _candidate_at(entry: Entry, width: int | None) -> Candidate:
    """The entry's repro as stored, or its member of its width family at `width`."""
    from symshrink.repro.parse import parse_file
    from symshrink.widths import at_width

    if width is None:
        return Candidate.read(entry.repro.read_text())
    member = at_width(parse_file(entry.repro), width)
    if member is None:
        raise ReproError(f"{entry.name} has no member of width {width}", entry.path / CASE)
    return Candidate.of(member)


def _replay_program(
    entry: Entry, width: int | None, ratio: float, timeout_s: float, runs: int
) -> Replay:
    """`entry` judged through its program.py, at `width` (its `--n`)."""
    from symshrink.program_check import check_program

    started = time.monotonic()
    unjudged = Replay(entry.name, "error", ratio, via="program", width=width)
    if entry.program is None:
        return replace(unjudged, detail=f"no program: {entry.case.no_program}")
    check = check_program(entry.program, ratio=ratio, runs=runs, n=width, timeout_s=timeout_s)
    return replace(
        unjudged,
        verdict=_VERDICT_OF_PROGRAM[check.verdict],
        entry_s=_median(check.dynamic_s),
        twin_s=_median(check.static_s),
        ratio=check.ratio,
        stopped=check.lower_bound,
        signature=list(check.hot_spots),
        torch_settings=dict(entry.case.torch_settings),
        detail=check.why,
        wall_s=round(time.monotonic() - started, 3),
    )


def _median(values: Sequence[float]) -> float | None:
    return round(statistics.median(values), 3) if values else None


def replay_record(results: Sequence[Replay], settings: Mapping[str, str]) -> dict[str, Any]:
    """A replay as JSON data: what `--json` prints and `--python` reads back."""
    return {
        "torch_version": installed_version("torch"),
        "sympy_version": installed_version("sympy"),
        "torch_settings": dict(settings),
        "entries": [asdict(r) for r in results],
    }


def replay_table(results: Sequence[Replay]) -> str:
    header = ("name", "via", "width", "entry_s", "twin_s", "ratio", "R", "verdict")
    body = [
        (
            r.name,
            r.via,
            "own" if r.width is None else str(r.width),
            _bound(r.entry_s, r.stopped),
            _cell(r.twin_s),
            _times(r.ratio, r.stopped),
            f"{r.at_ratio:g}",
            r.verdict + _why(r.verdict, r.detail),
        )
        for r in results
    ]
    return f"torch {installed_version('torch')}\n" + _table(header, body)


# ---------------------------------------------------------------- across torch versions


def replay_with(
    python: str,
    corpus: Path,
    *,
    names: Sequence[str],
    torch_settings: Mapping[str, str],
    timeout_s: float,
    ratio: float | None,
    twin_runs: int,
    via: Sequence[str] = ("retrace",),
    own_width: bool = False,
) -> dict[str, Any]:
    """`replay` run by another environment's interpreter (one with torch and symshrink
    installed), as `corpus replay --json`: its replay record. Raises ReproError if it fails."""
    cmd = [python, "-m", "symshrink", "corpus", "replay", *names, "--json"]
    cmd += ["--corpus", str(corpus.resolve()), "--timeout", str(timeout_s)]
    cmd += ["--twin-runs", str(twin_runs)]
    cmd += [f"--via={way}" for way in via] + (["--own-width"] if own_width else [])
    cmd += [f"--torch-setting={k}={v}" for k, v in torch_settings.items()]
    cmd += ["--ratio", str(ratio)] if ratio is not None else []
    total_s = 2 * (twin_runs + 1) * timeout_s * len(via) * max(1, len(names)) + 120.0
    try:
        code, out, err = run_in_group(cmd, timeout_s=total_s)
    except OSError as e:
        raise UsageError(f"--python {python}: {e}") from None
    if code is None:
        raise ReproError(f"--python {python}: still running after {total_s:g} s")
    if code != 0:
        last = (err.strip().splitlines() or ["no output"])[-1]
        raise ReproError(f"--python {python}: exit {code}: {last}")
    try:
        return json.loads(out)
    except json.JSONDecodeError as e:
        raise ReproError(f"--python {python}: not a replay record: {e}") from None


def versions_table(records: Sequence[Mapping[str, Any]]) -> str:
    """One row per entry and way (`via`), one column per replay record (torch version):
    ratio, times and verdict in each."""
    header = ("name", "via", "width", "R", *(f"torch {r['torch_version']}" for r in records))
    by_key = [{(e["name"], e.get("via", "retrace")): e for e in r["entries"]} for r in records]
    keys = list(dict.fromkeys(k for r in by_key for k in r))
    body = []
    for name, way in keys:
        rows = [r.get((name, way)) for r in by_key]
        first = next(r for r in rows if r is not None)
        width = "own" if first.get("width") is None else str(first["width"])
        at = f"{first['at_ratio']:g}"
        body.append((name, way, width, at, *(_versions_cell(r) for r in rows)))
    return _table(header, body)


def _versions_cell(row: Mapping[str, Any] | None) -> str:
    if row is None:
        return "-"
    if row["ratio"] is None:
        return row["verdict"]
    times = f"{_bound(row['entry_s'], row['stopped'])}/{_cell(row['twin_s'])}s"
    return f"{_times(row['ratio'], row['stopped'])} ({times}) {row['verdict']}"


# -------------------------------------------------------------------------------- sweep


@dataclass
class Sweep:
    """An entry's width family judged at R x each member's twin; `smallest` free symbols
    still slow."""

    name: str
    at_ratio: float
    clock: Clock
    points: list[WidthPoint]

    @property
    def smallest(self) -> int | None:
        slow = [p.free_symbols for p in self.points if p.verdict == "still slow"]
        return min(slow, default=None)

    def record(self) -> SmallestSlow:
        """What case.json keeps as `smallest_slow`: the finding and the points behind it."""
        return SmallestSlow(
            free_symbols=self.smallest,
            ratio=self.at_ratio,
            clock=self.clock,
            torch_version=installed_version("torch"),
            measured=_now(),
            points=tuple(self.points),
        )


def _now() -> str:
    """When a record was made: UTC to the second, as every case.json field of it is."""
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def sweep(
    corpus: Path,
    *,
    names: Sequence[str] = (),
    widths: Sequence[int] | None = None,
    timeout_s: float = 600.0,
    ratio: float | None = None,
    twin_runs: int = TWIN_RUNS,
    record: bool = True,
    runner: Runner | None = None,
) -> list[Sweep]:
    """Judge each entry's width family (`widths`, default 1 .. the entry's own) like `replay`,
    each member against its own static twin.

    Every member is measured (slowness need not be monotone in width: torch caps some
    sympy work at 20 terms). With `record`, each entry's case.json gets `smallest_slow`:
    the fewest free symbols at which it is still slow under this torch, at R x the twin
    (None: no member was). Entries without a sum are skipped.
    """
    from symshrink.repro.parse import parse_file
    from symshrink.widths import width

    _check_options(timeout_s, ratio, twin_runs)
    results = []
    with Bench(runner, twin_runs) as bench:
        for entry in entries(corpus, names):
            model = parse_file(entry.repro)
            own = width(model)
            if own == 0:
                log.warning("%s: no free symbol, nothing to sweep", entry.name)
                continue
            at = ratio or entry.ratio
            log.info("%s: its width family", entry.name)
            rule = entry.rule(entry.case.torch_settings, at)
            points = measure_widths(bench, model, widths or range(1, own + 1), rule, timeout_s)
            result = Sweep(entry.name, at, entry.clock, points)
            if record:
                replace(entry.case, smallest_slow=result.record()).save(entry.path / CASE)
            results.append(result)
    return results


def sweep_table(results: Sequence[Sweep]) -> str:
    body = [_point_row(r.name, r.at_ratio, p) for r in results for p in r.points]
    smallest = "".join(
        f"{r.name}: still slow from {_cell(r.smallest)} free symbols\n" for r in results
    )
    return _table(_POINT_HEADER, body) + smallest


_POINT_HEADER = ("name", "width", "free_symbols", "entry_s", "twin_s", "ratio", "R", "verdict")


def _point_row(name: str, at_ratio: float, p: WidthPoint, own: int | None = None) -> list[str]:
    """A member of a width family as a row under _POINT_HEADER (`(own)`: the entry's)."""
    return [
        name,
        str(p.width) + (" (own)" if p.width == own else ""),
        str(p.free_symbols),
        _bound(p.entry_s, p.stopped),
        _cell(p.twin_s),
        _times(p.ratio, p.stopped),
        f"{at_ratio:g}",
        p.verdict + _why(p.verdict, p.detail),
    ]


# -------------------------------------------------------------------- the replay width

CLEAR = 2.0  # clearly slow: still slow at CLEAR x R x its twin, where noise does not reach
WIDEN_BY = 16  # how many symbols past its own width `widen` looks by default


@dataclass
class Widened:
    """An entry's width family from its own width up, judged at R x each member's twin,
    until a member was clearly slow (`width`: at `factor` x R or more)."""

    name: str
    at_ratio: float
    factor: float
    clock: Clock
    own: int
    points: list[WidthPoint]

    @property
    def width(self) -> int | None:
        return min((p.width for p in self.points if self._clear(p)), default=None)

    @property
    def slow(self) -> int | None:
        return min((p.width for p in self.points if p.verdict == "still slow"), default=None)

    def _clear(self, p: WidthPoint) -> bool:
        return p.verdict == "still slow" and (p.ratio or 0.0) >= self.factor * self.at_ratio

    def record(self) -> ReplayWidth:
        """What case.json keeps as `replay_width`."""
        return ReplayWidth(
            width=self.width,
            slow=self.slow,
            own=self.own,
            factor=self.factor,
            ratio=self.at_ratio,
            clock=self.clock,
            torch_version=installed_version("torch"),
            measured=_now(),
            points=tuple(self.points),
        )


def widen(
    corpus: Path,
    *,
    names: Sequence[str] = (),
    max_width: int | None = None,
    factor: float = CLEAR,
    timeout_s: float = 600.0,
    ratio: float | None = None,
    twin_runs: int = TWIN_RUNS,
    record: bool = True,
    runner: Runner | None = None,
) -> list[Widened]:
    """Judge each entry's width family like `sweep`, from its own width up one symbol at a
    time, until a member is still slow at `factor` x R x its twin or more, or at
    `max_width` (default: its own + WIDEN_BY; a family without a sum to extend has no
    member past its own, and one whose member fails, e.g. a view whose size no longer
    fits, ends there).
    With `record`, each entry's case.json gets `replay_width`, the width `replay` judges
    it at from then on: an entry 1-minimal at R sits at R, where a replay's verdict is
    noise, and a clearly slow member's verdict is not. Entries without a free symbol are
    skipped."""
    from symshrink.repro.parse import parse_file
    from symshrink.widths import width

    _check_options(timeout_s, ratio, twin_runs)
    if factor < 1:
        raise ReproError("--factor must be >= 1")
    results = []
    with Bench(runner, twin_runs) as bench:
        for entry in entries(corpus, names):
            model = parse_file(entry.repro)
            own = width(model)
            if own == 0:
                log.warning("%s: no free symbol, no width family", entry.name)
                continue
            at = ratio or entry.ratio
            rule = entry.rule(entry.case.torch_settings, at)
            result = Widened(entry.name, at, factor, entry.clock, own, [])
            for w in range(own, (max_width or own + WIDEN_BY) + 1):
                found = measure_widths(bench, model, [w], rule, timeout_s)
                result.points += found
                # A member that fails (the next fails the same way), or found. (A width with
                # no valid member is skipped: the next may have one.)
                if any(p.verdict == "error" for p in found) or result.width is not None:
                    break
            log.info("%s: clearly slow at width %s", entry.name, _cell(result.width))
            if record:
                replace(entry.case, replay_width=result.record()).save(entry.path / CASE)
            results.append(result)
    return results


def widen_table(results: Sequence[Widened]) -> str:
    body = [_point_row(r.name, r.at_ratio, p, r.own) for r in results for p in r.points]
    found = "".join(
        f"{r.name}: clearly slow (>= {r.factor:g} x R) from width {_cell(r.width)}, "
        f"slow from {_cell(r.slow)} (its own {r.own})\n"
        for r in results
    )
    return _table(_POINT_HEADER, body) + found


# ------------------------------------------------------------------- sympy reproducers


def sympy_repros(
    corpus: Path, *, names: Sequence[str] = (), timeout_s: float = 300.0, shrink: bool = True
) -> list[tuple[str, SympyRepro]]:
    """Write each entry's sympy-only reproducer (`symshrink.sympy_repro.build` on its
    repro.py, with its torch settings) as `sympy_repro.py` when its replay verifies, and
    record it in case.json's `sympy_repro`: the calls recorded, their seconds in the compile
    and with sympy alone, or `file: None` and why there is none. Returns (name, record)
    per entry."""
    results = []
    for entry in entries(corpus, names):
        record = _sympy_repro(entry, timeout_s, shrink)
        if record.file is None:
            (entry.path / SYMPY_REPRO).unlink(missing_ok=True)
        replace(entry.case, sympy_repro=record).save(entry.path / CASE)
        results.append((entry.name, record))
        log.info("%s: %s", entry.name, record.why or record.file)
    return results


def _sympy_repro(entry: Entry, timeout_s: float, shrink: bool) -> SympyRepro:
    """The record of one entry; a verified script is written into the entry."""
    from symshrink import sympy_repro as sr

    with tempfile.TemporaryDirectory(prefix="symshrink-sympy-") as tmp:
        script = Path(tmp) / REPRO  # the recording names the script: no path of this machine
        script.write_text(entry.repro.read_text())
        out = Path(tmp) / SYMPY_REPRO
        doc = f"The sympy calls of corpus entry {entry.name} (symshrink corpus sympy-repro)."
        try:
            built = sr.build(
                script,
                out,
                timeout=timeout_s,
                do_shrink=shrink,
                torch_settings=entry.case.torch_settings,
                doc=doc,
            )
        except sr.RecordError as e:
            return SympyRepro(file=None, script=REPRO, why=str(e).replace(f"{tmp}/", ""))
        full, kept = built.recording, built.kept
        record = SympyRepro(
            file=None,
            script=REPRO,
            functions=tuple(sorted({c.function for c in full.calls})),
            compile_s=full.compile_s,
            calls=len(full.calls),
            calls_s=_rounded(full.cpu_s),
            replay_s=tuple(round(s, 3) for s in built.full_runs) or None,
            verified=built.verified,
            sympy_version=installed_version("sympy"),
            measured=_now(),
        )
        if kept is None:
            return replace(record, why=built.why)
        atomic_write(entry.path / SYMPY_REPRO, out.read_text())
        return replace(
            record,
            file=SYMPY_REPRO,
            kept=len(kept.calls),
            kept_s=_rounded(kept.cpu_s),
            kept_replay_s=tuple(round(s, 3) for s in built.kept_runs),
            control_s=_rounded(built.control_s),
        )


def _rounded(v: float | None) -> float | None:
    return None if v is None else round(v, 3)


# -------------------------------------------------------------------------------- table


def _why(verdict: str, detail: str) -> str:
    """The oracle's detail where the verdict needs it: an error, or another cause."""
    return f" ({detail})" if detail and verdict in ("error", "slow, other cause") else ""


def _bound(v: float | None, stopped: bool) -> str:
    """A measured value, `>=` when the run was stopped (a lower bound)."""
    return (">=" if stopped and v is not None else "") + _cell(v)


def _times(v: float | None, stopped: bool) -> str:
    """A ratio to the twin, `4.57x`; `>=` when the run was stopped."""
    return "-" if v is None else (">=" if stopped else "") + f"{v:.2f}x"


def _cell(v: Any) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.3f}" if abs(v) < 1e6 else f"{v:.3g}"
    return str(v)


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(str(c)) for c in col) for col in zip(header, *rows, strict=True)]
    lines = [
        "  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
        for row in (header, *rows)
    ]
    return "\n".join(lines) + "\n"

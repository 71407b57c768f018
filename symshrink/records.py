"""The records a run leaves on disk, typed: what `minimize` writes into its work directory
(`report.json`), a corpus entry's `case.json`, and the report's program measurements, with
the file names of both directories.

Each record is a frozen dataclass read and written by one codec driven by its field types,
so a record symshrink wrote loads back equal, and every reader sees fields, not keys of a
dict that may be missing. A field whose value is None is left out of the file where
older files leave it out (`OMIT_NONE`), so every file the code wrote before this module
existed loads, and rewriting one (a corpus sweep) changes only what it means to. A file of
another format, one cut short or edited into something else, or a field of the wrong type
is one ReproError naming the file and the field.
"""

from __future__ import annotations

import json
import statistics
import types
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields, is_dataclass
from pathlib import Path
from typing import Any, ClassVar, Literal, TypeVar, Union, get_args, get_origin, get_type_hints

from symshrink.baseline import BaselineKind
from symshrink.errors import ReproError
from symshrink.files import atomic_write
from symshrink.graph import SymGraph
from symshrink.oracle.calibrate import Calibration
from symshrink.oracle.signature import Signature
from symshrink.passes import SCHEDULE
from symshrink.repro.model import Repro
from symshrink.sandbox import Clock
from symshrink.verdict import Verdict

__all__ = [
    "CALIBRATION",
    "CAPTURE",
    "CASE",
    "CONTROLS",
    "GENERATE",
    "JOURNAL",
    "JUDGED_BY",
    "LOCK",
    "ORIGIN",
    "PROGRAM",
    "PROGRAM_SWEEP",
    "REPORT",
    "REPRO",
    "SYMPY_REPRO",
    "TRIAGE",
    "CaptureFrame",
    "CaptureGraph",
    "CaptureRecord",
    "Case",
    "CaseOptions",
    "CorpusVerdict",
    "Origin",
    "ProgramCheck",
    "ProgramSweep",
    "ProgramVerdict",
    "ReplayWidth",
    "Replayed",
    "RunOptions",
    "RunRecord",
    "RunSummary",
    "Side",
    "SmallestSlow",
    "SympyRepro",
    "Triage",
    "TriageMatch",
    "TriageVerdict",
    "WidthFamily",
    "WidthPoint",
    "load_calibration",
    "median_is_lower_bound",
]

# A minimize work directory.
JOURNAL = "journal.jsonl"  # the verdicts by candidate key (journal.py)
CONTROLS = "controls.jsonl"  # the measured times of the candidates' controls
CALIBRATION = "calibration.json"  # the original's measurements (oracle/calibrate.py)
JUDGED_BY = "judged_by.json"  # what the journal's verdicts depend on (--resume checks it)
REPORT = "report.json"  # RunRecord
LOCK = "lock"  # flock'd while a run uses the directory; holds its pid
PROGRAM_SWEEP = "program_sweep.json"  # ProgramSweep: `symshrink report`'s measurements, reused

# A corpus entry, corpora/<name>/.
REPRO = "repro.py"  # the minimal repro, in torch's plain after-aot layout
PROGRAM = "program.py"  # it as a torch.compile program (program.render_program)
CASE = "case.json"  # Case; written last, so its presence marks the entry complete
ORIGIN = "origin.py"  # a copy of the original, when it is small
GENERATE = "generate.txt"  # else the command that writes it
SYMPY_REPRO = "sympy_repro.py"  # the sympy-only reproducer: the compile's sympy calls replayed

# A capture directory and a triage directory.
CAPTURE = "capture.json"  # CaptureRecord
TRIAGE = "triage.json"  # Triage

CorpusVerdict = Literal["still slow", "fixed", "slow, other cause", "error"]

R = TypeVar("R", bound="_Record")
OMIT_NONE = {"omit_none": True}  # a field's metadata: None is written as no key at all


class _Invalid(Exception):
    """A value that does not fit its field: where (the field's path) and what is wrong."""

    def __init__(self, where: str, what: str) -> None:
        super().__init__(f"{where or 'the file'}: {what}")


class _Record:
    """A dataclass the codec reads and writes field by field."""

    def to_dict(self) -> dict[str, Any]:
        return _encode(self)

    @classmethod
    def taken_from(cls: type[R], source: object) -> R:
        """The record of `source`'s attributes of the same names as its fields."""
        return cls(**{f.name: getattr(source, f.name) for f in fields(cls)})  # type: ignore[arg-type]

    @classmethod
    def from_dict(cls: type[R], data: Any, where: str = "") -> R:
        """The record in `data` (JSON values); _Invalid names the first field that is not."""
        if not isinstance(data, dict):
            raise _Invalid(where, "expected a JSON object")
        known = {f.name: f for f in fields(cls)}  # type: ignore[arg-type]
        unknown = [k for k in data if k not in known]
        if unknown:
            raise _Invalid(_join(where, unknown[0]), "not a field of this record")
        hints = get_type_hints(cls)
        values = {}
        for name, f in known.items():
            if name in data:
                values[name] = _decode(hints[name], data[name], _join(where, name))
            elif f.default is MISSING and f.default_factory is MISSING:
                raise _Invalid(_join(where, name), "missing")
        return cls(**values)


class _File(_Record):
    """A record that is a whole file, with its format number: `load` refuses another."""

    FILE: ClassVar[str]
    FORMAT: ClassVar[int]
    FORMAT_BEFORE: ClassVar[int | None] = None  # what a file without "format" is, if any

    @classmethod
    def load(cls: type[F], path: Path) -> F:
        """The record in `path`; a ReproError naming it when it is not one this symshrink reads."""
        data = _read_object(path)
        written = data.get("format", cls.FORMAT_BEFORE)
        if written != cls.FORMAT:
            what = "no format" if written is None else f"format {written!r}"
            raise ReproError(
                f"{what}: this symshrink reads {cls.FILE} of format {cls.FORMAT} "
                "(written by another version, or not a record at all)",
                path,
            )
        try:
            return cls.from_dict(data)
        except _Invalid as e:
            raise ReproError(f"not a {cls.FILE} symshrink wrote: {e}", path) from None

    def save(self, path: Path) -> None:
        """Atomically, as indented JSON."""
        atomic_write(path, json.dumps(self.to_dict(), indent=2) + "\n")


F = TypeVar("F", bound=_File)


def load_calibration(path: Path) -> Calibration:
    """The oracle's saved calibration; cut short or edited, a ReproError naming it (every
    verdict and the report's hot spots rest on it)."""
    try:
        cal = Calibration.load(path)
        valid = cal.clock in ("cpu", "wall")
    except (OSError, ValueError, KeyError, TypeError, AttributeError, IndexError):
        valid = False
    if not valid:
        raise ReproError(
            "not a calibration symshrink wrote (cut short or edited?); "
            "remove it to measure the original again",
            path,
        )
    return cal


# ------------------------------------------------------------------------- report.json


@dataclass(frozen=True, kw_only=True)
class RunOptions(_Record):
    """The minimize options a run recorded (the CLI's names), enough to rebuild its command."""

    timeout: float
    ratio: float
    baseline: BaselineKind
    threshold: float | None
    test: str | None
    jobs: int
    scheduler: str | None
    torch_settings: dict[str, str]
    signature: bool
    margin: float | None
    confirm: int
    max_calls: int | None = None  # runs before --max-calls existed had no such limit
    # runs before --floor existed had no floor (it is --floor 0)
    floor: float | None = field(default=None, metadata=OMIT_NONE)
    max_time: float | None = None
    # runs before --graph-first existed had no such stage, and no such key
    graph_first: bool | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, kw_only=True)
class Side(_Record):
    """A model's sizes and, where the compile oracle measured it, its time on the oracle's
    clock against its control's (`lower_bound`: the run was stopped there, so the time and
    the ratio are at least these)."""

    free_symbols: int
    symints: int
    expr_ops: int
    inputs: int
    slow_phase_s: float | None = field(default=None, metadata=OMIT_NONE)
    lower_bound: bool | None = field(default=None, metadata=OMIT_NONE)
    baseline_s: float | None = field(default=None, metadata=OMIT_NONE)
    ratio: float | None = field(default=None, metadata=OMIT_NONE)
    # a corpus entry's: what measured the times
    measured_by: str | None = field(default=None, metadata=OMIT_NONE)

    @classmethod
    def of(cls, repro: Repro) -> Side:
        """The sizes of a model, unmeasured."""
        sizes = SymGraph(repro).sizes()
        return cls(
            free_symbols=sizes.free_symbols,
            symints=sizes.symints,
            expr_ops=sizes.expr_ops,
            inputs=len(repro.inputs),
        )


@dataclass(frozen=True, kw_only=True)
class RunRecord(_File):
    """A finished minimize run: report.json.

    The fields from `ratio` on are the compile oracle's (absent for a `--test` run):
    R (None at an absolute threshold), the control, the original's limit, the floor (the
    least a slow candidate ran, in ratio mode) and the margin the reduction used, and the
    result's re-verification.
    """

    FILE: ClassVar[str] = REPORT
    FORMAT: ClassVar[int] = 1
    FORMAT_BEFORE: ClassVar[int | None] = 1  # written before the format was recorded

    format: int = FORMAT
    repro: str  # the original, absolute
    out: str  # the minimized script, absolute
    torch_version: str | None
    sympy_version: str | None = None
    symshrink_version: str | None = None
    options: RunOptions
    oracle: Literal["test", "compile"]
    oracle_calls: int
    speculative_unused: int = 0
    accepted: int
    cache_hits: int
    seconds: float
    stopped_by: str | None  # the reducer's budget words: `max_calls=3`, `interrupted`
    fixpoint: bool
    per_pass: dict[str, dict[str, int]]  # pass -> answers it used ("calls") and took ("accepted")
    # the graph passes ran first as a stage with every limit this many times higher
    # (2R over the margin: minimize_stages.graph_first); None: no such stage
    graph_first: float | None = field(default=None, metadata=OMIT_NONE)
    # the passes at R in the order they ran (minimize_stages.stages); None: passes.SCHEDULE
    passes: tuple[str, ...] | None = field(default=None, metadata=OMIT_NONE)
    initial: Side
    final: Side
    ratio: float | None = field(default=None, metadata=OMIT_NONE)
    baseline: BaselineKind | None = field(default=None, metadata=OMIT_NONE)
    threshold_s: float | None = field(default=None, metadata=OMIT_NONE)
    # None: no floor (an absolute threshold, or a run from before the floor existed)
    floor_s: float | None = field(default=None, metadata=OMIT_NONE)
    margin_used: float | None = field(default=None, metadata=OMIT_NONE)
    # every run on the work directory
    oracle_calls_total: int | None = field(default=None, metadata=OMIT_NONE)
    reverified: bool | None = field(default=None, metadata=OMIT_NONE)
    walked_back: int | None = field(default=None, metadata=OMIT_NONE)
    reverify_verdicts: tuple[Verdict, ...] | None = field(default=None, metadata=OMIT_NONE)
    # the result as a torch.compile program (absolute; None: none was written) and its
    # check against static shapes (None: not run, a --test run or an interrupted one)
    program: str | None = field(default=None, metadata=OMIT_NONE)
    program_check: ProgramCheck | None = field(default=None, metadata=OMIT_NONE)

    @property
    def order_at_r(self) -> tuple[str, ...]:
        """The passes at R in the order the run had them (a record without: the default)."""
        return self.passes or SCHEDULE

    @property
    def slow_reverified(self) -> tuple[Verdict, ...]:
        """The re-verification's runs that were slow (none for a `--test` run)."""
        return tuple(v for v in self.reverify_verdicts or () if v.interesting)

    @property
    def slow_phase(self) -> str | None:
        """The phase the result was slow in, most often over its re-verification."""
        phases = Counter(v.slow_phase for v in self.slow_reverified if v.slow_phase)
        return phases.most_common(1)[0][0] if phases else None

    @property
    def hot_spots(self) -> tuple[str, ...] | None:
        """The result's hottest functions, as its first slow re-verification run sampled."""
        slow = self.slow_reverified
        return slow[0].signature if slow else None

    @property
    def stopped_by_option(self) -> str:
        """`stopped_by` as the option that set the budget: `max_time=60.0` -> `--max-time 60`."""
        name, _, value = (self.stopped_by or "an unknown cause").partition("=")
        if not value:
            return "an interrupt" if name == "interrupted" else name
        return f"--{name.replace('_', '-')} {float(value):g}"

    @classmethod
    def load_from(cls, work_dir: Path) -> RunRecord:
        """The record of the run in `work_dir`; none there: not a finished run."""
        path = work_dir / REPORT
        if not path.is_file():
            raise ReproError(f"no {REPORT}: not a finished minimize run", work_dir)
        return cls.load(path)


# --------------------------------------------------------------------------- case.json


@dataclass(frozen=True, kw_only=True)
class Origin(_Record):
    """The original: its file name, the entry's copy of it, or the command that writes it."""

    script: str | None
    file: str | None
    generate: str | None


@dataclass(frozen=True, kw_only=True)
class CaseOptions(_Record):
    """The run's options an entry keeps (`test` may name a script of that machine)."""

    ratio: float
    baseline: BaselineKind
    threshold: float | None
    margin: float | None
    confirm: int
    signature: bool


@dataclass(frozen=True, kw_only=True)
class RunSummary(_Record):
    """What the minimize run behind an entry did."""

    oracle_calls: int
    seconds: float
    fixpoint: bool
    stopped_by: str | None
    # a --test run re-verifies nothing
    reverified: bool | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, kw_only=True)
class WidthPoint(_Record):
    """One member of a width family (its widest sum cut or extended to `width` symbols)
    measured to its end, or to the timeout, against its own static twin and judged at R x
    that twin. Times are on the judging oracle's clock (CPU seconds of the child);
    `phases` are the child's own phase seconds (None: not recorded)."""

    width: int
    free_symbols: int
    verdict: CorpusVerdict
    entry_s: float | None
    twin_s: float | None
    ratio: float | None
    stopped: bool = False
    detail: str = ""
    phases: dict[str, float] | None = field(default=None, metadata=OMIT_NONE)

    @property
    def status(self) -> Literal["ok", "timeout", "error"]:
        """How the run ended: it finished, it hit the timeout, or it (or its twin) failed."""
        if self.verdict == "error":
            return "error"
        return "timeout" if self.stopped else "ok"


@dataclass(frozen=True, kw_only=True)
class WidthFamily(_Record):
    """A measurement of an entry's width family: each member judged at `ratio` (R) x its
    own twin on `clock`, under `torch_version`, at `measured` (ISO time)."""

    ratio: float
    clock: Clock
    torch_version: str | None
    measured: str
    points: tuple[WidthPoint, ...]


@dataclass(frozen=True, kw_only=True)
class SmallestSlow(WidthFamily):
    """The fewest free symbols at which an entry's width family is still slow at R x each
    member's twin (None: no member was), with the points behind it."""

    free_symbols: int | None


@dataclass(frozen=True, kw_only=True)
class ReplayWidth(WidthFamily):
    """Where an entry's width family is clearly slow, measured from its own width up one
    symbol at a time (`points`, each against its own twin): the smallest width still slow
    at `factor` x R x its twin or more (`width`; None: none up to the widest measured) and
    the smallest still slow at R (`slow`). `corpus replay` judges the entry at `width`
    (else at its own): minimized to be 1-minimal at R, the entry itself sits at R, where a
    replay's verdict is noise."""

    width: int | None
    slow: int | None
    own: int
    factor: float


@dataclass(frozen=True, kw_only=True)
class SympyRepro(_Record):
    """An entry's sympy-only reproducer (`symshrink.sympy_repro`): the `calls` of
    `functions` recorded in order while `script` compiled (their CPU seconds there,
    `calls_s`, of the compile's `compile_s`), replayed by sympy alone from a cold cache in
    fresh processes (`replay_s`, one per run); `verified` when every run took at least
    half of `calls_s`. Then `file` replays `kept` of the calls (`kept_s` of CPU in the
    compile, `kept_replay_s` alone in its own verifying runs; `control_s` the same calls
    with every symbol an integer); else `file: None` and `why`, with the numbers."""

    file: str | None
    script: str
    functions: tuple[str, ...] | None = field(default=None, metadata=OMIT_NONE)
    compile_s: float | None = field(default=None, metadata=OMIT_NONE)
    calls: int | None = field(default=None, metadata=OMIT_NONE)
    calls_s: float | None = field(default=None, metadata=OMIT_NONE)
    replay_s: tuple[float, ...] | None = field(default=None, metadata=OMIT_NONE)
    verified: bool | None = field(default=None, metadata=OMIT_NONE)
    kept: int | None = field(default=None, metadata=OMIT_NONE)
    kept_s: float | None = field(default=None, metadata=OMIT_NONE)
    kept_replay_s: tuple[float, ...] | None = field(default=None, metadata=OMIT_NONE)
    control_s: float | None = field(default=None, metadata=OMIT_NONE)
    sympy_version: str | None = field(default=None, metadata=OMIT_NONE)
    measured: str | None = field(default=None, metadata=OMIT_NONE)  # ISO time
    why: str | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, kw_only=True)
class Replayed(_Record):
    """An entry's last replay under one torch version: the verdict at R (`at_ratio`) and
    its ratio to the twin (a lower bound when `stopped`)."""

    verdict: CorpusVerdict
    ratio: float | None
    stopped: bool
    at_ratio: float
    measured: str  # ISO time
    width: int | None = field(default=None, metadata=OMIT_NONE)  # None: the entry's own


@dataclass(frozen=True, kw_only=True)
class Case(_File):
    """A corpus entry's case.json: where it came from and what the run's oracle judged with,
    naming no path of the machine that made it.

    `ratio` is R, the ratio to the static twin it was minimized at (None: minimized at an
    absolute threshold; it replays at DEFAULT_RATIO). `before` / `after` are the original's
    and the entry's sizes and times, `reference` the original's hot spots (replay's and the
    sweep's slippage guard). Entries minimized before the ratio verdict keep their old
    numbers in `legacy`, a note for people (no code reads it). `replays` keeps each torch
    version's last replay: what `triage` says of a match ("still slow on this torch").
    """

    FILE: ClassVar[str] = CASE
    FORMAT: ClassVar[int] = 2  # 2: judged by the ratio to the static twin, no machine paths

    format: int = FORMAT
    name: str
    added: str  # ISO time
    origin: Origin
    links: tuple[str, ...] = ()  # the issue or PR it came from
    torch_version: str | None
    torch_version_source: str  # "report" or "installed at add"
    sympy_version: str | None
    sympy_version_source: str | None = field(default=None, metadata=OMIT_NONE)
    symshrink_version: str | None
    torch_settings: dict[str, str]
    ratio: float | None
    baseline: BaselineKind
    clock: Clock | None
    options: CaseOptions | None = field(default=None, metadata=OMIT_NONE)
    margin: float | None
    oracle: Literal["test", "compile"] | None
    before: Side | None = field(default=None, metadata=OMIT_NONE)
    after: Side
    slow_phase: str | None
    calibrated_phases: tuple[str, ...] | None
    signature: tuple[str, ...] | None
    reference: Signature | None
    minimize: RunSummary | None = field(default=None, metadata=OMIT_NONE)
    standalone: bool  # `corpus render` can write the retrace script (the code printer can)
    program: str | None = field(default=None, metadata=OMIT_NONE)  # PROGRAM, if it has one
    no_program: str | None = field(default=None, metadata=OMIT_NONE)  # else why not
    legacy: dict[str, Any] | None = field(default=None, metadata=OMIT_NONE)
    smallest_slow: SmallestSlow | None = field(default=None, metadata=OMIT_NONE)
    replay_width: ReplayWidth | None = field(default=None, metadata=OMIT_NONE)
    sympy_repro: SympyRepro | None = field(default=None, metadata=OMIT_NONE)
    # the last replay under each torch version (`corpus replay --record`)
    replays: dict[str, Replayed] | None = field(default=None, metadata=OMIT_NONE)


# ------------------------------------------------------------------- a program's check

ProgramVerdict = Literal[
    "slow",  # the dynamic compile took R x the static one or more, in most runs
    "close",  # it did not, but their median is within the oracle's band below R
    "not slow",  # further below: the pathology shows only through symshrink's retrace
    "error",  # a run failed (the program's own error in `why`)
    "no program",  # the repro has no program (`why`: the renderer's reason)
]


@dataclass(frozen=True, kw_only=True)
class ProgramCheck(_Record):
    """A repro's `torch.compile` program (`program_check.check_program`) run in fresh
    processes, dynamic against static, and judged at R (`at_ratio`) x the static median.

    `dynamic_s` and `static_s` are CPU seconds of the compile and first call, one per run
    (`stopped`: the dynamic runs that were stopped before their end, so their seconds are
    lower bounds); `ratio` is the median over the median; `hot_spots` are where the
    dynamic runs spent their CPU (`oracle.sampler`'s spots). `why` says in one line what
    decided the verdict."""

    verdict: ProgramVerdict
    why: str
    at_ratio: float
    n: int | None = None  # the program's width (--n); None: its own
    backend: str = "inductor"
    dynamic_s: tuple[float, ...] = ()
    static_s: tuple[float, ...] = ()
    stopped: tuple[bool, ...] = ()
    ratio: float | None = None
    hot_spots: tuple[str, ...] = ()
    torch_version: str | None = None

    @property
    def reproduces(self) -> bool:
        """Whether the pathology shows through torch.compile."""
        return self.verdict == "slow"

    @property
    def lower_bound(self) -> bool:
        """Whether `ratio` is a lower bound (`median_is_lower_bound`)."""
        return median_is_lower_bound(self.dynamic_s, self.stopped)


def median_is_lower_bound(values: Sequence[float], stopped: Sequence[bool]) -> bool:
    """Whether the median of `values` is only a lower bound: some value at or below it is
    one of a run that was `stopped` (its true value may be higher, and so the median). A
    stopped run already above the median only goes further up."""
    if not values:
        return False
    median = statistics.median(values)
    return any(s and v <= median for v, s in zip(values, stopped, strict=False))


@dataclass(frozen=True, kw_only=True)
class ProgramSweep(_File):
    """The checks of a result's program that `symshrink report` made (at its widths, and
    with each backend at its default width), reused by the next report of the same program
    text (`key`: its hash) at the same R and timeout."""

    FILE: ClassVar[str] = PROGRAM_SWEEP
    FORMAT: ClassVar[int] = 1

    format: int = FORMAT
    key: str
    timeout_s: float
    ratio: float
    checks: tuple[ProgramCheck, ...]


# ------------------------------------------------------------------------- capture.json


@dataclass(frozen=True, kw_only=True)
class CaptureFrame(_Record):
    """One compile of one frame: wall seconds in all and split into Dynamo, AOTAutograd and
    Inductor (its graphs), `done` False when the program was stopped during it."""

    frame: str
    where: str
    seconds: float
    done: bool
    dynamo_s: float
    aot_s: float
    inductor_s: float
    graphs: tuple[str, ...]

    @property
    def before_graph_s(self) -> float:
        """Its seconds before any of its graphs existed (Dynamo and AOTAutograd): what no
        after-aot repro can reproduce."""
        return self.dynamo_s + self.aot_s


@dataclass(frozen=True, kw_only=True)
class CaptureGraph(_Record):
    """A graph that reached Inductor and was written (`file`, beside capture.json): its
    Inductor compile in wall seconds (`done` False: still compiling when stopped), the
    phase that took most of it, and its free symbols read back from the file (None: it
    did not parse)."""

    graph: str
    file: str | None
    frame: str
    kind: str
    seconds: float
    done: bool
    phase: str
    phases: dict[str, float]
    check: str | None
    free_symbols: int | None = field(default=None, metadata=OMIT_NONE)
    widest: str | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, kw_only=True)
class CaptureRecord(_File):
    """What `symshrink capture` saw: capture.json. `graphs` are the written ones, slowest
    first; `problem` says why none was written (None: some were); `exit_code` is the
    program's own (0 when capture stopped it)."""

    FILE: ClassVar[str] = CAPTURE
    FORMAT: ClassVar[int] = 1
    FORMAT_BEFORE: ClassVar[int | None] = 1  # written before the format was recorded

    format: int = FORMAT
    program: tuple[str, ...]
    torch: str | None
    exit_code: int
    stopped_at_timeout: bool
    timeout: float | None
    min_seconds: float
    skipped: int
    frames: tuple[CaptureFrame, ...]
    graphs: tuple[CaptureGraph, ...]
    problem: str | None = field(default=None, metadata=OMIT_NONE)
    seconds: float | None = field(default=None, metadata=OMIT_NONE)  # the whole run, wall
    signal: int | None = field(default=None, metadata=OMIT_NONE)  # SIGINT / SIGTERM received


# -------------------------------------------------------------------------- triage.json

TriageVerdict = Literal[
    "new",  # a minimal (or reduced) repro, no corpus entry scores KNOWN_AT
    "known",  # a corpus entry's pathology again
    "not slow",  # the graph chosen is not slow against its static twin
    "no symbols",  # no graph with a free symbol reached Inductor
    "outside any graph",  # the time went to Dynamo / AOTAutograd, before any graph existed
    "no graph",  # nothing reached Inductor (no torch.compile, another backend)
    "program failed",  # the program failed before a graph was written
    "interrupted",  # SIGINT / SIGTERM before there was a result
]


@dataclass(frozen=True, kw_only=True)
class TriageMatch(_Record):
    """A corpus entry scored against the result: `score` from 0 to 1 (`match.KNOWN_AT`
    and up: the same pathology), the verdict of the entry's last replay under this torch
    (`still slow`, `fixed`, ...; None: never replayed under it) and its shape."""

    entry: str
    score: float
    replay: str | None = field(default=None, metadata=OMIT_NONE)
    shape: str | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, kw_only=True)
class Triage(_File):
    """What `symshrink triage` did and found: triage.json.

    `seconds` is wall time per stage (`capture`, `minimize`, `match`, `report`), within
    `budget_s`. `free_symbols_*` and `ratio_*` (to the static twin, through symshrink's
    retrace) are the chosen graph's before and after the reduction; `program_ratio` the
    result's through its `torch.compile` program (None: not measured). `minimal` False is
    a result the budget cut short (not minimal yet). `files` are relative to the triage
    directory."""

    FILE: ClassVar[str] = TRIAGE
    FORMAT: ClassVar[int] = 1

    format: int = FORMAT
    verdict: TriageVerdict
    why: str
    exit_code: int
    program: tuple[str, ...] | None
    repro: str | None
    graph: str | None
    budget_s: float
    seconds: dict[str, float]
    total_s: float
    free_symbols_before: int | None = None
    free_symbols_after: int | None = None
    ratio_before: float | None = None
    ratio_after: float | None = None
    program_ratio: float | None = None
    minimal: bool | None = None
    stopped_by: str | None = None
    match: TriageMatch | None = None
    candidates: tuple[TriageMatch, ...] = ()
    shape: str | None = None
    files: dict[str, str] = field(default_factory=dict)
    torch_version: str | None
    sympy_version: str | None
    symshrink_version: str | None


# -------------------------------------------------------------------------------- codec


def _read_object(path: Path) -> dict[str, Any]:
    """The JSON object in `path`; a ReproError naming it for anything else."""
    try:
        data = json.loads(path.read_bytes())
    except OSError as e:
        raise ReproError(f"cannot read: {e.strerror}", path) from None
    except ValueError as e:  # JSONDecodeError and UnicodeDecodeError both are
        raise ReproError(f"not valid JSON: {e}", path) from None
    if not isinstance(data, dict):
        raise ReproError("not valid here: expected a JSON object", path)
    return data


def _join(where: str, name: str) -> str:
    return f"{where}.{name}" if where else name


def _encode(value: Any) -> Any:
    """JSON values: records field by field (None-omitted fields left out), the oracle's
    own records by their `to_dict`, tuples as lists."""
    if isinstance(value, _Record):
        return {
            f.name: _encode(getattr(value, f.name))
            for f in fields(value)  # type: ignore[arg-type]
            if not (f.metadata.get("omit_none") and getattr(value, f.name) is None)
        }
    if is_dataclass(value) and not isinstance(value, type):
        return value.to_dict()  # type: ignore[attr-defined]
    if isinstance(value, tuple | list):
        return [_encode(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _encode(v) for k, v in value.items()}
    return value


_SCALARS: dict[type, tuple[type, ...]] = {
    bool: (bool,),
    int: (int,),
    float: (int, float),  # JSON writes 4.0 as 4.0 but a person may write 4; kept as written
    str: (str,),
}


def _decode(tp: Any, value: Any, where: str) -> Any:
    """`value` as a `tp` (a field's type), or _Invalid."""
    origin = get_origin(tp)
    if tp is Any:
        return value
    if origin in (Union, types.UnionType):
        args = get_args(tp)
        if value is None and type(None) in args:
            return None
        (inner,) = (a for a in args if a is not type(None))
        return _decode(inner, value, where)
    if origin is Literal:
        choices = get_args(tp)
        if not any(value == c and type(value) is type(c) for c in choices):
            raise _Invalid(where, f"expected one of {', '.join(map(repr, choices))}, got {value!r}")
        return value
    if tp in _SCALARS:
        ok = isinstance(value, _SCALARS[tp]) and (tp is bool or not isinstance(value, bool))
        if not ok:
            raise _Invalid(where, f"expected {tp.__name__}, got {value!r}")
        return value
    if origin is tuple:
        if not isinstance(value, list):
            raise _Invalid(where, f"expected a list, got {value!r}")
        (item, _) = get_args(tp)  # tuple[X, ...]
        return tuple(_decode(item, v, f"{where}[{i}]") for i, v in enumerate(value))
    if origin is dict:
        if not isinstance(value, dict):
            raise _Invalid(where, f"expected an object, got {value!r}")
        _, item = get_args(tp)
        return {k: _decode(item, v, _join(where, k)) for k, v in value.items()}
    if isinstance(tp, type) and issubclass(tp, _Record):
        return tp.from_dict(value, where)
    if isinstance(tp, type) and hasattr(tp, "from_dict"):  # Verdict, Signature: their own
        if not isinstance(value, dict):
            raise _Invalid(where, "expected a JSON object")
        try:
            return tp.from_dict(value)
        except (KeyError, TypeError, ValueError) as e:
            raise _Invalid(where, f"not a {tp.__name__}: {e}") from None
    raise TypeError(f"no codec for {tp!r}")  # a field type this module does not handle

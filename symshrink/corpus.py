"""A corpus of minimized pathologies: `corpora/<name>/`, replayed against any torch.

Each entry is a directory holding

- `minimal.py`: the standalone minimal repro (`python minimal.py` needs only torch);
- `case.json`: where it came from (names relative to the entry, or the command that
  writes the original: no path of the machine that made it), the torch and sympy
  versions and `torch_settings` it was recorded with, sizes before and after
  minimization (`free_symbols`, `expr_ops`), the entry's time, its static twin's and
  their ratio (`slow_phase_s`, `baseline_s`, `ratio`), R (`ratio` at the top: the ratio
  it was minimized at), the slow phase and the hot spots it was judged by;
- `origin.py`, a copy of the original script when it is small, or `generate.txt`, the
  command that writes it (e.g. `python tests/fixtures_gen.py OUT --family floordiv_sum`);
- `sympy_repro.py` (written by `sympy_repros`, a step after `add`: it costs a compile and
  a shrink), the slowest call of the sympy function that dominates the compile, runnable
  with sympy alone; case.json's `sympy_repro` records its seconds, or why there is none.

`replay` judges every entry as `minimize` judged it: the compile oracle's child (warm
forked, `--no-native-compile`, the entry's recorded torch settings) measures the entry's
static twin and the entry itself in the same replay, and the entry is `still slow` when
it is still compiling at R x its twin, else `fixed` (`slow, other cause`: slow, but not in
its recorded hot spots; `error`). Seconds do not travel between machines; the ratio of
two runs on the same machine under the same load does. So a maintainer sees which
pathologies still hurt under this torch and these settings, and `--python` puts other
environments' torch versions beside it. `sweep` measures each entry's width family the
same way and records in case.json the fewest free symbols at which it is still slow.
This module imports no torch (the oracle's children do).
"""

from __future__ import annotations

import datetime
import json
import logging
import re
import subprocess
import tempfile
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from symshrink import installed_version
from symshrink.errors import ReproError
from symshrink.files import atomic_write
from symshrink.oracle import Calibration, CompileOracle, Judging, Workload
from symshrink.oracle.cache import ControlTimes
from symshrink.oracle.calibrate import DEFAULT_RATIO
from symshrink.oracle.pool import WarmPool
from symshrink.oracle.profile import Clock
from symshrink.oracle.runner import Run, Runner
from symshrink.oracle.signature import Signature

if TYPE_CHECKING:
    from symshrink.baseline import BaselineKind

__all__ = [
    "CASE",
    "GENERATE",
    "MINIMAL",
    "ORIGIN",
    "SYMPY_REPRO",
    "VERDICTS",
    "Entry",
    "Replay",
    "add",
    "entries",
    "find_dir",
    "list_rows",
    "list_table",
    "replay",
    "replay_record",
    "replay_table",
    "replay_with",
    "sympy_repros",
    "versions_table",
]

MINIMAL = "minimal.py"
CASE = "case.json"
ORIGIN = "origin.py"
GENERATE = "generate.txt"
SYMPY_REPRO = "sympy_repro.py"
ORIGIN_MAX_BYTES = 64_000  # larger originals are recorded by the command that writes them
VERDICTS = ("still slow", "fixed", "slow, other cause", "error")
CASE_FORMAT = 2  # 2: judged by the ratio to the static twin, no machine paths
# The run's options case.json keeps (`test` may name a script of that machine).
MINIMIZE_OPTIONS = ("ratio", "baseline", "threshold", "margin", "confirm", "signature")

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

    The script must parse with symshrink's parser; one that is not yet standalone is
    written in the standalone form (`render_output`). `run_dir` (a minimize work
    directory) fills case.json from its report.json and calibration.json; `ratio` (R) and
    `torch_settings` override what the run recorded; `links` are the issue or PR URLs of
    the report it came from. The original is copied when
    given (or named by the report) and at most ORIGIN_MAX_BYTES, else `generate` (a
    command) is recorded. An existing entry is replaced only with `force`.
    Raises ReproError for bad input.
    """
    from symshrink.minimize import measures
    from symshrink.repro.parse import parse_file
    from symshrink.standalone import is_standalone, render_output

    if not _NAME.match(name):
        raise ReproError(f"bad entry name {name!r}: use letters, digits, '_', '-', '.'")
    entry_dir = Path(corpus) / name
    if entry_dir.exists() and not force:
        raise ReproError(f"entry {name!r} exists; pass --force to replace it", entry_dir)
    model = parse_file(minimal)  # ReproError (one line, file and line) if it does not parse
    text = minimal.read_text()
    standalone = is_standalone(text)
    if not standalone:
        text = render_output(model)
        standalone = is_standalone(text)

    report, calibration = _run_records(run_dir) if run_dir is not None else ({}, {})
    origin_path = origin if origin is not None else _reported_origin(report, run_dir)
    if origin is not None and not origin.is_file():
        raise ReproError("origin script not found", origin)
    origin_text = None
    if origin_path is not None and origin_path.stat().st_size <= ORIGIN_MAX_BYTES:
        origin_text = origin_path.read_text()
    if origin_text is None and generate is None and origin_path is not None:
        generate = f"# the original ({origin_path.stat().st_size} bytes) was {origin_path.name}"

    case = _case(
        name,
        after_measures=measures(model),
        standalone=standalone,
        report=report,
        calibration=calibration,
        origin_path=origin_path,
        origin_copied=origin_text is not None,
        generate=generate,
        ratio=ratio,
        torch_settings=torch_settings,
        links=links,
    )
    if force and entry_dir.exists():  # a replaced entry keeps no stale origin file
        for stale in (ORIGIN, GENERATE, SYMPY_REPRO):
            (entry_dir / stale).unlink(missing_ok=True)
    atomic_write(entry_dir / MINIMAL, text)
    if origin_text is not None:
        atomic_write(entry_dir / ORIGIN, origin_text)
    if generate is not None:
        atomic_write(entry_dir / GENERATE, generate.rstrip("\n") + "\n")
    atomic_write(entry_dir / CASE, json.dumps(case, indent=2) + "\n")  # last: marks it complete
    return entry_dir


def _run_records(run_dir: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    from symshrink.minimize import CALIBRATION, REPORT

    if not run_dir.is_dir():
        raise ReproError("run directory not found", run_dir)
    report = _read_json(run_dir / REPORT, required=True)
    calibration = _read_json(run_dir / CALIBRATION, required=False)
    return report, calibration


def _read_json(path: Path, *, required: bool) -> dict[str, Any]:
    if not path.is_file():
        if required:
            raise ReproError("missing (is this a minimize work directory?)", path)
        return {}
    try:
        data = json.loads(path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ReproError(f"not valid JSON: {e}", path) from None
    if not isinstance(data, dict):
        raise ReproError("expected a JSON object", path)
    return data


def _reported_origin(report: Mapping[str, Any], run_dir: Path | None) -> Path | None:
    """The original script named by the report: absolute, or beside the run directory."""
    repro = report.get("repro")
    if not repro or run_dir is None:
        return None
    for candidate in (Path(repro), run_dir.resolve().parent / repro):
        if candidate.is_file():
            return candidate
    return None


def _case(
    name: str,
    *,
    after_measures: dict[str, int],
    standalone: bool,
    report: Mapping[str, Any],
    calibration: Mapping[str, Any],
    origin_path: Path | None,
    origin_copied: bool,
    generate: str | None,
    ratio: float | None,
    torch_settings: Mapping[str, str] | None,
    links: Sequence[str],
) -> dict[str, Any]:
    """case.json: no path of this machine in it (the entry's own files are named relative to
    it), so the entry means the same wherever the corpus is checked out."""
    options = report.get("options") or {}
    settings = dict(options.get("torch_settings") or {})
    settings.update(torch_settings or {})
    after = {**after_measures, **(report.get("final") or {})}
    after["free_symbols"] = after_measures["free_symbols"]  # the script added is the truth
    after["expr_ops"] = after_measures["expr_ops"]
    if "ratio" in after:
        after["measured_by"] = "minimize's re-verification"
    verdicts = [v for v in report.get("reverify_verdicts") or [] if v.get("interesting")]
    phases = Counter(v["slow_phase"] for v in verdicts if v.get("slow_phase"))
    torch_version = report.get("torch_version") or installed_version("torch")
    return {
        "format": CASE_FORMAT,
        "name": name,
        "added": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "origin": {
            "script": origin_path.name if origin_path is not None else None,
            "file": ORIGIN if origin_copied else None,
            "generate": generate,
        },
        "links": list(links),
        "torch_version": torch_version,
        "torch_version_source": "report" if report.get("torch_version") else "installed at add",
        "sympy_version": installed_version("sympy"),
        "symshrink_version": installed_version("symshrink"),
        "torch_settings": settings,
        # R: still slow at R x its static twin; replay judges at it (None: DEFAULT_RATIO)
        "ratio": ratio if ratio is not None else report.get("ratio"),
        "baseline": report.get("baseline") or "static",
        "clock": calibration.get("clock"),
        "options": {k: options[k] for k in MINIMIZE_OPTIONS if k in options},
        "margin": report.get("margin_used", options.get("margin")),
        "oracle": report.get("oracle"),
        "before": dict(report.get("initial") or {}),
        "after": after,
        "slow_phase": phases.most_common(1)[0][0] if phases else None,
        "calibrated_phases": calibration.get("phases"),
        "signature": verdicts[0].get("signature") if verdicts else None,
        "reference": _reference(calibration),
        "minimize": {
            k: report[k]
            for k in ("oracle_calls", "seconds", "fixpoint", "stopped_by", "reverified")
            if k in report
        },
        "standalone": standalone,
    }


def _reference(calibration: Mapping[str, Any]) -> dict | None:
    """The original's hot spots as the run's oracle sampled them: replay and sweep judge
    'still slow' by the same cause. None without profiles."""
    if not calibration.get("profiles"):
        return None
    signature = Calibration.from_dict(dict(calibration)).signature()
    return signature.to_dict() if signature is not None else None


# --------------------------------------------------------------------------------- list


@dataclass
class Entry:
    name: str
    path: Path
    case: dict[str, Any]

    @property
    def minimal(self) -> Path:
        return self.path / MINIMAL

    @property
    def clock(self) -> Clock:
        """The clock it was measured on."""
        return self.case.get("clock") or "cpu"

    @property
    def ratio(self) -> float:
        """R: still slow at R x its static twin, as it was minimized (DEFAULT_RATIO for an
        entry minimized at an absolute threshold)."""
        return self.case.get("ratio") or DEFAULT_RATIO

    @property
    def baseline(self) -> BaselineKind:
        """The control it was minimized against (its static twin unless recorded)."""
        return self.case.get("baseline") or "static"

    @property
    def twin_ratio(self) -> float | None:
        """Its time over its twin's as recorded (`after.measured_by` says by what)."""
        return (self.case.get("after") or {}).get("ratio")

    @property
    def reference(self) -> Signature | None:
        """The recorded hot spots that make the entry's slowness its own (None: unknown)."""
        data = self.case.get("reference")
        return Signature.from_dict(data) if data else None


def entries(corpus: Path, names: Sequence[str] = ()) -> list[Entry]:
    """The corpus's complete entries (a directory with case.json), sorted by name."""
    corpus = Path(corpus)
    if not corpus.is_dir():
        raise ReproError("corpus directory not found", corpus)
    found = {
        d.name: d
        for d in sorted(corpus.iterdir())
        if d.is_dir() and (d / CASE).is_file() and (d / MINIMAL).is_file()
    }
    missing = [n for n in names if n not in found]
    if missing:
        raise ReproError(f"no such entry: {', '.join(missing)}", corpus)
    chosen = list(names) if names else list(found)
    return [Entry(n, found[n], _read_json(found[n] / CASE, required=True)) for n in chosen]


def list_rows(corpus: Path) -> list[dict[str, Any]]:
    """One row per entry: name, sizes, recorded times against the twin, R, torch."""
    rows = []
    for e in entries(corpus):
        after = e.case.get("after") or {}
        rows.append(
            {
                "name": e.name,
                "free_symbols": after.get("free_symbols"),
                "expr_ops": after.get("expr_ops"),
                "entry_s": after.get("slow_phase_s"),
                "twin_s": after.get("baseline_s"),
                "ratio": e.twin_ratio,
                "lower_bound": bool(after.get("lower_bound")),
                "at_ratio": e.ratio,
                "torch_version": e.case.get("torch_version"),
                "slow_phase": e.case.get("slow_phase"),
                "smallest_slow": (e.case.get("smallest_slow") or {}).get("free_symbols"),
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


# ------------------------------------------------------------------------------- replay


@dataclass
class Replay:
    """One entry replayed: its compile and its static twin's, measured in the same replay.

    `entry_s` and `twin_s` (the median of the twin's runs) are on `clock`; `ratio` is
    their quotient, judged against `at_ratio` (R); both are lower bounds when `stopped`
    (the entry hit the timeout).
    """

    name: str
    verdict: str
    at_ratio: float
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


_VERDICT_OF_STATUS = {
    "slow": "still slow",
    "fast": "fixed",
    "error": "error",
    "slipped": "slow, other cause",
}
TWIN_RUNS = 3


def replay(
    corpus: Path,
    *,
    names: Sequence[str] = (),
    torch_settings: Mapping[str, str] | None = None,
    timeout_s: float = 600.0,
    ratio: float | None = None,
    twin_runs: int = TWIN_RUNS,
    runner: Runner | None = None,
) -> list[Replay]:
    """Retrace every entry (or `names`) and its static twin through the compile oracle.

    Each entry is judged as `minimize` judged it: still slow at R x its twin (R: `ratio`,
    else the R it was minimized at), the twin measured `twin_runs` times (median) just
    before the entry, both in the oracle's child (warm-forked from one pool for the whole
    replay unless `runner` is given), so both times share this machine's speed and load.
    The entry is not stopped at R x its twin, so `ratio` says how slow it is under this
    torch (at most `timeout_s` of wall time). Its recorded torch_settings apply,
    overridden by `torch_settings`.
    """
    _check_options(timeout_s, ratio, twin_runs)
    chosen = entries(corpus, names)
    with Judge(runner, twin_runs) as judge:
        results = []
        for entry in chosen:
            settings = {**(entry.case.get("torch_settings") or {}), **(torch_settings or {})}
            results.append(_replay_one(judge, entry, settings, timeout_s, ratio or entry.ratio))
    return results


def _check_options(timeout_s: float, ratio: float | None, twin_runs: int) -> None:
    if timeout_s <= 0 or (ratio is not None and ratio <= 0) or twin_runs < 1:
        raise ReproError("--timeout and --ratio must be > 0, --twin-runs >= 1")


def _replay_one(
    judge: Judge, entry: Entry, settings: dict[str, str], timeout_s: float, ratio: float
) -> Replay:
    started = time.monotonic()
    judged = judge(entry, entry.minimal.read_text(), settings, ratio, timeout_s)
    run = judged.run
    return Replay(
        name=entry.name,
        verdict=judged.verdict,
        at_ratio=ratio,
        entry_s=judged.entry_s,
        twin_s=judged.twin_s,
        ratio=judged.ratio,
        stopped=judged.stopped,
        clock=entry.clock,
        slow_phase=run.slow_phase if run is not None else None,
        phases=run.phase_times if run is not None else {},
        signature=list(judged.signature),
        torch_settings=settings,
        detail=judged.detail,
        wall_s=round(time.monotonic() - started, 3),
    )


@dataclass(frozen=True)
class Judged:
    """A full run of an entry (or a member of its family) against its twin, in corpus words.

    `run` is None when the twin could not be measured (then the verdict is `error`)."""

    run: Run | None
    verdict: str
    detail: str
    entry_s: float | None = None  # on the entry's clock; a lower bound when `stopped`
    twin_s: float | None = None
    ratio: float | None = None
    stopped: bool = False
    signature: tuple[str, ...] = ()


class Judge:
    """Full runs of entries and their static twins, each judged by a ratio compile oracle of
    its own settings, clock and R, all on one runner (a warm pool unless given), so torch
    is imported once; each twin is measured `twin_runs` times, once per replay."""

    def __init__(self, runner: Runner | None = None, twin_runs: int = TWIN_RUNS) -> None:
        self.runner = runner if runner is not None else WarmPool(slots=1)
        self.twin_runs = twin_runs
        self.controls = ControlTimes()  # in memory: twins measured in this replay only
        self._scratch = tempfile.TemporaryDirectory(prefix="symshrink-corpus-")

    def __call__(
        self,
        entry: Entry,
        source: str,
        settings: Mapping[str, str],
        ratio: float,
        timeout_s: float,
    ) -> Judged:
        """Measure `source`'s twin, run `source` to the end (or `timeout_s` of wall time),
        and judge it at `ratio` x the twin on `entry`'s clock: `slow, other cause` when
        slow but not in the entry's recorded hot spots (none recorded: any cause)."""
        clock, reference = entry.clock, entry.reference
        oracle = CompileOracle(
            Calibration(clock, (), 0.0, ratio=ratio, baseline=entry.baseline),
            self.runner,
            workload=Workload(retrace={"torch_settings": dict(settings)}),
            judging=Judging(
                timeout_s=timeout_s, signature=reference is not None, control_runs=self.twin_runs
            ),
            controls=self.controls,
            scratch=Path(self._scratch.name),
            reference=reference,
        )
        limit = oracle.limit(source)
        if isinstance(limit, str):
            return Judged(run=None, verdict="error", detail=limit)
        run = oracle.run(source, kill_at=None, timeout_s=timeout_s)
        # Hot spots as minimize saw them: its runs stopped at R x the twin.
        seen = run if run.profile is None else replace(run, profile=run.profile.cut(limit.seconds))
        verdict = oracle.verdict([seen], limit.seconds, limit.baseline_s)
        return Judged(
            run=run,
            verdict=_VERDICT_OF_STATUS[verdict.status],
            detail=verdict.detail,
            entry_s=round(run.measure(clock), 3),
            twin_s=None if limit.baseline_s is None else round(limit.baseline_s, 3),
            ratio=None if verdict.ratio is None else round(verdict.ratio, 2),
            stopped=run.exit.reason != "exited",
            signature=verdict.signature,
        )

    def __enter__(self) -> Judge:
        return self

    def __exit__(self, *exc: object) -> None:
        self.runner.close()
        self._scratch.cleanup()


def replay_record(results: Sequence[Replay], settings: Mapping[str, str]) -> dict[str, Any]:
    """A replay as JSON data: what `--json` prints and `--python` reads back."""
    return {
        "torch_version": installed_version("torch"),
        "sympy_version": installed_version("sympy"),
        "torch_settings": dict(settings),
        "entries": [asdict(r) for r in results],
    }


def replay_table(results: Sequence[Replay]) -> str:
    header = ("name", "entry_s", "twin_s", "ratio", "R", "verdict")
    body = [
        (
            r.name,
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
) -> dict[str, Any]:
    """`replay` run by another environment's interpreter (one with torch and symshrink
    installed), as `corpus replay --json`: its replay record. Raises ReproError if it fails."""
    cmd = [python, "-m", "symshrink", "corpus", "replay", *names, "--json"]
    cmd += ["--corpus", str(corpus.resolve()), "--timeout", str(timeout_s)]
    cmd += ["--twin-runs", str(twin_runs)]
    cmd += [f"--torch-setting={k}={v}" for k, v in torch_settings.items()]
    cmd += ["--ratio", str(ratio)] if ratio is not None else []
    total_s = (twin_runs + 1) * timeout_s * max(1, len(names)) + 120.0
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=total_s)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise ReproError(f"--python {python}: {e}") from None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise ReproError(f"--python {python}: exit {done.returncode}: {last}")
    try:
        return json.loads(done.stdout)
    except json.JSONDecodeError as e:
        raise ReproError(f"--python {python}: not a replay record: {e}") from None


def versions_table(records: Sequence[Mapping[str, Any]]) -> str:
    """One row per entry, one column per replay record (torch version): ratio, times and
    verdict in each."""
    header = ("name", "R", *(f"torch {r['torch_version']}" for r in records))
    by_name = [{e["name"]: e for e in r["entries"]} for r in records]
    names = list(dict.fromkeys(n for r in by_name for n in r))
    body = []
    for name in names:
        rows = [r.get(name) for r in by_name]
        at = next(r["at_ratio"] for r in rows if r is not None)
        body.append((name, f"{at:g}", *(_versions_cell(r) for r in rows)))
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
class WidthVerdict:
    """One member of an entry's width family (its widest sum cut to `width` symbols),
    judged against its own twin."""

    width: int
    free_symbols: int
    verdict: str
    entry_s: float | None
    twin_s: float | None
    ratio: float | None
    stopped: bool = False
    detail: str = ""


@dataclass
class Sweep:
    """An entry's width family judged at R x each member's twin; `smallest` free symbols
    still slow."""

    name: str
    at_ratio: float
    clock: str
    points: list[WidthVerdict]

    @property
    def smallest(self) -> int | None:
        slow = [p.free_symbols for p in self.points if p.verdict == "still slow"]
        return min(slow, default=None)

    def record(self) -> dict[str, Any]:
        """What case.json keeps as `smallest_slow`: the finding and the points behind it."""
        return {
            "free_symbols": self.smallest,
            "ratio": self.at_ratio,
            "clock": self.clock,
            "torch_version": installed_version("torch"),
            "measured": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            "points": [asdict(p) for p in self.points],
        }


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
    from symshrink.repro.render import render
    from symshrink.widths import at_width, width

    _check_options(timeout_s, ratio, twin_runs)
    results = []
    with Judge(runner, twin_runs) as judge:
        for entry in entries(corpus, names):
            model = parse_file(entry.minimal)
            own = width(model)
            if own == 0:
                log.warning("%s: no free symbol, nothing to sweep", entry.name)
                continue
            at = ratio or entry.ratio
            settings = entry.case.get("torch_settings") or {}
            points = []
            for w in sorted(set(widths or range(1, own + 1))):
                member = at_width(model, w)
                if member is None:
                    continue
                judged = judge(entry, render(member), settings, at, timeout_s)
                points.append(
                    WidthVerdict(
                        width=w,
                        free_symbols=len(member.hints),
                        verdict=judged.verdict,
                        entry_s=judged.entry_s,
                        twin_s=judged.twin_s,
                        ratio=judged.ratio,
                        stopped=judged.stopped,
                        detail=judged.detail,
                    )
                )
                log.info("%s width %d: %s", entry.name, w, points[-1].verdict)
            result = Sweep(entry.name, at, entry.clock, points)
            if record:
                case = {**entry.case, "smallest_slow": result.record()}
                atomic_write(entry.path / CASE, json.dumps(case, indent=2) + "\n")
            results.append(result)
    return results


def sweep_table(results: Sequence[Sweep]) -> str:
    header = ("name", "width", "free_symbols", "entry_s", "twin_s", "ratio", "R", "verdict")
    body = [
        (
            r.name,
            str(p.width),
            str(p.free_symbols),
            _bound(p.entry_s, p.stopped),
            _cell(p.twin_s),
            _times(p.ratio, p.stopped),
            f"{r.at_ratio:g}",
            p.verdict + _why(p.verdict, p.detail),
        )
        for r in results
        for p in r.points
    ]
    smallest = "".join(
        f"{r.name}: still slow from {_cell(r.smallest)} free symbols\n" for r in results
    )
    return _table(header, body) + smallest


# ------------------------------------------------------------------- sympy reproducers

# One sympy function "dominates" an entry when its calls hold at least this share of the
# entry's compile; its slowest call is then the entry's sympy-only reproducer.
DOMINANT_SHARE = 0.5
SYMPY_SLOW_S = 0.1  # a reproducer that runs faster than this shows nothing


def sympy_repros(
    corpus: Path, *, names: Sequence[str] = (), timeout_s: float = 300.0, shrink: bool = True
) -> list[tuple[str, dict[str, Any]]]:
    """Write each entry's sympy-only reproducer (`symshrink.sympy_repro.build` on its
    minimal.py, else its origin.py) as `sympy_repro.py` where one sympy function dominates
    that script's compile, and record in case.json `sympy_repro`: the script it came from,
    the file and its seconds with sympy alone, or `file: null` and why there is none (no
    sympy call could be rebuilt without torch, or no function holds DOMINANT_SHARE of the
    compile). Returns (name, record) per entry."""
    results = []
    for entry in entries(corpus, names):
        record = _sympy_repro(entry, timeout_s, shrink)
        if record["file"] is None:
            (entry.path / SYMPY_REPRO).unlink(missing_ok=True)
        case = {**entry.case, "sympy_repro": record}
        atomic_write(entry.path / CASE, json.dumps(case, indent=2) + "\n")
        results.append((entry.name, record))
        log.info("%s: %s", entry.name, record.get("why") or record["file"])
    return results


def _sympy_repro(entry: Entry, timeout_s: float, shrink: bool) -> dict[str, Any]:
    """One entry's `sympy_repro` record, from its minimal.py, else from its origin.py (the
    original, where the pathology is widest and one function more often dominates); a
    kept script is written into the entry."""
    records = [
        _sympy_repro_of(entry, name, timeout_s, shrink)
        for name in (MINIMAL, ORIGIN)
        if (entry.path / name).is_file()
    ]
    kept = next((r for r in records if r["file"] is not None), None)
    if kept is not None:
        return kept
    return {**records[0], "why": "; ".join(f"{r['script']}: {r['why']}" for r in records)}


def _sympy_repro_of(entry: Entry, name: str, timeout_s: float, shrink: bool) -> dict[str, Any]:
    """The `sympy_repro` record of the entry's script `name`."""
    from symshrink import sympy_repro as sr

    with tempfile.TemporaryDirectory(prefix="symshrink-sympy-") as tmp:
        script = Path(tmp) / name  # the capture names the script: no path of this machine
        script.write_text((entry.path / name).read_text())
        try:
            outcome = sr.build(script, Path(tmp) / SYMPY_REPRO, timeout=timeout_s, do_shrink=shrink)
        except sr.CaptureError as e:
            return {"file": None, "script": name, "why": str(e).replace(f"{tmp}/", "")}
        call, shrunk = outcome.captured, outcome.shrunk
        compile_s, function_s = outcome.compile_s, outcome.function_s
        share = function_s / compile_s if compile_s and function_s is not None else None
        standalone_s = shrunk.seconds if shrunk is not None else outcome.standalone_s
        record: dict[str, Any] = {
            "file": None,
            "script": name,
            "function": call.function,
            "compile_s": _rounded(compile_s),
            "function_s": _rounded(function_s),
            "share": _rounded(share),
            "call_s": _rounded(call.seconds),
            "sympy_alone_s": _rounded(standalone_s),
            "terms": [shrunk.terms_before, shrunk.terms_after] if shrunk is not None else None,
            "threshold_s": _rounded(outcome.threshold),
            "sympy_version": installed_version("sympy"),
            "measured": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        }
        if share is None or share < DOMINANT_SHARE:
            why = (
                f"no sympy function dominates: {call.function} holds {_cell(share)} of the compile"
            )
        elif not outcome.out.is_file() or standalone_s is None or standalone_s < SYMPY_SLOW_S:
            why = (
                f"{call.function}'s slowest call ({_cell(call.seconds)} s in the compile) "
                f"takes {_cell(standalone_s)} s with sympy alone"
            )
        else:
            atomic_write(entry.path / SYMPY_REPRO, outcome.out.read_text())
            return {**record, "file": SYMPY_REPRO}
        return {**record, "why": why}


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

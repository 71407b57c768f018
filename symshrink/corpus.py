"""A corpus of minimized pathologies: `corpora/<name>/`, replayed against any torch.

Each entry is a directory holding

- `minimal.py`: the standalone minimal repro (`python minimal.py` needs only torch);
- `case.json`: where it came from, the torch version and `torch_settings` it was
  recorded with, sizes and times before and after minimization (`free_symbols`,
  `expr_ops`, `slow_phase_s`), the slow phase and signature when known, and the
  threshold (seconds) that counted as slow;
- `origin.py`, a copy of the original script when it is small, or `generate.txt`, the
  command that writes it (e.g. `python tests/fixtures_gen.py OUT --family floordiv_sum`).

`replay` judges every entry as `minimize` judged it: the compile oracle's child (warm
forked, `--no-native-compile`, the entry's recorded torch settings), on the recorded
clock (CPU seconds of the child), against `factor` × the recorded threshold: `still
slow`, `fixed` or `error`. So a maintainer sees which pathologies still hurt under this
torch and these settings. `sweep` measures each entry's width family the same way and
records in case.json the fewest free symbols at which it is still slow. This module
imports no torch (the oracle's children do).
"""

from __future__ import annotations

import datetime
import json
import logging
import re
import tempfile
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from symshrink import installed_version
from symshrink.errors import ReproError
from symshrink.files import atomic_write
from symshrink.oracle import Calibration, CompileOracle, Judging, Workload
from symshrink.oracle.pool import WarmPool
from symshrink.oracle.profile import Clock
from symshrink.oracle.runner import Run, Runner
from symshrink.oracle.signature import Signature

__all__ = [
    "CASE",
    "GENERATE",
    "MINIMAL",
    "ORIGIN",
    "VERDICTS",
    "Entry",
    "Replay",
    "add",
    "entries",
    "find_dir",
    "list_rows",
    "list_table",
    "replay",
    "replay_table",
]

MINIMAL = "minimal.py"
CASE = "case.json"
ORIGIN = "origin.py"
GENERATE = "generate.txt"
ORIGIN_MAX_BYTES = 64_000  # larger originals are recorded by the command that writes them
VERDICTS = ("still slow", "fixed", "slow, other cause", "error", "no threshold")
CASE_FORMAT = 1

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
    threshold_s: float | None = None,
    torch_settings: Mapping[str, str] | None = None,
    force: bool = False,
) -> Path:
    """Add `minimal` to `corpus` as `name`; returns the entry's directory.

    The script must parse with symshrink's parser; one that is not yet standalone is
    written in the standalone form (`render_output`). `run_dir` (a minimize work
    directory) fills case.json from its report.json and calibration.json; `threshold_s`
    and `torch_settings` override what the run recorded. The original is copied when
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
        generate = f"# the original ({origin_path.stat().st_size} bytes) was {origin_path}"

    case = _case(
        name,
        minimal=minimal,
        after_measures=measures(model),
        standalone=standalone,
        report=report,
        calibration=calibration,
        run_dir=run_dir,
        origin_path=origin_path,
        origin_copied=origin_text is not None,
        generate=generate,
        threshold_s=threshold_s,
        torch_settings=torch_settings,
    )
    if force and entry_dir.exists():  # a replaced entry keeps no stale origin file
        for stale in (ORIGIN, GENERATE):
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
    minimal: Path,
    after_measures: dict[str, int],
    standalone: bool,
    report: Mapping[str, Any],
    calibration: Mapping[str, Any],
    run_dir: Path | None,
    origin_path: Path | None,
    origin_copied: bool,
    generate: str | None,
    threshold_s: float | None,
    torch_settings: Mapping[str, str] | None,
) -> dict[str, Any]:
    options = report.get("options") or {}
    settings = dict(options.get("torch_settings") or {})
    settings.update(torch_settings or {})
    if threshold_s is None:
        threshold_s = report.get("threshold_s", calibration.get("threshold_s"))
    after = {**after_measures, **(report.get("final") or {})}
    after["free_symbols"] = after_measures["free_symbols"]  # the script added is the truth
    after["expr_ops"] = after_measures["expr_ops"]
    verdicts = [v for v in report.get("reverify_verdicts") or [] if v.get("interesting")]
    if verdicts and all(str(v.get("detail", "")).startswith("stopped at") for v in verdicts):
        after["slow_phase_s_is_lower_bound"] = True  # re-verification stops at the threshold
    phases = Counter(v["slow_phase"] for v in verdicts if v.get("slow_phase"))
    torch_version = report.get("torch_version") or installed_version("torch")
    return {
        "format": CASE_FORMAT,
        "name": name,
        "added": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "origin": {
            "script": str(origin_path) if origin_path is not None else None,
            "file": ORIGIN if origin_copied else None,
            "generate": generate,
            "minimal_source": str(minimal.resolve()),
            "run_dir": str(run_dir.resolve()) if run_dir is not None else None,
        },
        "torch_version": torch_version,
        "torch_version_source": "report" if report.get("torch_version") else "installed at add",
        "symshrink_version": installed_version("symshrink"),
        "torch_settings": settings,
        "threshold_s": threshold_s,
        # minimize accepted a candidate at (1 + margin) x the threshold (None: unknown)
        "margin": report.get("margin_used", options.get("margin")),
        "clock": calibration.get("clock"),
        "oracle": report.get("oracle"),
        "before": dict(report.get("initial") or {}),
        "after": after,
        "slow_phase": phases.most_common(1)[0][0] if phases else None,
        "calibrated_phases": calibration.get("phases"),
        "calibration_s": calibration.get("measures"),
        "signature": verdicts[0].get("signature") if verdicts else None,
        "reference": _reference(calibration, threshold_s),
        "minimize": {
            k: report[k]
            for k in ("oracle_calls", "seconds", "fixpoint", "stopped_by", "reverified")
            if k in report
        },
        "standalone": standalone,
    }


def _reference(calibration: Mapping[str, Any], threshold_s: float | None) -> dict | None:
    """The original's hot spots up to the threshold, as the run's oracle compared them:
    replay and sweep judge 'still slow' by the same cause. None without profiles."""
    if not calibration.get("profiles"):
        return None
    signature = Calibration.from_dict(dict(calibration)).signature(until=threshold_s)
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
        """The clock its threshold was recorded on."""
        return self.case.get("clock") or "cpu"

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
    """One row per entry: name, free symbols, expression ops, recorded times, torch."""
    rows = []
    for e in entries(corpus):
        after = e.case.get("after") or {}
        rows.append(
            {
                "name": e.name,
                "free_symbols": after.get("free_symbols"),
                "expr_ops": after.get("expr_ops"),
                "slow_phase_s": after.get("slow_phase_s"),
                "before_slow_phase_s": (e.case.get("before") or {}).get("slow_phase_s"),
                "threshold_s": e.case.get("threshold_s"),
                "torch_version": e.case.get("torch_version"),
                "slow_phase": e.case.get("slow_phase"),
                "smallest_slow": (e.case.get("smallest_slow") or {}).get("free_symbols"),
            }
        )
    return rows


def list_table(rows: Sequence[Mapping[str, Any]]) -> str:
    header = ("name", "symbols", "ops", "slow_phase_s", "threshold_s", "min_slow", "torch")
    body = [
        (
            r["name"],
            _cell(r["free_symbols"]),
            _cell(r["expr_ops"]),
            _cell(r["slow_phase_s"]),
            _cell(r["threshold_s"]),
            _cell(r["smallest_slow"]),
            _cell(r["torch_version"]),
        )
        for r in rows
    ]
    return _table(header, body)


# ------------------------------------------------------------------------------- replay


@dataclass
class Replay:
    """One entry replayed: its compile measured on the recorded clock against a limit.

    `limit_s` is `factor` x the recorded threshold; `measured_s` is on `clock` (a lower
    bound when `stopped`: the run hit the timeout).
    """

    name: str
    verdict: str
    measured_s: float | None = None
    clock: str | None = None
    stopped: bool = False
    threshold_s: float | None = None
    limit_s: float | None = None
    recorded_s: float | None = None
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


def replay(
    corpus: Path,
    *,
    names: Sequence[str] = (),
    torch_settings: Mapping[str, str] | None = None,
    timeout_s: float = 600.0,
    factor: float = 1.0,
    runner: Runner | None = None,
) -> list[Replay]:
    """Retrace every entry (or `names`) through the compile oracle, one after the other.

    Each entry is judged as `minimize` judged it: the oracle's child (warm-forked from one
    pool for the whole replay unless `runner` is given), the entry's recorded clock
    (CPU seconds by default) and `factor` x its recorded threshold. The run is not
    stopped at the threshold, so `measured_s` says how slow the entry is under this
    torch (at most `timeout_s` of wall time). Its recorded torch_settings apply,
    overridden by `torch_settings`; an entry without a threshold gets `no threshold`.
    """
    if factor < 0 or timeout_s <= 0:
        raise ReproError("--factor must be >= 0 and --timeout > 0")
    chosen = entries(corpus, names)
    with Judge(runner) as judge:
        results = []
        for entry in chosen:
            settings = {**(entry.case.get("torch_settings") or {}), **(torch_settings or {})}
            results.append(_replay_one(judge, entry, settings, timeout_s, factor))
    return results


def _replay_one(
    judge: Judge, entry: Entry, settings: dict[str, str], timeout_s: float, factor: float
) -> Replay:
    threshold = entry.case.get("threshold_s")
    recorded = (entry.case.get("after") or {}).get("slow_phase_s")
    limit = None if threshold is None else factor * threshold
    started = time.monotonic()
    judged = judge(entry, entry.minimal.read_text(), settings, limit, timeout_s)
    return Replay(
        name=entry.name,
        verdict=judged.verdict,
        measured_s=judged.measured_s,
        clock=entry.clock,
        stopped=judged.stopped,
        threshold_s=threshold,
        limit_s=limit,
        recorded_s=recorded,
        slow_phase=judged.run.slow_phase,
        phases=judged.run.phase_times,
        signature=list(judged.signature),
        torch_settings=settings,
        detail=judged.detail,
        wall_s=round(time.monotonic() - started, 3),
    )


@dataclass(frozen=True)
class Judged:
    """A full run of an entry (or a member of its family) and what it says, in corpus words."""

    run: Run
    verdict: str
    measured_s: float  # on the entry's clock; a lower bound when `stopped`
    stopped: bool
    detail: str
    signature: tuple[str, ...]


class Judge:
    """Full runs of entries, each judged by a compile oracle of its own settings, clock and
    limit, all on one runner (a warm pool unless given), so torch is imported once."""

    def __init__(self, runner: Runner | None = None) -> None:
        self.runner = runner if runner is not None else WarmPool(slots=1)
        self._scratch = tempfile.TemporaryDirectory(prefix="symshrink-corpus-")

    def __call__(
        self,
        entry: Entry,
        source: str,
        settings: Mapping[str, str],
        limit: float | None,
        timeout_s: float,
    ) -> Judged:
        """Run `source` to the end (or `timeout_s` of wall time) and judge it at `limit` on
        `entry`'s clock: `slow, other cause` when slow but not in the entry's recorded hot
        spots (none recorded: any cause), `no threshold` when `limit` is None."""
        clock, reference = entry.clock, entry.reference
        oracle = CompileOracle(
            Calibration(clock, (), limit or 0.0),
            self.runner,
            workload=Workload(retrace={"torch_settings": dict(settings)}),
            judging=Judging(timeout_s=timeout_s, signature=reference is not None),
            scratch=Path(self._scratch.name),
            reference=reference,
        )
        run = oracle.run(source, kill_at=None, timeout_s=timeout_s)
        # Hot spots as minimize saw them: its runs stopped at the threshold.
        seen = (
            run
            if not limit or run.profile is None
            else replace(run, profile=run.profile.cut(limit, clock))
        )
        verdict = oracle.verdict([seen], limit or 0.0)
        name = _VERDICT_OF_STATUS[verdict.status]
        return Judged(
            run=run,
            verdict=name if limit is not None or verdict.status == "error" else "no threshold",
            measured_s=round(run.measure(clock), 3),
            stopped=run.exit.reason != "exited",
            detail=verdict.detail,
            signature=verdict.signature,
        )

    def __enter__(self) -> Judge:
        return self

    def __exit__(self, *exc: object) -> None:
        self.runner.close()
        self._scratch.cleanup()


def replay_json(results: Sequence[Replay], factor: float, settings: Mapping[str, str]) -> str:
    return json.dumps(
        {
            "torch_version": installed_version("torch"),
            "factor": factor,
            "torch_settings": dict(settings),
            "entries": [asdict(r) for r in results],
        },
        indent=2,
    )


def replay_table(results: Sequence[Replay]) -> str:
    header = ("name", "measured_s", "threshold_s", "limit_s", "recorded_s", "verdict")
    body = [
        (
            r.name,
            _cell(r.measured_s) + (">" if r.stopped else ""),
            _cell(r.threshold_s),
            _cell(r.limit_s),
            _cell(r.recorded_s),
            r.verdict + _why(r.verdict, r.detail),
        )
        for r in results
    ]
    return f"torch {installed_version('torch')}\n" + _table(header, body)


# -------------------------------------------------------------------------------- sweep


@dataclass
class WidthVerdict:
    """One member of an entry's width family (its widest sum cut to `width` symbols)."""

    width: int
    free_symbols: int
    verdict: str
    measured_s: float
    stopped: bool = False
    detail: str = ""


@dataclass
class Sweep:
    """An entry's width family judged against its limit; `smallest` free symbols still slow."""

    name: str
    limit_s: float | None
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
            "limit_s": self.limit_s,
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
    factor: float = 1.0,
    record: bool = True,
    runner: Runner | None = None,
) -> list[Sweep]:
    """Judge each entry's width family (`widths`, default 1 .. the entry's own) like `replay`.

    Every member is measured (slowness need not be monotone in width: torch caps some
    sympy work at 20 terms). With `record`, each entry's case.json gets `smallest_slow`:
    the fewest free symbols at which it is still slow under this torch, on its clock, at
    `factor` x its threshold (None: no member was). Entries without a sum or a threshold
    are skipped.
    """
    from symshrink.repro.parse import parse_file
    from symshrink.repro.render import render
    from symshrink.widths import at_width, width

    results = []
    with Judge(runner) as judge:
        for entry in entries(corpus, names):
            threshold = entry.case.get("threshold_s")
            model = parse_file(entry.minimal)
            own = width(model)
            if threshold is None or own == 0:
                log.warning(
                    "%s: no %s, nothing to sweep",
                    entry.name,
                    "free symbol" if own == 0 else "threshold",
                )
                continue
            limit = factor * threshold
            settings = entry.case.get("torch_settings") or {}
            points = []
            for w in sorted(set(widths or range(1, own + 1))):
                member = at_width(model, w)
                if member is None:
                    continue
                judged = judge(entry, render(member), settings, limit, timeout_s)
                points.append(
                    WidthVerdict(
                        width=w,
                        free_symbols=len(member.hints),
                        verdict=judged.verdict,
                        measured_s=judged.measured_s,
                        stopped=judged.stopped,
                        detail=judged.detail,
                    )
                )
                log.info("%s width %d: %s", entry.name, w, points[-1].verdict)
            result = Sweep(entry.name, limit, entry.clock, points)
            if record:
                case = {**entry.case, "smallest_slow": result.record()}
                atomic_write(entry.path / CASE, json.dumps(case, indent=2) + "\n")
            results.append(result)
    return results


def sweep_table(results: Sequence[Sweep]) -> str:
    header = ("name", "width", "free_symbols", "measured_s", "limit_s", "verdict")
    body = [
        (
            r.name,
            str(p.width),
            str(p.free_symbols),
            _cell(p.measured_s) + (">" if p.stopped else ""),
            _cell(r.limit_s),
            p.verdict + _why(p.verdict, p.detail),
        )
        for r in results
        for p in r.points
    ]
    smallest = "".join(
        f"{r.name}: still slow from {_cell(r.smallest)} free symbols\n" for r in results
    )
    return _table(header, body) + smallest


# -------------------------------------------------------------------------------- table


def _why(verdict: str, detail: str) -> str:
    """The oracle's detail where the verdict needs it: an error, or another cause."""
    return f" ({detail})" if detail and verdict in ("error", "slow, other cause") else ""


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

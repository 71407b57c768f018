"""A corpus of minimized pathologies: `corpora/<name>/`, replayed against any torch.

Each entry is a directory holding

- `minimal.py`: the standalone minimal repro (`python minimal.py` needs only torch);
- `case.json`: where it came from, the torch version and `torch_settings` it was
  recorded with, sizes and times before and after minimization (`free_symbols`,
  `expr_ops`, `slow_phase_s`), the slow phase and signature when known, and the
  threshold (seconds) that counted as slow;
- `origin.py`, a copy of the original script when it is small, or `generate.txt`, the
  command that writes it (e.g. `python tests/fixtures_gen.py OUT --family floordiv_sum`).

`replay` runs every entry's `minimal.py` through `python -m symshrink.retrace --json
--no-native-compile` in a child process (with a timeout) and compares the measured
compile seconds with `factor` × the recorded threshold: `still slow`, `fixed` or `error`.
So a maintainer sees which pathologies still hurt under this torch and these settings.

Replay measures the retrace's compile *wall* seconds (the child's own clock); the
threshold was recorded on the oracle's clock (CPU seconds of the compile, see
`calibration.json`'s `clock`). On a loaded machine wall >= CPU, so a borderline entry
leans to `still slow`; `--factor` gives margin. This module imports no torch.
"""

from __future__ import annotations

import datetime
import json
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from symshrink import installed_version
from symshrink.errors import ReproError
from symshrink.files import atomic_write

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
VERDICTS = ("still slow", "fixed", "error", "no threshold")
CASE_FORMAT = 1

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")


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
        "clock": calibration.get("clock"),
        "oracle": report.get("oracle"),
        "before": dict(report.get("initial") or {}),
        "after": after,
        "slow_phase": phases.most_common(1)[0][0] if phases else None,
        "calibrated_phases": calibration.get("phases"),
        "calibration_s": calibration.get("measures"),
        "signature": verdicts[0].get("signature") if verdicts else None,
        "minimize": {
            k: report[k]
            for k in ("oracle_calls", "seconds", "fixpoint", "stopped_by", "reverified")
            if k in report
        },
        "standalone": standalone,
    }


# --------------------------------------------------------------------------------- list


@dataclass
class Entry:
    name: str
    path: Path
    case: dict[str, Any]

    @property
    def minimal(self) -> Path:
        return self.path / MINIMAL


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
            }
        )
    return rows


def list_table(rows: Sequence[Mapping[str, Any]]) -> str:
    header = ("name", "symbols", "ops", "slow_phase_s", "threshold_s", "torch")
    body = [
        (
            r["name"],
            _cell(r["free_symbols"]),
            _cell(r["expr_ops"]),
            _cell(r["slow_phase_s"]),
            _cell(r["threshold_s"]),
            _cell(r["torch_version"]),
        )
        for r in rows
    ]
    return _table(header, body)


# ------------------------------------------------------------------------------- replay


@dataclass
class Replay:
    """One entry replayed: measured compile seconds against `factor` × the threshold."""

    name: str
    verdict: str
    measured_s: float | None = None
    trace_s: float | None = None
    threshold_s: float | None = None
    limit_s: float | None = None
    recorded_s: float | None = None
    phases: dict[str, float] = field(default_factory=dict)
    torch_settings: dict[str, str] = field(default_factory=dict)
    error: str | None = None
    wall_s: float = 0.0


def replay(
    corpus: Path,
    *,
    names: Sequence[str] = (),
    torch_settings: Mapping[str, str] | None = None,
    timeout_s: float = 600.0,
    factor: float = 1.0,
    python: str = sys.executable,
) -> list[Replay]:
    """Retrace every entry (or `names`) in a child, one after the other; a verdict each.

    An entry's recorded torch_settings apply, overridden by `torch_settings`. The
    reference is the recorded threshold, else the recorded final slow_phase_s; with
    neither the verdict is `no threshold`.
    """
    if factor < 0 or timeout_s <= 0:
        raise ReproError("--factor must be >= 0 and --timeout > 0")
    results = []
    for entry in entries(corpus, names):
        settings = {**(entry.case.get("torch_settings") or {}), **(torch_settings or {})}
        results.append(_replay_one(entry, settings, timeout_s, factor, python))
    return results


def _replay_one(
    entry: Entry, settings: dict[str, str], timeout_s: float, factor: float, python: str
) -> Replay:
    threshold = entry.case.get("threshold_s")
    recorded = (entry.case.get("after") or {}).get("slow_phase_s")
    reference = threshold if threshold is not None else recorded
    r = Replay(
        name=entry.name,
        verdict="error",
        threshold_s=threshold,
        limit_s=None if reference is None else factor * reference,
        recorded_s=recorded,
        torch_settings=settings,
    )
    argv = [python, "-m", "symshrink.retrace", str(entry.minimal.resolve()), "--json"]
    argv.append("--no-native-compile")
    for k, v in settings.items():
        argv += ["--torch-setting", f"{k}={v}"]
    started = time.monotonic()
    code, out, err = _run(argv, timeout_s)
    r.wall_s = round(time.monotonic() - started, 3)
    if code is None:
        r.error = f"timeout after {timeout_s:g} s"
        return r
    try:
        data = json.loads(out)
    except json.JSONDecodeError:
        lines = [line for line in err.splitlines() if line.strip()]
        r.error = f"exit {code}: " + (lines[-1] if lines else "no JSON on stdout")
        return r
    r.measured_s = round(float(data.get("compile_s") or 0.0), 3)
    r.trace_s = round(float(data.get("trace_s") or 0.0), 3)
    r.phases = data.get("phases") or {}
    if data.get("error") or code != 0:
        r.error = data.get("error") or f"exit {code}"
        return r
    if r.limit_s is None:
        r.verdict = "no threshold"
    else:
        r.verdict = "still slow" if r.measured_s >= r.limit_s else "fixed"
    return r


def _run(argv: list[str], timeout_s: float) -> tuple[int | None, str, str]:
    """Run in a scratch directory and a process group of its own; None on timeout."""
    from symshrink.oracle.procs import run_in_group

    with tempfile.TemporaryDirectory(prefix="symshrink-corpus-") as scratch:
        return run_in_group(argv, timeout_s=timeout_s, cwd=scratch)


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
    header = ("name", "compile_s", "threshold_s", "limit_s", "recorded_s", "verdict")
    body = [
        (
            r.name,
            _cell(r.measured_s),
            _cell(r.threshold_s),
            _cell(r.limit_s),
            _cell(r.recorded_s),
            r.verdict + (f" ({r.error})" if r.error else ""),
        )
        for r in results
    ]
    return f"torch {installed_version('torch')}\n" + _table(header, body)


# -------------------------------------------------------------------------------- table


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

"""A minimize run's files: its output, and the work directory that lets `--resume` repeat
no call (the journal of verdicts, the controls' times, the calibration, what the verdicts
were judged by, the report), held by one run at a time, with the scratch folders a run
makes there and a killed run leaves behind."""

from __future__ import annotations

import contextlib
import json
import logging
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from symshrink.bench import BENCH_PREFIX
from symshrink.errors import ReproError, UsageError
from symshrink.files import atomic_write, check_writable, held
from symshrink.oracle.deciding import KILL_PREFIX
from symshrink.records import CALIBRATION, CONTROLS, JOURNAL, JUDGED_BY, LOCK
from symshrink.repro.model import Repro
from symshrink.sandbox import JOB_PREFIX, POOL_PREFIX
from symshrink.standalone import render_output

log = logging.getLogger(__name__)

# The folders made in a work directory while a command runs there, and removed when it
# ends: a killed run leaves them behind (the candidates', the kill files', the warm pool's,
# and those of `symshrink report`'s measurements).
SCRATCH_PREFIXES = (JOB_PREFIX, KILL_PREFIX, POOL_PREFIX, BENCH_PREFIX)

RESUMED = (JOURNAL, CONTROLS, CALIBRATION, JUDGED_BY)
"""The files `--resume` goes on from; a fresh run starts without them."""


def output_path(repro: Path, out: Path | None) -> Path:
    """`foo.py` -> `foo.min.py` beside it; never the input itself."""
    path = out if out is not None else repro.with_name(repro.stem + ".min.py")
    if path.resolve() == repro.resolve():
        raise UsageError("the output would overwrite the input; choose another -o", repro)
    return path


@dataclass(frozen=True)
class WorkDir:
    """The output `out` and the work directory `path` of a run on `repro`."""

    repro: Path
    out: Path
    path: Path

    @classmethod
    def make(
        cls, repro: Path, out: Path | None, work_dir: Path | None, report_json: Path | None
    ) -> WorkDir:
        """The run's paths, checked before any work: each written file can be written
        (the report comes after hours of work) and overwrites neither the input nor the
        output; the work directory (`OUT.work` by default) is made."""
        out = output_path(repro, out)
        if report_json is not None:
            for name, path in (("the input", repro), ("the output", out)):
                if report_json.resolve() == path.resolve():
                    raise UsageError(
                        f"--report-json would overwrite {name}; choose another path", report_json
                    )
            check_writable(report_json)
        check_writable(out)
        path = work_dir if work_dir is not None else out.with_name(out.name + ".work")
        path = path.resolve()  # oracle children run in scratch directories of their own
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise UsageError(f"cannot make the work directory: {e.strerror}", path) from None
        return cls(repro, out, path)

    def __truediv__(self, name: str) -> Path:
        """A file of the work directory (`records`' names: JOURNAL, REPORT, ...)."""
        return self.path / name

    @contextlib.contextmanager
    def locked(self, judged: dict[str, Any], resume: bool) -> Iterator[None]:
        """The directory locked for this run meanwhile, prepared: the scratch folders a
        killed run left go, a fresh run starts without the earlier run's files, a resumed
        one only if they were `judged` alike; then what the verdicts are judged by is
        written down."""
        with held(self / LOCK):
            prepare_work(self.path, resume)
            if resume and (self / JUDGED_BY).exists():
                check_resumable(self / JUDGED_BY, judged)
            elif resume and not any((self / n).exists() for n in RESUMED):
                # A mistyped -o or --work-dir would otherwise start hours of work afresh
                # unannounced; a bot that always passes --resume still gets its run.
                log.warning("--resume: no earlier run in %s; starting afresh", self.path)
            yield

    def judged(self, judged: dict[str, Any]) -> None:
        atomic_write(self / JUDGED_BY, json.dumps(judged, indent=2) + "\n")

    def write(self, repro: Repro) -> None:
        """The result so far, atomically: a killed run leaves a valid one."""
        atomic_write(self.out, render_output(repro))


def prepare_work(work: Path, resume: bool) -> None:
    """With the work directory locked: the scratch folders a killed run left go, the
    journal and calibration must be files, and a fresh run starts without them."""
    for folder in (f for prefix in SCRATCH_PREFIXES for f in work.glob(f"{prefix}*")):
        shutil.rmtree(folder, ignore_errors=True)
    for name in RESUMED:
        path = work / name
        if path.exists() and not path.is_file():
            raise UsageError("not a regular file; remove it or choose another --work-dir", path)
        if not resume:
            path.unlink(missing_ok=True)


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

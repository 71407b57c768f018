"""`symshrink minimize` end to end with an interestingness script (`--test`), as users script it.

The fixtures are written by torch's own writer; the test script is a plain Python file, as
for C-Reduce, C-Vise or Shrink Ray: exit 0 means interesting.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from symshrink.records import JOURNAL
from symshrink.repro.parse import parse_file
from symshrink.workdir import SCRATCH_PREFIXES, WorkDir, prepare_work

pytestmark = [pytest.mark.torch, pytest.mark.spawns]  # written by torch; minimize runs

# Interesting iff a floor division of a sum of at least two symbols survives. Each call is
# logged (hash of the candidate); with KILL_AT=N the Nth call SIGKILLs the minimizer first.
TEST_SCRIPT = """\
import hashlib, os, re, signal, sys
text = open(sys.argv[1]).read()
log = os.environ["CALL_LOG"]
with open(log, "a") as f:
    f.write(hashlib.sha256(text.encode()).hexdigest() + "\\n")
kill_at = int(os.environ.get("KILL_AT", "0"))
if kill_at and sum(1 for _ in open(log)) == kill_at:
    os.kill(os.getppid(), signal.SIGKILL)
sys.exit(0 if re.search(r"s\\d+ \\+ s\\d+[^/]*//160", text) else 1)
"""


def minimize(tmp: Path, repro: Path, *extra: str, env: dict | None = None, log: str = "calls"):
    script = tmp / "interesting.py"
    script.write_text(TEST_SCRIPT)
    cmd = [sys.executable, "-m", "symshrink", "minimize", str(repro), "--no-progress"]
    cmd += ["--test", f"{sys.executable} {script}", *extra]
    full_env = {**os.environ, "CALL_LOG": str(tmp / log), **(env or {})}
    return subprocess.run(cmd, capture_output=True, text=True, env=full_env, timeout=600)


def calls(tmp: Path, log: str = "calls") -> list[str]:
    path = tmp / log
    return path.read_text().split() if path.exists() else []


def test_minimize_with_test_script(fixtures: dict, tmp_path: Path) -> None:
    repro = tmp_path / "repro.py"
    repro.write_bytes(fixtures["floordiv_sum_n16"].path.read_bytes())
    before = repro.read_bytes()

    result = minimize(tmp_path, repro, "--report-json", str(tmp_path / "r.json"))

    assert result.returncode == 0, result.stderr
    assert repro.read_bytes() == before  # the input is never modified
    out = tmp_path / "repro.min.py"
    final = parse_file(out)
    assert len(final.hints) == 2  # 1-minimal for this test: a sum needs two symbols
    report = json.loads((tmp_path / "r.json").read_text())
    for key in ("oracle_calls", "accepted", "cache_hits", "seconds", "initial", "final"):
        assert key in report
    assert report["initial"]["free_symbols"] == 16
    assert report["final"]["free_symbols"] == 2
    assert report["final"]["expr_ops"] < report["initial"]["expr_ops"]
    assert report["fixpoint"] is True
    # Every call the reducer counted reached the script, and no candidate was run twice.
    logged = calls(tmp_path)
    assert len(logged) == report["oracle_calls"] + 1  # + the original's check
    assert len(set(logged)) == len(logged)


def test_original_not_interesting_exits_1(fixtures: dict, tmp_path: Path) -> None:
    result = minimize(tmp_path, fixtures["free_symints"].path, "-o", str(tmp_path / "o.py"))
    assert result.returncode == 1
    assert "not interesting" in result.stderr


def test_output_may_not_overwrite_input(fixtures: dict, tmp_path: Path) -> None:
    repro = fixtures["floordiv_sum_n4"].path
    result = minimize(tmp_path, repro, "-o", str(repro))
    assert result.returncode == 2
    assert "overwrite the input" in result.stderr
    assert "Traceback" not in result.stderr


def test_sigkill_then_resume_repeats_no_call(fixtures: dict, tmp_path: Path) -> None:
    """A run killed mid-way leaves a valid best result; --resume finishes it identically."""
    repro = tmp_path / "repro.py"
    repro.write_bytes(fixtures["floordiv_sum_n16"].path.read_bytes())
    fresh_dir = tmp_path / "fresh"
    fresh_dir.mkdir()
    fresh = minimize(fresh_dir, repro, "-o", str(fresh_dir / "out.py"))
    assert fresh.returncode == 0, fresh.stderr
    fresh_calls = calls(fresh_dir)

    killed = minimize(tmp_path, repro, env={"KILL_AT": "12"}, log="run1")
    assert killed.returncode == -9
    out = tmp_path / "repro.min.py"
    assert parse_file(out) is not None  # valid after SIGKILL: written atomically

    resumed = minimize(tmp_path, repro, "--resume", log="run2")
    assert resumed.returncode == 0, resumed.stderr
    first, second = calls(tmp_path, "run1"), calls(tmp_path, "run2")
    # Only the call in flight at the kill may run again; everything else came from the journal.
    assert set(first) & set(second) <= {first[-1]}
    assert len(first) + len(second) <= len(fresh_calls) + 1
    assert out.read_text() == (fresh_dir / "out.py").read_text()
    assert (
        hashlib.sha256(repro.read_bytes()).digest()
        == hashlib.sha256(fixtures["floordiv_sum_n16"].path.read_bytes()).digest()
    )


def test_a_run_removes_the_scratch_folders_a_killed_run_left(tmp_path: Path) -> None:
    """The candidates', the kill files' and the warm pool's folders: a SIGKILLed run
    cannot remove them itself; the next run in the same work directory does."""
    for prefix in SCRATCH_PREFIXES:
        (tmp_path / f"{prefix}left").mkdir()
    (tmp_path / "kept").mkdir()
    prepare_work(tmp_path, resume=True)
    assert [p.name for p in tmp_path.iterdir()] == ["kept"]


def test_resume_with_nothing_to_resume_says_so_and_starts_afresh(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A mistyped -o or --work-dir must not start a long run afresh without a word."""
    repro = tmp_path / "r.py"
    repro.write_text("")
    work = WorkDir.make(repro, None, None, None)
    with caplog.at_level(logging.WARNING), work.locked({"ratio": 4.0}, resume=True):
        pass
    assert f"--resume: no earlier run in {work.path}; starting afresh" in caplog.text
    caplog.clear()
    (work / JOURNAL).write_text("")
    work.judged({"ratio": 4.0})
    with caplog.at_level(logging.WARNING), work.locked({"ratio": 4.0}, resume=True):
        pass
    assert "--resume" not in caplog.text

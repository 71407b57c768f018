"""`symshrink minimize` refuses bad options and bad state files up front: one line on stderr
naming the file (or option), exit code 2, before any oracle call, no file of the user's
touched. And what it writes gets the user's umask.

A planted repro (no torch needed) and its `--test` script, whose call log shows whether the
oracle ever ran.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from symshrink.repro.render import render
from tests.planted import TEST_SCRIPT, planted_model

pytestmark = pytest.mark.spawns  # each test runs symshrink minimize in a child


@pytest.fixture
def repro(tmp_path: Path) -> Path:
    path = tmp_path / "repro.py"
    path.write_text(render(planted_model(3)))
    return path


def minimize(
    tmp: Path, repro: Path, *args: str, test: bool = True, umask: int = 0o022
) -> subprocess.CompletedProcess[str]:
    """Run the CLI (with the call-logging --test script unless `test` is False)."""
    cmd = [sys.executable, "-m", "symshrink", "minimize", str(repro), "--no-progress", *args]
    if test:
        script = tmp / "interesting.py"
        script.write_text(TEST_SCRIPT.format(python=sys.executable))
        script.chmod(0o755)
        cmd += ["--test", str(script)]
    return subprocess.run(
        cmd,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "CALL_LOG": str(tmp / "calls")},
        preexec_fn=lambda: os.umask(umask),
    )


def calls(tmp: Path) -> int:
    """How often the --test script ran."""
    path = tmp / "calls"
    return len(path.read_text().splitlines()) if path.exists() else 0


def assert_refused(result: subprocess.CompletedProcess[str], *fragments: str) -> None:
    """Exit 2 with one line holding every fragment, no traceback."""
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


@pytest.mark.parametrize("target", ["input", "output"])
def test_report_json_may_not_overwrite_the_input_or_the_output(
    target: str, tmp_path: Path, repro: Path
) -> None:
    out = tmp_path / "out.py"
    out.write_text("# the user's\n")
    before = {p: p.read_bytes() for p in (repro, out)}
    path = repro if target == "input" else out
    result = minimize(tmp_path, repro, "-o", str(out), "--report-json", str(path))
    assert_refused(result, str(path), f"--report-json would overwrite the {target}")
    assert {p: p.read_bytes() for p in before} == before
    assert not (tmp_path / "calls").exists()


def _unwritable(tmp: Path, how: str) -> Path:
    """A path that cannot be written: a folder, below a regular file, or in /proc (root
    may write anywhere else)."""
    if how == "folder":
        (tmp / "folder").mkdir()
        return tmp / "folder"
    if how == "under_a_file":
        (tmp / "file").write_text("")
        return tmp / "file" / "x"
    return Path("/proc/symshrink-test/x")


@pytest.mark.parametrize(
    ("option", "how"),
    [
        ("-o", "folder"),
        ("-o", "under_a_file"),
        ("-o", "proc"),
        ("--report-json", "folder"),
        ("--report-json", "under_a_file"),
        ("--report-json", "proc"),
        ("--work-dir", "under_a_file"),
        ("--work-dir", "proc"),
    ],
)
def test_unwritable_outputs_are_refused_before_any_call(
    option: str, how: str, tmp_path: Path, repro: Path
) -> None:
    path = _unwritable(tmp_path, how)
    result = minimize(tmp_path, repro, option, str(path))
    assert_refused(result, str(path))
    assert not (tmp_path / "calls").exists()


def test_work_dir_that_is_a_file_is_refused(tmp_path: Path, repro: Path) -> None:
    work = tmp_path / "work"
    work.write_text("mine\n")
    result = minimize(tmp_path, repro, "--work-dir", str(work))
    assert_refused(result, f"{work}: cannot make the work directory")
    assert work.read_text() == "mine\n"


@pytest.mark.parametrize(
    ("content", "mode", "message"),
    [
        ("#!/bin/sh\nexit 0\n", 0o644, "--test: not executable"),
        ("exit 0\n", 0o755, "--test: no #! line"),
        (None, 0o755, "--test: not a file"),
    ],
)
def test_a_test_command_that_cannot_run_is_refused(
    content: str | None, mode: int, message: str, tmp_path: Path, repro: Path
) -> None:
    script = tmp_path / "test.sh"
    if content is None:
        script.mkdir()
    else:
        script.write_text(content)
    script.chmod(mode)
    result = minimize(tmp_path, repro, "--test", str(script), test=False)
    assert_refused(result, str(script), message)


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("-j", "0"),
        ("-j", "-1"),
        ("--threshold", "-1"),
        ("--timeout", "0"),
        ("--margin", "-1"),
        ("--confirm", "-1"),
        ("--max-calls", "-1"),
        ("--max-time", "-1"),
        ("--ratio", "1"),
        ("--ratio", "0.5"),
    ],
)
def test_out_of_range_options_are_refused(
    option: str, value: str, tmp_path: Path, repro: Path
) -> None:
    result = minimize(tmp_path, repro, option, value)
    assert_refused(result, "Invalid value for", f"'{option}'")
    assert not (tmp_path / "calls").exists()


CALIBRATION = {"clock": "cpu", "measures": [4.0, 4.2, 4.1], "threshold_s": 2.0}


@pytest.mark.parametrize(
    "content",
    [
        json.dumps(CALIBRATION)[:25],  # cut short
        json.dumps({**CALIBRATION, "measures": ["4.0"]}),
        json.dumps({**CALIBRATION, "threshold_s": "two"}),
        json.dumps({**CALIBRATION, "clock": 3}),
        json.dumps([CALIBRATION]),
        None,  # a folder
    ],
    ids=["cut", "str_measure", "str_threshold", "int_clock", "list", "folder"],
)
def test_a_bad_calibration_is_refused_on_resume(
    content: str | None, tmp_path: Path, repro: Path
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    calibration = work / "calibration.json"
    if content is None:
        calibration.mkdir()
    else:
        calibration.write_text(content)
    result = minimize(tmp_path, repro, "--work-dir", str(work), "--resume", test=False)
    assert_refused(result, str(calibration))


def test_a_journal_folder_is_refused(tmp_path: Path, repro: Path) -> None:
    journal = tmp_path / "work" / "journal.jsonl"
    journal.mkdir(parents=True)
    result = minimize(tmp_path, repro, "--work-dir", str(tmp_path / "work"), "--resume")
    assert_refused(result, f"{journal}: not a regular file")


@pytest.mark.parametrize("garbage", [b"\xff\xfe not utf-8\n", b"\x00\x01\x02\x7fELF\n"])
def test_unreadable_journal_lines_are_skipped_with_a_warning(
    garbage: bytes, tmp_path: Path, repro: Path
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    (work / "journal.jsonl").write_bytes(garbage)
    result = minimize(tmp_path, repro, "--work-dir", str(work), "--resume")
    assert result.returncode == 0, result.stderr
    assert "skipped 1 unreadable or edited lines" in result.stderr


def test_resume_judged_otherwise_is_refused(tmp_path: Path, repro: Path) -> None:
    """A journal's verdicts belong to its test and its input: another test, or an edited
    input, is refused on --resume (one line saying what differs); the same one resumes."""
    work = ["--work-dir", str(tmp_path / "work")]
    assert minimize(tmp_path, repro, *work, "--max-calls", "2").returncode == 0
    other = tmp_path / "other.py"
    other.write_text(TEST_SCRIPT.format(python=sys.executable))
    other.chmod(0o755)
    before = calls(tmp_path)
    result = minimize(tmp_path, repro, *work, "--resume", "--test", str(other), test=False)
    assert_refused(result, "judged_by.json", "--resume: this journal was judged otherwise", "test")
    edited = tmp_path / "edited.py"
    edited.write_text(repro.read_text().replace("step=1,", "step=2,"))
    result = minimize(tmp_path, edited, *work, "--resume")
    assert_refused(result, "the input was edited", "run without --resume to start afresh")
    assert calls(tmp_path) == before  # refused before any oracle call
    assert minimize(tmp_path, repro, *work, "--resume").returncode == 0


def test_a_journal_verdict_edited_by_hand_is_judged_again(tmp_path: Path, repro: Path) -> None:
    work = tmp_path / "work"
    assert minimize(tmp_path, repro, "--work-dir", str(work)).returncode == 0
    journal = work / "journal.jsonl"
    lines = journal.read_text().splitlines()
    entry = json.loads(lines[-1])
    entry["verdict"]["interesting"] = not entry["verdict"]["interesting"]  # a hand edit
    journal.write_text("\n".join([*lines[:-1], json.dumps(entry)]) + "\n")
    before = calls(tmp_path)
    result = minimize(tmp_path, repro, "--work-dir", str(work), "--resume")
    assert result.returncode == 0, result.stderr
    assert "skipped 1 unreadable or edited lines" in result.stderr
    assert calls(tmp_path) == before + 1  # that one candidate, judged again


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o027, 0o640)])
def test_written_files_follow_the_umask(umask: int, mode: int, tmp_path: Path, repro: Path) -> None:
    out, report = tmp_path / "out.py", tmp_path / "report.json"
    result = minimize(tmp_path, repro, "-o", str(out), "--report-json", str(report), umask=umask)
    assert result.returncode == 0, result.stderr
    for path in (out, report, tmp_path / "out.py.work" / "report.json"):
        assert stat.S_IMODE(path.stat().st_mode) == mode, path


@pytest.mark.torch
def test_an_unknown_torch_setting_is_refused_before_the_original_runs(
    tmp_path: Path, repro: Path
) -> None:
    result = minimize(
        tmp_path, repro, "--torch-setting", "torch._inductor.config.no_such_thing=1", test=False
    )
    assert_refused(result, "--torch-setting: unknown torch setting", "no_such_thing")
    assert not (tmp_path / "repro.min.py.work" / "calibration.json").exists()

"""Progress of `symshrink minimize`: a bar on a terminal, plain lines in a pipe or a CI log."""

from __future__ import annotations

import fcntl
import io
import os
import pty
import select
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from symshrink.progress import Best, Progress
from tests.test_minimize import TEST_SCRIPT


def test_plain_lines_when_not_a_terminal() -> None:
    out = io.StringIO()
    progress = Progress(True, max_calls=50, stream=out, every_s=3600)
    progress.phase("checking the original")
    progress.update(0, 0, Best(8, 16))
    progress.phase("pass pin-symbols")
    progress.update(3, 1, Best(6, 12, 4.52))
    progress.update(4, 1, Best(6, 12, 4.52))  # nothing new: no line (every_s not reached)
    progress.close()
    lines = out.getvalue().splitlines()
    assert lines[0].endswith("checking the original: 0 calls, 0 accepted, 50 calls left")
    assert "pass pin-symbols: 3 calls, 1 accepted, 6 symbols, 12 ops, 4.5x its twin" in lines[-2]
    assert lines[-1].endswith(
        "4 calls, 1 accepted, 6 symbols, 12 ops, 4.5x its twin, 46 calls left"
    )
    assert len(lines) == 5  # two phases, their first results, the closing line


def test_disabled_shows_nothing() -> None:
    out = io.StringIO()
    progress = Progress(False, stream=out)
    progress.phase("checking the original")
    progress.update(1, 0, Best(1, 1))
    progress.close()
    assert out.getvalue() == ""


def _minimize_argv(tmp: Path, repro: Path) -> list[str]:
    script = tmp / "interesting.py"
    script.write_text(TEST_SCRIPT)
    return [
        sys.executable,
        "-m",
        "symshrink",
        "minimize",
        str(repro),
        "-o",
        str(tmp / "out.py"),
        "--test",
        f"{sys.executable} {script}",
    ]


def _in_pty(argv: list[str], env: dict[str, str], columns: int) -> str:
    """Run `argv` on a pseudo-terminal of `columns` columns; all it wrote."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    proc = subprocess.Popen(argv, stdin=follower, stdout=follower, stderr=follower, env=env)
    os.close(follower)
    chunks = []
    while True:
        ready, _, _ = select.select([leader], [], [], 120)
        if not ready:
            proc.kill()
            break
        try:
            data = os.read(leader, 65536)
        except OSError:  # the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=60)
    os.close(leader)
    assert proc.returncode == 0
    return b"".join(chunks).decode(errors="replace")


@pytest.mark.torch  # the fixture is written by torch
@pytest.mark.spawns
def test_minimize_progress_on_a_terminal_and_in_a_pipe(fixtures: dict, tmp_path: Path) -> None:
    repro = fixtures["floordiv_sum_n4"].path
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env["CALL_LOG"] = str(tmp_path / "calls")
    argv = _minimize_argv(tmp_path, repro)

    piped = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=300)
    assert piped.returncode == 0, piped.stderr
    lines = [line for line in piped.stderr.splitlines() if line.startswith("symshrink: [")]
    assert any("checking the original" in line for line in lines)
    assert any("pass pin-symbols" in line and "symbols" in line for line in lines)
    assert "\r" not in piped.stderr  # no bar redraws in a log

    drawn = _in_pty(argv, env, columns=120)
    assert "\r" in drawn and "call" in drawn and "pass pin-symbols" in drawn
    assert "symshrink: [" not in drawn  # a bar, not plain lines

    no_columns = _in_pty(argv, env, columns=0)  # tqdm would print nothing at all here
    assert "symshrink: [" in no_columns and "pass pin-symbols" in no_columns

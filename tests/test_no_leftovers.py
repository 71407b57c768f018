"""Nothing left running: SIGKILL, SIGINT or SIGTERM of a run leaves no process behind.

Real processes, real signals: a `--test` script that starts a `sleep` of its own (a
grandchild of the minimizer), a cold child and a warm worker's forked candidate that each
start one too. "Nothing left" is checked in /proc: every descendant of the signalled
process, listed just before the signal, is gone soon after (zombies count as gone).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from symshrink.repro.parse import parse_file
from symshrink.repro.render import render
from symshrink.sandbox import POOL_PREFIX
from tests.planted import TEST_SCRIPT, planted_model

pytestmark = pytest.mark.spawns  # children are started, signalled and killed

_tokens = iter(range(10**6))


def fresh_token() -> str:
    """A `sleep` argument no other process on the machine uses."""
    return f"{700 + next(_tokens)}.{os.getpid()}"


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, parent pid) of a process, None if it is gone."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    state, ppid = raw[raw.rfind(")") + 2 :].split()[:2]
    return state, int(ppid)


def descendants(root: int) -> set[int]:
    """Every live process below `root` in the process tree."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit() and (st := _stat(int(name))) is not None:
            children.setdefault(st[1], []).append(int(name))
    found: set[int] = set()
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def living(pids: set[int]) -> set[int]:
    return {p for p in pids if (st := _stat(p)) is not None and st[0] not in ("Z", "X")}


def sleeping(token: str) -> set[int]:
    """Live `sleep TOKEN` processes."""
    pids = set()
    for name in os.listdir("/proc"):
        try:
            cmdline = Path(f"/proc/{name}/cmdline").read_bytes()
        except OSError:
            continue
        if name.isdigit() and cmdline == f"sleep\0{token}\0".encode():
            pids.add(int(name))
    return living(pids)


def wait_for(condition: Callable[[], object], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def assert_all_gone(pids: set[int], timeout: float = 10.0) -> None:
    """Every process of `pids` exits within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while living(pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = {p: Path(f"/proc/{p}/cmdline").read_bytes() for p in living(pids)}
    assert not left, f"still running {timeout:.0f} s later: {left}"


class Run:
    """`symshrink minimize` of a planted 4-symbol repro with TEST_SCRIPT, in `tmp`."""

    def __init__(self, tmp: Path, *extra: str, hang_at: int = 0, log: str = "calls") -> None:
        self.tmp = tmp
        self.token = fresh_token()
        repro = tmp / "repro.py"
        if not repro.exists():
            repro.write_text(render(planted_model(4)))
        script = tmp / "interesting.py"
        script.write_text(TEST_SCRIPT.format(python=sys.executable))
        script.chmod(0o755)
        cmd = [sys.executable, "-m", "symshrink", "minimize", str(repro), "--no-progress"]
        cmd += ["--test", str(script), "-o", str(tmp / "out.py"), *extra]
        env = {
            **os.environ,
            "CALL_LOG": str(tmp / log),
            "HANG_AT": str(hang_at),
            "TOKEN": self.token,
        }
        self.proc = subprocess.Popen(
            cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )

    def wait_for_hang(self) -> set[int]:
        """Wait until the hanging test's `sleep` runs; the minimizer's descendants then."""
        wait_for(lambda: sleeping(self.token), 60, "the test command's sleep")
        return descendants(self.proc.pid)

    def finish(self, timeout: float = 60) -> tuple[int, str, str]:
        out, err = self.proc.communicate(timeout=timeout)
        return self.proc.returncode, out, err

    @property
    def work(self) -> Path:
        return self.tmp / "out.py.work"


def test_sigkill_leaves_no_test_command_running_and_resume_cleans_up(tmp_path: Path) -> None:
    run = Run(tmp_path, hang_at=2)  # the original passes, the first candidate hangs
    below = run.wait_for_hang()
    assert len(below) >= 3  # the test command, its sleep, the watchdog
    run.proc.kill()
    assert run.finish()[0] == -signal.SIGKILL
    assert_all_gone(below)
    assert list(run.work.glob("cand-*"))  # the killed candidate's folder stayed behind

    resumed = Run(tmp_path, "--resume", log="calls2")
    code, _, err = resumed.finish()
    assert code == 0, err
    assert not list(run.work.glob("cand-*"))
    parse_file(tmp_path / "out.py")  # the resumed run finished the reduction
    assert "//160" in (tmp_path / "out.py").read_text()


PARENT = """\
import sys
from pathlib import Path
from symshrink.sandbox import WarmPool
from symshrink.sandbox import ColdRunner, Job, Limits, Workload
root = Path(sys.argv[2])
runner = ColdRunner() if sys.argv[1] == "cold" else WarmPool(slots=1, preload=(), root=root)
job = Job.create(root, sys.argv[3], Workload(entry="script"))
runner.run(job, Limits(timeout_s=600))
"""

CANDIDATE = """\
import subprocess, time
subprocess.Popen(["sleep", "{token}"])
time.sleep(600)
"""


@pytest.mark.parametrize("runner", ["cold", "warm"])
def test_sigkill_of_the_parent_takes_its_candidates_along(runner: str, tmp_path: Path) -> None:
    """The cold child, and the warm worker with the candidate it forked, die with the
    process that started them (the candidate's own child too)."""
    token = fresh_token()
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, runner, str(tmp_path), CANDIDATE.format(token=token)]
    )
    wait_for(lambda: sleeping(token), 60, "the candidate's sleep")
    below = descendants(parent.pid)
    parent.kill()
    parent.wait()
    assert_all_gone(below)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("jobs", [1, 2])
def test_signal_during_the_reduction_kills_the_test_in_flight(
    sig: signal.Signals, jobs: int, tmp_path: Path
) -> None:
    run = Run(tmp_path, "-j", str(jobs), hang_at=2)
    below = run.wait_for_hang()
    run.proc.send_signal(sig)
    code, _, err = run.finish(timeout=30)
    assert code == 128 + sig, err
    assert f"interrupted by {sig.name}" in err
    assert_all_gone(below - {run.proc.pid})
    # The killed candidates' verdicts are not journaled: a resume judges them again.
    assert len((run.work / "journal.jsonl").read_text().splitlines()) == 1
    report = json.loads((run.work / "report.json").read_text())
    assert report["stopped_by"] == "interrupted"
    assert parse_file(tmp_path / "out.py") is not None


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_signal_while_the_original_is_checked(sig: signal.Signals, tmp_path: Path) -> None:
    run = Run(tmp_path, hang_at=1)
    below = run.wait_for_hang()
    run.proc.send_signal(sig)
    code, _, err = run.finish(timeout=30)
    assert code == 128 + sig
    assert err.strip().splitlines() == [
        f"interrupted by {sig.name}; {tmp_path / 'out.py'} holds the best result so far"
    ]
    assert_all_gone(below - {run.proc.pid})


def test_a_second_run_on_the_same_work_dir_is_refused(tmp_path: Path) -> None:
    first = Run(tmp_path, hang_at=1)
    first.wait_for_hang()
    try:
        second = Run(tmp_path, log="calls2")
        code, _, err = second.finish()
        assert code == 2
        lock = first.work / "lock"
        assert err == f"symshrink: error: {lock}: in use by another run (pid {first.proc.pid})\n"
        assert not (tmp_path / "calls2").exists()  # refused before any oracle call
    finally:
        first.proc.terminate()
        first.finish()


def _cwd(pid: int) -> str:
    try:
        return os.readlink(f"/proc/{pid}/cwd")
    except OSError:
        return ""


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


@pytest.mark.torch
@pytest.mark.parametrize("phase", ["preload", "compile"])
def test_sigkill_leaves_no_warm_worker_or_candidate(
    phase: str, fixtures: dict, tmp_path: Path
) -> None:
    """Killed while the warm worker imports torch, or while its forked candidate compiles
    (the original's check: a threshold it never reaches, no calibration runs)."""
    slow = fixtures["floordiv_sum_n16"].path  # compiles for far longer than 10 s
    cmd = [sys.executable, "-m", "symshrink", "minimize", str(slow)]
    cmd += ["--no-progress", "--threshold", "100", "--no-signature", "-o", str(tmp_path / "o.py")]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def started() -> bool:
        below = descendants(proc.pid)
        if phase == "preload":
            return any(b"symshrink.sandbox.worker" in _cmdline(p) for p in below)
        return any(Path(_cwd(p)).name.startswith("cand-") for p in below)

    wait_for(started, 60, f"the warm worker's {phase}")
    below = descendants(proc.pid)
    proc.kill()
    proc.wait()
    assert_all_gone(below)
    # What it could not remove is in its work directory, which the next run cleans.
    assert list((tmp_path / "o.py.work").glob(f"{POOL_PREFIX}*"))

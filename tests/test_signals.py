"""Every command that starts children leaves none running, however it ends.

Each command runs as a real process on a repro whose compile takes far longer than 10 s
(floordiv_sum at N = 16, or the capture program of the same graph), until a child is
well into that compile: a warm worker's candidate, a fresh retrace, the captured program.
Then its main process gets SIGKILL, SIGINT or SIGTERM. Left alone, that child would still
run 10 s later; every process the command started, at any depth and reparented or not,
carries a tag in its environment, and /proc must show none alive 10 s after the main
process is gone. SIGINT must also give exit 130 (SIGTERM 143). `corpus replay --python`
replays through a second interpreter: a venv of this one (torch from the system
site-packages, nothing installed).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from symshrink.program_check import PROGRAM_PREFIX

pytestmark = [pytest.mark.spawns, pytest.mark.torch]

ROOT = Path(__file__).resolve().parents[1]
PROG = ROOT / "tests" / "capture_prog.py"
TAG = "SYMSHRINK_TEST_TAG"
GONE_S = 10.0
_CLK_TCK = os.sysconf("SC_CLK_TCK")


def _read(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError:
        return b""


def _stat(pid: int) -> list[str]:
    """/proc/PID/stat's fields after the command name: state, ppid, ... ([]: gone)."""
    raw = _read(f"/proc/{pid}/stat").decode(errors="replace")
    return raw[raw.rfind(")") + 2 :].split()


def tagged(tag: str) -> dict[int, int]:
    """Live processes whose environment carries `tag`: pid -> parent pid."""
    marker = f"{TAG}={tag}\0".encode()
    found = {}
    for name in os.listdir("/proc"):
        if name.isdigit() and marker in _read(f"/proc/{name}/environ"):
            fields = _stat(int(name))
            if fields and fields[0] not in ("Z", "X"):
                found[int(name)] = int(fields[1])
    return found


def _depth(pid: int, parents: dict[int, int], root: int) -> int:
    """How far below `root` the tagged process `pid` is (0: not below it)."""
    depth = 0
    while pid != root:
        if pid not in parents:
            return 0
        pid, depth = parents[pid], depth + 1
    return depth


def _cpu_s(pid: int) -> float:
    fields = _stat(pid)
    return (int(fields[11]) + int(fields[12])) / _CLK_TCK if fields else 0.0


def _cwd(pid: int) -> str:
    try:
        return os.readlink(f"/proc/{pid}/cwd")
    except OSError:
        return ""


@dataclass(frozen=True)
class Work:
    """The child well into a long compile: `depth` at least below the main process, a
    candidate (its working directory a job's `cand-...`) or a command line holding
    `argv`, that used `cpu_s` of CPU (the slow member, not a static twin; past torch's
    import for a fresh interpreter)."""

    depth: int
    argv: str | None = None
    cpu_s: float = 2.0

    def found(self, tag: str, root: int) -> bool:
        parents = tagged(tag)
        for pid in parents:
            if _depth(pid, parents, root) < self.depth or _cpu_s(pid) < self.cpu_s:
                continue
            if self.argv is None and Path(_cwd(pid)).name.startswith("cand-"):
                return True
            if self.argv is not None and self.argv.encode() in _read(f"/proc/{pid}/cmdline"):
                return True
        return False


CANDIDATE = Work(depth=2)  # forked by a warm worker, torch imported already
RETRACE = Work(depth=1, argv="symshrink.retrace", cpu_s=5.0)


@dataclass(frozen=True)
class Case:
    """`symshrink ARGS`, each word formatted with `argv`'s fields."""

    args: str
    work: Work

    def argv(self, tmp: Path, inputs: Path) -> list[str]:
        fields = {
            "tmp": tmp,
            "repro": inputs / "slow.py",
            "corpus": inputs / "corpora",
            "run": tmp / "run.work",
            "python": sys.executable,
            "prog": PROG,
            "other": inputs / "venv" / "bin" / "python",
        }
        return [word.format(**fields) for word in self.args.split()]


# The slow entry's run stops at 50 x its twin (tens of seconds of CPU) or 30 s of wall.
REPLAY = "corpus replay slow --corpus {corpus} --twin-runs 1 --ratio 50 --timeout 30"

CASES: dict[str, Case] = {
    "run --compare": Case("run {repro} --compare --no-native-compile", RETRACE),
    "capture": Case(
        "capture -o {tmp}/out -- {python} {prog} floordiv", Work(depth=1, argv=str(PROG), cpu_s=8)
    ),
    # The program stopped after 20 s of compile; the check's retrace stops at 20 s too.
    "capture --check": Case(
        "capture -o {tmp}/out --check --timeout 20 -- {python} {prog} floordiv", RETRACE
    ),
    "corpus replay": Case(REPLAY, CANDIDATE),
    "corpus sweep": Case(
        "corpus sweep slow --corpus {corpus} --widths 16 --ratio 50 --twin-runs 1 --no-record",
        CANDIDATE,
    ),
    "corpus replay --python": Case(
        f"{REPLAY} --python {{other}}",
        Work(depth=3),  # the other interpreter's candidate
    ),
    # The report runs the result's program.py (in a check's scratch folder) at width 16.
    "report": Case(
        "report {run} --script {repro} --widths 16 -o {tmp}/report.md",
        Work(depth=1, argv=PROGRAM_PREFIX, cpu_s=5.0),
    ),
    "sympy-repro": Case(
        "sympy-repro {repro} -o {tmp}/s.py", Work(depth=1, argv="symshrink.sympy_repro", cpu_s=5)
    ),
    # The original's check: a threshold it never reaches.
    "minimize": Case(
        "minimize {repro} -o {tmp}/min.py --threshold 100 --no-signature --no-progress", CANDIDATE
    ),
    # Its reduction stops each candidate at 4 x its twin: the one killed would end on its
    # own, but not the reduction.
    "triage": Case(
        "triage -o {tmp}/triage --budget 10m --no-progress {repro}", Work(depth=2, cpu_s=0.5)
    ),
}

SIGNALS = [(name, signal.SIGKILL) for name in CASES] + [(name, signal.SIGINT) for name in CASES]
SIGNALS.append(("corpus replay --python", signal.SIGTERM))


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The slow repro, a corpus holding it as entry `slow`, and a second interpreter: a
    venv of this one that sees its site-packages (torch)."""
    from symshrink import corpus
    from tests.fixtures_gen import generate

    where = tmp_path_factory.mktemp("signals")
    generate("floordiv_sum", where, n=16, fixture_name="slow")
    corpus.add(where / "slow.py", "slow", corpus=where / "corpora")
    subprocess.run(
        [sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", where / "venv"],
        check=True,
    )
    return where


@pytest.fixture
def tag() -> Iterator[str]:
    """A fresh tag; whatever still carries it at the end is killed (a failed test leaves
    nothing running either)."""
    value = uuid.uuid4().hex
    yield value
    for pid in tagged(value):
        os.kill(pid, signal.SIGKILL)


def assert_none_left(tag: str, since: float) -> None:
    """No tagged process alive GONE_S after `since` (none can start another: every one
    that could is gone or tagged)."""
    while tagged(tag) and time.monotonic() < since + GONE_S:
        time.sleep(0.1)
    left = {pid: _read(f"/proc/{pid}/cmdline").replace(b"\0", b" ") for pid in tagged(tag)}
    assert not left, f"still running {GONE_S:.0f} s later: {left}"


def _case_dir(inputs: Path, command: str, sig: signal.Signals) -> Path:
    """The command's own folder, with a minimize work directory as `report` reads it (a
    recorded run of a `--test`, judged at R = 50 so that the slow member runs on)."""
    tmp = inputs / f"{command.replace(' ', '_').replace('-', '')}-{sig.name}"
    (tmp / "run.work").mkdir(parents=True)
    record = json.loads((ROOT / "tests" / "records" / "report_test_550e771.json").read_text())
    (tmp / "run.work" / "report.json").write_text(json.dumps({**record, "ratio": 50.0}))
    return tmp


@pytest.mark.parametrize(("command", "sig"), SIGNALS, ids=lambda x: getattr(x, "name", x))
def test_a_signalled_command_leaves_no_child_running(
    command: str, sig: signal.Signals, inputs: Path, tag: str
) -> None:
    case = CASES[command]
    tmp = _case_dir(inputs, command, sig)
    err = tmp / "stderr.txt"
    with open(err, "wb") as stderr:  # a pipe nobody reads while it runs could fill
        main = subprocess.Popen(
            [sys.executable, "-m", "symshrink", *case.argv(tmp, inputs)],
            cwd=tmp,
            env={**os.environ, TAG: tag, "PYTHONPATH": str(ROOT)},
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
    deadline = time.monotonic() + 300
    while not case.work.found(tag, main.pid):
        if main.poll() is not None or time.monotonic() > deadline:
            main.kill()
            main.wait()
            pytest.fail(f"{command} ended or never got to work: {err.read_text()[-2000:]}")
        time.sleep(0.05)
    main.send_signal(sig)
    main.wait(timeout=120)
    expected = -sig if sig == signal.SIGKILL else 128 + sig
    assert main.returncode == expected, err.read_text()[-2000:]
    assert_none_left(tag, time.monotonic())

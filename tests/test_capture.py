"""`symshrink capture`: a real torch.compile program run under torch's structured trace, as
a real subprocess; its graphs' repros read back with symshrink's parser and retraced."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from symshrink.capturing import LogReader
from symshrink.repro.parse import parse_file
from symshrink.sandbox import group_members, python_env, read_stat

pytestmark = pytest.mark.spawns  # each test captures a program run in a child

PROG = Path(__file__).with_name("capture_prog.py")


def _capture(tmp: Path, *args: str, env: dict[str, str] | None = None):
    cmd = [sys.executable, "-m", "symshrink", "capture", "-o", str(tmp / "out"), *args]
    return subprocess.run(
        cmd, cwd=tmp, env=python_env(env), capture_output=True, text=True, timeout=600
    )


def _program(*args: str) -> list[str]:
    return ["--", sys.executable, str(PROG), *args]


@pytest.mark.torch
def test_log_reader_counts_only_whole_records(tmp_path: Path) -> None:
    """Records as torch's own trace formatter writes them, read while the file grows: one
    cut short (a killed program's last) is never counted; its payload comes back whole."""
    from torch._logging._internal import TorchLogsFormatter, trace_log, trace_structured

    path = tmp_path / "full.log"
    handler = logging.FileHandler(path)
    handler.setFormatter(TorchLogsFormatter(trace=True))
    saved = trace_log.handlers[:]  # torch's lazy handler, which drops itself when first used
    trace_log.handlers = [handler]
    payload = "a = 1\n\tindented\n\n# last"
    try:
        for name, text in (("first", "x"), ("fx_graph_runnable", payload)):
            trace_structured(
                "artifact",
                metadata_fn=lambda name=name: {"name": name, "encoding": "string"},
                payload_fn=lambda text=text: text,
                suppress_context=True,
            )
        trace_structured("no_payload", metadata_fn=lambda: {"k": 1}, suppress_context=True)
    finally:
        trace_log.handlers = saved
        handler.close()
    full = path.read_bytes()
    growing = tmp_path / "growing.log"
    cut = full.index(b"indented")
    growing.write_bytes(full[:cut])
    reader = LogReader(growing)
    assert [r.meta["artifact"]["name"] for r in reader.read()] == ["first"]
    with growing.open("ab") as f:
        f.write(full[cut:])
    rest = reader.read()
    assert [r.kind for r in rest] == ["artifact", "no_payload"]
    assert rest[0].payload == payload and rest[1].payload is None
    assert reader.read() == []


@pytest.mark.torch
def test_cat_forward_and_backward(tmp_path: Path) -> None:
    """Both graphs written, each parsed with the three inputs' symbols (hints = their
    lengths), the backward with the cat's size as their sum; both retrace (--check)."""
    done = _capture(tmp_path, "--check", *_program("cat"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("compiled cat of 3 inputs")  # the program's own output
    out = tmp_path / "out"
    assert sorted(p.name for p in out.iterdir()) == [
        "0_0_backward.py",
        "0_0_forward.py",
        "capture.json",
    ]
    for kind in ("forward", "backward"):
        text = (out / f"0_0_{kind}.py").read_text()
        assert "TORCH_TRACE" not in text and "FX_GRAPH_CACHE'" not in text  # ours, not its
        model = parse_file(out / f"0_0_{kind}.py")
        assert sorted(model.hints.values()) == [3, 5, 7]
    backward = parse_file(out / "0_0_backward.py")
    assert any(
        {str(s) for s in e.free_symbols} == set(backward.hints) for e in backward.input_exprs()
    )

    table = done.stdout.splitlines()[1:]
    assert table[0].split()[:3] == ["graph", "free", "symbols"] and table[0].endswith("check")
    rows = {line.split()[0]: line for line in table[1:3]}
    assert set(rows) == {"0_0_forward", "0_0_backward"}
    assert all(line.split()[1] == "3" and line.endswith("ok") for line in rows.values())
    assert f"next: symshrink minimize {out}/0_0_" in done.stdout

    summary = json.loads((out / "capture.json").read_text())
    (frame,) = summary["frames"]
    assert frame["done"] and frame["graphs"] == ["0_0_forward", "0_0_backward"]
    parts = frame["dynamo_s"] + frame["aot_s"] + frame["inductor_s"]
    assert abs(parts - frame["seconds"]) < 0.01  # the split adds up
    assert {g["kind"] for g in summary["graphs"]} == {"forward", "backward"}
    assert all(g["done"] and g["check"] == "ok" for g in summary["graphs"])


@pytest.mark.torch
def test_timeout_stops_a_slow_compile_and_keeps_its_repro(tmp_path: Path) -> None:
    """Inductor's forward of `floordiv` takes tens of seconds here, Dynamo and AOTAutograd
    a few: stopped at 8 s, the program's whole group is gone and the forward's repro,
    logged before Inductor began, is written and reported as still compiling."""
    pidfile = tmp_path / "pid"
    done = _capture(
        tmp_path, "--timeout", "8", *_program("floordiv"), env={"PIDFILE": str(pidfile)}
    )
    assert done.returncode == 0, done.stderr
    pid = int(pidfile.read_text())
    assert group_members(pid) == [] and read_stat(pid) is None
    assert "stopping the program" in done.stderr
    out = tmp_path / "out"
    assert not (out / "0_0_backward.py").exists()
    model = parse_file(out / "0_0_forward.py")
    assert len(model.hints) == 16
    row = next(line for line in done.stdout.splitlines() if line.startswith("0_0_forward"))
    assert "≥ " in row and "still compiling" in row
    summary = json.loads((out / "capture.json").read_text())
    assert summary["stopped_at_timeout"]
    assert [(g["graph"], g["done"]) for g in summary["graphs"]] == [("0_0_forward", False)]


def test_a_failing_program_passes_its_exit_code_and_output(tmp_path: Path) -> None:
    done = _capture(tmp_path, *_program("exit", "3"))
    assert done.returncode == 3
    assert done.stderr.splitlines() == [
        "exiting as asked",
        "symshrink: the program exited with code 3",
    ]


def test_sigterm_goes_to_the_program_and_its_code_comes_back(tmp_path: Path) -> None:
    """The program has a process group of its own: capture forwards the signal to it."""
    pidfile = tmp_path / "pid"
    cmd = [sys.executable, "-m", "symshrink", "capture", "-o", str(tmp_path / "out")]
    proc = subprocess.Popen(
        [*cmd, *_program("sleep")],
        cwd=tmp_path,
        env=python_env({"PIDFILE": str(pidfile)}),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while not pidfile.exists() or not pidfile.read_text().endswith("\n"):
        assert time.monotonic() < deadline and proc.poll() is None, "the program never started"
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signal.SIGTERM
    assert err.splitlines()[-1] == "symshrink: the program was killed by SIGTERM"
    pid = int(pidfile.read_text())
    assert group_members(pid) == [] and read_stat(pid) is None


def test_a_program_without_torch_compile_is_exit_1(tmp_path: Path) -> None:
    done = _capture(tmp_path, *_program("plain"))
    assert (done.returncode, done.stdout) == (1, "no compile here\n")
    assert done.stderr == (
        "symshrink: the program compiled nothing: no torch.compile frame in its trace\n"
    )


@pytest.mark.parametrize(
    ("args", "says"),
    [
        ([], "Missing argument 'PROGRAM'"),
        (["--", "no-such-command-here"], "no-such-command-here: not a command that can be run"),
        (
            ["--", "prog.py"],
            "prog.py: not a command that can be run (a Python script runs as: -- python prog.py)",
        ),
        (["--timeout", "0", "--", "true"], "Invalid value for '--timeout': 0 is not > 0"),
        (["--min-seconds", "-1", "--", "true"], "Invalid value for '--min-seconds'"),
    ],
)
def test_bad_options_are_one_line_exit_2(tmp_path: Path, args: list[str], says: str) -> None:
    (tmp_path / "prog.py").write_text("print('not executable')\n")
    done = _capture(tmp_path, *args)
    assert done.returncode == 2
    assert len(done.stderr.splitlines()) == 1 and says in done.stderr, done.stderr


def test_an_output_that_is_a_file_is_exit_2(tmp_path: Path) -> None:
    (tmp_path / "out").write_text("mine")
    done = _capture(tmp_path, "--", "true")
    assert done.returncode == 2
    assert done.stderr == f"symshrink: error: {tmp_path / 'out'}: not a folder; choose another -o\n"
    assert (tmp_path / "out").read_text() == "mine"
    assert not os.path.exists(tmp_path / "capture.json")


@pytest.mark.torch
def test_min_seconds_skips_the_quick_graphs_and_says_so(tmp_path: Path) -> None:
    done = _capture(tmp_path, "--min-seconds", "1000", *_program("cat"))
    assert done.returncode == 1
    assert "2 graphs compiled in under 1000 s (--min-seconds): not written" in done.stdout
    assert done.stderr.splitlines()[-1] == "symshrink: no graph compiled for 1000 s or more"
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["capture.json"]

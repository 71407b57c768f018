"""`symshrink corpus add / list / replay` on a tiny entry minimized from a fixture.

The entry comes from a real `symshrink minimize --test` run on a 3-symbol floor-division
fixture; replay retraces it for real. Verdicts are made deterministic by the threshold
recorded with `add --threshold`: 1e9 s is never reached (`fixed`), 0 s always is
(`still slow`).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.torch  # the fixture is written by torch, replay retraces with it

TEST_SCRIPT = """\
import re, sys
text = open(sys.argv[1]).read()
sys.exit(0 if re.search(r"s\\d+ \\+ s\\d+[^/]*//160", text) else 1)
"""


def symshrink(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """The command as users run it, in a child process."""
    cmd = [sys.executable, "-m", "symshrink", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


def cli(capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch, *args: str):
    """`symshrink ARGS` in this process (no interpreter start-up): (exit code, out, err)."""
    from symshrink.cli import main

    monkeypatch.setattr(sys, "argv", ["symshrink", *args])
    capsys.readouterr()
    try:
        main()
        code = 0
    except SystemExit as e:
        code = e.code or 0
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A finished `minimize --test` run: the original, the minimal script, its work dir."""
    from tests.fixtures_gen import generate

    tmp = tmp_path_factory.mktemp("corpus_run")
    original = generate("floordiv_sum", tmp, n=3).path
    script = tmp / "interesting.py"
    script.write_text(TEST_SCRIPT)
    out, work = tmp / "min.py", tmp / "work"
    result = symshrink(
        "minimize", str(original), "--no-progress", "--test", f"{sys.executable} {script}",
        "-o", str(out), "--work-dir", str(work),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return {"original": original, "min": out, "work": work}


def test_add_list_replay(run: dict[str, Path], tmp_path: Path, capsys, monkeypatch) -> None:
    corpus = tmp_path / "corpora"
    for name, threshold in (("gone", "1e9"), ("hurts", "0")):
        code, _, err = cli(
            capsys, monkeypatch,
            "corpus", "add", str(run["min"]), "--name", name, "--run-dir", str(run["work"]),
            "--corpus", str(corpus), "--threshold", threshold,
        )  # fmt: skip
        assert code == 0, err
        entry = corpus / name
        assert {p.name for p in entry.iterdir()} == {"minimal.py", "case.json", "origin.py"}
        assert (entry / "origin.py").read_text() == run["original"].read_text()
        case = json.loads((entry / "case.json").read_text())
        assert case["threshold_s"] == float(threshold)
        assert case["before"]["free_symbols"] == 3
        assert case["after"]["free_symbols"] == 2
        assert case["torch_version"] and case["torch_settings"] == {}
        assert case["standalone"] is True

    code, out, err = cli(capsys, monkeypatch, "corpus", "list", "--corpus", str(corpus), "--json")
    assert code == 0, err
    rows = json.loads(out)
    assert [r["name"] for r in rows] == ["gone", "hurts"]
    assert all(r["free_symbols"] == 2 and r["expr_ops"] > 0 for r in rows)
    table = cli(capsys, monkeypatch, "corpus", "list", "--corpus", str(corpus))[1].splitlines()
    assert len(table) == 3 and table[1].startswith("gone")

    # The real thing, as a maintainer runs it: each entry retraced in a child.
    replayed = symshrink("corpus", "replay", "--corpus", str(corpus), "--json", "--timeout", "240")
    assert replayed.returncode == 0, replayed.stderr
    report = json.loads(replayed.stdout)
    verdicts = {r["name"]: r for r in report["entries"]}
    assert list(verdicts) == ["gone", "hurts"]
    assert verdicts["gone"]["verdict"] == "fixed", verdicts["gone"]
    assert verdicts["hurts"]["verdict"] == "still slow", verdicts["hurts"]
    assert verdicts["gone"]["measured_s"] > 0 and verdicts["gone"]["error"] is None


def test_replay_verdicts_from_the_child(run: dict[str, Path], tmp_path: Path, monkeypatch) -> None:
    """Factor, retrace errors, timeouts and garbage output, with the child faked."""
    from symshrink import corpus as corpus_mod

    corpus = tmp_path / "corpora"
    corpus_mod.add(run["min"], "one", corpus=corpus, threshold_s=2.0)
    answers = {
        "ok": (0, json.dumps({"compile_s": 3.0, "trace_s": 0.5, "phases": {"codegen": 2.5}}), ""),
        "failed": (1, json.dumps({"compile_s": 0.1, "error": "boom: no_such_knob"}), ""),
        "timeout": (None, "", ""),
        "garbage": (-9, "", "warning\nKilled\n"),
    }
    seen: list[list[str]] = []

    def fake(kind: str):
        def run_child(argv: list[str], timeout_s: float):
            seen.append(argv)
            return answers[kind]

        return run_child

    def verdict(kind: str, **kw):
        monkeypatch.setattr(corpus_mod, "_run", fake(kind))
        (r,) = corpus_mod.replay(corpus, **kw)
        return r

    assert verdict("ok").verdict == "still slow"  # 3.0 >= 1 x 2.0
    assert verdict("ok", factor=2.0).verdict == "fixed"  # 3.0 < 2 x 2.0
    r = verdict("failed", torch_settings={"a.b": "1"})
    assert (r.verdict, r.error) == ("error", "boom: no_such_knob")
    assert seen[-1][-2:] == ["--torch-setting", "a.b=1"] and "--no-native-compile" in seen[-1]
    assert verdict("timeout", timeout_s=5).error == "timeout after 5 s"
    assert verdict("garbage").error == "exit -9: Killed"
    assert "still slow" in corpus_mod.replay_table([verdict("ok")])


def test_bad_input_is_one_line_exit_2(run: dict[str, Path], tmp_path: Path, capsys, monkeypatch):
    corpus = tmp_path / "corpora"
    junk = tmp_path / "junk.py"
    junk.write_text("x = 1\n")
    nowhere = str(tmp_path / "nowhere")
    cases = [
        ("add", str(tmp_path / "missing.py"), "--name", "a", "--corpus", str(corpus)),
        ("add", str(junk), "--name", "a", "--corpus", str(corpus)),
        ("add", str(run["min"]), "--name", "../escape", "--corpus", str(corpus)),
        ("add", str(run["min"]), "--name", "a", "--run-dir", nowhere, "--corpus", str(corpus)),
        ("list", "--corpus", nowhere),
        ("replay", "--corpus", nowhere),
    ]
    for args in cases:
        code, _, err = cli(capsys, monkeypatch, "corpus", *args)
        assert code == 2, (args, err)
        assert len(err.strip().splitlines()) == 1, (args, err)
        assert "Traceback" not in err
    assert not corpus.exists()
    # As users see it, through the installed entry point.
    result = symshrink("corpus", "add", str(junk), "--name", "a", "--corpus", str(corpus))
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1


def test_no_overwrite_without_force(run: dict[str, Path], tmp_path: Path, capsys, monkeypatch):
    corpus = tmp_path / "corpora"
    args = ("corpus", "add", str(run["min"]), "--name", "x", "--corpus", str(corpus))
    assert cli(capsys, monkeypatch, *args, "--threshold", "5")[0] == 0
    code, _, err = cli(capsys, monkeypatch, *args, "--threshold", "7")
    assert code == 2 and "--force" in err
    assert json.loads((corpus / "x" / "case.json").read_text())["threshold_s"] == 5
    assert cli(capsys, monkeypatch, *args, "--threshold", "7", "--force")[0] == 0
    assert json.loads((corpus / "x" / "case.json").read_text())["threshold_s"] == 7
    assert not list((corpus / "x").glob(".*.tmp"))  # atomic writes leave no temp files

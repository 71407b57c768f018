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
    assert verdicts["gone"]["measured_s"] > 0 and verdicts["gone"]["clock"] == "cpu"

    # The width sweep, for real: threshold 0 s, so every member is slow, from width 1.
    swept = symshrink("corpus", "sweep", "hurts", "--corpus", str(corpus), "--json")
    assert swept.returncode == 0, swept.stderr
    (result,) = json.loads(swept.stdout)
    assert result["name"] == "hurts" and result["smallest"] == result["points"][0]["free_symbols"]
    assert all(p["verdict"] == "still slow" for p in result["points"])
    case = json.loads((corpus / "hurts" / "case.json").read_text())
    assert case["smallest_slow"]["free_symbols"] == result["smallest"]


class ScriptedRunner:
    """A runner whose child runs are given in advance: (exit reason, CPU s, result, spots).

    It sees each job as the oracle lays it out, so the test can read the child's spec.
    """

    slots = 1

    def __init__(self, *answers: tuple[str, float, dict | None, dict[str, int]]) -> None:
        self.answers = list(answers)
        self.specs: list[dict] = []
        self.closed = False

    def run(self, job, limits):
        from symshrink.oracle.profile import Profile
        from symshrink.oracle.runner import Exit, Run

        self.specs.append(json.loads(job.spec_path.read_text()))
        reason, cpu, result, spots = self.answers.pop(0)
        names = [name for name, n in spots.items() for _ in range(n)]  # in this order
        samples = tuple(
            (cpu * (i + 1) / len(names), cpu * (i + 1) / len(names), name)
            for i, name in enumerate(names)
        )
        code = 0 if reason == "exited" and not (result or {}).get("error") else 1
        return Run(Exit(reason, cpu + 0.5, cpu, code, True), result, Profile(samples, None), "")

    def close(self) -> None:
        self.closed = True


def test_replay_judges_like_the_oracle(run: dict[str, Path], tmp_path: Path) -> None:
    """Clock, factor, settings, the recorded hot spots, errors and timeouts, on scripted runs."""
    from symshrink import corpus as corpus_mod
    from symshrink.oracle.signature import Signature

    corpus = tmp_path / "corpora"
    entry = corpus_mod.add(run["min"], "one", corpus=corpus, threshold_s=2.0)
    ok = {"compile_s": 3.0, "phases": {"codegen": 2.5, "trace": 0.5}}
    gcd = {"safe_gcd": 9, "other": 1}

    def verdict(answer, **kw):
        runner = ScriptedRunner(answer)
        (r,) = corpus_mod.replay(corpus, runner=runner, **kw)
        assert runner.closed and not runner.answers
        return r, runner.specs[0]

    r, spec = verdict(("exited", 3.0, ok, gcd))
    assert (r.verdict, r.measured_s, r.clock, r.slow_phase) == ("still slow", 3.0, "cpu", "codegen")
    assert spec["retrace"]["no_native_compile"] and spec["retrace"]["mode"] == "preserved"
    assert verdict(("exited", 3.0, ok, gcd), factor=2.0)[0].verdict == "fixed"  # 3.0 < 2 x 2.0
    r, spec = verdict(
        ("exited", 0.1, {"error": "boom: no_such_knob"}, {}), torch_settings={"a.b": "1"}
    )
    assert (r.verdict, r.detail) == ("error", "boom: no_such_knob")
    assert spec["retrace"]["torch_settings"] == {"a.b": "1"}
    r = verdict(("timeout", 9.0, None, gcd), timeout_s=5)[0]
    assert (r.verdict, r.stopped, r.measured_s) == ("still slow", True, 9.0)  # slow until killed
    assert verdict(("timeout", 1.0, None, {}), timeout_s=5)[0].verdict == "error"  # hung, idle
    assert "still slow" in corpus_mod.replay_table([verdict(("exited", 3.0, ok, gcd))[0]])

    # With the run's hot spots recorded, slow for another reason is not 'still slow'.
    case = json.loads((entry / "case.json").read_text())
    case["reference"] = Signature(("codegen",), (("safe_gcd", 0.9),)).to_dict()
    (entry / "case.json").write_text(json.dumps(case))
    assert verdict(("exited", 3.0, ok, gcd))[0].verdict == "still slow"
    r = verdict(("exited", 3.0, ok, {"expand": 10}))[0]
    assert r.verdict == "slow, other cause" and "hot spots" in r.detail
    assert "slow, other cause (" in corpus_mod.replay_table([r])
    # Only the samples up to the limit count, as in minimize's runs stopped there: gcd
    # holds half of the first 2 s (enough), a third of the whole 3 s run (not enough).
    assert verdict(("exited", 3.0, ok, {"safe_gcd": 10, "expand": 20}))[0].verdict == "still slow"
    r = verdict(("exited", 3.0, ok, {"safe_gcd": 10, "expand": 20}), factor=1.5)[0]
    assert r.verdict == "slow, other cause"


def test_sweep_records_the_fewest_slow_symbols(run: dict[str, Path], tmp_path: Path) -> None:
    """Each width judged; the smallest still-slow member is written into case.json."""
    from symshrink import corpus as corpus_mod
    from symshrink.repro.parse import parse_file
    from symshrink.widths import width as knob_width

    corpus = tmp_path / "corpora"
    entry = corpus_mod.add(run["min"], "one", corpus=corpus, threshold_s=2.0)
    width = knob_width(parse_file(entry / "minimal.py"))
    assert width >= 2
    ok = {"compile_s": 1.0, "phases": {"codegen": 1.0}}
    # Not monotone on purpose: width 1 slow, width 2 fast, the rest slow.
    times = [3.0, 1.0] + [3.0] * (width - 2)
    runner = ScriptedRunner(*(("exited", t, ok, {}) for t in times))
    (result,) = corpus_mod.sweep(corpus, runner=runner)
    assert [p.width for p in result.points] == list(range(1, width + 1))
    assert [p.verdict for p in result.points][:2] == ["still slow", "fixed"]
    free = [p.free_symbols for p in result.points]
    assert free == sorted(free) and result.smallest == free[0]
    recorded = json.loads((entry / "case.json").read_text())["smallest_slow"]
    assert recorded["free_symbols"] == free[0] and len(recorded["points"]) == width
    assert recorded["limit_s"] == 2.0 and recorded["clock"] == "cpu"
    assert corpus_mod.list_rows(corpus)[0]["smallest_slow"] == free[0]
    assert "still slow from" in corpus_mod.sweep_table([result])
    # --no-record leaves case.json alone.
    runner = ScriptedRunner(*(("exited", 1.0, ok, {}) for _ in range(width)))
    (none_slow,) = corpus_mod.sweep(corpus, runner=runner, record=False)
    assert none_slow.smallest is None
    assert json.loads((entry / "case.json").read_text())["smallest_slow"] == recorded


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


def test_add_records_the_runs_hot_spots(run: dict[str, Path], tmp_path: Path) -> None:
    """case.json keeps the calibration's signature up to the threshold, for replay."""
    import shutil

    from symshrink import corpus as corpus_mod
    from symshrink.oracle.calibrate import Calibration
    from symshrink.oracle.profile import Profile

    work = tmp_path / "work"
    shutil.copytree(run["work"], work)
    early = tuple((0.1 * i, 0.1 * i, "safe_gcd") for i in range(1, 30))  # up to 2.9 s
    late = tuple((3.05 + 0.1 * i, 3.05 + 0.1 * i, "expand") for i in range(50))  # after
    profile = Profile(early + late, "codegen")
    calibration = Calibration("cpu", (8.0,), 3.0, ("codegen",), (profile,))
    (work / "calibration.json").write_text(json.dumps(calibration.to_dict()))
    entry = corpus_mod.add(run["min"], "hot", corpus=tmp_path / "c", run_dir=work, threshold_s=3.0)
    reference = json.loads((entry / "case.json").read_text())["reference"]
    assert reference == {"phases": ["codegen"], "spots": [["safe_gcd", 1.0]]}
    (hot,) = corpus_mod.entries(tmp_path / "c")
    assert hot.reference is not None and hot.reference.names == ("safe_gcd",)

"""`symshrink corpus add / list / replay` on a tiny entry minimized from a fixture.

The entry comes from a real `symshrink minimize --test` run on a 3-symbol floor-division
fixture; replay retraces it and its static twin for real. Verdicts are made deterministic
by the R recorded with `add --ratio`: 1e9 x its twin is never reached (`fixed`), 1e-9 x
always is (`still slow`).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from symshrink.errors import ReproError, UsageError

# the fixture is written by torch and minimized in a child, replay retraces with it
pytestmark = [pytest.mark.torch, pytest.mark.spawns]

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
    for name, ratio in (("gone", "1e9"), ("hurts", "1e-9")):
        code, _, err = cli(
            capsys, monkeypatch,
            "corpus", "add", str(run["min"]), "--name", name, "--run-dir", str(run["work"]),
            "--corpus", str(corpus), "--ratio", ratio,
        )  # fmt: skip
        assert code == 0, err
        entry = corpus / name
        files = {p.name for p in entry.iterdir()}
        assert files == {"repro.py", "program.py", "case.json", "origin.py"}
        assert (entry / "origin.py").read_text() == run["original"].read_text()
        case = json.loads((entry / "case.json").read_text())
        assert case["ratio"] == float(ratio) and case["format"] == 2
        assert not machine_paths(case), machine_paths(case)
        assert case["origin"] == {
            "script": run["original"].name,
            "file": "origin.py",
            "generate": None,
        }
        assert case["before"]["free_symbols"] == 3
        assert case["after"]["free_symbols"] == 2
        assert case["torch_version"] and case["sympy_version"] and case["torch_settings"] == {}
        assert case["standalone"] is True and case["program"] == "program.py"

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
    gone = verdicts["gone"]
    assert gone["entry_s"] > 0 and gone["twin_s"] > 0 and gone["clock"] == "cpu"
    # the seconds are rounded to the millisecond, the twin here takes ~30: the ratio is exact
    assert gone["ratio"] == pytest.approx(gone["entry_s"] / gone["twin_s"], rel=0.03), gone
    assert gone["at_ratio"] == 1e9 and report["torch_version"] and report["sympy_version"]

    # The width sweep, for real: R = 1e-9, so every member is slow, from width 1.
    swept = symshrink("corpus", "sweep", "hurts", "--corpus", str(corpus), "--json")
    assert swept.returncode == 0, swept.stderr
    (result,) = json.loads(swept.stdout)
    assert result["name"] == "hurts" and result["smallest"] == result["points"][0]["free_symbols"]
    assert all(p["verdict"] == "still slow" and p["twin_s"] > 0 for p in result["points"])
    case = json.loads((corpus / "hurts" / "case.json").read_text())
    assert case["smallest_slow"]["free_symbols"] == result["smallest"]


def machine_paths(data: object) -> list[str]:
    """The strings in a JSON value that are absolute paths (of the machine that wrote it)."""
    if isinstance(data, dict):
        return [p for v in data.values() for p in machine_paths(v)]
    if isinstance(data, list):
        return [p for v in data for p in machine_paths(v)]
    return [data] if isinstance(data, str) and data.startswith("/") else []


class ScriptedRunner:
    """A runner whose child runs are given in advance: (exit reason, CPU s, result, spots).

    It sees each job as the oracle lays it out, so the test can read the child's spec.
    """

    slots = 1
    shares_scratch = False  # no child: nothing reads a kill file written later

    def __init__(self, *answers: tuple[str, float, dict | None, dict[str, int]]) -> None:
        self.answers = list(answers)
        self.specs: list[dict] = []
        self.sources: list[str] = []
        self.closed = False

    def run(self, job, limits):
        from symshrink.sandbox import Exit, Profile, Run

        self.specs.append(json.loads(job.spec_path.read_text()))
        self.sources.append(job.script.read_text())
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


TWIN = ("exited", 1.0, {"compile_s": 1.0, "phases": {"codegen": 1.0}}, {})  # 1 s


def test_replay_judges_like_the_oracle(run: dict[str, Path], tmp_path: Path) -> None:
    """The ratio to the twin, R, settings, hot spots, errors and timeouts, on scripted runs."""
    from symshrink import corpus as corpus_mod
    from symshrink.oracle.signature import Signature

    corpus = tmp_path / "corpora"
    entry = corpus_mod.add(run["min"], "one", corpus=corpus, ratio=2.0)
    ok = {"compile_s": 3.0, "phases": {"codegen": 2.5, "trace": 0.5}}
    gcd = {"safe_gcd": 9, "other": 1}

    def verdict(*answers, twin_runs=1, **kw):
        runner = ScriptedRunner(*answers)
        (r,) = corpus_mod.replay(corpus, runner=runner, twin_runs=twin_runs, **kw)
        assert runner.closed and not runner.answers
        return r, runner.specs

    # The twin first (all symbols pinned: no free symbol left), then the entry.
    r, specs = verdict(TWIN, ("exited", 3.0, ok, gcd))
    assert (r.verdict, r.entry_s, r.twin_s, r.ratio) == ("still slow", 3.0, 1.0, 3.0)
    assert (r.at_ratio, r.clock, r.slow_phase) == (2.0, "cpu", "codegen")
    assert all(s["retrace"]["no_native_compile"] for s in specs)
    assert [s["retrace"]["mode"] for s in specs] == ["preserved", "preserved"]
    r = verdict(TWIN, ("exited", 3.0, ok, gcd), ratio=4.0)[0]  # 3.0 < 4 x 1.0
    assert (r.verdict, r.at_ratio) == ("fixed", 4.0)
    # The twin's median counts: 1, 1, 7 s -> 1 s.
    slow_twin = ("exited", 7.0, TWIN[2], {})
    assert verdict(TWIN, TWIN, slow_twin, ("exited", 3.0, ok, gcd), twin_runs=3)[0].twin_s == 1.0
    boom = ("exited", 0.1, {"error": "boom: no_such_knob"}, {})
    r, specs = verdict(TWIN, boom, torch_settings={"a.b": "1"})
    assert (r.verdict, r.detail) == ("error", "boom: no_such_knob")
    assert all(s["retrace"]["torch_settings"] == {"a.b": "1"} for s in specs)
    r = verdict(boom)[0]  # the twin fails: the entry is not run
    assert r.verdict == "error" and "control fails: boom" in r.detail and r.entry_s is None
    r = verdict(TWIN, ("timeout", 9.0, None, gcd), timeout_s=5)[0]
    assert (r.verdict, r.stopped, r.entry_s, r.ratio) == ("still slow", True, 9.0, 9.0)
    assert ">=9.000" in corpus_mod.replay_table([r])  # a lower bound
    assert verdict(TWIN, ("timeout", 1.0, None, {}), timeout_s=5)[0].verdict == "error"  # hung

    # With the run's hot spots recorded, slow for another reason is not 'still slow'.
    case = json.loads((entry / "case.json").read_text())
    case["reference"] = Signature(("codegen",), (("safe_gcd", 0.9),)).to_dict()
    (entry / "case.json").write_text(json.dumps(case))
    assert verdict(TWIN, ("exited", 3.0, ok, gcd))[0].verdict == "still slow"
    r = verdict(TWIN, ("exited", 3.0, ok, {"expand": 10}))[0]
    assert r.verdict == "slow, other cause" and "hot spots" in r.detail
    assert "slow, other cause (" in corpus_mod.replay_table([r])
    # Only the samples up to R x the twin count, as in minimize's runs stopped there: gcd
    # holds half of the first 2 s (R = 2: enough), a third of the first 2.9 s (not enough).
    mixed = ("exited", 3.0, ok, {"safe_gcd": 10, "expand": 20})
    assert verdict(TWIN, mixed)[0].verdict == "still slow"
    assert verdict(TWIN, mixed, ratio=2.9)[0].verdict == "slow, other cause"

    # An entry minimized against the independent control is replayed against it.
    (entry / "case.json").write_text(json.dumps({**case, "baseline": "independent"}))
    r, specs = verdict(TWIN, ("exited", 3.0, ok, gcd))
    assert [s["retrace"]["mode"] for s in specs] == ["independent", "preserved"]


def test_versions_table_puts_torch_versions_side_by_side(run: dict[str, Path], tmp_path: Path):
    """`--python`: another interpreter's `replay --json`, read back as a column."""
    from symshrink import corpus as corpus_mod

    corpus = tmp_path / "corpora"
    corpus_mod.add(run["min"], "one", corpus=corpus, ratio=2.0)
    here = corpus_mod.replay(
        corpus, runner=ScriptedRunner(TWIN, ("exited", 3.0, {}, {})), twin_runs=1
    )
    record = corpus_mod.replay_record(here, {})
    other = {**record, "torch_version": "9.9.9"}
    other["entries"] = [{**record["entries"][0], "verdict": "fixed", "ratio": 1.5}]
    fake = tmp_path / "python"  # an interpreter that prints another torch's replay
    fake.write_text(
        f"#!/bin/sh\necho \"$*\" > {tmp_path}/args\ncat <<'EOF'\n{json.dumps(other)}\nEOF\n"
    )
    fake.chmod(0o755)
    got = corpus_mod.replay_with(
        str(fake), corpus, names=["one"], torch_settings={"a.b": "1"}, timeout_s=60,
        ratio=None, twin_runs=3,
    )  # fmt: skip
    assert got == other
    args = (tmp_path / "args").read_text().split()
    assert args[:5] == ["-m", "symshrink", "corpus", "replay", "one"]
    assert "--json" in args and "--torch-setting=a.b=1" in args and "--ratio" not in args
    header, row = corpus_mod.versions_table([record, got]).splitlines()
    assert header.split()[-4:] == ["torch", record["torch_version"], "torch", "9.9.9"]
    assert row.startswith("one") and "3.00x (3.000/1.000s) still slow" in row
    assert row.endswith("1.50x (3.000/1.000s) fixed")
    fake.write_text("#!/bin/sh\necho 'ModuleNotFoundError: symshrink' >&2\nexit 1\n")
    with pytest.raises(ReproError, match="exit 1: ModuleNotFoundError"):
        corpus_mod.replay_with(
            str(fake), corpus, names=[], torch_settings={}, timeout_s=60, ratio=None,
            twin_runs=1,
        )  # fmt: skip


def test_sweep_records_the_fewest_slow_symbols(run: dict[str, Path], tmp_path: Path) -> None:
    """Each width judged against its own twin; the smallest still-slow member is written
    into case.json."""
    from symshrink import corpus as corpus_mod
    from symshrink.repro.parse import parse_file
    from symshrink.widths import width as knob_width

    corpus = tmp_path / "corpora"
    entry = corpus_mod.add(run["min"], "one", corpus=corpus, ratio=2.0)
    width = knob_width(parse_file(entry / "repro.py"))
    assert width >= 2
    ok = {"compile_s": 1.0, "phases": {"codegen": 1.0}}
    # Not monotone on purpose: width 1 slow, width 2 fast, the rest slow; each member's
    # twin is measured before it.
    times = [3.0, 1.0] + [3.0] * (width - 2)
    answers = [a for t in times for a in (TWIN, ("exited", t, ok, {}))]
    (result,) = corpus_mod.sweep(corpus, runner=ScriptedRunner(*answers), twin_runs=1)
    assert [p.width for p in result.points] == list(range(1, width + 1))
    assert [p.verdict for p in result.points][:2] == ["still slow", "fixed"]
    assert [p.ratio for p in result.points][:2] == [3.0, 1.0]
    free = [p.free_symbols for p in result.points]
    assert free == sorted(free) and result.smallest == free[0]
    recorded = json.loads((entry / "case.json").read_text())["smallest_slow"]
    assert recorded["free_symbols"] == free[0] and len(recorded["points"]) == width
    assert recorded["ratio"] == 2.0 and recorded["clock"] == "cpu"
    assert corpus_mod.list_rows(corpus)[0]["smallest_slow"] == free[0]
    assert "still slow from" in corpus_mod.sweep_table([result])
    # --no-record leaves case.json alone.
    answers = [a for _ in range(width) for a in (TWIN, ("exited", 1.0, ok, {}))]
    (none_slow,) = corpus_mod.sweep(
        corpus, runner=ScriptedRunner(*answers), twin_runs=1, record=False
    )
    assert none_slow.smallest is None
    assert json.loads((entry / "case.json").read_text())["smallest_slow"] == recorded


def test_widen_finds_the_clearly_slow_width_and_replay_judges_there(
    run: dict[str, Path], tmp_path: Path, capsys, monkeypatch
) -> None:
    """From its own width up until a member is slow at 2 x R x its twin; `replay_width` in
    case.json, and replay judges that member (else, with --own-width, the entry itself)."""
    from symshrink import corpus as corpus_mod
    from symshrink.repro.parse import parse
    from symshrink.widths import width as knob_width

    corpus = tmp_path / "corpora"
    entry = corpus_mod.add(run["min"], "one", corpus=corpus, ratio=2.0)
    own = knob_width(parse((entry / "repro.py").read_text()))
    ok = {"compile_s": 1.0, "phases": {"codegen": 1.0}}
    # R = 2: its own width 3x (slow at R, not clearly), +1 3.9x, +2 4.5x (clearly: stop).
    answers = [a for t in (3.0, 3.9, 4.5) for a in (TWIN, ("exited", t, ok, {}))]
    runner = ScriptedRunner(*answers)
    (result,) = corpus_mod.widen(corpus, runner=runner, twin_runs=1)
    assert not runner.answers and [p.width for p in result.points] == [own, own + 1, own + 2]
    assert (result.width, result.slow, result.own) == (own + 2, own, own)
    recorded = json.loads((entry / "case.json").read_text())["replay_width"]
    assert (recorded["width"], recorded["slow"], recorded["factor"]) == (own + 2, own, 2.0)
    assert len(recorded["points"]) == 3 and recorded["ratio"] == 2.0
    assert f"clearly slow (>= 2 x R) from width {own + 2}, slow from {own}" in (
        corpus_mod.widen_table([result])
    )
    assert f"{own} (own)" in corpus_mod.widen_table([result])

    runner = ScriptedRunner(TWIN, ("exited", 5.0, ok, {}))
    (r,) = corpus_mod.replay(corpus, runner=runner, twin_runs=1, record=True)
    assert (r.width, r.verdict, r.via) == (own + 2, "still slow", "retrace")
    member = parse(runner.sources[-1])
    assert len(member.hints) == len(parse((entry / "repro.py").read_text()).hints) + 2
    case = json.loads((entry / "case.json").read_text())
    assert [v["width"] for v in case["replays"].values()] == [own + 2]
    assert f"one   retrace  {own + 2}" in corpus_mod.replay_table([r])
    runner = ScriptedRunner(TWIN, ("exited", 5.0, ok, {}))
    (r,) = corpus_mod.replay(corpus, runner=runner, twin_runs=1, own_width=True)
    assert r.width is None and runner.sources[-1] == (entry / "repro.py").read_text()
    assert "one   retrace  own" in corpus_mod.replay_table([r])

    # None clearly slow up to --max-width: recorded as none, replay stays at its own.
    answers = [a for _ in range(2) for a in (TWIN, ("exited", 3.0, ok, {}))]
    (none,) = corpus_mod.widen(
        corpus, runner=ScriptedRunner(*answers), twin_runs=1, max_width=own + 1
    )
    assert (none.width, none.slow) == (None, own)
    # A member that fails (here its twin) ends the climb: a wider one fails the same way.
    boom = ("exited", 0.1, {"error": "shape '[149600]' is invalid"}, {})
    runner = ScriptedRunner(TWIN, ("exited", 3.0, ok, {}), boom)
    (failed,) = corpus_mod.widen(corpus, runner=runner, twin_runs=1)
    assert [p.verdict for p in failed.points] == ["still slow", "error"] and not runner.answers
    (r,) = corpus_mod.replay(corpus, runner=ScriptedRunner(TWIN, TWIN), twin_runs=1)
    assert r.width is None


PROGRAM_STAND_IN = """
import json, sys, time
mode = sys.argv[sys.argv.index("--mode") + 1]
start = time.process_time()
while time.process_time() - start < {"static": 0.05, "dynamic": 0.3}[mode]:
    pass
print(json.dumps({"seconds": time.process_time() - start, "argv": sys.argv[1:]}))
"""


def test_replay_via_the_program(run: dict[str, Path], tmp_path: Path) -> None:
    """`--via program`: program.py run static and dynamic in fresh processes (here a
    stand-in that burns CPU, 6x), at the entry's replay width; both ways, one row each."""
    from symshrink import corpus as corpus_mod

    corpus = tmp_path / "corpora"
    entry = corpus_mod.add(run["min"], "one", corpus=corpus, ratio=2.0)
    (entry / "program.py").write_text(PROGRAM_STAND_IN)
    ok = {"compile_s": 1.0, "phases": {"codegen": 1.0}}
    runner = ScriptedRunner(TWIN, TWIN, ("exited", 3.0, ok, {}))
    rows = corpus_mod.replay(corpus, runner=runner, twin_runs=2, via=("retrace", "program"))
    assert [(r.via, r.verdict) for r in rows] == [
        ("retrace", "still slow"),
        ("program", "still slow"),
    ]
    program = rows[1]
    assert program.entry_s is not None and program.twin_s is not None and program.ratio
    assert program.ratio >= 4 and "2 of 2 dynamic runs at 2x" in program.detail
    table = corpus_mod.replay_table(rows).splitlines()
    assert table[2].startswith("one   retrace") and table[3].startswith("one   program")
    with pytest.raises(UsageError, match="does not reach program"):
        corpus_mod.replay(corpus, via=("program",), torch_settings={"a.b": "1"})
    with pytest.raises(UsageError, match="--via: one or more of retrace, program, got nope"):
        corpus_mod.replay(corpus, via=("nope",))
    case = json.loads((entry / "case.json").read_text())
    del case["program"]
    (entry / "case.json").write_text(json.dumps({**case, "no_program": "duck sizing"}))
    (r,) = corpus_mod.replay(corpus, via=("program",))
    assert (r.verdict, r.detail) == ("error", "no program: duck sizing")


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
    assert cli(capsys, monkeypatch, *args, "--ratio", "5")[0] == 0
    code, _, err = cli(capsys, monkeypatch, *args, "--ratio", "7")
    assert code == 2 and "--force" in err
    assert json.loads((corpus / "x" / "case.json").read_text())["ratio"] == 5
    assert cli(capsys, monkeypatch, *args, "--ratio", "7", "--force")[0] == 0
    assert json.loads((corpus / "x" / "case.json").read_text())["ratio"] == 7
    assert not list((corpus / "x").glob(".*.tmp"))  # atomic writes leave no temp files


def test_add_records_the_ratio_run_and_its_hot_spots(run: dict[str, Path], tmp_path: Path):
    """From a ratio run's report.json: R, the times against the twins, the settings; from
    its calibration.json the hot spots, for replay; no path of this machine."""
    import shutil

    from symshrink import corpus as corpus_mod
    from symshrink.oracle.calibrate import Calibration
    from symshrink.sandbox import Profile

    work = tmp_path / "work"
    shutil.copytree(run["work"], work)
    samples = [(0.1 * i, 0.1 * i, "safe_gcd" if i % 4 else "expand") for i in range(1, 41)]
    calibration = Calibration(
        "cpu", (8.0,), 4.0, ("codegen",), (Profile(tuple(samples), "codegen"),), ratio=4.0,
        baseline_measures=(1.0, 1.1, 0.9), stopped=True,
    )  # fmt: skip
    (work / "calibration.json").write_text(json.dumps(calibration.to_dict()))
    report = json.loads((work / "report.json").read_text())
    report["ratio"], report["baseline"] = 4.0, "static"
    report["options"].update(ratio=4.0, test="/somewhere/interesting.py", margin=None)
    report["initial"].update(slow_phase_s=32.0, baseline_s=1.0, ratio=32.0, lower_bound=True)
    report["final"].update(slow_phase_s=4.4, baseline_s=1.0, ratio=4.4, lower_bound=True)
    (work / "report.json").write_text(json.dumps(report))
    assert report["repro"].startswith("/")  # the run's report names this machine's paths

    entry = corpus_mod.add(run["min"], "hot", corpus=tmp_path / "c", run_dir=work)
    case = json.loads((entry / "case.json").read_text())
    assert not machine_paths(case), machine_paths(case)
    assert case["ratio"] == 4.0 and case["baseline"] == "static"
    assert case["options"] == {"ratio": 4.0, "baseline": "static", "threshold": None,
                               "margin": None, "confirm": 0, "signature": True}  # fmt: skip
    assert case["before"]["ratio"] == 32.0 and case["before"]["lower_bound"]
    after = case["after"]
    assert (after["slow_phase_s"], after["baseline_s"], after["ratio"]) == (4.4, 1.0, 4.4)
    assert after["measured_by"] == "minimize's re-verification"
    assert case["reference"] == {
        "phases": ["codegen"],
        "spots": [["safe_gcd", 0.75], ["expand", 0.25]],
    }
    (hot,) = corpus_mod.entries(tmp_path / "c")
    assert hot.reference is not None and hot.reference.names == ("safe_gcd", "expand")
    assert (hot.ratio, hot.twin_ratio) == (4.0, 4.4)
    row = corpus_mod.list_rows(tmp_path / "c")[0]
    assert (row["entry_s"], row["twin_s"], row["ratio"], row["at_ratio"]) == (4.4, 1.0, 4.4, 4.0)
    assert ">=4.40x" in corpus_mod.list_table([row])


def test_links_and_the_sympy_reproducer(run: dict[str, Path], tmp_path: Path, capsys, monkeypatch):
    """`add --link` records where an entry came from; `corpus sympy-repro` keeps a sympy-only
    script where the replay of the compile's sympy calls verified, else says why."""
    from symshrink import corpus as corpus_mod
    from symshrink import sympy_repro as sr

    corpus = tmp_path / "corpora"
    links = ["https://github.com/pytorch/pytorch/issues/1", "https://github.com/sympy/sympy/pull/2"]
    args = ("corpus", "add", str(run["min"]), "--name", "x", "--run-dir", str(run["work"]))
    code, _, err = cli(capsys, monkeypatch, *args, "--corpus", str(corpus), "--link", links[0],
                       "--link", links[1])  # fmt: skip
    assert code == 0, err
    assert (corpus / "x" / "origin.py").is_file()  # the report names the original
    assert json.loads((corpus / "x" / "case.json").read_text())["links"] == links

    # For real: this tiny floor division's sympy calls are recorded, replayed and judged.
    code, out, err = cli(capsys, monkeypatch, "corpus", "sympy-repro", "x", "--corpus", str(corpus))
    assert code == 0, err
    case = json.loads((corpus / "x" / "case.json").read_text())
    record = case["sympy_repro"]
    assert out.startswith("x: ") and record["script"] == "repro.py" and record["compile_s"] > 0
    assert (record["file"] is None) == bool(record.get("why")), record
    assert (corpus / "x" / "sympy_repro.py").exists() == (record["file"] is not None)
    assert not machine_paths(case), machine_paths(case)

    recording = sr.Recording(
        "repro.py", (sr.Call("sympy.gcd", ("a", "b"), 0.4),) * 3, compile_s=2.0
    )

    def built(verified: bool):
        def fake(script: Path, out: Path, **_: object) -> sr.Built:
            if not verified:
                return sr.Built(recording, (0.1, 0.2, 0.1), why="under half")
            out.write_text("print('seconds: 1.0')\n")
            kept = recording.only([0])
            return sr.Built(recording, (1.0, 1.1, 0.9), True, kept, (0.5, 0.6, 0.5), 0.01, 7)

        return fake

    monkeypatch.setattr(sr, "build", built(True))
    ((name, kept),) = corpus_mod.sympy_repros(corpus)
    assert name == "x" and kept.file == "sympy_repro.py" and kept.why is None
    assert (kept.calls, kept.calls_s, kept.replay_s, kept.verified) == (
        3,
        1.2,
        (1.0, 1.1, 0.9),
        True,
    )
    assert (kept.kept, kept.kept_s, kept.kept_replay_s, kept.control_s) == (
        1,
        0.4,
        (0.5, 0.6, 0.5),
        0.01,
    )
    assert kept.functions == ("sympy.gcd",)
    assert (corpus / "x" / "sympy_repro.py").read_text() == "print('seconds: 1.0')\n"
    monkeypatch.setattr(sr, "build", built(False))
    ((_, record),) = corpus_mod.sympy_repros(corpus)
    assert record.file is None and record.why == "under half" and record.verified is False
    assert not (corpus / "x" / "sympy_repro.py").exists()

"""`symshrink triage` and the Python API: the budget's split, why nothing is triaged, the
exit codes, bad input raising one exception type, and a run the budget cuts short."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import symshrink
from symshrink import triaging
from symshrink.baseline import static_twin
from symshrink.records import CaptureFrame, CaptureGraph, CaptureRecord, Triage
from symshrink.repro.parse import parse_file
from symshrink.repro.render import render
from symshrink.sandbox import python_env

ROOT = Path(__file__).resolve().parents[1]
PROG = ROOT / "tests" / "capture_prog.py"
CORPUS = ROOT / "corpora"


def _triage(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "symshrink", "triage", "-o", str(tmp / "out"), *args]
    return subprocess.run(
        cmd, cwd=tmp, env=python_env(), capture_output=True, text=True, timeout=1200
    )


# ------------------------------------------------------------------------------- budget


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("20m", 1200), ("1h30m", 5400), ("90s", 90), ("90", 90), ("1.5h", 5400), ("2m30s", 150)],
)
def test_durations(text: str, seconds: float) -> None:
    assert triaging.parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["", "m", "20 min", "-5m", "0", "1d", "5m5h"])
def test_bad_durations(text: str) -> None:
    with pytest.raises(symshrink.UsageError):
        triaging.parse_duration(text)


def test_the_budget_split() -> None:
    """A quarter for the capture at most; a reserve for what follows the reduction: 4 min
    for the result's program check (six fresh processes) and 15 % for the rest, at most
    60 %; the reduction what is left between; one call at most a fifth of the reduction,
    between 30 s and minimize's 600 s."""
    budget = triaging.Budget(1200.0, started=0.0)
    assert budget.capture_s == 300.0 and budget.after_s == pytest.approx(420.0)
    assert budget.reduction_s(now=0.0) == pytest.approx(780.0)
    assert budget.reduction_s(now=100.0) == pytest.approx(680.0)  # the capture took 100 s
    assert budget.reduction_s(now=800.0) == 0.0  # past the reserve: the result so far
    assert budget.left(now=1300.0) == 0.0
    assert budget.elapsed(now=1300.0) == 1300.0  # a run past its budget says by how much
    assert triaging.Budget(480.0).after_s == pytest.approx(288.0)  # 8 min: 60 %
    assert triaging.Budget(1800.0).after_s == pytest.approx(510.0)
    assert triaging.Budget(3600.0).after_s == pytest.approx(780.0)
    assert (triaging.Budget.call_s(60), triaging.Budget.call_s(1000)) == (30.0, 200.0)
    assert triaging.Budget.call_s(10_000) == 600.0


def test_the_record_counts_the_time_past_the_budget(tmp_path: Path) -> None:
    """A stage the budget cannot stop (the result's program check) may end past it: the
    record's total and the stage's seconds say so, not the budget."""
    options = triaging.Options(out=tmp_path, repro=tmp_path / "r.py", budget_s=60)
    run = triaging._Run(options, triaging.Budget(60.0, started=-100.0), notify=lambda _: None)
    with run.stage("minimize"):
        pass
    found = run.done("not slow", "1.2x")
    assert found.total_s >= 100.0 and found.budget_s == 60.0


# ---------------------------------------------------------------- why nothing is triaged


def _frame(seconds: float, before: float, graphs: tuple[str, ...] = ()) -> CaptureFrame:
    return CaptureFrame(
        frame="0_0",
        where="fn (prog.py:3)",
        seconds=seconds,
        done=True,
        dynamo_s=before,
        aot_s=0.0,
        inductor_s=seconds - before,
        graphs=graphs,
    )


def _graph(symbols: int) -> CaptureGraph:
    return CaptureGraph(
        graph="0_0_forward",
        file="0_0_forward.py",
        frame="0_0",
        kind="forward",
        seconds=3.0,
        done=True,
        phase="lowering 60%",
        phases={},
        check=None,
        free_symbols=symbols,
    )


def _captured(frames=(), graphs=(), exit_code: int = 0) -> CaptureRecord:
    return CaptureRecord(
        program=("python", "prog.py"),
        torch="2.13.0",
        exit_code=exit_code,
        stopped_at_timeout=False,
        timeout=None,
        min_seconds=0.0,
        skipped=0,
        frames=tuple(frames),
        graphs=tuple(graphs),
    )


@pytest.mark.parametrize(
    ("captured", "verdict", "says"),
    [
        (_captured(), "no graph", "compiled nothing"),
        (_captured(exit_code=3), "program failed", "exited with code 3"),
        (_captured([_frame(40.0, 40.0)]), "outside any graph", "no graph of it reached"),
        (_captured([_frame(0.5, 0.5)]), "no graph", "no graph reached Inductor"),
        (_captured([_frame(4.0, 1.0)], [_graph(0)]), "no symbols", "static shapes"),
        (
            _captured([_frame(40.0, 30.0)], [_graph(0)]),
            "outside any graph",
            "0_0 fn (prog.py:3) took 40.0 s, 30.0 s of it in Dynamo",
        ),
        (_captured([_frame(4.0, 1.0)], [_graph(2)]), None, ""),
    ],
)
def test_why_no_graph_qualifies(captured: CaptureRecord, verdict: str | None, says: str) -> None:
    why = triaging._why_none(captured)
    assert (why[0] if why else None) == verdict
    assert says in (why[1] if why else "")


@pytest.mark.parametrize(
    ("frame", "verdict"),
    [
        (_frame(2.4, 1.3), "not slow"),  # the cat program's frame on a slow machine
        (_frame(40.0, 30.0), "outside any graph"),
        (_frame(40.0, 10.0), "not slow"),
    ],
)
def test_not_slow_says_where_a_slow_frame_went(
    tmp_path: Path, frame: CaptureFrame, verdict: str
) -> None:
    """A graph not slow against its twin is 'outside any graph' only where its frame was
    slow and its time went to Dynamo and AOTAutograd; then it says where that frame is,
    as the verdict without a graph does."""
    options = triaging.Options(out=tmp_path, program=("python", "prog.py"), budget_s=600)
    run = triaging._Run(options, triaging.Budget(600.0), notify=lambda _: None)
    run.capture = _captured([frame], [_graph(2)])
    run.graph = run.capture.graphs[0]
    said, why = triaging._not_slow(run, "the original is not slow: 1.2x")
    assert said == verdict and why.startswith("the original is not slow: 1.2x")
    assert ("frame 0_0 fn (prog.py:3) took" in why) == (verdict == "outside any graph")


def test_a_graph_not_slow_gives_way_to_the_next(tmp_path: Path) -> None:
    """The slowest graph need not be the one slow through its symbols: the next slowest
    with free symbols is judged, while there is one and the budget allows."""
    second = CaptureGraph(**{**_graph(2).to_dict(), "graph": "0_0_backward", "file": "b.py"})
    captured = _captured([_frame(40.0, 1.0)], [_graph(3), _graph(0), second])
    options = triaging.Options(out=tmp_path, program=("python", "prog.py"), budget_s=1200)
    run = triaging._Run(options, triaging.Budget(1200.0), notify=lambda _: None)
    run.capture = captured
    triaging._take(run, captured.graphs[0])
    assert triaging._next_graph(run, run.done("not slow", "1.2x"))
    assert run.graph == second and run.repro == (tmp_path / "capture" / "b.py").resolve()
    assert not triaging._next_graph(run, run.done("not slow", "1.1x"))  # none left
    assert run.not_slow == ["0_0_forward: 1.2x", "0_0_backward: 1.1x"]
    late = triaging._Run(options, triaging.Budget(1200.0, started=-1000.0), lambda _: None)
    late.capture = captured
    triaging._take(late, captured.graphs[0])
    assert not triaging._next_graph(late, late.done("not slow", "1.2x"))  # no time for it


# ------------------------------------------------------------------------- known or new


def _matched(tmp_path: Path, repro: Path, corpus: Path) -> tuple:
    """triage's match stage on `repro` as a run's result (and original), nothing measured."""
    from types import SimpleNamespace

    options = triaging.Options(out=tmp_path, repro=repro, corpus=corpus)
    run = triaging._Run(options, triaging.Budget(600.0), notify=lambda _: None)
    run.repro = repro
    run.record = SimpleNamespace(out=str(repro), hot_spots=(), slow_phase=None)  # type: ignore[assignment]
    run.files["run"] = "no-such-work-dir"  # no calibration: no hot spots either
    return triaging._match(run)


def test_an_entry_of_the_corpus_is_known_and_without_it_new(tmp_path: Path) -> None:
    """The decision and its words: an entry's own repro is that entry, known, with the
    words of its last replay under this torch; with the entry left out of the corpus it is
    new, the closest entry and its score said, and no match claimed."""
    import shutil

    repro = CORPUS / "prod_pythonmod" / "repro.py"
    verdict, why, match, candidates, shape = _matched(tmp_path, repro, CORPUS)
    assert verdict == "known" and match is not None and match.entry == "prod_pythonmod"
    assert match.score >= 0.6 and why.startswith("matches corpus entry prod_pythonmod (score ")
    assert "not replayed under torch" in why or "per its last replay" in why
    assert candidates[0] == match and len(candidates) == 3 and shape == match.shape
    others = tmp_path / "corpora"
    for entry in CORPUS.iterdir():
        if entry.is_dir() and entry.name != "prod_pythonmod":
            shutil.copytree(entry, others / entry.name)
    verdict, why, match, candidates, _ = _matched(tmp_path, repro, others)
    assert verdict == "new" and match is None
    assert why == (
        f"new: no corpus entry scores 0.6 or more; closest: {candidates[0].entry} at "
        f"{candidates[0].score:.2f}"
    )
    assert candidates[0].score < 0.6


def test_a_known_match_says_what_its_last_replay_found() -> None:
    from symshrink.records import Replayed

    still = Replayed(
        verdict="still slow",
        ratio=7.25,
        stopped=False,
        at_ratio=4.0,
        measured="2026-12-02T18:00:00Z",
    )
    cut = Replayed(
        verdict="fixed", ratio=1.4, stopped=True, at_ratio=4.0, measured="2026-12-01T09:00:00Z"
    )
    assert "still slow on this torch" in triaging._replay_words(still)
    assert "(2026-12-02, 7.25x its twin, R = 4)" in triaging._replay_words(still)
    assert "fixed on this torch" in triaging._replay_words(
        cut
    ) and "≥ 1.40x" in triaging._replay_words(cut)
    assert triaging._replay_words(None).startswith("not replayed under torch ")


# --------------------------------------------------------------------------- the API


def test_the_api_raises_one_exception_for_bad_input(tmp_path: Path) -> None:
    repro = CORPUS / "sym_outer_floordiv" / "repro.py"
    bad = [
        lambda: symshrink.triage(tmp_path / "missing.py", tmp_path / "out"),
        lambda: symshrink.triage(repro, tmp_path / "out", budget="soon"),
        lambda: symshrink.triage(repro, tmp_path / "out", budget=0),
        lambda: symshrink.triage(repro, tmp_path / "out", add_to_corpus="bad name"),
        lambda: symshrink.triage(repro, tmp_path / "out", add_to_corpus="sym_outer_floordiv"),
        lambda: symshrink.triage(repro, repro),  # -o onto a file
        lambda: symshrink.triage([], tmp_path / "out"),  # no program, no repro
        lambda: symshrink.minimize(repro, ratio=1.0),
        lambda: symshrink.minimize(repro, jobs=0),
        lambda: symshrink.minimize(repro, colour="blue"),
        lambda: symshrink.minimize(tmp_path / "missing.py"),
        lambda: symshrink.capture("python prog.py", tmp_path / "out"),
        lambda: symshrink.capture(["python", "prog.py"], tmp_path / "out", timeout=0),
        lambda: symshrink.capture(["no-such-command-here"], tmp_path / "out"),
    ]
    for call in bad:
        with pytest.raises(symshrink.SymshrinkError):
            call()
    assert not (tmp_path / "out").exists()  # refused before anything ran


def test_the_api_names_stay_functions_whatever_is_imported() -> None:
    """A module named like an API function would replace it on the package once imported."""
    import importlib
    import pkgutil

    for module in pkgutil.walk_packages(symshrink.__path__, "symshrink."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)
    for name in ("capture", "minimize", "triage"):
        assert getattr(symshrink, name).__module__ == "symshrink.api", name


# ------------------------------------------------------------------------------ the CLI


@pytest.mark.spawns
@pytest.mark.parametrize(
    ("args", "says"),
    [
        ([], "Missing argument"),
        (["--budget", "soon", "x.py"], "not a duration"),
        (["missing.py"], "missing.py"),
        (["--add-to-corpus", "a b", "--", "python", "prog.py"], "bad entry name"),
        (
            ["prog.py"],
            "prog.py: no `class Repro` (not an after-aot repro); a program goes "
            "after --: symshrink triage -- python prog.py",
        ),
        (["prog.py", "--budget", "5m"], "prog.py: options go before it"),
    ],
)
def test_bad_input_is_one_line_exit_2(tmp_path: Path, args: list[str], says: str) -> None:
    """A program given where its repro goes (the commonest slip) says how to give it."""
    (tmp_path / "prog.py").write_text("print('a program, not a repro')\n")
    done = _triage(tmp_path, *args)
    assert done.returncode == 2, done.stderr
    assert says in done.stderr and len(done.stderr.strip().splitlines()) == 1


@pytest.mark.spawns
def test_a_program_that_compiles_nothing_is_exit_1(tmp_path: Path) -> None:
    done = _triage(tmp_path, "--", sys.executable, str(PROG), "plain")
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip().splitlines()[-1] == (
        "symshrink: no graph: the program compiled nothing: no torch.compile frame in its trace"
    )
    record = Triage.load(tmp_path / "out" / "triage.json")
    assert record.verdict == "no graph" and record.exit_code == 1 and "capture" in record.seconds


@pytest.mark.spawns
def test_a_program_that_fails_first_is_exit_3(tmp_path: Path) -> None:
    done = _triage(tmp_path, "--json", "--", sys.executable, str(PROG), "exit", "5")
    assert done.returncode == 3, done.stderr
    assert json.loads(done.stdout)["verdict"] == "program failed"


@pytest.mark.spawns
def test_a_repro_without_symbols_is_exit_1(tmp_path: Path) -> None:
    """Its static twin (every symbol pinned) has no free symbol: nothing to reduce, said
    before anything runs."""
    twin = tmp_path / "static.py"
    twin.write_text(render(static_twin(parse_file(CORPUS / "modidx_outer_sums" / "repro.py"))))
    done = _triage(tmp_path, str(twin))
    assert done.returncode == 1, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.count("no symbols") == 1, last  # the verdict, not said again in its why


@pytest.mark.spawns
@pytest.mark.torch
def test_a_program_not_slow_against_its_twin_is_exit_1(tmp_path: Path) -> None:
    """The cat of three dynamic inputs compiles in about its static twin's time, forward
    and backward: both graphs judged, in one line."""
    done = _triage(tmp_path, "--budget", "10m", "--", sys.executable, str(PROG), "cat")
    assert done.returncode == 1, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("symshrink: not slow: 0_0_"), last
    assert last.count(": the original is not slow") == 2, last
    record = Triage.load(tmp_path / "out" / "triage.json")
    assert record.graph is not None and record.free_symbols_before == 3


@pytest.mark.spawns
@pytest.mark.torch
def test_a_budget_too_short_ends_with_the_result_so_far(tmp_path: Path) -> None:
    """modidx_outer_sums's entry (7 symbols, 1-minimal, 11-12x its twin) in one minute: the
    calibration and a few calls fit, the reduction does not; the report says so, and the
    entry it came from is the match."""
    repro = tmp_path / "modidx.py"
    repro.write_text((CORPUS / "modidx_outer_sums" / "repro.py").read_text())
    done = _triage(tmp_path, "--budget", "60s", "--no-progress", str(repro))
    assert done.returncode == 0, done.stderr
    out = tmp_path / "out"
    record = Triage.load(out / "triage.json")
    assert record.verdict == "known" and record.match is not None
    assert record.match.entry == "modidx_outer_sums" and record.match.score >= 0.6
    assert record.minimal is False and (record.stopped_by or "").startswith("max_time")
    assert set(record.seconds) == {"minimize", "match", "report"}
    issue = (out / "issue.md").read_text()
    assert "**Not minimal yet**" in issue and "matches corpus entry modidx_outer_sums" in issue
    assert done.stdout.splitlines() == [str(out / "issue.md"), str(out / "triage.json")]


def test_a_run_stopped_by_its_time_says_the_option_given() -> None:
    """Each stage of a reduction gets what is left of --max-time; the record names the
    option as given."""
    from symshrink.minimize_record import stopped_by_as_given
    from symshrink.minimizing import Options

    opts = Options(repro=Path("r.py"), max_time=719)
    assert stopped_by_as_given("max_time=490.31", opts) == "max_time=719"
    assert stopped_by_as_given("max_calls=3", opts) == "max_calls=3"
    assert stopped_by_as_given(None, opts) is None

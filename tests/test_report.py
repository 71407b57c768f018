"""The bug report of a real minimize run: its sections, its mermaid graph, its picture."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from symshrink import summary
from symshrink.cli import app
from symshrink.expr import evaluate
from symshrink.graph import SymGraph
from symshrink.oracle.calibrate import Calibration
from symshrink.records import RunRecord
from symshrink.report import load_run, render_report, write_report
from symshrink.repro.parse import parse_file
from symshrink.sandbox import Profile
from symshrink.standalone import render_standalone
from symshrink.verdict import Verdict
from symshrink.widths import at_width, widest_sum, width
from tests.fixtures_gen import generate
from tests.test_minimize import TEST_SCRIPT

# the fixture is written by torch and minimized in a child, the widths are compiled
pytestmark = [pytest.mark.torch, pytest.mark.spawns]

_NODE = re.compile(r'^  (n\d+)(?:\(\["([^"]*)"\]\)|\["([^"]*)"\])$')
_EDGE = re.compile(r"^  (n\d+) --> (n\d+)$")


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished `symshrink minimize --test` run of floordiv_sum (N = 4), and its report
    with a two-width measurement."""
    tmp = tmp_path_factory.mktemp("report")
    done = minimize_with_test(tmp, n=4)
    assert done.returncode == 0, done.stderr
    work_dir = tmp / "repro.min.py.work"
    write_report(work_dir, widths=(2, 3), timeout_s=120)
    return work_dir


def minimize_with_test(tmp: Path, *extra: str, n: int) -> subprocess.CompletedProcess[str]:
    """`symshrink minimize --test` on floordiv_sum (N = n) written to `tmp/repro.py`."""
    repro = tmp / "repro.py"
    if not repro.exists():
        generate("floordiv_sum", tmp, n=n, fixture_name="repro")
    script = tmp / "interesting.py"
    script.write_text(TEST_SCRIPT)
    cmd = [sys.executable, "-m", "symshrink", "minimize", str(repro), "--no-progress"]
    cmd += ["--test", f"{sys.executable} {script}", *extra]
    env = {**os.environ, "CALL_LOG": str(tmp / "calls")}
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)


def mermaid_block(markdown: str) -> str:
    found = re.search(r"```mermaid\n(.*?)```", markdown, re.DOTALL)
    assert found is not None, markdown
    return found[1]


def check_mermaid(text: str) -> None:
    """Flowchart syntax as written: a header, quoted labels without raw quotes, known ids."""
    lines = text.splitlines()
    assert lines[0] == "graph LR"
    nodes: set[str] = set()
    edges = 0
    for line in lines[1:]:
        if m := _NODE.match(line):
            assert m[1] not in nodes, f"duplicate node id: {line}"
            nodes.add(m[1])
        elif m := _EDGE.match(line):
            assert {m[1], m[2]} <= nodes, f"edge to an undefined node: {line}"
            edges += 1
        else:
            pytest.fail(f"not a mermaid node or edge: {line!r}")
    assert nodes and edges


def test_report_sections(work: Path) -> None:
    text = (work / "report.md").read_text()
    headers = re.findall(r"^## (.+)$", text, re.MULTILINE)
    assert headers == [
        "Reproduce with torch.compile",
        "Time against the width of the widest sum",
        "Backends",
        "Environment",
        "Where the time goes",
        "Before and after",
        "Minimal expressions",
        "Dependency graph",
        "The retrace repro (attach it)",
        "For sympy",
    ]
    assert text.startswith("# Slow symbolic-shape compile (minimized repro)")  # --test: no phase
    assert "| free symbols | 4 | 2 |" in text
    assert re.search(r"\| oracle calls \| — \| \d+ \(\d+ accepted", text)
    assert "| torch | `2.13.0" in text
    final = parse_file(work.with_suffix(""))
    for x in summary.summary(final)["symints"]:
        assert f"| {x['name']} | SymInt | `{x['expr']}` | {x['hint']} |" in text
    # minimize writes the self-contained form: reproducing needs torch only; attached.
    assert "python repro.min.py            # retrace with the relationships kept" in text
    assert "<details>" not in text and "def load_args" not in text
    # the first code block is the program minimize wrote beside its result
    program = (work.parent / "repro.program.py").read_text()
    assert text.index("```python\n" + program) == text.index("```")
    check_mermaid(mermaid_block(text))
    assert mermaid_block(text) == SymGraph(final).to_mermaid()


_ROW = r"^\| (\w+) \| [\d.]+ \| [\d.]+ \| [\d.]+x \|"


def test_width_measurements_and_picture(work: Path) -> None:
    """Through the program at each N, both times and their ratio; every backend."""
    text = (work / "report.md").read_text()
    widths, backends = text.split("## Time against")[1].split("## Backends")
    assert re.findall(_ROW + "$", widths, re.MULTILINE) == ["2", "3"]
    assert re.findall(_ROW + r" 1 \|$", backends, re.MULTILINE) == [
        "eager",
        "aot_eager",
        "inductor",
    ]
    assert "![compile time against N](report.png)" in text
    png = (work / "report.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 5000
    sweep = json.loads((work / "program_sweep.json").read_text())
    assert sorted((c.get("n") or 0, c["backend"]) for c in sweep["checks"]) == [
        (0, "aot_eager"), (0, "eager"), (0, "inductor"), (2, "inductor"), (3, "inductor")
    ]  # fmt: skip


def test_mermaid_of_richer_models_is_valid(tmp_path: Path) -> None:
    """Max, Min, %, ModularIndexing, strides and storages in the labels."""
    for family in ("minmax_mod", "strided"):
        graph = SymGraph(parse_file(generate(family, tmp_path).path))
        check_mermaid(graph.to_mermaid())
        check_mermaid(graph.to_mermaid(full=True))


def test_at_width_cuts_and_extends_the_widest_sum(work: Path) -> None:
    final = parse_file(work.with_suffix(""))
    assert len(final.hints) == 2 and widest_sum(final) is not None
    for w in (1, 2, 3, 6):
        member = at_width(final, w)
        assert member is not None
        assert len(member.hints) == w
        hints = list(member.hints.values())
        assert len(set(hints)) == len(hints) and min(hints) >= 2
        for _, x in member.symints():
            assert evaluate(x.expr, member.hints) == x.hint
    assert at_width(final, 0) is None
    no_sum = final.replace(inputs=tuple(x for _, x in final.symints() if x.expr.is_Symbol))
    assert widest_sum(no_sum) is None and width(no_sum) == len(no_sum.hints) == 2
    assert at_width(no_sum, 3) is None  # without a sum there is nowhere to add a symbol


def test_without_a_sum_the_free_symbols_are_the_knob(tmp_path: Path) -> None:
    """free_symints: bare SymInts and one tensor dim, no sum anywhere; only cuts are possible."""
    model = parse_file(generate("free_symints", tmp_path).path)
    assert widest_sum(model) is None and width(model) == len(model.hints) == 4
    cut = at_width(model, 1)
    assert cut is not None and len(cut.hints) == 1
    assert at_width(model, 5) is None


def test_width_counts_terms_with_any_sign(tmp_path: Path) -> None:
    """item_mod's dividend alternates signs (u0 - u1 + u2 - u3): every term is a width."""
    model = parse_file(generate("item_mod", tmp_path, n=4).path)
    assert width(model) == 4
    member = at_width(model, 2)
    assert member is not None and len(member.hints) == 2 and width(member) == 2
    for _, x in member.symints():
        assert evaluate(x.expr, member.hints) == x.hint


def test_compile_oracle_runs_show_phase_and_hot_spots(work: Path, tmp_path: Path) -> None:
    """What the compile oracle leaves (calibration, re-verification) reaches the report."""
    run_dir = tmp_path / "repro.min.py.work"
    shutil.copytree(work, run_dir)
    shutil.copy(work.with_suffix(""), tmp_path / "repro.min.py")
    record = RunRecord.load(run_dir / "report.json")
    verdict = Verdict(
        "slow", interesting=True, cpu_s=7.9, slow_phase="codegen", signature=("safe_gcd",)
    )
    record = replace(
        record,
        oracle="compile",
        threshold_s=4.0,
        reverified=True,
        initial=replace(record.initial, slow_phase_s=8.1),
        final=replace(record.final, slow_phase_s=7.9),
        reverify_verdicts=(verdict,),
    )
    record.save(run_dir / "report.json")
    samples = tuple((0.1 * i, 0.1 * i, "safe_gcd" if i % 4 else "Add.flatten") for i in range(40))
    Calibration(
        "cpu", (8.0, 8.1, 8.3), 4.0, ("codegen", "scheduling"), (Profile(samples, "codegen"),)
    ).save(run_dir / "calibration.json")
    text = render_report(load_run(run_dir))
    assert text.startswith("# Slow symbolic-shape compile: `codegen` in `safe_gcd`")
    assert "`codegen` / `scheduling`" in text
    assert "| `safe_gcd` | 75% |" in text
    assert "| compile time, CPU s (oracle) | 8.10 | 7.90 |" in text
    assert "threshold 4.00 s cpu; result re-verified" in text
    # A ratio run: the twin beside each time, lower bounds marked, a walk-back said.
    replace(
        record,
        ratio=4.0,
        baseline="static",
        margin_used=0.1,
        walked_back=1,
        graph_first=1.45,
        initial=replace(record.initial, baseline_s=0.5, ratio=16.2, lower_bound=True),
        final=replace(record.final, slow_phase_s=2.2, baseline_s=0.4, ratio=5.5, lower_bound=False),
    ).save(run_dir / "report.json")
    text = render_report(load_run(run_dir))
    assert "| compile time, CPU s (oracle) | ≥ 8.10 | 2.20 |" in text
    assert "| its static twin, CPU s | 0.50 | 0.40 |" in text
    assert "| ratio to the twin | ≥ 16.20 | 5.50 |" in text
    assert "4x the candidate's own static control, measured in the same run" in text
    assert "after walking back 1 step(s)" in text
    assert "| graph passes first | as a stage at 1.45x the limit |" in text
    # graph passes that led the passes at R, with no stage of their own
    led = ("drop-outputs", "bypass-nodes", "pin-symbols")
    replace(record, ratio=4.0, baseline="static", passes=led).save(run_dir / "report.json")
    assert "| graph passes first | leading the passes at R |" in render_report(load_run(run_dir))


def test_standalone_script_is_reproduced_with_python(work: Path, tmp_path: Path) -> None:
    script = tmp_path / "min.py"
    script.write_text(render_standalone(parse_file(work.with_suffix(""))))
    text = render_report(load_run(work, script))
    assert "python min.py            # retrace" in text
    assert "symshrink run" not in text


def test_for_sympy_inlines_the_sympy_only_script(work: Path, tmp_path: Path) -> None:
    """The section inlines `symshrink sympy-repro`'s script beside the minimized one, else
    names the command that writes it."""
    script = tmp_path / "min.py"
    script.write_text(render_standalone(parse_file(work.with_suffix(""))))
    text = render_report(load_run(work, script))
    assert "`symshrink sympy-repro min.py` writes `min.sympy.py`" in text
    (tmp_path / "min.sympy.py").write_text('"""The calls."""\nprint("seconds: 1.0")\n')
    section = render_report(load_run(work, script)).split("## For sympy")[1]
    assert "`python min.sympy.py` prints their CPU seconds" in section
    assert "<summary>min.sympy.py</summary>" in section and 'print("seconds: 1.0")' in section


def test_cli_report_without_plot(work: Path, tmp_path: Path) -> None:
    out = tmp_path / "issue.md"
    result = CliRunner().invoke(app, ["report", str(work), "-o", str(out), "--no-plot"])
    assert result.exit_code == 0, result.output
    assert out.exists() and not out.with_suffix(".png").exists()
    assert "## Time against" not in out.read_text()


def test_cli_report_of_a_relative_run_dir_measures_its_widths(work: Path, tmp_path: Path):
    """As users run it, from the run's directory: a width not measured yet is run through
    the program, dynamic against static, the others reused."""
    shutil.copytree(work, tmp_path / work.name)
    sweep_path = tmp_path / work.name / "program_sweep.json"
    sweep = json.loads(sweep_path.read_text())
    sweep["checks"] = [c for c in sweep["checks"] if c.get("n") != 2]
    sweep_path.write_text(json.dumps(sweep))  # N = 2 measured afresh, the rest reused
    cmd = [sys.executable, "-m", "symshrink", "report", work.name, "-o", "relative.md"]
    cmd += ["--widths", "2", "--timeout", "120"]
    result = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert result.returncode == 0, result.stderr
    text = (tmp_path / "relative.md").read_text()
    assert re.search(_ROW + "$", text, re.MULTILINE)
    sweep = json.loads(sweep_path.read_text())
    (point,) = [c for c in sweep["checks"] if c.get("n") == 2]
    assert point["static_s"][0] > 0
    ratio = point["dynamic_s"][0] / point["static_s"][0]
    assert point["ratio"] == pytest.approx(ratio, rel=0.05)


def test_cli_report_of_a_non_run_is_one_line(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "symshrink", "report", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    assert "no report.json: not a finished minimize run" in result.stderr
    assert "Traceback" not in result.stderr
    (tmp_path / "report.json").write_text('{"repro": "/x.py", ')  # cut short
    result = subprocess.run(
        [sys.executable, "-m", "symshrink", "report", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    assert f"{tmp_path / 'report.json'}: not valid JSON" in result.stderr


def test_report_of_a_cut_short_then_resumed_run(tmp_path: Path) -> None:
    """Cut short by --max-calls, the report says the result is not minimal yet; resumed,
    it counts the calls of both runs and records the options it ran with."""
    work_dir = tmp_path / "repro.min.py.work"
    cut = minimize_with_test(tmp_path, "--max-calls", "3", n=8)
    assert cut.returncode == 0, cut.stderr
    assert (
        "stopped by --max-calls 3 after 3 calls: not minimal yet (--resume continues)" in cut.stdout
    )
    text = (write_report(work_dir, plot=False)).read_text()
    assert "The run was stopped by --max-calls 3: the result is smaller, not minimal yet" in text
    assert "--max-calls 3" in text and "(its options are not recorded)" not in text
    assert "| sympy | `" in text and "| symshrink | `" in text

    resumed = minimize_with_test(tmp_path, "--resume", n=8)
    assert resumed.returncode == 0, resumed.stderr
    report = RunRecord.load(work_dir / "report.json")
    assert report.oracle_calls_total is not None
    assert report.fixpoint and report.oracle_calls_total > report.oracle_calls
    text = write_report(work_dir, plot=False).read_text()
    assert "not minimal yet" not in text
    assert f"; {report.oracle_calls_total} over every run on this work directory" in text


def test_the_minimize_command_is_rebuilt_from_the_recorded_options() -> None:
    from symshrink.minimize_options import command_line

    # a run recorded with a floor (a run from before the floor had none: `--floor 0`)
    options = {"signature": False, "torch_settings": {"a.b": "1"}, "max_calls": 3, "floor": 1.0}
    assert command_line("r.py", options) == (
        "symshrink minimize r.py --no-signature --torch-setting a.b=1 --max-calls 3 --floor 1.0"
    )
    floor = {"floor": 1.0}
    on = command_line("r.py", {"signature": True, "resume": False, **floor})
    assert on == command_line("r.py", {"graph_first": True, **floor})
    assert on == "symshrink minimize r.py --floor 1.0"
    for off in (False, None):  # None: recorded before the graph stage existed
        off_line = command_line("r.py", {"graph_first": off, **floor})
        assert off_line == "symshrink minimize r.py --no-graph-first --floor 1.0"


def test_the_oracle_line_says_the_floor_beside_r() -> None:
    from dataclasses import replace

    from symshrink.records import RunRecord
    from symshrink.report import MinimizeRun, _oracle_text

    recorded = RunRecord.load(Path(__file__).parent / "records" / "report_ratio_550e771.json")
    run = MinimizeRun(Path("w"), recorded, None, Path("m.py"), None)  # type: ignore[arg-type]
    assert "floor" not in _oracle_text(run)  # a run from before the floor had none
    floored = replace(run, report=replace(recorded, floor_s=1.0))
    assert "4x the candidate's own static control, measured in the same run, and at least 1 s " in (
        _oracle_text(floored)
    )


def test_the_intro_says_each_size_as_changed_or_kept() -> None:
    """A reduction that only cut the graph (densenet's, cut short: its 3 bare symbols
    stay) says the symbols were kept, not "from 3 to 3"."""
    from symshrink.records import Side
    from symshrink.report import sizes_changed

    before = Side(free_symbols=3, symints=3, expr_ops=0, inputs=66)
    after = Side(free_symbols=3, symints=1, expr_ops=0, inputs=62)
    assert sizes_changed(before, after) == (
        "free symbols 3 (kept), expression operations 0 (kept), inputs 66 -> 62"
    )

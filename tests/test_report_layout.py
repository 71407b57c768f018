"""The bug report's layout from plain records (no run, no torch): the program first, the
width table through it with its fitted growth, the backend ablation, repeated lines said
once, the retrace repro attached rather than inlined."""

from __future__ import annotations

import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

import symshrink.minimizing as minimizing
from symshrink.records import ProgramCheck, RunOptions, RunRecord, Side
from symshrink.report import MinimizeRun, growth_exponent, render_report
from symshrink.repro.parse import parse_file
from symshrink.verdict import Verdict

GOLDEN = Path(__file__).parent / "golden" / "program"

MINIMIZE_CHECK = ProgramCheck(
    verdict="slow",
    why="3 of 3 dynamic runs at 4x the static median (0.50 s) or more; median 4.4x",
    at_ratio=4.0,
    dynamic_s=(2.1, 2.2, 2.3),
    static_s=(0.5, 0.5, 0.5),
    stopped=(False, False, False),
    ratio=4.4,
    hot_spots=("torch.utils._sympy.functions.FloorDiv.eval",),
)


def _run(tmp_path: Path, **changes: object) -> MinimizeRun:
    script = tmp_path / "r.min.py"
    shutil.copy(GOLDEN / "floordiv_sum_n4.py", script)
    side = Side(free_symbols=4, symints=3, expr_ops=9, inputs=7)
    rerun = Verdict("slow", True, cpu_s=1.61, slow_phase="scheduling", ratio=4.0, stopped=True)
    record = RunRecord(
        repro=str(tmp_path / "r.py"),
        out=str(script),
        torch_version="2.13.0+cpu",
        options=RunOptions.taken_from(minimizing.Options(repro=tmp_path / "r.py")),
        oracle="compile",
        oracle_calls=9,
        accepted=2,
        cache_hits=0,
        seconds=60.0,
        stopped_by=None,
        fixpoint=True,
        per_pass={},
        initial=side,
        final=side,
        ratio=4.0,
        baseline="static",
        reverify_verdicts=(rerun, rerun, replace(rerun, cpu_s=1.7, stopped=False)),
        program=str(tmp_path / "r.program.py"),
        program_check=MINIMIZE_CHECK,
    )
    return MinimizeRun(tmp_path, replace(record, **changes), None, script, parse_file(script))


def _width(n: int, seconds: float, stopped: bool = False) -> ProgramCheck:
    return ProgramCheck(
        verdict="slow",
        why="",
        at_ratio=4.0,
        n=n,
        dynamic_s=(seconds,),
        static_s=(0.5,),
        stopped=(stopped,),
        ratio=round(seconds / 0.5, 2),
    )


CHECKS = [
    _width(2, 0.8),
    _width(4, 6.4),
    _width(8, 51.2),
    _width(16, 120.0, stopped=True),
    ProgramCheck(
        verdict="not slow",
        why="",
        at_ratio=4.0,
        backend="eager",
        dynamic_s=(0.4,),
        static_s=(0.3,),
        stopped=(False,),
        ratio=1.33,
    ),
    ProgramCheck(
        verdict="error", why="the dynamic run failed: boom", at_ratio=4.0, backend="aot_eager"
    ),
    MINIMIZE_CHECK,
]


def test_time_grows_as_a_fitted_power_of_n() -> None:
    assert growth_exponent([(2, 0.8), (4, 6.4), (8, 51.2)]) == pytest.approx(3.0)
    assert growth_exponent([(2, 1.0), (4, 1.0)]) == pytest.approx(0.0)
    assert growth_exponent([(4, 1.0)]) is None and growth_exponent([]) is None


def test_the_report_leads_with_the_program(tmp_path: Path) -> None:
    text = render_report(_run(tmp_path), CHECKS, tmp_path / "report.png")
    assert text.startswith("# Slow symbolic-shape compile: `scheduling` (minimized repro)")
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
    first = re.search(r"```(\w+)\n(.*?)```", text, re.DOTALL)
    assert first is not None and first[1] == "python"
    assert first[2].startswith('"""r: torch.compile of `graph`') and "def graph(" in first[2]
    assert "python r.program.py --n 16" in text
    assert "Run by minimize (3 fresh runs of each mode: dynamic 2.10, 2.20, 2.30 s" in text
    assert "it reproduces through torch.compile (3 of 3 dynamic runs" in text


def test_the_width_table_has_both_times_their_ratio_and_the_growth(tmp_path: Path) -> None:
    text = render_report(_run(tmp_path), CHECKS)
    assert "| N | dynamic CPU s | static CPU s | ratio |" in text
    assert "| 4 | 6.40 | 0.50 | 12.8x |" in text
    assert "| 16 | ≥ 120.00 | 0.50 | ≥ 240.0x |" in text  # stopped at the timeout
    assert "time ∝ N^3.0 (least squares over N = 2–8" in text  # the stopped point left out
    assert "status" not in text and "| ok |" not in text
    assert "![" not in text  # no picture given


def test_the_backend_ablation_is_one_row_per_backend(tmp_path: Path) -> None:
    text = render_report(_run(tmp_path), CHECKS)
    assert "| backend | dynamic CPU s | static CPU s | ratio | runs |" in text
    rows = re.findall(r"^\| (eager|aot_eager|inductor) \|(.*)$", text, re.MULTILINE)
    assert [b for b, _ in rows] == ["eager", "aot_eager", "inductor"]
    assert rows[1][1] == " — | — | error: the dynamic run failed: boom | 0 |"
    assert rows[2][1] == " 2.20 | 0.50 | 4.4x | 3 |"


def test_identical_lines_are_said_once_and_the_retrace_is_attached(tmp_path: Path) -> None:
    text = render_report(_run(tmp_path))
    reruns = [line for line in text.splitlines() if line.startswith("- minimized, re-run")]
    assert reruns == [
        "- minimized, re-run 2 times: slow stopped at 1.61 s CPU (4.0x its twin), in"
        " `scheduling`; hot spots ?",
        "- minimized, re-run: slow after 1.70 s CPU (4.0x its twin), in `scheduling`; hot spots ?",
    ]
    assert "<details>" not in text and "def load_args" not in text  # not inlined
    assert "`r.min.py` (92 lines, at `" in text and "Attach it" in text
    assert "## Time against" not in text and "## Backends" not in text  # nothing measured


def test_a_result_with_no_program_says_why(tmp_path: Path) -> None:
    run = _run(tmp_path, program=None, program_check=None)
    model = run.final
    first, second = sorted(model.hints)[:2]
    run = replace(run, final=model.replace(hints={**model.hints, second: model.hints[first]}))
    text = render_report(run)
    section = text.split("## Reproduce with torch.compile\n\n")[1].split("\n")[0]
    assert section.startswith("No torch.compile program: s") and "duck sizing" in section
    assert "```python" not in text

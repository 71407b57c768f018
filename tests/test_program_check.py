"""Judging a program.py: the rule (plain numbers), the runs in fresh children (a stand-in
program that burns CPU, no torch), and one real program compiled both ways."""

from __future__ import annotations

import os
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest

import symshrink.minimize_program as minimize_program
import symshrink.minimize_record as minimize_record
import symshrink.minimizing as minimizing
from symshrink.errors import ReproError, UsageError
from symshrink.program_check import PROGRAM_PREFIX, check_program, judge
from symshrink.records import ProgramCheck, ProgramVerdict, RunOptions, RunRecord, Side
from symshrink.repro.parse import parse_file

GOLDEN = Path(__file__).parent / "golden" / "program"

# A stand-in for program.py: `--mode M` burns the CPU seconds given for M, prints them.
STAND_IN = """
import json, sys, time
mode = sys.argv[sys.argv.index("--mode") + 1]
want = {"static": STATIC, "dynamic": DYNAMIC}[mode]
start = time.process_time()
while time.process_time() - start < want:
    pass
if want == 0.0:
    sys.exit("the compile failed")
print("a line torch might print")
print(json.dumps({"seconds": time.process_time() - start, "instructions": None}))
"""


def stand_in(tmp_path: Path, static: float, dynamic: float) -> Path:
    path = tmp_path / "p.program.py"
    text = STAND_IN.replace("STATIC", repr(static)).replace("DYNAMIC", repr(dynamic))
    path.write_text(text)
    return path


def test_most_dynamic_runs_at_r_times_the_static_median_are_slow() -> None:
    assert judge([4.1, 3.0, 4.5], [1.0, 0.9, 1.1], 4.0) == (
        "slow",
        "2 of 3 dynamic runs at 4x the static median (1.00 s) or more; median 4.1x",
    )
    # not most runs, but a median within the oracle's 10 % band below R: too close to call
    verdict, why = judge([4.1, 3.0, 3.9], [1.0, 0.9, 1.1], 4.0)
    assert verdict == "close" and why.startswith("1 of 3")
    verdict, why = judge([4.1, 3.0, 3.5], [1.0, 0.9, 1.1], 4.0)
    assert verdict == "not slow" and why.endswith("median 3.5x")
    verdict, why = judge([9.0], [1.0], 4.0, [True])
    assert verdict == "slow" and why.endswith("median at least 9.0x")
    # a run stopped above the median leaves the median as measured
    verdict, why = judge([5.0, 4.5, 8.0], [1.0], 4.0, [False, False, True])
    assert verdict == "slow" and why.endswith("median 5.0x")


def test_a_record_round_trips_and_says_whether_it_reproduces() -> None:
    check = ProgramCheck(
        verdict="slow",
        why="3 of 3",
        at_ratio=4.0,
        dynamic_s=(2.0, 2.2),
        static_s=(0.5, 0.5),
        stopped=(False, True),
        ratio=4.2,
        hot_spots=("safe_gcd",),
    )
    assert ProgramCheck.from_dict(check.to_dict()) == check
    assert check.reproduces and not check.lower_bound  # the stopped run is above the median
    assert replace(check, stopped=(True, False)).lower_bound
    assert not ProgramCheck(verdict="no program", why="duck sizing", at_ratio=4.0).reproduces


@pytest.mark.spawns
def test_a_program_is_run_in_fresh_children_and_judged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))  # where its scratch folder goes
    check = check_program(stand_in(tmp_path, 0.05, 0.3), runs=2)
    assert check.verdict == "slow", check
    assert len(check.static_s) == len(check.dynamic_s) == 2 and check.stopped == (False, False)
    assert check.ratio is not None and check.ratio >= 4
    assert check.backend == "inductor" and check.n is None
    assert not [p for p in os.listdir(scratch) if PROGRAM_PREFIX in p]  # removed


@pytest.mark.spawns
def test_a_dynamic_run_that_does_not_end_is_stopped_at_stop_at(tmp_path: Path) -> None:
    check = check_program(stand_in(tmp_path, 0.05, 1e9), runs=1, stop_at=6.0, timeout_s=60)
    assert check.verdict == "slow" and check.stopped == (True,) and check.lower_bound
    assert "at least" in check.why


@pytest.mark.spawns
def test_a_failing_run_is_an_error_with_its_reason(tmp_path: Path) -> None:
    check = check_program(stand_in(tmp_path, 0.05, 0.0), runs=3)
    assert check.verdict == "error" and "the dynamic run failed" in check.why
    assert "the compile failed" in check.why and len(check.static_s) == 1
    with pytest.raises(UsageError, match="stop_at >= ratio"):
        check_program(tmp_path / "p.program.py", stop_at=2.0)
    with pytest.raises(ReproError, match="cannot read"):
        check_program(tmp_path / "missing.py")


@pytest.mark.spawns
@pytest.mark.torch
def test_a_real_program_compiles_both_ways(tmp_path: Path) -> None:
    path = tmp_path / "floordiv_sum_n4.program.py"
    path.write_text((GOLDEN / "floordiv_sum_n4.program.py").read_text())
    check = check_program(path, runs=1, backend="eager", n=2)
    assert check.verdict in ("slow", "close", "not slow"), check.why  # not an error
    assert check.static_s[0] > 0 and check.dynamic_s[0] > 0 and check.n == 2
    assert check.torch_version is not None


# ------------------------------------------------------------------ in minimize's result


def _record(tmp_path: Path) -> RunRecord:
    side = Side(free_symbols=3, symints=1, expr_ops=9, inputs=4)
    return RunRecord(
        repro=str(tmp_path / "r.py"),
        out=str(tmp_path / "r.min.py"),
        torch_version=None,
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
    )


def test_minimize_writes_the_program_beside_its_result(tmp_path: Path) -> None:
    model = parse_file(GOLDEN / "floordiv_sum_n4.py")
    opts = minimizing.Options(repro=tmp_path / "r.py")
    out = tmp_path / "r.min.py"
    record = minimize_program.with_program(_record(tmp_path), opts, out, model, run=False)
    written = tmp_path / "r.program.py"
    assert record.program == str(written.resolve()) and record.program_check is None
    assert written.read_text().startswith('"""r: torch.compile of `graph`')
    assert "from r.min.py" in written.read_text().splitlines()[1]
    assert RunRecord.from_dict(record.to_dict()) == record


def test_a_result_with_no_program_says_why_and_stands(tmp_path: Path) -> None:
    model = parse_file(GOLDEN / "floordiv_sum_n4.py")
    first, second = sorted(model.hints)[:2]
    same = model.replace(hints={**model.hints, second: model.hints[first]})
    opts = minimizing.Options(repro=tmp_path / "r.py")
    record = minimize_program.with_program(
        _record(tmp_path), opts, tmp_path / "r.min.py", same, run=True
    )
    check = record.program_check
    assert record.program is None and check is not None and check.verdict == "no program"
    assert "duck sizing" in check.why and not check.why.startswith("no program")
    assert not (tmp_path / "r.program.py").exists()
    line = minimize_record.end_line(tmp_path / "r.min.py", record)
    assert line.endswith(f"; no torch.compile program ({check.why})")


def test_each_program_run_gets_time_for_a_fresh_torch(tmp_path: Path, monkeypatch) -> None:
    """A short --timeout (triage's calls in a short budget) is an oracle call's, in a warm
    worker; each program run starts a fresh Python that imports torch: at least
    PROGRAM_RUN_MIN_S, a longer --timeout as given."""
    given: list[float] = []

    def check(program: Path, **kwargs) -> None:
        given.append(kwargs["timeout_s"])

    monkeypatch.setattr(minimize_program, "check_program", check)
    model = parse_file(GOLDEN / "floordiv_sum_n4.py")
    for timeout in (38.0, 900.0):
        opts = minimizing.Options(repro=tmp_path / "r.py", timeout=timeout)
        minimize_program.with_program(
            _record(tmp_path), opts, tmp_path / "r.min.py", model, run=True
        )
    assert given == [minimize_program.PROGRAM_RUN_MIN_S, 900.0]


@pytest.mark.parametrize(
    ("verdict", "clause"),
    [
        ("slow", "it reproduces through torch.compile (WHY)"),
        ("not slow", "only through symshrink's retrace, not through torch.compile (WHY)"),
        ("close", "at the edge of 4x through torch.compile, too close to call (WHY)"),
        ("error", "its torch.compile program failed (WHY)"),
    ],
)
def test_the_end_line_says_whether_it_reproduces_through_torch_compile(
    verdict: ProgramVerdict, clause: str, tmp_path: Path
) -> None:
    check = ProgramCheck(verdict=verdict, why="WHY", at_ratio=4.0)
    record = replace(_record(tmp_path), program_check=check)
    assert minimize_record.end_line(tmp_path / "r.min.py", record).endswith(
        f", 1-minimal at the test; {clause}"
    )


def test_the_end_line_names_the_width_a_check_ran_at(tmp_path: Path) -> None:
    """The program of a result at the edge runs at a wider member of its family."""
    check = ProgramCheck(verdict="slow", why="WHY", at_ratio=4.0, n=7)
    record = replace(_record(tmp_path), program_check=check)
    line = minimize_record.end_line(tmp_path / "r.min.py", record)
    assert line.endswith("; it reproduces through torch.compile at width 7 (WHY)")


def test_hot_spots_are_what_the_dynamic_runs_spend_beyond_the_static_ones() -> None:
    from symshrink.program_check import _beyond, _Timed

    def timed(**spots: float) -> _Timed:
        return _Timed(1.0, 3.0, False, dict(spots))

    dynamic = [timed(cpp=1.0, gcd=2.0, stride=0.5), timed(cpp=1.0, gcd=1.8, stride=0.4)]
    static = [timed(cpp=1.1, stride=0.1)]
    assert _beyond(dynamic, static) == ("gcd", "stride")  # the C++ compile is in both
    assert _beyond([], static) == ()

"""The pure-sympy reproducer: rendering and term dropping (fast), capture and shrink (torch)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import sympy

from symshrink import sympy_repro as sr

S = [sympy.Symbol(f"s{i}", integer=True, positive=True) for i in range(4)]
F = sympy.Symbol("f0", integer=True, nonnegative=True)


def _call(*args: sympy.Basic, seconds: float = 1.0) -> sr.Call:
    return sr.Call("sympy.gcd", seconds, tuple(sympy.srepr(a) for a in args))


def _eval(text: str) -> sympy.Basic:
    return eval(text, dict(vars(sympy)))


# ------------------------------------------------------------------------- pure logic


def test_split_terms_of_add_mul_and_atom() -> None:
    total = S[0] + S[1] + S[2]
    call = _call(S[3] * F, (F + 866) * total, total)
    per_arg = [[_eval(t) for t in ts] for ts in sr.split_terms(call)]
    assert per_arg[0] == [S[3] * F]  # no sum: one term
    assert set(per_arg[1]) == set(S[:3])  # the widest Add factor's terms
    assert set(per_arg[2]) == set(S[:3])
    assert sr.term_count(call) == 7


def test_with_terms_keeps_factor_outside_the_sum() -> None:
    total = S[0] + S[1] + S[2]
    call = _call(S[3] * F, (F + 866) * total)
    terms = [_eval(t) for t in sr.split_terms(call)[1]]
    keep = [(0, 0)] + [(1, j) for j, t in enumerate(terms) if t != S[1]]
    smaller = sr.with_terms(call, keep)
    assert _eval(smaller.args[0]) == S[3] * F
    assert _eval(smaller.args[1]) == (F + 866) * (S[0] + S[2])
    assert smaller.seconds == call.seconds
    assert sr.term_count(smaller) == 3


def test_render_script_has_no_torch_and_runs() -> None:
    call = _call(S[0] * S[1] + S[0] * S[2], S[0] * S[3] + S[0])
    call = sr.Call(call.function, call.seconds, call.args, abstracted=(("f0", "((s0)//160)"),))
    text = sr.render_script(call, where="in the compile of x.py")
    assert "torch" not in text
    assert "f0 = ((s0)//160)" in text  # the abstraction is documented
    assert "Symbol('s0', integer=True, positive=True)" in text  # assumptions kept
    compile(text, "candidate.py", "exec")
    namespace: dict = {}
    exec(text, namespace)
    assert namespace["result"] == S[0]
    assert namespace["seconds"] >= 0


def test_render_refuses_torch_specific_call() -> None:
    call = sr.Call("sympy.gcd", 1.0, ("Symbol('x')",), torch_specific="FloorDiv")
    with pytest.raises(ValueError, match="FloorDiv"):
        sr.render_script(call)


@pytest.mark.parametrize(
    ("stdout", "seconds"),
    [("result: 1\nseconds: 0.250000\n", 0.25), ("seconds: 1\nseconds: 2.5\n", 2.5), ("", None)],
)
def test_parse_seconds(stdout: str, seconds: float | None) -> None:
    assert sr.parse_seconds(stdout) == seconds


def test_call_json_round_trip() -> None:
    call = sr.Call("sympy.gcd", 0.5, ("Integer(2)",), (("x", "Integer(1)"),), None, (("a", "b"),))
    assert sr.Call.from_dict(call.to_dict()) == call


def test_shrink_with_a_fake_oracle_keeps_needed_terms() -> None:
    """'Slow' iff s1 and s2 are still in the sum: shrink keeps exactly those two."""
    total = sum(S, sympy.Integer(0)) + F
    call = _call(S[0] * F, (F + 866) * total)

    def seconds(c: sr.Call) -> float:
        free = _eval(c.args[1]).free_symbols
        return 2.0 if {S[1], S[2]} <= free else 0.1

    result = sr.shrink(call, threshold=1.0, timeout=5, test=seconds)
    assert result.terms_before == 6
    assert result.terms_after == 3  # arg0's one term + s1 + s2
    assert _eval(result.call.args[1]) == (F + 866) * (S[1] + S[2])
    assert result.seconds == 2.0


@pytest.mark.spawns
def test_run_script_reports_errors_and_timeouts(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("raise SystemExit('boom')\n")
    seconds, error = sr.run_script(bad, timeout=30)
    assert seconds is None and error
    slow = tmp_path / "slow.py"
    slow.write_text("import time\ntime.sleep(30)\n")
    assert sr.run_script(slow, timeout=0.5) == (float("inf"), None)


# ------------------------------------------------------------------------- real torch


@pytest.fixture(scope="module")
def captured(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[sr.Call]]:
    from tests.fixtures_gen import generate

    out = tmp_path_factory.mktemp("sympy_repro")
    fixture = generate("floordiv_sum", out, n=8)
    return fixture.path, sr.capture(fixture.path, timeout=300)


@pytest.mark.torch
def test_abstract_torch_replaces_floordiv() -> None:
    from torch.utils._sympy.functions import FloorDiv

    fd = FloorDiv(S[0] + S[1], 160)
    (a, b), pairs = sr.abstract_torch([S[2] * fd, (fd + 866) * (S[0] + S[1])])
    assert len(pairs) == 1
    name = pairs[0][0]
    sym = sympy.Symbol(name, integer=True, nonnegative=True)
    assert a == S[2] * sym and b == (sym + 866) * (S[0] + S[1])


@pytest.mark.spawns
@pytest.mark.torch
def test_capture_emit_and_shrink_end_to_end(
    captured: tuple[Path, list[sr.Call]], tmp_path: Path
) -> None:
    script, calls = captured
    gcds = [c for c in calls if c.function == "sympy.gcd"]
    assert gcds, calls
    call = gcds[0]
    assert call.seconds > 0 and call.torch_specific is None
    assert all("Symbol(" in a for a in call.args)
    assert call.abstracted  # FloorDiv(...) stood in the captured arguments

    text = sr.render_script(call, where=f"in the compile of {script.name}")
    assert "torch" not in text
    full = tmp_path / "gcd.py"
    full.write_text(text)
    # The script runs with torch unimportable.
    blocker = tmp_path / "blocker"
    blocker.mkdir()
    (blocker / "torch.py").write_text("raise ImportError('no torch here')\n")
    run = subprocess.run(
        [sys.executable, str(full)],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(blocker), "PATH": "/usr/bin:/bin"},
    )
    assert run.returncode == 0, run.stderr
    standalone = sr.parse_seconds(run.stdout)
    assert standalone is not None and standalone > 0.001

    threshold = 0.3 * standalone
    result = sr.shrink(call, threshold=threshold, timeout=60)
    assert result.terms_after <= result.terms_before == sr.term_count(call)
    assert result.seconds >= threshold
    small = tmp_path / "gcd.min.py"
    small.write_text(sr.render_script(result.call))
    again, error = sr.run_script(small, timeout=60)
    assert error is None and again is not None and again > 0

"""The pure-sympy reproducer: recording, rendering and the sequence shrinker (no torch), and
a recorded compile replayed with torch unimportable (torch)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import sympy

from symshrink import sympy_repro as sr

S = [sympy.Symbol(f"s{i}", integer=True, positive=True) for i in range(4)]
F = sympy.Symbol("f0", integer=True, nonnegative=True)


def recorded(*calls: tuple[str, tuple[object, ...], float]) -> sr.Recording:
    """A recording of `calls` (function, argument objects, CPU seconds), as the child prints it."""
    recorder = sr.Recorder()
    recorder.calls.extend(calls)
    return recorder.recording("x.py", compile_s=2.0)


def executed(text: str) -> dict[str, object]:
    """The rendered script run in this process, with no argument (the replay only)."""
    namespace: dict[str, object] = {"__name__": "__main__"}
    saved = sys.argv
    sys.argv = ["sympy_repro.py"]
    try:
        exec(compile(text, "sympy_repro.py", "exec"), namespace)
    finally:
        sys.argv = saved
    return namespace


# ------------------------------------------------------------------------- recording


def test_recording_keeps_assumptions_and_order() -> None:
    """Calls of wrapped functions come back in order, their symbols declared with the
    assumptions they had (positive integer stays positive integer), nested calls folded."""
    recorder = sr.Recorder()

    def inner(a: sympy.Expr) -> sympy.Expr:
        return a

    wrapped_inner = recorder.wrap("sympy.inner", inner)

    def outer(a: sympy.Expr, b: sympy.Expr) -> sympy.Expr:
        wrapped_inner(a)  # inside a watched call: not recorded on its own
        return sympy.gcd(a, b)

    wrapped = recorder.wrap("sympy.gcd", outer)
    wrapped(S[0] * S[1] + S[0], S[0] * F)
    wrapped(S[2] + 3, S[2])
    recording = recorder.recording("x.py")
    assert [c.function for c in recording.calls] == ["sympy.gcd", "sympy.gcd"]
    assert all(c.cpu_s >= 0 for c in recording.calls)
    assert dict(recording.symbols)["s0"] == "Symbol('s0', integer=True, positive=True)"
    namespace = executed(sr.render_script(recording))
    (_, first), (_, second) = namespace["CALLS"]  # type: ignore[misc]
    assert first == (S[0] * S[1] + S[0], S[0] * F)  # equal: same names, same assumptions
    assert second == (S[2] + 3, S[2])
    s0 = namespace["s0"]
    assert s0.is_positive and s0.is_integer and s0.assumptions0 == S[0].assumptions0  # type: ignore[attr-defined]
    assert namespace["f0"].is_nonnegative and namespace["f0"].is_positive is None  # type: ignore[attr-defined]


def test_classmethod_is_recorded_without_its_class() -> None:
    """`Mod.eval` (a classmethod, run on each cache miss of `Mod`) is patched in place and
    recorded with its arguments only; it is restored afterwards."""
    recorder = sr.Recorder()
    original = vars(sympy.Mod)["eval"]
    with recorder.patched(["sympy.core.mod.Mod.eval"]):
        sympy.core.cache.clear_cache()
        sympy.Mod(S[0] * S[1] + 7, S[1] + 2)
    assert vars(sympy.Mod)["eval"] is original
    (call,) = recorder.calls
    assert call[0] == "sympy.core.mod.Mod.eval" and call[1] == (S[0] * S[1] + 7, S[1] + 2)
    text = sr.render_script(recorder.recording("x.py"))
    assert "from sympy.core.mod import Mod" in text and "(Mod.eval, (" in text
    executed(text)


def test_rendering_round_trip() -> None:
    """A recording goes through its JSON and its script unchanged: every argument rebuilt
    equal, also a symbol whose name is not an identifier, one named like a sympy name,
    and two symbols of one name (written out where they occur)."""
    odd = sympy.Symbol("x y", integer=True)
    shadow = sympy.Symbol("N", positive=True)
    twin_a, twin_b = sympy.Symbol("t", integer=True), sympy.Symbol("t", positive=True)
    args = [
        (S[0] * S[1] + S[2] * F + 7, S[0]),
        (odd + shadow, sympy.Rational(3, 2) * twin_a - twin_b),
        ((S[3] + 1) ** 2, 5),
    ]
    recording = recorded(*(("sympy.gcd", a, 0.5) for a in args))
    assert sr.Recording.from_dict(recording.to_dict()) == recording
    assert {name for name, _ in recording.symbols} == {"s0", "s1", "s2", "s3", "f0"}
    text = sr.render_script(recording, doc="Doc line.")
    assert text.startswith('"""Doc line.') and "3 calls of sympy.gcd" in text
    assert "import torch" not in text and "from torch" not in text
    namespace = executed(text)
    rebuilt = [call_args for _, call_args in namespace["CALLS"]]  # type: ignore[attr-defined]
    assert rebuilt == [tuple(a) for a in args]
    assert namespace["seconds"] is not None


def test_torch_functions_become_one_symbol_each() -> None:
    """A torch function in the arguments (here a stand-in class from a module named torch.*)
    is the same Symbol wherever it occurs, with its integer and sign assumptions."""

    class FloorDiv(sympy.Function):
        is_integer = True
        is_nonnegative = True

    FloorDiv.__module__ = "torch.utils._sympy.functions"
    fd = FloorDiv(S[0] + S[1])
    recording = recorded(("sympy.gcd", (S[2] * fd, fd + S[0]), 0.1), ("sympy.gcd", (fd, 4), 0.1))
    assert recording.abstracted == (("floordiv0", "FloorDiv(s0 + s1)"),)
    assert dict(recording.symbols)["floordiv0"] == (
        "Symbol('floordiv0', integer=True, nonnegative=True)"
    )
    assert [c.args for c in recording.calls] == [
        ("Mul(floordiv0, s2)", "Add(floordiv0, s0)"),
        ("floordiv0", "4"),
    ]


@pytest.mark.parametrize(
    ("stdout", "measured"),
    [
        ("seconds: 0.250000\n", sr.Measured(0.25)),
        ("seconds: 1.5\nper call: 0.5 1.0\ncontrol: 0.01\n", sr.Measured(1.5, 0.01, (0.5, 1.0))),
        ("", None),
    ],
)
def test_parse_output(stdout: str, measured: sr.Measured | None) -> None:
    assert sr.parse_output(stdout) == measured


@pytest.mark.spawns
def test_run_script_reports_errors_and_timeouts(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("raise SystemExit('boom')\n")
    assert sr.run_script(bad, timeout=30) == "boom"
    slow = tmp_path / "slow.py"
    slow.write_text("import time\ntime.sleep(30)\n")
    assert sr.run_script(slow, timeout=0.5) == "still running after 0.5 s"


# ------------------------------------------------------------------------- shrinking


def cost_model(
    costs: list[float], warms: dict[int, int]
) -> Callable[[tuple[int, ...]], sr.Measured]:
    """A replay's seconds under a synthetic cost model: call i costs costs[i], unless the
    call warms[i] ran before it (it left the cache warm: then i costs a tenth). The
    control costs 0.001 s a call."""

    def test(kept: tuple[int, ...]) -> sr.Measured:
        ran: set[int] = set()
        total = 0.0
        for i in kept:
            total += costs[i] / 10 if warms.get(i) in ran else costs[i]
            ran.add(i)
        return sr.Measured(total, 0.001 * len(kept))

    return test


def test_shrink_calls_keeps_the_slow_calls() -> None:
    """Of 40 calls, two are slow (3 and 17); the seed from the per-call seconds holds them,
    and delta debugging keeps exactly those."""
    costs = [0.01] * 40
    costs[3], costs[17] = 0.5, 0.6
    test = cost_model(costs, {})
    kept, tests = sr.shrink_calls(40, test, target_s=1.0, per_call=costs)
    assert kept == (3, 17)
    assert tests <= 12


def test_shrink_calls_sees_the_cache() -> None:
    """Call 5 is slow only when call 2 (which warms its cache in the compile) did not run
    first; call 2 is itself cheap. Measured per call in order, 5 looks cheap, so the seed
    (the costliest calls by that measure) is not slow, and the search starts over from all
    the calls: it keeps 5 and drops 2."""
    costs = [0.05] * 10
    costs[5] = 2.0
    warms = {5: 2}
    test = cost_model(costs, warms)
    per_call = [0.05] * 10
    per_call[5] = 0.2  # 2 ran before 5 in the full replay
    kept, _ = sr.shrink_calls(10, test, target_s=1.0, per_call=per_call)
    assert kept == (5,)


def test_shrink_calls_against_the_control() -> None:
    """A candidate must also be CONTROL_RATIO x its control: with a control as slow as the
    calls themselves, nothing short of everything is slow (and everything is kept)."""
    costs = [0.3] * 6

    def test(kept: tuple[int, ...]) -> sr.Measured:
        seconds = sum(costs[i] for i in kept)
        return sr.Measured(seconds, seconds / 2)

    kept, _ = sr.shrink_calls(6, test, target_s=0.5, per_call=costs)
    assert kept == tuple(range(6))


def test_shrink_calls_stops_at_its_budget() -> None:
    costs = [0.1] * 30
    kept, tests = sr.shrink_calls(30, cost_model(costs, {}), target_s=1.0, max_tests=5)
    assert tests == 5 and sum(costs[i] for i in kept) >= 1.0


# ------------------------------------------------------------------------- real torch


@pytest.mark.spawns
@pytest.mark.torch
def test_record_and_replay_without_torch(tmp_path: Path) -> None:
    """The floordiv family's compile: its sympy.gcd calls recorded with FloorDiv abstracted,
    replayed by a script that runs with torch unimportable."""
    from tests.fixtures_gen import generate

    fixture = generate("floordiv_sum", tmp_path, n=8)
    recording = sr.record(fixture.path, timeout=300)
    assert recording.error is None and recording.compile_s
    assert any(c.function == "sympy.gcd" for c in recording.calls)
    assert recording.abstracted and recording.abstracted[0][0].startswith("floordiv")
    assert 0 < recording.cpu_s < recording.compile_s
    script = tmp_path / "sympy_repro.py"
    script.write_text(sr.render_script(recording))
    blocker = tmp_path / "blocker"
    blocker.mkdir()
    (blocker / "torch.py").write_text("raise ImportError('no torch here')\n")
    run = subprocess.run(
        [sys.executable, str(script), "--per-call", "--control"],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(blocker), "PATH": "/usr/bin:/bin"},
    )
    assert run.returncode == 0, run.stderr
    measured = sr.parse_output(run.stdout)
    assert measured is not None and len(measured.per_call) == len(recording.calls)
    assert measured.control_s is not None and measured.control_s < measured.seconds

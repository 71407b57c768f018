"""Retrace with real torch: relationships survive in preserved mode, not in independent mode.

Every retrace here runs without the C++ compile and on small fixtures, once per
(fixture, mode) in a module-scoped cache, so the file stays well under two minutes.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from symshrink.cli import app
from symshrink.expr import OP_NAMES, evaluate, fold, parse_expr
from symshrink.repro.parse import parse_file
from symshrink.retrace import (
    PHASES,
    RetraceResult,
    SettingError,
    parse_setting_items,
    retrace,
)
from symshrink.runtime import symint_ops

pytestmark = [pytest.mark.torch, pytest.mark.compiles]  # retraces, here and in children

REPO = Path(__file__).resolve().parents[1]

# Small members of every fixture family (floordiv_sum_n16 takes a minute preserved).
FAMILIES = (
    "floordiv_sum_n4",
    "free_symints",
    "shared_symbols",
    "minmax_mod",
    "strided",
    "mod_pad_n8",
    "reader_forms",
)
# Every input of free_symints is a bare symbol: run_repro cannot lose anything there.
NOTHING_TO_LOSE = {"free_symints"}


@pytest.fixture(scope="module")
def results(fixtures: dict) -> dict[tuple[str, str], RetraceResult]:
    """(fixture name, mode) -> result, each retraced once."""
    return {
        (name, mode): retrace(fixtures[name].path, mode=mode, no_native_compile=True)
        for name in FAMILIES
        for mode in ("preserved", "independent")
    }


def _edit(src: Path, dst: Path, *subs: tuple[str, str]) -> Path:
    text = src.read_text()
    for pattern, repl in subs:
        text = re.sub(pattern, repl, text, flags=re.MULTILINE)
    dst.write_text(text)
    return dst


# ----------------------------------------------------------------- the fixture families


@pytest.mark.parametrize("name", FAMILIES)
def test_preserved_keeps_every_symbol_and_expression(results: dict, name: str) -> None:
    r = results[(name, "preserved")]
    assert r.error is None, r.error
    assert r.mode == "preserved"
    assert r.model_free_symbols > 0
    assert r.graph_free_symbols == r.model_free_symbols, r.notes
    assert r.derived_ok, r.notes
    assert set(r.phases) == set(PHASES) - {"native"}
    assert r.trace_s > 0 and r.compile_s > 0


@pytest.mark.parametrize("name", FAMILIES)
def test_independent_loses_the_relationships(results: dict, name: str) -> None:
    r = results[(name, "independent")]
    assert r.error is None, r.error
    if name in NOTHING_TO_LOSE:
        assert r.graph_free_symbols == r.model_free_symbols
    else:
        assert r.graph_free_symbols > r.model_free_symbols
        assert not r.derived_ok


def test_model_counts_match_the_writers_truth(results: dict, fixtures: dict) -> None:
    for name in FAMILIES:
        truth = fixtures[name].truth
        expected = len(truth["all_free_symbols"]) + len(truth["unbacked_symbols"])
        assert results[(name, "preserved")].model_free_symbols == expected, name


def test_old_script_falls_back_to_independent(fixtures: dict) -> None:
    r = retrace(fixtures["old_style_n4"].path, no_native_compile=True)
    assert r.error is None, r.error
    assert r.mode == "independent"
    assert any("old script" in n for n in r.notes)
    assert r.graph_free_symbols > r.model_free_symbols == 0


def test_shared_sample_keeps_the_aot_relationships(samples_dir: Path) -> None:
    r = retrace(samples_dir / "aot_frames_outer_bw_n4.py", no_native_compile=True)
    assert r.error is None, r.error
    assert (r.model_free_symbols, r.graph_free_symbols, r.derived_ok) == (4, 4, True)


# ------------------------------------------------------------------- symbols, carriers


def test_equal_hints_stay_distinct_symbols(fixtures: dict, tmp_path: Path) -> None:
    """Duck sizing would merge them; preserved mode must not, run_repro does."""
    path = _edit(
        fixtures["floordiv_sum_n4"].path, tmp_path / "equal.py", (r"^(s\d+) = \d+$", r"\1 = 1000")
    )
    assert set(parse_file(path).hints.values()) == {1000}
    preserved = retrace(path, no_native_compile=True)
    assert preserved.error is None, preserved.error
    assert preserved.graph_free_symbols == preserved.model_free_symbols == 4
    assert preserved.derived_ok, preserved.notes
    independent = retrace(path, mode="independent", no_native_compile=True)
    assert independent.graph_free_symbols < 4  # duck sizing made the four dims one
    assert any("duck sizing merged" in n for n in independent.notes), independent.notes


def test_hint_one_specializes_with_a_note(fixtures: dict, tmp_path: Path) -> None:
    src = fixtures["free_symints"]
    name = src.truth["tensors"][0]["shape"][0]  # a symbol that is only a tensor dim
    path = _edit(src.path, tmp_path / "one.py", (rf"^{name} = \d+$", f"{name} = 1"))
    r = retrace(path, no_native_compile=True)
    assert r.error is None, r.error
    assert r.graph_free_symbols == r.model_free_symbols - 1
    assert any("specialize" in n and f"{name}=1" in n for n in r.notes)


CARRIED = """\
s10 = 37
s11 = 41


import torch
from torch import tensor, device
from torch.nn import *
class Repro(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()

    def forward(self, total, product):
        ones = torch.ops.aten.full.default(
            [total], 1.0, dtype = torch.float32, device = device(type='cpu'))
        return (torch.ops.aten.mul.Tensor(ones, product),)

def load_args(reader):
    reader.symint(78, expr='s10 + s11')  # total
    reader.symint(1517, expr='s10*s11')  # product
load_args._version = 0
mod = Repro()
"""


def test_symbols_without_a_bare_input_get_carriers(tmp_path: Path) -> None:
    path = tmp_path / "carried.py"
    path.write_text(CARRIED)
    r = retrace(path, no_native_compile=True)
    assert r.error is None, r.error
    assert (r.model_free_symbols, r.graph_free_symbols, r.derived_ok) == (2, 2, True)
    assert any("2 free symbol(s) carried" in n for n in r.notes)


def test_a_failed_compile_leaves_no_cache_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Inductor refuses `aten.ones` (it expects decomposed graphs): an error result."""
    path = tmp_path / "fails.py"
    path.write_text(CARRIED.replace("aten.full", "aten.ones").replace("1.0, dtype", "dtype"))
    cache = tmp_path / "cache"
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", str(cache))
    r = retrace(path, no_native_compile=True)
    assert r.error is not None and r.error.startswith("compile: ")
    assert list(cache.iterdir()) == []


# ------------------------------------------------------------------------ SymInt ops

# One expression per op of expr.OP_NAMES (Integer and Boolean appear inside the others).
OP_CASES = {
    "Add": "s0 + s1 + 3",
    "Mul": "s0*s1",
    "Pow": "s0**2",
    "PowByNatural": "PowByNatural(s0, 2)",
    "FloorDiv": "(s0 + s1)//160",
    "PythonMod": "(-s0 - s1) % 16",
    "Mod": "Mod(s0, 7)",
    "ModularIndexing": "ModularIndexing(s0, 3, 5)",
    "CeilDiv": "CeilDiv(s0, 3)",
    "LShift": "LShift(s0, 2)",
    "RShift": "RShift(s0, 2)",
    "IntTrueDiv": "FloorToInt(IntTrueDiv(s0, s1) + 1)",
    "FloorToInt": "FloorToInt(IntTrueDiv(s1, s0))",
    "CeilToInt": "CeilToInt(IntTrueDiv(s0, s1))",
    "TruncToInt": "TruncToInt(IntTrueDiv(s1, s0))",
    "RoundToInt": "RoundToInt(IntTrueDiv(s1, 3))",
    "Where": "Where(s0 > s1, s0, s1)",
    "Piecewise": "Piecewise((s0, s0 > s1), (s1, True))",
    "Abs": "Abs(s0 - s1)",
    "Max": "Max(s0, s1, 5)",
    "Min": "Min(s0, s1)",
    "BitwiseFn_bitwise_and": "BitwiseFn_bitwise_and(s0, s1)",
    "BitwiseFn_bitwise_or": "BitwiseFn_bitwise_or(s0, s1)",
    "BitwiseFn_bitwise_xor": "BitwiseFn_bitwise_xor(s0, s1)",
    "IsNonOverlappingAndDenseIndicator": "IsNonOverlappingAndDenseIndicator(s0, s1, s1, 1)",
    "Eq": "Eq(s0, s1)",
    "Ne": "Ne(s0, s1)",
    "Lt": "s0 < s1",
    "Le": "s0 <= s1",
    "Gt": "s0 > s1",
    "Ge": "s0 >= s1",
    "And": "(s0 < s1) & (s1 < 50)",
    "Or": "(s0 > s1) | (s1 > 50)",
    "Not": "~(s0 < s1)",
    "Integer": "7",
    "Boolean": "Where(True, s0, s1)",
}


OP_CASE_HINTS = {"s0": 37, "s1": 41}


def op_case_symints() -> tuple[Any, dict[str, Any]]:
    """A duck-sizing-free ShapeEnv and one SymInt per OP_CASE_HINTS symbol."""
    from torch._dynamo.source import ConstantSource
    from torch.fx.experimental.symbolic_shapes import DimDynamic, ShapeEnv

    env = ShapeEnv(duck_shape=False)
    syms = {
        n: env.create_symintnode(
            env.create_symbol(h, ConstantSource(n), dynamic_dim=DimDynamic.DYNAMIC), hint=h
        )
        for n, h in OP_CASE_HINTS.items()
    }
    return env, syms


def test_op_cases_cover_every_op() -> None:
    assert OP_CASES.keys() == OP_NAMES


def test_symint_ops_cover_every_op() -> None:
    """The runtime cannot import `expr.OP_NAMES` (min.py needs only torch): checked here."""
    env, _ = op_case_symints()
    assert symint_ops(env).keys() == OP_NAMES


@pytest.mark.parametrize("op", sorted(OP_CASES))
def test_symint_ops_compute_what_evaluate_computes(op: str) -> None:
    """Each op, folded with real SymInts, keeps the value `expr.evaluate` gives."""
    import torch

    env, syms = op_case_symints()
    expr = parse_expr(OP_CASES[op])
    value = fold(expr, syms.__getitem__, symint_ops(env))
    if isinstance(value, torch.SymInt | torch.SymBool):
        assert value.node.expr.free_symbols  # still symbolic, not a constant
        value = value.node.hint
    assert value == evaluate(expr, OP_CASE_HINTS)


# -------------------------------------------------------------------- settings, device


def test_settings_are_applied_then_restored(fixtures: dict) -> None:
    import torch.utils._sympy.functions as functions

    before = functions._MAX_ADD_TERMS_FOR_POLY_GCD
    r = retrace(
        fixtures["free_symints"].path,
        no_native_compile=True,
        torch_settings={
            "torch.utils._sympy.functions._MAX_ADD_TERMS_FOR_POLY_GCD": "1000",
            "torch._inductor.sizevars._MAX_SYMBOLS_FOR_EXPENSIVE_SYMPY_OPS": "1000",
            "torch._inductor.config.cpp.simdlen": "None",
        },
    )
    assert r.error is None, r.error
    assert before == functions._MAX_ADD_TERMS_FOR_POLY_GCD


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ({"torch._inductor.config.no_such_option": "1"}, "has no 'no_such_option'"),
        ({"torch.utils._sympy.functions._MAX_ADD_TERMS": "1"}, "has no '_MAX_ADD_TERMS'"),
        ({"nosuchmodule.x": "1"}, "no importable module"),
        ({"torch._inductor.config.max_autotune": "maybe"}, "not a Python literal"),
    ],
)
def test_bad_settings_are_clear_errors(fixtures: dict, setting: dict, message: str) -> None:
    with pytest.raises(SettingError, match=message):
        retrace(fixtures["free_symints"].path, torch_settings=setting)


def test_setting_items_parse() -> None:
    assert parse_setting_items(["a.b=1", " c.d = 'x' "]) == {"a.b": "1", "c.d": "'x'"}
    with pytest.raises(SettingError, match="NAME=VALUE"):
        parse_setting_items(["a.b"])


def test_cuda_capture_runs_on_cpu_with_a_note(fixtures: dict, tmp_path: Path) -> None:
    cuda = "device(type='cuda', index=0)"
    path = _edit(
        fixtures["floordiv_sum_n4"].path,
        tmp_path / "cuda.py",
        (r"device\(type='cpu'\)", cuda),
        (r"(reader\.storage\(None, [^)]*)\)", rf"\1, device={cuda})"),
    )
    assert cuda in parse_file(path).storages[0].device
    r = retrace(path, no_native_compile=True, device="cpu")
    assert r.error is None, r.error
    assert r.device == "cpu"
    assert (r.graph_free_symbols, r.derived_ok) == (r.model_free_symbols, True)
    assert any("captured on cuda:0" in n for n in r.notes)


# ---------------------------------------------------------------------- native compile


def test_native_compile_is_timed(fixtures: dict) -> None:
    r = retrace(fixtures["shared_symbols"].path)
    assert r.error is None, r.error
    assert r.native_compile and r.phases["native"] > 0


# ------------------------------------------------------------------- entry points


def test_child_prints_only_json(fixtures: dict) -> None:
    script = str(fixtures["minmax_mod"].path)
    args = [script, "--json", "--no-native-compile", "--mode", "independent"]
    proc = subprocess.run(
        [sys.executable, "-m", "symshrink.retrace", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    result = RetraceResult.from_json(proc.stdout)
    assert result.mode == "independent" and result.error is None


def test_child_reports_bad_input_as_json(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("x = (\n")
    proc = subprocess.run(
        [sys.executable, "-m", "symshrink.retrace", str(bad), "--json"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert proc.returncode == 2
    assert "syntax error" in json.loads(proc.stdout)["error"]


def test_cli_run_prints_a_phase_table(fixtures: dict) -> None:
    out = CliRunner().invoke(app, ["run", str(fixtures["mod_pad_n8"].path), "--no-native-compile"])
    assert out.exit_code == 0, out.output
    for phase in ("trace", "lowering", "scheduling", "codegen"):
        assert re.search(rf"^{phase}\s+\d+\.\d{{3}}$", out.output, re.MULTILINE), out.output
    assert re.search(r"^native\s+skipped$", out.output, re.MULTILINE)
    assert "free symbols: model 8, graph 8" in out.output


def test_cli_run_json_and_bad_setting(fixtures: dict) -> None:
    path = str(fixtures["free_symints"].path)
    runner = CliRunner()
    out = runner.invoke(
        app, ["run", path, "--json", "--no-native-compile", "--mode", "independent"]
    )
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["mode"] == "independent"
    bad = runner.invoke(app, ["run", path, "--torch-setting", "torch._inductor.config.nope=1"])
    assert bad.exit_code == 2
    assert "has no 'nope'" in bad.output


def test_cli_run_parse_error_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("x = (\n")
    proc = subprocess.run(
        [sys.executable, "-m", "symshrink", "run", str(bad)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "syntax error" in proc.stderr

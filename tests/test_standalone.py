"""The standalone repro: torch's layout round-trips, and it runs with only torch installed."""

from __future__ import annotations

import ast
import os
import re
import runpy
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
import sympy

from symshrink import runtime
from symshrink.errors import ReproError
from symshrink.expr import OP_NAMES, evaluate, fold, parse_expr
from symshrink.repro.model import SymIntInput
from symshrink.repro.parse import parse, parse_file
from symshrink.repro.render import render
from symshrink.retrace import retrace
from symshrink.runtime import symint_ops
from symshrink.runtime_spec import CODE_OPS, input_spec, symint_code
from symshrink.standalone import (
    TORCH_RUN_REPRO_FLAG,
    is_standalone,
    render_output,
    render_standalone,
)
from tests.fixtures_gen import generate
from tests.test_retrace import CARRIED, OP_CASE_HINTS, OP_CASES, op_case_symints

pytestmark = pytest.mark.torch

SYMSHRINK = Path(runtime.__file__).parent
# What building the symbolic inputs, tracing and compiling take from torch.
_TORCH_WORK = {"make_fx", "compile_fx_inner", "ShapeEnv", "FakeTensorMode", "DimDynamic"}


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Two small fixtures written by torch's own writer, and test_retrace's carried script."""
    out = tmp_path_factory.mktemp("standalone")
    carried = out / "carried.py"
    carried.write_text(CARRIED)  # no input carries s10 or s11 bare
    return {
        "floordiv_sum_n4": generate("floordiv_sum", out, n=4).path,
        "minmax_mod": generate("minmax_mod", out).path,
        "carried": carried,
    }


def clean_python(cwd: Path) -> tuple[list[str], dict[str, str]]:
    """An interpreter that finds torch but not symshrink: site-packages as a plain path
    entry, no `.pth` processing (`-S`), so the editable install's finder never runs."""
    paths = dict.fromkeys(sysconfig.get_paths()[k] for k in ("purelib", "platlib"))
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(cwd)}
    env["PYTHONPATH"] = os.pathsep.join(paths)
    return [sys.executable, "-S"], env


def test_code_ops_cover_every_op() -> None:
    assert CODE_OPS.keys() == OP_NAMES


@pytest.mark.parametrize("name", ["floordiv_sum_n4", "minmax_mod", "carried"])
def test_parse_reads_the_standalone_as_the_model(small: dict, name: str) -> None:
    model = parse_file(small[name])
    text = render_standalone(model)
    assert parse(text) == model  # hints, Repro, load_args and run_repro's options
    assert "import symshrink" not in text and "from symshrink" not in text
    assert TORCH_RUN_REPRO_FLAG in text


@pytest.mark.parametrize("op", sorted(OP_CASES))
def test_symint_code_builds_what_symint_ops_builds(op: str) -> None:
    """The printed code, run on real SymInts, gives the same expression as the retrace."""
    import math

    import torch

    env, syms = op_case_symints()
    ops = symint_ops(env)
    expr = parse_expr(OP_CASES[op])
    code = symint_code(expr)
    value = eval(code, {"torch": torch, "math": math, "ops": ops, **syms})
    expected = fold(expr, syms.__getitem__, ops)
    if isinstance(expected, torch.SymInt | torch.SymBool):
        assert value.node.expr == expected.node.expr, code
        value = value.node.hint
    assert value == evaluate(expr, OP_CASE_HINTS), code


def test_unwritable_expression_is_a_clear_error(small: dict) -> None:
    model = parse_file(small["minmax_mod"])
    index, x = model.symints()[0]
    inputs = list(model.inputs)
    inputs[index] = SymIntInput(x.name, x.hint, sympy.Float(1.5))
    bad = model.replace(inputs=tuple(inputs))
    with pytest.raises(ReproError, match=rf"input {x.name}: cannot write .*Float"):
        render_standalone(bad)
    assert render_output(bad) == render(bad)  # minimize still writes a result
    assert is_standalone(render_output(model)) and not is_standalone(render(model))


def check_output(out: str, model_symbols: int) -> None:
    """The script printed the compiled graph's free symbols and a time per phase."""
    found = re.search(r"^free symbols: (\d+)", out, re.MULTILINE)
    assert found is not None, out
    assert int(found[1]) == model_symbols > 0, out
    for phase in ("trace", "lowering", "scheduling", "codegen", "total"):
        assert re.search(rf"^{phase} +\d+\.\d+ s$", out, re.MULTILINE), (phase, out)
    assert "native" not in out  # no C++ compile unless --native


@pytest.mark.spawns
def test_carriers_bind_symbols_no_input_carries(small: dict, capsys: pytest.CaptureFixture) -> None:
    """In process (the script's own functions), to keep the slow subprocess runs few."""
    model = parse_file(small["carried"])
    script = small["carried"].with_name("carried.min.py")
    script.write_text(render_standalone(model))
    ns = runpy.run_path(str(script), run_name="standalone_test")
    assert ns["standalone_main"]([], ns["mod"], ns["RETRACE_INPUTS"], ns) == 0
    check_output(capsys.readouterr().out, len(model.hints))


def _top_level_defs(tree: ast.Module) -> set[str]:
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.ClassDef)}


def _imported_names(tree: ast.Module) -> set[str]:
    return {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}


@pytest.mark.parametrize("name", ["floordiv_sum_n4", "carried"])
def test_the_runtime_is_embedded_verbatim_and_nowhere_copied(
    small: dict, name: str, tmp_path: Path
) -> None:
    """min.py carries symshrink/runtime.py as it is, its inputs as the data retrace gives
    the runtime, and no other code but torch's `Repro` and `load_args`."""
    source = (SYMSHRINK / "runtime.py").read_text()
    tree = ast.parse(source)
    imports = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imports |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert not {m.split(".")[0] for m in imports} & {"symshrink", "__future__"}, imports
    model = parse_file(small[name])
    text = render_standalone(model)
    assert source in text
    assert _top_level_defs(ast.parse(text)) == _top_level_defs(tree) | {"Repro", "load_args"}
    for module in ("retrace.py", "standalone.py", "runtime_spec.py"):  # the torch work is
        other = _imported_names(ast.parse((SYMSHRINK / module).read_text()))  # the runtime's
        assert not other & _TORCH_WORK, (module, other & _TORCH_WORK)
    script, plain = tmp_path / "min.py", tmp_path / "plain.py"
    script.write_text(text)
    plain.write_text(render(model))
    ns = runpy.run_path(str(script), run_name="standalone_test")
    assert repr(ns["RETRACE_INPUTS"]) == repr(input_spec(model))
    # The runtime shadows no global of the script's own code (`device`, hint names, ...).
    own = runpy.run_path(str(plain), run_name="standalone_test")
    shared = {n for n in own.keys() & vars(runtime).keys() if not n.startswith("__")}
    assert all(own[n] is getattr(runtime, n) for n in shared), shared


def test_min_py_measures_what_symshrink_run_measures(
    small: dict, capsys: pytest.CaptureFixture
) -> None:
    """The same phases from `python min.py` as from `symshrink run` on one repro, and a
    total that is their sum: one runtime measures both. (Their seconds are not compared:
    two timings of a millisecond compile differ by 10x and more when a core is busy.)"""
    model = parse_file(small["carried"])
    script = small["carried"].with_name("carried.same.min.py")
    script.write_text(render_standalone(model))
    ns = runpy.run_path(str(script), run_name="standalone_test")

    def run_min_py() -> str:
        assert ns["standalone_main"]([], ns["mod"], ns["RETRACE_INPUTS"], ns) == 0
        return capsys.readouterr().out

    result = retrace(small["carried"], no_native_compile=True)
    out = run_min_py()
    assert result.error is None, result.error
    printed = {m[1]: float(m[2]) for m in re.finditer(r"^(\w+) +(\d+\.\d+) s$", out, re.M)}
    total = printed.pop("total")
    assert list(printed) == list(result.phases), (out, result.phases)
    assert total == pytest.approx(sum(printed.values()), abs=0.001 * len(printed)), out
    assert f"free symbols: {result.graph_free_symbols} " in out


@pytest.mark.spawns
def test_runs_with_only_torch_installed(small: dict, tmp_path: Path) -> None:
    """Each script runs in an interpreter without symshrink and keeps every free symbol."""
    python, env = clean_python(tmp_path)
    probe = subprocess.run(
        [*python, "-c", "import symshrink"], cwd=tmp_path, env=env, capture_output=True
    )
    assert probe.returncode != 0 and b"No module named 'symshrink'" in probe.stderr
    jobs = {}
    for name in ("floordiv_sum_n4", "minmax_mod"):
        path = small[name]
        model = parse_file(path)
        script = tmp_path / f"{name}.min.py"
        script.write_text(render_standalone(model))
        proc = subprocess.Popen(
            [*python, str(script)], cwd=tmp_path, env=env, stdout=subprocess.PIPE, text=True
        )
        jobs[name] = (model, proc)
    for name, (model, proc) in jobs.items():
        out, _ = proc.communicate(timeout=300)
        assert proc.returncode == 0, (name, out)
        check_output(out, len(model.hints))

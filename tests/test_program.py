"""The torch.compile program: what it says (golden files), the width family it runs at,
that it needs only torch and the standard library, and that it compiles in both modes.

The golden inputs in tests/golden/program/ were written by torch's own writer
(`python tests/fixtures_gen.py tests/golden/program --family F [--n N]` for floordiv_sum
n 4, aot_frames_outer n 4 and unbacked_scale; `capture_floordiv_n4.py` is the forward
graph `symshrink capture -o OUT -- python tests/capture_prog.py floordiv 4` wrote, as
torch.compile traced it, `torch.sym_sum` and all); after a deliberate change to the program's
text, `python -m tests.test_program` writes the expected files again (then read the diff).
"""

from __future__ import annotations

import ast
import json
import runpy
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from symshrink.errors import ReproError, UsageError
from symshrink.expr import OP_NAMES, evaluate, parse_expr, symint_str
from symshrink.passes.symbols import PIN, Pin
from symshrink.program import program_path, render_program
from symshrink.repro.model import SymIntInput
from symshrink.repro.parse import parse_file
from symshrink.repro.source import forward_lines
from symshrink.widths import at_width, first_clear, knob

GOLDEN = Path(__file__).parent / "golden" / "program"
CASES = ("floordiv_sum_n4", "aot_frames_outer_n4", "unbacked_scale", "capture_floordiv_n4")
CORPUS = Path(__file__).parents[1] / "corpora"


def rendered(name: str) -> str:
    return render_program(parse_file(GOLDEN / f"{name}.py"), name, f"{name}.py")


@pytest.mark.parametrize("name", CASES)
def test_the_program_reads_as_its_golden_file(name: str) -> None:
    assert rendered(name) == (GOLDEN / f"{name}.program.py").read_text()


def test_the_golden_files_show_what_they_are_for() -> None:
    """A derived-shape tensor rebuilt from a flat input, an unbacked symbol from .tolist(),
    SymInt arithmetic chains in one line, the widest sum named once."""
    aot, unbacked, plain = (
        rendered(n) for n in ("aot_frames_outer_n4", "unbacked_scale", CASES[0])
    )
    assert "flat.as_strided(*layout)" in aot and "def derived(" in aot
    assert "items.tolist()" in unbacked and "capture_scalar_outputs = True" in unbacked
    assert "ITEMS = {'u0': 7}" in unbacked
    assert "+ sum([t.size(0) for t in more])" in plain and "def derived(" not in plain
    assert " = None" not in plain.split("def inputs")[0]  # FX's release lines are gone
    # Dynamo traced the program's `sum` of sizes into `torch.sym_sum`, which it cannot trace
    # back when the sizes are ints (static mode): the program sums as the user wrote it
    captured = rendered("capture_floordiv_n4")
    assert "torch.sym_sum" not in captured and "sym_sum = sum((" in captured


@pytest.mark.parametrize("entry", ["pad_outer_view", "sym_outer_floordiv"])
def test_the_program_refuses_a_width_it_does_not_have(entry: str) -> None:
    """A program with no widest sum to widen can only cut: --n past its symbols is out of
    range, and the error says that, not something about instruction counters."""
    text = render_program(parse_file(CORPUS / entry / "repro.py"), entry, "repro.py")
    (check,) = [line for line in text.splitlines() if "out of range" in line]
    cut = "not 1 <= a.n <= len(WIDEST)"
    assert (cut in text) == (entry == "pad_outer_view")
    assert f'" if {cut if cut in text else "a.n < 1"} else "' in check


@pytest.mark.parametrize("name", CASES)
def test_the_program_has_no_statement_for_its_side_effect_only(name: str) -> None:
    """No list built only to be thrown away (`[f(x) for x in xs]` as a statement)."""
    tree = ast.parse(rendered(name))
    assert not [
        n for n in ast.walk(tree) if isinstance(n, ast.Expr) and isinstance(n.value, ast.ListComp)
    ]


def imported_modules(text: str) -> set[str]:
    tree = ast.parse(text)
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    return {name.split(".")[0] for name in names}


@pytest.mark.parametrize("name", CASES)
def test_the_program_imports_only_torch_and_the_standard_library(name: str) -> None:
    imported = imported_modules(rendered(name))
    assert "torch" in imported
    assert imported - {"torch"} <= sys.stdlib_module_names, imported


def test_equal_hints_of_distinct_symbols_are_refused() -> None:
    """Dynamo would make them one symbol (duck sizing): the program would not be the repro."""
    model = parse_file(GOLDEN / "floordiv_sum_n4.py")
    first, second = sorted(model.hints)[:2]
    same = model.replace(hints={**model.hints, second: model.hints[first]})
    with pytest.raises(ReproError, match=r"same hint .*duck sizing"):
        render_program(same)


def test_program_path() -> None:
    assert program_path(Path("d/x.min.py")) == Path("d/x.program.py")
    assert program_path(Path("d/x.py")) == Path("d/x.program.py")


def test_the_command_writes_the_program_beside_the_repro(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from symshrink.cli import app

    repro = tmp_path / "unbacked_scale.py"
    repro.write_text((GOLDEN / "unbacked_scale.py").read_text())
    result = CliRunner().invoke(app, ["program", str(repro)])
    assert result.exit_code == 0, result.output
    written = tmp_path / "unbacked_scale.program.py"
    assert result.output.strip() == str(written)
    assert written.read_text() == rendered("unbacked_scale")
    setting = ["program", str(repro), "-o", str(tmp_path / "p.py"), "--torch-setting"]
    result = CliRunner().invoke(app, [*setting, "torch._inductor.config.max_fusion_size=8"])
    assert "torch._inductor.config.max_fusion_size = 8" in (tmp_path / "p.py").read_text()
    onto = CliRunner().invoke(app, ["program", str(repro), "-o", str(repro)])
    assert isinstance(onto.exception, UsageError) and "overwrite" in str(onto.exception)
    (tmp_path / "bad.py").write_text("x = (\n")
    bad = CliRunner().invoke(app, ["program", str(tmp_path / "bad.py")])
    assert isinstance(bad.exception, ReproError)  # main() prints it on one line, exit 2


FORWARD = """
class Repro(torch.nn.Module):
    def forward(self, a, b, c, t):
        sub = a - b;  a = None
        add_1 = c - sub;  sub = None
        add_2 = add_1 * 2;  add_1 = None
        mul = add_2 * b
        slice_1 = torch.ops.aten.slice.Tensor(t, 0, add_2, mul);  t = add_2 = mul = None
        return (slice_1,)
"""


def test_forward_lines_write_each_symint_chain_in_one_line() -> None:
    """A step read once, by the next arithmetic step, is written into it (the same syntax
    tree: the same operations in the same order); one read elsewhere keeps its line."""
    assert forward_lines(FORWARD, {"b": "s0", "c": 7}) == [
        "add_2 = (7 - (a - s0)) * 2",
        "mul = add_2 * s0",
        "slice_1 = torch.ops.aten.slice.Tensor(t, 0, add_2, mul)",
        "return (slice_1,)",
    ]


# ------------------------------------------------------------------------ with torch


def _load(text: str, tmp_path: Path, name: str) -> dict:
    path = tmp_path / f"{name}.program.py"
    path.write_text(text)
    return runpy.run_path(str(path), run_name="program_test")


def _dynamic_sizes(args: list) -> Counter:
    """The sizes of the dims `mark_dynamic` marked, over the program's arguments."""
    import torch

    found: Counter = Counter()
    for a in args:
        for t in a if isinstance(a, list) else [a]:
            if isinstance(t, torch.Tensor):
                found.update(t.shape[i] for i in getattr(t, "_dynamo_dynamic_indices", ()))
    return found


@pytest.mark.torch
@pytest.mark.parametrize("name", ["floordiv_sum_n4", "unbacked_scale"])
def test_the_program_at_n_is_the_model_at_that_width(name: str, tmp_path: Path) -> None:
    """--n N cuts (pins) or widens the widest sum exactly as widths.at_width does: the dims
    marked dynamic are the sizes of the model's free symbols at that width, and the graph
    run eagerly there gives the model's SymInt values (its hints) as sizes."""
    model = parse_file(GOLDEN / f"{name}.py")
    program = _load(rendered(name), tmp_path, name)
    for n in (1, 2, len(knob(model)), len(knob(model)) + 3):
        wide = at_width(model, n)
        assert wide is not None
        args = program["inputs"](n, True)
        backed = set(wide.hints.values())
        # symbols carried by two tensors are marked on both (Dynamo merges them: same hint)
        assert set(_dynamic_sizes(args)) == backed, n
        hints = [
            x.hint
            for x in wide.inputs
            if isinstance(x, SymIntInput) and x.hint and x.expr is not None and x.expr.free_symbols
        ]
        shapes = {d for out in program["graph"](*program["inputs"](n, False)) for d in out.shape}
        assert set(hints) <= shapes | backed, (n, hints, shapes)


@pytest.mark.torch
def test_a_program_with_one_symbol_carried_by_a_graph_input_runs(tmp_path: Path) -> None:
    """One free symbol left, the length of a tensor the graph reads: it is read as that
    tensor's size (`s = arg.size(0)`, no tuple to unpack), and the graph runs eagerly."""
    model = parse_file(GOLDEN / "floordiv_sum_n4.py")
    one = PIN.apply(model, [Pin(n) for n in list(model.hints)[1:]])
    assert one is not None and len(one.hints) == 1
    (name,) = one.hints
    text = render_program(one, "one", "one.py")
    program = _load(text, tmp_path, "one")
    for dynamic in (True, False):
        outs = program["graph"](*program["inputs"](1, dynamic))
        assert outs and all(hasattr(out, "shape") for out in outs)
    assert f"    {name} = " in text and f"    {name}, = " not in text


@pytest.mark.spawns
@pytest.mark.torch
def test_the_program_runs_without_symshrink(tmp_path: Path) -> None:
    from tests.test_standalone import clean_python

    path = tmp_path / "unbacked_scale.program.py"
    path.write_text(rendered("unbacked_scale"))
    python, env = clean_python(tmp_path)
    probe = subprocess.run(
        [*python, "-c", "import symshrink"], env=env, cwd=tmp_path, capture_output=True
    )
    assert probe.returncode != 0  # symshrink is not importable there
    result = subprocess.run(
        [*python, str(path), "--help"], env=env, cwd=tmp_path, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert "--mode" in result.stdout and "--backend" in result.stdout


@pytest.mark.spawns
@pytest.mark.torch
@pytest.mark.parametrize("name", ["floordiv_sum_n4", "capture_floordiv_n4"])
def test_a_small_program_compiles_dynamic_and_static(name: str, tmp_path: Path) -> None:
    """Each mode in a fresh process, as the program's own parent runs them; mark_dynamic
    raises if Dynamo specializes a marked dim, so a dynamic run that ends kept them. A
    graph torch.compile wrote (`torch.sym_sum` of sizes) compiles with static shapes too."""
    path = tmp_path / f"{name}.program.py"
    path.write_text(rendered(name))
    for mode in ("dynamic", "static"):
        result = subprocess.run(
            [sys.executable, str(path), "--mode", mode],
            capture_output=True,
            text=True,
            timeout=900,
        )
        assert result.returncode == 0, result.stderr[-3000:]
        out = json.loads(result.stdout.splitlines()[-1])
        assert out["seconds"] > 0 and out["instructions"] is None


@pytest.mark.torch
@pytest.mark.parametrize("op", sorted(OP_NAMES))
def test_symint_str_builds_what_the_retrace_builds(op: str) -> None:
    """The program's text of each op, run on real SymInts, gives the expression the retrace
    gives (`runtime.symint_ops`); ModularIndexing and Where only its value (no public API
    builds those nodes)."""
    import math

    import torch

    from symshrink.expr import fold
    from symshrink.runtime import symint_ops
    from tests.test_retrace import OP_CASE_HINTS, OP_CASES, op_case_symints

    env, syms = op_case_symints()
    expr = parse_expr(OP_CASES[op])
    if op == "IsNonOverlappingAndDenseIndicator":
        with pytest.raises(ValueError, match="no SymInt form"):
            symint_str(expr)
        return
    code = symint_str(expr)
    value = eval(code, {"torch": torch, "math": math, **syms})
    expected = fold(expr, syms.__getitem__, symint_ops(env))
    if isinstance(expected, torch.SymInt | torch.SymBool):
        if op not in ("ModularIndexing", "Where"):
            assert value.node.expr == expected.node.expr, code
        value = value.node.hint
    assert value == evaluate(expr, OP_CASE_HINTS), code


if __name__ == "__main__":  # write the expected files again after a deliberate change
    for case in CASES:
        (GOLDEN / f"{case}.program.py").write_text(rendered(case))


def test_the_program_can_run_at_a_wider_width_by_default() -> None:
    """`runs_at`: --n defaults to a wider member of the width family, and the program says
    that --n its own width is the repro itself. A repro with no sum to widen has no wider
    member, nor has any repro a narrower default."""
    own = len(knob(parse_file(GOLDEN / "floordiv_sum_n4.py")))
    text = render_program(parse_file(GOLDEN / "floordiv_sum_n4.py"), "x", "x.py", runs_at=own + 3)
    assert f'p.add_argument("--n", type=int, default={own + 3},' in text
    (note,) = [line for line in text.splitlines() if line.startswith("# note: --n defaults")]
    assert f"--n {own} is x itself" in note
    assert rendered("floordiv_sum_n4") == render_program(
        parse_file(GOLDEN / "floordiv_sum_n4.py"),
        "floordiv_sum_n4",
        "floordiv_sum_n4.py",
        runs_at=own,
    )
    with pytest.raises(UsageError, match="no width"):
        render_program(parse_file(GOLDEN / "floordiv_sum_n4.py"), "x", runs_at=own - 1)
    with pytest.raises(UsageError, match="no sum to widen"):
        render_program(parse_file(CORPUS / "pad_outer_view" / "repro.py"), "p", runs_at=30)


def test_first_clear_is_the_smallest_width_from_its_own_up() -> None:
    model = parse_file(GOLDEN / "floordiv_sum_n4.py")
    own = len(knob(model))
    asked: list[int] = []

    def wide_enough(m) -> bool:
        asked.append(len(m.hints))
        return len(m.hints) >= own + 2

    assert first_clear(model, wide_enough, upto=own + 5) == own + 2
    assert asked == [own, own + 1, own + 2]  # one symbol at a time, stopped at the first
    assert first_clear(model, lambda m: True, upto=own) == own
    assert first_clear(model, lambda m: False, upto=own + 2) is None


SYM_CALLS = [
    "n = torch.sym_sum([x.size(0), x.size(1)])",
    "n = torch.ops.aten.sym_numel.default(x)",
    "n = torch.ops.aten.sym_size.int(x, 1)",
    "n = torch.ops.aten.sym_stride.int(x, 0)",
]


@pytest.mark.torch
@pytest.mark.parametrize("line", SYM_CALLS)
def test_a_graph_line_as_written_traces_static_and_dynamic(line: str) -> None:
    """The calls on sizes a captured graph holds, as the program writes them, trace with
    fullgraph in both modes and give what the graph's own call gives eagerly."""
    import torch

    from symshrink.program import as_written

    def function(text: str) -> Callable[[torch.Tensor], torch.Tensor]:
        scope: dict[str, Any] = {"torch": torch}
        exec(f"def f(x):\n    {text}\n    return x * n", scope)
        return scope["f"]

    x = torch.ones(6, 4)[1:]
    expected = function(line)(x)
    for dynamic in (False, True):
        compiled = torch.compile(
            function(as_written(line)), fullgraph=True, dynamic=dynamic, backend="eager"
        )
        assert torch.equal(compiled(x), expected), (line, dynamic)

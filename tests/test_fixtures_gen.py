"""Tests of tests/fixtures_gen.py: torch's own writer output, truth recorded from torch."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests import fixtures_gen
from tests.fixtures_gen import FAMILIES, PYTHON_EXPR_FAMILIES, STANDARD_SET, Fixture

STANDARD_NAMES = [fixtures_gen._fixture_name(f, p) for f, p in STANDARD_SET]
HINT_LINE = re.compile(r"^(s\d+) = (-?\d+)$", re.M)
SYMBOL = re.compile(r"\b[su]\d+\b")

# Python meaning of the functions torch's sympy printer writes, for ``eval`` on hints.
PY_FUNCS = {
    "Max": max,
    "Min": min,
    "Mod": lambda a, b: a % b,
    "PythonMod": lambda a, b: a % b,
    "FloorDiv": lambda a, b: a // b,
    "CleanDiv": lambda a, b: a // b,
    "ModularIndexing": lambda x, d, m: (x // d) % m,
}


@pytest.fixture
def standard(fixtures: dict[str, Fixture]) -> dict[str, Fixture]:
    """conftest's session fixture ``fixtures``: ``generate_all`` once per session."""
    return fixtures


def _load_module(path: Path) -> Any:
    """Exec one of *our own* generated scripts as a module (not as __main__)."""
    spec = importlib.util.spec_from_file_location(f"_fixture_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _load_args(path: Path) -> Any:
    from torch._dynamo.debug_utils import InputReader

    reader = InputReader()
    _load_module(path).load_args(reader)
    return reader


def _hints(truth: dict) -> dict[str, int]:
    return dict(truth["free_symbols"])


def _strip_unsupported_blocks(text: str) -> str:
    """Drop the raw-string block the writer puts after ``reader.unsupported``."""
    return re.sub(r'\n\s*"""\n.*?\n\s*"""', "", text, flags=re.S)


# --------------------------------------------------------------------- no torch needed


def test_standard_set_covers_every_family() -> None:
    assert {f for f, _ in STANDARD_SET} == set(FAMILIES)
    assert len(set(STANDARD_NAMES)) == len(STANDARD_NAMES)
    assert set(FAMILIES) >= PYTHON_EXPR_FAMILIES


@pytest.mark.spawns
def test_import_does_not_import_torch() -> None:
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); import tests.fixtures_gen; "
        "assert 'torch' not in sys.modules, 'torch imported'"
    )
    root = Path(fixtures_gen.__file__).resolve().parents[1]
    subprocess.run([sys.executable, "-c", code, str(root)], check=True)


# --------------------------------------------------------------------- the standard set


@pytest.mark.torch
def test_generate_all_writes_every_fixture(standard: dict[str, Fixture]) -> None:
    assert sorted(standard) == sorted(STANDARD_NAMES)
    for fx in standard.values():
        assert fx.path.is_file() and fx.path.suffix == ".py"
        assert json.loads(fx.truth_path.read_text()) == fx.truth


@pytest.mark.torch
@pytest.mark.parametrize("name", STANDARD_NAMES)
def test_script_is_torch_writer_output(standard: dict[str, Fixture], name: str) -> None:
    fx = standard[name]
    text = fx.path.read_text()
    truth = fx.truth
    for needle in (
        "def load_args(reader):",
        "class Repro(torch.nn.Module):",
        "load_args._version = 0",
        "mod = Repro()",
        "from torch._dynamo.repro.after_aot import run_repro",
        f"tracing_mode={truth['tracing_mode']!r}",
    ):
        assert needle in text, needle
    assert "_Any_" not in text  # no annotation leaked from a traced function
    # the hint lines at the top are exactly truth's free_symbols
    head = text.split("import torch", 1)[0]
    assert {k: int(v) for k, v in HINT_LINE.findall(head)} == truth["free_symbols"]
    body = _strip_unsupported_blocks(text)
    assert body.count("reader.symint(") == len(truth["symints"])
    assert body.count("reader.tensor(") == len(truth["tensors"])
    for s in truth["symints"]:
        if s["expr"] is None:
            assert f"reader.symint({s['hint']})  # {s['name']}" in body
        else:
            assert f"reader.symint({s['hint']}, expr={s['expr']!r})  # {s['name']}" in body
    for t in truth["tensors"]:
        shape = "(" + ", ".join(t["shape"]) + ("," if len(t["shape"]) == 1 else "") + ")"
        assert f"reader.tensor({t['storage']}, {shape}" in body, t


@pytest.mark.torch
@pytest.mark.parametrize("name", STANDARD_NAMES)
def test_truth_is_consistent(standard: dict[str, Fixture], name: str) -> None:
    truth = standard[name].truth
    hints = _hints(truth)
    unbacked = set(truth["unbacked_symbols"])
    # distinct free symbols got distinct hints, never 0 or 1 (those specialize)
    assert len(set(hints.values())) == len(hints)
    assert not {0, 1} & set(hints.values())
    assert set(hints) <= set(truth["all_free_symbols"])
    # every input index is described exactly once
    indices = sorted(x["index"] for key in ("symints", "tensors", "others") for x in truth[key])
    assert indices == list(range(truth["n_inputs"]))
    assert len(truth["placeholders"]) == truth["n_inputs"]
    for s in truth["symints"]:
        assert set(s["free_symbols"]) <= set(hints) | unbacked, s
        if s["expr"] is None:
            assert s["free_symbols"] == [] and isinstance(s["hint"], int)
        else:
            assert set(SYMBOL.findall(s["expr"])) == set(s["free_symbols"]), s
    for t in truth["tensors"]:
        for e in (*t["shape"], *t["stride"], t["storage_offset"]):
            assert set(SYMBOL.findall(e)) <= set(hints), (t, e)


@pytest.mark.torch
@pytest.mark.parametrize("name", STANDARD_NAMES)
def test_exprs_evaluate_to_hints(standard: dict[str, Fixture], name: str) -> None:
    truth = standard[name].truth
    hints = _hints(truth)
    plain_python = truth["family"] in PYTHON_EXPR_FAMILIES
    for s in truth["symints"]:
        if s["expr"] is None or s["hint"] is None:
            continue
        if plain_python:  # only names, + - * // and parentheses
            assert eval(s["expr"], {"__builtins__": {}}, dict(hints)) == s["hint"], s
        assert eval(s["expr"], {"__builtins__": {}}, {**PY_FUNCS, **hints}) == s["hint"], s


@pytest.mark.torch
@pytest.mark.parametrize("name", STANDARD_NAMES)
def test_exprs_round_trip_through_torch_sympy(standard: dict[str, Fixture], name: str) -> None:
    import sympy
    from torch.utils._sympy import functions as F

    truth = standard[name].truth
    hints = _hints(truth)
    funcs = {k: getattr(F, k) for k in PY_FUNCS}
    syms = {k: sympy.Symbol(k, integer=True, positive=True) for k in hints}
    for s in truth["symints"]:
        if s["expr"] is None or s["hint"] is None:
            continue
        e = sympy.sympify(s["expr"], locals={**funcs, **syms})
        assert {str(x) for x in e.free_symbols} == set(s["free_symbols"])
        assert int(e.xreplace({syms[k]: sympy.Integer(v) for k, v in hints.items()})) == (s["hint"])


@pytest.mark.torch
@pytest.mark.parametrize("name", STANDARD_NAMES)
def test_torch_input_reader_loads_script(standard: dict[str, Fixture], name: str) -> None:
    import torch

    fx = standard[name]
    truth = fx.truth
    hints = _hints(truth)
    reader = _load_args(fx.path)
    assert len(reader.args) == truth["n_inputs"]
    exprs = {s["index"]: s["expr"] for s in truth["symints"] if s["expr"] is not None}
    assert getattr(reader, "symint_exprs", {}) == exprs
    for s in truth["symints"]:
        assert reader.args[s["index"]] == s["hint"]
    for t in truth["tensors"]:
        arg = reader.args[t["index"]]
        assert isinstance(arg, torch.Tensor)
        ev = [eval(d, {"__builtins__": {}}, dict(hints)) for d in t["shape"]]
        assert list(arg.shape) == ev
        assert [arg.stride(i) for i in range(arg.dim())] == [
            eval(d, {"__builtins__": {}}, dict(hints)) for d in t["stride"]
        ]
        assert arg.storage_offset() == eval(t["storage_offset"], {}, dict(hints))
        assert str(arg.dtype) == t["dtype"]
        assert arg.requires_grad == t["requires_grad"]


# --------------------------------------------------------------------- per family


@pytest.mark.torch
def test_floordiv_sum_matches_the_sym_outer_sample(standard: dict[str, Fixture]) -> None:
    truth = standard["floordiv_sum_n16"].truth
    assert len(truth["tensors"]) == 16 and len(truth["free_symbols"]) == 16
    k, first, total = truth["symints"]
    syms = sorted(truth["free_symbols"])
    assert total["expr"] == " + ".join(sorted(syms))  # sympy's printed order
    assert total["hint"] == sum(truth["free_symbols"].values())
    assert k["expr"] == f"((({total['expr']})//160)) + 866"
    assert k["hint"] == total["hint"] // 160 + 866
    assert first["expr"] == truth["tensors"][0]["shape"][0]
    text = standard["floordiv_sum_n16"].path.read_text()
    assert "torch.ops.prims.iota.default" in text  # Inductor's decompositions
    view = rf"torch\.ops\.aten\.view\.default\(add_\d+, \[{k['name']}, {total['name']}\]\)"
    assert re.search(view, text)


@pytest.mark.torch
def test_free_symints_are_bare_symbols(standard: dict[str, Fixture]) -> None:
    truth = standard["free_symints"].truth
    bare = [s for s in truth["symints"] if s["expr"] in truth["free_symbols"]]
    assert len(bare) == 3
    for s in bare:
        assert truth["free_symbols"][s["expr"]] == s["hint"]


@pytest.mark.torch
def test_minmax_mod_has_every_function(standard: dict[str, Fixture]) -> None:
    exprs = " ".join(s["expr"] for s in standard["minmax_mod"].truth["symints"])
    for fn in ("Max(", "Min(", "Mod(", "PythonMod(", "ModularIndexing(", "//"):
        assert fn in exprs, fn
    assert re.search(r"\(\(\(\(s\d+//3\)\) \+ 1\)//5\)", exprs)  # nested FloorDiv kept


@pytest.mark.torch
def test_strided_forms(standard: dict[str, Fixture]) -> None:
    fx = standard["strided"]
    tensors = fx.truth["tensors"]
    assert any(t["stride"][0] == "1" and t["stride"][1].startswith("s") for t in tensors)
    assert any(SYMBOL.search(t["storage_offset"]) for t in tensors)  # 2*sNN
    assert any(t["dtype"] == "torch.int64" for t in tensors)
    assert any(t["requires_grad"] for t in tensors)
    assert len({t["storage"] for t in tensors}) < len(tensors)  # a shared storage
    assert any(t["shape"][-1] == "8" and SYMBOL.search(t["shape"][0]) for t in tensors)
    text = fx.path.read_text()
    assert "requires_grad=True" in text and "dtype=torch.int64" in text


@pytest.mark.torch
def test_old_style_has_no_expr_and_no_hint_lines(standard: dict[str, Fixture]) -> None:
    fx = standard["old_style_n4"]
    text = fx.path.read_text()
    assert "expr=" not in text
    assert not HINT_LINE.search(text.split("import torch", 1)[0])
    assert fx.truth["free_symbols"] == {} and fx.truth["all_free_symbols"] == {}
    assert all(s["expr"] is None for s in fx.truth["symints"])
    assert all(d.isdigit() for t in fx.truth["tensors"] for d in t["shape"])


@pytest.mark.torch
def test_mod_pad_uses_python_mod(standard: dict[str, Fixture]) -> None:
    truth = standard["mod_pad_n8"].truth
    total, pad = truth["symints"]
    assert pad["expr"].startswith("PythonMod(-")
    assert pad["expr"].endswith(", 160)")
    assert (total["hint"] + pad["hint"]) % 160 == 0


@pytest.mark.torch
def test_reader_forms(standard: dict[str, Fixture]) -> None:
    truth = standard["reader_forms"].truth
    assert {o["kind"] for o in truth["others"]} == {"const", "generator", "unsupported"}
    assert truth["unbacked_symbols"] == ["u0"]
    assert {"index": 6, "name": "u", "hint": None, "expr": "u0", "free_symbols": ["u0"]} in (
        truth["symints"]
    )
    assert any(s["expr"] is None and s["hint"] == 5 for s in truth["symints"])


# --------------------------------------------------------------------- generator behaviour


@pytest.mark.torch
def test_generation_is_deterministic(tmp_path: Path, standard: dict[str, Fixture]) -> None:
    for family, params in (("floordiv_sum", {"n": 4}), ("minmax_mod", {})):
        again = fixtures_gen.generate(family, tmp_path, **params)
        first = standard[again.name]
        assert again.path.read_text() == first.path.read_text()
        assert again.truth == first.truth


@pytest.mark.torch
def test_unstable_output_keeps_the_same_load_args(
    tmp_path: Path, standard: dict[str, Fixture]
) -> None:
    fx = fixtures_gen.generate("shared_symbols", tmp_path, stable_output=False)
    text = fx.path.read_text()
    assert "import os" in text and "# torch version:" in text
    stable = standard["shared_symbols"].path.read_text()
    assert text.split("def load_args", 1)[1] == stable.split("def load_args", 1)[1]
    assert fx.truth["free_symbols"] == standard["shared_symbols"].truth["free_symbols"]


@pytest.mark.torch
def test_offset_symbol_has_no_hint_line_in_torch_2_13(tmp_path: Path) -> None:
    """torch's writer misses a free symbol that is only a storage offset (NameError)."""
    fx = fixtures_gen.generate("strided", tmp_path, offset_symbol=True, fixture_name="off")
    missing = set(fx.truth["all_free_symbols"]) - set(fx.truth["free_symbols"])
    assert len(missing) == 1
    (sym,) = missing
    assert f"storage_offset={sym}," in fx.path.read_text()
    with pytest.raises(NameError, match=sym):
        _load_args(fx.path)


@pytest.mark.torch
def test_equal_hints_are_refused() -> None:
    env = fixtures_gen._Env()
    env.tensor([1000])
    env.tensor([1000])  # duck sizing: the same symbol
    with pytest.raises(AssertionError, match="expected 2 free symbols"):
        env.check_distinct(2)


@pytest.mark.torch
def test_bad_requests(tmp_path: Path) -> None:
    with pytest.raises(KeyError, match="unknown fixture family"):
        fixtures_gen.generate("nope", tmp_path)
    with pytest.raises(ValueError, match="n must be"):
        fixtures_gen.generate("floordiv_sum", tmp_path, n=0)


@pytest.mark.torch
def test_cli_one_family(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert fixtures_gen.main([str(tmp_path), "--family", "floordiv_sum", "--n", "3"]) == 0
    assert (tmp_path / "floordiv_sum_n3.py").is_file()
    truth = json.loads((tmp_path / "floordiv_sum_n3.truth.json").read_text())
    assert len(truth["free_symbols"]) == 3 and truth["params"]["n"] == 3
    assert str(tmp_path / "floordiv_sum_n3.py") in capsys.readouterr().out
    with pytest.raises(SystemExit):
        fixtures_gen.main([str(tmp_path), "--family", "minmax_mod", "--n", "3"])


@pytest.mark.torch
@pytest.mark.parametrize(
    ("family", "params", "free"),
    [
        ("item_mod", {"n": 4}, 4),
        ("nested_floordiv", {"depth": 2}, 1),
        ("split_reverse", {"n": 4}, 4),
        ("item_floordiv", {"n": 4}, 4),
        ("dot_floordiv", {"n": 3}, 6),
        ("prod_floordiv", {"n": 2}, 4),
        ("prod_pythonmod", {"n": 2}, 4),
        ("prod_modidx", {"n": 4}, 4),
        ("max_chain", {"n": 3}, 3),
    ],
)
def test_slow_families_write_parseable_repros(
    tmp_path: Path, family: str, params: dict, free: int
) -> None:
    """The corpus's generators, at sizes too small to be slow: written by torch, read by us."""
    from symshrink.repro.parse import parse_file

    fixture = fixtures_gen.generate(family, tmp_path, **params)
    model = parse_file(fixture.path)
    assert len(model.hints) == free == len(_hints(fixture.truth))
    assert set(model.hints.items()) == set(_hints(fixture.truth).items())


@pytest.mark.compiles
@pytest.mark.torch
def test_aot_frames_outer_is_torch_compiles_backward_dump(tmp_path: Path) -> None:
    """torch.compile's own backward graph (like samples/aot_frames_outer_bw_n4.py): N free
    symbols, the N-term sum and its //160 as SymInt inputs, tensors sized by them; and
    symshrink retraces it with every relationship kept."""
    from symshrink.expr import evaluate, torch_str
    from symshrink.repro.model import SymIntInput, TensorInput
    from symshrink.repro.parse import parse_file
    from symshrink.retrace import retrace

    n = 4
    fixture = fixtures_gen.generate("aot_frames_outer", tmp_path, n=n)
    assert fixture.name == f"aot_frames_outer_n{n}"
    model = parse_file(fixture.path)
    hints = model.hints
    assert len(hints) == n and hints == _hints(fixture.truth)
    total = sum(hints.values())
    exprs = [x.expr for x in model.inputs if isinstance(x, SymIntInput) and x.expr is not None]
    assert " + ".join(sorted(hints)) in {torch_str(e) for e in exprs}  # sym_sum
    frames = {torch_str(e): evaluate(e, hints) for e in exprs if "//160" in torch_str(e)}
    assert total // 160 + 866 in frames.values(), frames  # k
    assert 160 * (total // 160 + 866) in frames.values(), frames  # the padded length
    dims = [d for x in model.inputs if isinstance(x, TensorInput) for d in x.shape]
    assert any("//160" in torch_str(d) and len(d.free_symbols) == n for d in dims)
    result = retrace(fixture.path, no_native_compile=True)
    assert result.error is None, result.error
    assert result.derived_ok
    assert result.graph_free_symbols == n


@pytest.mark.torch
@pytest.mark.parametrize(
    ("family", "params", "functions"),
    [
        ("item_floordiv", {"n": 4}, {"FloorDiv"}),
        ("dot_floordiv", {"n": 3}, {"FloorDiv", "Mul"}),
        ("prod_floordiv", {"n": 2}, {"FloorDiv", "Mul"}),
        ("prod_pythonmod", {"n": 2}, {"PythonMod", "Mul"}),
        ("prod_modidx", {"n": 4}, {"Mul"}),
        ("max_chain", {"n": 3}, {"Max"}),
    ],
)
def test_corpus_families_write_their_expression(
    tmp_path: Path, family: str, params: dict, functions: set[str]
) -> None:
    """Each new corpus family's derived SymInt is the expression its docstring names, over
    every free symbol, and evaluates to torch's hint."""
    import sympy

    from symshrink.expr import evaluate
    from symshrink.repro.model import SymIntInput
    from symshrink.repro.parse import parse_file

    fixture = fixtures_gen.generate(family, tmp_path, **params)
    model = parse_file(fixture.path)
    (k,) = [
        x for x in model.inputs if isinstance(x, SymIntInput) and x.expr is not None
        and {f.func.__name__ for f in sympy.preorder_traversal(x.expr)} >= functions
    ]  # fmt: skip
    assert {str(s) for s in k.expr.free_symbols} == set(model.hints)
    (recorded,) = [t for t in fixture.truth["symints"] if t["name"] == k.name]
    assert evaluate(k.expr, model.hints) == recorded["hint"] == k.hint

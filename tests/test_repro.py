"""The model: torch-written fixtures parse to the truth recorded from torch; render round-trips."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, reject, settings
from hypothesis import strategies as st

from symshrink.errors import ExprError
from symshrink.expr import evaluate, free_symbol_names, parse_expr, symbol, torch_str
from symshrink.graph import SymGraph
from symshrink.repro.model import OtherInput, Repro, Storage, SymIntInput, TensorInput
from symshrink.repro.parse import parse, parse_file
from symshrink.repro.render import render

pytestmark = pytest.mark.torch  # the fixtures are written by torch


def test_every_fixture_parses_to_the_truth(fixtures: dict) -> None:
    for fx in fixtures.values():
        repro = parse_file(fx.path)
        truth = fx.truth
        assert dict(repro.hints) == truth["free_symbols"], fx.name
        assert len(repro.inputs) == truth["n_inputs"], fx.name
        symints = {i: x for i, x in repro.symints()}
        assert sorted(symints) == sorted(s["index"] for s in truth["symints"]), fx.name
        for s in truth["symints"]:
            x = symints[s["index"]]
            assert x.hint == s["hint"], (fx.name, s)
            if s["expr"] is None:
                assert x.expr is None
                continue
            # Same expression as torch's own SymInt (sympy-equal, and same text back).
            assert x.expr == parse_expr(s["expr"]), (fx.name, s)
            assert sorted(free_symbol_names(x.expr)) == s["free_symbols"], (fx.name, s)
            if s["hint"] is not None:
                assert evaluate(x.expr, repro.hints) == s["hint"], (fx.name, s)
        tensors = {i: t for i, t in repro.tensors()}
        for t in truth["tensors"]:
            mine = tensors[t["index"]]
            assert [torch_str(e) for e in mine.shape] == t["shape"], (fx.name, t)


def test_every_fixture_round_trips(fixtures: dict) -> None:
    for fx in fixtures.values():
        repro = parse_file(fx.path)
        assert parse(render(repro)) == repro, fx.name
        # Rendering is a fixpoint after one step: stable text for diffs and caches.
        assert render(parse(render(repro))) == render(repro), fx.name


@pytest.mark.spawns
def test_inspect_json_shows_the_truth(fixtures: dict) -> None:
    fx = fixtures["floordiv_sum_n4"]
    out = subprocess.run(
        [sys.executable, "-m", "symshrink", "inspect", str(fx.path), "--format", "json"],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(out.stdout)
    assert data["free_symbols"] == fx.truth["free_symbols"]
    for s, t in zip(data["symints"], fx.truth["symints"], strict=True):
        assert s["index"] == t["index"]
        assert s["hint"] == t["hint"]
        assert s["free_symbols"] == t["free_symbols"]
        # `expr` is text plain Python evaluates to the hint, given the hints.
        assert eval(s["expr"], {"__builtins__": {}}, dict(data["free_symbols"])) == t["hint"]


def test_graph_views(fixtures: dict) -> None:
    repro = parse_file(fixtures["floordiv_sum_n4"].path)
    g = SymGraph(repro)
    derived = [i for i, x in repro.symints() if x.expr is not None and len(x.expr.free_symbols) > 1]
    assert derived
    for i in derived:
        assert g.symbols_of(i) == free_symbol_names(repro.inputs[i].expr)
    order = g.topological_order()
    for s in repro.hints:
        for user in g.users(s):
            assert order.index(s) < order.index(f"in{user}")
    assert g.sizes().free_symbols == len(repro.hints)
    assert g.to_dot().startswith("digraph")
    assert g.to_mermaid().startswith("graph LR")


@pytest.mark.spawns
def test_rendered_script_runs_with_torch_run_repro(fixtures: dict, tmp_path: Path) -> None:
    """`python repro.py` (torch's own run_repro) still runs what we write."""
    repro = parse_file(fixtures["shared_symbols"].path)
    script = tmp_path / "rendered.py"
    script.write_text(render(repro))
    result = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-2000:]


def test_reads_every_writer_form(fixtures: dict) -> None:
    """const, generator, unbacked and unsupported inputs are kept verbatim, in order."""
    fx = fixtures["reader_forms"]
    repro = parse_file(fx.path)
    assert [x.name for x in repro.inputs] == fx.truth["placeholders"]
    others = {o["index"]: o for o in fx.truth["others"]}
    for i, x in enumerate(repro.inputs):
        if i in others:
            assert isinstance(x, OtherInput) and x.kind == others[i]["kind"], x
    lst = repro.inputs[others_index(fx.truth, "unsupported")]
    assert isinstance(lst, OtherInput) and "lst[0]" in lst.source  # its raw block, kept
    unbacked = [x for _, x in repro.symints() if x.hint is None]
    assert [str(x.expr) for x in unbacked] == fx.truth["unbacked_symbols"]
    assert parse(render(repro)) == repro


def others_index(truth: dict, kind: str) -> int:
    return next(o["index"] for o in truth["others"] if o["kind"] == kind)


# -- property: round-trip over generated models -------------------------------------

NAMES = [f"s{i}" for i in range(6)]
MODULE = "class Repro(torch.nn.Module):\n    def forward(self, *args):\n        return ()"


def exprs() -> st.SearchStrategy:
    leaves = st.one_of(
        st.sampled_from(NAMES).map(symbol), st.integers(2, 300).map(lambda n: parse_expr(str(n)))
    )

    def extend(children: st.SearchStrategy) -> st.SearchStrategy:
        pair = st.tuples(children, children)
        return st.one_of(
            pair.map(lambda p: parse_expr(f"({torch_str(p[0])}) + ({torch_str(p[1])})")),
            pair.map(lambda p: parse_expr(f"({torch_str(p[0])}) * ({torch_str(p[1])})")),
            pair.map(lambda p: parse_expr(f"(({torch_str(p[0])})//({torch_str(p[1])}))")),
            pair.map(lambda p: parse_expr(f"Max({torch_str(p[0])}, {torch_str(p[1])})")),
        )

    return st.recursive(leaves, extend, max_leaves=6)


@st.composite
def models(draw: st.DrawFn) -> Repro:
    hints = {n: draw(st.integers(2, 1000)) for n in NAMES}
    inputs: list = []
    storages: list = []
    for i in range(draw(st.integers(0, 5))):
        if draw(st.booleans()):
            e = draw(exprs())
            try:
                value = evaluate(e, hints)
            except ExprError:
                reject()  # e.g. a floor division by a quotient that is 0 at these hints
            inputs.append(SymIntInput(f"arg{i}", value, e))
        else:
            shape = tuple(draw(st.lists(exprs(), min_size=0, max_size=3)))
            buf = f"buf{len(storages)}"
            storages.append(Storage(buf, None, parse_expr("4") * sum(shape, parse_expr("1"))))
            inputs.append(TensorInput(f"arg{i}", buf, shape, is_leaf=draw(st.booleans())))
    used = set().union(*(free_symbol_names(e) for x in inputs for e in x.exprs()), set())
    used |= set().union(*(free_symbol_names(s.nbytes) for s in storages), set())
    hints = {k: v for k, v in hints.items() if k in used}
    return Repro(
        hints=hints,
        inputs=tuple(inputs),
        storages=tuple(storages),
        module_source=MODULE,
        preamble="import torch",
    )


@settings(max_examples=60, deadline=None)
@given(models())
def test_round_trip_property(repro: Repro) -> None:
    assert parse(render(repro)) == repro

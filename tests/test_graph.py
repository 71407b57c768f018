"""The drawn dependency graph: a wide sum is a handful of nodes, `--full` keeps every node."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from symshrink.cli import app
from symshrink.graph import SymGraph, input_node
from symshrink.repro.parse import parse_file

EXAMPLE = Path(__file__).parents[1] / "examples" / "sym_outer_n8.py"


def _graph(fixtures: dict, name: str) -> SymGraph:
    return SymGraph(parse_file(fixtures[name].path))


@pytest.mark.torch  # the fixtures are written by torch
@pytest.mark.parametrize("name", ["floordiv_sum_n16", "mod_pad_n8"])
def test_wide_sum_is_one_node_and_every_derived_input_stays(fixtures: dict, name: str) -> None:
    g = _graph(fixtures, name)
    view = g.view()
    assert len(view) < 15 < len(g.graph) and g.view(full=True) is g.graph
    (group,) = (data for _, data in view.nodes(data=True) if data["kind"] == "symbol")
    width = len(g.repro.hints)
    name = f"Σ{width}"
    assert group["label"].startswith(f"{name}, {width} symbols: ") and group["sum"] == name
    assert len(group["members"]) == width
    assert all(kind != "storage" for _, kind in view.nodes(data="kind"))
    derived = [i for i, x in g.repro.symints() if x.expr is not None and not x.expr.is_Symbol]
    assert derived
    for i in derived:  # drawn as itself, fed by nodes standing for exactly its symbols
        node = input_node(i)
        assert view.nodes[node]["kind"] == g.graph.nodes[node]["kind"]
        fed_by = {m for p in view.predecessors(node) for m in view.nodes[p].get("members", [p])}
        assert fed_by == g.symbols_of(i)
    for text in (g.to_dot(), g.to_mermaid()):
        assert all(view.nodes[input_node(i)]["label"] in text for i in derived)


@pytest.mark.torch
def test_narrow_graph_only_loses_its_storages(fixtures: dict) -> None:
    g = _graph(fixtures, "shared_symbols")
    storages = {n for n, kind in g.graph.nodes(data="kind") if kind == "storage"}
    assert storages
    assert set(g.view()) == set(g.graph) - storages
    assert set(g.view().edges) == {e for e in g.graph.edges if not storages & set(e)}


@pytest.mark.torch
def test_inspect_graph_full(fixtures: dict) -> None:
    path = str(fixtures["floordiv_sum_n16"].path)
    runner = CliRunner()
    short = runner.invoke(app, ["inspect", path, "--graph", "mermaid"])
    full = runner.invoke(app, ["inspect", path, "--graph", "mermaid", "--full"])
    assert short.exit_code == full.exit_code == 0
    nodes = [line for line in short.output.splitlines() if "[" in line]
    assert len(nodes) < 15 and "Σ16, 16 symbols: " in short.output
    assert full.output.count("bytes") == 16 and "Σ" not in full.output


def test_a_node_that_holds_the_grouped_sum_names_it() -> None:
    """`k = (s0 + … + s7)//160 + 866` is drawn as `Σ8` in it, not as eight terms; `--full`
    spells every term."""
    g = SymGraph(parse_file(EXAMPLE))
    labels = [label for _, label in g.view().nodes(data="label")]
    assert "Σ8, 8 symbols: s44…s86" in labels
    assert "arg8_1 = ((Σ8//160)) + 866" in labels and "arg10_1 = Σ8" in labels
    assert not [label for label in labels if label.count(" + ") > 1]
    assert "Σ" not in g.to_mermaid(full=True)

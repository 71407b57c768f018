"""The drawn dependency graph: a wide sum is a handful of nodes, `--full` keeps every node."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from symshrink.cli import app
from symshrink.graph import SymGraph, input_node
from symshrink.repro.parse import parse_file

pytestmark = pytest.mark.torch  # the fixtures are written by torch


def _graph(fixtures: dict, name: str) -> SymGraph:
    return SymGraph(parse_file(fixtures[name].path))


@pytest.mark.parametrize("name", ["floordiv_sum_n16", "mod_pad_n8"])
def test_wide_sum_is_one_node_and_every_derived_input_stays(fixtures: dict, name: str) -> None:
    g = _graph(fixtures, name)
    view = g.view()
    assert len(view) < 15 < len(g.graph) and g.view(full=True) is g.graph
    (group,) = (data for _, data in view.nodes(data=True) if data["kind"] == "symbol")
    width = len(g.repro.hints)
    assert group["label"].startswith(f"Σ {width} symbols: ") and len(group["members"]) == width
    assert all(kind != "storage" for _, kind in view.nodes(data="kind"))
    derived = [i for i, x in g.repro.symints() if x.expr is not None and not x.expr.is_Symbol]
    assert derived
    for i in derived:  # drawn as itself, fed by nodes standing for exactly its symbols
        node = input_node(i)
        assert view.nodes[node] == g.graph.nodes[node]
        fed_by = {m for p in view.predecessors(node) for m in view.nodes[p].get("members", [p])}
        assert fed_by == g.symbols_of(i)
    for text in (g.to_dot(), g.to_mermaid()):
        assert all(g.graph.nodes[input_node(i)]["label"] in text for i in derived)


def test_narrow_graph_only_loses_its_storages(fixtures: dict) -> None:
    g = _graph(fixtures, "shared_symbols")
    storages = {n for n, kind in g.graph.nodes(data="kind") if kind == "storage"}
    assert storages
    assert set(g.view()) == set(g.graph) - storages
    assert set(g.view().edges) == {e for e in g.graph.edges if not storages & set(e)}


def test_inspect_graph_full(fixtures: dict) -> None:
    path = str(fixtures["floordiv_sum_n16"].path)
    runner = CliRunner()
    short = runner.invoke(app, ["inspect", path, "--graph", "mermaid"])
    full = runner.invoke(app, ["inspect", path, "--graph", "mermaid", "--full"])
    assert short.exit_code == full.exit_code == 0
    nodes = [line for line in short.output.splitlines() if "[" in line]
    assert len(nodes) < 15 and "Σ 16 symbols: " in short.output
    assert full.output.count("bytes") == 16 and "Σ" not in full.output

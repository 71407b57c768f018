"""Each pass: table tests of its rewrites, and the property that it only proposes smaller models."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from symshrink.expr import evaluate, parse_expr, torch_str
from symshrink.passes import (
    GRAPH_PASSES,
    SCHEDULE,
    constants,
    exprs,
    inputs,
    numbers,
    schedule,
    symbols,
)
from symshrink.passes.common import normalize, size
from symshrink.repro import source
from symshrink.repro.model import Repro, SymIntInput
from tests.planted import planted_model

MODULE = "class Repro(torch.nn.Module):\n    def forward(self, k):\n        return (k,)"


def symint_model(text: str, hints: dict[str, int]) -> Repro:
    e = parse_expr(text)
    return Repro(
        hints=hints,
        inputs=(SymIntInput("k", evaluate(e, hints), e),),
        module_source=MODULE,
    )


def only_expr(repro: Repro) -> str:
    return torch_str(repro.inputs[0].expr)


def test_pin_replaces_symbol_by_hint_and_recomputes_hints() -> None:
    m = symint_model("((s0 + s1 + s2)//160) + 866", {"s0": 100, "s1": 200, "s2": 300})
    out = symbols.PIN.apply(m, [symbols.Pin("s1")])
    assert dict(out.hints) == {"s0": 100, "s2": 300}
    assert only_expr(out) == "(((s0 + s2 + 200)//160)) + 866"
    assert out.inputs[0].hint == m.inputs[0].hint


def test_merge_resolves_into_kept_symbol_and_refuses_chains() -> None:
    m = symint_model("s0*s1 + s2", {"s0": 3, "s1": 5, "s2": 7})
    out = symbols.MERGE.apply(m, [symbols.Merge("s1", "s0")])
    assert only_expr(out) == "s0**2 + s2"
    assert out.inputs[0].hint == 3 * 3 + 7
    assert symbols.MERGE.apply(m, [symbols.Merge("s1", "s0"), symbols.Merge("s0", "s2")]) is None


def test_expr_edits_drop_lift_fold() -> None:
    m = symint_model("Max(s0 + s1, (s2//3))", {"s0": 10, "s1": 20, "s2": 90})
    add = parse_expr("s0 + s1")
    floordiv = parse_expr("(s2//3)")
    top = parse_expr("Max(s0 + s1, (s2//3))")
    table = [
        ([exprs.Drop(add, 0)], "Max(s1, (s2//3))"),
        ([exprs.Lift(top, 1)], "(s2//3)"),
        ([exprs.Fold(floordiv)], "Max(s0 + s1, 30)"),
        ([exprs.Drop(add, 1), exprs.Lift(top, 0)], "s0"),
    ]
    for chosen, expected in table:
        out = exprs.SIMPLIFY.apply(m, chosen)
        assert out is not None and only_expr(out) == expected, chosen
    # Two replacements of one node conflict; dropping every term leaves nothing.
    assert exprs.SIMPLIFY.apply(m, [exprs.Lift(top, 0), exprs.Fold(top)]) is None
    assert exprs.SIMPLIFY.apply(m, [exprs.Drop(add, 0), exprs.Drop(add, 1)]) is None


def test_a_drop_that_only_removes_a_symbol_is_left_to_pin_symbols() -> None:
    """Dropping a term whose one symbol occurs nowhere else is pinning it up to a constant:
    not proposed. A term whose symbol occurs elsewhere too, or holds two, still is."""
    m = symint_model("((s0 + 2*s1 + s2*s3 + 7)//160) + s3", {"s0": 5, "s1": 6, "s2": 8, "s3": 9})
    total = parse_expr("s0 + 2*s1 + s2*s3 + 7")
    dropped = {
        total.args[e.index] for e in exprs.edits(m) if isinstance(e, exprs.Drop) and e.node == total
    }
    assert dropped == {parse_expr("s2*s3"), parse_expr("7")}  # s0 and 2*s1 are pins
    assert exprs.Drop(total, total.args.index(parse_expr("s0"))) not in exprs.edits(m)
    # s3 occurs outside the sum: its outer term is not a pin in disguise
    outer = m.inputs[0].expr
    assert {e.index for e in exprs.edits(m) if isinstance(e, exprs.Drop) and e.node == outer} == {
        0,
        1,
    }


def test_taking_out_a_division_is_a_pass_of_its_own_that_waits() -> None:
    """simplify-exprs and lift-divisions split the edits between them: every edit that
    leaves fewer divisions (lifted, folded, or dropped with the term or node that holds it)
    is lift-divisions', which waits for the second round and comes after simplify-exprs."""
    m = symint_model("Max(s0 + s1, (s2//3)) + ((s0*s1) % 7) + s0", {"s0": 10, "s1": 20, "s2": 90})
    floordiv, mod = parse_expr("(s2//3)"), parse_expr("(s0*s1) % 7")
    top, outer = parse_expr("Max(s0 + s1, (s2//3))"), m.inputs[0].expr
    simplify, lift = exprs.SIMPLIFY.edits(m), exprs.LIFT_DIVISIONS.edits(m)
    assert sorted(map(str, simplify + lift)) == sorted(map(str, exprs.edits(m)))
    assert set(lift) == {
        exprs.Lift(floordiv, 0),
        exprs.Fold(floordiv),
        exprs.Lift(mod, 0),
        exprs.Fold(mod),
        exprs.Lift(top, 0),
        exprs.Fold(top),
        exprs.Drop(outer, outer.args.index(top)),
        exprs.Drop(outer, outer.args.index(mod)),
        exprs.Fold(outer),
    }
    assert exprs.Lift(top, 1) in simplify  # Max(a, b//3) -> b//3 keeps the division
    assert exprs.LIFT_DIVISIONS.later and not exprs.SIMPLIFY.later
    assert SCHEDULE.index("simplify-exprs") < SCHEDULE.index("lift-divisions")


def test_expr_edits_are_consistent_across_occurrences() -> None:
    """A sum that is both inside `k = S//160 + 866` and the SymInt `S` changes in both."""
    m = planted_model(4)
    reads_s = m.module_source.replace("return (", "return (arg5_1 + 1, ")  # else it is dropped
    m = m.replace(module_source=reads_s)
    total = m.inputs[5].expr
    out = exprs.SIMPLIFY.apply(m, [exprs.Drop(total, 0)])
    assert out is not None
    assert out.inputs[5].expr == total - total.args[0]
    assert out.inputs[4].expr == m.inputs[4].expr.xreplace({total: total - total.args[0]})
    assert out.inputs[5].hint == m.inputs[5].hint - m.hints[str(total.args[0])]


def test_values_must_not_cross_into_specialized_sizes() -> None:
    m = symint_model("s0 - s1", {"s0": 10, "s1": 9})
    assert normalize(m) is not None
    assert exprs.SIMPLIFY.apply(m, [exprs.Fold(parse_expr("s0 - s1"))]) is not None  # value kept: 1
    e = parse_expr("s0 - s1 + 5")
    m2 = symint_model("s0 - s1 + 5", {"s0": 10, "s1": 9})
    # Dropping s0 gives -9 + 5 < 0: refused before any test runs.
    assert exprs.SIMPLIFY.apply(m2, [exprs.Drop(e, e.args.index(parse_expr("s0")))]) is None


def test_shrink_hints_halves_every_hint_in_one_edit_keeping_them_distinct() -> None:
    m = symint_model("s0 + s1 + s2", {"s0": 8, "s1": 4, "s2": 5})
    assert numbers.edits(m) == [numbers.Halve()]
    out = numbers.HALVE.apply(m, numbers.edits(m))
    assert out is not None
    # s1 goes to 2 first, freeing 4 for s0; s2's half (2) is taken, so s2 stays
    assert dict(out.hints) == {"s0": 4, "s1": 2, "s2": 5}
    assert numbers.edits(out) == []  # 2 cannot halve, 4's and 5's halves are taken
    floors = symint_model("s0 + s1 + s2", {"s0": 2, "s1": 3, "s2": 4})
    assert numbers.edits(floors) == []  # 2 and 3 cannot halve, 4's half is taken


def test_floor_hints_keeps_the_order_and_distinct_hints() -> None:
    m = symint_model("s0 + s1 + s2", {"s0": 900, "s1": 3, "s2": 40})
    floors = numbers.floor_edits(m)
    assert floors == [numbers.Floor("s0"), numbers.Floor("s2"), numbers.Floor("s1")]
    assert dict(numbers.FLOOR.apply(m, floors).hints) == {"s0": 4, "s1": 2, "s2": 3}
    # The floors of a subset avoid the hints that stay: s1 keeps 3, so s2 takes 2.
    assert dict(numbers.FLOOR.apply(m, floors[:2]).hints) == {"s0": 4, "s1": 3, "s2": 2}
    out = numbers.FLOOR.apply(m, floors[:1])
    assert dict(out.hints) == {"s0": 2, "s1": 3, "s2": 40}
    assert numbers.floor_edits(out) == [numbers.Floor("s2")]  # s0 and s1 are at their floors


def test_floor_hints_takes_every_hint_down_in_one_call_past_one_that_must_stay() -> None:
    """The README example's hints before flooring: s75 must stay 1000. Floors fixed by rank
    (2 for s75, 3, 4, ...) made the others collide with 3, 4, 5 one after another: seven
    accepted calls where one subset does it."""
    hints = {"s57": 1003, "s67": 1009, "s75": 1000, "s80": 1012, "s86": 1006}
    m = symint_model(" + ".join(hints), hints)
    allowed = [e for e in numbers.floor_edits(m) if e.symbol != "s75"]
    out = numbers.FLOOR.apply(m, allowed)
    assert dict(out.hints) == {"s57": 2, "s67": 4, "s75": 1000, "s80": 5, "s86": 3}
    assert numbers.floor_edits(out) == [numbers.Floor("s75")]


def test_drop_outputs_removes_dead_code_and_the_inputs_it_read() -> None:
    m = planted_model(3)
    out = inputs.DROP_OUTPUTS.apply(m, [inputs.DropOutput(0), inputs.DropOutput(1)])
    assert out is not None
    assert "sum_0" not in out.module_source and "sum_2" in out.module_source
    # arg0_1 and arg1_1 only fed the dropped outputs, arg4_1 (the sum) was never read:
    # normalization drops them in the same candidate; s0 and s1 stay, in the other inputs
    assert [x.name for x in out.inputs] == ["arg2_1", "arg3_1"]
    assert [s.name for s in out.storages] == ["buf2"]
    assert set(out.hints) == {"s0", "s1", "s2"}


def test_symint_inputs_with_one_expression_merge_into_one() -> None:
    k = parse_expr("s0 + s1")
    m = Repro(
        hints={"s0": 5, "s1": 7},
        inputs=(
            SymIntInput("a", 12, k),
            SymIntInput("b", 5, parse_expr("s0")),
            SymIntInput("c", 12, k),
        ),
        module_source="class Repro(torch.nn.Module):\n    def forward(self, a, b, c):\n"
        "        d = a + b\n        e = c * 2;  c = None\n        return (d, e)\n",
    )
    assert inputs.merge_input_edits(m) == [inputs.MergeInput("c", "a")]
    out = inputs.MERGE_INPUTS.apply(m, inputs.merge_input_edits(m))
    assert out is not None and size(out) < size(m)
    assert [x.name for x in out.inputs] == ["a", "b"]
    body = [line.strip() for line in out.module_source.splitlines()]
    assert "def forward(self, a, b):" in body and "e = a * 2" in body


CHAIN = """\
class Repro(torch.nn.Module):
    def forward(self, x, n):
        a = torch.ops.aten.mul.Tensor(x, 2.0);  x = None
        b = torch.ops.aten.add.Tensor(a, 1.0);  a = None
        s = torch.ops.aten.sym_size.int(b, 0)
        c = torch.ops.aten.view.default(b, [s]);  b = None
        return (c,)
"""


def test_bypass_replaces_nodes_by_their_operand() -> None:
    from symshrink.repro import source

    assert source.bypassable(CHAIN) == [("a", "x"), ("b", "a"), ("c", "b")]  # not sym_size
    out = source.bypass(CHAIN, [("a", "x"), ("b", "a")])  # a chain: b reads x
    assert out is not None
    body = [line.strip() for line in out.splitlines() if line.startswith("        ")]
    assert body == [
        "s = torch.ops.aten.sym_size.int(x, 0)",
        "c = torch.ops.aten.view.default(x, [s])",
        "return (c,)",
    ]  # FX's `x = None` releases go: x is read later now
    returned = source.bypass(CHAIN, [("c", "b")])
    assert returned is not None and "return (b,)" in returned and "view" not in returned


def test_bypass_pass_on_a_model_shrinks_it() -> None:
    m = planted_model(3)
    edits = inputs.bypass_edits(m)
    assert [e.node for e in edits] == ["sum_0", "sum_1", "sum_2", "iota"]
    out = inputs.BYPASS_NODES.apply(m, edits[:1])
    assert out is not None and size(out) < size(m)
    # sum_0's output became its input returned unchanged: no work for the compile, so the
    # normalization drops it, and the input with it (s0 stays: the sums use it)
    assert "sum_0" not in out.module_source and "return (sum_1, sum_2, iota)" in out.module_source
    assert "arg0_1" not in [x.name for x in out.inputs] and "s0" in out.hints


def test_an_input_returned_unchanged_is_no_output() -> None:
    """The normalization drops an output that returns an input as it came (and the input,
    now unread), as long as another output is computed."""
    m = planted_model(3)
    passing = m.replace(module_source=m.module_source.replace("return (", "return (arg1_1, "))
    assert source.output_count(passing.module_source) == source.output_count(m.module_source) + 1
    normal, plain = normalize(passing), normalize(m)
    assert normal is not None and plain is not None
    assert normal.inputs == plain.inputs and normal.hints == plain.hints
    assert source.output_count(normal.module_source) == source.output_count(m.module_source)
    assert source.passthrough_outputs(normal.module_source) == []
    only = m.replace(
        module_source=m.module_source.replace(
            m.module_source[m.module_source.index("return (") :].split("\n")[0], "return (arg1_1,)"
        )
    )
    assert source.passthrough_outputs(only.module_source) == [0]
    kept = normalize(only)
    assert kept is not None and source.output_count(kept.module_source) == 1  # nothing else


SLICES = """\
class Repro(torch.nn.Module):
    def forward(self, x, p, q, k):
        s = torch.ops.aten.slice.Tensor(x, 0, p, q);  x = p = None
        t = q + k;  q = None
        return (s, t)
"""


def test_constant_symints_are_inlined_into_the_graph() -> None:
    from symshrink.repro.model import OtherInput

    k = parse_expr("s0 + 2")
    m = Repro(
        hints={"s0": 5},
        inputs=(
            OtherInput("x", "const", "reader.const('x')"),
            SymIntInput("p", 1021, parse_expr("1021")),
            SymIntInput("q", 2000, parse_expr("2000")),
            SymIntInput("k", 7, k),
        ),
        module_source=SLICES,
    )
    assert constants.edits(m) == [constants.Inline("p"), constants.Inline("q")]  # k has s0
    out = constants.PASS.apply(m, [constants.Inline("p"), constants.Inline("q")])
    assert out is not None and size(out) < size(m)
    assert [x.name for x in out.inputs] == ["x", "k"]
    body = [line.strip() for line in out.module_source.splitlines()]
    assert "def forward(self, x, k):" in body
    assert "s = torch.ops.aten.slice.Tensor(x, 0, 1021, 2000)" in body
    assert "t = 2000 + k" in body and not any("= None" in line for line in body)


def test_every_pass_is_registered() -> None:
    passes = schedule()
    names = [p.name for p in passes]
    assert names == list(SCHEDULE)
    assert {
        "pin-symbols",
        "merge-symbols",
        "simplify-exprs",
        "shrink-hints",
        "drop-outputs",
        "merge-inputs",
        "bypass-nodes",
        "inline-constants",
    } <= set(names)


def test_a_schedule_of_some_passes_keeps_their_order() -> None:
    assert [p.name for p in schedule(GRAPH_PASSES)] == list(GRAPH_PASSES) != list(SCHEDULE)
    assert set(GRAPH_PASSES) <= set(SCHEDULE)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 8), seed=st.integers(0, 1000), data=st.data())
def test_every_pass_proposes_only_smaller_models(n: int, seed: int, data: st.DataObject) -> None:
    m = planted_model(n, seed)
    for p in schedule():
        edits = p.edits(m)
        if not edits:
            continue
        chosen = data.draw(st.lists(st.sampled_from(edits), min_size=1, max_size=4, unique=True))
        out = p.apply(m, chosen)
        if out is not None:
            assert size(out) < size(m), (p.name, chosen)


def test_symbols_that_occur_alike_form_a_class() -> None:
    m = planted_model(6)  # s_i: the length of arg{i}_1 and a term of both sums
    assert [sorted(c) for c in symbols.symbol_classes(m)] == [[f"s{i}" for i in range(6)]]
    # the same counts of operations and of uses, but swapping s0 and s2 changes the model
    m = symint_model("s0*s1 + s2*s3 + s0", {"s0": 3, "s1": 5, "s2": 7, "s3": 11})
    assert sorted(sorted(c) for c in symbols.symbol_classes(m)) == [["s2", "s3"]]


def test_drops_of_alike_symbols_from_one_node_form_a_class() -> None:
    """Which alike symbol's term leaves a sum does not matter; drops of symbols that occur
    differently, or only in that sum (pins in disguise, not proposed), are not grouped."""
    m = planted_model(6)  # s_i: the length of arg{i}_1 and a term of both sums
    (cls,) = exprs.drop_classes(m)
    assert {str(e.node.args[e.index]) for e in cls} == {f"s{i}" for i in range(6)}
    m = symint_model("((s0 + s1 + s2)//160) + s0 + s1", {"s0": 3, "s1": 5, "s2": 7})
    inner, outer = parse_expr("s0 + s1 + s2"), m.inputs[0].expr
    grouped = [{(e.node, str(e.node.args[e.index])) for e in c} for c in exprs.drop_classes(m)]
    assert sorted(grouped, key=str) == sorted(
        [{(inner, "s0"), (inner, "s1")}, {(outer, "s0"), (outer, "s1")}], key=str
    )
    m = symint_model("((s0 + 2*s1 + s2)//160) + s0 + 2*s1", {"s0": 3, "s1": 5, "s2": 7})
    assert exprs.drop_classes(m) == []


def test_bypasses_that_keep_the_shape_come_first_and_those_that_cannot_trace_alone_last() -> None:
    """`mul(x, 1)`, `add(x, 0)`, `convert_element_type`: any set of them can go at once; an
    `iota`, `unsqueeze` or `view` bypassed seldom leaves a graph that traces."""
    from pathlib import Path

    from symshrink.repro.parse import parse_file

    example = parse_file(Path(__file__).resolve().parents[1] / "examples" / "sym_outer_n8.py")
    order = [e.node for e in inputs.bypass_edits(example)]
    keeping = ["add", "add_1", "add_2", "add_3", "add_4", "add_5", "add_6", "add_7"]
    keeping += ["mul", "add_9", "convert_element_type", "mul_1", "add_11"]
    keeping += ["convert_element_type_1", "add_12", "mul_3"]
    assert order[: len(keeping)] == keeping
    assert {"iota", "unsqueeze", "view", "sum_9"} <= set(order[len(keeping) :])
    # then those whose graph still traces alone; a group of the last four is refused
    # without a call, and bisection would take it for a needed edit
    assert order[-4:] == ["iota", "unsqueeze", "iota_1", "mul_2"]
    assert {"unsqueeze_1", "view", "sum_9"} <= set(order[len(keeping) : -4])


def _mul_under_sum() -> Repro:
    """The planted model with `sum_0` and `sum_1` each reading a `mul` of their input."""
    m = planted_model(3)
    code = m.module_source
    for i, name in ((0, "mul"), (1, "mul_b")):
        old = f"sum_{i} = torch.ops.aten.sum.default(arg{i}_1);  arg{i}_1 = None"
        assert old in code
        code = code.replace(
            old,
            f"{name} = torch.ops.aten.mul.Tensor(arg{i}_1, 2.0);  arg{i}_1 = None\n"
            f"        sum_{i} = torch.ops.aten.sum.default({name});  {name} = None",
        )
    return m.replace(module_source=code)


def test_a_node_and_the_node_it_reads_are_one_bypass_pair() -> None:
    m = _mul_under_sum()
    pair = inputs.BypassPair(inputs.BypassNode("sum_0", "mul"), inputs.BypassNode("mul", "arg0_1"))
    assert pair in inputs.bypass_pair_edits(m) and len(inputs.bypass_pair_edits(m)) == 2
    out = inputs.BYPASS_PAIRS.apply(m, [pair])
    assert out is not None and size(out) < size(m)
    assert "mul =" not in out.module_source and "sum_0 =" not in out.module_source
    assert "mul_b =" in out.module_source


def test_a_pair_that_only_goes_together_goes_where_single_bypasses_cannot() -> None:
    """Slowness is not monotone in the graph: here the repro stays interesting with `mul`
    and the `sum` over it both or neither (as the 64-symbol seed's result did), and the
    other nodes are needed; the single bypasses, in the order they are tried, never
    take that pair alone."""
    from symshrink.reducer import Reducer
    from symshrink.repro.candidate import Candidate

    def together(c: Candidate) -> bool:
        code = c.repro.module_source
        needed = all(f"{n} = " in code for n in ("mul_b", "sum_1", "sum_2", "iota"))
        return needed and ("mul = " in code) == ("sum_0 = " in code)

    m = _mul_under_sum()
    singles = Reducer(test=together, passes=schedule(("bypass-nodes",))).run(m)
    assert "mul = " in singles.module_source and "sum_0 = " in singles.module_source
    both = Reducer(test=together, passes=schedule(("bypass-nodes", "bypass-pairs"))).run(m)
    assert "mul = " not in both.module_source and "sum_0 = " not in both.module_source
    assert "mul_b = " in both.module_source

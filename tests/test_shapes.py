"""The shape check: what cannot trace at the hints is refused before any oracle call."""

from __future__ import annotations

from pathlib import Path

import pytest

from symshrink.expr import parse_expr
from symshrink.passes import inputs
from symshrink.passes.common import fits
from symshrink.reducer import Reducer
from symshrink.repro.candidate import Candidate
from symshrink.repro.model import Repro, Storage, SymIntInput, TensorInput
from symshrink.repro.parse import parse_file
from symshrink.repro.shapes import untraceable

ROOT = Path(__file__).resolve().parents[1]
REAL = sorted([*ROOT.glob("corpora/*/origin.py"), *ROOT.glob("corpora/*/repro.py")])
EXAMPLE = ROOT / "examples" / "sym_outer_n8.py"


def model(body: str, hints: dict[str, int] | None = None) -> Repro:
    """`forward(self, x, y, n)`: x of shape (s0, s1), y of shape (s1,), n = s0 * s1."""
    hints = hints or {"s0": 6, "s1": 4}
    code = "class Repro(torch.nn.Module):\n    def forward(self, x, y, n):\n"
    code += "".join(f"        {line}\n" for line in body.strip().splitlines())
    return Repro(
        hints=hints,
        inputs=(
            TensorInput("x", "buf0", (parse_expr("s0"), parse_expr("s1"))),
            TensorInput("y", "buf1", (parse_expr("s1"),)),
            SymIntInput("n", hints["s0"] * hints["s1"], parse_expr("s0*s1")),
        ),
        storages=(
            Storage("buf0", None, parse_expr("4*s0*s1")),
            Storage("buf1", None, parse_expr("4*s1")),
        ),
        module_source=code,
    )


A = "torch.ops.aten."


@pytest.mark.parametrize(
    ("body", "why"),
    [
        (f"v = {A}view.default(x, [n])\nreturn (v,)", None),
        (f"v = {A}view.default(x, [n, 2])\nreturn (v,)", "invalid for a tensor of shape (6, 4)"),
        (f"v = {A}view.default(x, [-1, 3])\nreturn (v,)", None),
        (f"v = {A}view.default(x, [-1, 5])\nreturn (v,)", "invalid for a tensor of 24"),
        (f"v = {A}view.default(y, [n])\nreturn (v,)", "invalid for a tensor of shape (4)"),
        (f"m = {A}mul.Tensor(x, y)\nreturn (m,)", None),
        (f"t = {A}permute.default(x, [1, 0])\nm = {A}mul.Tensor(t, y)", "do not broadcast"),
        (f"m = {A}mul.Tensor(n, 2)\nu = {A}unsqueeze.default(m, 0)\nreturn (u,)", None),
        (f"u = {A}unsqueeze.default(n, 0)\nreturn (u,)", "self must be a tensor, got int"),
        ("i = torch.ops.prims.iota.default(y, start = 0, step = 1)\nreturn (i,)", "tensor"),
        (f"p = {A}mm.default(x, x)\nreturn (p,)", "mm of (6, 4) and (6, 4)"),
        (f"t = {A}permute.default(x, [1, 0])\np = {A}mm.default(x, t)\nreturn (p,)", None),
        (f"e = {A}expand.default(y, [3, n])\nreturn (e,)", "cannot expand (4) to (3, 24)"),
        (f"u = {A}unsqueeze.default(y, 1)\ne = {A}expand.default(u, [4, 7])", None),
        (f"s = {A}sum.dim_IntList(x, [2])\nreturn (s,)", "dim 2 out of range"),
        (f"s = {A}sum.dim_IntList(x, [1], True)\nm = {A}mul.Tensor(s, y)", None),
        (f"c = {A}cat.default([x, y])\nreturn (c,)", "cat of tensors of [1, 2] dims"),
        (f"s = {A}sym_size.int(x, 0)\nv = {A}view.default(x, [s, -1])\nreturn (v,)", None),
        (f"z = {A}full.default([n], 0)\nw = {A}where.self(z, x, y)", "do not broadcast"),
        # a view reads memory as it is: an expanded (stride 0) or permuted tensor may not fit
        (
            f"u = {A}unsqueeze.default(y, 0)\ne = {A}expand.default(u, [3, 4])\n"
            f"v = {A}view.default(e, [12])",
            "cannot view a tensor of shape (3, 4) and strides (0, 1)",
        ),
        (
            f"u = {A}unsqueeze.default(y, 0)\ne = {A}expand.default(u, [3, 4])\n"
            f"v = {A}view.default(e, [3, 2, 2])",
            None,
        ),
        (
            f"u = {A}unsqueeze.default(y, 0)\ne = {A}expand.default(u, [3, 4])\n"
            f"c = {A}clone.default(e, memory_format = torch.contiguous_format)\n"
            f"v = {A}view.default(c, [12])",
            None,
        ),
        (f"t = {A}permute.default(x, [1, 0])\nv = {A}view.default(t, [n])", "strides (1, 4)"),
        (f"t = {A}permute.default(x, [1, 0])\nv = {A}reshape.default(t, [n])", None),
        # a pointwise op's strides follow its inputs' layout: not modelled, so not judged
        (
            f"m = {A}mul.Tensor(x, 2)\nt = {A}permute.default(m, [1, 0])\n"
            f"v = {A}view.default(t, [n])",
            None,
        ),
        # slicing past the end: symbolic tracing need not clamp as eager does; not judged
        (f"s = {A}slice.Tensor(y, 0, 0, n)\nv = {A}view.default(s, [n])", None),
        # a 0-dim tensor (a bypassed sum, say) cannot be sliced (the check raised IndexError)
        (f"z = {A}sum.default(y)\ns = {A}slice.Tensor(z, 0, 0, 2)", "0-dim tensor"),
        # an op the check does not know, and everything computed from it, is allowed
        (f"f = {A}frobnicate.default(x)\nv = {A}view.default(f, [7])", None),
        (f"v = {A}view.default(x, [n + 1])\nreturn (v,)", "invalid for a tensor"),
    ],
)
def test_untraceable_says_what_would_fail_at_the_hints(body: str, why: str | None) -> None:
    found = untraceable(model(body))
    if why is None:
        assert found is None
    else:
        assert found is not None and why in found, found


@pytest.mark.parametrize("path", [*REAL, EXAMPLE], ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_real_repro_traces_by_the_check(path: Path) -> None:
    """Every repro torch wrote or symshrink kept traced: the check objects to none of them."""
    assert untraceable(parse_file(path)) is None


def test_a_check_that_fails_on_the_current_model_too_objects_to_nothing() -> None:
    broken = model(f"v = {A}view.default(x, [n, 2])\nreturn (v,)")
    worse = model(f"v = {A}view.default(x, [n, 3])\nreturn (v,)")
    assert untraceable(worse) is not None
    assert fits(worse, broken)
    assert not fits(worse, model(f"v = {A}view.default(x, [n])\nreturn (v,)"))


def test_a_tensor_dim_crossing_into_one_does_not_fit() -> None:
    m = model(f"m = {A}mul.Tensor(x, y)\nreturn (m,)")
    assert not fits(m.replace(hints={"s0": 6, "s1": 1}), m)
    assert fits(m.replace(hints={"s0": 6, "s1": 2}), m)


def test_an_untraceable_candidate_never_reaches_the_oracle() -> None:
    """The README example: bypassing its `iota` leaves a SymInt where a tensor is
    unsqueezed; bypassing that `unsqueeze`, operands that no longer broadcast. A predicate
    that finds every model interesting would accept such graphs, so the reducer must not
    ask it."""
    original = parse_file(EXAMPLE)
    for node, why in [("iota", "out of range"), ("unsqueeze", "do not broadcast")]:
        edit = next(e for e in inputs.bypass_edits(original) if e.node == node)
        assert why in (untraceable(inputs.BYPASS_NODES.rewrite(original, [edit])) or "")
        assert inputs.BYPASS_NODES.apply(original, [edit]) is None

    asked: list[Repro] = []

    def everything_is_interesting(candidate: Candidate) -> bool:
        asked.append(candidate.repro)
        return True

    result = Reducer(test=everything_is_interesting).run(original)
    assert asked
    assert [untraceable(m) for m in asked] == [None] * len(asked)
    assert untraceable(result) is None

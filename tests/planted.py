"""Planted-ground-truth models and predicates for pure-logic reducer tests and benchmarks.

A model has n free symbols, each the length of a 1-D tensor input, and derived SymInts
`(s0 + ... + s{n-1})//160 + 866` and `s0 + ... + s{n-1}` like the sym_outer pathology.
The predicate says yes iff some floor division still involves every planted symbol, so the
right answer is known: exactly the planted symbols survive.
"""

from __future__ import annotations

import random

import sympy

from symshrink.expr import evaluate, free_symbol_names, parse_expr
from symshrink.repro.candidate import Candidate
from symshrink.repro.model import Repro, Storage, SymIntInput, TensorInput


def planted_model(n: int, seed: int = 0) -> Repro:
    rng = random.Random(seed)
    hints = dict(
        zip((f"s{i}" for i in range(n)), rng.sample(range(100, 100 + 20 * n), n), strict=True)
    )
    names = list(hints)
    total = " + ".join(names)
    inputs: list = []
    storages = []
    for i, name in enumerate(names):
        storages.append(Storage(f"buf{i}", None, parse_expr(f"4*{name}")))
        inputs.append(TensorInput(f"arg{i}_1", f"buf{i}", (parse_expr(name),), is_leaf=True))
    k = parse_expr(f"(({total})//160) + 866")
    s = parse_expr(total)
    inputs.append(SymIntInput(f"arg{n}_1", evaluate(k, hints), k))
    inputs.append(SymIntInput(f"arg{n + 1}_1", evaluate(s, hints), s))
    params = ", ".join(x.name for x in inputs)
    body = "\n".join(
        [
            "class Repro(torch.nn.Module):",
            "    def __init__(self) -> None:",
            "        super().__init__()",
            "",
            f"    def forward(self, {params}):",
            *(
                f"        sum_{i} = torch.ops.aten.sum.default(arg{i}_1);  arg{i}_1 = None"
                for i in range(n)
            ),
            f"        iota = torch.ops.prims.iota.default(arg{n}_1, start=0, step=1, "
            "dtype=torch.int64, device=device(type='cpu'), requires_grad=False)",
            f"        return ({', '.join(f'sum_{i}' for i in range(n))}, iota)",
        ]
    )
    return Repro(
        hints=hints,
        inputs=tuple(inputs),
        storages=tuple(storages),
        module_source=body,
        preamble="import torch\nfrom torch import device",
    )


def planted_predicate(planted: set[str]):
    """Interesting iff a floor division of the candidate's model still uses every planted
    symbol (a reducer's test: it judges `Candidate`s)."""

    def test(candidate: Candidate) -> bool:
        for e in candidate.repro.all_exprs():
            for node in sympy.preorder_traversal(e):
                if type(node).__name__ == "FloorDiv" and planted <= free_symbol_names(node):
                    return True
        return False

    return test


def choose_planted(n: int, k: int, seed: int = 0) -> set[str]:
    return {f"s{i}" for i in random.Random(seed + 1).sample(range(n), k)}


# A `--test` script (format in `python`) for a rendered planted model: interesting iff the
# floor division survives. Each call appends a line to $CALL_LOG; the $HANG_AT-th call and
# every later one starts `sleep $TOKEN` and hangs instead.
TEST_SCRIPT = """\
#!{python}
import os, subprocess, sys, time
log = os.environ["CALL_LOG"]
with open(log, "a") as f:
    f.write("call\\n")
hang_at = int(os.environ.get("HANG_AT", "0"))
if hang_at and sum(1 for _ in open(log)) >= hang_at:
    subprocess.Popen(["sleep", os.environ["TOKEN"]])
    time.sleep(600)
sys.exit(0 if "//160" in open(sys.argv[1]).read() else 1)
"""

"""torch.compile of the sum of a tensor's N values taken out with `.tolist()` (unbacked symbols).

Source: PyTorch's compile-time benchmark `symint_sum`
(https://github.com/pytorch/pytorch/blob/main/benchmarks/dynamo/pr_time_benchmarks/benchmarks/symint_sum.py,
BSD-3-Clause, (c) PyTorch contributors), N = 200, tracked by instruction count in
PyTorch's CI against compile-time regressions of wide symbolic sums (its description
points at a design document on summing SymInts). No seconds are published with it.

What it does: `fullgraph=True` compile (Inductor) of `torch.tensor(sum(a.tolist()))`
with `capture_scalar_outputs`, so each element is an unbacked symbol u0..u{N-1} and their
sum a wide symbolic expression. (The benchmark also times a `y += x` loop variant; this
program keeps the `sum` one.)
Static twin (`--static`): the same function given the values as a list of Python ints,
which `dynamic=False` specializes.
Knob: `--n` (default 200, as in the benchmark).
"""

from __future__ import annotations

from _harness import run


def build(n: int, static: bool):
    import torch

    torch._dynamo.config.capture_scalar_outputs = True
    torch.manual_seed(0)
    splits = torch.randint(10, (n,))

    @torch.compile(fullgraph=True, dynamic=False if static else None)
    def f(a):
        xs = a if isinstance(a, list) else a.tolist()
        return torch.tensor(sum(xs))

    arg = splits.tolist() if static else splits
    return lambda: f(arg)


if __name__ == "__main__":
    run(__doc__, build, default_n=200)

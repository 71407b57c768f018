"""torch.export of the floor division of a sum of N `.item()` values (unbacked symbols).

Source: PyTorch's compile-time benchmark `sum_floordiv`
(https://github.com/pytorch/pytorch/blob/main/benchmarks/dynamo/pr_time_benchmarks/benchmarks/sum_floordiv.py,
BSD-3-Clause, (c) PyTorch contributors), written for
https://github.com/pytorch/pytorch/issues/134133. The fix for that issue
(https://github.com/pytorch/pytorch/pull/134150) reported that before it "even smaller N
would go for >1 min" and after it N = 100 took ~1.2 s and N ~ 200 ~5 s (torch nightly,
August 2024); PyTorch's CI has tracked it by instruction count since.

What it does: a module that sums `t.item()` over a list of N scalar tensors and floor-divides
the total by 2, exported with `torch.export.export(..., strict=True)`. Each `.item()` is an
unbacked symbol u0..u{N-1}, so the sum is a wide symbolic Add and `// 2` goes through
`FloorDiv.eval`. Everything happens in Dynamo / export tracing: no Inductor graph exists,
so an after-aot repro cannot hold it.
Static twin (`--static`): the same module given the N values as Python ints, which export
specializes to constants.
Knob: `--n` (default 100, as in the benchmark).
"""

from __future__ import annotations

from _harness import run


def build(n: int, static: bool):
    import torch

    class M(torch.nn.Module):
        def forward(self, xs):
            total = sum(x.item() if isinstance(x, torch.Tensor) else x for x in xs)
            return total // 2

    xs = [i + 2 if static else torch.tensor(i + 2) for i in range(n)]
    return lambda: torch.export.export(M(), (xs,), strict=True)


if __name__ == "__main__":
    run(__doc__, build, default_n=100)

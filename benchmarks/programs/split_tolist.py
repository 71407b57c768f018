"""torch.compile of `a.split(b.tolist())` with N checked sizes (unbacked symbols).

Source: PyTorch's compile-time benchmark `update_hint_regression`
(https://github.com/pytorch/pytorch/blob/main/benchmarks/dynamo/pr_time_benchmarks/benchmarks/update_hint_benchmark.py,
BSD-3-Clause, (c) PyTorch contributors), written for
https://github.com/pytorch/pytorch/pull/129893, N = 20, tracked by instruction count; no
seconds are published with it. The pattern (a list of sizes into `torch.split`, one
symbol per size) is also the one of https://github.com/pytorch/pytorch/issues/109484
("Long compilation time for KJT helper function").

What it does: `fullgraph=True` compile (Inductor) with `capture_scalar_outputs` of a
function that takes N sizes out of a tensor with `.tolist()` (unbacked u0..u{N-1}),
checks each (`torch._check_is_size`, `<= N`) and splits a tensor of their total length
by them. Each split's offset is a prefix sum of the sizes.
Static twin (`--static`): the sizes as a list of Python ints, specialized by
`dynamic=False`.
Knob: `--n` sizes (default 20, as in the benchmark).
"""

from __future__ import annotations

from _harness import run


def build(n: int, static: bool):
    import torch

    torch._dynamo.config.capture_scalar_outputs = True
    torch.manual_seed(0)
    sizes = torch.randint(10, (n,))
    data = torch.randn(int(sizes.sum()))

    @torch.compile(fullgraph=True, dynamic=False if static else None)
    def f(a, b):
        xs = b if isinstance(b, list) else b.tolist()
        for x in xs:
            torch._check_is_size(x)
            torch._check(x <= n)
        return a.split(xs)

    arg = sizes.tolist() if static else sizes
    return lambda: f(data, arg)


if __name__ == "__main__":
    run(__doc__, build, default_n=20)

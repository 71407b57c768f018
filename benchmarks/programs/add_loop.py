"""Negative control: torch.compile of a 1000-op unrolled Python loop (slow, but not symbolic).

Source: PyTorch's compile-time benchmark `add_loop`
(https://github.com/pytorch/pytorch/blob/main/benchmarks/dynamo/pr_time_benchmarks/benchmarks/add_loop.py,
BSD-3-Clause, (c) PyTorch contributors): "a loop over 100 add node" in its description,
1000 iterations in its code, tracked by instruction count with the eager and inductor
backends; no seconds are published with it.

What it does: `fullgraph=True` compile (Inductor) of a function that clones a
1000-element tensor and, N times, adds it, adds 8x it or takes its sine (by i % 3), so
Dynamo traces N ops and Inductor lowers and fuses an N-node graph. Its time grows with N
whatever the shapes are: with `dynamic=True` the one size becomes one symbol s0, and the
dynamic compile should cost about what the static one does. The triage of it should
answer "not slow against its static twin".
Static twin (`--static`): `dynamic=False`.
Knob: `--n` loop length (default 1000, as in the benchmark).
"""

from __future__ import annotations

from _harness import run


def build(n: int, static: bool):
    import torch

    @torch.compile(fullgraph=True, dynamic=not static)
    def f(a, b):
        out = a.clone()
        for i in range(n):
            if i % 3 == 0:
                out = out + b
            elif i % 3 == 1:
                out = out + 8 * b
            else:
                out = out.sin()
        return out

    a, b = torch.ones(1000), torch.ones(1000)
    return lambda: f(a, b)


if __name__ == "__main__":
    run(__doc__, build, default_n=1000)

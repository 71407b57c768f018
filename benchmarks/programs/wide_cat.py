"""torch.compile(dynamic=True) of training through a transposed view of a cat of N dynamic inputs.

Source: https://github.com/pytorch/pytorch/pull/181275 ("Skip polynomial sympy.gcd on very
wide shape expressions", April 2026, by a PyTorch maintainer). Its description reports that
"AOT-partitioned backward graphs from wide concat models carry shape expressions built from
60+ distinct symbols (e.g. `s0 + s3 + ... + s190` appearing inside nested FloorDiv /
ModularIndexing)", that `sympy.gcd` on them "scales catastrophically in the number of
symbols", that "a single call takes minutes, and there are thousands of them during
inductor's scheduler + codegen phase", and measured one such backward compile at more than
50 minutes (a PR against main). It skips the polynomial gcd above a number of terms; torch
2.13 has such a bailout at 20 (`_MAX_ADD_TERMS_FOR_POLY_GCD` in `torch/utils/_sympy/functions.py`,
`_MAX_SYMBOLS_FOR_EXPENSIVE_SYMPY_OPS` in `torch/_inductor/sizevars.py`, whose comment cites
https://github.com/sympy/sympy/issues/28200 and "AOT-partitioned bwd graphs with
~60-variable shape expressions"). The models are not published; no code is followed (PyTorch
is BSD-3-Clause): this program is written from the description.

What it does: `torch.compile(dynamic=True)` of a training step that concatenates N inputs of
S_i x 16 (S_i = 100 + 3 i, distinct, so each is its own symbol s_i), transposes the
(S, 16) concat with S = s_0 + ... + s_{N-1} and makes it contiguous, views the flat result
back as S rows of 16 (rows that cross the inputs' boundaries: Inductor indexes them with
`ModularIndexing` and `//` by the sum S), projects it through a 16 x 8 weight, and calls
`.backward()` on the sum of its tanh. The first call compiles the forward and the backward
graph.
Static twin (`--static`): `dynamic=False`.
Knob: `--n` inputs (default 16: a sum of 16 terms, under torch 2.13's bailout of 20).
"""

from __future__ import annotations

from _harness import run


def build(n: int, static: bool):
    import torch

    @torch.compile(dynamic=not static)
    def step(xs, w):
        x = torch.cat(xs)
        flat = x.t().contiguous().view(-1)
        rows = flat.view(x.shape[0], 16)
        return (rows @ w).tanh().sum()

    torch.manual_seed(0)
    w = torch.randn(16, 8, requires_grad=True)
    xs = [torch.randn(100 + 3 * i, 16, requires_grad=True) for i in range(n)]
    return lambda: step(xs, w).backward()


if __name__ == "__main__":
    run(__doc__, build, default_n=16)

"""torch.compile of torch.func.grad through MaxPool2d -> log/clamp -> pow -> AdaptiveAvgPool2d.

Source: https://github.com/pytorch/pytorch/issues/181428 ("torch.compile + torch.func.grad:
superlinear compile time with MaxPool2d -> log/clamp -> pow -> AdaptiveAvgPool2d", open,
labels module: dynamic shapes, module: compile-time). The reporter's log shows a 25.9 s
compile (April 2026, CPU) and the issue points at `sympy.simplify` in the C++ backend's
`stride_at` (the same chain hangs in https://github.com/pytorch/pytorch/issues/181653);
a later comment reproduced it on torch 2.10, a 2.13 nightly and a 2.14 nightly (CPU):
the whole chain ~1.8x the mean of the chains with one op removed on 2.10 (10 s against
5.5 s), the `stride_at` part "about 6x smaller" on main than on 2.10. The issue's own script is not
reproduced here: this program is written from its title's op chain and its setting
(`torch.func.grad` of a scalar loss, odd spatial sizes, dynamic shapes).

What it does: `torch.compile(torch.func.grad(loss), dynamic=True)` where `loss` is N
stages of `max_pool2d(3, stride 2, pad 1)` -> `clamp(min=1e-6).log()` -> `pow(2)`, then
`adaptive_avg_pool2d(7)` and a sum, on a (2, 3, 97, 83) input (odd sizes, no power of 2).
Static twin (`--static`): `dynamic=False`.
Knob: `--n` stages (default 2; the sizes halve per stage, so N <= 4).
"""

from __future__ import annotations

from _harness import run


def build(n: int, static: bool):
    import torch
    import torch.nn.functional as F

    def loss(x):
        for _ in range(n):
            x = F.max_pool2d(x, 3, stride=2, padding=1)
            x = x.clamp(min=1e-6).log().pow(2)
        return F.adaptive_avg_pool2d(x, 7).sum()

    g = torch.compile(torch.func.grad(loss), dynamic=not static)
    x = torch.rand(2, 3, 97, 83) + 0.5
    return lambda: g(x)


if __name__ == "__main__":
    run(__doc__, build, default_n=2)

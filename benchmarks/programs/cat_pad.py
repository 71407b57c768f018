"""torch.compile(dynamic=True) of a cat of N dynamic inputs padded by `(-L) % 160` into frames.

Sources: the same report family as `wide_cat.py`. torch 2.13's own
`torch/_inductor/sizevars.py` says, above `_MAX_SYMBOLS_FOR_EXPENSIVE_SYMPY_OPS = 20`, that
"polynomial-domain conversions inside sympy (e.g. gcd, Mod) dominate compile time on wide
concat/sum expressions (see https://github.com/sympy/sympy/issues/28200)", and
https://github.com/pytorch/pytorch/pull/181275 reported the wide-concat backward graphs
that led to it (more than 50 minutes for one graph; a PR against main). That
bailout guards Inductor's `statically_known_multiple_of` and the gcd in `FloorDiv` /
`ModularIndexing`, but not `PythonMod.eval` (`torch/utils/_sympy/functions.py`), which calls
`sympy.Mod(p, q)` on any `%` of a symbolic size, however wide. The padding idiom itself,
`pad = -n % m` under `dynamic=True` so that the padded length is a multiple of m, is the one
of https://github.com/pytorch/pytorch/issues/169602 (vLLM, a wrong `bound_sympy` result, not
a slow compile). No code is followed (PyTorch is BSD-3-Clause); no seconds were published
for this pattern.

What it does: `torch.compile(dynamic=True)` of a function that concatenates N 1-D inputs of
lengths 1000 + 7 i (distinct, one symbol each), zero-pads the length L = s_0 + ... +
s_{N-1} by `(-L) % 160` (a `PythonMod`, Python's `%`: its dividend -L is not
non-negative, so it is not simplified to `Mod`), views the result as (-1, 160) frames and
sums each frame.
Static twin (`--static`): `dynamic=False`.
Knob: `--n` inputs (default 32).
"""

from __future__ import annotations

from _harness import run


def build(n: int, static: bool):
    import torch
    import torch.nn.functional as F

    @torch.compile(dynamic=not static)
    def frames(*xs):
        x = torch.cat(xs)
        x = F.pad(x, (0, (-x.shape[0]) % 160))
        return x.view(-1, 160).sum(1)

    torch.manual_seed(0)
    xs = [torch.randn(1000 + 7 * i) for i in range(n)]
    return lambda: frames(*xs)


if __name__ == "__main__":
    run(__doc__, build, default_n=32)

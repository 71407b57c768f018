"""torch.compile(dynamic=True) of in-place adds on N views of one tensor (aliasing checks).

Source: https://github.com/pytorch/pytorch/issues/118214 ("_tensors_definitely_do_not_overlap
guard explosion", open; rolled up into the meta issue
https://github.com/pytorch/pytorch/issues/118213 on dynamic-shape compile-time cliffs). Its
mini repro (by a PyTorch maintainer): `@torch.compile(dynamic=True)` of a function that
calls `a.add_(1)` on every argument, given the 100 views `torch.ones(1000).split(10)`;
reported on main in January 2024: "with TORCH_LOGS=+dynamic this spews thousands of lines
of guards" (a quadratic number: AOTAutograd asks, for every pair of mutated inputs that
share a storage, whether they can overlap, with symbolic sizes and offsets). No seconds
were published.

What it does: the issue's repro with the number of views as the knob: a base of 10 N
elements split into N views of 10, each mutated in place. All the time is in Dynamo and
AOTAutograd (guards on the views' symbolic offsets); the graph Inductor receives is a
plain add.
Static twin (`--static`): `dynamic=False`.
Knob: `--n` views (default 100, as in the issue).
"""

from __future__ import annotations

from _harness import run


def build(n: int, static: bool):
    import torch

    @torch.compile(dynamic=not static)
    def f(*args):
        for a in args:
            a.add_(1)
        return args[0]

    views = torch.ones(10 * n).split(10)
    return lambda: f(*views)


if __name__ == "__main__":
    run(__doc__, build, default_n=100)

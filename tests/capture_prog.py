"""A real torch.compile program for `symshrink capture`'s tests (and its docs' example).

    python tests/capture_prog.py cat [N]        cat of N (3) dynamic inputs, forward and backward
    python tests/capture_prog.py floordiv [N]   N (16) inputs, k = L//160 + 866: a slow Inductor
    python tests/capture_prog.py modpad [N]     N (24) inputs padded to 160*k by (-L) % 160
    python tests/capture_prog.py exit CODE      no torch.compile; exits with CODE
    python tests/capture_prog.py plain          no torch.compile; exits 0
    python tests/capture_prog.py sleep          no torch.compile; sleeps a minute

`floordiv` is the floordiv_sum fixture family's graph (tests/fixtures_gen.py), written as
a user would: Dynamo and AOTAutograd take ~2-4 s, Inductor's forward 28-60 s (its
scheduling and codegen in sympy's gcd, from `FloorDiv`) on the project's loaded 2-core
machine. `modpad` is the mod_pad family's (`PythonMod` of the cat's length), whose
Dynamo and AOTAutograd pay for the `%` too.
With PIDFILE in the environment the program first writes its pid there.
"""

from __future__ import annotations

import os
import sys
import time


def _cat(*xs):
    import torch

    return (torch.cat(xs) * 2).sin()


def _floordiv(*xs):
    import torch

    x = torch.cat(xs)
    n = x.shape[0]
    k = n // 160 + 866
    rows = torch.arange(n, dtype=x.dtype).unsqueeze(1)
    cols = torch.arange(k, dtype=x.dtype).unsqueeze(0)
    return ((rows * cols + 1.0).view(k, n) * x).sum(0)


def _modpad(*xs):
    import torch

    x = torch.cat(xs)
    frames = torch.nn.functional.pad(x, (0, (-x.shape[0]) % 160)).view(-1, 160)
    ramp = torch.arange(frames.shape[0], dtype=x.dtype)
    return (frames * ramp.unsqueeze(1)).sum(0)


def main(argv: list[str]) -> int:
    if "PIDFILE" in os.environ:
        with open(os.environ["PIDFILE"], "w") as f:
            f.write(f"{os.getpid()}\n")
    mode, *rest = argv
    if mode == "exit":
        print("exiting as asked", file=sys.stderr)
        return int(rest[0])
    if mode == "sleep":
        time.sleep(60)
        return 0
    if mode == "plain":
        print("no compile here")
        return 0
    import torch

    fn, n = {"cat": (_cat, 3), "floordiv": (_floordiv, 16), "modpad": (_modpad, 24)}[mode]
    n = int(rest[0]) if rest else n
    # distinct lengths: Dynamo gives each its own symbol (equal sizes would duck-size)
    xs = [
        torch.randn(3 + 2 * i if mode == "cat" else 1000 + 3 * i, requires_grad=True)
        for i in range(n)
    ]
    out = torch.compile(fn, dynamic=True)(*xs)
    out.sum().backward()
    print(f"compiled {mode} of {n} inputs: output {tuple(out.shape)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""Fixture generator: repro scripts written by torch's *own* after-aot writer.

Every fixture is an FX graph traced with ``make_fx(..., tracing_mode="symbolic")`` (or
``torch.fx.symbolic_trace`` for the reader-forms family) over fake inputs we build in a
fresh ``ShapeEnv``, then written by ``torch._dynamo.repro.after_aot.save_graph_repro``
with those fake tensors / SymInts as ``args`` (the placeholders' ``meta["val"]`` have the
same symbolic sizes, but make_fx drops ``requires_grad`` on them), so the
writer emits ``sNN = hint`` lines, ``reader.symint(hint, expr='...')`` and symbolic
shapes exactly as a real after-aot dump does.  Nothing is compiled: tracing only --
except the ``aot_frames_outer`` family, which is ``torch.compile`` itself (Dynamo +
AOTAutograd, graphs run eagerly) writing its backward graph from inside the bw compiler.

Beside each ``<name>.py`` the generator writes ``<name>.truth.json``, recorded from the
torch objects at generation time (never re-parsed from the text):

``free_symbols``   {name: hint} -- exactly the symbols torch's writer puts in hint lines
``symints``        [{index, name, hint, expr, free_symbols}] (expr None for plain ints)
``tensors``        [{index, name, shape, stride, storage_offset, dtype, requires_grad,
                     storage}]  (strings as ``str()`` of torch's sizes; storage = bufN)
``others``         [{index, name, kind}]  (const / generator / unsupported)
``n_inputs``       number of placeholders (= args ``load_args`` appends)
plus ``all_free_symbols`` (every backed symbol the inputs mention, hint-line or not),
``unbacked_symbols``, ``placeholders``, ``family``, ``params``, ``tracing_mode``,
``torch_version``.

Importing this module does not import torch; building a fixture does.

Command line::

    python tests/fixtures_gen.py OUT_DIR                     # the standard set
    python tests/fixtures_gen.py OUT_DIR --family floordiv_sum --n 24
    python tests/fixtures_gen.py OUT_DIR --family aot_frames_outer --n 64
"""

from __future__ import annotations

import argparse
import inspect
import io
import json
import logging
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

__all__ = [
    "FAMILIES",
    "PYTHON_EXPR_FAMILIES",
    "SLOW_FAMILIES",
    "STANDARD_SET",
    "Fixture",
    "generate",
    "generate_all",
    "main",
]


@dataclass(frozen=True)
class Fixture:
    name: str
    path: Path  # the written .py repro
    truth: dict  # recorded at generation time from torch's own SymInt objects

    @property
    def truth_path(self) -> Path:
        return self.path.with_name(f"{self.name}.truth.json")


@dataclass
class _Written:
    """torch's writer text and the truth, both taken from the same live torch objects."""

    text: str
    truth: dict[str, Any]  # without "family": generate() knows it


@dataclass
class _Built:
    """What a family builder hands back to the writer."""

    gm: Any  # torch.fx.GraphModule
    args: list[Any]  # written as given: the fake inputs the graph was traced with
    params: dict[str, Any]
    tracing_mode: str | None = None  # None: let the writer decide
    # Already written (``_Env.write``) by a family whose args are only valid inside a
    # compile; None: generate() writes gm and args itself.
    written: _Written | None = None


# --------------------------------------------------------------------------- helpers


class _Env:
    """One fresh ShapeEnv + FakeTensorMode per fixture, so names and hints are reproducible.

    Symbol names come from ``ShapeEnv._generate_unique_id`` (sha256 of the source name,
    mod 100), so the same sources in the same order give the same ``sNN`` every run.
    """

    def __init__(self, *, stable_output: bool = True) -> None:
        from torch._subclasses.fake_tensor import FakeTensorMode
        from torch.fx.experimental.symbolic_shapes import ShapeEnv

        self.shape_env = ShapeEnv()
        self.fake_mode = FakeTensorMode(shape_env=self.shape_env)
        self.stable_output = stable_output
        self._n_tensors = 0

    def write(self, built: _Built) -> _Written:
        """Run torch's writer over ``built.gm`` / ``built.args`` and record the truth.

        generate() calls this on what a family returns; a family whose args are fake
        inputs handed to a compiler callback (valid only during that compile) calls it
        inside the callback and returns the result as ``built.written``.
        """
        from torch._dynamo.repro.after_aot import save_graph_repro

        placeholders = [n.target for n in built.gm.graph.find_nodes(op="placeholder")]
        buf = io.StringIO()
        save_graph_repro(
            buf,
            built.gm,
            built.args,
            "inductor",
            stable_output=self.stable_output,
            tracing_mode=built.tracing_mode,
        )
        text = buf.getvalue()
        if not text.endswith("\n"):
            text += "\n"
        truth = _truth(built, placeholders)
        if built.tracing_mode is None:
            truth["tracing_mode"] = "symbolic" if truth["all_free_symbols"] else "real"
        truth["stable_output"] = self.stable_output
        return _Written(text=text, truth=truth)

    def tensor(
        self,
        hints: Sequence[int],
        *,
        dtype: Any = None,
        requires_grad: bool = False,
        static: Sequence[bool] | None = None,
        transpose: bool = False,
    ) -> Any:
        """A fake tensor whose dims are fresh backed symbols (DUCK, like make_fx does).

        ``static[i]`` keeps dim i a plain int.  ``transpose`` fakes ``empty(hints).t()``
        so the strides are symbolic (``(1, sA)``).
        """
        import torch
        from torch._dynamo.source import ConstantSource
        from torch.fx.experimental.symbolic_shapes import (
            DimDynamic,
            StatelessSymbolicContext,
        )

        real = torch.empty(*hints, dtype=dtype or torch.float32)
        if transpose:
            real = real.t()
        if requires_grad:
            real.requires_grad_(True)
        flags = list(static) if static is not None else [False] * real.dim()
        if transpose:
            flags = flags[::-1]
        ctx = StatelessSymbolicContext(
            dynamic_sizes=[DimDynamic.STATIC if s else DimDynamic.DUCK for s in flags],
            constraint_sizes=[None] * real.dim(),
        )
        src = ConstantSource(f"input{self._n_tensors}")
        self._n_tensors += 1
        return self.fake_mode.from_tensor(real, source=src, symbolic_context=ctx)

    def view_of_real(self, real: Any) -> Any:
        """Fake a real view with default (all dynamic) policy: its offset becomes a symbol."""
        from torch._dynamo.source import ConstantSource

        src = ConstantSource(f"input{self._n_tensors}")
        self._n_tensors += 1
        return self.fake_mode.from_tensor(real, source=src)

    def symbol(self, hint: int, name: str) -> Any:
        """A free SymInt (expr is a bare symbol), like a Dynamo/AOT size input."""
        from torch._dynamo.source import ConstantSource
        from torch.fx.experimental.symbolic_shapes import DimDynamic

        src = ConstantSource(name)
        sym = self.shape_env.create_symbol(hint, src, dynamic_dim=DimDynamic.DYNAMIC)
        return self.shape_env.create_symintnode(sym, hint=hint, source=src)

    def from_expr(self, expr: Any) -> Any:
        """A SymInt for an arbitrary (torch-sympy) expression over existing symbols."""
        return self.shape_env.create_symintnode(expr, hint=None)

    def check_distinct(self, expected: int | None = None) -> None:
        """Duck sizing merges equal hints: insist every backed symbol kept its own hint."""
        vals = {str(k): int(v) for k, v in self.shape_env.backed_var_to_val.items()}
        hints = list(vals.values())
        if len(set(hints)) != len(hints):
            raise AssertionError(f"equal hints for distinct symbols: {vals}")
        if any(h in (0, 1) for h in hints):
            raise AssertionError(f"hint 0/1 specializes: {vals}")
        if expected is not None and len(vals) != expected:
            raise AssertionError(f"expected {expected} free symbols, torch made {vals}")


def _decomps() -> dict:
    from torch._inductor.decomposition import select_decomp_table

    return select_decomp_table()


def _trace(fn: Callable[..., Any], args: Sequence[Any], *, decompose: bool = True) -> _Built:
    """make_fx symbolic trace over our (already fake) args; reuse their FakeTensorMode.

    Traced functions stay unannotated on purpose: make_fx keeps a return annotation and
    the writer then emits ``def forward(...) -> _Any_:``, which no real dump has.
    """
    from torch.fx.experimental.proxy_tensor import make_fx

    gm = make_fx(
        fn,
        tracing_mode="symbolic",
        decomposition_table=_decomps() if decompose else None,
    )(*args)
    vals = [n.meta["val"] for n in gm.graph.find_nodes(op="placeholder")]
    if len(vals) != len(args):
        raise AssertionError(f"{len(vals)} placeholders for {len(args)} args")
    # The placeholders' meta["val"] carry the same symbolic sizes, strides and offsets
    # as our fake args, but make_fx drops requires_grad on them; torch's after-aot hook
    # hands the writer the example inputs themselves, so we write our args.
    for v, a in zip(vals, args, strict=True):
        if _describe(v) != _describe(a):
            raise AssertionError(f"placeholder {_describe(v)} != arg {_describe(a)}")
    return _Built(gm=gm, args=list(args), params={})


def _describe(v: Any) -> Any:
    import torch

    if isinstance(v, torch.Tensor):
        return (
            tuple(str(d) for d in v.shape),
            tuple(str(d) for d in v.stride()),
            str(v.storage_offset()),
            v.dtype,
        )
    if isinstance(v, torch.SymInt):
        return str(v.node.expr)
    return v


def _sym_sum(xs: Sequence[Any]) -> Any:
    total = xs[0].shape[0]
    for x in xs[1:]:
        total = total + x.shape[0]
    return total


def _check_n(n: int, lo: int = 1) -> int:
    n = int(n)
    if n < lo:
        raise ValueError(f"n must be >= {lo}, got {n}")
    return n


# --------------------------------------------------------------------------- families


def _floordiv_sum(env: _Env, *, n: int = 8, base: int = 1000, step: int = 3) -> _Built:
    """The ``sym_outer`` family (samples/sym_outer_n8.py), with Inductor decompositions.

    N 1-D inputs whose symbols exist only as tensor dims; SymInt inputs
    ``k = ((Σ s)//160) + 866``, ``s_first`` (a bare symbol) and ``S = Σ s``; the graph
    builds ``arange(S)[:, None] * arange(k)[None, :]`` viewed as ``(k, S)``.
    """
    import torch

    n = _check_n(n)
    xs = [env.tensor([base + step * i]) for i in range(n)]
    env.check_distinct(n)
    total = _sym_sum(xs)
    k = total // 160 + 866

    def fn(*args):
        *ts, k, _first, total = args
        acc = 0
        for t in ts:
            acc = acc + t.sum()
        rows = torch.arange(total, dtype=torch.float32).unsqueeze(1)
        cols = torch.arange(k, dtype=torch.float32).unsqueeze(0)
        view = (rows * cols + 1.0).view(k, total)
        return acc, view * 3.0, view.sum(0)

    built = _trace(fn, [*xs, k, xs[0].shape[0], total])
    built.params = {"n": n, "base": base, "step": step}
    return built


def _free_symints(env: _Env, *, hints: Sequence[int] = (37, 41, 43)) -> _Built:
    """Free SymInt inputs written as ``expr='sNN'`` (bare symbols), used as sizes."""
    import torch

    x = env.tensor([1000])
    a, b, c = (env.symbol(h, f"size{i}") for i, h in enumerate(hints))
    env.check_distinct(4)

    def fn(x, a, b, c):
        grid = torch.arange(a * b, dtype=torch.float32).view(a, b)
        return grid.sum(0), grid.sum() + x.sum(), torch.zeros(b + c)

    built = _trace(fn, [x, a, b, c])
    built.params = {"hints": list(hints)}
    return built


def _shared_symbols(env: _Env) -> _Built:
    """Several derived SymInts sharing symbols: s0+s1, s1*s2, (s0+s2)//3."""
    import torch

    x0, x1, x2 = env.tensor([1000]), env.tensor([1003]), env.tensor([23])
    env.check_distinct(3)
    s0, s1, s2 = x0.shape[0], x1.shape[0], x2.shape[0]
    p, q, r = s0 + s1, s1 * s2, (s0 + s2) // 3

    def fn(x0, x1, x2, p, q, r):
        cat = torch.cat([x0, x1]) + torch.ones(p)
        outer = (x1.unsqueeze(1) * x2.unsqueeze(0)).view(q)
        return cat.sum(), outer * 2.0, torch.arange(r, dtype=torch.float32)

    built = _trace(fn, [x0, x1, x2, p, q, r])
    built.params = {}
    return built


def _minmax_mod(env: _Env) -> _Built:
    """Max / Min (sym_max / sym_min), Mod, PythonMod, ModularIndexing, nested FloorDiv,
    a product and a symbolic divisor -- each as a derived SymInt input."""
    import torch
    from torch.utils._sympy.functions import ModularIndexing

    x0, x1, x2 = env.tensor([37]), env.tensor([41]), env.tensor([43])
    env.check_distinct(3)
    s0, s1, s2 = x0.shape[0], x1.shape[0], x2.shape[0]
    derived = [
        torch.sym_max(s0, s1),  # Max(s0, s1)
        torch.sym_min(s1, s2),  # Min(s1, s2)
        s0 % 7,  # Mod(s0, 7): dividend provably >= 0
        (-(s0 + s1)) % 16,  # PythonMod(-s0 - s1, 16): sign unknown to sympy
        (s0 // 3 + 1) // 5,  # nested FloorDiv ((s0//3) + 1)//5
        s0 * s1 * s2,  # product
        (s1 * s2) // s0,  # FloorDiv with a symbolic divisor
        torch.sym_max(s0 + s1, 2 * s2),  # Max of sums
        # torch never builds ModularIndexing from SymInt arithmetic ((s//3) % 5 stays
        # Mod(FloorDiv)); it is Inductor's indexing function.  Build it with torch's
        # own ShapeEnv so the writer prints it the way torch prints it.
        env.from_expr(ModularIndexing(s2.node.expr, 3, 5)),
    ]

    def fn(x0, x1, x2, *ks):
        outs = [x0.sum() + x1.sum() + x2.sum()]
        outs += [torch.arange(k, dtype=torch.float32).sum() for k in ks]
        return tuple(outs)

    built = _trace(fn, [x0, x1, x2, *derived])
    built.params = {}
    return built


def _strided(env: _Env, *, offset_symbol: bool = False) -> _Built:
    """Symbolic strides (a transposed tensor), a shared storage with a view at a symbolic
    storage offset, int64 dtype, requires_grad.

    ``offset_symbol=True`` adds a view whose storage offset is itself a free symbol:
    torch 2.13's writer then emits ``storage_offset=sNN`` with *no* hint line for it
    (the script raises NameError in ``load_args``) -- kept opt-in for parser tests.
    """
    import torch

    at = env.tensor([29, 31], transpose=True)  # (s_a, s_b) strides (1, s_a)
    base = env.tensor([53, 19])  # (s53, s19) contiguous
    with env.fake_mode:
        bt = base.t()  # (s19, s53) strides (1, s19): shares base's storage
        bv = base[2:]  # (s53 - 2, s19) storage_offset = 2*s19
        bn = base[:, 3:]  # (s53, s19 - 3) strides (s19, 1), storage_offset = 3
    i64 = env.tensor([61], dtype=torch.int64)
    rg = env.tensor([67], requires_grad=True)
    w = env.tensor([71, 8], static=[False, True])  # (s71, 8): a static dim
    args: list[Any] = [at, bt, bv, bn, i64, rg, w]
    expected = 7
    if offset_symbol:
        args.append(env.view_of_real(torch.empty(100)[7:]))
        expected += 3  # size, storage size and offset
    env.check_distinct(expected)

    def fn(*ts):
        at, bt, bv, bn, i64, rg, w, *rest = ts
        out = at.sum() + bt.sum() + bv.sum() + bn.sum() + i64.sum() + rg.sum() + w.sum()
        return (out, *(t * 2 for t in rest))

    built = _trace(fn, args)
    built.params = {"offset_symbol": offset_symbol}
    return built


def _old_style(env: _Env, *, n: int = 4, tracing_mode: str | None = "symbolic") -> _Built:
    """What pre-2.13 torch wrote: the writer gets *concrete* args (real tensors and ints),
    so no ``expr=`` and no hint lines; ``tracing_mode`` defaults to 'symbolic' as a
    dynamic-shape dump of that era had it (``None`` lets the writer pick 'real')."""
    import torch

    built = _floordiv_sum(env, n=n)
    concrete: list[Any] = []
    for a in built.args:
        if isinstance(a, torch.Tensor):
            shape = [int(d.node.hint) if isinstance(d, torch.SymInt) else d for d in a.shape]
            concrete.append(torch.zeros(shape, dtype=a.dtype))
        elif isinstance(a, torch.SymInt):
            concrete.append(int(a.node.hint))
        else:
            concrete.append(a)
    return _Built(
        gm=built.gm,
        args=concrete,
        params={"n": n, "tracing_mode": tracing_mode},
        tracing_mode=tracing_mode,
    )


def _mod_pad(env: _Env, *, n: int = 8, base: int = 1000, step: int = 3) -> _Built:
    """Cat of N dynamic 1-D inputs padded to a multiple of 160 by ``(-L) % 160``.

    SymInt inputs ``L = Σ s`` and ``pad = PythonMod(-Σ s, 160)`` (the dividend's sign is
    unknown, hence PythonMod, the slow path).  Tracing alone already pays for it:
    ~0.3 s at N = 8, ~0.9 s at N = 16, ~6.5 s at N = 32 on 2 cores.
    """
    import torch

    n = _check_n(n)
    xs = [env.tensor([base + step * i]) for i in range(n)]
    env.check_distinct(n)
    total = _sym_sum(xs)
    pad = (-total) % 160

    def fn(*args):
        *ts, total, pad = args
        cat = torch.cat(ts) * torch.arange(total, dtype=torch.float32)
        frames = torch.constant_pad_nd(cat, [0, pad]).view(-1, 160)
        idx = torch.arange(frames.shape[0], dtype=torch.float32)
        return ((frames * idx.unsqueeze(1)).sum(0),)

    built = _trace(fn, [*xs, total, pad])
    built.params = {"n": n, "base": base, "step": step}
    return built


def _reader_forms(env: _Env) -> _Built:
    """Every other writer form (like samples/all_reader_forms.py): a plain
    ``reader.symint(5)``, ``const``, ``generator``, an unbacked
    ``reader.symint(None, expr='u0')`` and an ``unsupported`` list with its raw block."""
    import torch
    import torch.fx

    x, y = env.tensor([29]), env.tensor([31])
    env.check_distinct(2)
    k = 2 * x.shape[0] + y.shape[0] // 3
    u = env.shape_env.create_unbacked_symint()

    def forward(x, y, k, five, none, gen, u, lst):
        return (x * 2, y + 1)

    gm = torch.fx.symbolic_trace(forward)
    return _Built(
        gm=gm,
        args=[x, y, k, 5, None, torch.Generator("cpu"), u, [x, 3]],
        params={},
        tracing_mode="symbolic",
    )


def _unbacked_scale(env: _Env) -> _Built:
    """An unbacked symbol (``u0``, what ``.item()`` makes) in a derived SymInt beside backed
    ones: ``k = u0 + s_a + s_b``, the length of an ``arange``, and a cat scaled by ``u0``.
    ``torch.fx.symbolic_trace`` (torch-level calls, as reader_forms): make_fx cannot take an
    unbacked SymInt as an input."""
    import torch
    import torch.fx

    x, y = env.tensor([1000]), env.tensor([1003])
    env.check_distinct(2)
    u = env.shape_env.create_unbacked_symint()
    k = u + x.shape[0] + y.shape[0]

    def forward(x, y, u, k):
        return (torch.cat([x, y]) * u, torch.arange(k, dtype=torch.float32))

    return _Built(gm=torch.fx.symbolic_trace(forward), args=[x, y, u, k], params={})


def _halves(env: _Env, n: int, base: int, step: int) -> tuple[list[Any], int, Any, Any]:
    """N dynamic 1-D inputs; the sums of their first and second halves."""
    xs = [env.tensor([base + step * i]) for i in range(n)]
    env.check_distinct(n)
    k = n // 2
    return xs, k, _sym_sum(xs[:k]), _sym_sum(xs[k:])


def _modidx_outer(env: _Env, *, n: int = 8, base: int = 1000, step: int = 3) -> _Built:
    """The outer product of two cats (lengths A = Σ first half, B = Σ second half),
    transposed, made contiguous and viewed back as `(A, B)`: Inductor indexes it with
    `ModularIndexing(B*i + j, 1, A)` and `(B*i + j)//A`, divisors that are sums.
    SymInt inputs A and B."""
    import torch

    xs, k, a_len, b_len = _halves(env, n, base, step)

    def fn(*args: Any) -> Any:
        *ts, a_len, b_len = args
        a, b = torch.cat(ts[:k]), torch.cat(ts[k:])
        t = (a.unsqueeze(1) * b.unsqueeze(0)).t().contiguous()
        return (t.view(-1).view(a_len, b_len) * 2.0,)

    built = _trace(fn, [*xs, a_len, b_len])
    built.params = {"n": n, "base": base, "step": step}
    return built


def _max_outer(env: _Env, *, n: int = 8, base: int = 1000, step: int = 3) -> _Built:
    """modidx_outer with both cats padded to `M = Max(A, B)` first: the indexing carries
    `Max` of two sums next to the sums themselves. SymInt inputs A, B and M."""
    import torch

    xs, k, a_len, b_len = _halves(env, n, base, step)
    m = torch.sym_max(a_len, b_len)

    def fn(*args: Any) -> Any:
        *ts, a_len, b_len, m = args
        a = torch.constant_pad_nd(torch.cat(ts[:k]), [0, m - a_len])
        b = torch.constant_pad_nd(torch.cat(ts[k:]), [0, m - b_len])
        t = (a.unsqueeze(1) * b.unsqueeze(0)).t().contiguous()
        return (t.view(-1)[: a_len * b_len].view(a_len, b_len) * 2.0,)

    built = _trace(fn, [*xs, a_len, b_len, m])
    built.params = {"n": n, "base": base, "step": step}
    return built


def _nested_floordiv(env: _Env, *, depth: int = 4, length: int = 100003) -> _Built:
    """Reshape chains on one 1-D input of length s0: each level cuts the length to a
    multiple of 3, views it as ``(L//3, 3)``, drops column 0 and flattens, so the
    lengths nest ``2*((2*(s0//3))//3)`` ``depth`` times and Inductor's indexing nests
    ``//`` and ``ModularIndexing`` as deep.  SymInt inputs: each level's length (the
    last one is the final view).  ``--no-native-compile``, nearly all codegen
    (``simplify_index_in_vec_range``): ~8 s at depth 4 but ~5 s with s0 a constant
    (symshrink minimizes depth 4 to 0 symbols); ~100 s at depth 5 (2 busy cores).
    """
    depth = _check_n(depth)
    x = env.tensor([length])
    env.check_distinct(1)
    lens: list[Any] = []
    cur = x.shape[0]
    for _ in range(depth):
        cur = 2 * (cur // 3)
        lens.append(cur)

    def fn(*args: Any) -> Any:
        t, *ls = args
        for out_len in ls:
            n = t.shape[0]
            t = (t[: (n // 3) * 3].view(n // 3, 3)[:, 1:] * 2.0).reshape(out_len)
        return (t * 3.0,)

    built = _trace(fn, [x, *lens])
    built.params = {"depth": depth, "length": length}
    return built


def _item_mod(env: _Env, *, n: int = 32, base: int = 1000, step: int = 3) -> _Built:
    """``%`` of a sum of ``.item()``-like values by 213: N free SymInt inputs (bare
    symbols) and ``m = PythonMod(u0 - u1 + u2 - ..., 213)`` (alternating signs, so the
    dividend's sign is unknown), used as a slice length and an ``arange`` size.
    ~3 s at N = 24, ~6 s at N = 32 (trace and codegen, ``--no-native-compile``)."""
    import torch

    n = _check_n(n, 2)
    us = [env.symbol(base + step * i, f"item{i}") for i in range(n)]
    env.check_distinct(n)
    total = us[0]
    for i, u in enumerate(us[1:], 1):
        total = total + u if i % 2 == 0 else total - u
    m = total % 213
    x = env.tensor([213], static=[True])

    def fn(*args: Any) -> Any:
        t, *_items, m = args
        return ((t[:m] * torch.arange(m, dtype=torch.float32)).sum(),)

    built = _trace(fn, [x, *us, m])
    built.params = {"n": n, "base": base, "step": step}
    return built


def _item_floordiv(env: _Env, *, n: int = 16, base: int = 1000, step: int = 3) -> _Built:
    """pytorch#134133's ``sum(t.item() for t in x) // 5``: N free SymInt inputs (bare
    symbols, ``.item()``-like) and ``k = (u0 + ... + u_{N-1})//5``, used as a slice length
    and an ``arange`` size. Not in the corpus: not slow by ratio (1.6-1.7x its static twin
    at N = 16 and 32, 3.0x at N = 100, ``run --compare``): ``safe_gcd`` of a linear sum
    and 5 is cheap. The issue's slowness was Dynamo/export-time work on unbacked symbols,
    which an after-aot script (backed SymInt inputs) does not carry."""
    import torch

    n = _check_n(n, 2)
    us = [env.symbol(base + step * i, f"item{i}") for i in range(n)]
    env.check_distinct(n)
    total = us[0]
    for u in us[1:]:
        total = total + u
    k = total // 5
    x = env.tensor([base * n], static=[True])

    def fn(*args: Any) -> Any:
        t, *_items, k = args
        return ((t[:k] * torch.arange(k, dtype=torch.float32)).sum(),)

    built = _trace(fn, [x, *us, k])
    built.params = {"n": n, "base": base, "step": step}
    return built


def _dot_floordiv(env: _Env, *, n: int = 20, base: int = 100, step: int = 3) -> _Built:
    """The 20/21-term cliff: 2N free SymInt inputs (bare symbols: N row counts r_i and
    row widths c_i) and the mean row width ``k = (r_0*c_0 + ... )//(r_0 + ...)``, an
    ``arange`` size. ``FloorDiv.eval`` asks ``safe_gcd`` for the gcd of an N-term
    bilinear sum and an N-term sum: sympy's polynomial GCD up to 20 terms, torch 2.13's
    cheap syntactic fallback from 21 on."""
    import torch

    n = _check_n(n)
    rows = [env.symbol(base + step * i, f"rows{i}") for i in range(n)]
    cols = [env.symbol(base + 1 + step * (n + i), f"cols{i}") for i in range(n)]
    env.check_distinct(2 * n)
    total_rows, elements = rows[0], rows[0] * cols[0]
    for r, c in zip(rows[1:], cols[1:], strict=True):
        total_rows, elements = total_rows + r, elements + r * c
    k = elements // total_rows

    def fn(*args: Any) -> Any:
        *_sizes, k = args
        return (torch.arange(k, dtype=torch.float32) * 2.0,)

    built = _trace(fn, [*rows, *cols, k])
    built.params = {"n": n, "base": base, "step": step}
    return built


def _item_halves(env: _Env, n: int, base: int, step: int) -> tuple[list[Any], Any, Any]:
    """2N free SymInt inputs (bare symbols, ``.item()``-like) and the sums of each half."""
    n = _check_n(n)
    us = [env.symbol(base + step * i, f"item{i}") for i in range(2 * n)]
    env.check_distinct(2 * n)
    a, b = us[0], us[n]
    for i in range(1, n):
        a, b = a + us[i], b + us[n + i]
    return us, a, b


def _arange_of(env: _Env, us: list[Any], k: Any, params: dict[str, Any]) -> _Built:
    """A graph of the SymInt inputs ``us`` and ``k`` that only uses ``k``, as an ``arange``
    size."""
    import torch

    def fn(*args: Any) -> Any:
        *_items, k = args
        return (torch.arange(k, dtype=torch.float32) * 2.0,)

    built = _trace(fn, [*us, k])
    built.params = params
    return built


def _prod_floordiv(env: _Env, *, n: int = 10, base: int = 100, step: int = 3) -> _Built:
    """``k*(Σ)`` past torch 2.13's 20-term guard: the sums ``A`` and ``B`` of 2N free SymInt
    inputs and ``k = (A*B)//(A + B)``. ``A*B`` stays an unexpanded product, which
    ``safe_gcd``'s guard does not count as a wide sum, so sympy's polynomial GCD expands
    it (N² terms) against ``A + B``; the divisor alone trips the guard from 2N = 22."""
    us, a, b = _item_halves(env, n, base, step)
    return _arange_of(env, us, (a * b) // (a + b), {"n": n, "base": base, "step": step})


def _prod_pythonmod(env: _Env, *, n: int = 10, base: int = 100, step: int = 3) -> _Built:
    """``PythonMod`` of a product: ``k = (A*B - 1000*u_N) % 160`` over the sums ``A``, ``B``
    of 2N free SymInt inputs (the dividend's sign unknown, so ``PythonMod``, whose eval
    takes sympy's ``Mod`` and its polynomial GCD through the expanded product)."""
    us, a, b = _item_halves(env, n, base, step)
    k = (a * b - 1000 * us[n]) % 160
    return _arange_of(env, us, k, {"n": n, "base": base, "step": step})


def _prod_modidx(env: _Env, *, n: int = 12, base: int = 10, step: int = 3) -> _Built:
    """modidx_outer with a product for a size: over the sums ``A``, ``B`` of the halves of
    N dynamic 1-D inputs, ``arange(A*B)`` times ``arange(A + B)`` as an outer product,
    transposed, made contiguous and viewed back ``(A*B, A + B)``: Inductor indexes it
    with ``ModularIndexing((A + B)*i + j, 1, A*B)``, a divisor that is a product, which
    the 20-term guard does not count. SymInt inputs ``P = A*B`` and ``Q = A + B``."""
    import torch

    xs, _half, a, b = _halves(env, n, base, step)
    p, q = a * b, a + b

    def fn(*args: Any) -> Any:
        *ts, p, q = args
        rows = torch.arange(p, dtype=torch.float32)
        cols = torch.arange(q, dtype=torch.float32) + torch.cat(ts).sum()
        t = (rows.unsqueeze(1) * cols.unsqueeze(0)).t().contiguous()
        return (t.view(-1).view(p, q) * 2.0,)

    built = _trace(fn, [*xs, p, q])
    built.params = {"n": n, "base": base, "step": step}
    return built


def _max_chain(env: _Env, *, n: int = 16, base: int = 1000, step: int = 3) -> _Built:
    """A cat of N dynamic 1-D inputs, each first padded to ``Max(s_i, 1024)``: the cat's
    offsets and length are sums of ``Max`` terms, framed ``(T//160, 160)`` like the
    aot_frames family. SymInt input ``T = Max(s_0, 1024) + ... + Max(s_{N-1}, 1024)``.
    Not in the corpus: 2.3x its static twin at N = 16 and retraced the way ``run_repro``
    does (every SymInt independent) slower still (3.4x): the cat's per-input kernels, not
    the ``Max`` terms (an earlier form, padded to ``Max`` of all sizes and stacked, was
    3.5x at N = 16, independent 4.1x, and 1.1x at N = 32)."""
    import torch

    n = _check_n(n, 2)
    xs = [env.tensor([base + step * i]) for i in range(n)]
    env.check_distinct(n)
    widths = [torch.sym_max(x.shape[0], 1024) for x in xs]
    total = widths[0]
    for w in widths[1:]:
        total = total + w

    def fn(*args: Any) -> Any:
        *ts, total = args
        padded = [
            torch.constant_pad_nd(t, [0, torch.sym_max(t.shape[0], 1024) - t.shape[0]]) for t in ts
        ]
        cat = torch.cat(padded) * torch.arange(total, dtype=torch.float32)
        frames = cat[: (total // 160) * 160].view(total // 160, 160)
        return (frames.sum(1),)

    built = _trace(fn, [*xs, total])
    built.params = {"n": n, "base": base, "step": step}
    return built


def _split_reverse(env: _Env, *, n: int = 32, base: int = 1000, step: int = 3) -> _Built:
    """Cat N dynamic 1-D inputs, split the result back at their sizes and cat the pieces
    in reverse order: every piece starts at a prefix sum ``s0 + ... + s_{i-1}`` and lands
    at a suffix sum, so each of the N copy kernels indexes with an offset of up to N terms.
    Nearly all codegen (``simplify_index_in_vec_range`` per kernel): ~2 s at N = 8, ~10 s
    at N = 32 (``--no-native-compile``). No SymInt inputs: the sizes are tensor dims.
    Not in the corpus: symshrink minimizes N = 32 to 0 free symbols in 5 calls (static
    sizes are as slow), so this is Inductor's per-kernel cost, not a symbolic one."""
    import torch

    n = _check_n(n, 2)
    xs = [env.tensor([base + step * i]) for i in range(n)]
    env.check_distinct(n)

    def fn(*ts: Any) -> Any:
        pieces = torch.split(torch.cat(ts) * 2.0, [t.shape[0] for t in ts])
        return (torch.cat(pieces[::-1]) + 1.0,)

    built = _trace(fn, xs)
    built.params = {"n": n, "base": base, "step": step}
    return built


def _frames_outer_model() -> Any:
    """The model behind samples/aot_frames_outer_bw_n*.py (its backward has the same inputs).

    Cat N 1-D inputs (length L), zero-pad to ``160*k`` with ``k = L//160 + 866``, view as
    ``(k, 160)`` frames through a ``(160, 8)`` weight and ReLU, plus the outer product with
    ``arange(k)`` viewed ``(L, k) -> (k, L)`` and summed back to ``(L,)``.
    """
    import torch

    class FramesOuter(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            gen = torch.Generator().manual_seed(0)
            self.proj = torch.nn.Parameter(torch.randn(160, 8, generator=gen))

        def forward(self, *xs: Any) -> Any:
            x = torch.cat(xs)
            n = x.shape[0]
            k = n // 160 + 866
            frames = torch.cat([x, x.new_zeros(160 * k - n)]).view(k, 160)
            loss = torch.relu(frames @ self.proj).sum() + x[:k].sum()
            ramp = torch.arange(k, dtype=x.dtype)
            y = (x.unsqueeze(1) * ramp.unsqueeze(0)).view(k, n).sum(0)
            return loss + (x * y).sum()

    return FramesOuter()


def _aot_frames_outer(env: _Env, *, n: int = 16, base: int = 1000, step: int = 3) -> _Built:
    """torch.compile's own backward dump, made as samples/aot_frames_outer_bw_n*.py was.

    ``torch.compile(dynamic=True)`` with an ``aot_autograd`` backend (Inductor's
    decompositions) whose fw and bw compilers write the graph they receive and then run
    it eagerly; forward and backward run once on N inputs of distinct lengths, and the
    backward graph is the fixture: N free SymInts ``sNN``, ``Σ s``, ``(Σ s)//160 + 866``
    and ``160*((Σ s)//160) + 138560`` as SymInt inputs, tensors sized by them.  Its example
    inputs are fakes valid only during the compile, so it is written in the callback.
    ``env``'s own ShapeEnv is unused: Dynamo makes the symbols.
    """
    import torch
    from torch._dynamo.backends.common import aot_autograd
    from torch._functorch.aot_autograd import make_boxed_func

    n = _check_n(n)
    params = {"n": n, "base": base, "step": step}
    graphs: dict[str, _Built] = {}

    def writing(role: str) -> Callable[[Any, list[Any]], Any]:
        def compiler(gm: Any, example_inputs: list[Any]) -> Any:
            if role in graphs:
                raise AssertionError(f"a second {role} graph: Dynamo broke the graph")
            built = _Built(gm=gm, args=list(example_inputs), params=params)
            built.written = env.write(built)
            graphs[role] = built
            return make_boxed_func(gm.forward)

        return compiler

    backend = aot_autograd(
        fw_compiler=writing("fw"), bw_compiler=writing("bw"), decompositions=_decomps()
    )
    gen = torch.Generator().manual_seed(0)
    xs = [torch.randn(base + step * i, generator=gen, requires_grad=True) for i in range(n)]
    torch._dynamo.reset()  # no cache entry or recompile state from an earlier call
    try:
        torch.compile(_frames_outer_model(), dynamic=True, backend=backend)(*xs).backward()
    finally:
        torch._dynamo.reset()
    bw = graphs["bw"]
    assert bw.written is not None
    hints = bw.written.truth["free_symbols"]
    if len(hints) != n or len(set(hints.values())) != n:
        raise AssertionError(f"expected {n} free symbols with distinct hints, got {hints}")
    return bw


FAMILIES: dict[str, Callable[..., _Built]] = {
    "floordiv_sum": _floordiv_sum,
    "free_symints": _free_symints,
    "shared_symbols": _shared_symbols,
    "minmax_mod": _minmax_mod,
    "strided": _strided,
    "old_style": _old_style,
    "mod_pad": _mod_pad,
    "modidx_outer": _modidx_outer,
    "max_outer": _max_outer,
    "reader_forms": _reader_forms,
}

# Real pathologies that are slow on purpose (seconds per compile): generated on demand
# (``--family``) for the corpus, never by generate_all.  Kept out of FAMILIES, which the
# standard set must cover.
SLOW_FAMILIES: dict[str, Callable[..., _Built]] = {
    "nested_floordiv": _nested_floordiv,
    "item_mod": _item_mod,
    "item_floordiv": _item_floordiv,
    "dot_floordiv": _dot_floordiv,
    "max_chain": _max_chain,
    "prod_floordiv": _prod_floordiv,
    "prod_pythonmod": _prod_pythonmod,
    "prod_modidx": _prod_modidx,
    "split_reverse": _split_reverse,
    "aot_frames_outer": _aot_frames_outer,
}
# Inputs of golden files (tests/golden/), generated on demand too and kept in the repository.
GOLDEN_FAMILIES: dict[str, Callable[..., _Built]] = {"unbacked_scale": _unbacked_scale}
_ALL_FAMILIES: dict[str, Callable[..., _Built]] = {**FAMILIES, **SLOW_FAMILIES, **GOLDEN_FAMILIES}

# (family, params) of generate_all; names carry ``_n{n}`` where the family has n.
STANDARD_SET: tuple[tuple[str, dict[str, Any]], ...] = (
    ("floordiv_sum", {"n": 4}),
    ("floordiv_sum", {"n": 16}),
    ("free_symints", {}),
    ("shared_symbols", {}),
    ("minmax_mod", {}),
    ("strided", {}),
    ("old_style", {"n": 4}),
    ("mod_pad", {"n": 8}),
    ("modidx_outer", {"n": 4}),
    ("max_outer", {"n": 4}),
    ("reader_forms", {}),
)

# Families whose SymInt exprs are plain Python (only + - * // and names): ``eval`` them.
PYTHON_EXPR_FAMILIES = frozenset(
    {"floordiv_sum", "free_symints", "shared_symbols", "strided", "old_style", "reader_forms"}
)


# --------------------------------------------------------------------------- truth


def _writer_hint_symbols(args: Sequence[Any]) -> dict[str, int]:
    """The symbols ``generate_compiler_repro_string`` writes as ``name = hint`` lines.

    Mirrors torch 2.13's rule: a SymInt arg that is a bare backed Symbol; a tensor dim
    or stride that is a bare backed Symbol; free symbols of a symbolic storage nbytes.
    """
    import sympy
    import torch

    used: dict[str, int] = {}

    def bare(v: Any) -> None:
        if (
            isinstance(v, torch.SymInt)
            and isinstance(v.node.expr, sympy.Symbol)
            and v.node.hint is not None
        ):
            used[str(v.node)] = int(v.node.hint)

    for arg in args:
        if isinstance(arg, torch.SymInt):
            bare(arg)
        elif isinstance(arg, torch.Tensor):
            for d in (*arg.shape, *arg.stride()):
                bare(d)
            nbytes = arg.untyped_storage().nbytes()
            if isinstance(nbytes, torch.SymInt):
                shape_env = nbytes.node.shape_env
                for sym in nbytes.node.expr.free_symbols:
                    hint = shape_env.backed_var_to_val.get(sym)
                    if str(sym) not in used and hint is not None:
                        used[str(sym)] = int(hint)
    return dict(sorted(used.items()))


def _free(v: Any) -> set[Any]:
    import torch

    if isinstance(v, torch.SymInt):
        return set(v.node.expr.free_symbols)
    return set()


def _truth(built: _Built, placeholders: list[str]) -> dict[str, Any]:
    import torch
    from torch.fx.experimental.symbolic_shapes import free_unbacked_symbols

    symints: list[dict[str, Any]] = []
    tensors: list[dict[str, Any]] = []
    others: list[dict[str, Any]] = []
    mentioned: set[Any] = set()
    storages: dict[Any, str] = {}
    shape_env = None
    for i, (name, a) in enumerate(zip(placeholders, built.args, strict=True)):
        if isinstance(a, torch.SymInt):
            shape_env = a.node.shape_env
            mentioned |= _free(a)
            hint = a.node.hint
            symints.append(
                {
                    "index": i,
                    "name": name,
                    "hint": None if hint is None else int(hint),
                    "expr": str(a.node.expr),
                    "free_symbols": sorted(str(s) for s in _free(a)),
                }
            )
        elif isinstance(a, int) and not isinstance(a, bool):
            symints.append({"index": i, "name": name, "hint": a, "expr": None, "free_symbols": []})
        elif isinstance(a, torch.Tensor):
            from torch.multiprocessing.reductions import StorageWeakRef

            dims = (*a.shape, *a.stride(), a.storage_offset(), a.untyped_storage().nbytes())
            for d in dims:
                mentioned |= _free(d)
                if isinstance(d, torch.SymInt):
                    shape_env = d.node.shape_env
            ref = StorageWeakRef(a.untyped_storage())
            buf = storages.setdefault(ref, f"buf{len(storages)}")
            tensors.append(
                {
                    "index": i,
                    "name": name,
                    "shape": [str(d) for d in a.shape],
                    "stride": [str(d) for d in a.stride()],
                    "storage_offset": str(a.storage_offset()),
                    "dtype": str(a.dtype),
                    "requires_grad": bool(a.requires_grad),
                    "storage": buf,
                }
            )
        else:
            kind = (
                "const"
                if a is None
                else "generator"
                if isinstance(a, torch.Generator)
                else "unsupported"
            )
            others.append({"index": i, "name": name, "kind": kind})

    backed = dict(shape_env.backed_var_to_val) if shape_env is not None else {}
    unbacked = sorted(str(s) for s in mentioned if free_unbacked_symbols(s))
    all_free = {str(s): int(backed[s]) for s in mentioned if s in backed}
    return {
        "params": built.params,
        "torch_version": torch.__version__,
        "tracing_mode": built.tracing_mode,
        "n_inputs": len(placeholders),
        "placeholders": placeholders,
        "free_symbols": _writer_hint_symbols(built.args),
        "all_free_symbols": dict(sorted(all_free.items())),
        "unbacked_symbols": unbacked,
        "symints": symints,
        "tensors": tensors,
        "others": others,
    }


# --------------------------------------------------------------------------- public API


def _fixture_name(family: str, params: dict[str, Any]) -> str:
    if "n" in params:
        return f"{family}_n{params['n']}"
    if "depth" in params:
        return f"{family}_d{params['depth']}"
    return family


def generate(
    name: str,
    out_dir: Path,
    *,
    fixture_name: str | None = None,
    stable_output: bool = True,
    **params: Any,
) -> Fixture:
    """Build one fixture of family ``name`` into ``out_dir``; returns it with its truth.

    ``stable_output=True`` (default) makes torch's writer drop only the environment /
    config blocks and the torch-version comments, so the text is byte-for-byte
    deterministic; hint lines, ``Repro`` and ``load_args`` are unaffected.  Pass
    ``stable_output=False`` for the full form a real dump has (``import os``, config).
    """
    if name not in _ALL_FAMILIES:
        raise KeyError(f"unknown fixture family {name!r}; known: {sorted(_ALL_FAMILIES)}")
    t0 = time.perf_counter()
    env = _Env(stable_output=stable_output)
    built = _ALL_FAMILIES[name](env, **params)
    written = env.write(built) if built.written is None else built.written
    stem = fixture_name or _fixture_name(name, built.params)
    truth = {"family": name, **written.truth}

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{stem}.py"
    path.write_text(written.text)
    fixture = Fixture(name=stem, path=path, truth=truth)
    fixture.truth_path.write_text(json.dumps(truth, indent=2, sort_keys=True) + "\n")
    log.info("fixture %s written in %.2f s", stem, time.perf_counter() - t0)
    return fixture


def generate_all(out_dir: Path) -> list[Fixture]:
    """The standard set (every family, small sizes); a few seconds after torch imports."""
    return [generate(family, out_dir, **params) for family, params in STANDARD_SET]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--family", choices=sorted(_ALL_FAMILIES), help="one family only")
    parser.add_argument("--n", type=int, help="size parameter of the family (N inputs)")
    parser.add_argument("--depth", type=int, help="nesting depth of the family")
    parser.add_argument("--name", help="fixture (file) name; default family[_nN]")
    parser.add_argument(
        "--unstable",
        action="store_true",
        help="stable_output=False: keep torch's env/config/version blocks",
    )
    ns = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    t0 = time.perf_counter()
    if ns.family is None:
        if ns.n is not None or ns.depth is not None or ns.name is not None:
            parser.error("--n / --depth / --name need --family")
        fixtures = [
            generate(f, ns.out_dir, stable_output=not ns.unstable, **p) for f, p in STANDARD_SET
        ]
    else:
        params: dict[str, Any] = {
            k: v for k, v in (("n", ns.n), ("depth", ns.depth)) if v is not None
        }
        accepted = inspect.signature(_ALL_FAMILIES[ns.family]).parameters
        for key in params:
            if key not in accepted:
                parser.error(f"family {ns.family} has no parameter {key}")
        fixtures = [
            generate(
                ns.family,
                ns.out_dir,
                fixture_name=ns.name,
                stable_output=not ns.unstable,
                **params,
            )
        ]
    for fx in fixtures:
        print(fx.path)
    print(f"{len(fixtures)} fixture(s) in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

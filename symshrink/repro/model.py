"""The immutable model of an after-aot repro script.

Everything symshrink does works on this model, never on raw text: passes return new
models, `render` turns one back into a script. Expressions are sympy trees built by
`symshrink.expr` (inert torch-named functions, integer symbols), so models compare and
hash structurally.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from sympy import Expr


@dataclass(frozen=True)
class Storage:
    """`bufN = reader.storage(hash, nbytes, device=..., dtype_hint=...)`."""

    name: str
    hash: str | None
    nbytes: Expr
    device: str | None = None  # source text, e.g. "device(type='cuda', index=0)"
    dtype_hint: str | None = None  # source text, e.g. "torch.int64"


@dataclass(frozen=True)
class TensorInput:
    """`reader.tensor(buf, shape, stride, storage_offset=..., dtype=..., ...)  # name`."""

    name: str
    storage: str
    shape: tuple[Expr, ...]
    stride: tuple[Expr, ...] | None = None
    storage_offset: Expr | None = None
    dtype: str | None = None  # source text, e.g. "torch.int64"
    requires_grad: bool | None = None
    is_leaf: bool | None = None
    metadata: tuple[tuple[str, str], ...] = ()  # any other keyword, as source text

    def exprs(self) -> Iterator[Expr]:
        yield from self.shape
        yield from self.stride or ()
        if self.storage_offset is not None:
            yield self.storage_offset


@dataclass(frozen=True)
class SymIntInput:
    """`reader.symint(hint, expr='...')  # name`; `expr` is None for old scripts."""

    name: str
    hint: int | None
    expr: Expr | None = None

    def exprs(self) -> Iterator[Expr]:
        if self.expr is not None:
            yield self.expr


@dataclass(frozen=True)
class OtherInput:
    """const / unsupported / generator / opaque inputs, kept verbatim.

    `source` holds the statement line(s) exactly as written (an `unsupported` input's
    raw-string block included), without the load_args indentation.
    """

    name: str
    kind: str
    source: str

    def exprs(self) -> Iterator[Expr]:
        return iter(())


Input = TensorInput | SymIntInput | OtherInput

# What torch's after_aot writes in the main block when nothing else is known.
DEFAULT_RUN_OPTIONS: tuple[tuple[str, str], ...] = (
    ("accuracy", "False"),
    ("command", "'run'"),
    ("save_dir", "None"),
    ("tracing_mode", "'symbolic'"),
    ("check_str", "None"),
)


@dataclass(frozen=True)
class Repro:
    """A repro script: free symbols with hints, inputs in placeholder order, code.

    `hints` maps every free symbol name to its integer hint. `storages` are emitted before
    the first tensor that uses them. `preamble` is the verbatim text between the hint
    lines and the `Repro` class (imports, config settings); `module_source` is the
    `class Repro` source; `load_args_tail` are load_args statements torch writes after
    the inputs (repeat_interleave fix-ups), verbatim; `run_options` are the keyword
    arguments of the `run_repro` call, as source text.
    """

    hints: Mapping[str, int]
    inputs: tuple[Input, ...]
    storages: tuple[Storage, ...] = ()
    module_source: str = ""
    preamble: str = ""
    load_args_tail: tuple[str, ...] = ()
    run_options: tuple[tuple[str, str], ...] = DEFAULT_RUN_OPTIONS

    def __post_init__(self) -> None:
        object.__setattr__(self, "hints", _FrozenDict(sorted(self.hints.items())))

    @property
    def free_symbols(self) -> tuple[str, ...]:
        return tuple(self.hints)

    def symints(self) -> list[tuple[int, SymIntInput]]:
        """(placeholder index, input) of every SymInt input."""
        return [(i, x) for i, x in enumerate(self.inputs) if isinstance(x, SymIntInput)]

    def tensors(self) -> list[tuple[int, TensorInput]]:
        return [(i, x) for i, x in enumerate(self.inputs) if isinstance(x, TensorInput)]

    def storage(self, name: str) -> Storage:
        for s in self.storages:
            if s.name == name:
                return s
        raise KeyError(name)

    def input_exprs(self) -> Iterator[Expr]:
        """The inputs' expressions: what the graph sees (storage sizes only follow them)."""
        for x in self.inputs:
            yield from x.exprs()

    def all_exprs(self) -> Iterator[Expr]:
        """Every expression of the model: inputs' then storages' nbytes."""
        yield from self.input_exprs()
        for s in self.storages:
            yield s.nbytes

    @property
    def is_old_style(self) -> bool:
        """Written before torch 2.13: no hint lines and no `expr=` on any SymInt."""
        return not self.hints and all(x.expr is None for _, x in self.symints())

    def map_exprs(self, fn: Callable[[Expr], Expr]) -> Repro:
        """Apply `fn` to every expression: SymInts, tensor shapes/strides/offsets, storages."""
        inputs = []
        for x in self.inputs:
            if isinstance(x, SymIntInput) and x.expr is not None:
                x = replace(x, expr=fn(x.expr))
            elif isinstance(x, TensorInput):
                x = replace(
                    x,
                    shape=tuple(fn(e) for e in x.shape),
                    stride=tuple(fn(e) for e in x.stride) if x.stride is not None else None,
                    storage_offset=fn(x.storage_offset) if x.storage_offset is not None else None,
                )
            inputs.append(x)
        storages = tuple(replace(s, nbytes=fn(s.nbytes)) for s in self.storages)
        return replace(self, inputs=tuple(inputs), storages=storages)

    def replace(self, **changes: Any) -> Repro:
        return replace(self, **changes)


class _FrozenDict(dict):
    """A dict that refuses mutation, so a frozen Repro's hints stay frozen."""

    def _refuse(self, *args: object, **kwargs: object) -> None:
        raise TypeError("Repro.hints is immutable; use Repro.replace(hints=...)")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _refuse  # type: ignore[assignment]

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(self.items()))

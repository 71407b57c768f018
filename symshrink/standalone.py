"""A repro script that shows the slow compile with only torch installed.

A bug report cannot ask torch developers to install symshrink, and torch's own
`run_repro` retraces every SymInt as an independent symbol, so the slow compile does not
come back. `render_standalone` writes the after-aot layout unchanged (hint lines, the
preamble, `class Repro`, `load_args`, `mod = Repro()`: torch's tools and `symshrink
inspect` still read it, and `parse(render_standalone(m)) == m`) followed by the retrace
itself: `symshrink/runtime.py`, read from its file and embedded verbatim (the very code
`symshrink run` and the oracle run), and the model's inputs as that module's plain data
(`RETRACE_INPUTS`, an `InputSpec` written by `runtime_spec.input_spec`).

`python min.py` retraces and compiles without the C++ step (`--native` includes it) and
prints the compiled graph's free symbols and seconds per phase; `python min.py
--torch-run-repro` runs torch's `run_repro` with the script's original options.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import textwrap
from pathlib import Path

from symshrink import runtime
from symshrink.errors import ReproError
from symshrink.repro.model import Repro
from symshrink.repro.render import render, render_main
from symshrink.runtime import InputSpec, TensorSpec
from symshrink.runtime_spec import input_spec

log = logging.getLogger(__name__)

__all__ = [
    "TORCH_RUN_REPRO_FLAG",
    "is_standalone",
    "render_output",
    "render_standalone",
]

TORCH_RUN_REPRO_FLAG = "--torch-run-repro"

_INDENT = "    "
_ENTRY = "sys.exit(standalone_main("
# What scripts written before the runtime was shared call (they still need only torch).
_OLD_ENTRY = "sys.exit(_retrace_main("


@functools.cache
def _runtime_source() -> str:
    """The text of `symshrink/runtime.py`, as every standalone script carries it."""
    return Path(runtime.__file__).read_text(encoding="utf-8")


def _spec_code(repro: Repro, spec: InputSpec) -> str:
    """`RETRACE_INPUTS = InputSpec(...)`: the spec as a literal, one line per input."""
    lines = [
        "RETRACE_INPUTS = InputSpec(",
        f"{_INDENT}hints={dict(spec.hints)!r},",
        f"{_INDENT}unbacked={spec.unbacked!r},",
        f"{_INDENT}values=(",
    ]
    for x, v in zip(repro.inputs, spec.values, strict=True):
        literal = _tensor_code(v) if isinstance(v, TensorSpec) else repr(v)
        lines.append(f"{_INDENT * 2}{literal},  # {x.name}")
    lines += [
        f"{_INDENT}),",
        f"{_INDENT}carried={spec.carried!r},",
        f"{_INDENT}used={spec.used!r},",
        ")",
    ]
    return "\n".join(lines) + "\n"


def _tensor_code(t: TensorSpec) -> str:
    """`TensorSpec(shape, ...)` with only the fields that differ from their defaults."""
    fields = dataclasses.fields(t)
    args = [repr(t.shape)]
    args += [
        f"{f.name}={getattr(t, f.name)!r}" for f in fields[1:] if getattr(t, f.name) != f.default
    ]
    return f"TensorSpec({', '.join(args)})"


# ------------------------------------------------------------------------------ script


def render_standalone(repro: Repro) -> str:
    """The script of `repro` in torch's after-aot layout, runnable with only torch.

    Raises ReproError for an expression the code printer cannot write.
    """
    text = render(repro)
    torch_main = render_main(repro) + "\n"
    if not text.endswith(torch_main):
        raise RuntimeError("render() no longer ends with render_main(): update standalone")
    spec = input_spec(repro)
    header = (
        "# A self-contained repro written by symshrink: `python THIS.py` retraces it with its\n"
        "# SymInt relationships preserved and times Inductor's compile (needs only torch).\n"
        f"# `{TORCH_RUN_REPRO_FLAG}` runs torch's own run_repro; `--help` for more.\n"
    )
    main = (
        "if __name__ == '__main__':\n"
        "    import sys\n\n"
        "    import torch\n\n"
        f"    if {TORCH_RUN_REPRO_FLAG!r} in sys.argv[1:]:\n"
        "        # torch's replay: every SymInt becomes an independent symbol\n"
        f"        sys.argv.remove({TORCH_RUN_REPRO_FLAG!r})\n"
        + textwrap.indent(render_main(repro).split("\n", 1)[1], _INDENT)
        + "\n    else:\n"
        f"        {_ENTRY}sys.argv[1:], mod, RETRACE_INPUTS, globals()))\n"
    )
    banner = (
        "# " + "-" * 76 + "\n"
        "# symshrink's retrace runtime (symshrink/runtime.py, verbatim): needs only torch.\n"
    )
    parts = [header + text.removesuffix(torch_main), banner + _runtime_source()]
    return "\n\n".join([*parts, _spec_code(repro, spec), main])


def is_standalone(text: str) -> bool:
    """Was this script written by `render_standalone` (does `python SCRIPT` retrace it)?"""
    return _ENTRY in text or _OLD_ENTRY in text


def render_output(repro: Repro) -> str:
    """What minimize writes for the user: the standalone form, else torch's plain layout.

    A model with an expression the code printer cannot write still deserves a result.
    """
    try:
        return render_standalone(repro)
    except ReproError as e:
        log.warning("writing the plain after-aot form, not a standalone script: %s", e)
        return render(repro)

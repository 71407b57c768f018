"""symshrink: a minimizer and delta debugger for PyTorch symbolic-shape repros.

The Python API (`docs/api.md`): `capture`, `minimize` and `triage` return typed records
and raise `ReproError` for bad input, `UsageError` for a bad option (both are
`SymshrinkError`). No module of the package may take one of their names: importing it
would replace the function of that name on the package.
"""

from __future__ import annotations

import re

__version__ = "0.1.0"

# The first torch whose after-aot writer puts `expr=` on SymInts (pyproject's range too).
MIN_TORCH = (2, 13)


def installed_version(dist: str) -> str | None:
    """A distribution's installed version, read from its metadata: torch is never imported
    in symshrink's own process."""
    import importlib.metadata

    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def torch_too_old(version: str | None) -> bool:
    """Whether `version` (2.12.1, 2.14.0.dev20260101+cpu, ...) is older than MIN_TORCH: its
    repros have no expressions to preserve. An unknown or absent version is not."""
    match = re.match(r"(\d+)\.(\d+)", version or "")
    return match is not None and (int(match[1]), int(match[2])) < MIN_TORCH


from symshrink.api import capture, minimize, triage  # noqa: E402  (after what they import)
from symshrink.errors import (  # noqa: E402
    NotInteresting,
    ReproError,
    SymshrinkError,
    UsageError,
)

__all__ = [
    "MIN_TORCH",
    "NotInteresting",
    "ReproError",
    "SymshrinkError",
    "UsageError",
    "__version__",
    "capture",
    "installed_version",
    "minimize",
    "torch_too_old",
    "triage",
]

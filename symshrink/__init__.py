"""symshrink: a minimizer and delta debugger for PyTorch symbolic-shape repros."""

from __future__ import annotations

__version__ = "0.1.0"


def installed_version(dist: str) -> str | None:
    """A distribution's installed version, read from its metadata: torch is never imported
    in symshrink's own process."""
    import importlib.metadata

    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None

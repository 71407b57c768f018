"""User-facing errors: one line naming the file (and line), exit code 2, no traceback.

`ReproError` is bad input (a repro, a program, a record symshrink cannot read);
`UsageError` is a bad way of calling symshrink (an option's value, a command to run, a
path to write). Both are `SymshrinkError`, which the CLI prints on one line, exiting 2.
"""

from __future__ import annotations

from pathlib import Path


class SymshrinkError(Exception):
    """The CLI prints `str(error)` on one line and exits 2."""

    def __init__(self, message: str, path: str | Path | None = None, line: int | None = None):
        self.message = message
        self.path = str(path) if path is not None else None
        self.line = line
        super().__init__(self.__str__())

    def __str__(self) -> str:
        if self.path is None:
            return self.message
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: {self.message}"


class ReproError(SymshrinkError):
    """Bad input: a repro script, program or record that symshrink cannot read or use."""


class UsageError(SymshrinkError):
    """A bad way of calling symshrink: an option's value, a command, a path to write."""


class ExprError(ValueError):
    """An expression that does not parse or calls an unknown function."""


class NotInteresting(Exception):
    """The original does not show what we would minimize: not slow (exit code 1)."""

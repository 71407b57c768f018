"""`ast.parse`, one thread at a time.

CPython 3.11 keeps the AST constructor's recursion counter per interpreter, not per thread.
When a garbage collection during one thread's parse runs a finalizer, the GIL can pass to
another thread that parses too; the first then fails with `SystemError: AST constructor
recursion depth mismatch` (python/cpython#106905). No candidate's script is parsed back
(the oracle derives a control from the model), but the passes parse graph code
(`repro/source.py`, through `normalize`): with `-j N` the reducer's threads apply passes
and the oracle builds static twins (pinning normalizes too) in several threads at once.
At `-j 1` one thread parses (the spare slot's thread only runs a child), so the lock is
for `-j N`; every parse in symshrink goes through it.
"""

from __future__ import annotations

import ast
import threading

_LOCK = threading.Lock()


def parse_module(source: str, filename: str = "<unknown>") -> ast.Module:
    """`ast.parse(source, filename)`, never in two threads at once."""
    with _LOCK:
        return ast.parse(source, filename=filename)


def parse_expression(text: str) -> ast.Expression:
    """`ast.parse(text, mode="eval")`, never in two threads at once."""
    with _LOCK:
        return ast.parse(text, mode="eval")

"""Parsing from several threads at once (`-j N`, the oracle's spare slot)."""

from __future__ import annotations

import gc
import sys
import threading
from pathlib import Path

from symshrink.pyast import parse_expression, parse_module

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "sym_outer_n8.py"


class _Cycle:
    """Cyclic garbage with a finalizer: the collector runs Python code mid-parse, where
    the GIL can pass to another thread."""

    def __init__(self) -> None:
        self.me = self

    def __del__(self) -> None:
        sum(range(200))


def test_threads_parsing_while_finalizers_run_do_not_trip_cpythons_shared_ast_counter() -> None:
    """Plain `ast.parse` fails here within a few hundred parses on CPython 3.11 with
    `SystemError: AST constructor recursion depth mismatch` (python/cpython#106905)."""
    source = EXAMPLE.read_text()
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(300):
                for _ in range(50):
                    _Cycle()
                parse_module(source)
                parse_expression("((s0 + s1 + s2)//160) + 866")
        except Exception as e:
            errors.append(e)

    interval, threshold = sys.getswitchinterval(), gc.get_threshold()
    sys.setswitchinterval(1e-6)
    gc.set_threshold(100)
    try:
        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
        gc.set_threshold(*threshold)
    assert errors == []

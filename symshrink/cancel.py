"""Stopping one call whose answer is no longer wanted, from another thread.

The speculation (`speculate.py`) starts calls on guessed answers; once a guess turns out
wrong, the call it started holds a slot that a question on the right path needs. A call
runs its children deep below the search (oracle, controls, runner), so the search does not
hand it a handle: it runs the call inside a `Token`'s scope (a context variable), and what
starts a child asks `current()` for the token and registers how to stop that child. A
cancelled call ends by raising `Cancelled` (a BaseException, as asyncio's: an `except
Exception` that turns failures into verdicts must not turn a cancel into one), and nothing
it measured is kept. A call run outside any scope (-j 1, a command) is never cancelled.

Threads a call starts do not inherit context variables: it hands them `carried(fn)`.
"""

from __future__ import annotations

import contextlib
import contextvars
import threading
from collections.abc import Callable, Iterator
from itertools import count
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

__all__ = ["Cancelled", "Token", "carried", "current", "run_in"]


class Cancelled(BaseException):
    """The call's answer is no longer wanted: it stopped, and measured nothing."""


class Token:
    """One call's cancellation: set once, from any thread; `on_cancel` callbacks stop what
    the call has running (called at once if the token is set already)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._set = False
        self._stops: dict[int, Callable[[], object]] = {}
        self._ids = count()

    @property
    def cancelled(self) -> bool:
        return self._set

    def cancel(self) -> None:
        """Stop the call: every registered stop runs now, here, once."""
        with self._lock:
            if self._set:
                return
            self._set = True
            stops = list(self._stops.values())
        for stop in stops:
            stop()

    def check(self) -> None:
        """Raise `Cancelled` if the call was cancelled."""
        if self._set:
            raise Cancelled

    @contextlib.contextmanager
    def on_cancel(self, stop: Callable[[], object]) -> Iterator[None]:
        """Meanwhile, `stop()` is how a cancel stops what this block runs."""
        with self._lock:
            key = next(self._ids)
            self._stops[key] = stop
            already = self._set
        if already:
            stop()
        try:
            yield
        finally:
            with self._lock:
                del self._stops[key]


_current: contextvars.ContextVar[Token | None] = contextvars.ContextVar(
    "symshrink_cancel", default=None
)


def current() -> Token | None:
    """The token of the call this code runs in (None: it cannot be cancelled)."""
    return _current.get()


def run_in(token: Token, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """`fn(*args, **kwargs)` as one call that `token` cancels."""
    reset = _current.set(token)
    try:
        return fn(*args, **kwargs)
    finally:
        _current.reset(reset)


def carried(fn: Callable[P, R]) -> Callable[P, R]:
    """`fn` to run in another thread within this one's call (a run beside its control)."""
    token = current()
    if token is None:
        return fn

    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        return run_in(token, fn, *args, **kwargs)

    return call

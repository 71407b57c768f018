"""Speculative parallel minimization: with N slots, the calls of -j 1, N at a time.

A sequential minimizer (bisect-DD) picks each test from the answers before it, so its tests
cannot simply run side by side: a batch of independent candidates (ddmin's complements)
costs ~40 % more calls than bisect-DD, and many of its batches hold one candidate. Here,
while one test runs, the other slots run the tests that would come next if the running ones
gave their likelier answer, as C-Reduce and Shrink Ray do. Near a fixpoint most candidates
fail, so that is mostly "the next one if this fails". A right guess has the next answer
ready or on its way; a wrong one wasted a call, whose answer is kept in case the minimizer
asks it later.

The minimizer itself is not changed: it is replayed from the start on the answers known so
far (microseconds next to an oracle call), and the first test it asks whose answer is not
known is the next to start. So the decisions, and the result, are exactly those of the
sequential run for a deterministic test, whatever the timing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Hashable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from symshrink.search import AUTO, Refused, searcher

T = TypeVar("T", bound=Hashable)
Kept = tuple[T, ...]

log = logging.getLogger(__name__)

GUESS_WINDOW = 3
"""Answers come in runs (a pass at its fixpoint fails throughout, bisection deletes clean
halves in a row): on the planted reductions of benchmarks/parallel.py the majority of the
last 3 answers used was faster than always False, the last answer alone, the majority of
the search's answers or of the last 5 (docs/benchmarks.md)."""

__all__ = ["Speculation", "speculate"]


class _Unknown(Exception):
    """Stops a replay at the first test whose answer is neither known nor on its way."""

    def __init__(self, kept: tuple, guessed: bool) -> None:
        super().__init__()
        self.kept = kept
        self.guessed = guessed  # reached only by guessing the answer of a running test


@dataclass
class Speculation(Generic[T]):
    """One speculative run: what is known, what runs, what the minimizer has consumed.

    `calls` counts tests started (each subset once), `used` the answers the minimizer
    consumed: the calls the sequential run makes. `calls - used` were wasted on wrong
    guesses. `history` holds the answers used, in order; pass one list to every search of
    a run, so that a search's first guesses learn from the searches before it.
    `on_result(kept, answer)` and `on_answer`: see `speculate`; `classes` as in
    `search.minimize`.
    """

    test: Callable[[Kept[T]], bool]
    jobs: int
    strategy: str = AUTO
    on_answer: Callable[[Kept[T], bool], None] | None = None
    on_result: Callable[[Kept[T], bool], None] | None = None
    history: list[bool] = field(default_factory=list)
    calls: int = 0
    used: int = 0
    classes: Sequence[Sequence[T]] = ()
    sweep: bool = True
    refused: Refused[T] | None = None

    def __post_init__(self) -> None:
        if self.jobs < 1:
            raise ValueError(f"jobs must be at least 1, got {self.jobs}")
        self._minimizer = searcher(
            self.strategy, self.classes, sweep=self.sweep, refused=self.refused
        )
        self._answers: dict[frozenset[T], bool] = {}
        self._running: dict[frozenset[T], tuple[Kept[T], Future[bool]]] = {}
        self._consumed: set[frozenset[T]] = set()

    def guess(self) -> bool:
        """The likelier answer of a running test: the majority of the last GUESS_WINDOW
        answers used, False on a tie or with none (near a fixpoint most candidates fail)."""
        recent = self.history[-GUESS_WINDOW:]
        return 2 * sum(recent) > len(recent)

    def _replay(self, items: Kept[T]) -> tuple[Kept[T], bool]:
        """The minimizer run on known answers and guesses; raises `_Unknown` where it needs
        a new test. Also whether it guessed (its result is then not yet the answer)."""
        guessed = False

        def answer(kept: Kept[T]) -> bool:
            nonlocal guessed
            key = frozenset(kept)
            known = self._answers.get(key)
            if known is not None:
                if not guessed and key not in self._consumed:
                    self._consumed.add(key)
                    self.used += 1
                    self.history.append(known)
                    if self.on_answer is not None:
                        self.on_answer(tuple(kept), known)
                return known
            if key in self._running:
                guessed = True
                return self.guess()
            raise _Unknown(tuple(kept), guessed)

        return self._minimizer(items, answer), guessed

    def run(self, items: Iterable[T]) -> Kept[T]:
        """The sequential minimizer's result, with up to `jobs` tests running at once."""
        frozen = tuple(items)
        with ThreadPoolExecutor(max_workers=self.jobs, thread_name_prefix="speculate") as pool:
            result = self._drive(frozen, pool)
            while self._running:  # wrong guesses still running: their answers may serve later
                self._collect()
        log.debug("%d calls, %d used", self.calls, self.used)
        return result

    def _drive(self, items: Kept[T], pool: ThreadPoolExecutor) -> Kept[T]:
        while True:
            try:
                result, guessed = self._replay(items)
                if not guessed:
                    return result
            except _Unknown as ask:
                # The test the sequential run makes next always gets a slot: it is asked
                # first, and the one before it freed a slot by ending.
                assert ask.guessed or len(self._running) < self.jobs
                if len(self._running) < self.jobs:
                    future = pool.submit(self.test, ask.kept)
                    self._running[frozenset(ask.kept)] = (ask.kept, future)
                    self.calls += 1
                    continue
            self._collect()

    def _collect(self) -> None:
        """Wait for at least one running test; record what ended (its exception propagates)."""
        done, _ = wait([f for _, f in self._running.values()], return_when=FIRST_COMPLETED)
        for key, (kept, future) in list(self._running.items()):
            if future in done:
                del self._running[key]
                answer = self._answers[key] = bool(future.result())
                if self.on_result is not None:
                    self.on_result(kept, answer)


def speculate(
    items: Iterable[T],
    test: Callable[[Kept[T]], bool],
    jobs: int,
    *,
    strategy: str = AUTO,
    on_answer: Callable[[Kept[T], bool], None] | None = None,
    on_result: Callable[[Kept[T], bool], None] | None = None,
    history: list[bool] | None = None,
    classes: Sequence[Sequence[T]] = (),
    sweep: bool = True,
    refused: Refused[T] | None = None,
) -> Kept[T]:
    """`search.minimize(items, test, strategy, classes, sweep=, refused=)` with up to `jobs`
    calls of `test` at once (from worker threads: `test` must be thread-safe).

    Called in this thread: `on_result(kept, answer)` for each test that ended, in the order
    they end, until the run stops (an exception, an interrupt: a test still running then
    may have been killed, so persist answers here, not in `test`); `on_answer(kept,
    answer)` for each answer the minimizer uses, in the order a sequential run gets them
    (accept results there: `test` also sees the speculative candidates). `history`: see
    `Speculation`.
    """
    answers = history if history is not None else []
    run = Speculation(
        test,
        jobs,
        strategy,
        on_answer,
        on_result,
        answers,
        classes=classes,
        sweep=sweep,
        refused=refused,
    )
    return run.run(items)

"""Speculative parallel reduction: with N slots, the calls of -j 1, N at a time.

A sequential minimizer (bisect-DD) picks each test from the answers before it, so its tests
cannot simply run side by side: a batch of independent candidates (ddmin's complements)
costs ~40 % more calls than bisect-DD, and many of its batches hold one candidate. Here,
while one test runs, the other slots run the tests the sequential run is likeliest to ask
next. C-Reduce and Shrink Ray follow the likelier answer of each running test; here each
answer has a chance (read from the last answers used), a path of guesses the product of
its guesses' chances, and the questions at the end of the likeliest paths start first: the
path of the likelier answers, then the other answer of a running test where it is close (a
bisection's two halves, say). Near a fixpoint most candidates fail, so that is mostly "the
next one if this fails". A right guess has the next answer ready or on its way; a wrong
one holds a slot until it ends, so a question that finds every slot taken takes the slot of
a running test started on a guess the answers have since contradicted, and that test is
cancelled (`symshrink.cancel`); so are the tests still running when the program ends. An
answer that did come in is kept in case the program asks it later.

The program (one search, or a whole reduction: pass after pass, each a search) is not
changed: it is replayed from the start on the answers known so far (microseconds next to
an oracle call, when the program keeps what costs, such as the candidates it built, across
replays), and the first question it asks whose answer is not known is the next to start.
A replay runs on through guessed answers past the end of one search into the next: near a
fixpoint most passes change nothing, so the next pass's first calls run on the same model
while this one's last ones do. What the program does besides asking (progress, counts,
logs) it hands to `once`, which does it when the sequential run gets there, and only then.
So the decisions, and the result, are exactly those of the sequential run for a
deterministic test, whatever the timing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Hashable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from heapq import heappop, heappush
from itertools import count
from typing import Generic, Protocol, TypeVar, cast

from symshrink.cancel import Token, run_in
from symshrink.search import AUTO, CountingPredicate, Refused, searcher

T = TypeVar("T", bound=Hashable)
Q = TypeVar("Q")
Q_contra = TypeVar("Q_contra", contravariant=True)
R = TypeVar("R")
Kept = tuple[T, ...]
Basis = tuple[tuple[Hashable, bool], ...]  # guesses a path took: (running test, answer)

log = logging.getLogger(__name__)

GUESS_WINDOW = 5
"""Answers come in runs (a pass at its fixpoint fails throughout, bisection deletes clean
halves in a row), so the last few answers used say what comes next. On the two recorded
reductions of docs/benchmarks.md ("Width on a simulated cluster"), replayed at W = 8 in
virtual time, the last 5 missed fewer guesses and ended sooner than the last 1, 2 or 3
(the README example: 0.36x W = 1's wall against 0.38x with 3; the seed: 0.30x against
0.31x) and as soon as the last 8."""

REPLAYS = 2
"""Replays per free slot at most, each time a test ends: a replay finds about one question
to start, and near the end of a run the paths left may be many and all end in running
tests (on the recordings of docs/benchmarks.md, 1 or 100 made no difference at W = 8)."""

__all__ = ["Asker", "Sequential", "Speculation", "searching", "speculate"]


class Asker(Protocol[Q_contra]):
    """What a program asks its questions through, one at a time or speculatively."""

    def ask(self, question: Q_contra) -> bool:
        """The test's answer to `question`."""
        ...

    def once(self, effect: Callable[[], object]) -> None:
        """Do `effect` where the sequential run does it, once (a replay may pass by again)."""
        ...

    def part(self, key: Hashable, run: Callable[[], R]) -> R:
        """`run()`, a part of the program named by `key` that asks through this asker and
        always ends the same once its answers are known: when it has ended on the
        sequential path, later replays take its result without running it again."""
        ...


Program = Callable[[Asker[Q]], R]


@dataclass
class Sequential(Generic[Q]):
    """The questions asked one at a time, in this thread (-j 1): `on_result` then
    `on_answer` after each test, as `Speculation` calls them."""

    test: Callable[[Q], bool]
    on_result: Callable[[Q, bool], None]
    on_answer: Callable[[Q, bool], None]

    def ask(self, question: Q) -> bool:
        answer = bool(self.test(question))
        self.on_result(question, answer)
        self.on_answer(question, answer)
        return answer

    def once(self, effect: Callable[[], object]) -> None:
        effect()

    def part(self, key: Hashable, run: Callable[[], R]) -> R:
        return run()


class _Unknown(Exception):
    """Stops a replay at the first question whose answer is neither known nor on its way."""

    def __init__(self, question: object) -> None:
        super().__init__()
        self.question = question


class _Replay(Generic[Q]):
    """One replay of the program: answers known, running ones guessed, the rest unknown.

    The first `len(forced)` guesses are `forced`, the others the likelier answer; `guesses`
    holds them all, in order, and `chance` how likely the sequential run is to take the
    path they make. Its events (questions and `once` effects) before the first guess are
    the sequential run's, in its order: the i-th is new the first time a replay reaches it.
    """

    def __init__(self, run: Speculation[Q], forced: tuple[bool, ...], chance: float) -> None:
        self.run, self.forced, self.chance = run, forced, chance
        self.guesses: list[bool] = []
        self.guessed_keys: list[Hashable] = []  # the running test each guess is about
        self.others: list[float] = []  # for each guess not forced: the chance of the other path
        self.events = 0

    @property
    def guessed(self) -> bool:
        return bool(self.guesses)

    def _new(self) -> bool:
        """Whether the event reached is the sequential run's next, not done before."""
        new = not self.guessed and self.events == self.run.settled
        self.events += 1
        self.run.settled += new
        return new

    def ask(self, question: Q) -> bool:
        run = self.run
        key = run.key(question)
        known = run.answers.get(key)
        if known is not None:
            if self._new():
                run.used += 1
                run.history.append(known)
                run.on_answer(question, known)
            return known
        if key not in run.running:
            raise _Unknown(question)
        run.reached.add(key)
        yes = run.chance_true()
        if len(self.guesses) < len(self.forced):
            answer = self.forced[len(self.guesses)]
        else:
            answer = yes > 0.5
            self.others.append(self.chance * (1 - yes if answer else yes))
            self.chance *= yes if answer else 1 - yes
        self.guesses.append(answer)
        self.guessed_keys.append(key)
        return answer

    @property
    def basis(self) -> Basis:
        """The guesses this replay made: (running test, answer guessed), in order."""
        return tuple(zip(self.guessed_keys, self.guesses, strict=True))

    def once(self, effect: Callable[[], object]) -> None:
        if self._new():
            effect()

    def part(self, key: Hashable, run: Callable[[], R]) -> R:
        ended = self.run.parts.get(key)
        if ended is not None:
            self.events += ended[1]
            return cast(R, ended[0])
        start = self.events
        result = run()
        if not self.guessed:
            self.run.parts[key] = result, self.events - start
        return result


@dataclass(frozen=True)
class _Running(Generic[Q]):
    """A test started: its question, its future, its cancel token, and the guesses (running
    test, answer) that the path it was found on took."""

    question: Q
    future: Future[bool]
    token: Token
    basis: Basis


def _ignore(question: object, answer: bool) -> None:
    """No callback."""


@dataclass
class Speculation(Generic[Q]):
    """One speculative run of a program: what is known, what runs, what was used.

    `key(question)` names a question (questions with one key get one test). `calls` counts
    tests started (a key again after its test was cancelled), `cancelled` those cancelled,
    `used` the answers the program used on its sequential path: the questions the
    sequential run asks. `history` holds those answers in order. `on_result(question,
    answer)` and `on_answer`: see `speculate`. `test` runs in a `Token`'s scope: a test
    that stops its work on a cancel frees its slot sooner; one that does not finishes,
    unheard.
    """

    test: Callable[[Q], bool]
    jobs: int
    key: Callable[[Q], Hashable]
    on_answer: Callable[[Q, bool], None] = _ignore
    on_result: Callable[[Q, bool], None] = _ignore
    history: list[bool] = field(default_factory=list)
    calls: int = 0
    cancelled: int = 0
    used: int = 0
    settled: int = 0  # events of the sequential run done (answers used, effects done)

    def __post_init__(self) -> None:
        if self.jobs < 1:
            raise ValueError(f"jobs must be at least 1, got {self.jobs}")
        self.answers: dict[Hashable, bool] = {}
        self.running: dict[Hashable, _Running[Q]] = {}  # in start order
        self.reached: set[Hashable] = set()  # running tests this start's replays asked
        self.parts: dict[Hashable, tuple[object, int]] = {}  # ended on the sequential path

    def chance_true(self) -> float:
        """How likely a running test is to answer True: from the last GUESS_WINDOW answers
        used (Laplace's rule), 1/2 with none; the likelier answer is the majority's, False
        on a tie (near a fixpoint most candidates fail)."""
        recent = self.history[-GUESS_WINDOW:]
        return (sum(recent) + 1) / (len(recent) + 2)

    def run(self, program: Program[Q, R]) -> R:
        """The sequential program's result, with up to `jobs` tests running at once."""
        # Threads beyond the slots: a cancelled test's thread ends once its child has died.
        threads = 2 * self.jobs
        with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="speculate") as pool:
            while (ended := self._start(program, pool)) is None:
                self._collect()
            for key in list(self.running):  # wrong guesses: nothing will ask them now
                self._cancel(key)
        log.debug("%d calls, %d used, %d cancelled", self.calls, self.used, self.cancelled)
        return ended[0]

    def _start(self, program: Program[Q, R], pool: ThreadPoolExecutor) -> tuple[R] | None:
        """Start the questions the sequential run is likeliest to ask, likeliest first, while
        a slot is free; the program's result once it ends with no guess.

        Paths are explored best first: a replay follows the likelier answer of each running
        test, and the other answer of each is a path to explore later. The question the
        sequential run asks next comes first (it is sure), and gets a slot: the test
        before it freed one by ending. With every slot taken, a question found takes the
        slot of a test started on a guess that turned out wrong (`_victim`)."""
        paths: list[tuple[float, int, tuple[bool, ...] | None, Q | None, Basis]] = [
            (-1.0, 0, (), None, ())
        ]
        order = count(1)
        replays = 0
        self.reached = set()
        while paths and replays < REPLAYS * self.jobs:
            full = len(self.running) >= self.jobs
            victim = self._victim() if full else None
            if full and victim is None:
                break
            chance, _, forced, question, basis = heappop(paths)
            if forced is None:  # a question found on an explored path
                assert question is not None
                if self.key(question) not in self.running:
                    if victim is not None:
                        self._cancel(victim)
                    self._submit(question, basis, pool)
                continue
            replay = _Replay(self, forced, -chance)
            replays += 1
            try:
                result = program(replay)
                if not replay.guessed:
                    return (result,)
            except _Unknown as ask:
                found: Q = ask.question  # type: ignore[assignment]
                heappush(paths, (-replay.chance, next(order), None, found, replay.basis))
                # past it, the path goes on once it runs
                heappush(paths, (-replay.chance, next(order), tuple(replay.guesses), None, ()))
            for i, other in enumerate(replay.others, start=len(forced)):
                path = (*replay.guesses[:i], not replay.guesses[i])
                heappush(paths, (-other, next(order), path, None, ()))
        return None

    def _victim(self) -> Hashable | None:
        """The running test whose slot a question found now may take: one started on a
        guess that an answer has since contradicted, and that no replay of this start asked
        on another path, so the sequential run is not going to ask it (a test whose guesses
        still stand may be, however unlikely: cancelling it could mean running it again).
        Of those, the latest started: the least work lost."""
        for key in reversed(self.running):
            wrong = any(self.answers.get(k, g) != g for k, g in self.running[key].basis)
            if wrong and key not in self.reached:
                return key
        return None

    def _submit(self, question: Q, basis: Basis, pool: ThreadPoolExecutor) -> None:
        token = Token()
        future = pool.submit(run_in, token, self.test, question)
        self.running[key := self.key(question)] = _Running(question, future, token, basis)
        self.reached.add(key)
        self.calls += 1

    def _cancel(self, key: Hashable) -> None:
        """Stop a running test whose answer is not wanted; it is never collected (one that
        has ended meanwhile is, as any)."""
        if self.running[key].future.done():
            self._ended(key)
            return
        self.running.pop(key).token.cancel()
        self.cancelled += 1

    def _collect(self) -> None:
        """Wait for at least one running test; record what ended."""
        futures = [test.future for test in self.running.values()]
        done, _ = wait(futures, return_when=FIRST_COMPLETED)
        for key, test in list(self.running.items()):
            if test.future in done:
                self._ended(key)

    def _ended(self, key: Hashable) -> None:
        """Record the answer of a test that ended (its exception propagates)."""
        test = self.running.pop(key)
        answer = self.answers[key] = bool(test.future.result())
        self.on_result(test.question, answer)


def searching(
    items: Iterable[T],
    strategy: str = AUTO,
    classes: Sequence[Sequence[T]] = (),
    *,
    sweep: bool = True,
    refused: Refused[T] | None = None,
) -> Program[Kept[T], Kept[T]]:
    """`search.minimize(items, ..., strategy, classes, sweep=, refused=)` as a program whose
    questions are the kept tuples (each asked once, as `minimize` does)."""
    frozen = tuple(items)
    minimizer = searcher(strategy, classes, sweep=sweep, refused=refused)
    return lambda asker: minimizer(frozen, CountingPredicate(asker.ask))


def speculate(
    items: Iterable[T],
    test: Callable[[Kept[T]], bool],
    jobs: int,
    *,
    strategy: str = AUTO,
    on_answer: Callable[[Kept[T], bool], None] = _ignore,
    on_result: Callable[[Kept[T], bool], None] = _ignore,
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
    (accept results there: `test` also sees the speculative candidates).
    """
    program = searching(items, strategy, classes, sweep=sweep, refused=refused)
    run = Speculation(test, jobs, frozenset, on_answer, on_result)
    return run.run(program)

"""The reduction loop: rounds of passes to a fixpoint, every change kept only if still interesting.

The reducer knows nothing of torch: it asks a `test(candidate) -> bool | Verdict` (in
the CLI, the oracle) and minimizes, for each pass, the set of that pass's
edits left unapplied. Progress is deterministic, so a resumed run replays the same
decisions from its journal (the oracle's verdict cache, keyed by canonical form) and
repeats no test. Candidates that are not strictly smaller
are rejected before any test runs. Each candidate is built once (`Candidate.of`: the
model, its script and its key), so neither the journal nor the oracle renders or parses
it again.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from typing import Any

from symshrink import search
from symshrink.journal import Journal
from symshrink.passes import Pass, schedule
from symshrink.passes.common import normalize, size
from symshrink.repro.candidate import Candidate
from symshrink.repro.model import Repro
from symshrink.speculate import speculate
from symshrink.verdict import Verdict

log = logging.getLogger(__name__)

Test = Callable[[Candidate], "bool | Verdict"]


class BudgetExhausted(Exception):
    """The call or time budget ran out: the reducer stops with its best result."""


@dataclass
class Stats:
    oracle_calls: int = 0
    cache_hits: int = 0
    speculative_unused: int = 0  # calls on wrong guesses (-j N); may serve later, journaled
    accepted: int = 0
    rejected_not_smaller: int = 0
    seconds: float = 0.0
    per_pass: dict[str, dict[str, int]] = field(default_factory=dict)
    stopped_by: str | None = None  # budget that ended the run early, if any
    fixpoint: bool = False  # the last round changed nothing: 1-minimal for every pass
    best_ratio: float | None = None  # the best model's time over its control's (ratio verdicts)
    current_pass: str | None = None  # the pass whose candidates are being tested

    def as_dict(self) -> dict[str, object]:
        return dict(self.__dict__)


@dataclass
class Reducer:
    """Reduce a model with `passes` (in the order of the schedule) while `test` holds.

    `on_improve(repro)` is called after every accepted change (the CLI writes the best
    result so far to disk there), `on_call(stats, best)` after every test (progress).
    `max_calls` / `max_time` bound the oracle work; `best` is the smallest interesting
    model so far, also after an interrupt. With `jobs` > 1, `test` is called from up to
    `jobs` threads at once (`speculate`): the same decisions and result as with one.
    `tag` prefixes its journal keys: a test that asks another question of the same model
    (another limit) shares the journal without sharing answers.
    """

    test: Test
    passes: list[Pass[Any]] = field(default_factory=schedule)
    journal: Journal = field(default_factory=Journal)
    on_improve: Callable[[Repro], None] | None = None
    on_call: Callable[[Stats, Repro], None] | None = None
    max_calls: int | None = None
    max_time: float | None = None
    strategy: str = "auto"
    jobs: int = 1
    tag: str = ""
    stats: Stats = field(default_factory=Stats)
    best: Repro | None = field(default=None, init=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)
    _answers: list[bool] = field(default_factory=list, init=False, repr=False)  # speculation's
    # Models this run asked the test about, by key: with `jobs` > 1 two candidates can be
    # one model, asked at once or before the first verdict is journaled; judged once.
    _asked: dict[str, Future[Verdict]] = field(default_factory=dict, init=False, repr=False)
    _deadline: float | None = field(default=None, init=False, repr=False)  # of max_time

    def run(self, repro: Repro) -> Repro:
        """The smallest interesting model found; the input is assumed interesting, and so
        is its normalized form (`normalize`: inputs forward never reads cannot change the
        compile), which is the first best model (`on_improve`) when smaller, untested."""
        start = time.monotonic()
        self._deadline = start + self.max_time if self.max_time is not None else None
        self.best = current = repro
        normalized = normalize(repro)
        if normalized is not None and size(normalized) < size(repro):
            self.best = current = normalized
            if self.on_improve is not None:
                self.on_improve(normalized)
        self.stats.fixpoint = False  # a run again (from a re-verified model) proves it anew
        try:
            current = self._fixpoint(current)
            self.stats.fixpoint = True
        except BudgetExhausted as e:
            self.stats.stopped_by = str(e)
            current = self.best
        finally:
            self.stats.seconds = time.monotonic() - start
        return current

    def _fixpoint(self, current: Repro) -> Repro:
        """Rounds of the passes in schedule order until a round changes nothing; then the
        passes that cannot reopen others (shrinking hints), each to its own fixpoint.

        The first round runs each pass once: what it removes, it keeps, and what it finds
        needed is proved again by the next round on the model the later passes leave (a
        round that changed something is followed by another). Running a pass to its own
        fixpoint there would prove its survivors needed twice, once before the later
        passes' progress and once after it. The later rounds run each pass to its own
        fixpoint, and the last round, which changes nothing, tests every reopening pass on
        the model it ends with: the result is 1-minimal for each. After the first round
        most edits left are needed, so there `auto` searches one edit at a time (`greedy`:
        n calls to prove n edits needed, bisection n + 2)."""
        strategy, reopened = self.strategy, True
        first = True
        while reopened:
            reopened = False
            for p in (p for p in self.passes if p.reopens):
                if first:
                    improved = self._run_pass(p, current, strategy) or current
                else:
                    improved = self._exhaust(p, current, strategy)
                reopened |= improved is not current
                current = improved
            strategy, first = _later_rounds(self.strategy), False
        for p in (p for p in self.passes if not p.reopens):
            current = self._exhaust(p, current, self.strategy)
        return current

    def _exhaust(self, p: Pass[Any], current: Repro, strategy: str) -> Repro:
        """`p` run again and again on what it made, until it makes no progress."""
        while (improved := self._run_pass(p, current, strategy)) is not None:
            current = improved
        return current

    def _run_pass(self, p: Pass[Any], current: Repro, strategy: str) -> Repro | None:
        edits = p.edits(current)
        if not edits:
            return None
        counts = self.stats.per_pass.setdefault(p.name, {"calls": 0, "accepted": 0})
        self.stats.current_pass = p.name
        current_size = size(current)
        tested: dict[frozenset, tuple[Repro, Verdict]] = {}
        fresh: dict[frozenset, tuple[str, Verdict]] = {}  # judged, not journaled yet
        called: set[frozenset] = set()  # judged by the oracle in this pass
        used: set[frozenset] = set()  # ... answers the search used

        def candidate(kept: tuple, count: bool = True) -> Repro | bool:
            """The model with every edit not in `kept` applied, or the answer without a test."""
            kept_set = set(kept)
            chosen = [e for e in edits if e not in kept_set]
            if not chosen:
                return True
            model = p.apply(current, chosen)
            if model is None:
                return False
            if size(model) >= current_size:
                if count:
                    with self._lock:
                        self.stats.rejected_not_smaller += 1
                return False
            return model

        def refused(kept: tuple) -> bool:
            """The answer for `kept` is False without a test (the search may look ahead)."""
            return candidate(kept, count=False) is False

        def evaluate(kept: tuple) -> bool:
            """The answer for `kept` (in a worker thread with `jobs` > 1): no side effect but
            the call and the counts, since a speculative candidate may never be used."""
            model = candidate(kept)
            if not isinstance(model, Repro):
                return model
            built = Candidate.of(model)
            key = self.tag + built.key
            verdict = self._verdict(key, built)
            with self._lock:
                counts["calls"] += 1
                tested[frozenset(kept)] = (model, verdict)
                if not verdict.cached:
                    fresh[frozenset(kept)] = (key, verdict)
                    called.add(frozenset(kept))
            return verdict.interesting

        def record(kept: tuple, interesting: bool) -> None:
            """A test ended (in this thread): journal its verdict. Not called for the tests
            an interrupt cut short, which would otherwise be journaled as failures."""
            entry = fresh.pop(frozenset(kept), None)
            if entry is not None:
                self.journal.put(*entry)

        def accept(kept: tuple, interesting: bool) -> None:
            """Called in the order the search uses its answers, the same with any `jobs`."""
            entry = tested.get(frozenset(kept))
            if entry is not None:
                used.add(frozenset(kept))
                self._accept(*entry)

        classes = p.classes(current) if p.classes is not None else []
        # No sweep (`search.bisect_dd`): a pass that removed something is run again (by
        # `_exhaust` or the next round), and a run that removed nothing tested each removal.
        if self.jobs > 1:
            kept = speculate(
                edits,
                evaluate,
                self.jobs,
                strategy=strategy,
                classes=classes,
                on_result=record,
                on_answer=accept,
                history=self._answers,
                sweep=False,
                refused=refused,
            )
        else:

            def test(kept: tuple) -> bool:
                interesting = evaluate(kept)
                record(kept, interesting)
                accept(kept, interesting)
                return interesting

            kept = search.minimize(
                edits, test, strategy=strategy, classes=classes, sweep=False, refused=refused
            )
        self.stats.speculative_unused += len(called - used)
        if len(kept) == len(edits):
            return None
        result = candidate(kept)
        assert isinstance(result, Repro)
        counts["accepted"] += 1
        log.info(
            "%s: %d of %d edits, size %s", p.name, len(edits) - len(kept), len(edits), size(result)
        )
        return result

    def _verdict(self, key: str, candidate: Candidate) -> Verdict:
        """From the journal or this run's earlier ask of the same model (marked cached), or a
        test, budget permitting; thread-safe. With `jobs` > 1 a run may overshoot
        `max_calls` by fewer than `jobs` calls."""
        with self._lock:
            cached = self.journal.get(key)
            asked = None if cached is not None else self._asked.get(key)
            if cached is not None or asked is not None:
                self.stats.cache_hits += 1
            else:
                self._check_budget()
                self.stats.oracle_calls += 1
                mine: Future[Verdict] = Future()
                self._asked[key] = mine
        if cached is not None:
            return cached
        if asked is not None:  # judged, or being judged, for another search's candidate
            return replace(asked.result(), cached=True)
        try:
            answer = self.test(candidate)
        except BaseException as e:
            mine.set_exception(e)
            raise
        verdict = answer if isinstance(answer, Verdict) else _bool_verdict(answer)
        mine.set_result(verdict)
        return replace(verdict, cached=False)

    def _accept(self, model: Repro, verdict: Verdict) -> None:
        """A verdict the search used: a new best model if interesting and smaller; progress."""
        assert self.best is not None, "a verdict is used only inside run()"
        if verdict.interesting and size(model) < size(self.best):
            self.best = model
            self.stats.accepted += 1
            self.stats.best_ratio = verdict.ratio
            if self.on_improve is not None:
                self.on_improve(model)
        if self.on_call is not None:
            self.on_call(self.stats, self.best)

    def _check_budget(self) -> None:
        if self.max_calls is not None and self.stats.oracle_calls >= self.max_calls:
            raise BudgetExhausted(f"max_calls={self.max_calls}")
        if self._deadline is not None and time.monotonic() >= self._deadline:
            raise BudgetExhausted(f"max_time={self.max_time}")


def _later_rounds(strategy: str) -> str:
    """The search strategy of the rounds after the first: `auto` means `greedy` there."""
    return "greedy" if strategy == "auto" else strategy


def _bool_verdict(interesting: bool) -> Verdict:
    """A plain predicate's answer, in the form the journal stores."""
    return Verdict(status="slow" if interesting else "fast", interesting=interesting)

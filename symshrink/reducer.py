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
from dataclasses import dataclass, field, replace
from functools import partial
from operator import attrgetter
from typing import Any

from symshrink import search
from symshrink.journal import Journal
from symshrink.passes import Pass, schedule
from symshrink.passes.common import normalize, size
from symshrink.repro.candidate import Candidate
from symshrink.repro.model import Repro
from symshrink.speculate import Asker, Sequential, Speculation
from symshrink.verdict import Verdict

log = logging.getLogger(__name__)

Test = Callable[[Candidate], "bool | Verdict"]


class BudgetExhausted(Exception):
    """The call or time budget ran out: the reducer stops with its best result."""


@dataclass
class Stats:
    oracle_calls: int = 0
    cache_hits: int = 0
    speculative_unused: int = 0  # calls on wrong guesses (-j N): cancelled, or journaled
    speculative_cancelled: int = 0  # ... of them cancelled once they held a slot in vain
    accepted: int = 0
    rejected_not_smaller: int = 0
    seconds: float = 0.0
    per_pass: dict[str, dict[str, int]] = field(default_factory=dict)
    stopped_by: str | None = None  # budget that ended the run early, if any
    fixpoint: bool = False  # the last round changed nothing: 1-minimal for every reopening pass
    best_ratio: float | None = None  # the best model's time over its control's (ratio verdicts)
    current_pass: str | None = None  # the pass whose candidates are being tested

    def as_dict(self) -> dict[str, object]:
        return dict(self.__dict__)


class _PassRun:
    """One pass on one model: its edits, and each candidate built from them once (a
    speculative run replays the reduction from the start again and again)."""

    def __init__(
        self,
        p: Pass[Any],
        current: Repro,
        only: frozenset[Any] | None,
        refuses: Callable[[Repro], bool] | None = None,
    ) -> None:
        self.p, self.current, self.size, self.refuses = p, current, size(current), refuses
        self.edits = [e for e in p.edits(current) if only is None or e in only]
        classes = p.classes(current) if p.classes is not None and self.edits else []
        self.classes = [c for c in ([e for e in c if e in self.edits] for c in classes) if c]
        self._models: dict[frozenset, tuple[Repro | None, bool]] = {}
        self._known_no: dict[frozenset, bool] = {}
        self._candidates: dict[frozenset, Candidate] = {}

    def model(self, kept: tuple) -> tuple[Repro | None, bool]:
        """The model with every edit not in `kept` made (None if the pass cannot make it),
        and whether it is smaller than the current one."""
        key = frozenset(kept)
        if key not in self._models:
            model = self.p.apply(self.current, [e for e in self.edits if e not in key])
            self._models[key] = model, model is not None and size(model) < self.size
        return self._models[key]

    def known_no(self, kept: tuple) -> bool:
        """The test is known to answer no for the (smaller) model of `kept` (`refuses`)."""
        key = frozenset(kept)
        if key not in self._known_no:
            model = self.model(kept)[0]
            self._known_no[key] = bool(self.refuses and model is not None and self.refuses(model))
        return self._known_no[key]

    def refused(self, kept: tuple) -> bool:
        """The answer for `kept` is False without a test (the search may look ahead)."""
        return not self.model(kept)[1] or self.known_no(kept)

    def candidate(self, kept: tuple) -> Candidate:
        """The smaller model for `kept`, ready to judge."""
        key = frozenset(kept)
        if key not in self._candidates:
            model = self.model(kept)[0]
            assert model is not None
            self._candidates[key] = Candidate.of(model)
        return self._candidates[key]


@dataclass
class Reducer:
    """Reduce a model with `passes` (in the order of the schedule) while `test` holds.

    `on_improve(repro)` is called after every accepted change (the CLI writes the best
    result so far to disk there), `on_call(stats, best)` after every test (progress).
    `rounds` caps the rounds of the reopening passes (None: to their fixpoint; 1: each
    once, for a stage whose result a later stage proves). `max_calls` / `max_time` bound
    the oracle work; `best` is the smallest interesting
    model so far, also after an interrupt. With `jobs` > 1, `test` is called from up to
    `jobs` threads at once (`Speculation`): the same decisions and result as with one.
    `tag` prefixes its journal keys: a test that asks another question of the same model
    (another limit) shares the journal without sharing answers. `refuses(model)` names the
    models the test answers no for without a call (the oracle's: in ratio mode, a model with
    no symbol left is its own static twin): refused like a model that is not smaller.
    `symmetric`: the test cannot tell alike symbols apart (`search.by_classes`).
    """

    test: Test
    refuses: Callable[[Repro], bool] | None = None
    passes: list[Pass[Any]] = field(default_factory=schedule)
    journal: Journal = field(default_factory=Journal)
    on_improve: Callable[[Repro], None] | None = None
    on_call: Callable[[Stats, Repro], None] | None = None
    max_calls: int | None = None
    max_time: float | None = None
    strategy: str = "auto"
    rounds: int | None = None
    jobs: int = 1
    tag: str = ""
    symmetric: bool = False
    stats: Stats = field(default_factory=Stats)
    best: Repro | None = field(default=None, init=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)
    # This run's verdicts by model key, for the thread that journals and uses them.
    _verdicts: dict[str, Verdict] = field(default_factory=dict, init=False, repr=False)
    # With `jobs` > 1, this run's pass runs by (pass, id of the model), with the candidates
    # each built, for the replays of the speculation; each holds its model, so ids stay.
    _runs: dict[tuple[str, int, frozenset[Any] | None], _PassRun] = field(
        default_factory=dict, init=False, repr=False
    )
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
            current = self._reduce(current)
            self.stats.fixpoint = self.rounds is None  # capped rounds prove nothing
        except BudgetExhausted as e:
            self.stats.stopped_by = str(e)
            current = self.best
        finally:
            self.stats.seconds = time.monotonic() - start
        return current

    def _reduce(self, start: Repro) -> Repro:
        """`_fixpoint` from `start`, its questions asked one at a time, or with `jobs` > 1
        up to `jobs` at once: the whole reduction replayed by `Speculation`, which guesses
        on from one pass into the next."""
        self._runs, self._verdicts = {}, {}
        called: set[str] = set()  # models judged by the oracle in this run
        used: set[str] = set()  # ... whose answers the reduction used
        program = partial(self._fixpoint, start)
        record = partial(self._record, called)
        accept = partial(self._accept, used)
        run = None
        try:
            if self.jobs == 1:
                return program(Sequential(self._evaluate, record, accept))
            run = Speculation(self._evaluate, self.jobs, attrgetter("key"), accept, record)
            return run.run(program)
        finally:
            cancelled = run.cancelled if run is not None else 0
            self.stats.speculative_unused += len(called - used) + cancelled
            self.stats.speculative_cancelled += cancelled
            self._runs, self._verdicts = {}, {}

    def _fixpoint(self, current: Repro, asker: Asker[Candidate]) -> Repro:
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
        n calls to prove n edits needed, bisection n + 2). A pass that waits for the second
        round (`Pass.later`) skips the first, which is then followed by another whatever it
        changed."""
        strategy, reopened = self.strategy, True
        first, done = True, 0
        while reopened and (self.rounds is None or done < self.rounds):
            done += 1
            reopened = False
            for p in (p for p in self.passes if p.reopens):
                if first and p.later and self.rounds != 1:
                    reopened = True  # it runs in the next round, with every other pass
                    continue
                if first:
                    made = self._run_pass(p, current, strategy, asker)
                    improved = current if made is None else made[0]
                else:
                    improved = self._exhaust(p, current, strategy, asker)
                reopened |= improved is not current
                current = improved
            strategy, first = _later_rounds(self.strategy), False
        for p in (p for p in self.passes if not p.reopens):
            current = self._exhaust(p, current, p.search or self.strategy, asker)
        return current

    def _exhaust(
        self, p: Pass[Any], current: Repro, strategy: str, asker: Asker[Candidate]
    ) -> Repro:
        """`p` run again and again on what it made, until it makes no progress.

        A pass that cannot reopen the others (shrinking hints) tries again only the edits
        its last run made: one it found needed is not asked again after another's progress.
        Halving every hint again after each that halved cost the 64-symbol seed 66 calls
        for 9 halvings (docs/benchmarks.md); this way each hint is proved needed once."""
        only: frozenset[Any] | None = None
        while (made := self._run_pass(p, current, strategy, asker, only)) is not None:
            current, applied = made
            only = None if p.reopens else applied
        return current

    def _run_pass(
        self,
        p: Pass[Any],
        current: Repro,
        strategy: str,
        asker: Asker[Candidate],
        only: frozenset[Any] | None = None,
    ) -> tuple[Repro, frozenset[Any]] | None:
        """`p`'s search on `current` over its edits (those in `only`, if given): the smaller
        model it made and the edits it made there, or None."""
        key = (p.name, id(current), only)
        run = self._runs.get(key) or _PassRun(p, current, only, self.refuses)
        if self.jobs > 1:  # the replays come back to it (one run at -j 1 keeps nothing)
            self._runs[key] = run
        search_ = partial(self._search, run, strategy, asker)
        return asker.part((*key, strategy), search_) if run.edits else None

    def _search(
        self, run: _PassRun, strategy: str, asker: Asker[Candidate]
    ) -> tuple[Repro, frozenset[Any]] | None:
        asker.once(partial(self._started, run.p.name))

        def test(kept: tuple) -> bool:
            model, smaller = run.model(kept)
            if model is None:
                return False
            if not smaller:
                asker.once(self._not_smaller)
                return False
            if run.known_no(kept):
                return False
            return asker.ask(run.candidate(kept))

        # No sweep (`search.bisect_dd`): a pass that removed something is run again (by
        # `_exhaust` or the next round), and a run that removed nothing tested each removal.
        kept = search.minimize(
            run.edits,
            test,
            strategy,
            run.classes,
            sweep=False,
            refused=run.refused,
            symmetric=self.symmetric,
        )
        if len(kept) == len(run.edits):
            return None
        result = run.candidate(kept).repro
        removed = len(run.edits) - len(kept)
        asker.once(partial(self._progressed, run.p.name, removed, len(run.edits), result))
        return result, frozenset(run.edits) - frozenset(kept)

    def _started(self, name: str) -> None:
        """A pass starts its search (in the sequential run's order)."""
        self.stats.per_pass.setdefault(name, {"calls": 0, "accepted": 0})
        self.stats.current_pass = name

    def _not_smaller(self) -> None:
        self.stats.rejected_not_smaller += 1

    def _progressed(self, name: str, removed: int, edits: int, result: Repro) -> None:
        """A pass's search removed something (in the sequential run's order)."""
        log.info("%s: %d of %d edits, size %s", name, removed, edits, size(result))

    def _evaluate(self, candidate: Candidate) -> bool:
        """The answer for `candidate` (in a worker thread with `jobs` > 1): no side effect
        but the call and the counts, since a speculative candidate may never be used."""
        key = self.tag + candidate.key
        verdict = self._verdict(key)
        if verdict is None:
            answer = self.test(candidate)
            judged = answer if isinstance(answer, Verdict) else _bool_verdict(answer)
            verdict = replace(judged, cached=False)
        with self._lock:
            self._verdicts[candidate.key] = verdict
        return verdict.interesting

    def _record(self, called: set[str], candidate: Candidate, interesting: bool) -> None:
        """A test ended (in this thread): journal its verdict. Not called for the tests an
        interrupt cut short, which would otherwise be journaled as failures, nor for those
        the speculation cancelled."""
        verdict = self._verdicts[candidate.key]
        if not verdict.cached:
            called.add(candidate.key)
            self.journal.put(self.tag + candidate.key, verdict)

    def _accept(self, used: set[str], candidate: Candidate, interesting: bool) -> None:
        """An answer the reduction used, in the order it uses them, the same with any `jobs`:
        a new best model if interesting and smaller; progress."""
        assert self.best is not None and self.stats.current_pass is not None
        used.add(candidate.key)
        self.stats.per_pass[self.stats.current_pass]["calls"] += 1
        verdict = self._verdicts[candidate.key]
        if verdict.interesting and size(candidate.repro) < size(self.best):
            self.best = candidate.repro
            self.stats.accepted += 1  # and the pass's: a search cut short keeps what it took
            self.stats.per_pass[self.stats.current_pass]["accepted"] += 1
            self.stats.best_ratio = verdict.ratio
            if self.on_improve is not None:
                self.on_improve(candidate.repro)
        if self.on_call is not None:
            self.on_call(self.stats, self.best)

    def _verdict(self, key: str) -> Verdict | None:
        """The journal's verdict (marked cached), else None once a call is counted, budget
        permitting; thread-safe. With `jobs` > 1 a run may overshoot `max_calls` by fewer
        than `jobs` calls."""
        with self._lock:
            cached = self.journal.get(key)
            if cached is not None:
                self.stats.cache_hits += 1
                return cached
            self._check_budget()
            self.stats.oracle_calls += 1
            return None

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

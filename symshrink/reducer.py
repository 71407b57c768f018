"""The reduction loop: passes in tiers to a fixpoint, every change kept only if still interesting.

The reducer knows nothing of torch: it asks a `test(repro) -> bool | Verdict` (in the
CLI, the oracle behind a script renderer) and minimizes, for each pass, the set of that pass's
edits left unapplied. Progress is deterministic, so a resumed run replays the same
decisions from its journal (the oracle's verdict cache, keyed by canonical form) and
repeats no test. Candidates that are not strictly smaller
are rejected before any test runs.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from symshrink import search
from symshrink.oracle.cache import Cache
from symshrink.oracle.verdict import Verdict
from symshrink.passes import Pass, all_passes
from symshrink.passes.common import size
from symshrink.repro.model import Repro
from symshrink.repro.render import canonical_key

log = logging.getLogger(__name__)

Test = Callable[[Repro], "bool | Verdict"]


class BudgetExhausted(Exception):
    """The call or time budget ran out: the reducer stops with its best result."""


@dataclass
class Stats:
    oracle_calls: int = 0
    cache_hits: int = 0
    accepted: int = 0
    rejected_not_smaller: int = 0
    seconds: float = 0.0
    per_pass: dict[str, dict[str, int]] = field(default_factory=dict)
    stopped_by: str | None = None  # budget that ended the run early, if any
    fixpoint: bool = False  # the last round changed nothing: 1-minimal for every pass

    def as_dict(self) -> dict[str, object]:
        return dict(self.__dict__)


@dataclass
class Reducer:
    """Reduce a model with `passes` while `test` holds.

    `on_improve(repro)` is called after every accepted change (the CLI writes the best
    result so far to disk there). `max_calls` / `max_time` bound the oracle work.
    """

    test: Test
    passes: list[Pass] = field(default_factory=all_passes)
    journal: Cache = field(default_factory=Cache)
    on_improve: Callable[[Repro], None] | None = None
    on_call: Callable[[Stats, Repro], None] | None = None
    max_calls: int | None = None
    max_time: float | None = None
    strategy: str = "auto"
    stats: Stats = field(default_factory=Stats)

    def run(self, repro: Repro) -> Repro:
        """The smallest interesting model found; the input is assumed interesting."""
        start = time.monotonic()
        self._deadline = start + self.max_time if self.max_time is not None else None
        current = repro
        try:
            current = self._fixpoint(current)
            self.stats.fixpoint = True
        except BudgetExhausted as e:
            self.stats.stopped_by = str(e)
            current = self._best
        finally:
            self.stats.seconds = time.monotonic() - start
        return current

    def _fixpoint(self, current: Repro) -> Repro:
        """Each pass to its own fixpoint, tier by tier; reopening progress restarts at tier 0."""
        self._best = current
        tiers = sorted({p.tier for p in self.passes})
        level = 0
        while level < len(tiers):
            reopened = False
            for p in (p for p in self.passes if p.tier == tiers[level]):
                while (improved := self._run_pass(p, current)) is not None:
                    current = improved
                    reopened |= p.reopens
            level = 0 if reopened and level > 0 else level + 1
        return current

    def _run_pass(self, p: Pass, current: Repro) -> Repro | None:
        edits = p.edits(current)
        if not edits:
            return None
        counts = self.stats.per_pass.setdefault(p.name, {"calls": 0, "accepted": 0})
        current_size = size(current)

        def still_interesting(kept: tuple) -> bool:
            kept_set = set(kept)
            chosen = [e for e in edits if e not in kept_set]
            if not chosen:
                return True
            candidate = p.apply(current, chosen)
            if candidate is None:
                return False
            if size(candidate) >= current_size:
                self.stats.rejected_not_smaller += 1
                return False
            counts["calls"] += 1
            return self.is_interesting(candidate)

        kept = search.minimize(edits, still_interesting, strategy=self.strategy)
        if len(kept) == len(edits):
            return None
        kept_set = set(kept)
        result = p.apply(current, [e for e in edits if e not in kept_set])
        assert result is not None
        counts["accepted"] += 1
        log.info(
            "%s: %d of %d edits applied, size %s",
            p.name,
            len(edits) - len(kept),
            len(edits),
            size(result),
        )
        return result

    def is_interesting(self, candidate: Repro) -> bool:
        """The test, through the journal; accepting a new best model as a side effect."""
        key = canonical_key(candidate)
        verdict = self.journal.get(key)
        if verdict is not None:
            self.stats.cache_hits += 1
        else:
            self._check_budget()
            self.stats.oracle_calls += 1
            answer = self.test(candidate)
            verdict = answer if isinstance(answer, Verdict) else _bool_verdict(answer)
            self.journal.put(key, verdict)
        if self.on_call is not None:
            self.on_call(self.stats, candidate)
        if verdict.interesting and size(candidate) < size(self._best):
            self._best = candidate
            self.stats.accepted += 1
            if self.on_improve is not None:
                self.on_improve(candidate)
        return verdict.interesting

    def _check_budget(self) -> None:
        if self.max_calls is not None and self.stats.oracle_calls >= self.max_calls:
            raise BudgetExhausted(f"max_calls={self.max_calls}")
        if self._deadline is not None and time.monotonic() >= self._deadline:
            raise BudgetExhausted(f"max_time={self.max_time}")


def reduce(repro: Repro, test: Test, **options: object) -> tuple[Repro, Stats]:
    """Convenience: run a Reducer built from `options`; return the result and its stats."""
    reducer = Reducer(test=test, **options)  # type: ignore[arg-type]
    return reducer.run(repro), reducer.stats


def _bool_verdict(interesting: bool) -> Verdict:
    """A plain predicate's answer, in the form the journal stores."""
    return Verdict(status="slow" if interesting else "fast", interesting=interesting)

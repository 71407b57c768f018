"""List minimizers over a predicate: which items (symbols to pin, terms, inputs) can go.

Contract shared by every minimizer: ``items`` are distinct and hashable; ``test(kept)`` says
whether keeping only ``kept`` (a subsequence of ``items``, in input order) is still
interesting; the full list is assumed interesting and is never tested. The result is the
last kept tuple that tested True (or the input), so it always satisfies ``test``.

One oracle call can be a compile of minutes, so the measure of a minimizer is its number
of distinct calls. Wrap the predicate in :class:`CountingPredicate` to count them and to
answer repeats from a memo; :func:`minimize` does that for you.

Strategies, measured on the planted suite (needed set K of k random items among n, for
n in 16/64/256 and k in 1/3/5; totals over n >= 64; ``benchmarks/search_calls.py``
prints the tables, ``tests/test_search.py`` asserts the claims):

- ``ddmin`` — Zeller's ddmin, complements first; the baseline.
- ``probdd`` — ProbDD (Wang et al., FSE 2021), faithful, plus a 1-minimality sweep:
  0.59x ddmin's calls. Its fixed prior p0 makes it remove ~1/p0 items per try whatever
  n and k are (2.4x ddmin at k = 1, n = 256), and a failed try only re-weights.
- ``bisect`` — ProbDD's expected-gain rule with p estimated from the run itself, each
  failed group bisected down to one needed item (the clean halves are deleted on the
  way), a successor probe while needed items come in runs, and group growth after
  successes: 0.40x ddmin's calls (0.32x to 0.45x for k >= 3). At k = 1 it stays at
  0.9x: ddmin is already within a few calls of the log2(n) information bound there.
- ``greedy`` — adaptive block deletion (Hypothesis / Shrink Ray): 0.58x; best when
  nearly every item is needed, up to 2x bisect's calls when few are.

``coarse`` (:data:`PREPARING`, not one of them) is bisect-DD keeping small failed groups
whole: not 1-minimal, for a stage whose proofs a later stage makes.

``auto`` picks ``bisect``: the fewest calls on sparse, clustered and threshold
predicates, and within ~10% of ``greedy`` when most items are needed.

Every strategy is sequential; :mod:`symshrink.speculate` runs any of them with N calls at
once and the same result.

Interchangeable items (``classes``: free symbols that occur alike, where only how many go
matters) are cut by count first (:func:`by_classes`): log2(n) + 3 calls for a class of n,
where bisect-DD proves each survivor needed on its own.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Hashable, Iterable, Sequence
from functools import partial
from typing import Generic, TypeVar

T = TypeVar("T", bound=Hashable)
Predicate = Callable[[tuple[T, ...]], bool]
Refused = Callable[[tuple[T, ...]], bool]
"""Whether the test is known to answer False for ``kept`` without a call (optional)."""

log = logging.getLogger(__name__)

__all__ = [
    "STRATEGIES",
    "CountingPredicate",
    "bisect_dd",
    "by_classes",
    "coarse_dd",
    "ddmin",
    "find_integer",
    "greedy_chunks",
    "minimize",
    "probdd",
    "searcher",
    "strategy_named",
]


class CountingPredicate(Generic[T]):
    """Count real oracle calls and answer repeated subsets from a memo.

    The memo key is ``frozenset(kept)``: for distinct items, kept tuples are always in
    input order, so the set names the candidate.
    """

    def __init__(self, test: Predicate[T]) -> None:
        self._test = test
        self._memo: dict[frozenset[T], bool] = {}
        self.calls = 0
        self.cache_hits = 0

    def __call__(self, kept: tuple[T, ...]) -> bool:
        key = frozenset(kept)
        cached = self._memo.get(key)
        if cached is not None:
            self.cache_hits += 1
            return cached
        self.calls += 1
        verdict = bool(self._test(tuple(kept)))
        self._memo[key] = verdict
        return verdict


def _distinct(items: Iterable[T]) -> tuple[T, ...]:
    """Freeze ``items``; duplicates would make kept-sets ambiguous, so refuse them."""
    frozen = tuple(items)
    if len(set(frozen)) != len(frozen):
        raise ValueError("items must be distinct: the predicate memo is keyed by sets")
    return frozen


class _KeptList(Generic[T]):
    """The current kept list plus what is known about it.

    ``version`` counts successful removals; ``_needed_at[x] == version`` means removing
    x alone from the current list is known to fail, so the final sweep skips x.
    """

    def __init__(self, items: tuple[T, ...], test: Predicate[T]) -> None:
        self.kept = list(items)
        self.test = test
        self.version = 0
        self._needed_at: dict[T, int] = {}

    def without(self, group: Iterable[T]) -> tuple[T, ...]:
        drop = set(group)
        return tuple(x for x in self.kept if x not in drop)

    def check(self, group: Sequence[T]) -> bool:
        """Test removing ``group`` without applying it; a failed single removal is noted."""
        ok = self.test(self.without(group))
        if not ok and len(group) == 1:
            self.mark_needed(group[0])
        return ok

    def commit(self, group: Iterable[T]) -> None:
        """Apply a removal that already tested True."""
        self.kept = list(self.without(group))
        self.version += 1

    def try_remove(self, group: Sequence[T]) -> bool:
        if self.check(group):
            self.commit(group)
            return True
        return False

    def mark_needed(self, x: T) -> None:
        """Record that removing x alone from the current list fails (tested or implied)."""
        self._needed_at[x] = self.version

    def known_needed(self, x: T) -> bool:
        return self._needed_at.get(x) == self.version

    def sweep(self) -> tuple[T, ...]:
        """Make the result 1-minimal: for non-monotone predicates a removal elsewhere can
        free an item found needed earlier, so recheck every item whose evidence is stale."""
        changed = True
        while changed:
            changed = False
            for x in list(self.kept):
                if not self.known_needed(x) and self.try_remove((x,)):
                    changed = True
        return tuple(self.kept)


def _split(seq: list[T], n: int) -> list[list[T]]:
    """Cut ``seq`` into ``n`` contiguous chunks whose sizes differ by at most one."""
    q, r = divmod(len(seq), n)
    chunks, start = [], 0
    for i in range(n):
        end = start + q + (i < r)
        chunks.append(seq[start:end])
        start = end
    return chunks


def ddmin(items: Iterable[T], test: Predicate[T]) -> tuple[T, ...]:
    """Zeller's ddmin, complements first: the baseline the other strategies are measured
    against. 1-minimal by construction (it ends after every single removal failed).

    Unlike Zeller it also tries the empty list when one item is left, as every other
    strategy does: here "keep nothing" (pin every symbol, say) can still be interesting.
    """
    current = list(_distinct(items))
    n = 2
    while current:
        n = min(n, len(current))
        chunks = _split(current, n)
        for i in range(n):
            complement = [x for j, chunk in enumerate(chunks) if j != i for x in chunk]
            if test(tuple(complement)):
                current, n = complement, max(n - 1, 2)
                break
        else:
            subset = None
            if n > 2:  # with two chunks each subset is the other's complement: tested
                subset = next((c for c in chunks if test(tuple(c))), None)
            if subset is not None:
                current, n = subset, 2
            elif n >= len(current):
                break
            else:
                n = min(2 * n, len(current))
    return tuple(current)


def _best_prefix(probs: Sequence[float]) -> int:
    """ProbDD's choice: the prefix length s maximizing the expected gain s·Π(1 - p_i).

    ``probs`` is sorted ascending, so the gain is unimodal and the scan stops at its peak
    (ties go to the larger prefix, as in the reference implementations).
    """
    best, best_gain, survive = 0, 0.0, 1.0
    for size, p in enumerate(probs, start=1):
        survive *= 1.0 - p
        gain = size * survive
        if gain < best_gain:
            break
        best, best_gain = size, gain
    return best


def probdd(items: Iterable[T], test: Predicate[T], *, p0: float = 0.1) -> tuple[T, ...]:
    """ProbDD (Wang et al., FSE 2021), deterministic, then a 1-minimality sweep.

    Every item carries p, the probability it is needed. Each round removes the prefix of
    the items sorted by p (ties in input order) that maximizes the expected gain. On
    success the items are gone; on failure each p in the group is divided by the group's
    failure probability 1 - Π(1 - p), and a failed singleton gets p = 1. The run ends
    when every remaining p is 1. The paper has no reset step; its result need not be
    1-minimal (Zhang et al. 2024), hence the sweep.
    """
    if not 0.0 < p0 < 1.0:
        raise ValueError(f"p0 must be in (0, 1), got {p0}")
    state = _KeptList(_distinct(items), test)
    prob = dict.fromkeys(state.kept, p0)
    while True:
        order = sorted((x for x in state.kept if prob[x] < 1.0), key=prob.__getitem__)
        if not order:
            break
        group = order[: _best_prefix([prob[x] for x in order])]
        if state.try_remove(group):
            continue
        if len(group) == 1:
            prob[group[0]] = 1.0
            continue
        survive = 1.0
        for x in group:
            survive *= 1.0 - prob[x]
        for x in group:
            prob[x] = min(1.0, prob[x] / (1.0 - survive))
    return state.sweep()


def bisect_dd(
    items: Iterable[T],
    test: Predicate[T],
    *,
    sweep: bool = True,
    refused: Refused[T] | None = None,
    least: int = 1,
) -> tuple[T, ...]:
    """ProbDD's expected-gain rule with p learnt from the run, plus bisection of failures.

    Why each part (all measured by benchmarks/search_calls.py):

    - Group size: with one p for all unresolved items, s·(1 - p)^s peaks at s = ⌊1/p⌋;
      p is estimated as needed-found / items-resolved, so the group is the mean number
      of items resolved per needed item. Before any needed item is found, try removing
      everything unresolved (which also settles an empty answer in one call).
    - A failed group holds a needed item: bisect it (remove the left half; on failure
      recurse left, else right) to find one in log2(s) calls (the leftmost, for a monotone
      test), deleting the clean halves on the way. ProbDD would only re-weight and come back later.
    - Needed items often come in runs (a cluster of symbols): after each find, probe
      the next item alone while such probes have hit at least as often as missed.
    - After a successful removal of s items the next group is at least 2s, so long clean
      stretches go in O(log) calls even when the global estimate of p is high.

    - ``refused(kept)`` says the test answers False without a call (a candidate that
      cannot be built or cannot run): when removing everything unresolved is refused (no
      graph output left, two hints that would collide), the try is the largest prefix that
      is not, one call where bisection would spend a call per half.

    Ends with a 1-minimality sweep that only retests items whose evidence is stale; with
    ``sweep=False`` it ends after the main loop, for a caller that runs the search again
    on its result whenever it removed something (a run that removes nothing tested every
    single removal on an unchanged list: 1-minimal without a sweep).

    ``least`` > 1 keeps a failed group of at most that many items whole, unbisected and
    unprobed (:func:`coarse_dd`): what goes in groups goes, and no item is proved needed
    on its own, for a stage whose proofs a later one makes.
    """
    state = _KeptList(_distinct(items), test)
    total = len(state.kept)
    unresolved = list(state.kept)
    found = hits = misses = last_removed = 0
    probe = False
    while unresolved:
        if probe:
            size = 1
        elif found == 0:
            size = _first_try(state, unresolved, refused)
        else:
            size = max((total - len(unresolved)) // found, 2 * last_removed, 1)
        group, rest = unresolved[:size], unresolved[size:]
        if state.try_remove(group):
            unresolved, last_removed = rest, len(group)
            misses += probe
            probe = False
            continue
        hits += probe
        last_removed = 0
        # Invariant: removing `group` from the current list fails.
        while len(group) > least:
            left, right = group[: len(group) // 2], group[len(group) // 2 :]
            if state.try_remove(left):
                group = right
            else:
                group, rest = left, right + rest
        if len(group) == 1:
            state.mark_needed(group[0])
        found += 1
        unresolved = rest
        probe = least == 1 and hits >= misses
    return state.sweep() if sweep else tuple(state.kept)


COARSE_LEAST = 3
"""The largest failed group :func:`coarse_dd` keeps whole."""


def coarse_dd(
    items: Iterable[T],
    test: Predicate[T],
    *,
    sweep: bool = False,
    refused: Refused[T] | None = None,
) -> tuple[T, ...]:
    """bisect-DD taking only what goes in groups: a failed group of at most COARSE_LEAST
    items is kept whole, and nothing is proved needed on its own (no sweep). For a stage
    that only prepares the reduction (the graph passes at the original's ratio): the
    proofs are the later stage's, at R, where a call is cheaper."""
    return bisect_dd(items, test, sweep=False, refused=refused, least=COARSE_LEAST)


def _first_try(state: _KeptList[T], unresolved: list[T], refused: Refused[T] | None) -> int:
    """How many of `unresolved` bisect-DD tries to remove before it found a needed item: all
    of them, or where that is refused, a prefix s with s + 1 refused and s not, found by
    bisection (1 if every shorter prefix is refused too): log2(n) checks, no call."""
    lo, hi = 1, len(unresolved)
    if refused is None or hi == 1 or not refused(state.without(unresolved)):
        return hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if refused(state.without(unresolved[:mid])):
            hi = mid
        else:
            lo = mid
    return lo


def find_integer(f: Callable[[int], bool]) -> int:
    """Largest n with f(n) True, given f(0) True (f(0) is never called).

    Probes 1, 2, 4, ... until f fails, then binary-searches the last gap: for an answer n
    that is 2·⌊log2 n⌋ + 2 calls (1 call for n = 0). If f is not monotone, the result n
    still has f(n) True (or n = 0) and f(n + 1) False.
    """
    lo, hi = 0, 1
    while f(hi):
        lo, hi = hi, 2 * hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if f(mid):
            lo = mid
        else:
            hi = mid
    return lo


def greedy_chunks(items: Iterable[T], test: Predicate[T]) -> tuple[T, ...]:
    """Adaptive block deletion (Hypothesis, Shrink Ray): at each position remove the
    largest block :func:`find_integer` finds, else step over the item.

    Cheap when nearly everything is needed (one call per needed item) or when clean items
    come in long runs. Passes repeat until one removes nothing, so the result is
    1-minimal; items already known needed in the current list are not retested.
    """
    state = _KeptList(_distinct(items), test)
    changed = True
    while changed:
        changed = False
        i = 0
        while i < len(state.kept):
            if state.known_needed(state.kept[i]):
                i += 1
                continue
            base = tuple(state.kept)

            def removable(k: int, base: tuple[T, ...] = base, i: int = i) -> bool:
                return i + k <= len(base) and state.check(base[i : i + k])

            k = find_integer(removable)
            if k:
                state.commit(base[i : i + k])
                changed = True
            else:
                i += 1
    return tuple(state.kept)


Minimizer = Callable[[Iterable[T], Predicate[T]], tuple[T, ...]]

MIN_CLASS = 4
"""Classes of fewer interchangeable items go through the strategy's own search, which
proves each survivor needed one by one; the count search proves the first, checks the
symmetry on two more (the last and the middle one) and trusts it for the rest."""


def _most_removable(removable: Callable[[int], bool], n: int) -> int:
    """The largest k <= n with removable(k), removable(0) assumed: all n first, then
    bisection (the prefixes bisect-DD would try, so no call is lost where it does not pay)."""
    if removable(n):
        return n
    lo, hi = 0, n
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if removable(mid):
            lo = mid
        else:
            hi = mid
    return lo


def by_classes(
    minimizer: Minimizer[T],
    classes: Sequence[Sequence[T]],
    refused: Refused[T] | None = None,
    *,
    upward: bool = False,
    symmetric: bool = False,
) -> Minimizer[T]:
    """`minimizer`, after each class of at least MIN_CLASS interchangeable items is cut
    by count: which of them go should not matter, only how many.

    The count is the most items of the class that can go at once, removing them in the
    class's order: all of them first, then bisection (log2(n) + 1 calls for a class of n,
    whatever the count; the prefixes are those bisect-DD tries first, so where the class is
    not interchangeable after all no call is lost). Removing one more failed, so the first
    survivor is needed; if removing the last survivor fails too, and the middle one, the
    class behaves symmetrically and every survivor is kept without a proof of its own.
    Otherwise (which items go matters: that removal is kept) the other survivors go to
    `minimizer` with everything else, which searches them one by one as usual (with
    `refused`, which must then be a keyword it takes, asked of the whole list).

    `upward` counts from one item up instead (:func:`find_integer`), for lists where most
    items are expected to be needed (the rounds that prove a result): 1 call when none can
    go, where counting down from all of them takes log2(n) + 1.

    `symmetric`: the test cannot tell the members of a class apart (a compile sees a symbol
    only through the model), so in the rounds that prove (`upward`) the symmetry is not
    checked again: the first round checked it, and at the edge, where those rounds'
    candidates sit, a check only samples the noise (in 8 README and 6 seed runs, 0 of 36
    and 3 of 84 such checks removed a member, each by a verdict at the bar) at a call each,
    2 per class and round. A test that reads names (`--test`, the planted benchmark's) is
    not symmetric.
    """

    def run(items: Iterable[T], test: Predicate[T]) -> tuple[T, ...]:
        state = _KeptList(_distinct(items), test)
        fixed: set[T] = set()
        for cls in sorted(classes, key=len, reverse=True):
            members = [x for x in state.kept if x in set(cls)]
            if len(members) < MIN_CLASS:
                continue

            def removable(k: int, members: list[T] = members) -> bool:
                return k <= len(members) and state.check(members[:k])

            count = find_integer if upward else partial(_most_removable, n=len(members))
            gone = count(removable)
            if gone:
                state.commit(members[:gone])
            survivors = members[gone:]
            if not survivors:
                continue
            fixed.add(survivors[0])
            if upward and symmetric:
                fixed |= set(survivors)
                continue
            others = {survivors[-1], survivors[len(survivors) // 2]} - fixed
            if not any(state.try_remove((x,)) for x in sorted(others, key=survivors.index)):
                fixed |= set(survivors)
        rest = [x for x in state.kept if x not in fixed]

        def whole(kept: tuple[T, ...]) -> tuple[T, ...]:
            chosen = set(kept) | fixed
            return tuple(x for x in state.kept if x in chosen)

        def with_fixed(kept: tuple[T, ...]) -> bool:
            return test(whole(kept))

        if refused is None:
            found = minimizer(rest, with_fixed)
        else:
            found = minimizer(rest, with_fixed, refused=lambda kept: refused(whole(kept)))  # type: ignore[call-arg]
        chosen = set(found) | fixed
        return tuple(x for x in state.kept if x in chosen)

    return run


STRATEGIES: dict[str, Minimizer] = {
    "ddmin": ddmin,
    "probdd": probdd,
    "bisect": bisect_dd,
    "greedy": greedy_chunks,
}
"""The minimizers whose results are 1-minimal, compared in benchmarks/search_calls.py."""
PREPARING: dict[str, Minimizer] = {"coarse": coarse_dd}
"""Searches that are not 1-minimal, for a stage whose result a later stage proves."""
AUTO = "bisect"


def strategy_named(strategy: str) -> tuple[str, Minimizer]:
    """The strategy's name (`auto` resolved) and its minimizer; ValueError if unknown."""
    name = AUTO if strategy == "auto" else strategy
    try:
        return name, {**STRATEGIES, **PREPARING}[name]
    except KeyError:
        choices = ", ".join(["auto", *STRATEGIES, *PREPARING])
        raise ValueError(f"unknown strategy {strategy!r}; choose from {choices}") from None


def searcher(
    strategy: str = "auto",
    classes: Sequence[Sequence[T]] = (),
    *,
    sweep: bool = True,
    refused: Refused[T] | None = None,
    symmetric: bool = False,
) -> Minimizer[T]:
    """The named strategy's minimizer, each class of interchangeable items cut by count
    first (:func:`by_classes`, with ``symmetric``). ``sweep`` and ``refused`` are
    bisect-DD's (:func:`bisect_dd`); the other strategies take neither (ddmin and greedy
    end 1-minimal by their own loop)."""
    _, minimizer = strategy_named(strategy)
    if minimizer not in (bisect_dd, coarse_dd):
        # greedy: the strategy for lists that are mostly needed, so count up from one
        upward = minimizer is greedy_chunks
        if not classes:
            return minimizer
        return by_classes(minimizer, classes, upward=upward, symmetric=symmetric)
    if classes:
        return by_classes(partial(minimizer, sweep=sweep), classes, refused)
    return partial(minimizer, sweep=sweep, refused=refused)


def minimize(
    items: Iterable[T],
    test: Predicate[T],
    strategy: str = "auto",
    classes: Sequence[Sequence[T]] = (),
    *,
    sweep: bool = True,
    refused: Refused[T] | None = None,
    symmetric: bool = False,
) -> tuple[T, ...]:
    """Minimize ``items`` under ``test`` with a named strategy (``auto`` = ``bisect``,
    the fewest calls over the measured suites; see the module docstring), each class of
    interchangeable items cut by count first (:func:`by_classes`); ``sweep``, ``refused``
    and ``symmetric``: :func:`searcher`.

    ``test`` is wrapped in a :class:`CountingPredicate` unless it already is one, so no
    subset reaches the oracle twice; pass your own wrapper to read the counts.
    """
    name = strategy_named(strategy)[0]
    predicate = test if isinstance(test, CountingPredicate) else CountingPredicate(test)
    search = searcher(strategy, classes, sweep=sweep, refused=refused, symmetric=symmetric)
    result = search(items, predicate)
    log.debug(
        "%s kept %d items in %d calls (%d cache hits)",
        name,
        len(result),
        predicate.calls,
        predicate.cache_hits,
    )
    return result

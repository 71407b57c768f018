"""Planted needed sets for the list minimizers: the suites `test_search.py` asserts on and
`benchmarks/search_calls.py` prints as tables (call counts are the cost that matters when
each call is a compile). Every count is of distinct calls, and deterministic: the suites
are seeded and the minimizers make no random choice."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence

from symshrink.search import CountingPredicate, minimize
from symshrink.speculate import Speculation, searching

Test = Callable[[tuple[int, ...]], bool]
Case = tuple[int, int]  # (n items, k needed)

SIZES, NEEDED, SEEDS = (16, 64, 256), (1, 3, 5), 8


def planted(needed: Iterable[int]) -> Test:
    """Interesting iff every needed item is kept: exactly one minimal answer."""
    wanted = frozenset(needed)
    return lambda kept: wanted <= set(kept)


def in_order(items: tuple[int, ...], chosen: Iterable[int]) -> tuple[int, ...]:
    chosen = set(chosen)
    return tuple(x for x in items if x in chosen)


def calls_to_minimize(strategy: str, items: tuple[int, ...], test: Test) -> int:
    counter = CountingPredicate(test)
    result = minimize(items, counter, strategy)
    assert test(result)
    return counter.calls


def planted_suite() -> dict[Case, list[tuple[tuple[int, ...], frozenset[int]]]]:
    suite = {}
    for n in SIZES:
        for k in NEEDED:
            rng = random.Random(1000 * n + k)
            items = tuple(range(n))
            suite[n, k] = [(items, frozenset(rng.sample(items, k))) for _ in range(SEEDS)]
    return suite


def planted_calls(names: Sequence[str]) -> dict[str, dict[Case, float]]:
    """Mean distinct calls per strategy and (n, k); every answer is checked exact."""
    table: dict[str, dict[Case, float]] = {}
    for name in names:
        table[name] = {}
        for case, runs in planted_suite().items():
            total = 0
            for items, needed in runs:
                counter = CountingPredicate(planted(needed))
                assert minimize(items, counter, name) == in_order(items, needed)
                total += counter.calls
            table[name][case] = total / len(runs)
    return table


def suite_total(calls: dict[Case, float], min_n: int, min_k: int = 1) -> float:
    return sum(v for (n, k), v in calls.items() if n >= min_n and k >= min_k)


def speculation_calls() -> dict[Case, tuple[float, float]]:
    """Mean calls at -j 1 and -j 2 (started, used or not) per (n, k) with the default
    strategy; -j 2 is checked to answer as -j 1 and to use exactly -j 1's calls."""
    table = {}
    for case, runs in planted_suite().items():
        one = two = 0
        for items, needed in runs:
            counter = CountingPredicate(planted(needed))
            expected = minimize(items, counter)
            run = Speculation(planted(needed), 2, frozenset)
            assert run.run(searching(items)) == expected == in_order(items, needed)
            assert run.used == counter.calls
            one, two = one + counter.calls, two + run.calls
        table[case] = (one / len(runs), two / len(runs))
    return table


def mixed_suite() -> dict[str, list[tuple[tuple[int, ...], Test]]]:
    """Shapes a reducer meets: most items needed, needed items in runs, and "any m
    items keep it slow" (a threshold, with many minimal answers)."""
    rng = random.Random(7)
    suite: dict[str, list[tuple[tuple[int, ...], Test]]] = {}
    for n, k in ((64, 16), (64, 32), (64, 64)):
        items = tuple(range(n))
        suite[f"dense {n}/{k}"] = [(items, planted(rng.sample(items, k))) for _ in range(4)]
    for n, k in ((64, 8), (256, 20), (256, 64)):
        starts = [rng.randrange(n - k + 1) for _ in range(4)]
        suite[f"run {n}/{k}"] = [(tuple(range(n)), planted(range(s, s + k))) for s in starts]
    for n, m in ((64, 20), (256, 20)):
        suite[f"any {m} of {n}"] = [(tuple(range(n)), lambda kept, m=m: len(kept) >= m)]
    return suite


def mixed_calls(names: Sequence[str]) -> dict[str, dict[str, float]]:
    """Mean distinct calls per shape of `mixed_suite` and strategy."""
    return {
        shape: {
            name: sum(calls_to_minimize(name, items, test) for items, test in runs) / len(runs)
            for name in names
        }
        for shape, runs in mixed_suite().items()
    }

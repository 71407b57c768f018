"""The reducer with a fast Python oracle: planted ground truth, budgets, journal and resume."""

from __future__ import annotations

from pathlib import Path

import pytest

from symshrink.oracle.cache import Cache
from symshrink.passes.common import size
from symshrink.reducer import Reducer
from symshrink.repro.parse import parse
from symshrink.repro.render import render
from tests.planted import choose_planted, planted_model, planted_predicate


@pytest.mark.parametrize(("n", "k"), [(8, 1), (16, 3), (24, 5)])
def test_planted_symbols_are_exactly_what_remains(n: int, k: int) -> None:
    planted = choose_planted(n, k)
    model = planted_model(n)
    test = planted_predicate(planted)
    assert test(model)

    reducer = Reducer(test=test)
    result = reducer.run(model)

    assert set(result.hints) == planted
    assert test(result)
    assert reducer.stats.fixpoint
    # The result is a valid script: it renders and parses back to itself.
    assert parse(render(result)) == result


def test_best_so_far_is_reported_after_every_improvement() -> None:
    model = planted_model(8)
    seen = []
    reducer = Reducer(test=planted_predicate({"s3"}), on_improve=seen.append)
    result = reducer.run(model)
    assert seen and seen[-1] == result
    sizes = [size(m) for m in seen]
    assert sizes == sorted(sizes, reverse=True)
    assert len(set(sizes)) == len(sizes)


def test_call_budget_stops_with_the_best_so_far() -> None:
    model = planted_model(16)
    test = planted_predicate({"s3"})
    reducer = Reducer(test=test, max_calls=5)
    result = reducer.run(model)
    assert reducer.stats.oracle_calls == 5
    assert reducer.stats.stopped_by == "max_calls=5"
    assert test(result)
    assert size(result) <= size(model)


def test_resume_from_journal_repeats_no_call(tmp_path: Path) -> None:
    model = planted_model(12)
    test = planted_predicate({"s2", "s7"})
    journal_path = tmp_path / "journal.jsonl"

    first = Reducer(test=test, journal=Cache(journal_path), max_calls=10)
    first.run(model)
    assert first.stats.oracle_calls == 10

    calls: list[int] = []

    def counting(repro):
        calls.append(1)
        return test(repro)

    resumed = Reducer(test=counting, journal=Cache(journal_path))
    result = resumed.run(model)
    fresh = Reducer(test=test)
    expected = fresh.run(model)

    assert result == expected
    assert resumed.stats.cache_hits >= 10
    assert len(calls) == fresh.stats.oracle_calls - 10


def test_uninteresting_edits_are_never_accepted() -> None:
    """Every model the test saw answer yes is what the reducer may return; nothing else."""
    model = planted_model(10)
    test = planted_predicate({"s1", "s4"})
    answers: dict = {}

    def recording(repro):
        answers[repro] = test(repro)
        return answers[repro]

    result = Reducer(test=recording).run(model)
    assert result != model  # the planted symbols leave room to shrink
    assert answers[result]  # the reducer returns only what the test said yes to
    assert test(result)


def test_parallel_batches_reach_the_same_planted_set() -> None:
    model = planted_model(16)
    planted = choose_planted(16, 3)
    test = planted_predicate(planted)
    batches: list[int] = []

    def test_many(models):
        batches.append(len(models))
        return [test(m) for m in models]

    reducer = Reducer(test=test, test_many=test_many, jobs=4)
    result = reducer.run(model)
    assert set(result.hints) == planted
    assert batches and max(batches) <= 4
    assert any(b > 1 for b in batches)

"""The reducer with a fast Python oracle: planted ground truth, budgets, journal and resume."""

from __future__ import annotations

import math
import threading
import time
from dataclasses import replace
from itertools import pairwise
from pathlib import Path

import pytest
import sympy

from symshrink import search
from symshrink.expr import free_symbol_names, parse_expr
from symshrink.journal import Journal
from symshrink.passes import Pass, exprs, schedule
from symshrink.passes.common import normalize, size
from symshrink.reducer import Reducer
from symshrink.repro.candidate import Candidate
from symshrink.repro.model import Repro, Storage, SymIntInput, TensorInput
from symshrink.repro.parse import parse
from symshrink.repro.render import render
from tests.planted import choose_planted, planted_model, planted_predicate


@pytest.mark.parametrize(("n", "k"), [(8, 1), (16, 3), (24, 5)])
def test_planted_symbols_are_exactly_what_remains(n: int, k: int) -> None:
    planted = choose_planted(n, k)
    model = planted_model(n)
    test = planted_predicate(planted)
    assert test(Candidate.of(model))

    reducer = Reducer(test=test)
    result = reducer.run(model)

    assert set(result.hints) == planted
    assert test(Candidate.of(result))
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
    assert test(Candidate.of(result))
    assert size(result) <= size(model)


@pytest.mark.parametrize("max_calls", [3, 7, None])
def test_each_pass_counts_the_candidates_it_had_accepted(max_calls: int | None) -> None:
    """The passes' accepted counts add up to the run's, also when the budget stops a
    search part way: what it took before the stop counts (not only searches that ended).
    Their calls are the answers they used, the journal's and the cache's included."""
    model = planted_model(16)
    reducer = Reducer(test=planted_predicate({"s3"}), max_calls=max_calls)
    reducer.run(model)
    counts = reducer.stats.per_pass.values()
    assert reducer.stats.accepted > 0
    assert sum(c["accepted"] for c in counts) == reducer.stats.accepted
    stats = reducer.stats
    assert sum(c["calls"] for c in counts) == stats.oracle_calls + stats.cache_hits


def test_resume_from_journal_repeats_no_call(tmp_path: Path) -> None:
    model = planted_model(12)
    test = planted_predicate({"s2", "s7"})
    journal_path = tmp_path / "journal.jsonl"

    first = Reducer(test=test, journal=Journal(journal_path), max_calls=10)
    first.run(model)
    assert first.stats.oracle_calls == 10

    calls: list[int] = []

    def counting(repro):
        calls.append(1)
        return test(repro)

    resumed = Reducer(test=counting, journal=Journal(journal_path))
    result = resumed.run(model)
    fresh = Reducer(test=test)
    expected = fresh.run(model)

    assert result == expected
    assert resumed.stats.cache_hits >= 10
    assert len(calls) == fresh.stats.oracle_calls - 10


def test_a_tagged_reducer_shares_the_journal_but_not_its_answers() -> None:
    """Two tests that ask another question of the same model (slow at another limit):
    the tag keeps their verdicts apart in one journal, and each replays its own."""
    model = planted_model(8)
    journal = Journal()
    strict = Reducer(test=planted_predicate({"s1", "s2", "s3"}), journal=journal, tag="strict:")
    loose = Reducer(test=planted_predicate({"s1"}), journal=journal)
    assert strict.run(model).hints.keys() == {"s1", "s2", "s3"}
    assert loose.run(model).hints.keys() == {"s1"}  # not the strict test's answers
    again = Reducer(test=planted_predicate(set()), journal=journal, tag="strict:")
    assert again.run(model) == strict.run(model) and again.stats.oracle_calls == 0


def test_uninteresting_edits_are_never_accepted() -> None:
    """Every model the test saw answer yes is what the reducer may return; nothing else."""
    model = planted_model(10)
    test = planted_predicate({"s1", "s4"})
    answers: dict = {}

    def recording(candidate: Candidate) -> bool:
        answers[candidate.repro] = test(candidate)
        return answers[candidate.repro]

    result = Reducer(test=recording).run(model)
    assert result != model  # the planted symbols leave room to shrink
    assert answers[result]  # the reducer returns only what the test said yes to
    assert test(Candidate.of(result))


@pytest.mark.parametrize("jobs", [2, 8])
@pytest.mark.parametrize(("n", "k", "seed"), [(8, 1, 0), (16, 3, 1), (24, 5, 2)])
def test_n_jobs_make_the_decisions_of_one(n: int, k: int, seed: int, jobs: int) -> None:
    """-j N (speculative, across passes) on a planted model: the same result, the same
    improvements in the same order, the same calls per pass, and every call -j 1 makes; the
    extra calls are the wrong guesses (a candidate is called twice only if its first call
    was cancelled)."""
    model = planted_model(n, seed)
    planted = choose_planted(n, k, seed)
    predicate = planted_predicate(planted)
    runs = {}
    for width in (1, jobs):
        lock, seen, improved = threading.Lock(), [], []

        def test(candidate, seen=seen, lock=lock):
            with lock:
                seen.append(candidate.key)
            time.sleep(0.002)  # let the slots overlap
            return predicate(candidate)

        reducer = Reducer(test=test, jobs=width, on_improve=improved.append)
        runs[width] = (reducer.run(model), reducer.stats, seen, improved)
    (one, stats1, seen1, improved1), (many, stats, seen, improved) = runs[1], runs[jobs]
    assert render(many) == render(one)
    assert set(many.hints) == planted
    assert [render(m) for m in improved] == [render(m) for m in improved1]
    assert stats.accepted == stats1.accepted and stats.per_pass == stats1.per_pass
    assert set(seen1) <= set(seen)
    assert len(seen) - len(set(seen)) <= stats.speculative_cancelled  # asked again after
    assert stats.oracle_calls == len(seen)
    assert stats.oracle_calls - stats.speculative_unused == stats1.oracle_calls
    assert stats1.speculative_unused == 0


def test_a_dead_input_never_costs_a_call() -> None:
    """Inputs forward never reads cannot change the compile: the reducer starts from the
    model without them (its first best, untested) and no candidate is asked about them."""
    planted = {"s2", "s5"}
    model = planted_model(8)  # arg9_1, the sum, is one forward never reads
    extra = TensorInput("dead_1", "buf_dead", (parse_expr("s3"),))
    with_dead = model.replace(
        inputs=(*model.inputs, extra),
        storages=(*model.storages, Storage("buf_dead", None, parse_expr("4*s3"))),
        module_source=model.module_source.replace("arg9_1):", "arg9_1, dead_1):"),
    )
    without = normalize(model)
    assert without is not None and [x.name for x in without.inputs][-1] == "arg8_1"

    def run(start: Repro) -> tuple[Reducer, list[Repro], list[Repro]]:
        asked: list[Repro] = []
        seen: list[Repro] = []

        def test(candidate: Candidate) -> bool:
            asked.append(candidate.repro)
            return planted_predicate(planted)(candidate)

        reducer = Reducer(test=test, on_improve=seen.append)
        reducer.run(start)
        return reducer, asked, seen

    dead, asked_dead, seen_dead = run(with_dead)
    clean, asked_clean, _ = run(without)
    assert seen_dead[0] == without  # the first best model, before any call
    assert dead.stats.oracle_calls == clean.stats.oracle_calls
    assert asked_dead == asked_clean
    assert set(dead.best.hints) == planted


@pytest.mark.parametrize("k", [1, 5, 12])
def test_a_class_of_32_alike_symbols_is_cut_to_k_in_log_calls(k: int) -> None:
    """A width pathology: slow while the floor division sums at least k free symbols, any
    k. The pin pass cuts the class by count, and proves the result again in the next round,
    in O(log n) calls each; one pin at a time would prove each of the k needed."""
    model = planted_model(32)

    def wide(candidate: Candidate) -> bool:
        return any(
            type(node).__name__ == "FloorDiv" and len(free_symbol_names(node)) >= k
            for e in candidate.repro.all_exprs()
            for node in sympy.preorder_traversal(e)
        )

    reducer = Reducer(test=wide, passes=schedule(("pin-symbols",)))
    result = reducer.run(model)
    assert len(result.hints) == k
    assert reducer.stats.oracle_calls <= 2 * (math.log2(32) + 3)


def _ddmin_calls(model: Repro, test) -> int:
    from symshrink import search
    from symshrink.passes.symbols import PIN, pin_edits

    edits = pin_edits(model)
    counted = search.CountingPredicate(
        lambda kept: test(Candidate.of(PIN.apply(model, [e for e in edits if e not in set(kept)])))
    )
    search.ddmin(edits, counted)
    return counted.calls


@pytest.mark.slow  # 10 s of pure Python
def test_the_whole_reduction_costs_at_most_half_again_ddmin_over_the_symbols() -> None:
    """The planted suite of benchmarks/planted.py on the pure-Python models: every pass to
    a fixpoint, against plain ddmin over the free symbols alone (319 calls against 170 before
    the first round ran each pass once, without bisect-DD's sweep)."""
    reduction = ddmin = 0
    for n, k, seed in [(n, k, seed) for n in (16, 64) for k in (1, 3) for seed in (0, 1)]:
        model, planted = planted_model(n, seed), choose_planted(n, k, seed)
        test = planted_predicate(planted)
        reducer = Reducer(test=test)
        assert set(reducer.run(model).hints) == planted
        reduction += reducer.stats.oracle_calls
        ddmin += _ddmin_calls(model, test)
    assert reduction <= 1.5 * ddmin


@pytest.mark.parametrize(("n", "k", "seed"), [(8, 2, 0), (16, 3, 1)])
def test_the_result_is_one_minimal_for_every_pass(n: int, k: int, seed: int) -> None:
    """The last round changes nothing: no single edit of any pass is still interesting,
    though the first round ran each pass once and no search swept its survivors."""
    planted = choose_planted(n, k, seed)
    test = planted_predicate(planted)
    reducer = Reducer(test=test)
    result = reducer.run(planted_model(n, seed))
    assert reducer.stats.fixpoint
    for p in schedule():
        for edit in p.edits(result):
            model = p.apply(result, [edit])
            assert model is None or size(model) >= size(result) or not test(Candidate.of(model))


MODULE = "class Repro(torch.nn.Module):\n    def forward(self, k):\n        return (k,)"


def test_hints_shrink_in_groups_and_a_needed_one_is_asked_once() -> None:
    """Hints are values, not parts of the repro: shrinking them takes what goes in groups
    (`search.coarse_dd`), so a hint that must stay costs a call or two, not one proof per
    hint, and it is not asked again after the others' progress (`Reducer._exhaust`). s7
    must stay 600; every hint outside its failed group goes to its floor."""
    hints = {f"s{i}": 1000 + 37 * i for i in range(7)} | {"s7": 600}
    model = Repro(
        hints=hints,
        inputs=(SymIntInput("k", sum(hints.values()), parse_expr(" + ".join(hints))),),
        module_source=MODULE,
    )
    asked: list[dict[str, int]] = []

    def test(candidate: Candidate) -> bool:
        asked.append(dict(candidate.repro.hints))
        return candidate.repro.hints["s7"] >= 600

    passes = schedule(("floor-hints", "shrink-hints"))
    coarse = Reducer(test=test, passes=passes)
    result = coarse.run(model)
    kept = {n for n, h in result.hints.items() if h == hints[n]}
    assert "s7" in kept and len(kept) <= search.COARSE_LEAST
    assert all(result.hints[n] <= 2 + len(hints) for n in set(hints) - kept)  # floored
    assert sum(h["s7"] < 600 for h in asked) <= 2
    proving = Reducer(test=test, passes=[replace(p, search=None) for p in passes])
    assert proving.run(model).hints["s7"] == 600
    assert coarse.stats.oracle_calls < proving.stats.oracle_calls


def test_a_model_the_test_refuses_never_reaches_it() -> None:
    """The oracle names models it would answer no for without a run (in ratio mode, one with
    no free symbol left is its own static twin): the reducer asks it no call of them, and
    reaches the same result with fewer calls."""
    model = planted_model(16)
    asked: list[Repro] = []

    def test(candidate: Candidate) -> bool:
        asked.append(candidate.repro)
        return planted_predicate({"s3"})(candidate)

    plain = Reducer(test=test)
    expected = plain.run(model)
    assert any(not m.hints for m in asked)  # pinning every symbol is asked without it
    asked.clear()
    refusing = Reducer(test=test, refuses=lambda m: not m.hints)
    assert refusing.run(model) == expected
    assert asked and all(m.hints for m in asked)
    assert refusing.stats.oracle_calls < plain.stats.oracle_calls


def test_a_later_pass_waits_for_the_second_round_and_still_proves_the_result() -> None:
    """merge-symbols skips the first round (`Pass.later`): its first call comes after the
    second round's pins. Alone, the first round changes nothing, and a second runs it."""
    model = planted_model(8)
    test = planted_predicate({"s3", "s5"})
    asked: list[str | None] = []

    def noting(candidate: Candidate) -> bool:
        asked.append(reducer.stats.current_pass)
        return test(candidate)

    reducer = Reducer(test=noting)
    assert set(reducer.run(model).hints) == {"s3", "s5"} and reducer.stats.fixpoint
    first = asked.index("merge-symbols")
    after_pins = [i for i, (a, b) in enumerate(pairwise(asked)) if a != b == "pin-symbols"]
    assert after_pins and after_pins[0] < first  # the pins again, before any merge
    alone = Reducer(test=test, passes=schedule(("merge-symbols",)))
    assert len(alone.run(model).hints) < len(model.hints) and alone.stats.fixpoint


def test_a_division_is_taken_out_only_from_the_second_round_on() -> None:
    """No candidate of the first round takes the floor division out (at the edge, a
    bisection batch that took it was judged by the noise); lift-divisions asks it once the
    second round's pins have run, and the result loses it where the test allows."""
    model = planted_model(8)

    def floors(repro: Repro) -> int:
        return sum(
            type(node).__name__ == "FloorDiv"
            for e in repro.all_exprs()
            for node in sympy.preorder_traversal(e)
        )

    def uses_both(candidate: Candidate) -> bool:
        return any({"s3", "s5"} <= free_symbol_names(e) for e in candidate.repro.all_exprs())

    asked: list[tuple[str | None, bool]] = []

    def noting(candidate: Candidate) -> bool:
        asked.append((reducer.stats.current_pass, floors(candidate.repro) < floors(model)))
        return uses_both(candidate)

    reducer = Reducer(test=noting)
    result = reducer.run(model)
    assert set(result.hints) == {"s3", "s5"} and floors(result) == 0 and reducer.stats.fixpoint
    passes = [name for name, _ in asked]
    first = next(i for i, (_, fewer) in enumerate(asked) if fewer)
    second_pins = [i for i, (a, b) in enumerate(pairwise(passes)) if a != b == "pin-symbols"]
    assert passes[first] == "lift-divisions" and second_pins and second_pins[0] < first


@pytest.mark.parametrize("k", [16, 8])
def test_drops_of_alike_symbols_from_one_sum_are_cut_by_count(k: int) -> None:
    """Dropping one alike symbol's term from a sum is dropping any other's, renamed: the
    simplify pass counts how many can go (here: slow while the floor division sums at least
    k symbols) in O(log n) calls instead of proving each of the k kept needed on its own
    (k calls a round: fewer only where k is below log n)."""
    model = planted_model(16)

    def widest(repro: Repro) -> int:
        floors = (
            node
            for e in repro.all_exprs()
            for node in sympy.preorder_traversal(e)
            if type(node).__name__ == "FloorDiv"
        )
        return max((len(free_symbol_names(node)) for node in floors), default=0)

    def wide(candidate: Candidate) -> bool:
        return widest(candidate.repro) >= k

    def reduce(simplify: Pass) -> tuple[Repro, int]:
        reducer = Reducer(test=wide, passes=[simplify])
        return reducer.run(model), reducer.stats.oracle_calls

    (by_count, calls), (one_by_one, calls_alone) = map(
        reduce, [exprs.SIMPLIFY, replace(exprs.SIMPLIFY, classes=None)]
    )
    assert by_count == one_by_one
    assert widest(by_count) == k
    assert calls < calls_alone
    assert calls <= 2 * (math.log2(16) + 3) + 4  # two rounds of the count, and the folds
    # a test that cannot tell alike symbols apart: the proving round trusts the symmetry
    trusting = Reducer(test=wide, passes=[exprs.SIMPLIFY], symmetric=True)
    assert trusting.run(model) == by_count and trusting.stats.oracle_calls < calls

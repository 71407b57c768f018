"""The reduction policy of a minimize run, as stages: the graph passes first where the
original's headroom is known and small (`graph_first`), then every pass at R; then the
result is re-verified, walked back to the smallest model still slow on fresh runs, and
reduced again from there (up to REDUCE_AGAIN times) so that the result is a fixpoint."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from symshrink.journal import Journal
from symshrink.oracle import CompileOracle, Reverification
from symshrink.oracle.base import BaseOracle
from symshrink.passes import GRAPH_PASSES, SCHEDULE, schedule
from symshrink.reducer import Reducer, Test
from symshrink.repro.candidate import Candidate
from symshrink.repro.model import Repro
from symshrink.repro.render import canonical_key
from symshrink.sandbox import Interrupted, resume
from symshrink.verdict import Verdict

log = logging.getLogger(__name__)

GRAPH_FIRST_CAP = 2.0
"""The most the graph stage raises the limits by (`graph_first`): the headroom (how far
past its kill point the original ends), but no more than this, so that a call of the stage
costs at most twice one at R; an original still compiling at the end of its longer run
(its headroom at least 8) is kept at 2R too."""
GRAPH_FIRST_TAG = "graph-first:"  # its verdicts' journal keys: slow at another limit
GRAPH_FIRST_STRATEGY = "coarse"
"""The graph stage takes what goes in groups, each pass once (`rounds=1`): it makes the
later calls cheaper, and proves nothing the stage at R does not prove again, where a call
costs less (its calls are the original's ratio x a larger twin)."""


def graph_first(oracle: BaseOracle) -> tuple[CompileOracle, float] | None:
    """The oracle of the graph passes' first stage, and by how much it raised the limits:
    `oracle` with every limit raised to the original's own time over the margin (at most
    GRAPH_FIRST_CAP x R), so that a graph edit is kept only while the candidate keeps the
    original's ratio, or twice R; None where the headroom is within the margin.

    The graph passes make every later call cheaper. Run first at R they spend the headroom
    on the pathology's own nodes where they can, and once the pins have taken a model to
    the edge, an edit that changes nothing (an output downstream of the pathology) is judged
    by the noise; kept at the original's ratio, their results stay within the symbols-first
    order's own run-to-run spread, in less time (`benchmarks/checkouts.py` with and without
    `--no-graph-first`, docs/benchmarks.md)."""
    if not isinstance(oracle, CompileOracle):
        return None
    timing = oracle.timing()
    headroom = min(timing.headroom or GRAPH_FIRST_CAP, GRAPH_FIRST_CAP)
    factor = headroom / (1 + timing.margin)
    if factor <= 1:
        return None
    log.info("the graph passes go first, kept at %.2fx the limit: the original's headroom", factor)
    return oracle.scaled(factor), factor


REDUCE_AGAIN = 2
"""How many times a reduction whose result was walked back goes on from the model that
re-verified (a noisy machine can make a run at the edge look slow more than once)."""


def stages(
    oracle: BaseOracle, reducer: Reducer, *, graph_stage: bool
) -> tuple[list[Reducer], float | None]:
    """The run's stages in order: the graph passes kept at the original's ratio, when
    `graph_stage` and `graph_first` say so, then `reducer` (every pass at R); and by how
    much the graph stage raised the limits. They share one journal, history, budget and
    stats; the graph stage has its own tag."""
    found = graph_first(oracle) if graph_stage else None
    if found is None:
        return [reducer], None
    keeper, raised = found
    headroom = oracle.timing().headroom if isinstance(oracle, CompileOracle) else None
    main = at_r(reducer, graph_leads(headroom))
    return [graph_reducer(main, keeper, keeper.refuses), main], raised


def graph_leads(headroom: float | None) -> bool:
    """Whether the graph passes lead the passes at R too: where the original's headroom is
    known and under GRAPH_FIRST_CAP.

    There every pin is judged at the edge from the first call, and what the graph stage
    could not keep at the original's ratio (bypasses judged by noise, most of them) still
    shrinks the twin that the pins are measured against: bypassing the README example's
    dead-end nodes took a pin from 4.3x its twin (0.59 s) to 7.5x (0.36 s), and pins run
    first spent a round of calls failing at the edge. An original of larger headroom
    (the 64-symbol seed, killed at 2R) keeps the pins first: there the graph passes at R
    spend the headroom the pins need."""
    return headroom is not None and headroom < GRAPH_FIRST_CAP


def at_r(main: Reducer, lead: bool) -> Reducer:
    """The stage at R: `main`, with GRAPH_PASSES first where `lead` (`graph_leads`); the
    same journal, history, budget and stats."""
    if not lead:
        return main
    order = (*GRAPH_PASSES, *(name for name in SCHEDULE if name not in GRAPH_PASSES))
    return replace(main, passes=schedule(order), stats=main.stats)


def graph_reducer(main: Reducer, test: Test, refuses: Callable[[Repro], bool] | None) -> Reducer:
    """The graph stage of `main`'s run, judged by `test`: the graph passes, each once,
    taking what goes in groups (GRAPH_FIRST_STRATEGY), under their own journal tag; the
    same journal, history, budget and stats as `main`."""
    return replace(
        main,
        test=test,
        refuses=refuses,
        passes=schedule(GRAPH_PASSES),
        strategy=GRAPH_FIRST_STRATEGY,
        rounds=1,
        tag=GRAPH_FIRST_TAG,
        stats=main.stats,
    )


@dataclass
class Reduced:
    """What the stages made of the original: the result (`final`, re-verified by `check`
    unless the oracle needs none), how many smaller results re-verification walked back
    over, whether the last re-verification walked back nothing (a step back is no
    fixpoint), and the interrupt that ended the reduction early, if one did."""

    final: Repro
    check: Reverification | None
    walked_back: int
    kept_last: bool
    interrupted: Interrupted | None


def reduce(
    original: Repro,
    run_stages: list[Reducer],
    *,
    oracle: BaseOracle,
    journal: Journal,
    history: list[Repro],
    k: int,
    max_time: float | None,
    started: float,
    phase: Callable[[str], None],
) -> Reduced:
    """The stages from the original (the first stages once, the last again after each
    walk back), each result re-verified on `k` fresh runs; `history` holds every accepted
    model, smallest last. `max_time` counts from `started`: the calibration included."""
    main = run_stages[-1]
    final, walked_back, interrupted = original, 0, None
    failed: list[tuple[Repro, Reverification]] = []
    for again in range(1 + REDUCE_AGAIN):
        if again:
            # What was not slow again is known now: the reduction goes on from the model
            # that was, so that its result is a fixpoint again, not a step of the way.
            for model, fresh in failed:
                journal.put(canonical_key(model), _not_slow_again(fresh))
            del history[len(history) - len(failed) :]
            phase("reducing on from the re-verified result")
        final, interrupted = _run(final, run_stages if not again else [main], max_time, started)
        phase("re-verifying the result")
        final, check, failed = verified(oracle, history, k)
        walked_back += len(failed)
        settled = not failed or check is None or not check.passed
        if settled or interrupted is not None or not main.stats.fixpoint:
            break
    return Reduced(final, check, walked_back, not failed, interrupted)


def _run(
    start: Repro, run_stages: list[Reducer], max_time: float | None, started: float
) -> tuple[Repro, Interrupted | None]:
    """The stages one after the other; an interrupt ends them with the best model so far
    (on disk already), to be verified and reported."""
    for stage in run_stages:
        if max_time is not None:
            stage.max_time = max(0.0, max_time - (time.monotonic() - started))
        try:
            start = stage.run(start)
        except Interrupted as e:
            resume()
            stage.stats.stopped_by = "interrupted"
            return (stage.best if stage.best is not None else start), e
    return start, None


def verified(
    oracle: BaseOracle, history: list[Repro], k: int
) -> tuple[Repro, Reverification | None, list[tuple[Repro, Reverification]]]:
    """The smallest accepted model still slow on k fresh runs at the threshold.

    Reduction drives candidates to the edge of the threshold, so the last accepted one
    may have been a lucky kill; then the previous (larger, slower) one is checked, and so
    on. Returns the model, its re-verification and the smaller models that failed theirs,
    smallest first. A custom `--test` oracle is deterministic by contract: no
    re-verification.
    """
    failed: list[tuple[Repro, Reverification]] = []
    for model in reversed(history):
        check = oracle.reverify(Candidate.of(model), k=k)
        if check is None:
            return history[-1], None, []
        if check.passed or len(failed) == len(history) - 1:
            if failed:
                log.warning(
                    "the %d smallest result(s) were not slow again; kept a larger one",
                    len(failed),
                )
            return model, check, failed
        failed.append((model, check))
    raise AssertionError("unreachable: history holds at least the original")


def _not_slow_again(check: Reverification) -> Verdict:
    """A failed re-verification as the journal's verdict on its model: one of its runs
    that was not slow."""
    fresh = next(v for v in check.verdicts if not v.interesting)
    return replace(fresh, detail=f"not slow again on re-verification: {fresh.detail}")

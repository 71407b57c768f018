"""The reduction policy of a minimize run, as stages: the graph passes first, as a stage
of their own at twice R where the original's headroom allows (`graph_first`), else leading
the passes at R (`graph_leads`); then every pass at R; then the result is re-verified,
walked back to the smallest model still slow on fresh runs, and reduced again from there
(up to REDUCE_AGAIN times) so that the result is a fixpoint."""

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
"""The limits of the graph stage (`graph_first`), as a multiple of those at R: a call of
the stage costs at most twice one at R. An original whose headroom (how far past its kill
point it ends) is smaller has no stage: its graph passes lead at R (`graph_leads`)."""
GRAPH_FIRST_TAG = "graph-first:"  # its verdicts' journal keys: slow at another limit
GRAPH_FIRST_STRATEGY = "coarse"
"""The graph stage takes what goes in groups, each pass once (`rounds=1`): it makes the
later calls cheaper, and proves nothing the stage at R does not prove again, where a call
costs less (its calls are a multiple of a larger twin)."""


def graph_first(oracle: CompileOracle) -> tuple[CompileOracle, float] | None:
    """The oracle of the graph passes' own stage, and by how much it raised the limits:
    `oracle` with every limit raised GRAPH_FIRST_CAP times over the margin, so that a graph
    edit is kept only while the candidate stays slow at twice R (for an original whose
    headroom is at least GRAPH_FIRST_CAP or not known: `graph_leads` says when); None where
    twice R is within the margin (`--margin` 1 or more).

    The graph passes make every later call cheaper. Run first at R on an original of large
    headroom (the 64-symbol seed, still compiling at the end of its longer run) they spend
    the headroom on the pathology's own nodes, and once the pins have taken a model to
    the edge, an edit that changes nothing (an output downstream of the pathology) is judged
    by the noise; kept at 2R, their results stay within the symbols-first order's own
    run-to-run spread, in less time (`benchmarks/checkouts.py` with and without
    `--no-graph-first`, docs/benchmarks.md)."""
    factor = GRAPH_FIRST_CAP / (1 + oracle.timing().margin)
    if factor <= 1:
        return None
    log.info("the graph passes go first, kept at %.2fx the limit", factor)
    return oracle.scaled(factor), factor


def graph_leads(headroom: float | None) -> bool:
    """Whether the graph passes lead the passes at R, with no stage of their own: where the
    original's headroom is known and under GRAPH_FIRST_CAP.

    A stage there would judge at barely more than R, within the noise, and what it took
    the passes at R would prove again: on the README example (headroom 1.3-1.7) it cost 7-8
    calls and kept 1 to 3 of the bypasses that the passes at R took anyway. Leading at R,
    the graph passes still shrink the twin before the pins are measured against it:
    bypassing the example's dead-end nodes took a pin from 4.3x its twin (0.59 s) to 7.5x
    (0.36 s), where pins run first spent a round of calls failing at the edge."""
    return headroom is not None and headroom < GRAPH_FIRST_CAP


def led_by_graph(main: Reducer) -> Reducer:
    """`main`, the stage at R, with GRAPH_PASSES first (`graph_leads`); the same journal,
    history, budget and stats."""
    order = (*GRAPH_PASSES, *(name for name in SCHEDULE if name not in GRAPH_PASSES))
    return replace(main, passes=schedule(order), stats=main.stats)


REDUCE_AGAIN = 2
"""How many times a reduction whose result was walked back goes on from the model that
re-verified (a noisy machine can make a run at the edge look slow more than once)."""


def stages(
    oracle: BaseOracle, reducer: Reducer, *, graph_stage: bool
) -> tuple[list[Reducer], float | None]:
    """The run's stages in order, and by how much the graph stage raised the limits (None:
    no stage). With `graph_stage`, the graph passes go first: as a stage of their own
    (`graph_first`) before `reducer` (every pass at R), or leading `reducer`'s passes
    (`graph_leads`). The stages share one journal, history, budget and stats; the graph
    stage has its own tag."""
    if not graph_stage or not isinstance(oracle, CompileOracle):
        return [reducer], None
    if graph_leads(oracle.timing().headroom):
        return [led_by_graph(reducer)], None
    found = graph_first(oracle)
    if found is None:
        return [reducer], None
    keeper, raised = found
    return [graph_reducer(reducer, keeper, keeper.refuses), reducer], raised


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
    model, smallest last. `max_time` counts from `started`: the calibration included.
    Where a stage comes before the last, the compile oracle takes its margin from the
    twin of that stage's result (`CompileOracle.measure_edge`) before the last begins."""
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
        final, interrupted = _run(
            final, run_stages if not again else [main], max_time, started, _settle(oracle)
        )
        phase("re-verifying the result")
        final, check, failed = verified(oracle, history, k)
        walked_back += len(failed)
        settled = not failed or check is None or not check.passed
        if settled or interrupted is not None or not main.stats.fixpoint:
            break
    return Reduced(final, check, walked_back, not failed, interrupted)


def _settle(oracle: BaseOracle) -> Callable[[Repro], None] | None:
    """What runs between the stages: the compile oracle's margin from the stage's result."""
    return oracle.measure_edge if isinstance(oracle, CompileOracle) else None


def _run(
    start: Repro,
    run_stages: list[Reducer],
    max_time: float | None,
    started: float,
    between: Callable[[Repro], None] | None = None,
) -> tuple[Repro, Interrupted | None]:
    """The stages one after the other, `between` given each stage's result but the last's;
    an interrupt ends them with the best model so far (on disk already), to be verified
    and reported."""
    for i, stage in enumerate(run_stages):
        if max_time is not None:
            stage.max_time = max(0.0, max_time - (time.monotonic() - started))
        try:
            start = stage.run(start)
            if between is not None and i < len(run_stages) - 1:
                between(start)
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

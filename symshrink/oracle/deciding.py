"""How a timing oracle runs one candidate until its verdict is decided, against the noise.

The first run is stopped `band` above the bar (the limit + the margin); one that ends
within the band, either side, is run again, up to 1 + `reruns` runs, and the candidate is
slow only when every run says so (`noise.another_run`, `unanimous`): a close call accepted
by a majority is a result re-verification walks back about half the time, and a walk-back
costs a reduction again (65 calls of a seed run). A slow verdict stands only against a
control measured right before it, and as often as re-verification measures it
(`slow_control_runs`): one measured earlier (under another load, perhaps) or once only
(a lucky short run) is measured again, and the candidate's runs judged against that, run
again where they no longer tell. With one job a spare slot works beside the first run
(`_opening`). A slow verdict can be asked to be confirmed by `confirm` more runs, all slow.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from symshrink.cancel import carried
from symshrink.files import atomic_write
from symshrink.oracle import noise
from symshrink.oracle.base import TimingOracle
from symshrink.oracle.controls import Limit, NoLimit
from symshrink.oracle.verdicts import unjudged
from symshrink.sandbox import Run
from symshrink.verdict import Verdict

if TYPE_CHECKING:
    from symshrink.repro.candidate import Candidate

KILL_PREFIX = "kill-"  # the folder of a first run's kill files, in the scratch directory


def judge(oracle: TimingOracle, candidate: Candidate) -> Verdict:
    """`candidate`'s verdict from as many runs as the noise rules ask for."""
    judging = oracle.judging
    try:
        limit, made = _opening(oracle, candidate)
        bar = _bar(oracle, limit)
        runs = _decide(oracle, candidate.source, bar, made)
        if _all_slow(oracle, runs, bar) and not _as_reverified(limit, judging):
            # Against its control measured now (one measured under another load would move
            # the limit by as much as that load moves the candidate), as often as
            # re-verification measures it (one short run of it can be lucky).
            limit = oracle.limit(candidate, fresh=judging.slow_control_runs)
            bar = _bar(oracle, limit)
            runs = _decide(oracle, candidate.source, bar, _still_judged(oracle, runs, bar))
    except NoLimit as e:
        return unjudged(str(e), judging)
    if _all_slow(oracle, runs, bar):
        for _ in range(judging.confirm):
            run = oracle.run(candidate.source, kill_at=bar)
            if not noise.slow(_outcome(oracle, run), bar):  # not confirmed: it says
                return oracle.verdict([run], bar, limit.control, unanimous=True)
            runs.append(run)
    return oracle.verdict(runs, bar, limit.control, unanimous=True)


def _opening(oracle: TimingOracle, candidate: Candidate) -> tuple[Limit, list[Run]]:
    """`candidate`'s limit and, with a spare slot, its first runs.

    The first run starts at once, with no kill point. The spare slot measures the control,
    which sets the kill point (a control known already is measured again: on a spare core
    that costs no wait, and the verdict needs no stale-control check), then starts a second
    run: the one the band asks for if the first ends too close to call. Otherwise the
    second is stopped when the first ends. Both cores are used, and a close call costs one
    run's time instead of two."""
    if not oracle.beside or oracle.calibration.ratio is None:
        return oracle.limit(candidate), []
    judging = oracle.judging
    files = Path(tempfile.mkdtemp(prefix=KILL_PREFIX, dir=oracle.scratch))
    first_at, second_at = files / "first", files / "second"
    try:
        with ThreadPoolExecutor(max_workers=2, thread_name_prefix="beside") as ex:
            run_here = carried(oracle.run)  # a cancel of this call stops both runs
            first = ex.submit(run_here, candidate.source, kill_at=None, kill_file=first_at)
            point = 0.0  # no limit (an error, an interrupt): stop the run at once
            try:  # the control measured now, beside the run: under the same load
                limit = oracle.limit(candidate, fresh=judging.control_runs)
                point = noise.stop_at(_bar(oracle, limit), judging.band)
            finally:
                atomic_write(first_at, repr(point))
            if not judging.reruns:
                return limit, [first.result()]
            atomic_write(second_at, repr(point))
            second = ex.submit(run_here, candidate.source, kill_at=point, kill_file=second_at)
            needed = False
            try:
                run = first.result()
                needed = noise.near(_outcome(oracle, run), _bar(oracle, limit), judging.band)
            finally:
                if not needed:
                    atomic_write(second_at, "0")
            return limit, [run, second.result()] if needed else [run]
    finally:
        shutil.rmtree(files, ignore_errors=True)


def _decide(oracle: TimingOracle, source: str, bar: float, made: Sequence[Run] = ()) -> list[Run]:
    """Runs of `source` (`made` already made), each stopped `band` above the bar:
    one, unless it ends within the band, then more while all say slow (up to 1 + reruns)."""
    band, reruns = oracle.judging.band, oracle.judging.reruns
    kill_at = noise.stop_at(bar, band)
    runs = list(made) or [oracle.run(source, kill_at=kill_at)]
    outcomes = [_outcome(oracle, r) for r in runs]
    while noise.another_run(outcomes, bar, band, reruns, unanimous=True):
        runs.append(oracle.run(source, kill_at=kill_at))
        outcomes.append(_outcome(oracle, runs[-1]))
    return runs


def _as_reverified(limit: Limit, judging: noise.Judging) -> bool:
    """Whether `limit` can stand behind a slow verdict: no control (an absolute threshold),
    or one measured right before, at least `slow_control_runs` times."""
    control = limit.control
    return control is None or (limit.fresh and len(control.measures) >= judging.slow_control_runs)


def _still_judged(oracle: TimingOracle, runs: Sequence[Run], bar: float) -> list[Run]:
    """The runs that still say something at a new `bar`: each that ended (its time is
    known) and each stopped at or past the new bar's stop point. One stopped short of it
    says nothing there and is run again."""
    stop = noise.stop_at(bar, oracle.judging.band)
    outcomes = [(r, _outcome(oracle, r)) for r in runs]
    return [r for r, o in outcomes if o.ended or o.failed or o.seconds >= stop]


def _outcome(oracle: TimingOracle, run: Run) -> noise.Outcome:
    return noise.Outcome.of(run, oracle.calibration.clock)


def _bar(oracle: TimingOracle, limit: Limit) -> float:
    return noise.bar(limit.seconds, oracle.margin)


def _all_slow(oracle: TimingOracle, runs: Sequence[Run], bar: float) -> bool:
    return noise.all_slow([_outcome(oracle, r) for r in runs], bar)

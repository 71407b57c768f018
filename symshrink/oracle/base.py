"""The oracle interface the reducer calls, and what every oracle shares.

An oracle only judges: the reducer's journal (`symshrink.journal`) is the one cache of
verdicts, consulted before an oracle is asked.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeVar

from symshrink.cancel import carried
from symshrink.oracle.calibrate import Calibration
from symshrink.oracle.controls import Controls, ControlTime, Limit
from symshrink.oracle.noise import Judging
from symshrink.sandbox import Run
from symshrink.verdict import Verdict

if TYPE_CHECKING:  # the model, hence sympy: `import symshrink.oracle` stays cheap
    from symshrink.repro.candidate import Candidate
    from symshrink.repro.model import Repro

R = TypeVar("R")
T = TypeVar("T")


@dataclass(frozen=True)
class Timing:
    """How a timing oracle measured the original and where it draws the line: what the
    run's record says of them (a `--test` oracle has none)."""

    calibration: Calibration
    threshold_s: float
    margin: float

    @property
    def headroom(self) -> float | None:
        """How many times its kill point the original ran to its end: how much slowness a
        reduction has to spend. None when even its longest run was stopped (it is more)."""
        longest, stopped = self.calibration.longest
        return None if stopped else longest / (self.threshold_s * (1 + self.margin))


@dataclass(frozen=True)
class Reverification:
    """The final result re-run k times at its limit itself, its control measured afresh."""

    verdicts: tuple[Verdict, ...]
    baseline_s: float | None = None

    @property
    def passed(self) -> bool:
        return 2 * sum(v.interesting for v in self.verdicts) > len(self.verdicts)


class TimingOracle(Protocol):
    """What the policies of a timing oracle (`deciding`: the runs of one candidate,
    `original`: the calibration) ask of it: its rule, its runs, limits and verdicts."""

    calibration: Calibration
    judging: Judging
    measured: Controls
    scratch: Path
    beside: bool

    @property
    def margin(self) -> float: ...

    def timeout(self) -> float: ...

    def run(self, source: str, *, kill_at: float | None, kill_file: Path | None = None) -> Run: ...

    def runs(
        self, source: str, kill_ats: Sequence[float | None], mode: str | None = None
    ) -> list[Run]: ...

    def limit(self, candidate: Candidate, *, fresh: int = 0) -> Limit: ...

    def verdict(
        self,
        runs: Sequence[Run],
        at: float,
        control: ControlTime | None = None,
        unanimous: bool = False,
    ) -> Verdict: ...


class BaseOracle:
    """Judges one candidate (`_judge`, the subclass's), or several up to `jobs` at once.

    `symmetric`: whether the oracle cannot tell alike symbols apart (`search.by_classes`):
    not a `--test` command's, which may read names."""

    symmetric = False

    def __init__(self, *, jobs: int = 1) -> None:
        self.jobs = max(1, jobs)

    def _judge(self, candidate: Candidate) -> Verdict:
        raise NotImplementedError

    def __call__(self, candidate: Candidate) -> Verdict:
        return self._judge(candidate)

    def many(self, candidates: Sequence[Candidate]) -> list[Verdict]:
        return self._at_once(self._judge, candidates)

    def _at_once(
        self, fn: Callable[[T], R], items: Sequence[T], width: int | None = None
    ) -> list[R]:
        """`fn` of each item, in order, up to `width` (default `jobs`) of them at once."""
        width = self.jobs if width is None else width
        if width == 1 or len(items) <= 1:
            return [fn(x) for x in items]
        with ThreadPoolExecutor(max_workers=min(width, len(items))) as ex:
            return list(ex.map(carried(fn), items))

    def refuses(self, repro: Repro) -> bool:
        """Whether this oracle would answer no for `repro` without running it (the reducer
        then asks no call of it)."""
        return False

    def not_interesting(self, verdict: Verdict) -> str:
        """Why an original with this verdict cannot be reduced, in one line."""
        return f"the original is not interesting: the test says {verdict.status} ({verdict.detail})"

    def reverify(self, candidate: Candidate, k: int = 3) -> Reverification | None:
        """The result judged again, fresh; None: this oracle's verdicts need no second look
        (a `--test` command is deterministic by contract)."""
        return None

    def timing(self) -> Timing | None:
        """The original's measurement and the limit (None: this oracle does not time)."""
        return None

    def close(self) -> None:
        """Release workers and scratch space (nothing to release here)."""

    def __enter__(self) -> BaseOracle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

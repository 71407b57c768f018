"""The noise rules, from tables: what runs measured -> slow, too close to call, decided."""

from __future__ import annotations

import pytest

from symshrink.oracle.noise import (
    Judging,
    Outcome,
    all_slow,
    another_run,
    bar,
    failed,
    limit,
    majority_slow,
    margin,
    near,
    slow,
    stop_at,
)

ENDED, STOPPED = True, False
T = 10.0  # the threshold of every table


@pytest.mark.parametrize(
    ("outcome", "is_failed", "is_slow"),
    [
        (Outcome(12.0, ENDED), False, True),  # finished above
        (Outcome(10.0, ENDED), False, True),  # at the threshold counts
        (Outcome(9.99, ENDED), False, False),
        (Outcome(11.0, STOPPED), False, True),  # stopped at its kill point
        (Outcome(3.0, ENDED, failed=True), True, False),  # an error says nothing
        (Outcome(4.0, STOPPED, timed_out=True), True, False),  # a hang before the threshold
        (Outcome(10.5, STOPPED, timed_out=True), False, True),  # the timeout after it
    ],
)
def test_slow_and_failed(outcome: Outcome, is_failed: bool, is_slow: bool) -> None:
    assert failed(outcome, T) is is_failed
    assert slow(outcome, T) is is_slow


@pytest.mark.parametrize(
    ("outcome", "band", "close"),
    [
        (Outcome(9.5, ENDED), 0.1, True),
        (Outcome(10.9, ENDED), 0.1, True),
        (Outcome(11.0, ENDED), 0.1, False),  # the band's edge is outside
        (Outcome(8.9, ENDED), 0.1, False),
        (Outcome(9.5, ENDED), 0.0, False),  # no band: nothing is close
        (Outcome(10.5, STOPPED), 0.1, False),  # a stopped run did not end near
        (Outcome(9.5, ENDED, failed=True), 0.1, False),
    ],
)
def test_near(outcome: Outcome, band: float, close: bool) -> None:
    assert near(outcome, T, band) is close


@pytest.mark.parametrize(
    ("seconds", "majority"),
    [
        ([12.0], True),
        ([9.0], False),
        ([12.0, 9.0], False),  # a tie is not a majority
        ([12.0, 9.0, 11.0], True),
        ([12.0, 9.0, 8.0], False),
    ],
)
def test_majority_slow(seconds: list[float], majority: bool) -> None:
    assert majority_slow([Outcome(s) for s in seconds], T) is majority


@pytest.mark.parametrize(
    ("seconds", "reruns", "more"),
    [
        ([12.0], 2, False),  # clear: one run decides
        ([9.5], 2, True),  # too close to call
        ([9.5], 0, False),  # no reruns allowed
        ([9.5, 10.5], 2, True),  # one each way: the third decides
        ([9.5, 9.0], 2, False),  # two of three already say fast
        ([10.5, 12.0], 2, False),  # two of three already say slow
        ([9.5, 10.5, 9.0], 2, False),  # all of 1 + reruns made
        ([9.5, 10.5, 9.0], 4, True),  # 1 slow, 2 fast, up to 5: open
        ([12.0, 9.5], 2, False),  # the first run decides whether to go on
    ],
)
def test_another_run(seconds: list[float], reruns: int, more: bool) -> None:
    assert another_run([Outcome(s) for s in seconds], T, 0.1, reruns) is more


@pytest.mark.parametrize(
    ("seconds", "more", "slow"),
    [
        ([12.0], False, True),  # clear: one run decides
        ([9.5], False, False),  # near below: not slow, and slow needs every run
        ([10.5], True, True),  # near above: slow so far, run again
        ([10.5, 12.0], True, True),
        ([10.5, 12.0, 11.0], False, True),  # all of 1 + reruns slow
        ([10.5, 9.0], False, False),  # one says fast: decided
    ],
)
def test_a_close_call_is_slow_only_when_every_run_is(
    seconds: list[float], more: bool, slow: bool
) -> None:
    runs = [Outcome(s) for s in seconds]
    assert another_run(runs, T, 0.1, 2, unanimous=True) is more
    assert all_slow(runs, T) is slow


def test_bar_stop_at_and_margin() -> None:
    assert bar(4.0, 0.25) == 5.0
    assert stop_at(5.0, 0.1) == pytest.approx(5.5)
    assert margin(Judging(margin=0.0), spread=0.3, ratio=True) == 0.0  # asked for
    assert margin(Judging(), spread=0.3, ratio=False) == 0.3  # one run's spread
    # a ratio is one run over another: its spread is sqrt(2) x one run's
    assert margin(Judging(), spread=0.3, ratio=True) == pytest.approx(0.4243, abs=1e-4)
    assert margin(Judging(), spread=0.02, ratio=True) == 0.1  # at least MIN_MARGIN


@pytest.mark.parametrize(
    ("control_s", "floor_s", "at"),
    [
        (1.0, 0.0, 4.0),  # no floor: R x the control
        (1.0, 2.5, 4.0),  # the floor under R x the control changes nothing
        (0.13, 1.0, 1.0),  # a tiny control: the floor, which is more than R x it
        (0.25, 1.0, 1.0),  # exactly at the floor
        (0.3, 1.0, 1.2),
    ],
)
def test_limit_is_r_times_the_control_or_the_floor_whichever_is_longer(
    control_s: float, floor_s: float, at: float
) -> None:
    got = limit(control_s, 4.0, floor_s)
    assert got == pytest.approx(at)
    # slow at its limit is slow at R x its control and at the floor: never less than either
    assert got >= 4.0 * control_s and got >= floor_s

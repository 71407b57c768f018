"""The oracle: verdicts, kill at the threshold, no survivors, slippage guard, cache, pool.

Most tests run small stand-in children (a CPU burn in a named function, a sympy gcd loop, a
crash) so they take seconds; one `torch` test judges a real repro through symshrink.retrace.
"""

from __future__ import annotations

import importlib
import json
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from symshrink.cancel import Cancelled, Token, run_in
from symshrink.files import atomic_write
from symshrink.oracle import (
    Calibration,
    CalibrationError,
    CallableOracle,
    CommandOracle,
    CompileOracle,
    Judging,
    calibrate,
)
from symshrink.oracle.signature import Signature, compare, major_phases, phase_like
from symshrink.repro.candidate import Candidate
from symshrink.sandbox import (
    POOL_PREFIX,
    RETRACE_PHASES,
    ColdRunner,
    Exit,
    Job,
    Limits,
    Profile,
    Run,
    Runner,
    WarmPool,
    Workload,
)
from tests.candidates import script

SCRIPT = Workload(entry="script")

# Burns CPU in a named function; optionally leaves grandchildren (a bare `sleep`, and a
# Python that starts a `sleep` of its own) that must not survive the call.
BURN = """
import subprocess, sys, time

def spawn_grandchildren():
    subprocess.Popen(["sleep", "{token}"])
    code = "import subprocess, time; subprocess.Popen(['sleep', '{token}']); time.sleep({token})"
    subprocess.Popen([sys.executable, "-c", code])
    time.sleep(0.3)

def burn_cpu(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass

if {spawn}:
    spawn_grandchildren()
with open({started!r}, "a") as f:
    f.write(f"{{time.time()}}\\n")
burn_cpu({seconds})
"""

# The original's pathology stand-in: time spent under sympy.gcd.
GCD = """
import time, sympy
x, y, z = sympy.symbols("x y z")
a = sympy.Poly((x + 2*y + 3*z + 1) ** 4 * (x - y + 2) ** 3, x, y, z)
b = sympy.Poly((x + 2*y + 3*z + 1) ** 3 * (x + z - 5) ** 3, x, y, z)
end = time.process_time() + {seconds}
while time.process_time() < end:
    sympy.gcd(a, b)
"""

# Slow for another reason: integer factoring, no gcd.
FACTOR = """
import time, sympy
end = time.process_time() + {seconds}
n = 10**12 + 39
while time.process_time() < end:
    sympy.factorint(n * 1000003 + 7)
    n += 2
"""

CRASH = """
import subprocess
subprocess.Popen(["sleep", "{token}"])  # left behind by a failing script
raise RuntimeError("boom in the candidate")
"""


def burn(seconds: float, *, token: str = "0", spawn: bool = False, started: str = "") -> str:
    return BURN.format(seconds=seconds, token=token, spawn=spawn, started=started or os.devnull)


def alive(token: str) -> list[int]:
    """Live (non-zombie) processes whose command line contains `token`."""
    pids = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{name}/cmdline").read_bytes().replace(b"\0", b" ")
            state = Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if token.encode() in cmdline and state != "Z":
            pids.append(int(name))
    return pids


_tokens = iter(range(10**6))


def fresh_token() -> str:
    """A `sleep` argument no other process on the machine uses."""
    return f"{900 + next(_tokens)}.{os.getpid()}"


@pytest.fixture(scope="module")
def warm_pool() -> Iterator[WarmPool]:
    pool = WarmPool(slots=2, preload=("sympy",))
    yield pool
    pool.close()


@pytest.fixture(params=["cold", "warm"])
def runner(request: pytest.FixtureRequest, warm_pool: WarmPool) -> Runner:
    return ColdRunner() if request.param == "cold" else warm_pool


def oracle_with(
    runner: Runner, threshold: float, scratch: Path, clock: str = "cpu", **judging: object
) -> CompileOracle:
    cal = Calibration(clock, (2 * threshold,), threshold)  # type: ignore[arg-type]
    # no margin, no confirmation unless a test asks: each rule is tested on its own
    judging = {"margin": 0.0, "confirm": 0, **judging}
    judge = Judging(signature=False, **judging)  # type: ignore[arg-type]
    return CompileOracle(cal, runner, workload=SCRIPT, judging=judge, scratch=scratch)


# ------------------------------------------------------------------ processes and verdicts


@pytest.mark.spawns
def test_import_is_cheap() -> None:
    code = "import sys, symshrink.oracle; print('torch' in sys.modules, 'sympy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


@pytest.mark.spawns
@pytest.mark.parametrize("clock", ["cpu", "wall"])
def test_slow_is_killed_at_threshold_with_its_grandchildren(
    runner: Runner, clock: str, tmp_path: Path
) -> None:
    token = fresh_token()
    oracle = oracle_with(runner, 1.0, tmp_path, clock)
    start = time.monotonic()
    v = oracle(script(burn(60, token=token, spawn=True)))
    took = time.monotonic() - start
    assert v.status == "slow" and v.interesting, v
    measured = v.cpu_s if clock == "cpu" else v.wall_s
    assert 1.0 <= measured < 1.6, v  # the threshold (+ SIGTERM grace), not the 60 s
    assert took < 15, took
    assert alive(token) == []


@pytest.mark.spawns
def test_a_kill_point_written_later_stops_the_run_there(runner: Runner, tmp_path: Path) -> None:
    """A candidate started before its control finished has no kill point at first, then
    the one its parent writes into the kill file."""
    token = fresh_token()
    kill_file = tmp_path / "kill_at"
    job = Job.create(tmp_path, burn(60, token=token, spawn=True), SCRIPT)
    writer = threading.Timer(0.5, atomic_write, (kill_file, "1.0"))
    writer.start()
    run = runner.run(job, Limits(timeout_s=30.0, kill_file=str(kill_file)))
    writer.join()
    assert run.exit.reason == "threshold" and 1.0 <= run.exit.cpu_s < 1.6, run.exit
    assert alive(token) == []


@pytest.mark.spawns
def test_a_kill_point_rewritten_to_0_stops_a_run_whose_answer_is_not_needed(
    runner: Runner, tmp_path: Path
) -> None:
    """The spare slot's second run: started with its kill point, stopped when the first
    run's answer turns out clear."""
    token = fresh_token()
    kill_file = tmp_path / "kill_at"
    atomic_write(kill_file, "30.0")
    job = Job.create(tmp_path, burn(60, token=token, spawn=True), SCRIPT)
    writer = threading.Timer(0.5, atomic_write, (kill_file, "0"))
    writer.start()
    run = runner.run(job, Limits(timeout_s=60.0, kill_file=str(kill_file)))
    writer.join()
    assert run.exit.reason == "threshold" and run.exit.cpu_s < 5.0, run.exit
    assert alive(token) == []


@pytest.mark.spawns
def test_a_cancelled_call_kills_its_child_and_measures_nothing(
    runner: Runner, tmp_path: Path
) -> None:
    """A speculative call whose answer is no longer wanted: its token's cancel, from another
    thread, kills the running candidate and its grandchildren now (not at the kill point,
    30 s away), and the call raises `Cancelled` instead of returning a verdict."""
    token, started = fresh_token(), tmp_path / "started"
    oracle = oracle_with(runner, 30.0, tmp_path)
    cancel = Token()
    with ThreadPoolExecutor(1) as ex:
        call = ex.submit(
            run_in, cancel, oracle, script(burn(60, token=token, spawn=True, started=str(started)))
        )
        deadline = time.monotonic() + 30
        while not started.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert started.exists() and alive(token)
        begun = time.monotonic()
        cancel.cancel()
        with pytest.raises(Cancelled):
            call.result(timeout=20)
        assert time.monotonic() - begun < 5
    assert alive(token) == []


@pytest.mark.spawns
def test_a_call_cancelled_before_it_starts_starts_nothing(tmp_path: Path) -> None:
    started = tmp_path / "started"
    oracle = oracle_with(ColdRunner(), 30.0, tmp_path)
    cancel = Token()
    cancel.cancel()
    with pytest.raises(Cancelled):
        run_in(cancel, oracle, script(burn(60, started=str(started))))
    assert not started.exists()


@pytest.mark.spawns
def test_fast_candidate(runner: Runner, tmp_path: Path) -> None:
    v = oracle_with(runner, 2.0, tmp_path)(script(burn(0.1)))
    assert v.status == "fast" and not v.interesting
    assert 0.1 <= v.cpu_s < 2.0
    assert "finished" in v.detail


@pytest.mark.spawns
def test_crash_is_error_and_leaves_nothing_behind(runner: Runner, tmp_path: Path) -> None:
    token = fresh_token()
    v = oracle_with(runner, 2.0, tmp_path)(script(CRASH.format(token=token)))
    assert v.status == "error" and not v.interesting
    assert "RuntimeError: boom in the candidate" in v.detail
    assert alive(token) == []


@pytest.mark.spawns
def test_killed_by_signal_is_error(tmp_path: Path) -> None:
    v = oracle_with(ColdRunner(), 2.0, tmp_path)(
        script("import os, signal\nos.kill(os.getpid(), 9)")
    )
    assert v.status == "error"
    assert "exit code -9" in v.detail


@pytest.mark.spawns
def test_errors_can_be_interesting(tmp_path: Path) -> None:
    oracle = oracle_with(ColdRunner(), 2.0, tmp_path, errors_interesting=True)
    v = oracle(script("raise ValueError('x')"))
    assert v.status == "error" and v.interesting


@pytest.mark.spawns
def test_hard_timeout_on_a_hang_is_error(tmp_path: Path) -> None:
    """On the CPU clock a sleeping child never reaches the threshold: the wall cap ends it."""
    oracle = oracle_with(ColdRunner(), 5.0, tmp_path, timeout_s=1.0)
    v = oracle(script("import time\ntime.sleep(60)"))
    assert v.status == "error" and "timeout" in v.detail
    assert v.wall_s < 2.0


@pytest.mark.spawns
def test_many_runs_candidates_in_parallel(warm_pool: WarmPool, tmp_path: Path) -> None:
    stamps = tmp_path / "started.txt"
    oracle = oracle_with(warm_pool, 1.0, tmp_path / "scratch")
    (tmp_path / "scratch").mkdir()
    assert oracle.jobs == 2
    verdicts = oracle.many(
        [script(burn(30, started=str(stamps))), script(burn(31, started=str(stamps)))]
    )
    assert [v.status for v in verdicts] == ["slow", "slow"]
    first, second = sorted(float(t) for t in stamps.read_text().split())
    assert second - first < 0.9  # both had started before either was killed


@pytest.mark.spawns
def test_warm_workers_fork_single_threaded(warm_pool: WarmPool) -> None:
    for info in warm_pool.warm_up():
        assert info["threads"] == 1
        assert info["failed"] == []


@pytest.mark.spawns
def test_closing_the_pool_mid_job_leaves_nothing(tmp_path: Path) -> None:
    token = fresh_token()
    pool = WarmPool(slots=1, preload=())
    pool.warm_up()
    job = Job.create(tmp_path, burn(60, token=token, spawn=True), SCRIPT)
    with ThreadPoolExecutor(1) as ex:
        running = ex.submit(pool.run, job, Limits(timeout_s=120))
        _wait_for(lambda: len(alive(token)) >= 3)
        pool.close()
        run = running.result(timeout=15)
    assert run.error is not None and "closed" in run.error
    assert alive(token) == []


@pytest.mark.spawns
def test_a_dead_worker_is_replaced_and_its_orphans_killed(tmp_path: Path) -> None:
    token = fresh_token()
    pool = WarmPool(slots=1, preload=())
    try:
        first = pool.warm_up()[0]["pid"]
        job = Job.create(tmp_path, burn(60, token=token, spawn=True), SCRIPT)
        with ThreadPoolExecutor(1) as ex:
            running = ex.submit(pool.run, job, Limits(timeout_s=120, kill_at=2.0, clock="wall"))
            _wait_for(lambda: len(alive(token)) >= 3)
            os.kill(first, signal.SIGKILL)
            run = running.result(timeout=30)
        assert run.exit.reason == "threshold"  # the retry on a fresh worker ran to the limit
        assert pool.warm_up()[0]["pid"] != first
        assert alive(token) == []
    finally:
        pool.close()


def _wait_for(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.05)


# -------------------------------------------------------------------- hysteresis (no I/O)


class ScriptedRunner:
    """A Runner that replays given runs: measures in CPU seconds, None = killed."""

    slots = 1
    shares_scratch = False  # no child: nothing reads a kill file written later

    def __init__(self, measures: list[float | None]) -> None:
        self.measures = list(measures)
        self.limits: list[Limits] = []

    def run(self, job: Job, limits: Limits) -> Run:
        self.limits.append(limits)
        m = self.measures.pop(0)
        if m is None:
            assert limits.kill_at is not None
            return Run(Exit("threshold", limits.kill_at, limits.kill_at, -15, True), None, None, "")
        return Run(Exit("exited", m, m, 0, True), {"error": None, "phases": {}}, None, "")

    def close(self) -> None:
        pass


@pytest.mark.parametrize(
    ("measures", "status", "calls"),
    [
        ([0.5], "fast", 1),  # far below: one run decides
        ([None], "slow", 1),  # still running 10 % above the threshold: slow at once
        ([0.95], "fast", 1),  # near below: not slow, and a slow verdict needs every run
        ([1.05, None, None], "slow", 3),  # near above: slow only if all 3 runs are
        ([1.05, 0.5], "fast", 2),  # a re-run says fast: that decides
        ([1.05, None, 0.97], "fast", 3),
        ([1.0, 0.97], "fast", 2),
    ],
)
def test_hysteresis_reruns_near_the_threshold(
    measures: list[float | None], status: str, calls: int, tmp_path: Path
) -> None:
    """The band is 0.1 either side of the threshold (1.0): each run is stopped at 1.1, a
    first run that ends in [0.9, 1.1) is too close to call; such a candidate is slow only
    when all of 3 runs are (a close call a majority accepted, re-verification walked back
    about half the time)."""
    runner = ScriptedRunner(measures)
    v = oracle_with(runner, 1.0, tmp_path)(script("candidate"))
    assert v.status == status, v
    assert len(runner.limits) == calls
    assert all(lim.kill_at == pytest.approx(1.1) for lim in runner.limits)


@pytest.mark.parametrize(
    ("measures", "status", "calls"),
    [
        ([None, None], "slow", 2),  # killed twice: confirmed
        ([None, 0.5], "fast", 2),  # the confirmation finished fast: not slow
        ([None, None, 0.5], "fast", 3),  # with confirm=2, every run must be slow
        ([0.5], "fast", 1),  # fast at once: nothing to confirm
    ],
)
def test_confirm_a_slow_verdict(
    measures: list[float | None], status: str, calls: int, tmp_path: Path
) -> None:
    runner = ScriptedRunner(measures)
    confirm = 2 if len(measures) == 3 else 1
    v = oracle_with(runner, 1.0, tmp_path, confirm=confirm)(script("candidate"))
    assert (v.status, len(runner.limits)) == (status, calls), v


def test_margin_raises_the_bar_of_the_reduction_not_of_reverification(tmp_path: Path) -> None:
    runner = ScriptedRunner([1.1, 1.1, None, None])
    oracle = oracle_with(runner, 1.0, tmp_path, margin=0.2)
    # 1.1 s: above the threshold, below 1.2 x it (near below that bar: not slow, one run)
    v = oracle(script("candidate"))
    assert v.status == "fast" and len(runner.limits) == 1
    assert all(lim.kill_at == pytest.approx(1.2 * 1.1) for lim in runner.limits)
    # the result is checked at the threshold itself
    check = oracle.reverify(script("candidate"), k=3)
    assert check.passed and {lim.kill_at for lim in runner.limits[1:]} == {1.0}


@pytest.mark.parametrize(
    ("measures", "margin"),
    [((9.0, 10.0, 12.0), 0.2513), ((10.0, 10.0, 10.2), 0.1), ((), 0.1)],  # sd 1.528, mean 10.33
)
def test_margin_by_default_is_the_calibration_spread(
    measures: tuple[float, ...], margin: float, tmp_path: Path
) -> None:
    """None: 1.7 standard deviations of the original's runs over their mean, never below
    MIN_MARGIN; in ratio mode, of a ratio of two runs: sqrt(2) x that of the twin's."""
    cal = Calibration("cpu", measures, 5.0)
    oracle = CompileOracle(cal, ScriptedRunner([]), workload=SCRIPT, scratch=tmp_path)
    assert oracle.judging.margin is None and oracle.margin == pytest.approx(margin, abs=1e-4)
    twins = Calibration("cpu", (), 20.0, ratio=4.0, baseline_measures=measures)
    ratio = CompileOracle(twins, ScriptedRunner([]), workload=SCRIPT, scratch=tmp_path)
    assert ratio.margin == pytest.approx(max(0.1, cal.spread * 2**0.5), abs=1e-4)
    fixed = CompileOracle(cal, ScriptedRunner([]), judging=Judging(margin=0.0), scratch=tmp_path)
    assert fixed.margin == 0.0


class PhasedRunner(ScriptedRunner):
    """Runs hot in `gcd`, stopped in phase `scheduling` or finished with `trace_share` of
    its time in `trace`, the rest in `codegen`."""

    def __init__(self, measures: list[float | None], trace_share: float) -> None:
        super().__init__(measures)
        self.trace_share = trace_share

    def run(self, job: Job, limits: Limits) -> Run:
        run = super().run(job, limits)
        m = run.exit.cpu_s
        profile = Profile(
            tuple((m * i / 10, m * i / 10, "gcd") for i in range(1, 11)), "scheduling"
        )
        phases = {"trace": m * self.trace_share, "codegen": m * (1 - self.trace_share)}
        return Run(run.exit, {**(run.result or {}), "phases": phases}, profile, "")


def test_phase_guard_judges_only_finished_runs(tmp_path: Path) -> None:
    """Stopped at the threshold, a run is in whatever phase the kill caught it: only the
    hot spots count. A finished run must have one of the original's major phases among its
    own: mostly in the trace it slipped, split evenly with codegen it did not."""
    reference = Signature(("codegen",), (("gcd", 1.0),))
    cal = Calibration("cpu", (2.0,), 1.0)
    judging = Judging(margin=0.0, confirm=0)
    runner = PhasedRunner([None, 1.05, 1.05, 1.05], trace_share=0.9)
    oracle = CompileOracle(cal, runner, judging=judging, scratch=tmp_path, reference=reference)
    assert oracle(script("stopped")).status == "slow"
    finished = oracle(script("finished in the trace"))
    assert finished.status == "slipped" and "phase 'trace'" in finished.detail
    even = PhasedRunner([1.05, 1.05, 1.05], trace_share=0.55)
    oracle = CompileOracle(cal, even, judging=judging, scratch=tmp_path, reference=reference)
    assert oracle(script("split between trace and codegen")).status == "slow"


def test_calibration_threshold_and_errors() -> None:
    def run(m: float, error: str | None = None) -> Run:
        return Run(Exit("exited", m, m, 0, True), {"error": error, "phases": {"run": m}}, None, "")

    def stopped(m: float) -> Run:
        return Run(Exit("threshold", m, m, -15, True), None, None, "")

    cal = calibrate([run(4.0), run(3.0), run(5.0)], threshold_s=2.0, signature=False)
    assert cal.threshold_s == 2.0 and cal.ratio is None  # absolute mode
    assert cal.median_s == 4.0 and cal.phases == ("run",) and not cal.stopped
    assert cal.spread == pytest.approx(1.7 * 1.0 / 4.0)  # 1.7 standard deviations of a run
    assert cal.signature() is None  # the guard is off
    assert Calibration.from_dict(cal.to_dict()) == cal
    ratio = calibrate(
        [stopped(4.4), stopped(4.5)], threshold_s=4.0, ratio=4.0, baseline_measures=(0.9, 1.0, 1.1)
    )
    assert ratio.stopped and ratio.phases == ()  # stopped runs do not say their phase
    assert ratio.baseline_s == 1.0 and ratio.spread == pytest.approx(0.17)  # the control's
    assert Calibration.from_dict(json.loads(json.dumps(ratio.to_dict()))) == ratio
    with pytest.raises(CalibrationError, match="fails"):
        calibrate([run(4.0, "RuntimeError: x")], threshold_s=2.0)


def test_signature_compare() -> None:
    phases = major_phases({"sched": 5.0, "codegen": 4.5, "trace": 0.5})
    assert phases == ("sched", "codegen")
    orig = Signature.from_counts({"gcd": 80, "expand": 15, "misc": 5}, phases, top=2)
    assert orig.names == ("gcd", "expand") and orig.share == pytest.approx(0.95)
    assert compare(orig, {"gcd": 50, "other": 50}, "codegen")[0]
    assert not compare(orig, {"factor": 95, "gcd": 5}, "sched")[0]
    assert not compare(orig, {"gcd": 100}, "trace")[0]
    assert not compare(orig, {}, "sched")[0]
    # Beside its twin's seconds, a candidate is judged on what it spends beyond them.
    edge = {"gcd": 1.6, "other": 1.4, "lower": 1.0}  # 4 s: stopped at 4x a 1 s twin
    assert not compare(orig, edge, "sched")[0]  # 40 % of all of it < 0.5 * 95 %
    ok, why = compare(orig, edge, "sched", twin={"lower": 0.9, "gcd": 0.1})
    assert ok and "50% of its time beyond its twin's" in why  # (1.6 - 0.1) / (4 - 1)
    assert not compare(orig, {"factor": 3.0, "lower": 1.0}, "sched", twin={"lower": 1.0})[0]
    # A finished candidate is judged in the original's major phase if that is one of its own.
    assert phase_like({"trace": 5.0, "codegen": 4.8}, ("codegen",)) == "codegen"
    assert phase_like({"trace": 9.0, "codegen": 1.0}, ("codegen",)) == "trace"
    assert phase_like({}, ("codegen",)) is None


def test_signature_family() -> None:
    """Time in another of torch's sympy functions than the original's hottest (FloorDiv.eval
    beside safe_gcd) is on the original's path; elsewhere in torch it is not."""
    fns = "torch.utils._sympy.functions"
    orig = Signature.from_counts({f"{fns}.safe_gcd": 89, "expand": 2, "x": 1}, top=2)
    assert orig.family == fns and orig.holds(f"{fns}.FloorDiv.eval")
    assert not orig.holds("torch.utils._sympy.value_ranges.bound_sympy")
    ok, why = compare(orig, {f"{fns}.FloorDiv.eval": 60.0, "other": 40.0}, None)
    assert ok and f"and {fns}" in why
    assert not compare(orig, {"torch._inductor.sizevars.stride_at": 60.0, "o": 40.0}, None)[0]
    # beyond the twin: the twin's own time in the family is taken off as well
    edge = {f"{fns}.Mod.eval": 2.0, "o": 1.0}
    assert compare(orig, edge, None)[0]  # 67 % of all of it
    assert not compare(orig, edge, None, twin={f"{fns}.Mod.eval": 1.2})[0]  # 0.8 of 1.8
    # an original hottest elsewhere has no family: its spots alone count
    other = Signature.from_counts({"gcd": 80, f"{fns}.FloorDiv.eval": 20}, top=1)
    assert other.family is None and not other.holds(f"{fns}.FloorDiv.eval")
    assert Signature.from_dict(json.loads(json.dumps(orig.to_dict()))).family == fns


def test_profile_timeline() -> None:
    text = (
        "p load\nn 0 setup\ns 0.10 0.11 0\ns 0.20 0.22 -1\np run\nn 1 gcd\n"
        "s 0.30 0.33 1\ns 0.40 0.44 1\ns 0.5"  # the last line was cut short by the kill
    )
    prof = Profile.parse(text)
    assert len(prof.samples) == 4 and prof.last_phase == "run"
    assert prof.counts() == {"setup": 1, "gcd": 2}
    assert prof.counts(until=0.3) == {"setup": 1, "gcd": 1}
    assert prof.counts(until=0.3, clock="wall") == {"setup": 1}
    assert Profile.from_dict(prof.to_dict()) == prof
    # CPU seconds: each sample stands for the time since the one before (none for the first)
    assert prof.seconds() == pytest.approx({"setup": 0.0, "gcd": 0.2})


# ------------------------------------------------------------ calibration and the guard


@pytest.fixture(scope="module")
def gcd_oracle(warm_pool: WarmPool, tmp_path_factory: pytest.TempPathFactory) -> CompileOracle:
    """Calibrated on a 1 s gcd loop (k=2), with the slippage guard on."""
    runs = [
        warm_pool.run(
            Job.create(tmp_path_factory.mktemp("cal"), GCD.format(seconds=1.0), SCRIPT),
            Limits(timeout_s=60),
        )
        for _ in range(2)
    ]
    cal = calibrate(runs, threshold_s=0.5 * statistics.median(r.exit.cpu_s for r in runs))
    scratch = tmp_path_factory.mktemp("gcd")
    return CompileOracle(cal, warm_pool, workload=SCRIPT, scratch=scratch)


@pytest.mark.spawns
def test_calibrated_guard_accepts_same_reason_and_rejects_slippage(
    gcd_oracle: CompileOracle,
) -> None:
    cal = gcd_oracle.calibration
    assert 1.0 <= cal.median_s < 3.0
    assert cal.threshold_s == pytest.approx(0.5 * cal.median_s)
    sig = cal.signature(until=cal.threshold_s)
    assert sig is not None and sig.names[0] == "sympy.polys.polytools.gcd"
    assert Calibration.from_dict(json.loads(json.dumps(cal.to_dict()))) == cal

    same = gcd_oracle(script(GCD.format(seconds=20)))
    assert same.status == "slow" and same.interesting
    assert same.signature[0] == "sympy.polys.polytools.gcd"
    assert same.slow_phase == "run"

    other = gcd_oracle(script(FACTOR.format(seconds=20)))
    assert other.status == "slipped" and not other.interesting
    assert other.signature[0] == "sympy.ntheory.factor_.factorint"
    assert "does not share" in other.detail
    unguarded = CompileOracle(
        cal,
        gcd_oracle.runner,
        workload=SCRIPT,
        judging=Judging(signature=False),
        scratch=gcd_oracle.scratch,
    )
    assert unguarded(script(FACTOR.format(seconds=20))).status == "slow"


@pytest.mark.spawns
def test_reverify_at_the_threshold(gcd_oracle: CompileOracle) -> None:
    passed = gcd_oracle.reverify(script(GCD.format(seconds=20)), k=2)
    assert passed.passed and len(passed.verdicts) == 2
    assert all(v.cpu_s >= gcd_oracle.threshold_s for v in passed.verdicts)
    assert not gcd_oracle.reverify(script(GCD.format(seconds=0.1)), k=1).passed


# ----------------------------------------------------------------- custom oracles, cache


def test_callable_oracle() -> None:
    def test(source: str) -> bool:
        if "raise" in source:
            raise ValueError("bad test")
        return "keep" in source

    oracle = CallableOracle(test)
    keep = oracle(script("keep me"))
    assert (keep.status, keep.interesting, keep.cached) == ("slow", True, False)
    assert oracle(script("drop me")).status == "fast"
    err = oracle(script("raise"))
    assert err.status == "error" and "ValueError: bad test" in err.detail


@pytest.mark.spawns
def test_command_oracle(tmp_path: Path) -> None:
    token = fresh_token()
    test = tmp_path / "interesting.sh"
    test.write_text(
        "#!/bin/sh\n"
        f"sleep {token} &\n"  # a leftover the oracle must kill
        'test "$(basename "$1")" = candidate.py || exit 3\n'
        'test "$(dirname "$1")" = "$(pwd)" || exit 4\n'  # runs in the candidate's dir
        'grep -q KEEP "$1"\n'
    )
    test.chmod(0o755)
    oracle = CommandOracle(str(test), jobs=2, timeout_s=10)
    yes, no = oracle.many([script("print('KEEP')"), script("print('drop')")])
    assert (yes.status, yes.detail) == ("slow", "exit 0")
    assert (no.status, no.detail) == ("fast", "exit 1")
    assert alive(token) == []
    slow = CommandOracle(["sh", "-c", "sleep 60", "sh"], timeout_s=0.5)(script("x"))
    assert slow.status == "error" and "timeout" in slow.detail and slow.wall_s < 2


# ------------------------------------------------------------------------- real torch


def _resolve(qualified: str) -> object:
    """The function a phase marker names (module path, then class/function path)."""
    parts = qualified.split(".")
    for i in range(len(parts) - 1, 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for attr in parts[i:]:
            obj = getattr(obj, attr)
        return obj
    raise ImportError(qualified)


@pytest.mark.torch
def test_retrace_phase_markers_name_real_functions() -> None:
    """A renamed torch or retrace function would silently turn every phase into 'load'."""
    for name in RETRACE_PHASES:
        assert callable(_resolve(name)), name


@pytest.mark.spawns
@pytest.mark.torch
def test_real_repro_slow_and_fast(samples_dir: Path, fixtures: dict, tmp_path: Path) -> None:
    """sym_outer_n8 (FloorDiv → safe_gcd) is > 4x its static twin; a one-symbol repro is not."""
    slow_src = (samples_dir / "sym_outer_n8.py").read_text()
    oracle = CompileOracle.create(Candidate.read(slow_src), k=1, warm=True, scratch=tmp_path)
    try:
        info = oracle.runner.warm_up()  # type: ignore[attr-defined]
        assert info[0]["threads"] == 1 and info[0]["failed"] == []
        cal = oracle.calibration
        assert cal.ratio == 4.0 and cal.stopped  # stopped at 4x the twin, never waited for
        assert cal.baseline_s is not None and cal.threshold_s == pytest.approx(4 * cal.baseline_s)
        full = cal.signature()
        assert full is not None and full.names[0] == "torch.utils._sympy.functions.safe_gcd"

        slow = oracle(Candidate.read(slow_src))
        assert slow.status == "slow", slow
        assert slow.stopped and slow.ratio is not None and slow.ratio >= 4.0
        fast = oracle(Candidate.read(fixtures["free_symints"].path.read_text()))
        assert fast.status == "fast", fast
        assert fast.ratio is not None and fast.ratio < 2.0 and not fast.stopped
    finally:
        oracle.close()


# ------------------------------------------------------------------------------ stalls


@pytest.mark.spawns
def test_a_child_that_stops_using_the_cpu_is_stopped_as_stalled(
    runner: Runner, tmp_path: Path
) -> None:
    """A deadlocked child (here: one that waits forever, its sampler thread still ticking)
    never reaches a CPU kill point; without the stall check it would hold its call until
    the 60 s timeout."""
    job = Job.create(
        tmp_path, "import time\ntime.sleep(0.2)\nwhile True:\n    time.sleep(1)\n", SCRIPT
    )
    run = runner.run(job, Limits(timeout_s=60, kill_at=30.0, stall_s=1.0))
    assert run.exit.reason == "stalled" and run.exit.clean
    assert run.exit.wall_s < 30  # stopped within two windows, not at the timeout
    assert run.error is not None and run.error.startswith("stalled")


@pytest.mark.spawns
def test_a_busy_child_is_not_stalled(runner: Runner, tmp_path: Path) -> None:
    run = runner.run(Job.create(tmp_path, burn(1.5), SCRIPT), Limits(timeout_s=60, stall_s=0.3))
    assert run.exit.reason == "exited" and run.error is None


@pytest.mark.spawns
def test_the_oracle_judges_a_stalled_candidate_an_error(tmp_path: Path) -> None:
    oracle = oracle_with(ColdRunner(), 30.0, tmp_path, stall_s=1.0)
    v = oracle(script("import time\nwhile True:\n    time.sleep(1)\n"))
    assert v.status == "error" and v.detail.startswith("stalled"), v


@pytest.mark.spawns
def test_the_warm_pools_folder_is_made_in_the_oracles_scratch(tmp_path: Path) -> None:
    """So that a killed run leaves it in its work directory, which the next run cleans
    (`minimize.prepare_work`), and not in the system's temp dir; closed, it is gone."""
    saved = tmp_path / "calibration.json"
    Calibration("cpu", (5.0,), 2.0).save(saved)
    oracle = CompileOracle.create(
        script("unused"), preload=(), calibration_path=saved, scratch=tmp_path
    )
    try:
        assert len(list(tmp_path.glob(f"{POOL_PREFIX}*"))) == 1
    finally:
        oracle.close()
    assert list(tmp_path.glob(f"{POOL_PREFIX}*")) == []

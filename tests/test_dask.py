"""Oracle calls on a real Dask cluster: a scheduler and two worker processes on 127.0.0.1.

The reduction through the cluster must end where the local pool ends, also when a worker is
SIGKILLed in the middle of a call; the candidate it orphaned must not survive the run.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from symshrink.cancel import Cancelled, Token, run_in
from symshrink.errors import UsageError
from symshrink.sandbox import Child, Job, Limits, Workload, read_stat, run_job, start
from symshrink.sandbox.dask_runner import (
    INSTALL_HINT,
    DaskRunner,
    connect,
    reap_orphans,
    relocate,
)
from symshrink.search import minimize as sequential
from symshrink.speculate import speculate

pytestmark = [pytest.mark.torch, pytest.mark.spawns]  # written by torch; a cluster runs

NO_DASK = "Dask's `distributed` is not installed (pip install 'symshrink[dask]')"

# Interesting iff a floor division of a sum of at least two symbols survives (as in
# test_minimize). The script keeps its state beside itself, since the client's environment
# does not travel to the workers: every call goes to `calls`; with a file `kill_after`
# holding N, the first call from the Nth on claims `killed`, SIGKILLs its parent (the Dask
# worker running it) and then lingers, orphaned, as a long compile would.
TEST_SCRIPT = """\
import hashlib, os, re, signal, sys, time
here = os.path.dirname(os.path.abspath(__file__))
text = open(sys.argv[1]).read()
with open(os.path.join(here, "calls"), "a") as f:
    f.write(hashlib.sha256(text.encode()).hexdigest() + "\\n")
if os.path.exists(os.path.join(here, "kill_after")):
    n = int(open(os.path.join(here, "kill_after")).read())
    if sum(1 for _ in open(os.path.join(here, "calls"))) >= n:
        try:
            fd = os.open(os.path.join(here, "killed"), os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            pass
        else:
            os.write(fd, str(os.getpid()).encode())
            os.close(fd)
            os.kill(os.getppid(), signal.SIGKILL)
            time.sleep(120)
sys.exit(0 if re.search(r"s\\d+ \\+ s\\d+[^/]*//160", text) else 1)
"""


def _dask(tmp: Path, name: str, *args: str) -> Child:
    """A scheduler or worker started the way symshrink starts a child: a pytest killed
    mid-module (a CI job stopped) takes it along instead of leaving it running."""
    with open(tmp / f"{name}.log", "wb") as log:  # the child keeps its own copy
        argv = [sys.executable, "-m", "dask", *args]
        return start(argv, stdout=log, stderr=subprocess.STDOUT, in_flight=False)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The address of a scheduler with two one-thread workers (each under a nanny)."""
    pytest.importorskip("distributed", reason=NO_DASK)
    tmp = tmp_path_factory.mktemp("dask")
    info = tmp / "scheduler.json"
    local = ["--host", "127.0.0.1", "--no-dashboard", "--scheduler-file", str(info)]
    procs = [_dask(tmp, "scheduler", "scheduler", "--port", "0", *local)]
    try:
        deadline = time.monotonic() + 30
        while not info.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        worker = ["worker", "--nthreads", "1", "--death-timeout", "30", *local]
        procs += [_dask(tmp, f"worker{i}", *worker) for i in range(2)]
        yield json.loads(info.read_text())["address"]
    finally:
        for p in procs:
            p.proc.terminate()
        for p in procs:
            with contextlib.suppress(subprocess.TimeoutExpired):
                p.proc.wait(timeout=20)  # a clean shutdown first, then nothing left
            p.close()


@pytest.fixture(scope="module")
def repro(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.fixtures_gen import generate

    return generate("floordiv_sum", tmp_path_factory.mktemp("fixture"), n=8).path


def wait_for_workers(address: str, n: int = 2) -> None:
    """A killed worker is restarted by its nanny: each test starts with both workers."""
    import distributed

    with distributed.Client(address, timeout=30, set_as_default=False) as client:
        client.wait_for_workers(n, timeout=60)


def minimize(tmp: Path, repro: Path, *extra: str) -> dict:
    """`symshrink minimize --test` into `tmp`; the report, with the calls the script logged."""
    script = tmp / "interesting.py"
    script.write_text(TEST_SCRIPT)
    cmd = [sys.executable, "-m", "symshrink", "minimize", str(repro), "--no-progress"]
    # -S: no site-packages (their .pth files take 0.2 s a start here); the script needs none.
    cmd += ["--test", f"{sys.executable} -S {script}", "-o", str(tmp / "out.py")]
    cmd += ["--report-json", str(tmp / "report.json"), *extra]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    report = json.loads((tmp / "report.json").read_text())
    report["calls"] = (tmp / "calls").read_text().split()
    report["out"] = (tmp / "out.py").read_text()
    return report


@pytest.fixture(scope="module")
def local_run(repro: Path, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The reference: the same reduction with the local pool, one candidate at a time."""
    return minimize(tmp_path_factory.mktemp("local"), repro)


def test_minimize_on_cluster_matches_local_pool(
    cluster: str, repro: Path, local_run: dict, tmp_path: Path
) -> None:
    wait_for_workers(cluster)
    remote = minimize(tmp_path, repro, "--scheduler", cluster)
    assert remote["out"] == local_run["out"]
    assert remote["final"]["free_symbols"] == 2
    calls = remote["calls"]  # the reducer's, and the original's check before them
    assert set(calls) >= set(local_run["calls"])  # and the wrong guesses (speculation)
    # A call cancelled before its script started is not logged; a candidate runs twice
    # only after a run of it was cancelled as a wrong guess (a later pass may ask it).
    assert len(calls) <= remote["oracle_calls"] + 1
    assert len(calls) - len(set(calls)) <= remote["speculative_unused"]


def test_worker_sigkilled_mid_call(
    cluster: str, repro: Path, local_run: dict, tmp_path: Path
) -> None:
    """The lost call is retried elsewhere; the orphaned candidate is killed, not waited for."""
    wait_for_workers(cluster)
    (tmp_path / "kill_after").write_text("3")
    remote = minimize(tmp_path, repro, "--scheduler", cluster)
    marker = tmp_path / "killed"
    assert marker.exists()
    assert remote["out"] == local_run["out"]
    calls = remote["calls"]
    assert set(calls) >= set(local_run["calls"])
    assert len(calls) <= remote["oracle_calls"] + 2  # the killed one, run again
    assert len(calls) - len(set(calls)) <= 1 + remote["speculative_unused"]
    orphan = read_stat(int(marker.read_text()))  # it would sleep for 120 s
    assert orphan is None or orphan.state in ("Z", "X")


def test_cold_runner_on_a_local_cluster_kills_at_the_threshold(tmp_path: Path) -> None:
    """`local:2`: a cluster of symshrink's own; the compile oracle's runner on its workers."""
    pytest.importorskip("distributed", reason=NO_DASK)
    runner = connect("local:2")
    try:
        assert runner.slots == 2
        job = Job.create(tmp_path, "import time\ntime.sleep(60)\n", Workload(entry="script"))
        run = runner.run(job, Limits(timeout_s=30, kill_at=1.0, clock="wall"))
        assert run.exit.reason == "threshold"
        assert run.exit.clean
        assert run.exit.wall_s < 10
        job = Job.create(tmp_path, "print('ok')\n", Workload(entry="script"))
        run = runner.run(job, Limits(timeout_s=30))
        assert run.error is None
        assert run.result is not None
    finally:
        runner.close()


def test_a_local_cluster_sees_a_kill_point_written_after_the_job_started(
    tmp_path: Path,
) -> None:
    """`local:N` workers run on this host: a kill point written into the job's kill file
    while it runs stops it there, as on a local runner, so one job can run a candidate
    beside its twin (`shares_scratch`). A scheduler at an address makes no such claim."""
    pytest.importorskip("distributed", reason=NO_DASK)
    runner = connect("local:2")
    try:
        assert runner.shares_scratch
        kill_file = tmp_path / "kill"
        job = Job.create(tmp_path, "import time\ntime.sleep(60)\n", Workload(entry="script"))
        limits = Limits(timeout_s=30, kill_file=str(kill_file), clock="wall")
        with ThreadPoolExecutor(1) as ex:
            running = ex.submit(runner.run, job, limits)
            time.sleep(3)
            kill_file.write_text("1.0")
            run = running.result(timeout=30)
        assert run.exit.reason == "threshold" and run.exit.clean
        assert run.exit.wall_s < 10
    finally:
        runner.close()


def test_a_scheduler_at_an_address_does_not_share_scratch(cluster: str) -> None:
    wait_for_workers(cluster)
    runner = connect(cluster)
    try:
        assert not runner.shares_scratch
    finally:
        runner.close()


# From the 3rd call on, a candidate leaves a `hang-PID` file beside the script and sleeps.
HANG_SCRIPT = """\
import os, sys, time
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "calls"), "a") as f:
    f.write("call\\n")
if sum(1 for _ in open(os.path.join(here, "calls"))) >= 3:
    open(os.path.join(here, f"hang-{os.getpid()}"), "w").close()
    time.sleep(120)
sys.exit(0 if "//160" in open(sys.argv[1]).read() else 1)
"""


def test_sigint_cancels_the_calls_on_the_cluster(cluster: str, repro: Path, tmp_path: Path) -> None:
    """Ctrl-C with calls in flight on the workers: minimize stops waiting for them at once,
    exits 130, and their candidates are killed on the workers, not left to sleep."""
    wait_for_workers(cluster)
    script = tmp_path / "interesting.py"
    script.write_text(HANG_SCRIPT)
    cmd = [sys.executable, "-m", "symshrink", "minimize", str(repro), "--no-progress"]
    cmd += ["--test", f"{sys.executable} -S {script}", "-o", str(tmp_path / "out.py")]
    proc = subprocess.Popen([*cmd, "--scheduler", cluster], stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not list(tmp_path.glob("hang-*")) and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.5)  # let the other slot's candidate start too
        hanging = [int(p.name.removeprefix("hang-")) for p in tmp_path.glob("hang-*")]
        assert hanging
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert all(gone(pid, within_s=10) for pid in hanging)


# A candidate forked by a Dask worker's warm pool: it logs its parent, whether that is a warm
# worker and whether it preloaded `colorsys`, then exits 0 iff 2 and 5 are in
# KEPT. With a file `kill_at` holding N, the Nth call claims `killed`, SIGKILLs the Dask
# worker (its parent's parent) and lingers, orphaned.
WARM_SCRIPT = """\
import os, signal, sys, time
here, kept = {here!r}, {kept!r}
with open(os.path.join(here, "calls"), "a") as f:
    warm = b"symshrink.sandbox.worker" in open(f"/proc/{{os.getppid()}}/cmdline", "rb").read()
    f.write(f"{{os.getppid()}} {{warm}} {{'colorsys' in sys.modules}}\\n")
if os.path.exists(os.path.join(here, "kill_at")):
    n = int(open(os.path.join(here, "kill_at")).read())
    if sum(1 for _ in open(os.path.join(here, "calls"))) >= n:
        try:
            fd = os.open(os.path.join(here, "killed"), os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            pass
        else:
            os.write(fd, str(os.getpid()).encode())
            os.close(fd)
            stat = open(f"/proc/{{os.getppid()}}/stat").read()
            os.kill(int(stat.rsplit(")", 1)[1].split()[1]), signal.SIGKILL)
            time.sleep(120)
if {sleep!r}:
    open(os.path.join(here, "started"), "w").write(str(os.getpid()))
    time.sleep({sleep!r})
sys.exit(0 if {{2, 5}} <= set(kept) else 1)
"""


def warm_test(runner: DaskRunner, here: Path, sleep: float = 0.0):
    """The interestingness test of a kept tuple, judged by a candidate on the cluster."""
    (here / "jobs").mkdir(exist_ok=True)

    def test(kept: tuple[int, ...]) -> bool:
        script = WARM_SCRIPT.format(here=str(here), kept=kept, sleep=sleep)
        job = Job.create(here / "jobs", script, Workload(entry="script"))
        try:
            return run_job(runner, job, Limits(timeout_s=60, clock="wall")).error is None
        finally:
            job.remove()

    return test


@pytest.fixture(scope="module")
def warm_cluster() -> Iterator[DaskRunner]:
    """`local:2` with warm pools that preload `colorsys` (torch in real use: the same code)."""
    pytest.importorskip("distributed", reason=NO_DASK)
    runner = connect("local:2", warm=True, preload=("colorsys",))
    yield runner
    runner.close()


def gone(pid: int, within_s: float) -> bool:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        st = read_stat(pid)
        if st is None or st.state in ("Z", "X"):
            return True
        time.sleep(0.1)
    return False


def test_warm_pools_survive_a_worker_killed_mid_call(
    warm_cluster: DaskRunner, tmp_path: Path
) -> None:
    """A speculative -j 2 reduction on 2 warm workers, one SIGKILLed mid-call (its nanny
    restarts it, its plugin a new pool): the sequential result; each candidate forked from
    one of at most 3 warm workers that imported once, never from a fresh interpreter."""
    (tmp_path / "kill_at").write_text("4")
    result = speculate(range(8), warm_test(warm_cluster, tmp_path), warm_cluster.slots)
    assert result == sequential(range(8), lambda kept: {2, 5} <= set(kept)) == (2, 5)
    killed = tmp_path / "killed"
    assert killed.exists()
    assert gone(int(killed.read_text()), within_s=10)  # the orphan slept for 120 s
    calls = [line.split() for line in (tmp_path / "calls").read_text().splitlines()]
    assert len(calls) >= 8
    assert all(warm == preloaded == "True" for _, warm, preloaded in calls)
    assert len({parent for parent, _, _ in calls}) <= 3  # one import per warm worker


@pytest.mark.parametrize("by", ["runner", "token"])
def test_a_cancelled_task_kills_its_candidate(
    warm_cluster: DaskRunner, tmp_path: Path, by: str
) -> None:
    """Closing the client, cancelling every call (`runner`) or one call whose answer the
    speculation no longer wants (its `token`) must not leave the candidate running its
    minutes: the worker kills it, and the call raises at once."""
    from concurrent.futures import CancelledError

    warm_cluster.client.wait_for_workers(2, timeout=60)
    test = warm_test(warm_cluster, tmp_path, sleep=60)
    token = Token()
    with ThreadPoolExecutor(1) as ex:
        running = ex.submit(run_in, token, test, (2, 5))
        started = tmp_path / "started"
        deadline = time.monotonic() + 30
        while not started.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        pid = int(started.read_text())
        if by == "runner":
            warm_cluster.cancel()
        else:
            token.cancel()
        with pytest.raises(CancelledError if by == "runner" else Cancelled):
            running.result(timeout=10)
    assert gone(pid, within_s=5)


def test_a_killed_client_leaves_no_candidate_running(cluster: str, tmp_path: Path) -> None:
    """A SIGKILLed client cancels nothing itself: the scheduler forgets its tasks, and the
    task on the worker kills its candidate."""
    wait_for_workers(cluster)
    started = tmp_path / "started"
    script = (
        f"import os, time\nopen({str(started)!r}, 'w').write(str(os.getpid()))\ntime.sleep(60)\n"
    )
    client = (
        "import sys\n"
        "from pathlib import Path\n"
        "from symshrink.sandbox.dask_runner import connect\n"
        "from symshrink.sandbox import Job, Limits, Workload\n"
        "job = Job.create(Path(sys.argv[2]), sys.argv[3], Workload(entry='script'))\n"
        "connect(sys.argv[1]).run(job, Limits(timeout_s=90, clock='wall'))\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", client, cluster, str(tmp_path), script])
    try:
        deadline = time.monotonic() + 30
        while not started.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        pid = int(started.read_text())
    finally:
        proc.kill()
        proc.wait()
    assert gone(pid, within_s=15)


def test_relocate_moves_every_path_of_the_job(tmp_path: Path) -> None:
    (tmp_path / "client").mkdir()
    job = Job.create(tmp_path / "client", "pass\n", Workload())
    here = tmp_path / "worker"
    here.mkdir()
    for p in job.dir.iterdir():
        (here / p.name).write_bytes(p.read_bytes())
    moved = relocate(job, here)
    assert moved.dir == here
    assert moved.script == here / job.script.name
    spec = json.loads(moved.spec_path.read_text())
    assert spec["script"] == str(moved.script)
    assert spec["result"] == str(moved.result_path)
    assert spec["env"]["TORCHINDUCTOR_CACHE_DIR"] == str(here / "inductor")
    assert str(job.dir) not in moved.spec_path.read_text()


def test_reap_orphans_kills_what_a_dead_worker_left(tmp_path: Path) -> None:
    dead = tmp_path / "999999999-abc"  # above any pid_max: no such worker
    mine = tmp_path / f"{os.getpid()}-abc"
    dead.mkdir()
    mine.mkdir()
    orphan = subprocess.Popen(["sleep", "60"], cwd=dead, start_new_session=True)
    try:
        reap_orphans(tmp_path)
        gone = read_stat(orphan.pid)  # reaped already: kill_group collects its own children
        assert gone is None or gone.state in ("Z", "X")
        assert not dead.exists()
        assert mine.exists()
    finally:
        if orphan.poll() is None:
            orphan.kill()
            orphan.wait()


def test_scheduler_without_distributed_is_one_clear_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    with pytest.raises(UsageError, match="pip install 'symshrink\\[dask\\]'") as err:
        connect("local:2")
    assert str(err.value) == INSTALL_HINT


def test_bad_scheduler_addresses_are_one_clear_error() -> None:
    pytest.importorskip("distributed", reason=NO_DASK)
    for bad in ("local:0", "local:x", "tcp://127.0.0.1"):
        with pytest.raises(UsageError, match="--scheduler"):
            connect(bad, wait_s=2)

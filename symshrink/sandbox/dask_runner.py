"""Oracle calls on a Dask `distributed` cluster: a `Runner` whose jobs run on Dask workers.

A compile of minutes per candidate makes a reduction take hours on one machine, while the
candidates of a pass are independent: a cluster runs them side by side. The candidate travels
with the task as the files of its job directory (a few KB of text); on the worker, a local
runner (`ColdRunner` for the compile oracle, `CommandRunner` for `--test`) runs it exactly as
it runs here, a child in its own process group killed at the threshold, and the `Run` comes
back. The verdict cache and the journal stay with the client.

For the compile oracle each worker holds a warm pool (`WarmPoolPlugin`, `WorkerPool`):
torch is imported once per worker, not once per call (`benchmarks/dask_warm.py`).

A worker that dies mid-task costs a retry: the scheduler reschedules its tasks on the other
workers (a task whose workers died more than `distributed.scheduler.allowed-failures` times,
3 by default, fails with `KilledWorker`). The candidate it was running was started with
`setsid`, outside the worker's process group, and outlives it, so the next task that starts
on that host kills it (`reap_orphans`).
A task the client no longer wants (it cancelled it, closed, or died) kills its candidate
(`_killed_when_cancelled`): Dask cannot stop a running task, only forget its result.

`distributed` is imported by `connect` and on the workers only: symshrink works without it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import signal
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import CancelledError
from dataclasses import fields
from pathlib import Path
from typing import Any, cast

import symshrink
from symshrink import cancel
from symshrink.errors import UsageError
from symshrink.sandbox import lifeline
from symshrink.sandbox.procs import kill_groups_in, read_stat, signal_groups_in
from symshrink.sandbox.runner import ColdRunner, Job, Limits, Run, Runner

log = logging.getLogger(__name__)

# Builds the runner a task uses on its worker: a class or a functools.partial, pickled by
# reference, so that it resolves paths and `sys.executable` there, not here.
LocalRunner = Callable[[], Runner]

# Automatic re-runs of a task that raised. The candidate's own failures are data in its Run;
# an exception is the worker's fault (a full disk, say), so another attempt may succeed.
RETRIES = 2

# Each task's job directory, named `PID-...` after the worker process that owns it.
WORKER_ROOT = Path(tempfile.gettempdir()) / "symshrink-dask"

# The worker plugin that holds each worker's warm pool, by this name.
PLUGIN = "symshrink-warm-pool"

# How often a running task asks its worker whether the client still wants it: the
# speculation cancels a wrong guess so that a likelier question gets its slot, and the slot
# frees only once the candidate is killed (0.2 s was a third of the seed's median call).
CANCEL_POLL_S = 0.02

FORMS = "tcp://HOST:PORT or local:N"
INSTALL_HINT = "--scheduler needs Dask's `distributed`: pip install 'symshrink[dask]'"


class DaskRunner:
    """A `Runner` whose slots are the cluster's worker threads, one candidate per thread.

    `slots` is read from the client once: the reduction's calls at once for the whole run.
    `close` cancels the tasks in flight (their candidates are killed on their workers) and
    closes `owned` (what `connect` opened: the client, a local cluster). `shares_scratch`:
    the workers run on this host (`local:N`), so a kill file written here reaches them.
    """

    def __init__(
        self,
        client: Any,
        local: LocalRunner = ColdRunner,
        *,
        owned: Sequence[Any] = (),
        shares_scratch: bool = False,
    ) -> None:
        self.client = client
        self.shares_scratch = shares_scratch
        self.local = local
        self.slots = max(1, sum(client.nthreads().values()))
        self._owned = list(owned)
        self._in_flight: set[Any] = set()
        self._lock = threading.Lock()

    def run(self, job: Job, limits: Limits) -> Run:
        files = {p.name: p.read_bytes() for p in job.dir.iterdir() if p.is_file()}
        future = self.client.submit(
            run_on_worker, self.local, job, files, limits, pure=False, retries=RETRIES
        )
        with self._lock:
            self._in_flight.add(future)
        token = cancel.current()
        try:
            with token.on_cancel(future.cancel) if token else contextlib.nullcontext():
                return _result(future)
        except BaseException:  # interrupted or cancelled: the task must not run on
            future.cancel()
            raise
        finally:
            with self._lock:
                self._in_flight.discard(future)

    def cancel(self) -> None:
        """Cancel every task in flight: each kills its candidate; their `run` calls raise."""
        with self._lock:
            futures = list(self._in_flight)
        if futures:
            log.info("cancelling %d Dask task(s) in flight", len(futures))
            self.client.cancel(futures, force=True)

    def close(self) -> None:
        self.cancel()
        for thing in self._owned:
            thing.close()
        self._owned.clear()


def _result(future: Any) -> Run:
    """The task's `Run`; an interrupt of the run (`lifeline.kill_all`) ends the wait too,
    since the candidates it kills are not on this host.

    The wait is on an event the future sets when it is done, not on `result(timeout=)`:
    with several threads waiting at once, a timeout that fell as the task ended could
    leave distributed's `sync` with neither a result nor an error (UnboundLocalError)."""
    done = threading.Event()
    future.add_done_callback(lambda _: done.set())
    while not done.wait(CANCEL_POLL_S):
        if lifeline.stopping():
            raise CancelledError("the run is stopping")
    return cast(Run, future.result())


class WorkerPool:
    """The `LocalRunner` of the compile oracle on Dask: this worker's warm pool, which its
    `WarmPoolPlugin` started when the worker did (torch imported once per worker)."""

    shares_scratch = True

    def __init__(self) -> None:
        from distributed import get_worker

        from symshrink.sandbox.dask_plugin import WarmPoolPlugin

        pool = cast(WarmPoolPlugin, get_worker().plugins[PLUGIN]).pool
        if pool is None:
            raise RuntimeError("this worker's warm pool plugin was not set up")
        self._pool = pool
        self.slots = self._pool.slots

    def run(self, job: Job, limits: Limits) -> Run:
        return self._pool.run(job, limits)

    def close(self) -> None:
        """The pool outlives the task: the plugin closes it with the worker."""


def connect(
    scheduler: str,
    local: LocalRunner = ColdRunner,
    *,
    warm: bool = False,
    preload: tuple[str, ...] | None = None,
    wait_s: float = 60.0,
) -> DaskRunner:
    """A `DaskRunner` on `tcp://HOST:PORT` (a running scheduler with at least one worker) or on
    `local:N` (N one-thread worker processes on 127.0.0.1, stopped with the runner).

    `warm`: every worker (also one that joins or restarts later) holds a warm pool that
    imported `preload` (None: torch, `pool.default_preload()`), and the tasks run there
    instead of in `local`. Every failure to get a usable cluster is a one-line `UsageError`.
    """
    try:
        import distributed
    except ImportError:
        raise UsageError(INSTALL_HINT) from None
    # Dask logs every connection and worker start at INFO, past the root logger's level.
    logging.getLogger("distributed").setLevel(logging.WARNING)
    owned: list[Any] = []
    if scheduler.startswith("local:"):
        n = scheduler.removeprefix("local:")
        if not n.isdigit() or int(n) < 1:
            raise UsageError(f"--scheduler: expected local:N with N >= 1, got {scheduler!r}")
        n_workers = int(n)
        cluster = distributed.LocalCluster(
            n_workers=n_workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address="127.0.0.1:0",
        )
        owned.append(cluster)
        address = cluster.scheduler_address
    else:
        n_workers = 1
        try:
            address = distributed.comm.resolve_address(scheduler)
        except (OSError, ValueError) as e:
            raise UsageError(f"--scheduler {scheduler}: {e} (expected {FORMS})") from None
    try:
        client = distributed.Client(address, timeout=wait_s, set_as_default=False)
        owned.insert(0, client)
        client.wait_for_workers(n_workers, timeout=wait_s)
        versions = client.run(_symshrink_version)
        if warm:
            from symshrink.sandbox.dask_plugin import WarmPoolPlugin

            client.register_plugin(WarmPoolPlugin(preload), name=PLUGIN)
            local = WorkerPool
    except Exception as e:  # no scheduler, no worker, or a worker without symshrink
        for thing in owned:
            thing.close()
        raise UsageError(f"--scheduler {scheduler}: {e}") from None
    for worker, version in versions.items():
        if version != symshrink.__version__:
            log.warning(
                "Dask worker %s has symshrink %s, here %s", worker, version, symshrink.__version__
            )
    runner = DaskRunner(client, local, owned=owned, shares_scratch=scheduler.startswith("local:"))
    log.info("Dask scheduler %s: %d worker threads", address, runner.slots)
    return runner


def _symshrink_version() -> str:
    """Run on each worker at connect time: fails there if symshrink is not installed."""
    return symshrink.__version__


def run_on_worker(local: LocalRunner, job: Job, files: dict[str, bytes], limits: Limits) -> Run:
    """The task: lay the client's job out in a scratch directory of this host, run it there."""
    WORKER_ROOT.mkdir(parents=True, exist_ok=True)
    reap_orphans(WORKER_ROOT)
    here = Path(tempfile.mkdtemp(prefix=f"{os.getpid()}-", dir=WORKER_ROOT))
    try:
        for name, data in files.items():
            (here / name).write_bytes(data)
        moved = relocate(job, here)
        runner = local()
        try:
            with _killed_when_cancelled(here):
                return runner.run(moved, limits)
        finally:
            runner.close()
    finally:
        shutil.rmtree(here, ignore_errors=True)


@contextlib.contextmanager
def _killed_when_cancelled(here: Path) -> Iterator[None]:
    """Meanwhile, kill the candidate running in `here` once the client no longer wants this
    task (cancelled, closed or dead: the scheduler releases its tasks), so that the slot
    frees now rather than at the candidate's threshold or timeout."""
    from distributed import get_worker

    worker = get_worker()
    key = worker.get_current_task()
    done = threading.Event()

    def watch() -> None:
        while not done.wait(CANCEL_POLL_S):
            task = worker.state.tasks.get(key)
            if task is None or task.state in ("cancelled", "released", "forgotten"):
                log.info("task %s was cancelled: killing its candidate", key)
                # signalled, not reaped: the runner of this task, in this process, reaps it
                signal_groups_in([here], signal.SIGKILL)
                return

    watcher = threading.Thread(target=watch, name="symshrink-cancel", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        done.set()
        watcher.join()


def relocate(job: Job, here: Path) -> Job:
    """The job whose files were copied to `here`: its paths and its spec's paths moved there."""
    old = str(job.dir)

    def move(value: Any) -> Any:
        if isinstance(value, str) and (value == old or value.startswith(old + os.sep)):
            return str(here) + value[len(old) :]
        if isinstance(value, dict):
            return {k: move(v) for k, v in value.items()}
        if isinstance(value, list):
            return [move(v) for v in value]
        return value

    moved = Job(**{f.name: here / getattr(job, f.name).relative_to(job.dir) for f in fields(Job)})
    if moved.spec_path.exists():
        moved.spec_path.write_text(json.dumps(move(json.loads(moved.spec_path.read_text()))))
    return moved


def reap_orphans(root: Path) -> None:
    """Kill the candidates that dead workers of this host left running; remove their dirs.

    A candidate runs in its job directory, and a job directory is named after the worker
    process that made it: a directory whose worker is gone marks an orphan by its cwd.
    """
    stale = [d for d in root.iterdir() if not _alive(d.name.partition("-")[0])]
    if not stale:
        return
    log.warning("killing what dead workers left in %s", ", ".join(d.name for d in stale))
    kill_groups_in(stale)
    for d in stale:
        shutil.rmtree(d, ignore_errors=True)


def _alive(pid: str) -> bool:
    """Whether process `pid` runs (a zombie does not); a name that is no pid is not ours."""
    if not pid.isdigit():
        return True
    st = read_stat(int(pid))
    return st is not None and st.state not in ("Z", "X")

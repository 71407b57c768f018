"""Oracle calls on a Dask `distributed` cluster: a `Runner` whose jobs run on Dask workers.

A compile of minutes per candidate makes a reduction take hours on one machine, while the
candidates of a pass are independent: a cluster runs them side by side. The candidate travels
with the task as the files of its job directory (a few KB of text); on the worker, a local
runner (`ColdRunner` for the compile oracle, `CommandRunner` for `--test`) runs it exactly as
it runs here, a child in its own process group killed at the threshold, and the `Run` comes
back. The verdict cache and the journal stay with the client.

A worker that dies mid-task costs a retry: the scheduler reschedules its tasks on the other
workers (a task whose workers died more than `distributed.scheduler.allowed-failures` times,
3 by default, fails with `KilledWorker`). The candidate it was running has a session of its
own and outlives it, so the next task that starts on that host kills it (`reap_orphans`).

`distributed` is imported by `connect` only: symshrink works without it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any

import symshrink
from symshrink.errors import ReproError
from symshrink.oracle.procs import kill_group, read_stat
from symshrink.oracle.runner import ColdRunner, Job, Limits, Run, Runner

log = logging.getLogger(__name__)

# Builds the runner a task uses on its worker: a class or a functools.partial, pickled by
# reference, so that it resolves paths and `sys.executable` there, not here.
LocalRunner = Callable[[], Runner]

# Automatic re-runs of a task that raised. The candidate's own failures are data in its Run;
# an exception is the worker's fault (a full disk, say), so another attempt may succeed.
RETRIES = 2

# Each task's job directory, named `PID-...` after the worker process that owns it.
WORKER_ROOT = Path(tempfile.gettempdir()) / "symshrink-dask"

FORMS = "tcp://HOST:PORT or local:N"
INSTALL_HINT = "--scheduler needs Dask's `distributed`: pip install 'symshrink[dask]'"


class DaskRunner:
    """A `Runner` whose slots are the cluster's worker threads, one candidate per thread.

    `slots` is read from the client once: the reducer's batch width for the whole run.
    `close` closes `owned` (what `connect` opened: the client, a local cluster).
    """

    def __init__(
        self, client: Any, local: LocalRunner = ColdRunner, *, owned: Sequence[Any] = ()
    ) -> None:
        self.client = client
        self.local = local
        self.slots = max(1, sum(client.nthreads().values()))
        self._owned = list(owned)

    def run(self, job: Job, limits: Limits) -> Run:
        files = {p.name: p.read_bytes() for p in job.dir.iterdir() if p.is_file()}
        future = self.client.submit(
            run_on_worker, self.local, job, files, limits, pure=False, retries=RETRIES
        )
        return future.result()

    def close(self) -> None:
        for thing in self._owned:
            thing.close()
        self._owned.clear()


def connect(scheduler: str, local: LocalRunner = ColdRunner, *, wait_s: float = 60.0) -> DaskRunner:
    """A `DaskRunner` on `tcp://HOST:PORT` (a running scheduler with at least one worker) or on
    `local:N` (N one-thread worker processes on 127.0.0.1, stopped with the runner).

    Every failure to get a usable cluster is a one-line `ReproError`.
    """
    try:
        import distributed
    except ImportError:
        raise ReproError(INSTALL_HINT) from None
    # Dask logs every connection and worker start at INFO, past the root logger's level.
    logging.getLogger("distributed").setLevel(logging.WARNING)
    owned: list[Any] = []
    if scheduler.startswith("local:"):
        n = scheduler.removeprefix("local:")
        if not n.isdigit() or int(n) < 1:
            raise ReproError(f"--scheduler: expected local:N with N >= 1, got {scheduler!r}")
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
            raise ReproError(f"--scheduler {scheduler}: {e} (expected {FORMS})") from None
    try:
        client = distributed.Client(address, timeout=wait_s, set_as_default=False)
        owned.insert(0, client)
        client.wait_for_workers(n_workers, timeout=wait_s)
        versions = client.run(_symshrink_version)
    except Exception as e:  # no scheduler, no worker, or a worker without symshrink
        for thing in owned:
            thing.close()
        raise ReproError(f"--scheduler {scheduler}: {e}") from None
    for worker, version in versions.items():
        if version != symshrink.__version__:
            log.warning(
                "Dask worker %s has symshrink %s, here %s", worker, version, symshrink.__version__
            )
    runner = DaskRunner(client, local, owned=owned)
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
            return runner.run(moved, limits)
        finally:
            runner.close()
    finally:
        shutil.rmtree(here, ignore_errors=True)


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
    for pid in (int(p) for p in os.listdir("/proc") if p.isdigit()):
        with contextlib.suppress(OSError):
            cwd = Path(os.readlink(f"/proc/{pid}/cwd"))
            if any(cwd == d or d in cwd.parents for d in stale) and (st := read_stat(pid)):
                log.warning("killing process group %d, orphaned by a dead worker", st.pgid)
                kill_group(st.pgid)
    for d in stale:
        shutil.rmtree(d, ignore_errors=True)


def _alive(pid: str) -> bool:
    """Whether process `pid` runs (a zombie does not); a name that is no pid is not ours."""
    if not pid.isdigit():
        return True
    st = read_stat(int(pid))
    return st is not None and st.state not in ("Z", "X")

"""Parent side of the warm pool: N workers that each imported torch once.

A candidate then costs a fork instead of an interpreter start plus `import torch` (0.05 s
against ~2.5 s: `benchmarks/oracle_overhead.py`). `slots` workers serve `slots` candidates
at once. A worker that dies is restarted on the next job; the job it was running is
reported as an error by the oracle.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import logging
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import weakref
from pathlib import Path
from typing import IO, Any

from symshrink.sandbox.lifeline import start, watched
from symshrink.sandbox.procs import kill_group
from symshrink.sandbox.runner import Exit, Job, Limits, Run, child_env, collect

log = logging.getLogger(__name__)

# Imported by each worker before it forks: everything the retrace of a repro touches, then
# the per-process CPU probe that every compile would otherwise repeat.
TORCH_PRELOAD: tuple[str, ...] = (
    "sympy",
    "torch",
    "torch._dynamo",
    "torch._dynamo.repro.after_aot",
    "torch._inductor.compile_fx",
    "torch._inductor.inductor_prims",
    "torch.fx.experimental.proxy_tensor",
    "torch.fx.experimental.symbolic_shapes",
    "symshrink.sandbox.worker:probe_vec_isa",
)


def default_preload() -> tuple[str, ...]:
    """TORCH_PRELOAD, plus `symshrink.retrace` once that module exists."""
    extra = ("symshrink.retrace",) if importlib.util.find_spec("symshrink.retrace") else ()
    return TORCH_PRELOAD + extra


class WorkerDied(RuntimeError):
    """A warm worker exited (or said something unreadable) instead of answering."""


class _Worker:
    def __init__(self, preload: tuple[str, ...], env: dict[str, str], log_path: Path) -> None:
        self.log_path = log_path
        self._log: IO[bytes] = open(log_path, "ab")  # noqa: SIM115 - lives as long as the worker
        self.child = start(
            [sys.executable, "-m", "symshrink.sandbox.worker", json.dumps(list(preload))],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log,
            env=env,
            text=True,
            in_flight=False,  # it serves the candidates in flight; `close` ends it
        )
        self.proc = self.child.proc
        self.info: dict[str, Any] | None = None
        self.candidate: int | None = None  # pid (= pgid) of the candidate being run

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            try:
                tail = self.log_path.read_text(errors="replace").strip().splitlines()[-3:]
            except OSError:
                tail = []
            raise WorkerDied(
                f"warm worker {self.proc.pid} exited ({self.proc.poll()}): {' | '.join(tail)}"
            )
        return json.loads(line)

    def ready(self) -> dict[str, Any]:
        if self.info is None:
            self.info = self._read()
            if self.info.get("failed"):
                log.warning("warm worker could not preload: %s", self.info["failed"])
            if self.info.get("threads", 1) != 1:
                log.warning("warm worker has %s threads before fork", self.info["threads"])
        return self.info

    def run(self, job: Job, limits: Limits) -> dict[str, Any]:
        self.ready()
        assert self.proc.stdin is not None
        request = {
            "spec": str(job.spec_path),
            "dir": str(job.dir),
            "stdout": str(job.stdout_path),
            "stderr": str(job.stderr_path),
            "limits": limits.__dict__,
        }
        try:
            self.proc.stdin.write(json.dumps(request) + "\n")
            self.proc.stdin.flush()
        except OSError as exc:
            raise WorkerDied(str(exc)) from exc
        try:
            self.candidate = self._read()["started"]
            with watched(self.candidate):  # its group must not outlive this process either
                return self._read()
        except WorkerDied:
            if self.candidate is not None:  # orphaned: its group is ours to kill now
                kill_group(self.candidate)
            raise
        finally:
            self.candidate = None

    def close(self) -> None:
        """EOF lets an idle worker exit; a busy one gets SIGTERM and kills its candidate."""
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            with contextlib.suppress(OSError):
                self.proc.stdin.close()
            try:
                self.proc.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                self.proc.terminate()
                with contextlib.suppress(subprocess.TimeoutExpired):  # then close's SIGKILL
                    self.proc.wait(timeout=5.0)
        self.child.close()
        self._log.close()


def _close_all(workers: list[_Worker], folder: Path) -> None:
    for w in workers:
        w.close()
    shutil.rmtree(folder, ignore_errors=True)


POOL_PREFIX = "symshrink-pool-"


class WarmPool:
    """`slots` warm workers; `run` hands a job to an idle one and blocks until it is done.

    Its folder (`POOL_PREFIX`..., the workers' log and the Inductor cache of their start)
    is made in `root` (None: the system's temp dir) and removed when the pool closes; a
    process killed before that leaves it there, for whoever owns `root` to remove.
    """

    shares_scratch = True

    def __init__(
        self,
        *,
        slots: int = 1,
        preload: tuple[str, ...] | None = None,
        env: dict[str, str] | None = None,
        root: Path | None = None,
    ) -> None:
        self.slots = slots
        self.preload = default_preload() if preload is None else preload
        self._log_dir = Path(tempfile.mkdtemp(prefix=POOL_PREFIX, dir=root))
        # The warm-up's own Inductor cache; each child gets a fresh one of its own.
        self._env = child_env(
            {"TORCHINDUCTOR_CACHE_DIR": str(self._log_dir / "inductor"), **(env or {})}
        )
        self._all = [self._spawn() for _ in range(slots)]
        self._lock = threading.Lock()
        self._closed = False
        self._idle: queue.Queue[_Worker] = queue.Queue()
        for w in self._all:
            self._idle.put(w)
        self._finalizer = weakref.finalize(self, _close_all, self._all, self._log_dir)

    def _spawn(self) -> _Worker:
        return _Worker(self.preload, self._env, self._log_dir / "workers.log")

    def warm_up(self) -> list[dict[str, Any]]:
        """Wait until every worker has imported its modules; their ready reports."""
        return [w.ready() for w in self._all]

    def _replace(self, worker: _Worker) -> _Worker:
        worker.close()
        fresh = self._spawn()
        with self._lock:
            self._all[self._all.index(worker)] = fresh
        return fresh

    def run(self, job: Job, limits: Limits) -> Run:
        """Run `job` on an idle worker; a worker that dies is replaced and the job retried once
        (an 'error' verdict would be cached, and the fault was the worker's)."""
        worker = self._idle.get()
        try:
            for attempt in (1, 2):
                try:
                    reply = worker.run(job, limits)
                    break
                except WorkerDied as exc:
                    if self._closed:
                        return _failed("the pool was closed during this candidate")
                    log.warning("%s (attempt %d); restarting it", exc, attempt)
                    worker = self._replace(worker)
            else:
                return _failed("the warm worker died twice on this candidate")
        except BaseException:  # interrupted mid-job: its reply would answer the next job
            if not self._closed:
                worker = self._replace(worker)
            raise
        finally:
            self._idle.put(worker)
        if reply.get("threads_at_fork", 1) != 1:
            log.warning("forked with %s threads alive", reply["threads_at_fork"])
        return collect(job, Exit(**reply["exit"]))

    def close(self) -> None:
        self._closed = True
        self._finalizer()


def _failed(why: str) -> Run:
    return Run(Exit("exited", 0.0, 0.0, None, clean=True), {"error": why}, None, "")

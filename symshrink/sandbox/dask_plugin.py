"""The Dask worker plugin that gives each worker a warm pool (imports `distributed`).

Without it every call on a worker starts a fresh interpreter and imports torch (over a
second a call, against a 0.05 s fork from a warm pool: `benchmarks/dask_warm.py`). The
plugin starts a `WarmPool` of the worker's thread count when the worker starts (a worker
restarted by its nanny gets a new one) and closes it with the worker;
`dask_runner.WorkerPool` hands it the tasks. A worker that is SIGKILLed closes nothing:
its warm workers see their stdin close and exit, killing their candidates. The pool's
folder is made in the worker's own directory, which Dask removes with the worker, closed
or not.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from distributed import WorkerPlugin

from symshrink.sandbox.pool import WarmPool

log = logging.getLogger(__name__)


class WarmPoolPlugin(WorkerPlugin):
    """One `WarmPool` per worker; `preload` None: `pool.default_preload()` (torch)."""

    def __init__(self, preload: tuple[str, ...] | None = None) -> None:
        self.preload = preload
        self.pool: WarmPool | None = None

    def setup(self, worker: Any) -> None:
        root = Path(worker.local_directory)
        self.pool = WarmPool(slots=worker.state.nthreads, preload=self.preload, root=root)
        log.info("worker %s: a warm pool of %d", worker.address, self.pool.slots)

    def teardown(self, worker: Any) -> None:
        if self.pool is not None:
            self.pool.close()

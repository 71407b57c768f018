"""Warm worker: import torch once, then fork one fresh child per candidate.

Started by `pool.WarmPool` as `python -m symshrink.sandbox.worker PRELOAD_JSON`. It reads one
job per line on stdin and answers one JSON line per job on its original stdout (its fd 1 is
pointed at stderr, so nothing a module prints can corrupt the protocol). It forks before
anything compiles, so every child starts with torch imported and every cache empty; it
supervises the child itself because only a parent can reap it and read its CPU time. It
exits, killing its child's group, as soon as its stdin closes: the pool is closing, or the
process that started it died (a SIGKILL gives it no chance to say so).
"""

from __future__ import annotations

import fcntl
import gc
import importlib
import json
import os
import select
import signal
import sys
import time
from typing import Any, TextIO

from symshrink.sandbox.child import run_child
from symshrink.sandbox.procs import become_subreaper, die_with_parent, kill_group
from symshrink.sandbox.runner import Limits, supervise

_EXIT_CHILD_SETUP = 70


def thread_count() -> int:
    """OS threads of this process: forking is only safe while this is 1."""
    return len(os.listdir("/proc/self/task"))


def probe_vec_isa() -> None:
    """Run Inductor's CPU vector-ISA probe once, so that no child pays it.

    It compiles a C++ test program (seconds, with the `vec_isa_ok=True` that
    `symshrink.retrace` sets) and caches the answer in-process (`functools.cache`): forked
    children inherit it. The answer describes the machine, not the candidate.
    """
    import torch._inductor.config as inductor_config
    from torch._inductor.cpu_vec_isa import pick_vec_isa

    with inductor_config.patch({"cpp.vec_isa_ok": True}):
        pick_vec_isa()


def _preload(items: list[str]) -> dict[str, Any]:
    """Import each `module`, and call each `module:function` (a warm-up)."""
    start = time.perf_counter()
    failed = []
    for item in items:
        name, _, func = item.partition(":")
        try:
            module = importlib.import_module(name)
            if func:
                getattr(module, func)()
        except Exception as exc:
            failed.append(f"{item}: {type(exc).__name__}: {exc}")
    gc.freeze()  # keep the imported heap out of the children's GC and copy-on-write
    return {"import_s": time.perf_counter() - start, "failed": failed}


def _child(job: dict[str, Any], ready_w: int, proto_fds: tuple[int, ...], worker: int) -> None:
    """In the forked child: become a group leader, detach from the worker, run, never return."""
    code = _EXIT_CHILD_SETUP
    try:
        os.setsid()
        if not die_with_parent(worker):
            return
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGPIPE, signal.SIGIO):
            signal.signal(sig, signal.SIG_DFL)
        for fd in proto_fds:
            os.close(fd)
        os.chdir(job["dir"])
        devnull = os.open(os.devnull, os.O_RDONLY)
        out = os.open(job["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        err = os.open(job["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        for src, dst in ((devnull, 0), (out, 1), (err, 2)):
            os.dup2(src, dst)
            os.close(src)
        os.write(ready_w, b"1")
        os.close(ready_w)
        with open(job["spec"]) as f:
            spec = json.load(f)
        code = run_child(spec)
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code)


_running: set[int] = set()  # the process group of the candidate being supervised


def _on_term(signum: int, frame: object) -> None:
    """Told to stop (the pool is closing mid-job): take the candidate's group along."""
    for pgid in _running:
        kill_group(pgid)
    os._exit(128 + signum)


def _on_stdin(signum: int, frame: object) -> None:
    """stdin changed (SIGIO): a job arrived, or the pool's end closed. Closed, the pool is
    closing or its process died (SIGKILL included): stop at once, even mid-preload or
    mid-job, rather than live on for the rest of an import or a compile."""
    poll = select.poll()
    poll.register(0, select.POLLIN)
    if any(events & select.POLLHUP for _, events in poll.poll(0)):
        _on_term(signum, frame)


def _watch_stdin() -> None:
    """Have the kernel send SIGIO when stdin (the pool's pipe) becomes readable or closes,
    and look once now: it may have closed while this process started."""
    signal.signal(signal.SIGIO, _on_stdin)
    fcntl.fcntl(0, fcntl.F_SETOWN, os.getpid())
    fcntl.fcntl(0, fcntl.F_SETFL, fcntl.fcntl(0, fcntl.F_GETFL) | os.O_ASYNC)
    _on_stdin(signal.SIGIO, None)


def _run_job(job: dict[str, Any], proto: TextIO) -> dict[str, Any]:
    threads = thread_count()
    ready_r, ready_w = os.pipe()
    worker = os.getpid()
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:
        os.close(ready_r)
        _child(job, ready_w, (0, proto.fileno()), worker)
    _running.add(pid)
    os.close(ready_w)
    os.read(ready_r, 1)  # the child leads its own group now (or died trying: EOF)
    os.close(ready_r)
    proto.write(json.dumps({"started": pid}) + "\n")  # lets the pool clean up if we die
    proto.flush()
    try:
        exit_ = supervise(pid, Limits(**job["limits"]), started)
    finally:
        _running.discard(pid)
    return {"exit": exit_.__dict__, "threads_at_fork": threads}


def main() -> None:
    proto = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    signal.signal(signal.SIGTERM, _on_term)
    _watch_stdin()
    become_subreaper()
    info = _preload(json.loads(sys.argv[1]))
    proto.write(json.dumps({"ready": True, "pid": os.getpid(), "threads": thread_count(), **info}))
    proto.write("\n")
    proto.flush()
    for line in sys.stdin:
        reply = _run_job(json.loads(line), proto)
        proto.write(json.dumps(reply) + "\n")
        proto.flush()


if __name__ == "__main__":
    main()

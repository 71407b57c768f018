"""Process groups that must not outlive this process, even when it is SIGKILLed.

A candidate leads its own process group so that it can be killed whole; for the same reason
nothing kills it when we die, and a SIGKILLed `symshrink minimize` would leave its `--test`
command (and all it started) or a compile running for minutes. So every group we start is
listed with a watchdog: a small child that reads `+PGID` and `-PGID` lines from a pipe only
this process holds, and SIGKILLs the groups still listed when the pipe closes, which the
kernel does when we exit, however we exit. The same list serves an interrupt: `kill_all`
stops every candidate in flight, so that no thread waits for its own to finish.

`main` is the watchdog.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

from symshrink.oracle.procs import kill_group, python_env, signal_group

log = logging.getLogger(__name__)

_lock = threading.RLock()  # reentrant: kill_all runs in a signal handler, maybe inside watched
_groups: set[int] = set()
_watchdog: subprocess.Popen[bytes] | None = None
_stopping = False


def _tell(line: str) -> None:
    """Send one line to the watchdog, starting it first if need be (holding `_lock`)."""
    global _watchdog
    if _watchdog is None:
        _watchdog = subprocess.Popen(
            [sys.executable, "-c", f"from {__name__} import main; main()"],
            stdin=subprocess.PIPE,
            env=python_env(),
            start_new_session=True,  # Ctrl-C in the terminal is ours to handle, not its
        )
    try:
        assert _watchdog.stdin is not None
        _watchdog.stdin.write(f"{line}\n".encode())
        _watchdog.stdin.flush()
    except OSError:
        log.warning("the process-group watchdog is gone: a SIGKILL now would leave groups running")


@contextlib.contextmanager
def watched(pgid: int) -> Iterator[None]:
    """Keep group `pgid` listed meanwhile; one started while `kill_all` holds dies at once."""
    with _lock:
        _groups.add(pgid)
        _tell(f"+{pgid}")
        if _stopping:
            signal_group(pgid, signal.SIGKILL)
    try:
        yield
    finally:
        with _lock:
            _groups.discard(pgid)
            _tell(f"-{pgid}")


def kill_all() -> None:
    """SIGKILL every listed group now, and each one started until `resume` (an interrupt:
    threads still unwinding must not start new candidates). Their supervisors reap them."""
    global _stopping
    with _lock:
        _stopping = True
        for pgid in _groups:
            signal_group(pgid, signal.SIGKILL)


def stopping() -> bool:
    """Whether `kill_all` holds: what waits for a candidate elsewhere (a Dask task) stops."""
    return _stopping


def resume() -> None:
    """The interrupt was handled: groups may run again."""
    global _stopping
    with _lock:
        _stopping = False


def run_in_group(
    argv: list[str],
    *,
    timeout_s: float | None,
    cwd: str | Path | None = None,
    env: dict | None = None,
) -> tuple[int | None, str, str]:
    """Run `argv` as the leader of a new, watched process group; (exit code, stdout, stderr).

    The whole group is SIGKILLed at `timeout_s` (None: never; exit code None) and again
    when the leader is done, so nothing it started (compile workers) outlives the call.
    """
    proc = subprocess.Popen(
        argv,
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    with watched(proc.pid):
        try:
            out, err = proc.communicate(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            kill_group(proc.pid)
            proc.communicate()
            return None, "", ""
        finally:
            with contextlib.suppress(Exception):
                kill_group(proc.pid, settle_s=0.5)
    return proc.returncode, out, err


def main() -> None:
    """The watchdog: keep the list from stdin; at its end, kill the groups still on it."""
    groups: set[int] = set()
    for line in sys.stdin.buffer:
        sign, pgid = line[:1], int(line[1:])
        if sign == b"+":
            groups.add(pgid)
        else:
            groups.discard(pgid)
    for pgid in groups:
        kill_group(pgid)


if __name__ == "__main__":
    main()

"""Every child symshrink starts, started one way: `start`. None outlives this process.

A child leads its own process group so that it can be killed whole; for the same reason
nothing kills it when we die, and a SIGKILLed `symshrink minimize` would leave its `--test`
command (and all it started) or a compile running for minutes. So every group we start is
listed with a watchdog: a small child that reads `+PGID` and `-PGID` lines from a pipe only
this process holds, and SIGKILLs the groups still listed when the pipe closes, which the
kernel does when we exit, however we exit. The same list serves an interrupt: `kill_all`
stops every child in flight, so that no thread waits for its own to finish, and
`interrupts` turns SIGINT and SIGTERM into `Interrupted` (exit code 130 / 143) after it.

`start` is the only place that starts a program (a test greps `symshrink/` for any
other); the warm worker's `fork` of a candidate (`worker.py`) is the one other way a
process begins, and that candidate is listed here too. `main` is the watchdog.
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
from typing import IO, Any

from symshrink.sandbox.procs import kill_group, python_env, signal_group

log = logging.getLogger(__name__)

_lock = threading.RLock()  # reentrant: kill_all runs in a signal handler, maybe inside watched
_groups: set[int] = set()  # in flight: what kill_all stops
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


def _list(pgid: int, in_flight: bool) -> None:
    """List group `pgid` with the watchdog (and, `in_flight`, for `kill_all`); one listed
    while `kill_all` holds dies at once."""
    with _lock:
        _tell(f"+{pgid}")
        if in_flight:
            _groups.add(pgid)
            if _stopping:
                signal_group(pgid, signal.SIGKILL)


def _unlist(pgid: int) -> None:
    with _lock:
        _groups.discard(pgid)
        _tell(f"-{pgid}")


@contextlib.contextmanager
def watched(pgid: int) -> Iterator[None]:
    """Keep group `pgid`, in flight, listed meanwhile: for a process `start` did not start
    (a candidate the warm worker forked)."""
    _list(pgid, in_flight=True)
    try:
        yield
    finally:
        _unlist(pgid)


class Child:
    """A child `start` started: `proc`, the leader of its own process group (`pid`), listed
    until `close`, which leaves nothing of the group. A context manager closes it on leaving."""

    def __init__(self, proc: subprocess.Popen[Any]) -> None:
        self.proc = proc
        self.pid = proc.pid

    def close(self, settle_s: float = 0.5) -> bool:
        """SIGKILL what is left of the group, reap the leader; True if nothing survived.

        A leader still running is killed first and reaped with its real status (the
        group's reaping would take it otherwise, and Popen would read 0)."""
        try:
            if self.proc.returncode is None and self.proc.poll() is None:
                signal_group(self.pid, signal.SIGKILL)
                self.proc.wait()
            return kill_group(self.pid, settle_s=settle_s)
        finally:
            _unlist(self.pid)

    def __enter__(self) -> Child:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def start(
    argv: list[str],
    *,
    cwd: str | Path | None = None,
    env: dict[str, str] | None = None,
    stdin: int | IO[Any] | None = None,
    stdout: int | IO[Any] | None = None,
    stderr: int | IO[Any] | None = None,
    text: bool = False,
    in_flight: bool = True,
) -> Child:
    """Start `argv` the one way symshrink starts a child: the leader of a new process group
    (all it starts dies with it), listed with the watchdog (a SIGKILLed symshrink takes it
    along) until the returned `Child` is closed. `in_flight`: `kill_all` stops it too (a
    warm worker is not: it serves the candidates in flight, and its pool closes it).

    A program that cannot be started raises OSError, as Popen does."""
    proc = subprocess.Popen(
        argv,
        cwd=cwd,
        env=env,
        stdin=stdin,
        stdout=stdout,
        stderr=stderr,
        text=text,
        start_new_session=True,
    )
    try:
        _list(proc.pid, in_flight)
    except BaseException:  # interrupted before it was listed: it must not run on unlisted
        signal_group(proc.pid, signal.SIGKILL)
        proc.wait()
        raise
    return Child(proc)


def kill_all() -> None:
    """SIGKILL every group in flight now, and each one started until `resume` (an interrupt:
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


class Interrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM: the command stops with exit code 128 + the signal's number (130,
    143), what a shell reports for a process the signal killed."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.exit_code = 128 + signum


@contextlib.contextmanager
def interrupts() -> Iterator[list[int]]:
    """SIGINT and SIGTERM raise `Interrupted` alike, once every child in flight was killed
    with its group (the threads waiting for them would otherwise wait for them to end);
    the list it gives gets each signal's number (an inner `interrupts` takes them first).
    Outside the main thread (a caller of the Python API) signals stay the caller's."""
    received: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield received
        return

    def handler(signum: int, frame: object) -> None:
        received.append(signum)
        kill_all()
        raise Interrupted(signum)

    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield received
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)
        resume()


def run_in_group(
    argv: list[str],
    *,
    timeout_s: float | None,
    cwd: str | Path | None = None,
    env: dict[str, str] | None = None,
) -> tuple[int | None, str, str]:
    """Run `argv` to its end (`start`ed); (exit code, stdout, stderr).

    The whole group is SIGKILLed at `timeout_s` (None: never; exit code None) and again
    when the leader is done, so nothing it started (compile workers) outlives the call.
    """
    pipe = subprocess.PIPE
    with start(argv, cwd=cwd, env=env, stdout=pipe, stderr=pipe, text=True) as child:
        try:
            out, err = child.proc.communicate(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            child.close()
            child.proc.communicate()
            return None, "", ""
    return child.proc.returncode, out, err


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

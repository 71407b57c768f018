"""Process-group bookkeeping: find a group's live members in /proc and kill them all.

A candidate runs as the leader of its own process group, so everything it starts (Inductor
compile workers, a shell's children) shares its pgid unless it calls setsid itself, which
torch does not. Zombies count as gone: they hold no CPU or memory, only a pid entry until
their new parent (init, or a subreaper) collects them.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import signal
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

_CLK_TCK = os.sysconf("SC_CLK_TCK")
_PACKAGE_PARENT = str(Path(__file__).resolve().parents[2])
_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36


def _prctl(option: int, value: int) -> bool:
    try:
        return ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


@dataclass(frozen=True)
class ProcStat:
    """The fields of /proc/PID/stat the oracle needs."""

    pid: int
    state: str
    pgid: int
    cpu_s: float  # utime + stime of the process and of its reaped children


def read_stat(pid: int) -> ProcStat | None:
    """Parse /proc/PID/stat; None if the process is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            raw = f.read().decode("ascii", "replace")
    except OSError:
        return None
    # The command name (field 2) may contain spaces and parentheses: split after the last ')'.
    rest = raw[raw.rfind(")") + 2 :].split()
    ticks = sum(int(x) for x in rest[11:15])  # utime, stime, cutime, cstime
    return ProcStat(pid=pid, state=rest[0], pgid=int(rest[2]), cpu_s=ticks / _CLK_TCK)


def group_members(pgid: int) -> list[int]:
    """Pids of the live (non-zombie) processes whose process group is `pgid`."""
    members = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        st = read_stat(int(name))
        if st is not None and st.pgid == pgid and st.state not in ("Z", "X"):
            members.append(st.pid)
    return members


def groups_in(dirs: Sequence[Path]) -> set[int]:
    """The process groups of the processes whose working directory is in one of `dirs` (a
    candidate runs in its job directory, whichever runner started it)."""
    groups = set()
    for pid in (int(p) for p in os.listdir("/proc") if p.isdigit()):
        with contextlib.suppress(OSError):
            cwd = Path(os.readlink(f"/proc/{pid}/cwd"))
            if any(cwd == d or d in cwd.parents for d in dirs) and (st := read_stat(pid)):
                groups.add(st.pgid)
    return groups


def signal_groups_in(dirs: Sequence[Path], sig: int) -> None:
    """Send `sig` to the process groups working in `dirs` (`groups_in`). Their supervisor,
    which may be this process, still reaps them: nothing is reaped here."""
    for pgid in groups_in(dirs):
        signal_group(pgid, sig)


def kill_groups_in(dirs: Sequence[Path]) -> None:
    """`kill_group` each process group working in `dirs`: for orphans, which no supervisor
    of ours waits for (a group that has one: `signal_groups_in`)."""
    for pgid in groups_in(dirs):
        log.info("killing process group %d (in %s)", pgid, ", ".join(map(str, dirs)))
        kill_group(pgid)


def signal_group(pgid: int, sig: int) -> None:
    """Send `sig` to group `pgid`, ignoring a group that is already gone."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def reap_group_zombies(pgid: int) -> None:
    """Collect exited children of ours in `pgid` (orphans reparented to us as subreaper)."""
    while True:
        try:
            info = os.waitid(os.P_PGID, pgid, os.WEXITED | os.WNOHANG)
        except ChildProcessError:
            return
        if info is None:
            return


def kill_group(pgid: int, *, settle_s: float = 2.0) -> bool:
    """SIGKILL group `pgid` until /proc shows no live member; True if none is left.

    Call it after the leader was reaped (its rusage is the caller's): the group's other
    members, Inductor's compile workers say, may outlive a leader that exited normally.
    """
    deadline = time.monotonic() + settle_s
    while True:
        signal_group(pgid, signal.SIGKILL)
        reap_group_zombies(pgid)
        left = group_members(pgid)
        if not left:
            return True
        if time.monotonic() >= deadline:
            log.warning("process group %d: survivors of SIGKILL: %s", pgid, left)
            return False
        time.sleep(0.01)


def become_subreaper() -> bool:
    """Make orphaned descendants reparent to this process, so that it can reap them.

    Only for a process that exists to run candidates (the warm worker): a subreaper must
    collect its adopted zombies, which `reap_group_zombies` does per group.
    """
    return _prctl(_PR_SET_CHILD_SUBREAPER, 1)


def die_with_parent(parent: int) -> bool:
    """SIGKILL this process when its parent dies (a forked candidate of a dead worker);
    False if `parent` died before this was set (then nothing will)."""
    _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    return os.getppid() == parent


def python_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """This environment and `extra`, with this `symshrink` importable by a child Python."""
    env = {**os.environ, **(extra or {})}
    path = env.get("PYTHONPATH", "")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (_PACKAGE_PARENT, path) if p)
    return env

"""The tool's own files: written so that a killed run never leaves a half-written one, checked
before any work is done, and a directory held by one run at a time."""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from symshrink.errors import UsageError


def atomic_write(path: Path, text: str) -> None:
    """Write to a temp file beside `path`, fsync, then rename over it (atomic on POSIX).

    The file gets the mode `open` would give it (0666 less the umask), not mkstemp's 0600.
    A path that cannot be written is a UsageError naming it.
    """
    fd, tmp = _temp_beside(path)
    try:
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "w") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException as e:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(e, OSError):
            raise UsageError(f"cannot write: {e.strerror}", path) from None
        raise


def check_writable(path: Path) -> None:
    """Fail now, not after hours of work, where `atomic_write(path)` would fail."""
    if path.is_dir():
        raise UsageError("is a directory, not a file", path)
    fd, tmp = _temp_beside(path)
    os.close(fd)
    os.unlink(tmp)


def _temp_beside(path: Path) -> tuple[int, str]:
    """A new temp file in `path`'s directory (made if missing): renaming it over is atomic."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UsageError(f"cannot make its folder {e.filename}: {e.strerror}", path) from None
    try:
        return tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as e:
        raise UsageError(f"cannot write: {e.strerror}", path) from None


def _umask() -> int:
    """The process's umask, read without setting it (os.umask can only swap it, and a file
    another thread created meanwhile would get the wrong mode)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("Umask:"):
            return int(line.split()[1], 8)
    return 0o022  # kernels before 4.7 do not say


@contextlib.contextmanager
def held(lock: Path) -> Iterator[None]:
    """Hold an exclusive flock on `lock` meanwhile; held by another process: a UsageError
    naming its pid (the lock file holds the holder's pid; the kernel drops the lock when
    the holder exits, SIGKILL included)."""
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)
    except OSError as e:
        raise UsageError(f"cannot write: {e.strerror}", lock) from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
            raise UsageError(f"in use by another run (pid {holder})", lock) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(fd)

"""Child side: a thread that samples the main thread's Python stack to learn where time goes.

Sampling (not tracing) keeps the overhead near zero (~60 µs per sample of a 150-frame stack,
every 20 ms), so the measured time stays honest. Samples are appended to a text file every
`flush_s` and once more when the child ends or gets SIGTERM, so a candidate killed at the
threshold still leaves its timeline behind:

    n IDX NAME          a new spot name
    s CPU WALL IDX      a sample: process CPU s, wall s since start, spot (-1: none)
    p PHASE             the phase changed

A sample's *spot* names why the time is spent, not where the CPU happens to be: the innermost
frame of a watched module outside the `libraries` (the torch function that called into
sympy: `safe_gcd`, `PythonMod.eval`), or, when there is none, the outermost library frame
(the sympy API a plain script called). Leaves such as `dmp_mul` or `Basic.__hash__` are shared
by every sympy-heavy workload and would tell two pathologies apart poorly.
"""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path
from types import CodeType, FrameType

# Where the symbolic-shape pathologies live: frames outside these are not counted.
DEFAULT_MODULES: tuple[str, ...] = (
    "sympy",
    "torch.fx.experimental.symbolic_shapes",
    "torch.utils._sympy",
    "torch._inductor",
)
DEFAULT_LIBRARIES: tuple[str, ...] = ("sympy",)

_IGNORED, _CALLER, _LIBRARY = 0, 1, 2


def _matches(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


class StackSampler:
    """Records the spot and the phase of each sample of the main thread's stack.

    The phase is named by the innermost frame whose qualified name is a key of
    `phase_markers` (`default_phase` if none is on the stack).
    """

    def __init__(
        self,
        path: Path,
        *,
        interval_s: float = 0.02,
        flush_s: float = 0.25,
        modules: tuple[str, ...] = DEFAULT_MODULES,
        libraries: tuple[str, ...] = DEFAULT_LIBRARIES,
        phase_markers: dict[str, str] | None = None,
        default_phase: str = "run",
    ) -> None:
        self.path = path
        self.interval_s = interval_s
        self.flush_s = flush_s
        self.modules = tuple(modules)
        self.libraries = tuple(libraries)
        self.phase_markers = phase_markers or {}
        self.default_phase = default_phase
        self.samples = 0
        self._ids: dict[str, int] = {}
        self._phase: str | None = None
        self._pending: list[str] = []
        self._codes: dict[CodeType, tuple[str, int, str | None]] = {}
        main = threading.main_thread().ident
        assert main is not None, "the main thread has started"
        self._main = main
        self._start = time.monotonic()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._loop, name="symshrink-sampler", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Stop sampling and write what is pending."""
        self._stop.set()
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(timeout=1.0)
        self.flush()

    def _loop(self) -> None:
        every = max(1, round(self.flush_s / self.interval_s))
        while not self._stop.wait(self.interval_s):
            frame = sys._current_frames().get(self._main)
            if frame is not None:
                self._record(frame)
            if self.samples % every == 0:
                self.flush()

    def _classify(self, frame: FrameType) -> tuple[str, int, str | None]:
        """(qualified name, _IGNORED/_CALLER/_LIBRARY, phase marked), cached per code object."""
        code = frame.f_code
        known = self._codes.get(code)
        if known is None:
            module = frame.f_globals.get("__name__", "?")
            name = f"{module}.{code.co_qualname}"
            kind = _IGNORED
            # Module bodies are imports, never the pathology.
            if _matches(module, self.modules) and code.co_name != "<module>":
                kind = _LIBRARY if _matches(module, self.libraries) else _CALLER
            known = self._codes[code] = (name, kind, self.phase_markers.get(name))
        return known

    def spot_and_phase(self, frame: FrameType | None) -> tuple[str | None, str]:
        """The spot (None if no watched frame) and the phase of the stack ending in `frame`."""
        caller: str | None = None
        outer_library: str | None = None
        phase: str | None = None
        while frame is not None:
            name, kind, marked = self._classify(frame)
            phase = phase or marked
            if caller is None:
                if kind == _CALLER:
                    caller = name
                elif kind == _LIBRARY:
                    outer_library = name
            frame = frame.f_back
        return caller or outer_library, phase or self.default_phase

    def _record(self, frame: FrameType) -> None:
        cpu, wall = time.process_time(), time.monotonic() - self._start
        spot, phase = self.spot_and_phase(frame)
        with self._lock:
            self.samples += 1
            if phase != self._phase:
                self._phase = phase
                self._pending.append(f"p {phase}")
            idx = -1
            if spot is not None:
                idx = self._ids.get(spot, -1)
                if idx < 0:
                    idx = self._ids[spot] = len(self._ids)
                    self._pending.append(f"n {idx} {spot}")
            self._pending.append(f"s {cpu:.3f} {wall:.3f} {idx}")

    def flush(self) -> None:
        """Append the pending lines (a reader skips a line cut short by a kill)."""
        with self._lock:
            if self._pending:
                with open(self.path, "a") as f:
                    f.write("\n".join(self._pending) + "\n")
                self._pending = []

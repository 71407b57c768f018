"""What a running `minimize` shows: the phase, the best result so far, calls and budget.

On a terminal, a tqdm bar whose description is the phase ("checking the original", the
pass at work, "re-verifying"). Anywhere else (a pipe, a CI log, a terminal that reports no
columns, where tqdm would print nothing) a plain line whenever the phase or the best result
changes, and otherwise at most every `every_s` seconds, so logs stay readable.

No ETA: how many calls a reduction needs is not known in advance.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass
from typing import TextIO

from tqdm import tqdm


@dataclass(frozen=True)
class Best:
    """The smallest interesting model so far, as the progress line shows it."""

    symbols: int
    ops: int
    ratio: float | None = None


class Progress:
    """A bar on a terminal, plain lines elsewhere; `enabled=False` shows nothing."""

    def __init__(
        self,
        enabled: bool,
        *,
        max_calls: int | None = None,
        max_time: float | None = None,
        stream: TextIO | None = None,
        every_s: float = 10.0,
    ) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        self.max_calls, self.max_time, self.every_s = max_calls, max_time, every_s
        self.started = time.monotonic()
        self._phase = "starting"
        self._calls = self._accepted = 0
        self._best: Best | None = None
        self._last_line = 0.0
        self._said: tuple[str, Best | None] | None = None
        self._bar: tqdm | None = None
        if enabled and _is_terminal(self.stream):
            self._bar = tqdm(
                total=max_calls, unit="call", desc=self._phase, file=self.stream, leave=True
            )

    def phase(self, name: str) -> None:
        """A new phase of the run: checking the original, a pass, re-verifying."""
        self._phase = name
        self._show()

    def update(self, calls: int, accepted: int, best: Best) -> None:
        self._calls, self._accepted, self._best = calls, accepted, best
        self._show()

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
        elif self.enabled and self._said is not None:
            self._line()

    def _budget(self) -> str:
        parts = []
        if self.max_calls is not None:
            parts.append(f"{max(0, self.max_calls - self._calls)} calls")
        if self.max_time is not None:
            left = max(0.0, self.max_time - (time.monotonic() - self.started))
            parts.append(f"{left / 60:.0f} min")
        return ", ".join(parts) + " left" if parts else ""

    def _best_text(self) -> str:
        if self._best is None:
            return ""
        text = f"{self._best.symbols} symbols, {self._best.ops} ops"
        if self._best.ratio is not None:
            text += f", {self._best.ratio:.1f}x its twin"
        return text

    def _show(self) -> None:
        if not self.enabled:
            return
        if self._bar is not None:
            self._bar.set_description_str(self._phase, refresh=False)
            self._bar.n = self._calls
            postfix = ", ".join(p for p in (self._best_text(), self._budget()) if p)
            self._bar.set_postfix_str(postfix, refresh=False)
            self._bar.refresh()
            return
        changed = self._said != (self._phase, self._best)
        if changed or time.monotonic() - self._last_line >= self.every_s:
            self._line()

    def _line(self) -> None:
        parts = [f"{self._calls} calls", f"{self._accepted} accepted", self._best_text()]
        parts.append(self._budget())
        elapsed = time.monotonic() - self.started
        text = ", ".join(p for p in parts if p)
        self.stream.write(f"symshrink: [{elapsed:4.0f}s] {self._phase}: {text}\n")
        self.stream.flush()
        self._last_line = time.monotonic()
        self._said = (self._phase, self._best)


def _is_terminal(stream: TextIO) -> bool:
    """A terminal tqdm can draw on (one that reports no columns gets plain lines)."""
    try:
        if not stream.isatty():
            return False
        columns = os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, ValueError, OSError):
        return False
    return int(os.environ.get("COLUMNS", columns) or 0) > 0

"""Verdicts by candidate key, persisted as JSONL so a resumed reduction repeats no call.

One line per judged key, appended and flushed as soon as the verdict is known; a line cut
short by a crash is skipped on load. The cache belongs to one work directory, i.e. to one
original and one oracle configuration: the reducer keeps it next to its journal.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from pathlib import Path

from symshrink.oracle.verdict import Verdict

log = logging.getLogger(__name__)


def text_key(source: str) -> str:
    """The key of a candidate the caller gave no canonical key for."""
    return "sha256:" + hashlib.sha256(source.encode()).hexdigest()


class Cache:
    """Key → Verdict, in memory and (with a `path`) in a JSONL file; counts hits and misses."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self.hits = 0
        self.misses = 0
        self._verdicts: dict[str, Verdict] = {}
        self._lock = threading.Lock()
        if path is not None and path.exists():
            self._load(path)

    def _load(self, path: Path) -> None:
        skipped = 0
        with path.open("rb") as f:  # bytes: a line that is not UTF-8 is skipped like a cut one
            for line in f:
                try:
                    entry = json.loads(line)
                    self._verdicts[entry["key"]] = Verdict.from_dict(entry["verdict"])
                except (ValueError, KeyError, TypeError):
                    skipped += 1
        if skipped:
            log.warning("%s: skipped %d unreadable lines", path, skipped)
        log.info("%s: %d cached verdicts", path, len(self._verdicts))

    def __len__(self) -> int:
        return len(self._verdicts)

    def __contains__(self, key: str) -> bool:
        return key in self._verdicts

    def get(self, key: str) -> Verdict | None:
        """The cached verdict (marked `cached=True`), counting a hit or a miss."""
        with self._lock:
            verdict = self._verdicts.get(key)
            if verdict is None:
                self.misses += 1
                return None
            self.hits += 1
            return verdict.as_cached()

    def put(self, key: str, verdict: Verdict) -> None:
        with self._lock:
            self._verdicts[key] = verdict
            if self.path is not None:
                with self.path.open("a") as f:
                    f.write(json.dumps({"key": key, "verdict": verdict.to_dict()}) + "\n")

"""The reducer's journal: verdicts by candidate key, persisted as JSONL so a resumed
reduction repeats no call.

One line per key, appended and flushed as soon as the record is known; a line cut short
by a crash is skipped on load. `JsonlStore` is the generic store; `Journal` holds the
verdicts (the one cache of verdicts: the reducer consults it, oracles only judge), and the
compile oracle keeps its controls' times in one too (`oracle/controls.py`). This is the
contract between the reducer and the oracles, with `symshrink.verdict`: it imports no oracle.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Generic, TypeVar

from symshrink.verdict import Verdict

log = logging.getLogger(__name__)

R = TypeVar("R")


class JsonlStore(Generic[R]):
    """Key → record, in memory and (with a `path`) in a JSONL file; counts hits and misses.

    Each line is `{"key": ..., FIELD: encode(record), "sum": ...}`, the sum a checksum of
    the key and the record: a line edited by hand (or by anything but this class) no longer
    matches it and is skipped on load, so its candidate is judged again rather than taken
    on trust.
    """

    def __init__(
        self,
        path: Path | None,
        *,
        field: str,
        encode: Callable[[R], dict[str, Any]],
        decode: Callable[[dict[str, Any]], R],
    ) -> None:
        self.path = path
        self.hits = 0
        self.misses = 0
        self._field, self._encode, self._decode = field, encode, decode
        self._records: dict[str, R] = {}
        self._lock = threading.Lock()
        if path is not None and path.exists():
            self._load(path)

    def _load(self, path: Path) -> None:
        skipped = 0
        with path.open("rb") as f:  # bytes: a line that is not UTF-8 is skipped like a cut one
            for line in f:
                try:
                    entry = json.loads(line)
                    key, data = entry["key"], entry[self._field]
                    if entry["sum"] != _checksum(key, data):
                        raise ValueError("checksum mismatch")
                    self._records[key] = self._decode(data)
                except (ValueError, KeyError, TypeError):
                    skipped += 1
        if skipped:
            log.warning(
                "%s: skipped %d unreadable or edited lines (their candidates are judged again)",
                path,
                skipped,
            )
        log.info("%s: %d records", path, len(self._records))

    def __len__(self) -> int:
        return len(self._records)

    def __contains__(self, key: str) -> bool:
        return key in self._records

    def get(self, key: str) -> R | None:
        """The stored record, counting a hit or a miss."""
        with self._lock:
            record = self._records.get(key)
            if record is None:
                self.misses += 1
                return None
            self.hits += 1
            return record

    def put(self, key: str, record: R) -> None:
        with self._lock:
            self._records[key] = record
            if self.path is not None:
                with self.path.open("a") as f:
                    data = self._encode(record)
                    line = {"key": key, self._field: data, "sum": _checksum(key, data)}
                    f.write(json.dumps(line) + "\n")


def _checksum(key: str, data: dict[str, Any]) -> str:
    text = json.dumps([key, data], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class Journal(JsonlStore[Verdict]):
    """Verdicts by candidate key (its canonical form)."""

    def __init__(self, path: Path | None = None) -> None:
        super().__init__(path, field="verdict", encode=Verdict.to_dict, decode=Verdict.from_dict)

    def get(self, key: str) -> Verdict | None:
        """The cached verdict, marked `cached=True`."""
        verdict = super().get(key)
        return verdict.as_cached() if verdict is not None else None

"""Records by key, persisted as JSONL so a resumed reduction repeats no call.

One line per key, appended and flushed as soon as the record is known; a line cut short
by a crash is skipped on load. Two stores use it, both kept in the work directory of one
original and one oracle configuration: the verdicts by candidate key (`Cache`, the
journal), and the measured times of candidates' controls (`ControlTimes`, static twins).
"""

from __future__ import annotations

import hashlib
import json
import logging
import statistics
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from symshrink.oracle.verdict import Verdict

log = logging.getLogger(__name__)

R = TypeVar("R")


def text_key(source: str) -> str:
    """The key of a candidate the caller gave no canonical key for."""
    return "sha256:" + hashlib.sha256(source.encode()).hexdigest()


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


class Cache(JsonlStore[Verdict]):
    """Verdicts by candidate key: the reducer's journal and the oracle's memo."""

    def __init__(self, path: Path | None = None) -> None:
        super().__init__(path, field="verdict", encode=Verdict.to_dict, decode=Verdict.from_dict)

    def get(self, key: str) -> Verdict | None:
        """The cached verdict, marked `cached=True`."""
        verdict = super().get(key)
        return verdict.as_cached() if verdict is not None else None


@dataclass(frozen=True)
class ControlTime:
    """A control's measured runs on the oracle's clock, or why it could not be measured."""

    measures: tuple[float, ...]
    error: str | None = None

    @property
    def seconds(self) -> float:
        """The median run (the candidates it is compared with are single runs too)."""
        return statistics.median(self.measures)

    def to_dict(self) -> dict[str, Any]:
        return {"measures": list(self.measures), "error": self.error}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ControlTime:
        measures = tuple(float(m) for m in data["measures"])
        error = data.get("error")
        if not measures and error is None:
            raise ValueError("a control time needs measures or an error")
        return cls(measures, None if error is None else str(error))


class ControlTimes(JsonlStore[ControlTime]):
    """Control (static twin) times by control key, measured once each."""

    def __init__(self, path: Path | None = None) -> None:
        super().__init__(
            path, field="control", encode=ControlTime.to_dict, decode=ControlTime.from_dict
        )

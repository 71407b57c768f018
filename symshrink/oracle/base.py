"""The oracle interface the reducer calls, and the caching/batching every oracle shares."""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Protocol

from symshrink.oracle.cache import Cache, text_key
from symshrink.oracle.verdict import Verdict


class Oracle(Protocol):
    """Judges candidate scripts. `key` is the candidate's canonical form (None: its text)."""

    def __call__(self, candidate_source: str, key: str | None = None) -> Verdict: ...

    def many(
        self, candidates: Sequence[str], keys: Sequence[str | None] | None = None
    ) -> list[Verdict]: ...


class BaseOracle:
    """Answers from the cache when it can, judges each new key once, up to `jobs` at once.

    Subclasses implement `_judge(source)`. Duplicate keys within one `many` call are judged
    once; the copies come back marked `cached`.
    """

    def __init__(self, *, cache: Cache | None = None, jobs: int = 1) -> None:
        self.cache = cache if cache is not None else Cache()
        self.jobs = max(1, jobs)

    def _judge(self, source: str) -> Verdict:
        raise NotImplementedError

    def __call__(self, candidate_source: str, key: str | None = None) -> Verdict:
        return self.many([candidate_source], [key])[0]

    def many(
        self, candidates: Sequence[str], keys: Sequence[str | None] | None = None
    ) -> list[Verdict]:
        if keys is None:
            keys = [None] * len(candidates)
        if len(keys) != len(candidates):
            raise ValueError("one key (or None) per candidate")
        pairs = list(zip(candidates, keys, strict=True))
        resolved = [k if k is not None else text_key(s) for s, k in pairs]
        answers: list[Verdict | None] = []
        todo: dict[str, str] = {}
        for source, key in zip(candidates, resolved, strict=True):
            answer = None if key in todo else self.cache.get(key)
            if answer is None and key not in todo:
                todo[key] = source
            answers.append(answer)
        judged = dict(zip(todo, self._judge_all(list(todo.values())), strict=True))
        for key, verdict in judged.items():
            self.cache.put(key, verdict)
        first = set(judged)
        results = []
        for key, answer in zip(resolved, answers, strict=True):
            if answer is not None:
                results.append(answer)
            elif key in first:
                first.discard(key)
                results.append(judged[key])
            else:
                results.append(judged[key].as_cached())
        return results

    def _judge_all(self, sources: list[str]) -> list[Verdict]:
        if self.jobs == 1 or len(sources) <= 1:
            return [self._judge(s) for s in sources]
        with ThreadPoolExecutor(max_workers=min(self.jobs, len(sources))) as ex:
            return list(ex.map(self._judge, sources))

    def close(self) -> None:
        """Release workers and scratch space (nothing to release here)."""

    def __enter__(self) -> BaseOracle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

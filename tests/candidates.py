"""Candidates for oracle tests whose scripts are not repros (a `--test` command's, a fake
runner's, a Python callable's): those oracles run or read the text alone and derive no
control from the model, so the model is an empty one."""

from __future__ import annotations

import hashlib

from symshrink.repro.candidate import Candidate
from symshrink.repro.model import Repro

NO_MODEL = Repro(hints={}, inputs=())


def script(source: str) -> Candidate:
    """`source` as a candidate, keyed by its text."""
    return Candidate(NO_MODEL, source, hashlib.sha256(source.encode()).hexdigest()[:32])

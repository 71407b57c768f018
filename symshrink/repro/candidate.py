"""A model to judge, rendered once.

The reducer makes a model; the oracle runs its script in a child and measures it against
its control (the static twin: the same model with every symbol pinned). Both come from the
one `Candidate`: the script is rendered once, the journal's key computed once, and the
control is derived from the model itself, never by parsing the rendered text back.
"""

from __future__ import annotations

from dataclasses import dataclass

from symshrink.repro.model import Repro
from symshrink.repro.parse import parse
from symshrink.repro.render import canonical_key, render


@dataclass(frozen=True)
class Candidate:
    """`repro`, the script a child runs (`source`) and the key the journal and the
    control store know it by (`key`: equal for models that differ only in symbol names)."""

    repro: Repro
    source: str
    key: str

    @classmethod
    def of(cls, repro: Repro) -> Candidate:
        """A model the reducer made."""
        return cls(repro, render(repro), canonical_key(repro))

    @classmethod
    def read(cls, source: str) -> Candidate:
        """A script given as text (a file, a test), run as given; parsed once (raises
        `ReproError` when it is not a repro)."""
        repro = parse(source)
        return cls(repro, source, canonical_key(repro))

"""A candidate is built once: its control comes from its model, and must be the control its
script would give if it were parsed back, or a resumed run's `controls.jsonl` keys (and
every twin measured under them) would no longer match."""

from __future__ import annotations

from pathlib import Path

import pytest

from symshrink.baseline import BaselineKind, control
from symshrink.repro.candidate import Candidate
from symshrink.repro.parse import parse_file

ROOT = Path(__file__).resolve().parents[1]
REPROS = [ROOT / "examples" / "sym_outer_n8.py", *sorted(ROOT.glob("corpora/*/repro.py"))]


@pytest.mark.parametrize(
    "path", REPROS, ids=lambda p: p.parent.name if p.name == "repro.py" else p.name
)
@pytest.mark.parametrize("kind", ["static", "independent"])
def test_the_control_from_the_model_is_the_control_from_its_script(
    path: Path, kind: BaselineKind
) -> None:
    built = Candidate.of(parse_file(path))
    read_back = Candidate.read(built.source)
    assert read_back.repro == built.repro and read_back.key == built.key
    assert control(built, kind) == control(read_back, kind)

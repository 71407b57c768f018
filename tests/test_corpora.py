"""The seeded corpus itself (`corpora/`): complete entries that replay, and what they record.

Whether an entry is still slow depends on the machine's speed and load, so replay checks
only that every entry is judged (never an error); docs/corpus.md holds a replay and a
width sweep on the reference machine.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from symshrink import corpus as corpus_mod
from symshrink.repro.parse import parse_file
from symshrink.standalone import is_standalone

CORPUS = Path(__file__).resolve().parents[1] / "corpora"
ENTRIES = corpus_mod.entries(CORPUS)


def test_at_least_five_distinct_pathologies() -> None:
    """Five entries whose recorded hot spots are not all the same function."""
    assert len(ENTRIES) >= 5
    hottest = {e.name: e.reference.names[0] for e in ENTRIES if e.reference is not None}
    assert len(hottest) == len(ENTRIES), "every entry records the hot spots it was judged by"
    assert len(set(hottest.values())) >= 3, hottest


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.name for e in ENTRIES])
def test_entry_is_complete_and_minimized_to_a_fixpoint(entry: corpus_mod.Entry) -> None:
    case = entry.case
    model = parse_file(entry.minimal)
    assert is_standalone(entry.minimal.read_text()) and case["standalone"]
    assert case["after"]["free_symbols"] == len(model.hints) < case["before"]["free_symbols"]
    assert case["minimize"]["fixpoint"] and case["minimize"]["reverified"]
    assert case["threshold_s"] > 0 and case["clock"] == "cpu" and case["torch_version"]
    assert (entry.path / "origin.py").is_file() or (entry.path / "generate.txt").is_file()
    smallest = case["smallest_slow"]
    assert smallest["free_symbols"] is not None and smallest["points"]
    assert smallest["free_symbols"] <= len(model.hints)


@pytest.mark.torch
def test_the_seeded_corpus_replays(tmp_path: Path) -> None:
    """`symshrink corpus replay` as a maintainer runs it: one row per entry, each judged."""
    result = subprocess.run(
        [sys.executable, "-m", "symshrink", "corpus", "replay", "--corpus", str(CORPUS), "--json"],
        capture_output=True,
        text=True,
        timeout=1800,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)["entries"]
    assert [r["name"] for r in rows] == [e.name for e in ENTRIES]
    for row in rows:
        assert row["verdict"] in ("still slow", "fixed", "slow, other cause"), row
        assert row["entry_s"] > 0 and row["twin_s"] > 0 and row["clock"] == "cpu"

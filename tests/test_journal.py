"""The journal: verdicts by candidate key, on disk as JSONL, resumed without a call."""

from __future__ import annotations

import json
from pathlib import Path

from symshrink.journal import Journal
from symshrink.verdict import Verdict


def test_the_journal_resumes_from_its_file_and_skips_what_it_cannot_trust(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.jsonl"
    journal = Journal(path)
    journal.put("a", Verdict("slow", True, 1.0, 1.0))
    journal.put("b", Verdict("fast", False, 0.5, 0.5))
    journal.put("c", Verdict("slow", True, 2.0, 2.0))
    with path.open("a") as f:
        f.write('{"key": "cut sho')  # a crash mid-write
    lines = path.read_text().splitlines()
    edited = json.loads(lines[2])
    edited["verdict"]["status"] = "fast"  # edited by hand: its checksum no longer matches
    path.write_text("\n".join([*lines[:2], json.dumps(edited), lines[3]]) + "\n")

    resumed = Journal(path)
    assert len(resumed) == 2 and "c" not in resumed
    a = resumed.get("a")
    assert a is not None and a.cached and (a.status, a.cpu_s) == ("slow", 1.0)
    assert resumed.get("c") is None
    assert (resumed.hits, resumed.misses) == (1, 1)

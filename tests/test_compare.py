"""`symshrink run --compare`: preserved, independent and static twin, each in a fresh child."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.torch, pytest.mark.spawns]


def test_compare_three_ways(fixtures: dict, tmp_path: Path) -> None:
    repro = fixtures["floordiv_sum_n4"].path
    cmd = [sys.executable, "-m", "symshrink", "run", str(repro), "--compare"]
    done = subprocess.run([*cmd, "--no-native-compile", "--json"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    rows = {r["config"]: r for r in json.loads(done.stdout)}
    assert list(rows) == ["preserved", "independent", "static twin"]
    assert rows["preserved"]["graph_free_symbols"] == 4 and rows["preserved"]["derived_ok"]
    assert rows["independent"]["mode"] == "independent"
    assert rows["static twin"]["graph_free_symbols"] == 0
    assert all(r["error"] is None and r["cpu_s"] > 0 for r in rows.values())

    text = subprocess.run([*cmd, "--no-native-compile"], capture_output=True, text=True)
    assert text.returncode == 0, text.stderr
    header, *lines = text.stdout.splitlines()
    assert header.split()[0] == "config" and header.split()[-2:] == ["x", "twin"]
    twin = next(line for line in lines if line.strip().startswith("static twin"))
    assert twin.rstrip().endswith("1.0x")
    assert "cpu is the child's CPU time" in text.stdout

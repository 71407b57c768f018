"""Shared fixtures: repro scripts written by torch's own writer, generated once per session."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def fixtures(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Every standard fixture family, written by `save_graph_repro`: name -> Fixture."""
    from tests.fixtures_gen import generate_all

    out = tmp_path_factory.mktemp("fixtures")
    return {f.name: f for f in generate_all(out)}


@pytest.fixture(scope="session")
def samples_dir() -> Path:
    return Path(__file__).resolve().parents[2] / "shared" / "samples"

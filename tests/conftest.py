"""Shared fixtures: repro scripts written by torch's own writer, generated once per session."""

from __future__ import annotations

from pathlib import Path

import pytest

SLOW = ("spawns", "compiles")


@pytest.hookimpl(tryfirst=True)  # before -m deselects
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """`slow` is what a test does: a test that spawns or compiles is slow (the fast tier,
    `-m "not slow"`, leaves it out; `.ci/run` runs every test)."""
    for item in items:
        if any(item.get_closest_marker(name) for name in SLOW):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def fixtures(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Every standard fixture family, written by `save_graph_repro`: name -> Fixture."""
    from tests.fixtures_gen import generate_all

    out = tmp_path_factory.mktemp("fixtures")
    return {f.name: f for f in generate_all(out)}


@pytest.fixture(scope="session")
def samples_dir() -> Path:
    """../shared/samples: real torch-written repros the team keeps beside the checkout
    (CI has a copy there too)."""
    path = Path(__file__).resolve().parents[2] / "shared" / "samples"
    if not path.is_dir():
        pytest.skip(f"no team samples at {path} (../shared/ is not beside this checkout)")
    return path

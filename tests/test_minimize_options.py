"""The minimize options are defined once (`minimize_options.Options`) and derived for the
CLI, `judged_by`, the run's record and the command rebuilt from it: an option added to one
of them and not the others fails here (and so does one without a value in `AWAY`)."""

from __future__ import annotations

import shlex
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

import symshrink.minimizing
from symshrink.cli import _AS_OPTIONS, app
from symshrink.minimize_options import Options, command_line, judged_by, judging
from symshrink.records import RunOptions
from tests.planted import planted_model

REPRO = Path("r.py")

AWAY: dict[str, Any] = {
    "out": Path("o.py"),
    "work_dir": Path("w"),
    "timeout": 300.0,
    "ratio": 3.0,
    "baseline": "independent",
    "threshold": 5.0,
    "test": "./t.sh",
    "jobs": 2,
    "resume": True,
    "report_json": Path("r.json"),
    "max_calls": 7,
    "max_time": 60.0,
    "torch_settings": {"a.b": "1"},
    "calibration_runs": 5,
    "signature": False,
    "margin": 0.25,
    "floor": 2.5,
    "confirm": 2,
    "graph_first": False,
    "progress": False,
    "scheduler": "local:2",
}
"""Every option but the repro, away from its default."""

# The options that are not recorded, as the command line spells them.
LOCAL_WORDS = ["--out", "o.py", "--work-dir", "w", "--resume", "--report-json", "r.json"]
LOCAL_WORDS += ["--no-progress"]


def _names(role: str, default: bool) -> set[str]:
    return {f.name for f in fields(Options) if f.metadata.get(role, default)}


def _minimize_given(monkeypatch: pytest.MonkeyPatch, args: list[str]) -> Options:
    """The Options `symshrink minimize ARGS` runs with (the run itself faked)."""
    seen: list[Options] = []

    def fake(opts: Options) -> symshrink.minimizing.Outcome:
        seen.append(opts)
        return symshrink.minimizing.Outcome(0, "ok", original=None)  # type: ignore[arg-type]

    monkeypatch.setattr(symshrink.minimizing, "minimize", fake)
    result = CliRunner().invoke(app, ["minimize", *args], prog_name="symshrink")
    assert result.exit_code == 0, result.output
    return seen.pop()


def test_every_option_has_a_value_away_from_its_default() -> None:
    assert AWAY.keys() == {f.name for f in fields(Options)} - {"repro"}
    defaults = Options(REPRO)
    assert [name for name, value in AWAY.items() if getattr(defaults, name) == value] == []


def test_the_clis_parameters_are_the_options_with_their_defaults(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    command = typer.main.get_command(app).commands["minimize"]  # type: ignore[attr-defined]
    params = {p.name for p in command.params}
    assert {_AS_OPTIONS.get(p, (p,))[0] for p in params} == _names("cli", True)
    assert _minimize_given(monkeypatch, [str(REPRO)]) == Options(REPRO)


def test_every_flag_reaches_the_run_and_a_records_command_gives_it_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The recorded options spelled by `command_line` (as the report rebuilds the command),
    the others by hand: the CLI gives back each, away from its default."""
    on_cli = {name: value for name, value in AWAY.items() if name in _names("cli", True)}
    for absolute in (False, True):  # the absolute mode turns --ratio off: both ways
        given = Options(REPRO, **on_cli)
        if not absolute:
            given = replace(given, threshold=None)
        record = RunOptions.taken_from(given)
        words = shlex.split(command_line(str(REPRO), record.to_dict()))
        assert words[:3] == ["symshrink", "minimize", str(REPRO)]
        assert _minimize_given(monkeypatch, words[2:] + LOCAL_WORDS) == given


def test_the_record_keeps_every_option_but_the_local_ones() -> None:
    assert {f.name for f in fields(RunOptions)} == _names("recorded", True)


def test_judged_by_changes_with_every_judging_option_and_no_other() -> None:
    original = planted_model(4)
    base = judged_by(Options(REPRO), original)
    changed = {
        name
        for name, value in AWAY.items()
        if judged_by(replace(Options(REPRO), **{name: value}), original) != base
    }
    assert changed == set(judging()) == _names("judges", False)
    # A --test command is the whole rule; an absolute threshold makes R and the control moot.
    assert judged_by(Options(REPRO, test="./t.sh", ratio=3.0), original) == {
        "input": base["input"],
        "test": "./t.sh",
    }
    absolute = judged_by(Options(REPRO, threshold=5.0, ratio=3.0), original)
    assert absolute["ratio"] is None and absolute["baseline"] is None


def test_a_record_from_before_the_floor_rebuilds_a_command_without_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A run recorded before the kill-point floor had none (no `floor` in its options):
    its command asks for none; a journal judged then resumes at --floor 0."""
    record = RunOptions.taken_from(Options(REPRO)).to_dict()
    del record["floor"]
    words = shlex.split(command_line(str(REPRO), record))
    assert words[-2:] == ["--floor", "0"]
    assert _minimize_given(monkeypatch, words[2:]).floor == 0.0
    assert "floor" not in judged_by(Options(REPRO, floor=0.0), planted_model(4))
    assert "floor" not in command_line(str(REPRO), {"test": "./t.sh"})  # no floor to ask for

"""Golden tests of the command line's conventions: `-h` everywhere, `--version`, every
option's default and each command's exit codes in its help, flags that take no value."""

from __future__ import annotations

import importlib.metadata
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from symshrink import __version__, corpus, torch_too_old
from symshrink.cli import app, main

ROOT = typer.main.get_command(app)


def _walk(command: typer.core.TyperGroup, path: list[str]) -> Iterator[list[str]]:
    yield path
    for name, sub in getattr(command, "commands", {}).items():
        yield from _walk(sub, [*path, name])


COMMANDS = list(_walk(ROOT, []))


def _command(path: list[str]):
    command = ROOT
    for name in path:
        command = command.commands[name]
    return command


def _help(path: list[str], flag: str = "-h") -> str:
    result = CliRunner().invoke(app, [*path, flag], prog_name="symshrink")
    assert result.exit_code == 0, result.output
    return result.output


def _flat(text: str) -> str:
    """Help text with its line wrapping undone."""
    return " ".join(text.split())


def test_commands_are_all_found() -> None:
    assert ["minimize"] in COMMANDS and ["corpus", "list"] in COMMANDS and len(COMMANDS) >= 11


@pytest.mark.parametrize("path", COMMANDS, ids=[" ".join(p) or "symshrink" for p in COMMANDS])
def test_h_is_help_and_every_option_shows_its_default(path: list[str]) -> None:
    text = _help(path)
    assert text == _help(path, "--help")
    assert text.startswith(f"Usage: symshrink {' '.join(path)}".rstrip())
    assert "<bool>" not in text
    command = _command(path)
    ctx = command.context_class(command, info_name=path[-1] if path else "symshrink")
    for param in command.params:
        if not isinstance(param, typer.core.TyperOption) or param.name in ("help", "version"):
            continue
        if param.type_descriptor.annotation is bool:  # a flag: --x if off by default
            assert param.is_flag and bool(param.secondary_opts) == param.default, param.name
            continue
        opts, help_text = param.get_help_record(ctx)
        assert "[default: " in help_text or "[required]" in help_text, (path, opts)
        assert _flat(help_text) in _flat(text), (path, opts)


def test_minimize_help_golden() -> None:
    text = _flat(_help(["minimize"]))
    for fragment in (
        "Usage: symshrink minimize [OPTIONS] {REPRO}",
        "--timeout <float> hard cap on one oracle call, seconds [default: 600.0]",
        "-o, --out <path> output script [default: REPRO.min.py]",
        "--work-dir <path> journal and calibration [default: OUT.work]",
        "[default: the spread of its twin's runs (the original's; after the graph stage, "
        "its result's), x sqrt 2 for a ratio, at least 0.1]",
        "--ratio <float> slow = still compiling at RATIO x the candidate's control",
        "--floor <float range> a slow candidate must also run at least FLOOR CPU seconds",
        "(shorter runs are judged by their noise; 0: no floor; --threshold ignores it) "
        "[default: 0.5; x>=0.0]",
        "--baseline <static|independent>",
        "--resume continue a killed run from its journal",
        "--no-signature accept slow candidates whatever the cause",
        "Exit codes: 0 a result was written; 1 the original is not slow (not interesting); "
        "2 bad input or a bad option",
        "130 interrupted by SIGINT, 143 by SIGTERM",
    ):
        assert fragment in text, fragment


@pytest.mark.parametrize("path", [["run"], ["sympy-repro"], []], ids=["run", "sympy-repro", "root"])
def test_exit_codes_in_help(path: list[str]) -> None:
    assert "Exit codes: 0 " in _flat(_help(path))


def test_json_is_a_plain_flag() -> None:
    runner = CliRunner()
    assert runner.invoke(app, ["corpus", "list", "--json", "true"]).exit_code == 2
    assert "--json print JSON" in _flat(_help(["corpus", "list"]))


@pytest.mark.spawns
def test_version_prints_three_versions_without_importing_torch() -> None:
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "symshrink", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        f"symshrink {__version__}",
        f"torch {importlib.metadata.version('torch')}",
        f"sympy {importlib.metadata.version('sympy')}",
    ]
    imported = {line.rsplit("|", 1)[-1].strip() for line in result.stderr.splitlines()}
    assert "sympy" in imported and "torch" not in imported


@pytest.mark.spawns
def test_no_arguments_prints_the_help_exit_2() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "symshrink"], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 2
    assert "Commands:" in result.stderr and "error" not in result.stderr


@pytest.mark.parametrize(
    ("version", "old"),
    [
        ("2.12.1", True),
        ("1.13.0", True),
        ("2.13.0+cpu", False),
        ("2.13.0a0+git1234abc", False),
        ("2.14.0.dev20260101+cpu", False),
        ("3.0.0", False),
        (None, False),
    ],
)
def test_torch_too_old(version: str | None, old: bool) -> None:
    assert torch_too_old(version) is old


def _main(monkeypatch: pytest.MonkeyPatch, capsys, *args: str) -> tuple[int, str]:
    """`symshrink ARGS` through the entry point, in this process: (exit code, stderr)."""
    monkeypatch.setattr(sys, "argv", ["symshrink", *args])
    with pytest.raises(SystemExit) as exit_info:
        main()
    return exit_info.value.code, capsys.readouterr().err


def test_old_torch_is_one_line_exit_2(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setattr("symshrink.cli.installed_version", lambda dist: "2.12.1")
    code, err = _main(monkeypatch, capsys, "corpus", "list")
    assert code == 2
    assert err == "symshrink: error: torch 2.12.1 is installed; symshrink needs torch >= 2.13\n"


def test_corpus_list_outside_the_checkout_lists_the_checkouts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    checkout = Path(__file__).resolve().parents[1] / "corpora"
    assert checkout == corpus.CHECKOUT_CORPUS
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["corpus", "list", "--json"])
    assert result.exit_code == 0, result.output
    names = [row["name"] for row in json.loads(result.output)]
    assert names == sorted(d.parent.name for d in checkout.glob("*/case.json"))


def test_no_corpus_anywhere_says_where_it_looked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    nowhere = tmp_path / "checkout" / "corpora"
    monkeypatch.setattr(corpus, "CHECKOUT_CORPUS", nowhere)
    monkeypatch.chdir(tmp_path)
    code, err = _main(monkeypatch, capsys, "corpus", "list")
    assert code == 2
    assert err == (
        f"symshrink: error: no corpus directory: neither ./corpora nor {nowhere} exists "
        "(give --corpus DIR)\n"
    )

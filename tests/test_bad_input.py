"""Bad input: one line naming the file (and line), exit code 2, no traceback, file untouched."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from symshrink.repro.parse import parse_file

# the base script is written by torch; symshrink reads each variant in a child
pytestmark = [pytest.mark.torch, pytest.mark.spawns]

# Each case mutates the torch-written `shared_symbols` fixture (hint lines s57, s75, s86;
# SymInts `s57 + s75`, `s57*s86`, `((s75 + s86)//3)`): (old text, new text) or None for
# the whole-file cases; the expected line is where the mutation lands.
MUTATIONS: list[tuple[str, tuple[str, str] | bytes | str | None, str, str | None]] = [
    # name, mutation, message fragment, the text of the expected line (None: no line)
    ("missing", None, "no such file", None),
    ("empty", "", "empty file", None),
    ("binary", b"\x7fELF\x00\x00\x01", "binary file", None),
    ("syntax", ("def load_args(reader):", "def load_args(reader:"), "syntax error", None),
    ("no_load_args", ("def load_args(reader):", "def other(reader):"), "no `def load_args", None),
    ("no_repro", ("class Repro(", "class Other("), "no `class Repro`", None),
    ("bad_expr", ("expr='s57 + s75'", "expr='s57 +* s75'"), "bad expression", "s57 +* s75"),
    ("unknown_fn", ("expr='s57 + s75'", "expr='Foo(s57, s75)'"), "unknown function", "Foo("),
    ("no_hint", ("expr='s57 + s75'", "expr='s57 + s99'"), "symbol s99 has no hint", None),
    ("float_hint", ("s86 = 23\n", "s86 = 23.5\n"), "hint for s86 is not an integer", "s86 = 23.5"),
    ("negative_hint", ("s86 = 23\n", "s86 = -23\n"), "hint for s86 is negative", "s86 = -23"),
    (
        "conflicting",
        ("s86 = 23\n", "s86 = 23\ns86 = 24\n"),
        "conflicting hints for s86",
        "s86 = 24",
    ),
]


@pytest.fixture(scope="module")
def good(fixtures: dict) -> str:
    return fixtures["shared_symbols"].path.read_text()


def mutate(good: str, mutation: tuple[str, str] | bytes | str | None) -> bytes | None:
    if mutation is None or isinstance(mutation, bytes):
        return mutation
    if isinstance(mutation, str):
        return mutation.encode()
    old, new = mutation
    assert old in good, old
    return good.replace(old, new, 1).encode()


def run_inspect(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "symshrink", "inspect", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("name", "mutation", "message", "line_text"), MUTATIONS, ids=[c[0] for c in MUTATIONS]
)
def test_bad_input_is_one_line_exit_2(
    good: str,
    tmp_path: Path,
    name: str,
    mutation: tuple[str, str] | bytes | str | None,
    message: str,
    line_text: str | None,
) -> None:
    path = tmp_path / f"{name}.py"
    content = mutate(good, mutation)
    if content is not None:
        path.write_bytes(content)
    before = path.read_bytes() if path.exists() else None

    result = run_inspect(path)

    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert message in lines[0]
    assert str(path) in lines[0]
    if line_text is not None:
        text_lines = content.decode().splitlines()
        expected = next(i for i, t in enumerate(text_lines, 1) if line_text in t)
        assert f"{path}:{expected}:" in lines[0]
    if before is not None:
        assert path.read_bytes() == before


@pytest.mark.parametrize("command", ["minimize", "program", "sympy-repro", "run", "triage"])
@pytest.mark.parametrize("case", ["missing", "syntax"])
def test_every_command_that_reads_a_repro_refuses_bad_input_alike(
    good: str, tmp_path: Path, command: str, case: str
) -> None:
    """As `inspect` does: the file is read before any child runs, so a missing file or a
    syntax error is one line naming it and exit 2, not a failed child's traceback."""
    path = tmp_path / "repro.py"
    if case == "syntax":
        path.write_bytes(mutate(good, ("def load_args(reader):", "def load_args(reader:")) or b"")
    result = subprocess.run(
        [sys.executable, "-m", "symshrink", command, str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0], result.stderr
    assert ("no such file" if case == "missing" else "syntax error") in lines[0]


def test_not_utf8_names_the_line(good: str, tmp_path: Path) -> None:
    path = tmp_path / "latin1.py"
    path.write_bytes(good.encode() + "# caf\xe9\n".encode("latin-1"))
    result = run_inspect(path)
    assert result.returncode == 2
    assert f"{path}:{len(good.splitlines()) + 1}: not UTF-8 text" in result.stderr


def test_truncated_script_is_a_syntax_error(good: str, tmp_path: Path) -> None:
    path = tmp_path / "truncated.py"
    path.write_text(good[: good.index("reader.symint") + 20])
    result = run_inspect(path)
    assert result.returncode == 2
    assert "syntax error" in result.stderr and "Traceback" not in result.stderr


def test_load_args_cut_at_a_line_names_the_counts(good: str, tmp_path: Path) -> None:
    """A file cut between two reader lines parses, but its forward cannot be called."""
    path = tmp_path / "cut.py"
    path.write_text(good[: good.index("    reader.symint(23069")])
    result = run_inspect(path)
    assert result.returncode == 2, result.stderr
    last = len(path.read_text().splitlines())  # the last line load_args kept
    assert result.stderr.strip().splitlines() == [
        f"symshrink: error: {path}:{last}: load_args reads 4 inputs but Repro.forward takes 6"
        " (is the file cut short?)"
    ]


def test_fifo_is_refused_not_read(tmp_path: Path) -> None:
    path = tmp_path / "repro.py"
    os.mkfifo(path)
    result = run_inspect(path)  # a read would block until the 60 s timeout
    assert result.returncode == 2
    assert result.stderr == f"symshrink: error: {path}: not a regular file, not a repro script\n"


def test_50_mb_of_comments_parse_in_linear_time(good: str, tmp_path: Path) -> None:
    """ast.get_source_segment splits the whole source on every call: 218 s for this file."""
    comments = ("# " + "x" * 76 + "\n") * (25 * 2**20 // 79)  # twice: 50 MB
    at = good.index("class Repro")
    path = tmp_path / "big.py"
    path.write_text(good[:at] + comments + good[at:] + comments)
    start = time.perf_counter()
    repro = parse_file(path)
    took = time.perf_counter() - start
    assert len(repro.inputs) == 6
    assert took < 10, f"{took:.1f} s for 50 MB (2.5 s on 2 busy cores)"


def test_good_base_parses(good: str, tmp_path: Path) -> None:
    """The base of the table above is valid, so each case fails for its own reason."""
    path = tmp_path / "good.py"
    path.write_text(good)
    result = run_inspect(path)
    assert result.returncode == 0, result.stderr


def test_hint_disagreeing_with_expression_warns(good: str, tmp_path: Path) -> None:
    path = tmp_path / "disagree.py"
    path.write_bytes(mutate(good, ("reader.symint(2003,", "reader.symint(2004,")))
    result = run_inspect(path)
    assert result.returncode == 0
    assert "hint 2004 disagrees" in result.stderr


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["minimize"], "symshrink minimize: error: Missing argument 'REPRO'"),
        (["minimize", "x.py", "--jobs", "abc"], "symshrink minimize: error: Invalid value for"),
        (["bogus"], "symshrink: error: No such command 'bogus'"),
        (["corpus", "replay", "--ratio", "x"], "symshrink corpus replay: error: Invalid value"),
    ],
)
def test_usage_errors_are_one_line_exit_2(args: list[str], fragment: str) -> None:
    """Click's usage errors as well as ours: one line, the command and its --help, exit 2."""
    result = subprocess.run(
        [sys.executable, "-m", "symshrink", *args], capture_output=True, text=True, timeout=60
    )  # click names the program after argv[0]: `python -m symshrink` here
    assert result.returncode == 2
    fragment = fragment.replace("symshrink", "python -m symshrink", 1)
    assert result.stderr.count("\n") == 1 and result.stderr.startswith(fragment), result.stderr
    assert "--help" in result.stderr and "Traceback" not in result.stderr

"""Bad input: one line naming the file (and line), exit code 2, no traceback, file untouched."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

GOOD = """\
s0 = 7
s1 = 9

import torch

class Repro(torch.nn.Module):
    def forward(self, a, b):
        return (a,)

def load_args(reader):
    buf0 = reader.storage(None, 4*s0)
    reader.tensor(buf0, (s0,), is_leaf=True)  # a
    reader.symint(16, expr='s0 + s1')  # b
load_args._version = 0
mod = Repro()
"""


def variant(old: str, new: str) -> str:
    assert old in GOOD
    return GOOD.replace(old, new)


CASES: list[tuple[str, bytes | str | None, str, int | None]] = [
    # name, content (None = missing file), message fragment, line
    ("missing", None, "no such file", None),
    ("empty", "", "empty file", None),
    ("binary", b"\x7fELF\x00\x00\x01", "binary file", None),
    ("latin1", GOOD.encode() + "# caf\xe9\n".encode("latin-1"), "not UTF-8", 16),
    ("syntax", variant("def load_args(reader):", "def load_args(reader:"), "syntax error", None),
    ("truncated", GOOD[: GOOD.index("reader.symint") + 20], "syntax error", None),
    (
        "no_load_args",
        variant("def load_args(reader):", "def other(reader):"),
        "no `def load_args",
        None,
    ),
    ("no_repro", variant("class Repro(", "class Other("), "no `class Repro`", None),
    ("bad_expr", variant("expr='s0 + s1'", "expr='s0 +* s1'"), "bad expression", 13),
    ("unknown_fn", variant("expr='s0 + s1'", "expr='Foo(s0, s1)'"), "unknown function", 13),
    ("no_hint", variant("expr='s0 + s1'", "expr='s0 + s2'"), "symbol s2 has no hint", None),
    ("float_hint", variant("s1 = 9", "s1 = 9.5"), "hint for s1 is not an integer", 2),
    ("negative_hint", variant("s1 = 9", "s1 = -9"), "hint for s1 is negative", 2),
    ("conflicting", variant("s1 = 9\n", "s1 = 9\ns1 = 10\n"), "conflicting hints for s1", 3),
]


def run_inspect(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "symshrink", "inspect", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(("name", "content", "message", "line"), CASES, ids=[c[0] for c in CASES])
def test_bad_input_is_one_line_exit_2(
    tmp_path: Path, name: str, content: bytes | str | None, message: str, line: int | None
) -> None:
    path = tmp_path / f"{name}.py"
    if content is not None:
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
    before = path.read_bytes() if path.exists() else None

    result = run_inspect(path)

    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    where = f"{path}:{line}:" if line is not None else f"{path}"
    assert where in lines[0]
    assert message in lines[0]
    if before is not None:
        assert path.read_bytes() == before


def test_good_variant_parses(tmp_path: Path) -> None:
    """The base of the table above is valid, so each case fails for its own reason."""
    path = tmp_path / "good.py"
    path.write_text(GOOD)
    result = run_inspect(path)
    assert result.returncode == 0, result.stderr


def test_hint_disagreeing_with_expression_warns(tmp_path: Path) -> None:
    path = tmp_path / "disagree.py"
    path.write_text(variant("reader.symint(16,", "reader.symint(17,"))
    result = run_inspect(path)
    assert result.returncode == 0
    assert "hint 17 disagrees" in result.stderr

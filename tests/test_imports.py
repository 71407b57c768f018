"""The package's import graph: no cycle, the sandbox's modules its own, no verdict in it;
and every child process started the sandbox's one supervised way."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "symshrink"
SANDBOX = "symshrink.sandbox"
SANDBOX_PUBLIC_MODULES = {f"{SANDBOX}.dask_runner"}  # the `dask` extra: imported on its own


def _module_names() -> dict[str, Path]:
    names = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return names


MODULES = _module_names()


def _imported(node: ast.Import | ast.ImportFrom) -> set[str]:
    """The modules of the package an import statement loads: `from a import b` is module
    `a.b` when that is one, else (some name of) `a`."""
    if isinstance(node, ast.Import):
        return {a.name for a in node.names}
    if node.module is None or node.level:
        return set()
    subs = {f"{node.module}.{a.name}" for a in node.names}
    found = subs & MODULES.keys()
    return found | ({node.module} if found != subs else set())


def _top_level_imports(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """Imports run when the module is: at its top level, `if TYPE_CHECKING:` included,
    not inside a function (a deferred import is how a cycle is broken)."""
    for stmt in body:
        if isinstance(stmt, ast.Import | ast.ImportFrom):
            yield stmt
        elif isinstance(stmt, ast.If | ast.Try | ast.With):
            for block in (stmt.body, getattr(stmt, "orelse", []), getattr(stmt, "finalbody", [])):
                yield from _top_level_imports(block)
            for handler in getattr(stmt, "handlers", []):
                yield from _top_level_imports(handler.body)


def _all_imports(path: Path) -> Iterator[tuple[int, str]]:
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import | ast.ImportFrom):
            for name in _imported(node):
                yield node.lineno, name


def test_no_import_cycle() -> None:
    graph = nx.DiGraph()
    for name, path in MODULES.items():
        graph.add_node(name)
        for node in _top_level_imports(ast.parse(path.read_text()).body):
            graph.add_edges_from((name, t) for t in _imported(node) if t in MODULES and t != name)
    assert list(nx.simple_cycles(graph)) == []


def test_nothing_outside_the_sandbox_imports_its_modules() -> None:
    """Outside `symshrink/sandbox/` the sandbox is `symshrink.sandbox`'s names only."""
    inside = PACKAGE / "sandbox"
    paths = [*PACKAGE.rglob("*.py"), *(ROOT / "tests").rglob("*.py")]
    paths += (ROOT / "benchmarks").rglob("*.py")
    private = [
        f"{path.relative_to(ROOT)}:{line}: {name}"
        for path in paths
        if inside not in path.parents
        for line, name in _all_imports(path)
        if name.startswith(f"{SANDBOX}.") and name not in SANDBOX_PUBLIC_MODULES
    ]
    assert private == []


def test_the_sandbox_knows_nothing_of_verdicts() -> None:
    judging = ("symshrink.oracle", "symshrink.verdict", "symshrink.journal", "symshrink.baseline")
    found = [
        f"{path.relative_to(ROOT)}:{line}: {name}"
        for path in (PACKAGE / "sandbox").rglob("*.py")
        for line, name in _all_imports(path)
        if name.startswith(judging)
    ]
    assert found == []


# Calls that start a process: `lifeline.start` is the one way symshrink does (its own
# process group, listed with the watchdog, killed on an interrupt). The watchdog itself
# is started beside it, and the warm worker forks the candidates it supervises.
_STARTERS = {
    "subprocess": {"Popen", "run", "call", "check_call", "check_output", "getoutput"},
    "os": {"fork", "forkpty", "system", "popen", "posix_spawn", "posix_spawnp"},
    "multiprocessing": {"Process", "Pool", "get_context"},
    "asyncio": {"create_subprocess_exec", "create_subprocess_shell"},
}
_ALLOWED = {("sandbox/lifeline.py", "subprocess.Popen"), ("sandbox/worker.py", "os.fork")}


def _starts(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, 'module.name') of every use of a starter: called, imported or passed on."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            module, name = node.value.id, node.attr
            exec_or_spawn = module == "os" and name.startswith(("exec", "spawn"))
            if name in _STARTERS.get(module, ()) or exec_or_spawn:
                found.append((node.lineno, f"{module}.{name}"))
        elif isinstance(node, ast.ImportFrom) and node.module in _STARTERS:
            for alias in node.names:
                if alias.name in _STARTERS[node.module] or alias.name == "*":
                    found.append((node.lineno, f"{node.module}.{alias.name}"))
    return found


def test_every_child_is_started_by_lifeline_start() -> None:
    """No subprocess.run / Popen (nor a fork, os.system, multiprocessing) outside the one
    supervised start: a child started otherwise would outlive a SIGKILLed symshrink."""
    elsewhere = [
        f"{path.relative_to(PACKAGE)}:{line}: {what}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for line, what in _starts(ast.parse(path.read_text()))
        if (path.relative_to(PACKAGE).as_posix(), what) not in _ALLOWED
    ]
    assert not elsewhere, "start children with symshrink.sandbox.lifeline.start:\n" + "\n".join(
        elsewhere
    )

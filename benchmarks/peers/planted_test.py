"""Interestingness test of the planted cases: exit 0 iff CANDIDATE is still a repro and a
floor division in it uses every planted symbol. Standard library only.

benchmarks/peers.py copies this file into each case's directory with CONFIG filled in.
Every invocation appends a line to CONFIG["log"] first: that is how calls are counted.

Reducers of text produce arbitrary text, so "still a repro" is checked, in two parts:

1. It reads as `symshrink.repro.parse` reads a repro (hint lines `sN = int` first,
   `class Repro`, `def load_args` made of `reader.*` calls, every symbol hinted), with
   the stdlib's `ast`: a call costs a Python start (~0.1 s), not a sympy import and a
   sympy parse (1.5 to 4 s at n = 128), and text reducers make thousands of calls.
   `"mode": "parser"` runs symshrink's own parser instead.
2. It loads and runs as a repro does, with torch replaced by permissive stubs: the
   module executes, `load_args(reader)` runs against a reader with InputReader's
   signatures, `Repro()` is built and its forward is called with the loaded inputs. So
   an undefined name, a forward whose arity differs from what load_args loads, a
   deleted `reader` parameter or a class that is no `torch.nn.Module` is rejected, as
   a real run would reject it. No size hint may be 0 or 1 (torch specializes those).

Text that fails any of it is uninteresting.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import importlib.abc
import importlib.machinery
import os
import re
import sys
import time
import types
from typing import Any

CONFIG: dict[str, Any] = {  # @CONFIG@
    "planted": [],
    "log": os.devnull,
    "mode": "ast",
    "best_dir": None,
}

SYMBOL = re.compile(r"^[a-z]+\d+$")
INPUTS = {"tensor", "symint", "const", "unsupported", "generator", "opaque"}


class Bad(Exception):
    """The candidate is not a repro any more."""


# -------------------------------------------------------------------- 1: read as a repro


def names(node: ast.AST) -> set[str]:
    """Variable names in an expression (callees such as Max or FloorDiv excluded)."""
    called = {id(n.func) for n in ast.walk(node) if isinstance(n, ast.Call)}
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and id(n) not in called}


def expr(text: str) -> ast.expr:
    try:
        return ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        raise Bad("bad expression") from None


def hint_lines(tree: ast.Module) -> dict[str, int]:
    hints: dict[str, int] = {}
    for stmt in tree.body:
        if not (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and SYMBOL.match(stmt.targets[0].id)
        ):
            break
        name, value = stmt.targets[0].id, stmt.value
        if not (isinstance(value, ast.Constant) and type(value.value) is int):
            raise Bad("hint is not an int")
        if hints.setdefault(name, value.value) != value.value:
            raise Bad("conflicting hints")
    return hints


def top(tree: ast.Module, kind: type, name: str) -> Any:
    for stmt in tree.body:
        if isinstance(stmt, kind) and stmt.name == name:  # type: ignore[attr-defined]
            return stmt
    raise Bad("no " + name)


def _reader_call(stmt: ast.stmt) -> ast.Call | None:
    value = stmt.value if isinstance(stmt, ast.Expr | ast.Assign) else None
    if (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and isinstance(value.func.value, ast.Name)
        and value.func.value.id == "reader"
    ):
        return value
    return None


def load_args_exprs(fn: ast.FunctionDef, hints: dict[str, int]) -> list[ast.expr]:
    """Every size expression load_args writes; bare-symbol SymInts add their hints."""
    exprs: list[ast.expr] = []
    unbacked: set[str] = set()
    storages: set[str] = set()
    for stmt in fn.body:
        call = _reader_call(stmt)
        if call is None:
            if isinstance(stmt, ast.Pass | ast.If):
                continue
            raise Bad("unexpected statement in load_args")
        method = call.func.attr  # type: ignore[attr-defined]
        if method == "storage":
            if not (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
                and len(call.args) == 2
            ):
                raise Bad("bad storage")
            storages.add(stmt.targets[0].id)
            exprs.append(call.args[1])
        elif method == "tensor":
            if not 2 <= len(call.args) <= 3:
                raise Bad("bad tensor")
            if not (isinstance(call.args[0], ast.Name) and call.args[0].id in storages):
                raise Bad("undefined storage")
            for sizes in call.args[1:]:
                if not isinstance(sizes, ast.Tuple | ast.List):
                    raise Bad("sizes are not a tuple")
                exprs.extend(sizes.elts)
            exprs.extend(k.value for k in call.keywords if k.arg == "storage_offset")
        elif method == "symint":
            exprs.extend(_symint_exprs(call, hints, unbacked))
        elif method not in INPUTS:
            raise Bad("unknown reader method")
    for e in exprs:
        if names(e) - hints.keys() - unbacked:
            raise Bad("symbol without a hint")
    return exprs


def _symint_exprs(call: ast.Call, hints: dict[str, int], unbacked: set[str]) -> list[ast.expr]:
    if len(call.args) != 1 or any(k.arg != "expr" for k in call.keywords):
        raise Bad("bad symint")
    hint = call.args[0]
    backed = not (isinstance(hint, ast.Constant) and hint.value is None)
    if backed and not (isinstance(hint, ast.Constant) and type(hint.value) is int):
        raise Bad("symint hint is not an int")
    out = []
    for k in call.keywords:
        if not (isinstance(k.value, ast.Constant) and isinstance(k.value.value, str)):
            raise Bad("expr= is not a string")
        e = expr(k.value.value)
        out.append(e)
        if not backed:
            unbacked |= names(e)
        elif isinstance(e, ast.Name) and hints.setdefault(e.id, hint.value) != hint.value:  # type: ignore[attr-defined]
            raise Bad("conflicting hints")
    return out


# -------------------------------------------------------------------- 2: run on stubs


class Anything:
    """Stands for any torch object: every attribute, call, operator and index works."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return Anything()

    def __call__(self, *args: Any, **kwargs: Any) -> Anything:
        return Anything()

    def __getitem__(self, key: Any) -> Anything:
        return Anything()

    def __bool__(self) -> bool:
        return True

    def __enter__(self) -> Anything:
        return self

    def __exit__(self, *exc: object) -> bool:
        return False


def _any_op(self: Anything, *args: Any) -> Anything:
    return Anything()


_BINARY = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or")
for _op in _BINARY:
    setattr(Anything, f"__{_op}__", _any_op)
    setattr(Anything, f"__r{_op}__", _any_op)
for _op in ("neg", "pos", "abs", "invert", "lt", "le", "gt", "ge"):
    setattr(Anything, f"__{_op}__", _any_op)


class Module:
    """torch.nn.Module enough for a repro: construct, call forward."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.forward(*args, **kwargs)  # type: ignore[attr-defined]


class StubModule(types.ModuleType):
    """`torch` and every `torch.*`: a package whose attributes are Anything, binds no `*`."""

    __all__: list[str] = []  # noqa: RUF012

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        if self.__name__ == "torch" and name == "nn":
            return importlib.import_module("torch.nn")
        if self.__name__ == "torch.nn" and name == "Module":
            return Module
        return Anything()


class StubFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        if name == "torch" or name.startswith("torch."):
            return importlib.machinery.ModuleSpec(name, self, is_package=True)
        return None

    def create_module(self, spec: Any) -> types.ModuleType:
        module = StubModule(spec.name)
        module.__path__ = []
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        pass


class Storage:
    def __init__(self, nbytes: int) -> None:
        self.nbytes = nbytes


def _size(value: Any) -> None:
    if type(value) is not int or value < 0:
        raise Bad("a size is not a non-negative int")


class Reader:
    """torch's InputReader, by signature: what load_args may call, and what it appends."""

    def __init__(self) -> None:
        self.args: list[Any] = []

    def storage(
        self, storage_hash: Any, nbytes: Any, *, device: Any = None, dtype_hint: Any = None
    ) -> Storage:
        _size(nbytes)
        return Storage(nbytes)

    def tensor(
        self,
        storage: Any,
        shape: Any,
        stride: Any = None,
        *,
        storage_offset: Any = None,
        dtype: Any = None,
        requires_grad: Any = None,
        is_leaf: Any = None,
        **metadata: Any,
    ) -> Anything:
        if not isinstance(storage, Storage) or not isinstance(shape, tuple | list):
            raise Bad("bad tensor")
        for d in [*shape, *(stride or ()), *([storage_offset] if storage_offset else [])]:
            _size(d)
        if stride is not None and len(stride) != len(shape):
            raise Bad("shape and stride differ in length")
        t = Anything()
        self.args.append(t)
        return t

    def symint(self, val: Any, *, expr: Any = None) -> Any:
        if val is not None:
            _size(val)
        self.args.append(val)
        return val

    def const(self, name: Any) -> None:
        self.args.append(None)

    def unsupported(self, name: Any) -> None:
        self.args.append(None)

    def generator(self, *args: Any, **kwargs: Any) -> Anything:
        self.args.append(Anything())
        return self.args[-1]

    def opaque(self, *args: Any, **kwargs: Any) -> Anything:
        self.args.append(Anything())
        return self.args[-1]


def runs(text: str, path: str) -> None:
    """Load the module on stubbed torch, run load_args, build Repro, call its forward."""
    sys.meta_path.insert(0, StubFinder())
    namespace: dict[str, Any] = {"__name__": "candidate", "__file__": path}
    namespace["__builtins__"] = builtins
    try:
        exec(compile(text, path, "exec"), namespace)
        reader = Reader()
        namespace["load_args"](reader)
        module = namespace["Repro"]()
        if not isinstance(module, Module):
            raise Bad("Repro is not a torch.nn.Module")
        module(*reader.args)
    except Bad:
        raise
    except Exception as e:
        raise Bad(f"does not run: {type(e).__name__}: {e}") from None


# -------------------------------------------------------------------- the predicate


def interesting(text: str, path: str) -> bool:
    planted = frozenset(CONFIG["planted"])
    tree = ast.parse(text)
    hints = hint_lines(tree)
    top(tree, ast.ClassDef, "Repro")
    exprs = load_args_exprs(top(tree, ast.FunctionDef, "load_args"), hints)
    if any(v < 2 for v in hints.values()):
        raise Bad("a size hint of 0 or 1 specializes")
    runs(text, path)
    if CONFIG["mode"] == "parser":
        return parser_verdict(text, planted)
    for e in exprs:
        for node in ast.walk(e):
            if (
                isinstance(node, ast.BinOp)
                and isinstance(node.op, ast.FloorDiv)
                and planted <= names(node)
            ):
                return True
    return False


def parser_verdict(text: str, planted: frozenset[str]) -> bool:
    """The same predicate on symshrink's model (tests/planted.py's planted_predicate)."""
    import sympy

    from symshrink.expr import free_symbol_names
    from symshrink.repro.parse import parse

    model = parse(text)
    for e in model.all_exprs():
        for node in sympy.preorder_traversal(e):
            if type(node).__name__ == "FloorDiv" and planted <= free_symbol_names(node):
                return True
    return False


def keep_best(text: str) -> None:
    """Keep the smallest interesting candidate per tool: the result of a run that is cut
    at the time limit before the tool writes its own (picire writes it only at the end)."""
    tool = os.environ.get("PEERS_TOOL")
    if not CONFIG.get("best_dir") or not tool:
        return
    target = os.path.join(CONFIG["best_dir"], tool + ".py")
    data = text.encode()
    try:
        if os.path.getsize(target) <= len(data):
            return
    except OSError:
        pass
    tmp = f"{target}.{os.getpid()}.tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, target)


def main() -> int:
    path = sys.argv[1] if len(sys.argv) > 1 else "repro.py"  # C-Vise: the file in cwd
    with open(CONFIG["log"], "a") as f:
        f.write(f"{time.time():.3f} {os.environ.get('PEERS_TOOL', '?')} {path}\n")
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        ok = interesting(text, path)
    except Exception as e:  # unreadable, not Python, not a repro: uninteresting
        if os.environ.get("PEERS_DEBUG"):
            print(f"uninteresting: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    if ok:
        keep_best(text)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

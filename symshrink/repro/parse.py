"""Read an after-aot repro script into a `Repro` model, with `ast` only.

Reading a repro never executes it: the script is the user's, it imports torch, and
running it would start a compile. Every form torch's `InputWriter` writes is read, old
(no `expr=`, no hint lines) and new (torch >= 2.13). Bad input raises `ReproError`
naming the file and line.
"""

from __future__ import annotations

import ast
import io
import logging
import re
import stat
from pathlib import Path
from typing import TypeVar

import sympy

from symshrink.errors import ExprError, ReproError
from symshrink.expr import evaluate, free_symbol_names, parse_expr
from symshrink.pyast import parse_module
from symshrink.repro.model import (
    DEFAULT_RUN_OPTIONS,
    Input,
    OtherInput,
    Repro,
    Storage,
    SymIntInput,
    TensorInput,
)
from symshrink.repro.source import forward_params

log = logging.getLogger(__name__)

# torch names free symbols s0, s1, ... (backed) and u0, ... (unbacked); hint lines are
# `name = int` at the top of the file.
Stmt = TypeVar("Stmt", bound=ast.stmt)
_SYMBOL_NAME = re.compile(r"^[a-z]+\d+$")
_TENSOR_KWARGS = ("storage_offset", "dtype", "requires_grad", "is_leaf")


NOT_A_REPRO = "no `class Repro` (not an after-aot repro)"


def read_source(path: str | Path) -> str:
    """The script's text; a ReproError for a missing, irregular, empty, binary or non-UTF-8 file."""
    p = Path(path)
    try:
        mode = p.stat().st_mode
        if stat.S_ISDIR(mode):
            raise ReproError("is a directory, not a repro script", p)
        if not stat.S_ISREG(mode):  # a FIFO would block the read forever
            raise ReproError("not a regular file, not a repro script", p)
        data = p.read_bytes()
    except FileNotFoundError:
        raise ReproError("no such file", p) from None
    except OSError as e:
        raise ReproError(f"cannot read: {e.strerror}", p) from None
    if not data.strip():
        raise ReproError("empty file, not a repro script", p)
    if b"\x00" in data:
        raise ReproError("binary file, not a repro script", p)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise ReproError("not UTF-8 text", p, line) from None


def parse_file(path: str | Path) -> Repro:
    return parse(read_source(path), path)


def parse(source: str, path: str | Path = "<string>") -> Repro:
    """Parse repro source text into a model (the text is never executed)."""
    return _Parser(source, str(path)).parse()


class _Parser:
    def __init__(self, source: str, path: str) -> None:
        self.source = source
        self.path = path
        # Lines as the parser numbers them (str.splitlines also splits at form feeds and
        # other separators), split once: ast.get_source_segment splits the whole source
        # again on every call, which made a 50 MB file take minutes.
        self.raw_lines = io.StringIO(source, newline="").readlines()
        self.lines = [line.rstrip("\r\n") for line in self.raw_lines]

    def error(self, message: str, node: ast.AST | int | None = None) -> ReproError:
        line = node if isinstance(node, int) or node is None else getattr(node, "lineno", None)
        return ReproError(message, self.path, line)

    def parse(self) -> Repro:
        try:
            tree = parse_module(self.source, filename=self.path)
        except SyntaxError as e:
            raise self.error(f"syntax error: {e.msg}", e.lineno) from None
        hints, last_hint_line = self.hint_lines(tree)
        repro_class = self.find(tree, ast.ClassDef, "Repro", NOT_A_REPRO)
        load_args = self.find(tree, ast.FunctionDef, "load_args", "no `def load_args(reader)`")
        inputs, storages, tail = self.load_args(load_args)
        module_source = self.segment(repro_class)
        self.check_input_count(module_source, inputs, load_args)
        hints = self.complete_hints(hints, inputs, storages)
        start = self.line_start(repro_class)
        preamble = "\n".join(self.lines[last_hint_line:start]).strip("\n")
        repro = Repro(
            hints=hints,
            inputs=tuple(inputs),
            storages=tuple(storages),
            module_source=module_source,
            preamble=preamble,
            load_args_tail=tuple(tail),
            run_options=self.run_options(tree),
        )
        self.check_hints(repro, load_args)
        return repro

    # -- pieces ---------------------------------------------------------------------

    def hint_lines(self, tree: ast.Module) -> tuple[dict[str, int], int]:
        """`s26 = 100` lines before the first other statement; (hints, last line)."""
        hints: dict[str, int] = {}
        last = 0
        for stmt in tree.body:
            if not (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
                and _SYMBOL_NAME.match(stmt.targets[0].id)
            ):
                break
            name = stmt.targets[0].id
            value = self.int_constant(stmt.value)
            if value is None:
                raise self.error(f"hint for {name} is not an integer", stmt)
            if value < 0:
                raise self.error(f"hint for {name} is negative ({value})", stmt)
            if name in hints and hints[name] != value:
                raise self.error(f"conflicting hints for {name}: {hints[name]} and {value}", stmt)
            hints[name] = value
            last = stmt.end_lineno or stmt.lineno
        return hints, last

    def find(self, tree: ast.Module, kind: type[Stmt], name: str, missing: str) -> Stmt:
        for stmt in tree.body:
            if isinstance(stmt, kind) and getattr(stmt, "name", None) == name:
                return stmt
        raise self.error(missing)

    def load_args(self, fn: ast.FunctionDef) -> tuple[list[Input], list[Storage], list[str]]:
        inputs: list[Input] = []
        storages: list[Storage] = []
        tail: list[str] = []
        body = fn.body
        i = 0
        while i < len(body):
            stmt = body[i]
            found = _reader_call(stmt)
            if found is None:
                if isinstance(stmt, ast.Pass):
                    i += 1
                    continue
                if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                    raise self.error("stray string in load_args", stmt)
                if isinstance(stmt, ast.If):
                    tail.append(self.segment(stmt, dedent=True))
                    i += 1
                    continue
                raise self.error("unexpected statement in load_args", stmt)
            method, call = found
            if method == "storage":
                storages.append(self.storage(stmt, call))
            elif method == "tensor":
                inputs.append(self.tensor(stmt, call, storages))
            elif method == "symint":
                inputs.append(self.symint(stmt, call))
            elif method in ("const", "unsupported", "generator", "opaque"):
                source = self.segment(stmt, dedent=True)
                # `unsupported` is followed by a raw-string block describing the value.
                nxt = body[i + 1] if i + 1 < len(body) else None
                if (
                    method == "unsupported"
                    and isinstance(nxt, ast.Expr)
                    and isinstance(nxt.value, ast.Constant)
                    and isinstance(nxt.value.value, str)
                ):
                    source += "\n" + self.segment(nxt, dedent=True)
                    i += 1
                inputs.append(OtherInput(self.other_name(stmt, call, method), method, source))
            else:
                raise self.error(f"unknown reader method reader.{method}", stmt)
            i += 1
        return inputs, storages, tail

    def storage(self, stmt: ast.stmt, call: ast.Call) -> Storage:
        if not (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
        ):
            raise self.error("reader.storage(...) must be assigned to a name", stmt)
        if len(call.args) != 2:
            raise self.error("reader.storage takes (hash, nbytes)", stmt)
        hash_node, nbytes = call.args
        if not (isinstance(hash_node, ast.Constant) and isinstance(hash_node.value, str | None)):
            raise self.error("storage hash must be a string or None", stmt)
        kw = self.keywords(call, ("device", "dtype_hint"))
        return Storage(
            name=stmt.targets[0].id,
            hash=hash_node.value,
            nbytes=self.expr(nbytes),
            device=kw.get("device"),
            dtype_hint=kw.get("dtype_hint"),
        )

    def tensor(self, stmt: ast.stmt, call: ast.Call, storages: list[Storage]) -> TensorInput:
        if not 2 <= len(call.args) <= 3:
            raise self.error("reader.tensor takes (storage, shape[, stride])", stmt)
        buf = call.args[0]
        if not isinstance(buf, ast.Name) or buf.id not in {s.name for s in storages}:
            raise self.error("reader.tensor refers to an undefined storage", stmt)
        shape = self.expr_tuple(call.args[1])
        stride = self.expr_tuple(call.args[2]) if len(call.args) == 3 else None
        if stride is not None and len(stride) != len(shape):
            raise self.error("stride and shape have different lengths", stmt)
        known = {k.arg: k.value for k in call.keywords if k.arg in _TENSOR_KWARGS}
        metadata = tuple(
            (k.arg, self.segment(k.value)) for k in call.keywords if k.arg not in _TENSOR_KWARGS
        )
        if any(k is None for k, _ in metadata):
            raise self.error("**kwargs in reader.tensor are not supported", stmt)
        return TensorInput(
            name=self.comment_name(stmt, "tensor"),
            storage=buf.id,
            shape=shape,
            stride=stride,
            storage_offset=self.expr(known["storage_offset"])
            if "storage_offset" in known
            else None,
            dtype=self.segment(known["dtype"]) if "dtype" in known else None,
            requires_grad=self.bool_kw(known, "requires_grad", stmt),
            is_leaf=self.bool_kw(known, "is_leaf", stmt),
            metadata=metadata,  # type: ignore[arg-type]
        )

    def symint(self, stmt: ast.stmt, call: ast.Call) -> SymIntInput:
        if len(call.args) != 1:
            raise self.error("reader.symint takes one value", stmt)
        value = call.args[0]
        if isinstance(value, ast.Constant) and value.value is None:
            hint = None
        else:
            hint = self.int_constant(value)
            if hint is None:
                raise self.error("reader.symint value is not an integer", stmt)
        expr = None
        for k in call.keywords:
            if k.arg != "expr":
                raise self.error(f"unknown reader.symint keyword {k.arg!r}", stmt)
            if not (isinstance(k.value, ast.Constant) and isinstance(k.value.value, str)):
                raise self.error("reader.symint expr= must be a string", stmt)
            expr = self.expr_text(k.value.value, stmt)
        return SymIntInput(self.comment_name(stmt, "symint"), hint, expr)

    def check_input_count(
        self, module_source: str, inputs: list[Input], fn: ast.FunctionDef
    ) -> None:
        """Fewer inputs than forward takes: the script (and any result) cannot run."""
        params = forward_params(module_source)
        if len(inputs) < len(params):
            raise self.error(
                f"load_args reads {len(inputs)} inputs but Repro.forward takes {len(params)}"
                " (is the file cut short?)",
                fn.end_lineno,
            )

    def complete_hints(
        self, hints: dict[str, int], inputs: list[Input], storages: list[Storage]
    ) -> dict[str, int]:
        """Add hints of bare-symbol SymInts; every backed symbol must have a hint."""
        hints = dict(hints)
        for x in inputs:
            if isinstance(x, SymIntInput) and isinstance(x.expr, sympy.Symbol):
                name = x.expr.name
                if x.hint is None:
                    continue  # unbacked (u0): no hint exists
                if name in hints and hints[name] != x.hint:
                    raise self.error(
                        f"conflicting hints for {name}: {hints[name]} (hint line) "
                        f"and {x.hint} (input {x.name})"
                    )
                hints[name] = x.hint
        unbacked = {
            s
            for x in inputs
            if isinstance(x, SymIntInput) and x.hint is None and x.expr is not None
            for s in free_symbol_names(x.expr)
        }
        used: set[str] = set()
        for x in inputs:
            for e in x.exprs():
                used |= free_symbol_names(e)
        for s in storages:
            used |= free_symbol_names(s.nbytes)
        missing = sorted(used - set(hints) - unbacked)
        if missing:
            raise self.error(f"symbol {missing[0]} has no hint (no `{missing[0]} = N` line)")
        return hints

    def check_hints(self, repro: Repro, fn: ast.FunctionDef) -> None:
        """A SymInt whose expression disagrees with its hint is worth a warning."""
        for _, x in repro.symints():
            if (
                x.expr is None
                or x.hint is None
                or not free_symbol_names(x.expr) <= set(repro.hints)
            ):
                continue
            try:
                value = evaluate(x.expr, repro.hints)
            except ExprError:
                continue
            if value != x.hint:
                log.warning(
                    "%s: input %s: hint %d disagrees with its expression, which is %d at the hints",
                    self.path,
                    x.name,
                    x.hint,
                    value,
                )

    def run_options(self, tree: ast.Module) -> tuple[tuple[str, str], ...]:
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "run_repro"
            ):
                return tuple((k.arg, self.segment(k.value)) for k in node.keywords if k.arg)
        return DEFAULT_RUN_OPTIONS

    # -- small readers --------------------------------------------------------------

    def expr(self, node: ast.expr) -> sympy.Expr:
        return self.expr_text(self.segment(node), node)

    def expr_text(self, text: str, node: ast.AST) -> sympy.Expr:
        try:
            return parse_expr(text)
        except ExprError as e:
            raise self.error(f"bad expression {text!r}: {e}", node) from None

    def expr_tuple(self, node: ast.expr) -> tuple[sympy.Expr, ...]:
        if not isinstance(node, ast.Tuple | ast.List):
            raise self.error("expected a tuple of sizes", node)
        return tuple(self.expr(e) for e in node.elts)

    def int_constant(self, node: ast.expr) -> int | None:
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            inner = self.int_constant(node.operand)
            return None if inner is None else -inner
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return node.value
        return None

    def bool_kw(self, known: dict[str, ast.expr], key: str, stmt: ast.stmt) -> bool | None:
        if key not in known:
            return None
        node = known[key]
        if not (isinstance(node, ast.Constant) and isinstance(node.value, bool)):
            raise self.error(f"{key}= must be True or False", stmt)
        return node.value

    def keywords(self, call: ast.Call, allowed: tuple[str, ...]) -> dict[str, str]:
        out = {}
        for k in call.keywords:
            if k.arg not in allowed:
                raise self.error(f"unknown keyword {k.arg!r}", call)
            out[k.arg] = self.segment(k.value)
        return out

    def other_name(self, stmt: ast.stmt, call: ast.Call, method: str) -> str:
        """const and unsupported carry their placeholder name as the argument."""
        if method in ("const", "unsupported") and call.args:
            arg = call.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                return arg.value
        return self.comment_name(stmt, method)

    def comment_name(self, stmt: ast.stmt, fallback: str) -> str:
        """The placeholder name torch writes as the line's trailing comment."""
        line = self.lines[(stmt.end_lineno or stmt.lineno) - 1]
        if "#" in line:
            name = line.rsplit("#", 1)[1].strip().split(" ")[0].rstrip(",")
            if name.isidentifier():
                return name
        return f"{fallback}_{stmt.lineno}"

    def line_start(self, node: ast.stmt | ast.expr) -> int:
        decorators = getattr(node, "decorator_list", [])
        return min([node.lineno, *(d.lineno for d in decorators)]) - 1

    def segment(self, node: ast.stmt | ast.expr, *, dedent: bool = False) -> str:
        """Exact source of a node; with dedent, its whole lines (comments kept), dedented."""
        if dedent:
            start = self.line_start(node)
            block = self.lines[start : _end(node)[0]]
            indent = node.col_offset
            return "\n".join(line[indent:] if line[:indent].isspace() else line for line in block)
        # What ast.get_source_segment does, on the lines split once (offsets are UTF-8 bytes).
        end_line, end = _end(node)
        first, last, start = node.lineno - 1, end_line - 1, node.col_offset
        if first == last:
            return self.raw_lines[first].encode()[start:end].decode()
        head = self.raw_lines[first].encode()[start:].decode()
        tail = self.raw_lines[last].encode()[:end].decode()
        return head + "".join(self.raw_lines[first + 1 : last]) + tail


def _end(node: ast.stmt | ast.expr) -> tuple[int, int]:
    """Where a parsed node ends (line, column): the parser sets both."""
    assert node.end_lineno is not None and node.end_col_offset is not None
    return node.end_lineno, node.end_col_offset


def _reader_call(stmt: ast.stmt) -> tuple[str, ast.Call] | None:
    """`X` and the `reader.X(...)` call of a load_args statement, if it is one."""
    value = stmt.value if isinstance(stmt, ast.Expr | ast.Assign) else None
    if (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and isinstance(value.func.value, ast.Name)
        and value.func.value.id == "reader"
    ):
        return value.func.attr, value
    return None

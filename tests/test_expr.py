"""symshrink.expr: torch's expression text <-> inert sympy trees, printing, semantics.

Tests marked `torch` compare with torch's own classes (torch/utils/_sympy/functions.py):
torch builds and prints the text, we parse it, print it back and evaluate it.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symshrink.errors import ExprError
from symshrink.expr import (
    BUILD_OPS,
    INT_OPS,
    KNOWN_FUNCTIONS,
    OP_NAMES,
    PYTHON_BUILTINS,
    CeilDiv,
    FloorDiv,
    IsNonOverlappingAndDenseIndicator,
    Max,
    ModularIndexing,
    PythonMod,
    Where,
    evaluate,
    fold,
    free_symbol_names,
    op_count,
    parse_expr,
    python_str,
    substitute,
    symbol,
    torch_str,
)

NAMES = ("s0", "s1", "s2", "s3")
S0, S1, S2, S3 = (symbol(n) for n in NAMES)
PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def py_eval(expr: sympy.Basic, values: dict[str, int]) -> Any:
    """Evaluate `python_str(expr)` with nothing but the symbol values and PYTHON_BUILTINS."""
    scope = {"__builtins__": {n: getattr(builtins, n) for n in PYTHON_BUILTINS}}
    return eval(python_str(expr), scope, dict(values))


# ------------------------------------------------------------------------ torch side


@pytest.fixture(scope="module")
def tf() -> ModuleType:
    return pytest.importorskip("torch.utils._sympy.functions")


def torch_symbols() -> tuple[sympy.Symbol, ...]:
    """Symbols as torch's ShapeEnv makes them (positive integers)."""
    return tuple(sympy.Symbol(n, integer=True, positive=True) for n in NAMES)


def torch_ops(tf: ModuleType) -> dict[str, Callable[..., sympy.Basic]]:
    """A fold ops table that builds torch's own (simplifying) expression."""

    def ceil_div(a: sympy.Expr, b: sympy.Expr) -> sympy.Expr:
        if b.is_Integer and b <= 0:  # torch's CeilDiv is (a + b - 1) // b: b > 0 only
            raise ValueError("CeilDiv needs a positive divisor")
        return tf.CeilDiv(a, b)

    return {
        "Integer": sympy.Integer,
        "Boolean": lambda b: sympy.true if b else sympy.false,
        "Add": sympy.Add,
        "Mul": sympy.Mul,
        "Pow": sympy.Pow,
        **{name: getattr(tf, name) for name in KNOWN_FUNCTIONS if hasattr(tf, name)},
        "Abs": sympy.Abs,
        "CeilDiv": ceil_div,
        "Piecewise": sympy.Piecewise,
        "Eq": sympy.Eq,
        "Ne": sympy.Ne,
        "Lt": sympy.Lt,
        "Le": sympy.Le,
        "Gt": sympy.Gt,
        "Ge": sympy.Ge,
        "And": sympy.And,
        "Or": sympy.Or,
        "Not": sympy.Not,
    }


def torch_value(tf: ModuleType, expr: sympy.Basic, values: dict[str, int]) -> int | bool:
    """The value torch's own classes give `expr` (they evaluate on integer arguments)."""
    out = fold(expr, lambda n: sympy.Integer(values[n]), torch_ops(tf))
    if out is sympy.true or out is sympy.false:
        return bool(out)
    assert out.is_Integer, out
    return int(out)


# (name, builder of torch's expression from torch's module and symbols s0, s1, s2)
TORCH_CASES: list[tuple[str, Callable[..., sympy.Basic]]] = [
    ("floordiv_sum", lambda F, a, b, c: F.FloorDiv(a + b + c, 160) + 866),
    ("floordiv_scaled", lambda F, a, b, c: 160 * F.FloorDiv(a + b, 160) + 138560),
    ("floordiv_neg", lambda F, a, b, c: -F.FloorDiv(a, 2)),
    ("floordiv_neg_base", lambda F, a, b, c: F.FloorDiv(-a, 3)),
    ("floordiv_symbolic", lambda F, a, b, c: F.FloorDiv(a, b) - F.FloorDiv(b, a)),
    ("floordiv_product", lambda F, a, b, c: b * F.FloorDiv(a, 3)),
    ("floordiv_squared", lambda F, a, b, c: F.FloorDiv(a, 3) ** 2),
    ("floordiv_of_max", lambda F, a, b, c: F.FloorDiv(c, F.Min(10, a))),
    ("nbytes", lambda F, a, b, c: 4 * a * (b - 1) + 4 * a),
    ("modular_indexing", lambda F, a, b, c: F.ModularIndexing(a + b, 2, 7) + 1),
    ("modular_indexing_product", lambda F, a, b, c: -b * F.ModularIndexing(a, 1, 4)),
    ("python_mod", lambda F, a, b, c: F.PythonMod(a - b, 160)),
    ("python_mod_sum", lambda F, a, b, c: F.PythonMod(-a, 3) + 2),
    ("mod", lambda F, a, b, c: 3 * F.Mod(a + b, 160)),
    ("clean_div", lambda F, a, b, c: F.CleanDiv(4 * a, b)),
    ("ceil_div", lambda F, a, b, c: F.CeilDiv(a + b, 160)),
    ("max3", lambda F, a, b, c: F.Max(a, b, c + 1)),
    ("min", lambda F, a, b, c: F.Min(a, b + 3)),
    ("max_in_sum", lambda F, a, b, c: F.Max(a, b) + F.FloorDiv(a, 3) + c + 5),
    ("max_product", lambda F, a, b, c: a * F.Max(a, b)),
    ("max_squared", lambda F, a, b, c: F.Max(a, b) ** 2),
    ("floor_to_int", lambda F, a, b, c: F.FloorToInt(F.IntTrueDiv(a, b))),
    ("ceil_to_int", lambda F, a, b, c: F.CeilToInt(F.IntTrueDiv(a, b))),
    ("trunc_to_int", lambda F, a, b, c: F.TruncToInt(F.IntTrueDiv(a - c, b))),
    ("round_to_int", lambda F, a, b, c: F.RoundToInt(F.IntTrueDiv(a, 2))),
    ("pow_by_natural", lambda F, a, b, c: F.PowByNatural(a, b) + 1),
    ("pow_by_natural_product", lambda F, a, b, c: 2 * F.PowByNatural(a, b)),
    ("pow", lambda F, a, b, c: a**2 + (a + b) ** 2),
    ("lshift", lambda F, a, b, c: F.LShift(a, 2)),
    ("lshift_symbolic", lambda F, a, b, c: F.LShift(a, b)),
    ("rshift", lambda F, a, b, c: F.RShift(a, 1)),
    ("rshift_symbolic", lambda F, a, b, c: F.RShift(a, b)),
    ("where", lambda F, a, b, c: F.Where(sympy.Eq(a, b), a, b)),
    ("where_and", lambda F, a, b, c: F.Where(sympy.And(a > 1, b < 3), 1, 0) + c),
    ("where_or_ne", lambda F, a, b, c: F.Where(sympy.Or(sympy.Ne(a, 4), b >= c), a, 7)),
    ("piecewise", lambda F, a, b, c: sympy.Piecewise((a, a > b), (b, True))),
    ("bitwise_and", lambda F, a, b, c: F.BitwiseFn_bitwise_and(a, b) + 1),
    ("bitwise_or", lambda F, a, b, c: F.BitwiseFn_bitwise_or(a, b)),
    ("bitwise_xor", lambda F, a, b, c: F.BitwiseFn_bitwise_xor(a, c)),
    ("abs", lambda F, a, b, c: sympy.Abs(a - b)),
    ("indicator", lambda F, a, b, c: F.IsNonOverlappingAndDenseIndicator(a, b, 1, a)),
]

POINTS = [
    {"s0": 7, "s1": 3, "s2": 12},
    {"s0": 4, "s1": 4, "s2": 4},
    {"s0": 160, "s1": 5, "s2": 1},
    {"s0": 2, "s1": 9, "s2": 321},
]


@pytest.mark.torch
@pytest.mark.parametrize(("name", "build"), TORCH_CASES, ids=[c[0] for c in TORCH_CASES])
def test_torch_text_parses_prints_back_and_evaluates_like_torch(
    tf: ModuleType, name: str, build: Callable[..., sympy.Basic]
) -> None:
    a, b, c = torch_symbols()[:3]
    theirs = build(tf, a, b, c)
    text = str(theirs)
    ours = parse_expr(text)
    assert torch_str(ours) == text
    assert str(ours) == text
    assert parse_expr(torch_str(ours)) == ours
    for point in POINTS:
        want = int(theirs.xreplace({s: sympy.Integer(point[s.name]) for s in (a, b, c)}))
        assert evaluate(ours, point) == want, (text, point)
        if name != "indicator":  # no plain-Python form
            assert py_eval(ours, point) == want, (python_str(ours), point)


@pytest.mark.torch
def test_torch_identity_reads_as_parentheses(tf: ModuleType) -> None:
    a = torch_symbols()[0]
    theirs = 2 * tf.Identity(a + 1)
    assert str(theirs) == "2*((s0 + 1))"
    ours = parse_expr(str(theirs))
    assert ours == 2 * S0 + 2  # the structure Identity protected is gone, the value stays
    assert parse_expr("Identity(s0 + 1)") == S0 + 1
    assert evaluate(ours, {"s0": 5}) == 12


@pytest.mark.torch
@pytest.mark.parametrize(
    "text", ["CeilDiv(s0 + s1, 160)", "LShift(s0, s1)", "RShift(s0 + 7, s1)", "Mod(s0, 7)"]
)
def test_functions_torch_never_prints_evaluate_like_torch(tf: ModuleType, text: str) -> None:
    e = parse_expr(text)
    assert torch_str(e) == text
    for point in POINTS:
        assert evaluate(e, point) == torch_value(tf, e, point) == py_eval(e, point)


@pytest.mark.torch
def test_classes_sort_and_parenthesize_like_torch(tf: ModuleType) -> None:
    """Same class_key (term order in sums) and precedence (parentheses) as torch's."""
    a, b, c, d = torch_symbols()
    for name, ours in KNOWN_FUNCTIONS.items():
        theirs = sympy.Abs if name == "Abs" else getattr(tf, name)
        if name != "CeilDiv":  # torch's CeilDiv never exists as a node
            assert ours.class_key() == theirs.class_key(), name
    for name in ("FloorDiv", "ModularIndexing", "PythonMod", "Mod", "Max", "Min", "Where"):
        args = {"ModularIndexing": (a, b, c), "Where": (a > b, c, d)}.get(name, (a, b))
        theirs = getattr(tf, name)(*args)
        ours = KNOWN_FUNCTIONS[name](
            *(x.xreplace(dict(zip((a, b, c, d), (S0, S1, S2, S3), strict=True))) for x in args)
        )
        for wrap in (lambda x: x + c, lambda x: 2 * x, lambda x: x**2, lambda x: tf.FloorDiv(d, x)):
            assert str(wrap(theirs)) == torch_str(parse_expr(str(wrap(theirs)))), name
        assert torch_str(ours) == str(theirs)


@pytest.mark.torch
def test_every_torch_function_is_supported_or_rejected(tf: ModuleType) -> None:
    aliases = {"CleanDiv", "Identity"}
    for name in dir(tf):
        cls = getattr(tf, name)
        if not (isinstance(cls, type) and issubclass(cls, sympy.Function)):
            continue
        if name in KNOWN_FUNCTIONS or name in aliases:
            continue
        with pytest.raises(ExprError, match=f"float function '{name}'"):
            parse_expr(f"{name}(s0)")


def test_samples_round_trip(samples_dir: Path) -> None:
    """Every expression torch's writer put in the sample scripts prints back verbatim."""
    texts = list(_sample_expr_texts(samples_dir))
    if not texts:
        pytest.skip(f"no samples in {samples_dir}")
    for text in texts:
        e = parse_expr(text)
        assert torch_str(e) == text
        assert parse_expr(torch_str(e)) == e


def _sample_expr_texts(samples_dir: Path) -> Iterator[str]:
    for path in sorted(samples_dir.glob("*.py")):
        source = path.read_text()
        for node in ast.walk(ast.parse(source)):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "reader"
            ):
                continue
            for kw in node.keywords:
                if kw.arg == "expr" and isinstance(kw.value, ast.Constant):
                    yield kw.value.value
                if kw.arg == "storage_offset":
                    yield ast.get_source_segment(source, kw.value) or ""
            if node.func.attr == "storage" and len(node.args) > 1:
                yield ast.get_source_segment(source, node.args[1]) or ""
            if node.func.attr == "tensor":
                for arg in node.args[1:3]:
                    if isinstance(arg, ast.Tuple):
                        yield from (ast.get_source_segment(source, x) or "" for x in arg.elts)


# ---------------------------------------------------------------------- inertness


def test_parse_keeps_the_written_structure() -> None:
    nested = parse_expr("((((s0//4))//2))")
    assert nested == FloorDiv(FloorDiv(S0, 4), 2)  # torch would make it s0//8
    assert torch_str(nested) == "(((s0//4))//2)"
    assert parse_expr("Max(s0, s0)").args == (S0, S0)  # torch would drop the duplicate
    assert parse_expr("Max(s1, s0)").args == (S1, S0)  # written order, not sorted
    assert parse_expr("PythonMod(2*s0, 2)") == PythonMod(2 * S0, 2)  # torch: 0
    assert parse_expr("ModularIndexing(s0, 1, 1)") == ModularIndexing(S0, 1, 1)  # torch: 0


def test_percent_is_python_mod_and_slash_is_int_true_div() -> None:
    assert parse_expr("s0 % 160") == PythonMod(S0, 160)
    assert torch_str(parse_expr("s0 / s1")) == "IntTrueDiv(s0, s1)"
    assert parse_expr("CleanDiv(4*s0, s1)") == FloorDiv(4 * S0, S1)


def test_products_keep_a_non_distributed_coefficient() -> None:
    # sympy prints Mul(-2, s0 + s1, s2) as `-2*s2*(s0 + s1)`; read left to right, Python
    # would build (-2*s2)*(s0 + s1) fine but (-2)*(s0 + s1) would distribute.
    e = sympy.Mul(-2, S0 + S1, FloorDiv(S2, 3))
    assert parse_expr(torch_str(e)) == e
    e = sympy.Mul(-1, S0 + S1, FloorDiv(S2, 3))
    assert torch_str(e) == "-(s0 + s1)*((s2//3))"
    assert parse_expr(torch_str(e)) == e


def test_relations_and_conditions() -> None:
    e = parse_expr("Where((s0 > 1) & ~(s1 < 3) | Eq(s2, 4), s0, s1)")
    assert torch_str(e) == "Where(Eq(s2, 4) | ((s0 > 1) & ~(s1 < 3)), s0, s1)"
    assert evaluate(e, {"s0": 2, "s1": 5, "s2": 0}) == 2
    assert evaluate(e, {"s0": 0, "s1": 5, "s2": 0}) == 5
    # relations are kept as written, not decided
    assert torch_str(parse_expr("Where(s0 + 1 > s0, 1, 0)")) == "Where(s0 + 1 > s0, 1, 0)"
    assert evaluate(parse_expr("Ne(s0, 3)"), {"s0": 3}) is False
    assert parse_expr("s0 == s1") == parse_expr("Eq(s0, s1)")
    assert parse_expr("(s0 > 1) and not (s1 > 1)") == parse_expr("(s0 > 1) & ~(s1 > 1)")
    assert parse_expr("True") is sympy.true


def test_str_of_our_classes_is_torch_str() -> None:
    e = FloorDiv(S0 + S1, 160) + 866
    assert str(e) == torch_str(e) == "(((s0 + s1)//160)) + 866"


# ----------------------------------------------------------------------- evaluate


@pytest.mark.parametrize(
    ("text", "values", "want"),
    [
        ("(s0//160) + 866", {"s0": 321}, 868),
        ("((-s0)//3)", {"s0": 7}, -3),
        ("PythonMod(s0 - s1, 160)", {"s0": 1, "s1": 2}, 159),
        ("ModularIndexing(s0, 2, 7)", {"s0": 30}, 1),
        ("CeilDiv(s0, 160)", {"s0": 161}, 2),
        ("Max(s0, s1, 9)", {"s0": 1, "s1": 3}, 9),
        ("FloorToInt(IntTrueDiv(s0, s1))", {"s0": -7, "s1": 2}, -4),
        ("CeilToInt(IntTrueDiv(s0, s1))", {"s0": -7, "s1": 2}, -3),
        ("TruncToInt(IntTrueDiv(s0, s1))", {"s0": -7, "s1": 2}, -3),
        ("RoundToInt(IntTrueDiv(s0, s1))", {"s0": 5, "s1": 2}, 2),
        ("LShift(s0, 3) + RShift(s0, 1)", {"s0": -5}, -43),
        ("PowByNatural(s0, s1)", {"s0": 3, "s1": 4}, 81),
        ("IsNonOverlappingAndDenseIndicator(s0, s1, s1, 1)", {"s0": 2, "s1": 3}, 1),
        ("IsNonOverlappingAndDenseIndicator(s0, s1, 1, 1)", {"s0": 2, "s1": 3}, 0),
        ("Piecewise((s0, s0 > s1), (s1, True))", {"s0": 2, "s1": 3}, 3),
        ("Abs(s0 - s1)", {"s0": 2, "s1": 30}, 28),
    ],
)
def test_evaluate(text: str, values: dict[str, int], want: int) -> None:
    e = parse_expr(text)
    assert evaluate(e, values) == want
    if "IsNonOverlapping" not in text:
        assert py_eval(e, values) == want


@pytest.mark.parametrize(
    ("text", "values", "message"),
    [
        ("s0 + s1", {"s0": 1}, "no value for symbol 's1'"),
        ("(s0//s1)", {"s0": 1, "s1": 0}, "division by zero"),
        ("PythonMod(s0, s1)", {"s0": 1, "s1": 0}, "division by zero"),
        ("FloorToInt(IntTrueDiv(s0, s1))", {"s0": 1, "s1": 0}, "division by zero"),
        ("IntTrueDiv(s0, 2)", {"s0": 3}, "not an integer"),
        ("LShift(s0, s1)", {"s0": 1, "s1": -1}, "negative shift"),
        ("PowByNatural(s0, s1)", {"s0": 2, "s1": -1}, "negative exponent"),
        ("PowByNatural(s0, s1)", {"s0": 2, "s1": 10**9}, "too large"),
        ("Piecewise((s0, s0 > 5))", {"s0": 1}, "no Piecewise condition"),
    ],
)
def test_evaluate_errors(text: str, values: dict[str, int], message: str) -> None:
    with pytest.raises(ExprError, match=message):
        evaluate(parse_expr(text), values)


def test_evaluate_rejects_foreign_nodes() -> None:
    with pytest.raises(ExprError, match="unsupported expression node"):
        evaluate(S0 / 2, {"s0": 4})
    with pytest.raises(ExprError, match="unsupported expression node floor"):
        evaluate(sympy.floor(S0 / 2), {"s0": 4})


# -------------------------------------------------------------------- python_str


def test_python_str_forms() -> None:
    cases = {
        "(((s0 + s1)//160)) + 866": "(((s0 + s1)//160)) + 866",  # torch's own form
        "2*s0*s1 - 3": "2*s0*s1 - 3",
        "PythonMod(s0 - s1, 160)": "((s0 - s1) % 160)",
        "ModularIndexing(s0 + s1, 2, 7)": "(((s0 + s1)//2) % 7)",
        "CeilDiv(s0 + 1, 3)": "(-((-(s0 + 1))//3))",
        "Max(s0, s1) + Min(s0, 2)": "max(s0, s1) + min(s0, 2)",
        "FloorToInt(IntTrueDiv(s0, s1))": "int((s0 / s1) // 1)",
        "Where(Eq(s0, s1), s0, 1)": "(s0 if (s0 == s1) else 1)",
    }
    for text, want in cases.items():
        assert python_str(parse_expr(text)) == want


def test_python_str_refuses_the_indicator() -> None:
    with pytest.raises(ExprError, match="no plain-Python form"):
        python_str(IsNonOverlappingAndDenseIndicator(S0, 1))


# -------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Foo(s0)", "unknown function 'Foo'"),
        ("s0 +", "syntax error"),
        ("", "empty expression"),
        ("'s0'", "string literal"),
        ("1.5 + s0", "float literal 1.5"),
        ("1j", "unsupported literal"),
        ("os.system('true')", "unsupported call"),
        ("os.environ", "attribute access"),
        ("__import__('os')", "unknown function '__import__'"),
        ("lambda: 1", "unsupported syntax: Lambda"),
        ("(lambda: 1)()", "unsupported call"),
        ("[s0]", "unsupported syntax: List"),
        ("s0[0]", "unsupported syntax: Subscript"),
        ("s0 if s1 else s2", "unsupported syntax: IfExp"),
        ("(s0 := 1)", "unsupported syntax: NamedExpr"),
        ("s0 < s1 < s2", "chained comparison"),
        ("s0 ^ s1", "unsupported operator BitXor"),
        ("s0 in s1", "unsupported comparison In"),
        ("FloorDiv(s0)", r"FloorDiv\(\) takes 2 arguments, got 1"),
        ("Max(s0)", r"Max\(\) takes at least 2 arguments"),
        ("FloorDiv(s0, b=2)", "positional arguments only"),
        ("Max(*s0)", "positional arguments only"),
        ("ToFloat(s0)", "float function 'ToFloat'"),
        ("OpaqueUnaryFn_sqrt(s0)", "float function 'OpaqueUnaryFn_sqrt'"),
        ("s0**-1", "negative exponent"),
        ("10**10**10", "too large"),
        ("int_oo", "unsupported constant 'int_oo'"),
        ("Max + 1", "function 'Max' used as a name"),
        ("s0 + (s1 > 2)", "used as a number"),
        ("Where(s0, 1, 2)", "used as a condition"),
        ("Piecewise(s0)", "pairs"),
        pytest.param("(" * 300 + "s0" + ")" * 300, "too many nested", id="deep-parens"),
    ],
)
def test_parse_errors(text: str, message: str) -> None:
    with pytest.raises(ExprError, match=message):
        parse_expr(text)


def test_parse_never_executes(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    for text in (
        f"__import__('os').system('touch {marker}')",
        f"open('{marker}', 'w')",
        f'exec(\'open("{marker}", "w")\')',
    ):
        with pytest.raises(ExprError):
            parse_expr(text)
    assert not marker.exists()


def test_deep_nesting_is_an_error_not_a_crash() -> None:
    with pytest.raises(ExprError):
        parse_expr("-" * 100_000 + "s0")


def test_symbol_names() -> None:
    assert symbol("s0") is S0
    assert S0.is_integer
    for bad in ("Max", "1s", "lambda", "int_oo", "a.b"):
        with pytest.raises(ExprError):
            symbol(bad)


# ------------------------------------------------------------------------ helpers


def test_free_symbol_names_and_op_count() -> None:
    e = parse_expr("(((s1 + s21 + s26)//160)) + 866")
    assert free_symbol_names(e) == {"s1", "s21", "s26"}
    assert op_count(e) == 4  # +, //, +, +
    assert op_count(S0) == op_count(sympy.Integer(5)) == 0
    assert op_count(S0 - S1) == 2  # Add(s0, Mul(-1, s1))
    assert op_count(parse_expr("Max(s0, s1, s2) * s3 * 2")) == 4
    assert op_count(parse_expr("Piecewise((s0, s0 > s1), (s1, True))")) == 2
    assert op_count(parse_expr("Where((s0 > 1) & (s1 > 1) & (s2 > 1), 1, 0)")) == 6


def test_substitute_keeps_functions_inert() -> None:
    e = parse_expr("((s0 + s1)//2) + Max(s0, s2)")
    pinned = substitute(e, {"s0": 8, "s1": 8})
    assert pinned == FloorDiv(16, 2) + Max(8, S2)
    assert torch_str(pinned) == "((16//2)) + Max(8, s2)"
    merged = substitute(e, {"s1": S0})
    assert torch_str(merged) == "(((2*s0)//2)) + Max(s0, s2)"
    assert substitute(e, {"s9": 1}) is e
    cond = substitute(parse_expr("Where(s0 > s1, s0, 3)"), {"s1": 2})
    assert torch_str(cond) == "Where(s0 > 2, s0, 3)"


def test_fold_is_generic() -> None:
    e = parse_expr("Max(s0, (s1//2)) + 1")
    tree = fold(e, lambda n: n, {op: (lambda *a, op=op: (op, *a)) for op in OP_NAMES})
    assert tree == ("Add", ("Integer", 1), ("Max", "s0", ("FloorDiv", "s1", ("Integer", 2))))
    assert OP_NAMES == INT_OPS.keys() == BUILD_OPS.keys()
    with pytest.raises(ExprError, match="no operation for 'Max'"):
        fold(e, lambda n: 0, {k: v for k, v in INT_OPS.items() if k != "Max"})


@pytest.mark.torch
def test_torch_ops_table_covers_op_names(tf: ModuleType) -> None:
    assert torch_ops(tf).keys() == OP_NAMES


# ---------------------------------------------------------------------- properties

LEAVES = st.one_of(st.sampled_from(NAMES).map(symbol), st.integers(-4, 40).map(sympy.Integer))
SMALL = st.integers(0, 3).map(sympy.Integer)


def _node(name: str, *parts: st.SearchStrategy[Any]) -> st.SearchStrategy[sympy.Basic]:
    return st.tuples(*parts).map(lambda args: BUILD_OPS[name](*args))


def _conditions(c: st.SearchStrategy[sympy.Basic]) -> st.SearchStrategy[sympy.Basic]:
    rel = st.tuples(st.sampled_from(["Eq", "Ne", "Lt", "Le", "Gt", "Ge"]), c, c).map(
        lambda t: BUILD_OPS[t[0]](t[1], t[2])
    )
    return st.one_of(
        rel,
        st.lists(rel, min_size=2, max_size=3).map(lambda a: BUILD_OPS["And"](*a)),
        st.lists(rel, min_size=2, max_size=3).map(lambda a: BUILD_OPS["Or"](*a)),
        rel.map(BUILD_OPS["Not"]),
        st.booleans().map(BUILD_OPS["Boolean"]),
    )


def _extend(c: st.SearchStrategy[sympy.Basic]) -> st.SearchStrategy[sympy.Basic]:
    to_int = st.sampled_from(["FloorToInt", "CeilToInt", "TruncToInt", "RoundToInt"])
    binary = (
        "FloorDiv",
        "PythonMod",
        "Mod",
        "CeilDiv",
        "BitwiseFn_bitwise_and",
        "BitwiseFn_bitwise_or",
        "BitwiseFn_bitwise_xor",
    )
    return st.one_of(
        _node("Add", c, c),
        st.tuples(c, c).map(lambda t: t[0] - t[1]),
        _node("Mul", c, c),
        c.map(lambda x: -x),
        _node("Pow", LEAVES, SMALL),  # powers of leaves only: values stay small
        _node("PowByNatural", LEAVES, SMALL),
        *(_node(name, c, c) for name in binary),
        _node("ModularIndexing", c, c, c),
        _node("LShift", c, SMALL),
        _node("RShift", c, SMALL),
        st.lists(c, min_size=2, max_size=3).map(lambda a: Max(*a)),
        st.lists(c, min_size=2, max_size=3).map(lambda a: BUILD_OPS["Min"](*a)),
        st.tuples(to_int, c, c).map(lambda t: BUILD_OPS[t[0]](BUILD_OPS["IntTrueDiv"](t[1], t[2]))),
        _node("Where", _conditions(c), c, c),
        # sympy rewrites a Piecewise inside a Piecewise condition as an `ITE` (its
        # ExprCondPair folds the condition); torch never writes one, and neither do we.
        st.tuples(c, _conditions(c), c)
        .map(lambda t: BUILD_OPS["Piecewise"]((t[0], t[1]), (t[2], sympy.true)))
        .filter(lambda e: not e.has(sympy.ITE)),
        c.map(BUILD_OPS["Abs"]),
        st.lists(c, min_size=4, max_size=4).map(
            lambda a: BUILD_OPS["IsNonOverlappingAndDenseIndicator"](*a)
        ),
    )


EXPRS = st.recursive(LEAVES, _extend, max_leaves=8)
VALUES = st.fixed_dictionaries({n: st.integers(-5, 30) for n in NAMES})


@PROPERTY
@given(EXPRS)
def test_property_torch_str_round_trips(e: sympy.Basic) -> None:
    text = torch_str(e)
    assert parse_expr(text) == e
    assert str(e) == text
    assert fold(e, symbol, BUILD_OPS) == e


@PROPERTY
@given(EXPRS, VALUES)
def test_property_python_str_evaluates_like_evaluate(e: sympy.Basic, values: dict) -> None:
    nodes = list(sympy.preorder_traversal(e))
    if any(isinstance(n, IsNonOverlappingAndDenseIndicator) for n in nodes):
        with pytest.raises(ExprError):
            python_str(e)
        return
    try:
        want = evaluate(e, values)
    except ExprError:
        # evaluate is eager like torch (both branches of a Where); Python's `x if c else y`
        # only runs the branch taken. Without a conditional, Python must fail too.
        if not any(isinstance(n, Where | sympy.Piecewise) for n in nodes):
            with pytest.raises((ZeroDivisionError, ValueError)):
                py_eval(e, values)
        return
    assert py_eval(e, values) == want


@pytest.mark.torch
@PROPERTY
@given(e=EXPRS, values=VALUES)
def test_property_evaluate_agrees_with_torch(tf: ModuleType, e: sympy.Basic, values: dict) -> None:
    """Where both are defined, our int semantics are torch's (its classes on integers)."""
    try:
        want = torch_value(tf, e, values)
    except (ZeroDivisionError, ValueError, AssertionError, TypeError):
        return  # undefined for torch too (or torch's Mod / CeilDiv outside their domain)
    try:
        got = evaluate(e, values)
    except ExprError:
        return  # e.g. ModularIndexing(0, 0, c): torch short-circuits to 0 before dividing
    assert got == want, (torch_str(e), values)


def test_ceil_div_is_exact_for_every_sign() -> None:
    for a in range(-7, 8):
        for b in (-3, -2, -1, 1, 2, 3):
            assert evaluate(CeilDiv(S0, S1), {"s0": a, "s1": b}) == -(-a // b)


@PROPERTY
@given(EXPRS, VALUES, st.dictionaries(st.sampled_from(NAMES), st.integers(2, 9), max_size=2))
def test_property_substitute_pins_values(e: sympy.Basic, values: dict, pins: dict) -> None:
    pinned = substitute(e, pins)
    assert parse_expr(torch_str(pinned)) == pinned
    assert not free_symbol_names(pinned) & pins.keys()
    try:
        want = evaluate(e, {**values, **pins})
    except ExprError:
        return
    assert evaluate(pinned, values) == want

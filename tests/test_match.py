"""Known or new (`symshrink.match`): shapes with symbols and constants abstracted, the
graph ops that take them, and the score against the seeded corpus on near and far pairs.

The near and far pairs are fresh `tests/fixtures_gen.py` outputs (torch's own writer) at
widths and hints none of the corpus entries was made from."""

from __future__ import annotations

from pathlib import Path

import pytest

from symshrink import corpus
from symshrink.expr import parse_expr
from symshrink.match import KNOWN_AT, Spots, entry_features, features, rank, shape
from symshrink.repro.parse import parse_file

CORPUS = Path(__file__).resolve().parents[1] / "corpora"

# corpus family (tests/fixtures_gen.py) -> its entry, and a width and hints of its own
NEAR = {
    "floordiv_sum": ("sym_outer_floordiv", {"n": 6, "base": 2000, "step": 7}),
    "dot_floordiv": ("dot_floordiv_cliff", {"n": 9, "base": 50, "step": 7}),
    "item_mod": ("item_mod_pythonmod", {"n": 12, "base": 2000, "step": 7}),
    "mod_pad": ("mod_pad_pythonmod", {"n": 10, "base": 2000, "step": 7}),
    "modidx_outer": ("modidx_outer_sums", {"n": 6, "base": 2000, "step": 7}),
    "max_outer": ("pad_outer_view", {"n": 8, "base": 2000, "step": 7}),
    "prod_floordiv": ("prod_floordiv_guard", {"n": 6, "base": 50, "step": 7}),
    "prod_modidx": ("prod_modidx_product", {"n": 6, "base": 50, "step": 7}),
    "prod_pythonmod": ("prod_pythonmod", {"n": 4, "base": 50, "step": 7}),
    "aot_frames_outer": ("aot_frames_outer_bw", {"n": 8, "base": 2000, "step": 7}),
}
# families the corpus does not hold (some slow for other reasons, some not slow at all)
FAR = {
    "nested_floordiv": {"depth": 3},
    "item_floordiv": {"n": 8},
    "max_chain": {"n": 6},
    "split_reverse": {"n": 6},
    "free_symints": {},
    "minmax_mod": {},
    "shared_symbols": {},
}


@pytest.mark.parametrize(
    ("text", "strict", "loose"),
    [
        ("(((s0 + s1 + s2)//160)) + 866", "FloorDiv(Σ(s),c)", "FloorDiv(Σ,c)"),
        ("((3*s21 + s53 + 1012)//160)", "FloorDiv(Σ(s),c)", "FloorDiv(Σ,c)"),
        ("PythonMod(-s0 - s1 + s2, 213)", "PythonMod(Σ(s),c)", "PythonMod(Σ,c)"),
        ("s0*(s1 + s2)", "×(s,Σ(s))", "×(Σ,Σ)"),
        ("(s0*s1 + s2*s3)//(s0 + s2)", "FloorDiv(Σ(×(s,s)),Σ(s))", "FloorDiv(Σ(×(Σ,Σ)),Σ)"),
        ("s0 + 5", "s", "Σ"),
        ("1000", "c", "c"),
    ],
)
def test_shapes_abstract_symbols_constants_and_width(text: str, strict: str, loose: str) -> None:
    expr = parse_expr(text)
    assert (shape(expr).label, shape(expr, loose=True).label) == (strict, loose)


def test_what_the_graph_takes_is_part_of_the_shape() -> None:
    """sym_outer's minimal script views (k, S) with k = S//160: "FloorDiv of a sum next to
    the sum, in a view"; mod_pad's pads by PythonMod of the sum."""
    sym_outer = features(parse_file(CORPUS / "sym_outer_floordiv" / "repro.py"))
    assert "view:FloorDiv(Σ,c)+Σ(s)" in sym_outer.graph
    assert sym_outer.text == "FloorDiv(Σ(s),c) in arange, view"
    mod_pad = features(parse_file(CORPUS / "mod_pad_pythonmod" / "repro.py"))
    assert "pad:PythonMod(Σ,c)" in mod_pad.graph and "PythonMod(Σ,c)" in mod_pad.exprs


def test_hot_spots_and_phase() -> None:
    """The same hot spot in the same phase scores high; another spot, or another phase,
    low; unmeasured, the spots are left out of the score, not counted as a mismatch."""
    entries = [entry_features(e) for e in corpus.entries(CORPUS, ["sym_outer_floordiv"])]
    _, models, recorded = entries[0]
    model = models[0]
    same = rank([model], recorded, entries)[0]
    other = Spots({"torch.utils._sympy.functions.PythonMod.eval": 1.0}, ("x",), "trace")
    moved = rank([model], other, entries)[0]
    unmeasured = rank([model], Spots(), entries)[0]
    assert same.parts["spots"] == pytest.approx(1.0) and same.score == pytest.approx(1.0)
    assert moved.parts["spots"] == 0.0 and moved.score < KNOWN_AT
    assert unmeasured.parts["spots"] is None and unmeasured.score == pytest.approx(1.0)


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every NEAR and FAR family written afresh at its own width and hints."""
    from tests.fixtures_gen import generate

    out = tmp_path_factory.mktemp("fresh")
    specs = {**{f: p for f, (_, p) in NEAR.items()}, **FAR}
    return {f: generate(f, out, fixture_name=f, **p).path for f, p in specs.items()}


@pytest.fixture(scope="module")
def seeded() -> list:
    return [entry_features(e) for e in corpus.entries(CORPUS)]


@pytest.mark.torch
@pytest.mark.parametrize("family", sorted(NEAR))
def test_a_family_the_corpus_holds_matches_its_entry(
    family: str, fresh: dict[str, Path], seeded: list
) -> None:
    """At another width and other hints, unreduced, before any hot spot is measured: its
    entry first, at KNOWN_AT or more, and no other entry there."""
    best, second = rank([features(parse_file(fresh[family]))], Spots(), seeded)[:2]
    assert best.entry == NEAR[family][0] and best.score >= KNOWN_AT
    assert second.score < KNOWN_AT


@pytest.mark.torch
@pytest.mark.parametrize("family", sorted(FAR))
def test_a_family_the_corpus_lacks_is_new(family: str, fresh: dict[str, Path], seeded) -> None:
    (best, *_) = rank([features(parse_file(fresh[family]))], Spots(), seeded)
    assert best.score < KNOWN_AT, best


@pytest.mark.torch
@pytest.mark.parametrize("family", sorted(NEAR))
def test_without_its_entry_a_family_is_new(family: str, fresh: dict[str, Path], seeded) -> None:
    """The corpus less the family's own entry: nothing else claims it."""
    others = [e for e in seeded if e[0] != NEAR[family][0]]
    (best, *_) = rank([features(parse_file(fresh[family]))], Spots(), others)
    assert best.score < KNOWN_AT, best

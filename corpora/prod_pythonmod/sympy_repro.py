"""The sympy calls of corpus entry prod_pythonmod (symshrink corpus sympy-repro).
Shrunk by delta debugging from the compile's 23 calls (0.783 s there), kept while they take 0.5 of the full replay's seconds and 4x their control.

7 calls of sympy.core.mod.Mod.eval, as recorded in order while torch compiled repro.py:
0.357 s of CPU in that compile (of its 1.247 s).
Replayed here with sympy alone from a cold cache; prints their CPU seconds.
python sympy_repro.py [--per-call] [--control]
"""

import sys
import time

from sympy import *  # noqa: F403  (the arguments' text names sympy's classes)
from sympy.core.cache import clear_cache
from sympy.core.mod import Mod

ks0 = Symbol('ks0', integer=True, nonnegative=True)
ks1 = Symbol('ks1', integer=True, nonnegative=True)
ks2 = Symbol('ks2', integer=True, nonnegative=True)
ks3 = Symbol('ks3', integer=True, nonnegative=True)
ks4 = Symbol('ks4', integer=True, nonnegative=True)
ks5 = Symbol('ks5', integer=True, nonnegative=True)
ks6 = Symbol('ks6', integer=True, nonnegative=True)
s46 = Symbol('s46', positive=True, integer=True)
s49 = Symbol('s49', positive=True, integer=True)
s51 = Symbol('s51', positive=True, integer=True)
s77 = Symbol('s77', positive=True, integer=True)
s80 = Symbol('s80', positive=True, integer=True)
s89 = Symbol('s89', positive=True, integer=True)
s90 = Symbol('s90', positive=True, integer=True)
evaluate_static_shape_0 = Symbol('evaluate_static_shape_0', positive=True, integer=True)
evaluate_static_shape_1 = Symbol('evaluate_static_shape_1', positive=True, integer=True)
evaluate_static_shape_2 = Symbol('evaluate_static_shape_2', positive=True, integer=True)
evaluate_static_shape_3 = Symbol('evaluate_static_shape_3', positive=True, integer=True)
evaluate_static_shape_4 = Symbol('evaluate_static_shape_4', positive=True, integer=True)
evaluate_static_shape_5 = Symbol('evaluate_static_shape_5', positive=True, integer=True)
evaluate_static_shape_6 = Symbol('evaluate_static_shape_6', positive=True, integer=True)

CALLS = [
    (Mod.eval, (Add(Mul(evaluate_static_shape_0, evaluate_static_shape_1), Mul(evaluate_static_shape_0, evaluate_static_shape_3), Mul(evaluate_static_shape_0, evaluate_static_shape_5), Mul(evaluate_static_shape_0, evaluate_static_shape_6), Mul(Integer(231), evaluate_static_shape_0), Mul(evaluate_static_shape_1, evaluate_static_shape_2), Mul(evaluate_static_shape_1, evaluate_static_shape_4), Mul(Integer(387), evaluate_static_shape_1), Mul(evaluate_static_shape_2, evaluate_static_shape_3), Mul(evaluate_static_shape_2, evaluate_static_shape_5), Mul(evaluate_static_shape_2, evaluate_static_shape_6), Mul(Integer(231), evaluate_static_shape_2), Mul(evaluate_static_shape_3, evaluate_static_shape_4), Mul(Integer(387), evaluate_static_shape_3), Mul(evaluate_static_shape_4, evaluate_static_shape_5), Mul(evaluate_static_shape_4, evaluate_static_shape_6), Mul(Integer(231), evaluate_static_shape_4), Mul(Integer(387), evaluate_static_shape_5), Mul(Integer(387), evaluate_static_shape_6), Integer(-28603)), Integer(160), )),
    (Mod.eval, (Add(Mul(ks0, ks1), Mul(ks0, ks3), Mul(ks0, ks5), Mul(ks0, ks6), Mul(Integer(227), ks0), Mul(ks1, ks2), Mul(ks1, ks4), Mul(Integer(384), ks1), Mul(ks2, ks3), Mul(ks2, ks5), Mul(ks2, ks6), Mul(Integer(227), ks2), Mul(ks3, ks4), Mul(Integer(384), ks3), Mul(ks4, ks5), Mul(ks4, ks6), Mul(Integer(227), ks4), Mul(Integer(384), ks5), Mul(Integer(384), ks6), Integer(-30832)), Integer(160), )),
    (Mod.eval, (Add(Mul(s49, s51), Mul(s49, s80), Mul(Integer(8576), s49), Mul(s51, s77), Mul(s51, s89), Mul(s51, s90), Mul(Integer(227), s51), Mul(s77, s80), Mul(Integer(8576), s77), Mul(s80, s89), Mul(s80, s90), Mul(Integer(227), s80), Mul(Integer(8576), s89), Mul(Integer(8576), s90), Integer(1828752)), Integer(160), )),
    (Mod.eval, (Add(Mul(s51, s77), Mul(s51, s89), Mul(s51, s90), Mul(Integer(8419), s51), Mul(s77, s80), Mul(Integer(8576), s77), Mul(s80, s89), Mul(s80, s90), Mul(Integer(8419), s80), Mul(Integer(8576), s89), Mul(Integer(8576), s90), Integer(72083344)), Integer(160), )),
    (Mod.eval, (Add(Mul(s77, s80), Mul(Integer(16768), s77), Mul(s80, s89), Mul(s80, s90), Mul(Integer(8419), s80), Mul(Integer(16768), s89), Mul(Integer(16768), s90), Integer(141051792)), Integer(160), )),
    (Mod.eval, (Add(Mul(s49, s51), Mul(s49, s80), Mul(Integer(426), s49), Mul(s51, s77), Mul(s51, s89), Mul(s51, s90), Mul(Integer(227), s51), Mul(s77, s80), Mul(Integer(426), s77), Mul(s80, s89), Mul(s80, s90), Mul(Integer(227), s80), Mul(Integer(426), s89), Mul(Integer(426), s90), Integer(-21298)), Integer(160), )),
    (Mod.eval, (Add(Mul(s51, s77), Mul(s51, s89), Mul(s51, s90), Mul(Integer(269), s51), Mul(s77, s80), Mul(Integer(426), s77), Mul(s80, s89), Mul(s80, s90), Mul(Integer(269), s80), Mul(Integer(426), s89), Mul(Integer(426), s90), Integer(-3406)), Integer(160), )),
]


def replay(calls):
    clear_cache()
    seconds = []
    for function, args in calls:
        start = time.process_time()
        try:
            function(*args)
        except Exception:
            if calls is CALLS:
                raise
        seconds.append(time.process_time() - start)
    return seconds


def control():
    """The same calls with every symbol an integer."""
    free = set().union(*(a.free_symbols for _, args in CALLS for a in args if isinstance(a, Basic)))
    values = {s: Integer(1000 + 7 * i) for i, s in enumerate(sorted(free, key=str))}
    return [
        (f, tuple(a.xreplace(values) if isinstance(a, Basic) else a for a in args))
        for f, args in CALLS
    ]


seconds = replay(CALLS)
print(f"seconds: {sum(seconds):.6f}")
if "--per-call" in sys.argv:
    print("per call: " + " ".join(f"{s:.6f}" for s in seconds))
if "--control" in sys.argv:
    print(f"control: {sum(replay(control())):.6f}")

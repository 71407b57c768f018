"""The sympy calls of corpus entry item_mod_pythonmod (symshrink corpus sympy-repro).
Shrunk by delta debugging from the compile's 4 calls (0.279 s there), kept while they take 0.5 of the full replay's seconds and 4x their control.

2 calls of sympy.core.mod.Mod.eval, as recorded in order while torch compiled repro.py:
0.153 s of CPU in that compile (of its 0.386 s).
Replayed here with sympy alone from a cold cache; prints their CPU seconds.
python sympy_repro.py [--per-call] [--control]
"""

import sys
import time

from sympy import *  # noqa: F403  (the arguments' text names sympy's classes)
from sympy.core.cache import clear_cache
from sympy.core.mod import Mod

s26 = Symbol('s26', positive=True, integer=True)
s46 = Symbol('s46', positive=True, integer=True)
s47 = Symbol('s47', positive=True, integer=True)
s67 = Symbol('s67', positive=True, integer=True)
s74 = Symbol('s74', positive=True, integer=True)
s75 = Symbol('s75', positive=True, integer=True)
s77 = Symbol('s77', positive=True, integer=True)
s80 = Symbol('s80', positive=True, integer=True)
s83 = Symbol('s83', positive=True, integer=True)
s86 = Symbol('s86', positive=True, integer=True)
s89 = Symbol('s89', positive=True, integer=True)
s90 = Symbol('s90', positive=True, integer=True)
s94 = Symbol('s94', positive=True, integer=True)
evaluate_static_shape_0 = Symbol('evaluate_static_shape_0', positive=True, integer=True)
evaluate_static_shape_1 = Symbol('evaluate_static_shape_1', positive=True, integer=True)
evaluate_static_shape_2 = Symbol('evaluate_static_shape_2', positive=True, integer=True)
evaluate_static_shape_3 = Symbol('evaluate_static_shape_3', positive=True, integer=True)
evaluate_static_shape_4 = Symbol('evaluate_static_shape_4', positive=True, integer=True)
evaluate_static_shape_5 = Symbol('evaluate_static_shape_5', positive=True, integer=True)
evaluate_static_shape_6 = Symbol('evaluate_static_shape_6', positive=True, integer=True)
evaluate_static_shape_7 = Symbol('evaluate_static_shape_7', positive=True, integer=True)
evaluate_static_shape_8 = Symbol('evaluate_static_shape_8', positive=True, integer=True)
evaluate_static_shape_9 = Symbol('evaluate_static_shape_9', positive=True, integer=True)
evaluate_static_shape_10 = Symbol('evaluate_static_shape_10', positive=True, integer=True)
evaluate_static_shape_11 = Symbol('evaluate_static_shape_11', positive=True, integer=True)
evaluate_static_shape_12 = Symbol('evaluate_static_shape_12', positive=True, integer=True)

CALLS = [
    (Mod.eval, (Add(Mul(Integer(-1), s26), Mul(Integer(-1), s46), Mul(Integer(-1), s47), s67, Mul(Integer(-1), s74), s75, s77, s80, s83, Mul(Integer(-1), s86), s89, Mul(Integer(-1), s90), Mul(Integer(-1), s94), Integer(1045)), Integer(213), )),
    (Mod.eval, (Add(Mul(Integer(-1), evaluate_static_shape_0), Mul(Integer(-1), evaluate_static_shape_1), evaluate_static_shape_10, Mul(Integer(-1), evaluate_static_shape_11), Mul(Integer(-1), evaluate_static_shape_12), Mul(Integer(-1), evaluate_static_shape_2), evaluate_static_shape_3, Mul(Integer(-1), evaluate_static_shape_4), evaluate_static_shape_5, evaluate_static_shape_6, evaluate_static_shape_7, evaluate_static_shape_8, Mul(Integer(-1), evaluate_static_shape_9), Integer(1044)), Integer(213), )),
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

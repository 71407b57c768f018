"""The sympy calls of corpus entry dot_floordiv_cliff (symshrink corpus sympy-repro).
Shrunk by delta debugging from the compile's 40 calls (0.328 s there), kept while they take 0.5 of the full replay's seconds and 4x their control.

5 calls of sympy.gcd, as recorded in order while torch compiled repro.py:
0.112 s of CPU in that compile (of its 0.825 s).
Replayed here with sympy alone from a cold cache; prints their CPU seconds.
python sympy_repro.py [--per-call] [--control]
"""

import sys
import time

from sympy import *  # noqa: F403  (the arguments' text names sympy's classes)
from sympy.core.cache import clear_cache

s7 = Symbol('s7', positive=True, integer=True)
ks0 = Symbol('ks0', integer=True, nonnegative=True)
ks1 = Symbol('ks1', integer=True, nonnegative=True)
ks2 = Symbol('ks2', integer=True, nonnegative=True)
ks3 = Symbol('ks3', integer=True, nonnegative=True)
ks4 = Symbol('ks4', integer=True, nonnegative=True)
ks5 = Symbol('ks5', integer=True, nonnegative=True)
ks6 = Symbol('ks6', integer=True, nonnegative=True)
ks7 = Symbol('ks7', integer=True, nonnegative=True)
ks8 = Symbol('ks8', integer=True, nonnegative=True)
ks9 = Symbol('ks9', integer=True, nonnegative=True)
s63 = Symbol('s63', positive=True, integer=True)
s69 = Symbol('s69', positive=True, integer=True)
s70 = Symbol('s70', positive=True, integer=True)
s72 = Symbol('s72', positive=True, integer=True)
s74 = Symbol('s74', positive=True, integer=True)
s75 = Symbol('s75', positive=True, integer=True)
s76 = Symbol('s76', positive=True, integer=True)
s77 = Symbol('s77', positive=True, integer=True)
s85 = Symbol('s85', positive=True, integer=True)
s87 = Symbol('s87', positive=True, integer=True)
s94 = Symbol('s94', positive=True, integer=True)
s96 = Symbol('s96', positive=True, integer=True)
s97 = Symbol('s97', positive=True, integer=True)
ks10 = Symbol('ks10', integer=True, nonnegative=True)
ks11 = Symbol('ks11', integer=True, nonnegative=True)
ks12 = Symbol('ks12', integer=True, nonnegative=True)
ks13 = Symbol('ks13', integer=True, nonnegative=True)
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
evaluate_static_shape_13 = Symbol('evaluate_static_shape_13', positive=True, integer=True)

CALLS = [
    (gcd, (Add(Mul(Integer(127), s63), Mul(Integer(170), s69), Mul(s7, s70), Mul(Integer(145), s74), Mul(Integer(118), s75), Mul(Integer(209), s76), Mul(Integer(142), s77), s87, s94, s96, Mul(Integer(200), s97), Integer(26792)), Add(s69, s7, s72, s76, s85, s96, Integer(1684)), )),
    (gcd, (Add(Mul(Integer(127), evaluate_static_shape_0), Mul(Integer(170), evaluate_static_shape_1), evaluate_static_shape_10, evaluate_static_shape_11, evaluate_static_shape_12, Mul(Integer(200), evaluate_static_shape_13), Mul(Integer(145), evaluate_static_shape_5), Mul(Integer(118), evaluate_static_shape_6), Mul(Integer(209), evaluate_static_shape_7), Mul(Integer(142), evaluate_static_shape_8), Mul(Add(evaluate_static_shape_2, Integer(1)), Add(evaluate_static_shape_3, Integer(1))), Integer(27906)), Add(evaluate_static_shape_1, evaluate_static_shape_12, evaluate_static_shape_2, evaluate_static_shape_4, evaluate_static_shape_7, evaluate_static_shape_9, Integer(1690)), )),
    (gcd, (Add(Mul(Integer(127), evaluate_static_shape_0), Mul(Integer(170), evaluate_static_shape_1), evaluate_static_shape_10, evaluate_static_shape_11, evaluate_static_shape_12, Mul(Integer(200), evaluate_static_shape_13), Mul(evaluate_static_shape_2, evaluate_static_shape_3), evaluate_static_shape_2, evaluate_static_shape_3, Mul(Integer(145), evaluate_static_shape_5), Mul(Integer(118), evaluate_static_shape_6), Mul(Integer(209), evaluate_static_shape_7), Mul(Integer(142), evaluate_static_shape_8), Integer(27907)), Add(evaluate_static_shape_1, evaluate_static_shape_12, evaluate_static_shape_2, evaluate_static_shape_4, evaluate_static_shape_7, evaluate_static_shape_9, Integer(1690)), )),
    (gcd, (Add(Mul(Integer(170), s69), Mul(s7, s70), Mul(Integer(145), s74), Mul(Integer(118), s75), Mul(Integer(209), s76), Mul(Integer(142), s77), s87, s94, s96, Mul(Integer(200), s97), Integer(1067176)), Add(s69, s7, s72, s76, s85, s96, Integer(1684)), )),
    (gcd, (Add(Mul(Integer(170), s69), Mul(s7, s70), Mul(Integer(145), s74), Mul(Integer(118), s75), Mul(Integer(209), s76), Mul(Integer(142), s77), s87, s94, s96, Mul(Integer(200), s97), Integer(32126)), Add(s69, s7, s72, s76, s85, s96, Integer(1684)), )),
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

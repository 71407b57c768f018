"""The sympy calls of corpus entry prod_modidx_product (symshrink corpus sympy-repro).
Shrunk by delta debugging from the compile's 231 calls (0.537 s there), kept while they take 0.5 of the full replay's seconds and 4x their control.

58 calls of sympy.core.mod.Mod.eval, sympy.gcd, as recorded in order while torch compiled repro.py:
0.244 s of CPU in that compile (of its 2.607 s).
Replayed here with sympy alone from a cold cache; prints their CPU seconds.
python sympy_repro.py [--per-call] [--control]
"""

import sys
import time

from sympy import *  # noqa: F403  (the arguments' text names sympy's classes)
from sympy.core.cache import clear_cache
from sympy.core.mod import Mod

c0 = Symbol('c0', integer=True, nonnegative=True)
c1 = Symbol('c1', integer=True, nonnegative=True)
d0 = Symbol('d0', integer=True, nonnegative=True)
d1 = Symbol('d1', integer=True, nonnegative=True)
i0 = Symbol('i0', integer=True, nonnegative=True)
i1 = Symbol('i1', integer=True, nonnegative=True)
p0 = Symbol('p0', integer=True, nonnegative=True)
p1 = Symbol('p1', integer=True, nonnegative=True)
q0 = Symbol('q0', integer=True, nonnegative=True)
q1 = Symbol('q1', integer=True, nonnegative=True)
r0 = Symbol('r0', integer=True, nonnegative=True)
r1 = Symbol('r1', integer=True, nonnegative=True)
x0 = Symbol('x0', integer=True, nonnegative=True)
x1 = Symbol('x1', integer=True, nonnegative=True)
ks0 = Symbol('ks0', integer=True, nonnegative=True)
ks1 = Symbol('ks1', integer=True, nonnegative=True)
ks2 = Symbol('ks2', integer=True, nonnegative=True)
ks3 = Symbol('ks3', integer=True, nonnegative=True)
ks4 = Symbol('ks4', integer=True, nonnegative=True)
s57 = Symbol('s57', positive=True, integer=True)
s67 = Symbol('s67', positive=True, integer=True)
s75 = Symbol('s75', positive=True, integer=True)
s80 = Symbol('s80', positive=True, integer=True)
s86 = Symbol('s86', positive=True, integer=True)
view0 = Symbol('view0', integer=True, nonnegative=True)
evaluate_static_shape_0 = Symbol('evaluate_static_shape_0', positive=True, integer=True)
evaluate_static_shape_1 = Symbol('evaluate_static_shape_1', positive=True, integer=True)
evaluate_static_shape_2 = Symbol('evaluate_static_shape_2', positive=True, integer=True)
evaluate_static_shape_3 = Symbol('evaluate_static_shape_3', positive=True, integer=True)
evaluate_static_shape_4 = Symbol('evaluate_static_shape_4', positive=True, integer=True)

CALLS = [
    (gcd, (s80, Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (s86, Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
    (Mod.eval, (Integer(1), Add(s57, s67, s75, s80, s86), )),
    (Mod.eval, (Integer(1), Add(evaluate_static_shape_0, evaluate_static_shape_1, evaluate_static_shape_2, evaluate_static_shape_3, evaluate_static_shape_4, Integer(5)), )),
    (gcd, (Add(Mul(i0, Add(s57, s67, s75, s80, s86)), i1), Add(Mul(s57, s80), Mul(s80, s86)), )),
    (gcd, (Mul(q0, s86), Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(q0, s57), Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(q0, s75), Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(q0, s86), Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(p0, s67), Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(p0, s75), Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(p0, s80), Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(p0, s86), Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Add(Mul(d0, s57), Mul(d0, s67), Mul(d0, s75), Mul(d0, s80), Mul(d0, s86), d1), Add(Mul(s57, s80), Mul(s80, s86)), )),
    (gcd, (d1, Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(d0, s57), Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(d0, s67), Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(d0, s75), Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(d0, s80), Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(d0, s86), Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Add(Mul(d0, s57), Mul(d0, s67), Mul(d0, s75), Mul(d0, s80), Mul(d0, s86)), Add(Mul(s57, s80), Mul(s80, s86)), )),
    (gcd, (Mul(d0, s57), Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(d0, s67), Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(d0, s75), Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(d0, s80), Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(d0, s86), Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Add(Mul(c0, s57), Mul(c0, s67), Mul(c0, s75), Mul(c0, s80), Mul(c0, s86), c1), Add(Mul(s57, s80), Mul(s80, s86)), )),
    (gcd, (c1, Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(c0, s57), Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(c0, s67), Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(c0, s75), Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(c0, s80), Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(c0, s86), Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Add(Mul(d0, Add(s57, s67, s75, s80, s86)), d1), Add(Mul(s57, s80), Mul(s80, s86)), )),
    (gcd, (d1, Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(d0, Add(s57, s67, s75, s80, s86)), Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(s67, x0), Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(s75, x0), Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(s80, x0), Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(s86, x0), Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (x1, Mul(Add(Mul(ks0, ks1), Mul(ks1, ks2)), Add(ks0, ks1, ks2, ks3, ks4)), )),
    (gcd, (Mul(ks1, x0), Mul(Add(Mul(ks0, ks1), Mul(ks1, ks2)), Add(ks0, ks1, ks2, ks3, ks4)), )),
    (gcd, (Mul(ks2, x0), Mul(Add(Mul(ks0, ks1), Mul(ks1, ks2)), Add(ks0, ks1, ks2, ks3, ks4)), )),
    (gcd, (Mul(ks3, x0), Mul(Add(Mul(ks0, ks1), Mul(ks1, ks2)), Add(ks0, ks1, ks2, ks3, ks4)), )),
    (gcd, (x1, Mul(s80, Add(s57, s86), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(s67, x0), Mul(s80, Add(s57, s86), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(s75, x0), Mul(s80, Add(s57, s86), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(s80, x0), Mul(s80, Add(s57, s86), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(s86, x0), Mul(s80, Add(s57, s86), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(s57, x0), Mul(s80, Add(s57, s86), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(s67, x0), Mul(s80, Add(s57, s86), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(s75, x0), Mul(s80, Add(s57, s86), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(s80, x0), Mul(s80, Add(s57, s86), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(s86, x0), Mul(s80, Add(s57, s86), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(s67, x0), Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(s75, x0), Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(s80, x0), Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
    (gcd, (Mul(s86, x0), Mul(Add(Mul(s57, s80), Mul(s80, s86)), Add(s57, s67, s75, s80, s86)), )),
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

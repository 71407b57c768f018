"""The sympy calls of corpus entry sym_outer_floordiv (symshrink corpus sympy-repro).
Shrunk by delta debugging from the compile's 210 calls (0.263 s there), kept while they take 0.5 of the full replay's seconds and 4x their control.

35 calls of sympy.gcd, as recorded in order while torch compiled repro.py:
0.067 s of CPU in that compile (of its 1.328 s).
Replayed here with sympy alone from a cold cache; prints their CPU seconds.
python sympy_repro.py [--per-call] [--control]

Symbols standing for torch's own sympy functions in the compile:
  floordiv0 = ((3*s21 + s53 + s82 + s93 + 1012)//160)
  floordiv1 = ((3*ks0 + ks1 + ks2 + ks3 + 1012)//160)
"""

import sys
import time

from sympy import *  # noqa: F403  (the arguments' text names sympy's classes)
from sympy.core.cache import clear_cache

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
s21 = Symbol('s21', positive=True, integer=True)
s53 = Symbol('s53', positive=True, integer=True)
s82 = Symbol('s82', positive=True, integer=True)
s93 = Symbol('s93', positive=True, integer=True)
view0 = Symbol('view0', integer=True, nonnegative=True)
view1 = Symbol('view1', integer=True, nonnegative=True)
floordiv0 = Symbol('floordiv0', integer=True, nonnegative=True)
floordiv1 = Symbol('floordiv1', integer=True, nonnegative=True)

CALLS = [
    (gcd, (Mul(r0, s93), Add(Mul(Integer(3), floordiv0, s21), Mul(floordiv0, s53), Mul(floordiv0, s82), Mul(floordiv0, s93), Mul(Integer(1012), floordiv0)), )),
    (gcd, (Mul(r0, s82), Add(Mul(Integer(3), floordiv0, s21), Mul(floordiv0, s53), Mul(floordiv0, s82), Mul(floordiv0, s93), Mul(Integer(1012), floordiv0)), )),
    (gcd, (Add(Mul(q0, Add(Mul(Integer(3), s21), s53, s82, s93, Integer(1012))), q1), floordiv0, )),
    (gcd, (Mul(q0, Add(Mul(Integer(3), s21), s53, s82, s93, Integer(1012))), Mul(floordiv0, Add(Mul(Integer(3), s21), s53, s82, s93, Integer(1012))), )),
    (gcd, (Mul(Integer(3), q0, s21), Mul(floordiv0, Add(Mul(Integer(3), s21), s53, s82, s93, Integer(1012))), )),
    (gcd, (Add(Mul(Integer(3), p0, s21), Mul(p0, s53), Mul(p0, s82), Mul(p0, s93), Mul(Integer(1012), p0), p1), floordiv0, )),
    (gcd, (Mul(Integer(1012), p0), Mul(floordiv0, Add(Mul(Integer(3), s21), s53, s82, s93, Integer(1012))), )),
    (gcd, (Mul(p0, s53), Mul(floordiv0, Add(Mul(Integer(3), s21), s53, s82, s93, Integer(1012))), )),
    (gcd, (Mul(p0, s82), Mul(floordiv0, Add(Mul(Integer(3), s21), s53, s82, s93, Integer(1012))), )),
    (gcd, (Mul(p0, s93), Mul(floordiv0, Add(Mul(Integer(3), s21), s53, s82, s93, Integer(1012))), )),
    (gcd, (Mul(Integer(3), p0, s21), Mul(floordiv0, Add(Mul(Integer(3), s21), s53, s82, s93, Integer(1012))), )),
    (gcd, (Add(Mul(Integer(3), d0, s21), Mul(d0, s53), Mul(d0, s82), Mul(d0, s93), Mul(Integer(1012), d0), d1), floordiv0, )),
    (gcd, (d1, Mul(floordiv0, Add(Mul(Integer(3), s21), s53, s82, s93, Integer(1012))), )),
    (gcd, (Mul(Integer(1012), d0), Mul(floordiv0, Add(Mul(Integer(3), s21), s53, s82, s93, Integer(1012))), )),
    (gcd, (Mul(d0, s53), Mul(floordiv0, Add(Mul(Integer(3), s21), s53, s82, s93, Integer(1012))), )),
    (gcd, (Mul(d0, s82), Mul(floordiv0, Add(Mul(Integer(3), s21), s53, s82, s93, Integer(1012))), )),
    (gcd, (Mul(d0, s93), Mul(floordiv0, Add(Mul(Integer(3), s21), s53, s82, s93, Integer(1012))), )),
    (gcd, (Mul(Integer(3), d0, s21), Mul(floordiv0, Add(Mul(Integer(3), s21), s53, s82, s93, Integer(1012))), )),
    (gcd, (Mul(Integer(1012), d0), Mul(floordiv0, Add(Mul(Integer(3), s21), s53, s82, s93, Integer(1012))), )),
    (gcd, (Mul(d0, s53), Mul(floordiv0, Add(Mul(Integer(3), s21), s53, s82, s93, Integer(1012))), )),
    (gcd, (Mul(d0, s82), Mul(floordiv0, Add(Mul(Integer(3), s21), s53, s82, s93, Integer(1012))), )),
    (gcd, (Mul(d0, s93), Mul(floordiv0, Add(Mul(Integer(3), s21), s53, s82, s93, Integer(1012))), )),
    (gcd, (Mul(Integer(3), d0, s21), Mul(floordiv0, Add(Mul(Integer(3), s21), s53, s82, s93, Integer(1012))), )),
    (gcd, (Add(Mul(Integer(3), c0, s21), Mul(c0, s53), Mul(c0, s82), Mul(c0, s93), Mul(Integer(1012), c0), c1), floordiv0, )),
    (gcd, (c1, Mul(floordiv0, Add(Mul(Integer(3), s21), s53, s82, s93, Integer(1012))), )),
    (gcd, (Mul(Integer(1012), c0), Mul(floordiv0, Add(Mul(Integer(3), s21), s53, s82, s93, Integer(1012))), )),
    (gcd, (Mul(c0, s53), Mul(floordiv0, Add(Mul(Integer(3), s21), s53, s82, s93, Integer(1012))), )),
    (gcd, (Add(Mul(d0, Add(Mul(Integer(3), s21), s53, s82, s93, Integer(1012))), d1), floordiv0, )),
    (gcd, (d1, Mul(floordiv0, Add(Mul(Integer(3), s21), s53, s82, s93, Integer(1012))), )),
    (gcd, (Mul(d0, Add(Mul(Integer(3), s21), s53, s82, s93, Integer(1012))), Mul(floordiv0, Add(Mul(Integer(3), s21), s53, s82, s93, Integer(1012))), )),
    (gcd, (Mul(Integer(3), s21, x0), Mul(floordiv0, Add(Mul(Integer(3), s21), s53, s82, s93, Integer(1012))), )),
    (gcd, (Add(Mul(Integer(3), ks0, x0), Mul(ks1, x0), Mul(ks2, x0), Mul(ks3, x0), Mul(Integer(1012), x0), x1), floordiv1, )),
    (gcd, (x1, Mul(floordiv1, Add(Mul(Integer(3), ks0), ks1, ks2, ks3, Integer(1012))), )),
    (gcd, (Add(Mul(Integer(3), s21, x0), Mul(s53, x0), Mul(s82, x0), Mul(s93, x0), Mul(Integer(1012), x0), x1, Integer(1)), floordiv0, )),
    (gcd, (Mul(s93, x0), Mul(floordiv0, Add(Mul(Integer(3), s21), s53, s82, s93, Integer(1012))), )),
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

"""The sympy calls of corpus entry pad_outer_view (symshrink corpus sympy-repro).

118 calls of sympy.gcd, as recorded in order while torch compiled repro.py:
0.203 s of CPU in that compile (of its 5.382 s).
Replayed here with sympy alone from a cold cache; prints their CPU seconds.
python sympy_repro.py [--per-call] [--control]
"""

import sys
import time

from sympy import *  # noqa: F403  (the arguments' text names sympy's classes)
from sympy.core.cache import clear_cache

c0 = Symbol('c0', integer=True, nonnegative=True)
d0 = Symbol('d0', integer=True, nonnegative=True)
i0 = Symbol('i0', integer=True, nonnegative=True)
p0 = Symbol('p0', integer=True, nonnegative=True)
q0 = Symbol('q0', integer=True, nonnegative=True)
r0 = Symbol('r0', integer=True, nonnegative=True)
s5 = Symbol('s5', positive=True, integer=True)
s8 = Symbol('s8', positive=True, integer=True)
x0 = Symbol('x0', integer=True, nonnegative=True)
ks7 = Symbol('ks7', integer=True, nonnegative=True)
ks8 = Symbol('ks8', integer=True, nonnegative=True)
ks9 = Symbol('ks9', integer=True, nonnegative=True)
s57 = Symbol('s57', positive=True, integer=True)
s61 = Symbol('s61', positive=True, integer=True)
s67 = Symbol('s67', positive=True, integer=True)
s68 = Symbol('s68', positive=True, integer=True)
s73 = Symbol('s73', positive=True, integer=True)
s75 = Symbol('s75', positive=True, integer=True)
s78 = Symbol('s78', positive=True, integer=True)
s80 = Symbol('s80', positive=True, integer=True)
s81 = Symbol('s81', positive=True, integer=True)
s86 = Symbol('s86', positive=True, integer=True)
s87 = Symbol('s87', positive=True, integer=True)
s98 = Symbol('s98', positive=True, integer=True)
ks10 = Symbol('ks10', integer=True, nonnegative=True)
ks11 = Symbol('ks11', integer=True, nonnegative=True)
ks12 = Symbol('ks12', integer=True, nonnegative=True)
ks13 = Symbol('ks13', integer=True, nonnegative=True)
view0 = Symbol('view0', integer=True, nonnegative=True)

CALLS = [
    (gcd, (view0, Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (r0, Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Wild('base', integer=True), Wild('divisor', integer=True), )),
    (gcd, (r0, Mul(Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), Add(s57, s61, s67, s75, s78, s80, s86, s98, Integer(-7075))), )),
    (gcd, (r0, Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (r0, Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Integer(1), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Integer(1), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(1), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (i0, Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (q0, Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (q0, Mul(Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), Add(s57, s61, s67, s75, s78, s80, s86, s98, Integer(-7075))), )),
    (gcd, (q0, Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (q0, Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Integer(1), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Integer(1), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (p0, Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (p0, Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Integer(1), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (d0, Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (c0, Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (d0, Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (x0, Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (x0, Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Integer(1), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(0), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (x0, Add(ks10, ks11, ks12, ks13, ks7, ks8, ks9, Integer(3147)), )),
    (gcd, (Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), 16, )),
    (gcd, (Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), 16, )),
    (gcd, (Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), 16, )),
    (gcd, (Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), 16, )),
    (gcd, (Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), 16, )),
    (gcd, (Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), 16, )),
    (gcd, (Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), 16, )),
    (gcd, (Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), 16, )),
    (gcd, (d0, Wild('divisor', integer=True), )),
    (gcd, (Integer(1), 16, )),
    (gcd, (Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), 16, )),
    (gcd, (Add(d0, Integer(1)), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(1), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (d0, Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), 16, )),
    (gcd, (Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), 16, )),
    (gcd, (Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), 16, )),
    (gcd, (Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), 16, )),
    (gcd, (Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), 16, )),
    (gcd, (Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), 16, )),
    (gcd, (Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), 16, )),
    (gcd, (Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), 16, )),
    (gcd, (x0, Wild('divisor', integer=True), )),
    (gcd, (Integer(1), 16, )),
    (gcd, (Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), 16, )),
    (gcd, (Add(x0, Integer(1)), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (Integer(1), Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
    (gcd, (x0, Add(s5, s68, s73, s8, s81, s87, s98, Integer(3147)), )),
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

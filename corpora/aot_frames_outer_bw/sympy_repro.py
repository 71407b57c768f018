"""The sympy calls of corpus entry aot_frames_outer_bw (symshrink corpus sympy-repro).
Shrunk by delta debugging from the compile's 21 calls (0.376 s there), kept while they take 0.5 of the full replay's seconds and 4x their control.

3 calls of sympy.gcd, as recorded in order while torch compiled repro.py:
0.114 s of CPU in that compile (of its 1.381 s).
Replayed here with sympy alone from a cold cache; prints their CPU seconds.
python sympy_repro.py [--per-call] [--control]

Symbols standing for torch's own sympy functions in the compile:
  floordiv0 = ((s41 + s44 + s68 + s73 + s74 + s78 + s8 + s83 + s84 + s87 + s93)//160)
"""

import sys
import time

from sympy import *  # noqa: F403  (the arguments' text names sympy's classes)
from sympy.core.cache import clear_cache

d0 = Symbol('d0', integer=True, nonnegative=True)
d1 = Symbol('d1', integer=True, nonnegative=True)
i0 = Symbol('i0', integer=True, nonnegative=True)
i1 = Symbol('i1', integer=True, nonnegative=True)
q0 = Symbol('q0', integer=True, nonnegative=True)
q1 = Symbol('q1', integer=True, nonnegative=True)
s8 = Symbol('s8', positive=True, integer=True)
s41 = Symbol('s41', positive=True, integer=True)
s44 = Symbol('s44', positive=True, integer=True)
s68 = Symbol('s68', positive=True, integer=True)
s73 = Symbol('s73', positive=True, integer=True)
s74 = Symbol('s74', positive=True, integer=True)
s78 = Symbol('s78', positive=True, integer=True)
s83 = Symbol('s83', positive=True, integer=True)
s84 = Symbol('s84', positive=True, integer=True)
s87 = Symbol('s87', positive=True, integer=True)
s93 = Symbol('s93', positive=True, integer=True)
r0_0 = Symbol('r0_0', integer=True, nonnegative=True)
view0 = Symbol('view0', integer=True, nonnegative=True)
floordiv0 = Symbol('floordiv0', integer=True, nonnegative=True)

CALLS = [
    (gcd, (r0_0, Mul(Add(floordiv0, Integer(866)), Add(s41, s44, s68, s73, s74, s78, s8, s83, s84, s87, s93)), )),
    (gcd, (d1, Mul(Add(floordiv0, Integer(866)), Add(s41, s44, s68, s73, s74, s78, s8, s83, s84, s87, s93)), )),
    (gcd, (Mul(d0, Add(floordiv0, Integer(866))), Mul(Add(floordiv0, Integer(866)), Add(s41, s44, s68, s73, s74, s78, s8, s83, s84, s87, s93)), )),
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

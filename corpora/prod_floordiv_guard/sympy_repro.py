"""The sympy calls of corpus entry prod_floordiv_guard (symshrink corpus sympy-repro).
Shrunk by delta debugging from the compile's 25 calls (0.251 s there), kept while they take 0.5 of the full replay's seconds and 4x their control.

1 calls of sympy.gcd, as recorded in order while torch compiled repro.py:
0.191 s of CPU in that compile (of its 0.954 s).
Replayed here with sympy alone from a cold cache; prints their CPU seconds.
python sympy_repro.py [--per-call] [--control]
"""

import sys
import time

from sympy import *  # noqa: F403  (the arguments' text names sympy's classes)
from sympy.core.cache import clear_cache

s23 = Symbol('s23', positive=True, integer=True)
s26 = Symbol('s26', positive=True, integer=True)
s28 = Symbol('s28', positive=True, integer=True)
s40 = Symbol('s40', positive=True, integer=True)
s46 = Symbol('s46', positive=True, integer=True)
s49 = Symbol('s49', positive=True, integer=True)
s50 = Symbol('s50', positive=True, integer=True)
s51 = Symbol('s51', positive=True, integer=True)
s57 = Symbol('s57', positive=True, integer=True)
s75 = Symbol('s75', positive=True, integer=True)
s77 = Symbol('s77', positive=True, integer=True)
s80 = Symbol('s80', positive=True, integer=True)
s86 = Symbol('s86', positive=True, integer=True)
s89 = Symbol('s89', positive=True, integer=True)
s90 = Symbol('s90', positive=True, integer=True)
s94 = Symbol('s94', positive=True, integer=True)

CALLS = [
    (gcd, (Mul(Add(s28, s40, s50, s57, s80, s86, Integer(408)), Add(s23, s26, s46, s49, s51, s75, s77, s89, s90, Integer(127))), Add(s23, s26, s28, s40, s46, s49, s50, s51, s57, s75, s77, s80, s89, s90, s94, Integer(535)), )),
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

"""The sympy calls of corpus entry mod_pad_pythonmod (symshrink corpus sympy-repro).
Shrunk by delta debugging from the compile's 26 calls (0.718 s there), kept while they take 0.5 of the full replay's seconds and 4x their control.

2 calls of sympy.core.mod.Mod.eval, as recorded in order while torch compiled repro.py:
0.242 s of CPU in that compile (of its 1.383 s).
Replayed here with sympy alone from a cold cache; prints their CPU seconds.
python sympy_repro.py [--per-call] [--control]

Symbols standing for torch's own sympy functions in the compile:
  pythonmod0 = PythonMod(-ks0 - ks1 - ks10 + ks11 - ks12 - ks13 - ks14 - ks15 - ks2 - ks3 - ks4 - ks5 - 2*ks6 - ks8 - ks9 - 7318, 160)
  floordiv1 = ((ks0 + ks1 + ks10 + ks11 + ks12 + ks13 + ks14 + ks15 + ks2 + ks3 + ks4 + ks5 + ks7 + ks8 + ks9 + (PythonMod(-ks0 - ks1 - ks10 + ks11 - ks12 - ks13 - ks14 - ks15 - ks2 - ks3 - ks4 - ks5 - 2*ks6 - ks8 - ks9 - 7318, 160)) + 7319)//2)
  floordiv2 = ((ks0 + ks1 + ks10 + ks11 + ks12 + ks13 + ks14 + ks15 + ks2 + ks3 + ks4 + ks5 + 2*ks6 + ks7 + ks8 + ks9 + (PythonMod(-ks0 - ks1 - ks10 + ks11 - ks12 - ks13 - ks14 - ks15 - ks2 - ks3 - ks4 - ks5 - 2*ks6 - ks8 - ks9 - 7318, 160)) + 7318)//16)
  floordiv3 = (((((ks0 + ks1 + ks10 + ks11 + ks12 + ks13 + ks14 + ks15 + ks2 + ks3 + ks4 + ks5 + 2*ks6 + ks7 + ks8 + ks9 + (PythonMod(-ks0 - ks1 - ks10 + ks11 - ks12 - ks13 - ks14 - ks15 - ks2 - ks3 - ks4 - ks5 - 2*ks6 - ks8 - ks9 - 7318, 160)) + 7318)//16)) + 1)//2)
"""

import sys
import time

from sympy import *  # noqa: F403  (the arguments' text names sympy's classes)
from sympy.core.cache import clear_cache
from sympy.core.mod import Mod

s8 = Symbol('s8', positive=True, integer=True)
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
s48 = Symbol('s48', positive=True, integer=True)
s50 = Symbol('s50', positive=True, integer=True)
s57 = Symbol('s57', positive=True, integer=True)
s61 = Symbol('s61', positive=True, integer=True)
s67 = Symbol('s67', positive=True, integer=True)
s68 = Symbol('s68', positive=True, integer=True)
s73 = Symbol('s73', positive=True, integer=True)
s75 = Symbol('s75', positive=True, integer=True)
s77 = Symbol('s77', positive=True, integer=True)
s80 = Symbol('s80', positive=True, integer=True)
s81 = Symbol('s81', positive=True, integer=True)
s86 = Symbol('s86', positive=True, integer=True)
s87 = Symbol('s87', positive=True, integer=True)
s98 = Symbol('s98', positive=True, integer=True)
ks10 = Symbol('ks10', integer=True, nonnegative=True)
ks11 = Symbol('ks11', integer=True, nonnegative=True)
ks12 = Symbol('ks12', integer=True, nonnegative=True)
ks13 = Symbol('ks13', integer=True, nonnegative=True)
ks14 = Symbol('ks14', integer=True, nonnegative=True)
ks15 = Symbol('ks15', integer=True, nonnegative=True)
floordiv1 = Symbol('floordiv1', integer=True, nonnegative=True)
floordiv2 = Symbol('floordiv2', integer=True, nonnegative=True)
floordiv3 = Symbol('floordiv3', integer=True, nonnegative=True)
pythonmod0 = Symbol('pythonmod0', integer=True, nonnegative=True)

CALLS = [
    (Mod.eval, (Add(Mul(Integer(-1), Integer(2), s48), Mul(Integer(-1), s50), Mul(Integer(-1), s57), Mul(Integer(-1), s61), Mul(Integer(-1), s67), s68, Mul(Integer(-1), s73), Mul(Integer(-1), s75), Mul(Integer(-1), s77), Mul(Integer(-1), s8), Mul(Integer(-1), s80), Mul(Integer(-1), s81), Mul(Integer(-1), s86), Mul(Integer(-1), s87), Mul(Integer(-1), s98), Integer(-7318)), Integer(160), )),
    (Mod.eval, (Add(Mul(Integer(-1), ks0), Mul(Integer(-1), ks1), Mul(Integer(-1), ks10), ks11, Mul(Integer(-1), ks12), Mul(Integer(-1), ks13), Mul(Integer(-1), ks14), Mul(Integer(-1), ks15), Mul(Integer(-1), ks2), Mul(Integer(-1), ks3), Mul(Integer(-1), ks4), Mul(Integer(-1), ks5), Mul(Integer(-1), Integer(2), ks6), Mul(Integer(-1), ks8), Mul(Integer(-1), ks9), Integer(-7318)), Integer(160), )),
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

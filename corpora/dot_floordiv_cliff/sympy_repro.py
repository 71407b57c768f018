"""Standalone sympy reproducer written by symshrink sympy-repro.

sympy.gcd took 0.547 s alone, shrunk from the call that took 1.581 s in the compile of origin.py.
Runs with sympy alone; prints the seconds of the call.
"""

import time

from sympy import *  # noqa: F403  (srepr text names sympy's classes)
from sympy.core.cache import clear_cache
from sympy import gcd as target

arg0 = Add(Mul(Symbol('s28', positive=True, integer=True), Symbol('s76', positive=True, integer=True)), Mul(Symbol('s32', positive=True, integer=True), Symbol('s77', positive=True, integer=True)), Mul(Symbol('s36', positive=True, integer=True), Symbol('s55', positive=True, integer=True)), Mul(Symbol('s41', positive=True, integer=True), Symbol('s51', positive=True, integer=True)), Mul(Symbol('s42', positive=True, integer=True), Symbol('s72', positive=True, integer=True)), Mul(Symbol('s43', positive=True, integer=True), Symbol('s97', positive=True, integer=True)), Mul(Symbol('s47', positive=True, integer=True), Symbol('s56', positive=True, integer=True)), Mul(Symbol('s48', positive=True, integer=True), Symbol('s75', positive=True, integer=True)), Mul(Symbol('s49', positive=True, integer=True), Symbol('s53', positive=True, integer=True)), Mul(Symbol('s5', positive=True, integer=True), Symbol('s69', positive=True, integer=True)), Mul(Symbol('s54', positive=True, integer=True), Symbol('s63', positive=True, integer=True)), Mul(Symbol('s58', positive=True, integer=True), Symbol('s87', positive=True, integer=True)), Mul(Symbol('s6', positive=True, integer=True), Symbol('s85', positive=True, integer=True)), Mul(Symbol('s7', positive=True, integer=True), Symbol('s70', positive=True, integer=True)), Mul(Symbol('s94', positive=True, integer=True), Symbol('s99', positive=True, integer=True)))
arg1 = Add(Symbol('s10', positive=True, integer=True), Symbol('s19', positive=True, integer=True), Symbol('s32', positive=True, integer=True), Symbol('s49', positive=True, integer=True), Symbol('s54', positive=True, integer=True), Symbol('s55', positive=True, integer=True), Symbol('s56', positive=True, integer=True), Symbol('s58', positive=True, integer=True), Symbol('s62', positive=True, integer=True), Symbol('s69', positive=True, integer=True), Symbol('s85', positive=True, integer=True), Symbol('s96', positive=True, integer=True), Symbol('s97', positive=True, integer=True), Symbol('s99', positive=True, integer=True))

runs = []
for _ in range(3):
    clear_cache()
    start = time.perf_counter()
    result = target(arg0, arg1)
    runs.append(time.perf_counter() - start)
seconds = min(runs)
print(f'result: {result}'[:200])
print(f'seconds: {seconds:.6f}')

"""Oracle calls of the list minimizers on planted needed sets: the tables behind search.py's
choice of `auto` (tests/test_search.py asserts the claims, this prints the numbers).

    python benchmarks/search_calls.py

Prints the mean distinct calls per strategy and (n, k) with the ratio to ddmin (8 seeds
each), the calls of the default strategy at -j 1 and -j 2 (speculative: started, used or
not), and the mean calls per strategy over the mixed shapes (dense, runs, thresholds).
Every count is deterministic; no call is timed.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from symshrink.search import STRATEGIES
from tests.planted_lists import mixed_calls, planted_calls, speculation_calls, suite_total


def main() -> None:
    names = [*STRATEGIES, "auto"]
    table = planted_calls(names)
    print("mean distinct calls (ratio to ddmin)")
    print(f"{'n':>4} {'k':>2} " + " ".join(f"{name:>14}" for name in names))
    for n, k in table["ddmin"]:
        base = table["ddmin"][n, k]
        cells = [f"{table[m][n, k]:6.1f} ({table[m][n, k] / base:.2f})" for m in names]
        print(f"{n:>4} {k:>2} " + " ".join(f"{c:>14}" for c in cells))
    base = suite_total(table["ddmin"], 64)
    print("n >= 64: " + ", ".join(f"{m} {suite_total(table[m], 64) / base:.2f}x" for m in names))

    print("\n-j 1 and -j 2 (calls started, used or not)")
    print(f"{'n':>4} {'k':>2} {'-j 1':>6} {'-j 2':>6}")
    spec = speculation_calls()
    for (n, k), (one, two) in spec.items():
        print(f"{n:>4} {k:>2} {one:6.1f} {two:6.1f}")
    total1 = sum(one for one, _ in spec.values())
    total2 = sum(two for _, two in spec.values())
    print(f"total {total1:.1f} -> {total2:.1f} ({total2 / total1:.2f}x)")

    print("\nmixed shapes: mean distinct calls")
    mixed = mixed_calls(list(STRATEGIES))
    print(f"{'shape':>16} " + " ".join(f"{name:>8}" for name in STRATEGIES))
    for shape, row in mixed.items():
        print(f"{shape:>16} " + " ".join(f"{row[name]:8.1f}" for name in STRATEGIES))
    totals = {name: sum(row[name] for row in mixed.values()) for name in STRATEGIES}
    print(f"{'total':>16} " + " ".join(f"{totals[name]:8.1f}" for name in STRATEGIES))


if __name__ == "__main__":
    main()

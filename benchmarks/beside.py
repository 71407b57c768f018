"""Does measuring the twin beside its candidate bias the ratio?

With one job the compile oracle runs a new twin on a second warm slot while the
candidate's first run starts (`CompileOracle.beside`): the two share the machine for the
twin's length. This benchmark measures a repro and its static twin both ways, alternately,
`--runs` times each, in the oracle's warm child, the repro to its end: *after*, the twin
alone then the repro alone (the oracle before); *beside*, both started together. Printed:
the median and spread of the twin's CPU seconds, the repro's, and their ratio, per way.

    python benchmarks/beside.py [REPRO] [--runs 6]

Default REPRO: the README example (examples/sym_outer_n8.py).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from verdict_measure import _run, spread  # one way to run a job and print a spread

from symshrink.baseline import static_twin
from symshrink.repro.parse import parse_file
from symshrink.repro.render import render
from symshrink.sandbox import WarmPool

REPO = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("repro", type=Path, nargs="?", default=REPO / "examples" / "sym_outer_n8.py")
    ap.add_argument("--runs", type=int, default=6)
    args = ap.parse_args()
    model = parse_file(args.repro)
    repro, twin = render(model), render(static_twin(model))
    seen: dict[str, list[tuple[float, float]]] = {"after": [], "beside": []}
    pool = WarmPool(slots=2)
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        _run(pool, scratch, twin)  # warm both slots' caches of the imports
        for _ in range(args.runs):
            t, r = _run(pool, scratch, twin), _run(pool, scratch, repro)
            seen["after"].append((t.exit.cpu_s, r.exit.cpu_s))
            with ThreadPoolExecutor(max_workers=2) as ex:
                r_f = ex.submit(_run, pool, scratch, repro)
                t = _run(pool, scratch, twin)
                seen["beside"].append((t.exit.cpu_s, r_f.result().exit.cpu_s))
    pool.close()
    print(f"{args.repro.name}, {args.runs} runs each way (CPU s, median ± half the spread)")
    print("| way | twin | repro | ratio |")
    print("|---|---|---|---|")
    for way, pairs in seen.items():
        twins, repros = [p[0] for p in pairs], [p[1] for p in pairs]
        ratios = [r / t for t, r in pairs]
        print(f"| {way} | {spread(twins)} | {spread(repros)} | {spread(ratios)} |")
    after = statistics.median(r / t for t, r in seen["after"])
    beside = statistics.median(r / t for t, r in seen["beside"])
    print(f"ratio beside / after: {beside / after:.3f}")


if __name__ == "__main__":
    main()

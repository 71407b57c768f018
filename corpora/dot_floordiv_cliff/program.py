"""dot_floordiv_cliff: torch.compile of `graph` with its free symbols' dims marked dynamic, against
static shapes, in fresh processes: both CPU times, their ratio (by symshrink from repro.py)."""
import argparse, itertools, json, os, statistics, subprocess, sys, tempfile, time
import torch
from torch import device

SIZES = {'s63': 188, 's69': 109, 's7': 133, 's70': 194, 's72': 136, 's74': 206, 's75': 179, 's76': 148, 's77': 203, 's85': 100, 's87': 176, 's94': 191, 's96': 121, 's97': 139}  # free symbols: their hints
WIDEST = ['s63', 's69', 's74', 's75', 's76', 's77', 's87', 's94', 's96', 's97']  # the width: --n N keeps N of these dynamic (or adds more to their sum)

def graph(sizes, more):
    s63, s69, s7, s70, s72, s74, s75, s76, s77, s85, s87, s94, s96, s97 = (t.size(0) for t in sizes)
    wide_sum = 127 * s63 + 170 * s69 + s7 * s70 + 145 * s74 + 118 * s75 + 209 * s76 + 142 * s77 + s87 + s94 + s96 + 200 * s97 + 26792 + sum([t.size(0) for t in more])
    arg40_1 = wide_sum // (s69 + s7 + s72 + s76 + s85 + s96 + 1684)
    add = arg40_1 + 1
    iota = torch.ops.prims.iota.default(arg40_1, start=0, step=1, dtype=torch.int64, device=device(type='cpu'), requires_grad=False)
    mul = torch.ops.aten.mul.Tensor(iota, 1)
    add_1 = torch.ops.aten.add.Tensor(mul, 0)
    convert_element_type = torch.ops.prims.convert_element_type.default(add_1, torch.float32)
    mul_1 = torch.ops.aten.mul.Tensor(convert_element_type, 2.0)
    return (mul_1,)

def inputs(n, dynamic):  # graph's arguments at width n, live symbols' dims dynamic
    unused = (v for v in itertools.count(max(SIZES[WIDEST[-1]], 2) + 3, 3) if v not in SIZES.values())
    sizes = {**SIZES, **(more := dict(zip([f"more{i}" for i in range(n - len(WIDEST))], unused)))}
    live = set(sizes) - set(WIDEST[n:]) if dynamic else set()  # the rest pinned
    def zeros(shape, dtype=torch.float32):
        t = torch.zeros([sizes.get(d, d) for d in shape], dtype=dtype)
        torch._dynamo.mark_dynamic(t, [i for i, d in enumerate(shape) if d in live])
        return t
    return [[zeros([s], torch.int8) for s in SIZES], [zeros([m], torch.int8) for m in more]]

def compile_once(mode, n, backend, instructions):  # CPU s of the first call, after a warm-up
    with tempfile.TemporaryDirectory() as cache:  # a cold Inductor cache
        os.environ["TORCHINDUCTOR_CACHE_DIR"] = cache
        torch.compile(lambda x: x + 1, backend=backend)(torch.ones(3))  # torch's one-time cost
        args = inputs(n, mode == "dynamic")
        torch._dynamo.config.record_compile_time_instruction_count = instructions  # not the warm-up
        compiled = torch.compile(graph, backend=backend, fullgraph=True, dynamic=None if mode == "dynamic" else False)
        start = time.process_time()
        with torch.no_grad():
            compiled(*args)
        seconds = time.process_time() - start
        counted = torch._dynamo.utils.CompileTimeInstructionCounter.value() if instructions else None
        return {"seconds": seconds, "instructions": counted}

def main():
    p = argparse.ArgumentParser(description=__doc__.split(chr(10))[0])
    p.add_argument("--mode", choices=["dynamic", "static"], help="one compile, here; prints JSON")
    p.add_argument("--n", type=int, default=len(WIDEST), help="the width [%(default)s]")
    p.add_argument("--backend", choices=["eager", "aot_eager", "inductor"], default="inductor")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--instructions", action="store_true", help="count compile instructions")
    a = p.parse_args()
    if a.n < 1 or (a.instructions and torch._C._instruction_counter.start() == -1):  # perf_event_open
        p.error(f"--n {a.n}: out of range" if a.n < 1 else "no hardware instruction counters here")
    if a.mode:
        return print(json.dumps(compile_once(a.mode, a.n, a.backend, a.instructions)))
    runs = {"dynamic": [], "static": []}
    for mode in [*runs] * 3:  # 3 runs each, alternated: both modes see the same load
        child = subprocess.run([sys.executable, __file__, *sys.argv[1:], "--mode", mode], capture_output=True, text=True)
        if child.returncode:
            sys.exit(f"the {mode} compile failed:\n{child.stderr[-3000:]}")
        runs[mode].append(json.loads(child.stdout.splitlines()[-1]))
    times = {m: [r["seconds"] for r in done] for m, done in runs.items()}
    d, s = statistics.median(times["dynamic"]), statistics.median(times["static"])
    out = {"dynamic_s": d, "static_s": s, "ratio": d / s, "n": a.n, "backend": a.backend, "torch": torch.__version__,
           "runs": times, "instructions": {m: [r["instructions"] for r in done] for m, done in runs.items()}}
    if a.json:
        return print(json.dumps(out))
    for m, ts in times.items():
        print(f"{m:<8} {' '.join(f'{t:.2f}' for t in ts)} s CPU (compile and first run)")
    print(f"ratio    {d / s:.1f}x (median over median), n = {a.n}, backend {a.backend}")

if __name__ == "__main__":
    main()

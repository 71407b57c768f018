"""sym_outer_floordiv: torch.compile of `graph` with its free symbols' dims marked dynamic, against
static shapes, in fresh processes: both CPU times, their ratio (by symshrink from repro.py)."""
import argparse, itertools, json, os, statistics, subprocess, sys, tempfile, time
import torch
from torch import device

SIZES = {'s21': 1009, 's53': 503, 's82': 1015, 's93': 1003}  # free symbols: their hints
WIDEST = ['s21', 's53', 's82', 's93']  # the width: --n N keeps N of these dynamic (or adds more to their sum)

def graph(sizes, more):
    s21, s53, s82, s93 = (t.size(0) for t in sizes)
    arg10_1 = 3 * s21 + s53 + s82 + s93 + 1012 + sum([t.size(0) for t in more])
    arg8_1 = arg10_1 // 160
    iota = torch.ops.prims.iota.default(arg10_1, start=0, step=1, dtype=torch.int64, device=device(type='cpu'), requires_grad=False)
    unsqueeze = torch.ops.aten.unsqueeze.default(iota, 1)
    iota_1 = torch.ops.prims.iota.default(arg8_1, start=0, step=1, dtype=torch.int64, device=device(type='cpu'), requires_grad=False)
    mul_2 = torch.ops.aten.mul.Tensor(unsqueeze, iota_1)
    view = torch.ops.aten.view.default(mul_2, [arg8_1, arg10_1])
    return (view,)

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

"""pad_outer_view: torch.compile of `graph` with its free symbols' dims marked dynamic, against
static shapes, in fresh processes: both CPU times, their ratio (by symshrink from repro.py)."""
import argparse, itertools, json, os, statistics, subprocess, sys, tempfile, time
import torch

SIZES = {'s5': 129, 's57': 1003, 's61': 509, 's67': 1009, 's68': 16, 's73': 32, 's75': 1000, 's78': 1027, 's8': 65, 's80': 1012, 's81': 2, 's86': 1006, 's87': 64, 's98': 515}  # free symbols: their hints
WIDEST = ['s5', 's57', 's61', 's67', 's68', 's73', 's75', 's78', 's8', 's80', 's81', 's86', 's87', 's98']  # the width: --n N keeps N of these dynamic

def graph(arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1):
    s5, s57, s61, s67, s68, s73, s75, s78, s8, s80, s81, s86, s87, s98 = arg11_1.size(0), arg1_1.size(0), arg6_1.size(0), arg3_1.size(0), arg14_1.size(0), arg13_1.size(0), arg0_1.size(0), arg9_1.size(0), arg17_1.size(0), arg4_1.size(0), arg19_1.size(0), arg2_1.size(0), arg12_1.size(0), arg10_1.size(0)
    cat = torch.ops.aten.cat.default([arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1])
    sub = s98 - 10135
    constant_pad_nd = torch.ops.aten.constant_pad_nd.default(cat, [0, sub])
    cat_1 = torch.ops.aten.cat.default([arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1])
    unsqueeze = torch.ops.aten.unsqueeze.default(constant_pad_nd, 1)
    mul = torch.ops.aten.mul.Tensor(unsqueeze, cat_1)
    view = torch.ops.aten.view.default(mul, [-1])
    return (view,)

def inputs(n, dynamic):  # graph's arguments at width n, live symbols' dims dynamic
    sizes = SIZES
    live = set(sizes) - set(WIDEST[n:]) if dynamic else set()  # the rest pinned
    def zeros(shape, dtype=torch.float32):
        t = torch.zeros([sizes.get(d, d) for d in shape], dtype=dtype)
        torch._dynamo.mark_dynamic(t, [i for i, d in enumerate(shape) if d in live])
        return t
    return [zeros(['s75']), zeros(['s57']), zeros(['s86']), zeros(['s67']), zeros(['s80']),
        zeros([1015]), zeros(['s61']), zeros([1021]), zeros([1024]), zeros(['s78']), zeros(['s98']),
        zeros(['s5']), zeros(['s87']), zeros(['s73']), zeros(['s68']), zeros([1045]), zeros([1048]),
        zeros(['s8']), zeros([1054]), zeros(['s81'])]

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
    if not 1 <= a.n <= len(WIDEST) or (a.instructions and torch._C._instruction_counter.start() == -1):  # perf_event_open
        p.error(f"--n {a.n}: out of range" if not 1 <= a.n <= len(WIDEST) else "no hardware instruction counters here")
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

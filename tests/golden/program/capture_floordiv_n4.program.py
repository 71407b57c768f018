"""capture_floordiv_n4: torch.compile of `graph` with its free symbols' dims marked dynamic, against
static shapes, in fresh processes: both CPU times, their ratio (by symshrink from capture_floordiv_n4.py)."""
import argparse, itertools, json, os, statistics, subprocess, sys, tempfile, time
import torch
from torch import device
torch._inductor.config.fx_graph_cache = False

SIZES = {'s29': 1009, 's31': 1000, 's50': 1006, 's80': 1003}  # free symbols: their hints
WIDEST = ['s29', 's31', 's50', 's80']  # the width: --n N keeps N of these dynamic

def graph(primals_2, primals_4, primals_6, primals_8):
    s29, s31, s50, s80 = primals_8.size(0), primals_2.size(0), primals_6.size(0), primals_4.size(0)
    cat = torch.ops.aten.cat.default([primals_2, primals_4, primals_6, primals_8])
    sym_size_int_4 = torch.ops.aten.sym_size.int(cat, 0)
    sym_sum = sum((s29, s31, s50, s80))
    add_2 = sym_sum // 160 + 866
    iota = torch.ops.prims.iota.default(sym_sum, start=0, step=1, dtype=torch.int64, device=device(type='cpu'), requires_grad=False)
    mul_1 = torch.ops.aten.mul.Tensor(iota, 1)
    add_4 = torch.ops.aten.add.Tensor(mul_1, 0)
    convert_element_type = torch.ops.prims.convert_element_type.default(add_4, torch.float32)
    unsqueeze = torch.ops.aten.unsqueeze.default(convert_element_type, 1)
    iota_1 = torch.ops.prims.iota.default(add_2, start=0, step=1, dtype=torch.int64, device=device(type='cpu'), requires_grad=False)
    mul_4 = torch.ops.aten.mul.Tensor(iota_1, 1)
    add_11 = torch.ops.aten.add.Tensor(mul_4, 0)
    convert_element_type_1 = torch.ops.prims.convert_element_type.default(add_11, torch.float32)
    unsqueeze_1 = torch.ops.aten.unsqueeze.default(convert_element_type_1, 0)
    mul_8 = torch.ops.aten.mul.Tensor(unsqueeze, unsqueeze_1)
    add_19 = torch.ops.aten.add.Tensor(mul_8, 1.0)
    view = torch.ops.aten.view.default(add_19, [add_2, sym_sum])
    mul_15 = torch.ops.aten.mul.Tensor(view, cat)
    sum_1 = torch.ops.aten.sum.dim_IntList(mul_15, [0])
    add_33 = s31 + s80
    add_35 = add_33 + s50
    return (sum_1, s31, s29, s50, s80, sym_size_int_4, sym_sum, add_33, add_35)

def inputs(n, dynamic):  # graph's arguments at width n, live symbols' dims dynamic
    sizes = SIZES
    live = set(sizes) - set(WIDEST[n:]) if dynamic else set()  # the rest pinned
    def zeros(shape, dtype=torch.float32):
        t = torch.zeros([sizes.get(d, d) for d in shape], dtype=dtype)
        torch._dynamo.mark_dynamic(t, [i for i, d in enumerate(shape) if d in live])
        return t
    return [zeros(['s31']), zeros(['s80']), zeros(['s50']), zeros(['s29'])]

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

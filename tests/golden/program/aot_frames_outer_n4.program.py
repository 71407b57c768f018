"""aot_frames_outer_n4: torch.compile of `graph` with its free symbols' dims marked dynamic, against
static shapes, in fresh processes: both CPU times, their ratio (by symshrink from aot_frames_outer_n4.py)."""
import argparse, itertools, json, os, statistics, subprocess, sys, tempfile, time
import torch
from torch import device

SIZES = {'s29': 1009, 's31': 1000, 's50': 1006, 's80': 1003}  # free symbols: their hints
WIDEST = ['s29', 's31', 's50', 's80']  # the width: --n N keeps N of these dynamic (or adds more to their sum)

def graph(sizes, more, flats, primals_9, tangents_1):
    s29, s31, s50, s80 = (t.size(0) for t in sizes)
    sym_size_int_4, add_2, mul_1, layouts = derived(s29, s31, s50, s80, [t.size(0) for t in more])
    cat, view, alias, unsqueeze_1, sum_3 = (flat.as_strided(*layout) for flat, layout in zip(flats, layouts))
    expand = torch.ops.aten.expand.default(tangents_1, [sym_size_int_4])
    mul_26 = torch.ops.aten.mul.Tensor(expand, cat)
    mul_27 = torch.ops.aten.mul.Tensor(expand, sum_3)
    unsqueeze_2 = torch.ops.aten.unsqueeze.default(mul_26, 0)
    expand_1 = torch.ops.aten.expand.default(unsqueeze_2, [add_2, sym_size_int_4])
    clone = torch.ops.aten.clone.default(expand_1, memory_format=torch.contiguous_format)
    view_2 = torch.ops.aten.view.default(clone, [sym_size_int_4, add_2])
    mul_28 = torch.ops.aten.mul.Tensor(view_2, unsqueeze_1)
    sum_5 = torch.ops.aten.sum.dim_IntList(mul_28, [1], True)
    squeeze = torch.ops.aten.squeeze.dim(sum_5, 1)
    add_42 = torch.ops.aten.add.Tensor(mul_27, squeeze)
    expand_2 = torch.ops.aten.expand.default(tangents_1, [add_2])
    full_1 = torch.ops.aten.full.default([sym_size_int_4], 0, dtype=torch.float32, layout=torch.strided, device=device(type='cpu'), pin_memory=False)
    slice_scatter = torch.ops.aten.slice_scatter.default(full_1, expand_2, 0, 0, add_2)
    add_43 = torch.ops.aten.add.Tensor(add_42, slice_scatter)
    expand_3 = torch.ops.aten.expand.default(tangents_1, [add_2, 8])
    alias_1 = torch.ops.aten.alias.default(alias)
    le = torch.ops.aten.le.Scalar(alias_1, 0)
    scalar_tensor = torch.ops.aten.scalar_tensor.default(0, dtype=torch.float32, layout=torch.strided, device=device(type='cpu'))
    where = torch.ops.aten.where.self(le, scalar_tensor, expand_3)
    permute = torch.ops.aten.permute.default(view, [1, 0])
    mm_1 = torch.ops.aten.mm.default(permute, where)
    permute_1 = torch.ops.aten.permute.default(primals_9, [1, 0])
    mm_2 = torch.ops.aten.mm.default(where, permute_1)
    view_3 = torch.ops.aten.view.default(mm_2, [mul_1])
    slice_2 = torch.ops.aten.slice.Tensor(view_3, 0, 0, sym_size_int_4)
    add_48 = torch.ops.aten.add.Tensor(add_43, slice_2)
    slice_4 = torch.ops.aten.slice.Tensor(add_48, 0, 0, s31)
    add_51 = s31 + s80
    slice_5 = torch.ops.aten.slice.Tensor(add_48, 0, s31, add_51)
    add_53 = add_51 + s50
    slice_6 = torch.ops.aten.slice.Tensor(add_48, 0, add_51, add_53)
    slice_7 = torch.ops.aten.slice.Tensor(add_48, 0, add_53, sym_size_int_4)
    return (None, slice_4, None, slice_5, None, slice_6, None, slice_7, mm_1)

def derived(s29, s31, s50, s80, more):  # sizes, and (size, stride, offset) of the rebuilt tensors: SymInts or ints
    sym_size_int_4 = s29 + s31 + s50 + s80 + sum(more)
    add_2 = sym_size_int_4 // 160 + 866
    mul_1 = 160 * (sym_size_int_4 // 160) + 138560
    return sym_size_int_4, add_2, mul_1, [((sym_size_int_4,), (1,), 0), ((add_2, 160), (160, 1), 0), ((add_2, 8), (8, 1), 0), ((1, add_2), (add_2, 1), 0), ((sym_size_int_4,), (1,), 0)]

def inputs(n, dynamic):  # graph's arguments at width n, live symbols' dims dynamic
    unused = (v for v in itertools.count(max(SIZES[WIDEST[-1]], 2) + 3, 3) if v not in SIZES.values())
    sizes = {**SIZES, **(more := dict(zip([f"more{i}" for i in range(n - len(WIDEST))], unused)))}
    live = set(sizes) - set(WIDEST[n:]) if dynamic else set()  # the rest pinned
    def zeros(shape, dtype=torch.float32):
        t = torch.zeros([sizes.get(d, d) for d in shape], dtype=dtype)
        torch._dynamo.mark_dynamic(t, [i for i, d in enumerate(shape) if d in live])
        return t
    *_, layouts = derived(*(sizes[s] for s in SIZES), list(more.values()))
    flats = [zeros([offset + sum((n - 1) * s for n, s in zip(size, stride)) + 1], dtype) for (size, stride, offset), dtype in zip(layouts, [torch.float32, torch.float32, torch.float32, torch.float32, torch.float32])]
    return [[zeros([s], torch.int8) for s in SIZES], [zeros([m], torch.int8) for m in more], flats,
        zeros([160, 8]), zeros([])]

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

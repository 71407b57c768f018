s29 = 1009
s31 = 1000
s50 = 1006
s80 = 1003


# env var omitted due to stable_output=True
import torch
from torch import tensor, device
import torch.fx as fx
from torch._dynamo.testing import rand_strided
from math import inf
import torch._inductor.inductor_prims



# config omitted due to stable_output=True

isolate_fails_code_str = None





if "__compile_source__" in globals():
    import inspect as __after_aot_inspect
    import linecache as __after_aot_linecache
    __after_aot_filename = __after_aot_inspect.currentframe().f_code.co_filename
    __after_aot_linecache.cache[__after_aot_filename] = (
        len(__compile_source__),
        None,
        __compile_source__.splitlines(True),
        __after_aot_filename,
    )
torch._higher_order_ops.triton_kernel_wrap.kernel_side_table.reset_table()

from torch.nn import *
class Repro(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()



    def forward(self, primals_1, primals_3, primals_5, primals_7, sym_size_int_4, sym_sum, add_2, mul_1, primals_9, cat, view, alias, unsqueeze_1, sum_3, tangents_1):
        expand = torch.ops.aten.expand.default(tangents_1, [sym_size_int_4])
        mul_26 = torch.ops.aten.mul.Tensor(expand, cat);  cat = None
        mul_27 = torch.ops.aten.mul.Tensor(expand, sum_3);  expand = sum_3 = None
        unsqueeze_2 = torch.ops.aten.unsqueeze.default(mul_26, 0);  mul_26 = None
        expand_1 = torch.ops.aten.expand.default(unsqueeze_2, [add_2, sym_sum]);  unsqueeze_2 = None
        clone = torch.ops.aten.clone.default(expand_1, memory_format = torch.contiguous_format);  expand_1 = None
        view_2 = torch.ops.aten.view.default(clone, [sym_size_int_4, add_2]);  clone = None
        mul_28 = torch.ops.aten.mul.Tensor(view_2, unsqueeze_1);  view_2 = unsqueeze_1 = None
        sum_5 = torch.ops.aten.sum.dim_IntList(mul_28, [1], True);  mul_28 = None
        squeeze = torch.ops.aten.squeeze.dim(sum_5, 1);  sum_5 = None
        add_42 = torch.ops.aten.add.Tensor(mul_27, squeeze);  mul_27 = squeeze = None
        expand_2 = torch.ops.aten.expand.default(tangents_1, [add_2])
        full_1 = torch.ops.aten.full.default([sym_size_int_4], 0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'), pin_memory = False);  sym_size_int_4 = None
        slice_scatter = torch.ops.aten.slice_scatter.default(full_1, expand_2, 0, 0, add_2);  full_1 = expand_2 = None
        add_43 = torch.ops.aten.add.Tensor(add_42, slice_scatter);  add_42 = slice_scatter = None
        expand_3 = torch.ops.aten.expand.default(tangents_1, [add_2, 8]);  tangents_1 = add_2 = None
        alias_1 = torch.ops.aten.alias.default(alias);  alias = None
        le = torch.ops.aten.le.Scalar(alias_1, 0);  alias_1 = None
        scalar_tensor = torch.ops.aten.scalar_tensor.default(0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'))
        where = torch.ops.aten.where.self(le, scalar_tensor, expand_3);  le = scalar_tensor = expand_3 = None
        permute = torch.ops.aten.permute.default(view, [1, 0]);  view = None
        mm_1 = torch.ops.aten.mm.default(permute, where);  permute = None
        permute_1 = torch.ops.aten.permute.default(primals_9, [1, 0]);  primals_9 = None
        mm_2 = torch.ops.aten.mm.default(where, permute_1);  where = permute_1 = None
        view_3 = torch.ops.aten.view.default(mm_2, [mul_1]);  mm_2 = mul_1 = None
        slice_2 = torch.ops.aten.slice.Tensor(view_3, 0, 0, sym_sum);  view_3 = None
        add_48 = torch.ops.aten.add.Tensor(add_43, slice_2);  add_43 = slice_2 = None
        slice_4 = torch.ops.aten.slice.Tensor(add_48, 0, 0, primals_1)
        add_51 = primals_1 + primals_3;  primals_3 = None
        slice_5 = torch.ops.aten.slice.Tensor(add_48, 0, primals_1, add_51);  primals_1 = None
        add_53 = add_51 + primals_5;  primals_5 = None
        slice_6 = torch.ops.aten.slice.Tensor(add_48, 0, add_51, add_53);  add_51 = None
        slice_7 = torch.ops.aten.slice.Tensor(add_48, 0, add_53, sym_sum);  add_48 = add_53 = sym_sum = None
        return (None, slice_4, None, slice_5, None, slice_6, None, slice_7, mm_1)

def load_args(reader):
    reader.symint(1000, expr='s31')  # primals_1
    reader.symint(1003, expr='s80')  # primals_3
    reader.symint(1006, expr='s50')  # primals_5
    reader.symint(1009, expr='s29')  # primals_7
    reader.symint(4018, expr='s29 + s31 + s50 + s80')  # sym_size_int_4
    reader.symint(4018, expr='s29 + s31 + s50 + s80')  # sym_sum
    reader.symint(891, expr='(((s29 + s31 + s50 + s80)//160)) + 866')  # add_2
    reader.symint(142560, expr='160*(((s29 + s31 + s50 + s80)//160)) + 138560')  # mul_1
    buf0 = reader.storage(None, 5120)
    reader.tensor(buf0, (160, 8), is_leaf=True)  # primals_9
    buf1 = reader.storage(None, 4*s29 + 4*s31 + 4*s50 + 4*s80)
    reader.tensor(buf1, (s29 + s31 + s50 + s80,), is_leaf=True)  # cat
    buf2 = reader.storage(None, 640*(((s29 + s31 + s50 + s80)//160)) + 554240)
    reader.tensor(buf2, ((((s29 + s31 + s50 + s80)//160)) + 866, 160), is_leaf=True)  # view
    buf3 = reader.storage(None, 32*(((s29 + s31 + s50 + s80)//160)) + 27712)
    reader.tensor(buf3, ((((s29 + s31 + s50 + s80)//160)) + 866, 8), is_leaf=True)  # alias
    buf4 = reader.storage(None, 4*(((s29 + s31 + s50 + s80)//160)) + 3464)
    reader.tensor(buf4, (1, (((s29 + s31 + s50 + s80)//160)) + 866), is_leaf=True)  # unsqueeze_1
    buf5 = reader.storage(None, 4*s29 + 4*s31 + 4*s50 + 4*s80)
    reader.tensor(buf5, (s29 + s31 + s50 + s80,), is_leaf=True)  # sum_3
    buf6 = reader.storage(None, 4)
    reader.tensor(buf6, (), is_leaf=True)  # tangents_1
load_args._version = 0
mod = Repro()
if __name__ == '__main__':
    from torch._dynamo.repro.after_aot import run_repro
    with torch.no_grad():
        run_repro(mod, load_args, accuracy=False, command='run', save_dir=None, tracing_mode='symbolic', check_str=None)
        # To run it separately, do 
        # mod, args = run_repro(mod, load_args, accuracy=False, command='get_args', save_dir=None, tracing_mode='symbolic', check_str=None)
        # mod(*args)

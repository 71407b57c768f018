s41 = 1018
s44 = 1000
s68 = 1015
s73 = 1009
s74 = 1024
s78 = 1012
s8 = 1042
s83 = 1003
s84 = 1021
s87 = 1006
s93 = 1027

import os
os.environ['TORCHINDUCTOR_CACHE_DIR'] = '/tmp/torchinductor_root'
os.environ.pop('TORCHDYNAMO_REPRO_AFTER', None)
os.environ.pop('TORCHDYNAMO_REPRO_LEVEL', None)

import torch
from torch import tensor, device
import torch.fx as fx
from torch._dynamo.testing import rand_strided
from math import inf
import torch._inductor.inductor_prims



import torch._dynamo.config
import torch._inductor.config
import torch._functorch.config
import torch.fx.experimental._config
torch._dynamo.config.assume_static_by_default = False

torch._functorch.config.fake_tensor_allow_unsafe_data_ptr_access = True



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
# torch version: 2.13.0+cpu
# torch cuda version: None
# torch git version: cf30153c4c131c8164ee7798e5022d810682e2cb


# torch.cuda.is_available()==False, no GPU info collected
torch._higher_order_ops.triton_kernel_wrap.kernel_side_table.reset_table()

from torch.nn import *
class Repro(torch.nn.Module):

    def __init__(self) -> None:
        super().__init__()

    def forward(self, primals_1, primals_3, primals_5, primals_7, primals_9, primals_11, primals_13, primals_15, primals_17, primals_19, primals_29, sym_size_int_16, sym_sum, add_2, mul_1, primals_33, cat, alias, unsqueeze_1, sum_3, tangents_1):
        full_1 = torch.ops.aten.full.default([sym_size_int_16], 0, dtype=torch.float32, layout=torch.strided, device=device(type='cpu'), pin_memory=False)
        add_48 = torch.ops.aten.add.Tensor(full_1, tangents_1)
        unsqueeze_2 = torch.ops.aten.unsqueeze.default(tangents_1, 0)
        expand_2 = torch.ops.aten.expand.default(unsqueeze_2, [add_2, sym_sum])
        clone = torch.ops.aten.clone.default(expand_2, memory_format=torch.contiguous_format)
        view_2 = torch.ops.aten.view.default(clone, [sym_size_int_16, add_2])
        mul_33 = torch.ops.aten.mul.Tensor(view_2, unsqueeze_1)
        sum_6 = torch.ops.aten.sum.dim_IntList(mul_33, [1], True)
        squeeze = torch.ops.aten.squeeze.dim(sum_6, 1)
        add_49 = torch.ops.aten.add.Tensor(add_48, squeeze)
        expand_3 = torch.ops.aten.expand.default(tangents_1, [add_2, 8])
        alias_1 = torch.ops.aten.alias.default(alias)
        le = torch.ops.aten.le.Scalar(alias_1, 0)
        scalar_tensor = torch.ops.aten.scalar_tensor.default(0, dtype=torch.float32, layout=torch.strided, device=device(type='cpu'))
        where = torch.ops.aten.where.self(le, scalar_tensor, expand_3)
        permute_1 = torch.ops.aten.permute.default(primals_33, [1, 0])
        mm_2 = torch.ops.aten.mm.default(where, permute_1)
        view_3 = torch.ops.aten.view.default(mm_2, [mul_1])
        slice_2 = torch.ops.aten.slice.Tensor(view_3, 0, 0, sym_sum)
        add_54 = torch.ops.aten.add.Tensor(add_49, slice_2)
        add_57 = primals_1 + primals_3
        add_59 = add_57 + primals_5
        add_61 = add_59 + primals_7
        add_63 = add_61 + primals_9
        add_65 = add_63 + primals_11
        add_67 = add_65 + primals_13
        add_69 = add_67 + primals_15
        add_71 = add_69 + primals_17
        add_73 = add_71 + primals_19
        add_75 = add_73 + 1030
        add_77 = add_75 + 1033
        add_79 = add_77 + 1036
        add_81 = add_79 + 1039
        add_83 = add_81 + primals_29
        slice_19 = torch.ops.aten.slice.Tensor(add_54, 0, add_83, sym_sum)
        return (slice_19,)

def load_args(reader):
    reader.symint(1000, expr='s44')  # primals_1
    reader.symint(1003, expr='s83')  # primals_3
    reader.symint(1006, expr='s87')  # primals_5
    reader.symint(1009, expr='s73')  # primals_7
    reader.symint(1012, expr='s78')  # primals_9
    reader.symint(1015, expr='s68')  # primals_11
    reader.symint(1018, expr='s41')  # primals_13
    reader.symint(1021, expr='s84')  # primals_15
    reader.symint(1024, expr='s74')  # primals_17
    reader.symint(1027, expr='s93')  # primals_19
    reader.symint(1042, expr='s8')  # primals_29
    reader.symint(11177, expr='s41 + s44 + s68 + s73 + s74 + s78 + s8 + s83 + s84 + s87 + s93')  # sym_size_int_16
    reader.symint(11177, expr='s41 + s44 + s68 + s73 + s74 + s78 + s8 + s83 + s84 + s87 + s93')  # sym_sum
    reader.symint(935, expr='(((s41 + s44 + s68 + s73 + s74 + s78 + s8 + s83 + s84 + s87 + s93)//160)) + 866')  # add_2
    reader.symint(149600, expr='149600')  # mul_1
    buf0 = reader.storage(None, 5120)
    reader.tensor(buf0, (160, 8), is_leaf=True)  # primals_33
    buf1 = reader.storage(None, 4*s41 + 4*s44 + 4*s68 + 4*s73 + 4*s74 + 4*s78 + 4*s8 + 4*s83 + 4*s84 + 4*s87 + 4*s93 + 20732)
    reader.tensor(buf1, (s41 + s44 + s68 + s73 + s74 + s78 + s8 + s83 + s84 + s87 + s93,), is_leaf=True)  # cat
    buf3 = reader.storage(None, 32*(((s41 + s44 + s68 + s73 + s74 + s78 + s8 + s83 + s84 + s87 + s93)//160)) + 27712)
    reader.tensor(buf3, ((((s41 + s44 + s68 + s73 + s74 + s78 + s8 + s83 + s84 + s87 + s93)//160)) + 866, 8), is_leaf=True)  # alias
    buf4 = reader.storage(None, 4*(((s41 + s44 + s68 + s73 + s74 + s78 + s8 + s83 + s84 + s87 + s93)//160)) + 3464)
    reader.tensor(buf4, (1, (((s41 + s44 + s68 + s73 + s74 + s78 + s8 + s83 + s84 + s87 + s93)//160)) + 866), is_leaf=True)  # unsqueeze_1
    buf5 = reader.storage(None, 4*s41 + 4*s44 + 4*s68 + 4*s73 + 4*s74 + 4*s78 + 4*s8 + 4*s83 + 4*s84 + 4*s87 + 4*s93 + 20732)
    reader.tensor(buf5, (s41 + s44 + s68 + s73 + s74 + s78 + s8 + s83 + s84 + s87 + s93,), is_leaf=True)  # sum_3
    buf6 = reader.storage(None, 4)
    reader.tensor(buf6, (), is_leaf=True)  # tangents_1
load_args._version = 0
mod = Repro()
if __name__ == '__main__':
    from torch._dynamo.repro.after_aot import run_repro
    with torch.no_grad():
        run_repro(mod, load_args, accuracy=False, command='run', save_dir=None, tracing_mode='symbolic', check_str=None)

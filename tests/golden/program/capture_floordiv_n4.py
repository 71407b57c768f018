s29 = 1009
s31 = 1000
s50 = 1006
s80 = 1003


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
torch._inductor.config.fx_graph_cache = False
torch._functorch.config.functionalize_rng_ops = False
torch._functorch.config.enable_autograd_cache = False
torch._functorch.config.fake_tensor_allow_unsafe_data_ptr_access = True
torch._functorch.config.unlift_effect_tokens = True
torch._functorch.config.selective_decompose = False



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



    def forward(self, primals_1, primals_2, primals_3, primals_4, primals_5, primals_6, primals_7, primals_8):
        cat = torch.ops.aten.cat.default([primals_2, primals_4, primals_6, primals_8]);  primals_2 = primals_4 = primals_6 = primals_8 = None
        sym_size_int_4 = torch.ops.aten.sym_size.int(cat, 0)
        sym_sum = torch.sym_sum((primals_7, primals_1, primals_5, primals_3))
        floordiv = sym_sum // 160
        add_2 = floordiv + 866;  floordiv = None
        iota = torch.ops.prims.iota.default(sym_sum, start = 0, step = 1, dtype = torch.int64, device = device(type='cpu'), requires_grad = False)
        mul_1 = torch.ops.aten.mul.Tensor(iota, 1);  iota = None
        add_4 = torch.ops.aten.add.Tensor(mul_1, 0);  mul_1 = None
        convert_element_type = torch.ops.prims.convert_element_type.default(add_4, torch.float32);  add_4 = None
        unsqueeze = torch.ops.aten.unsqueeze.default(convert_element_type, 1);  convert_element_type = None
        iota_1 = torch.ops.prims.iota.default(add_2, start = 0, step = 1, dtype = torch.int64, device = device(type='cpu'), requires_grad = False)
        mul_4 = torch.ops.aten.mul.Tensor(iota_1, 1);  iota_1 = None
        add_11 = torch.ops.aten.add.Tensor(mul_4, 0);  mul_4 = None
        convert_element_type_1 = torch.ops.prims.convert_element_type.default(add_11, torch.float32);  add_11 = None
        unsqueeze_1 = torch.ops.aten.unsqueeze.default(convert_element_type_1, 0);  convert_element_type_1 = None
        mul_8 = torch.ops.aten.mul.Tensor(unsqueeze, unsqueeze_1);  unsqueeze = unsqueeze_1 = None
        add_19 = torch.ops.aten.add.Tensor(mul_8, 1.0);  mul_8 = None
        view = torch.ops.aten.view.default(add_19, [add_2, sym_sum]);  add_19 = add_2 = None
        mul_15 = torch.ops.aten.mul.Tensor(view, cat);  view = cat = None
        sum_1 = torch.ops.aten.sum.dim_IntList(mul_15, [0]);  mul_15 = None
        add_33 = primals_1 + primals_3
        add_35 = add_33 + primals_5
        return (sum_1, primals_1, primals_7, primals_5, primals_3, sym_size_int_4, sym_sum, add_33, add_35)

def load_args(reader):
    reader.symint(1000, expr='s31')  # primals_1
    buf0 = reader.storage(None, 4*s31)
    reader.tensor(buf0, (s31,), is_leaf=True)  # primals_2
    reader.symint(1003, expr='s80')  # primals_3
    buf1 = reader.storage(None, 4*s80)
    reader.tensor(buf1, (s80,), is_leaf=True)  # primals_4
    reader.symint(1006, expr='s50')  # primals_5
    buf2 = reader.storage(None, 4*s50)
    reader.tensor(buf2, (s50,), is_leaf=True)  # primals_6
    reader.symint(1009, expr='s29')  # primals_7
    buf3 = reader.storage(None, 4*s29)
    reader.tensor(buf3, (s29,), is_leaf=True)  # primals_8
load_args._version = 0
mod = Repro()
if __name__ == '__main__':
    from torch._dynamo.repro.after_aot import run_repro
    with torch.no_grad():
        run_repro(mod, load_args, accuracy=False, command='run', save_dir=None, tracing_mode='symbolic', check_str=None)
        # To run it separately, do 
        # mod, args = run_repro(mod, load_args, accuracy=False, command='get_args', save_dir=None, tracing_mode='symbolic', check_str=None)
        # mod(*args)

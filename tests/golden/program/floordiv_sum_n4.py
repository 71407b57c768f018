s57 = 1003
s67 = 1009
s75 = 1000
s86 = 1006


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



    def forward(self, arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1):
        sum_1 = torch.ops.aten.sum.default(arg0_1);  arg0_1 = None
        add = torch.ops.aten.add.Tensor(sum_1, 0);  sum_1 = None
        sum_2 = torch.ops.aten.sum.default(arg1_1);  arg1_1 = None
        add_1 = torch.ops.aten.add.Tensor(add, sum_2);  add = sum_2 = None
        sum_3 = torch.ops.aten.sum.default(arg2_1);  arg2_1 = None
        add_2 = torch.ops.aten.add.Tensor(add_1, sum_3);  add_1 = sum_3 = None
        sum_4 = torch.ops.aten.sum.default(arg3_1);  arg3_1 = None
        add_3 = torch.ops.aten.add.Tensor(add_2, sum_4);  add_2 = sum_4 = None
        add_4 = arg6_1 + 1;  add_4 = None
        iota = torch.ops.prims.iota.default(arg6_1, start = 0, step = 1, dtype = torch.int64, device = device(type='cpu'), requires_grad = False)
        mul = torch.ops.aten.mul.Tensor(iota, 1);  iota = None
        add_5 = torch.ops.aten.add.Tensor(mul, 0);  mul = None
        convert_element_type = torch.ops.prims.convert_element_type.default(add_5, torch.float32);  add_5 = None
        unsqueeze = torch.ops.aten.unsqueeze.default(convert_element_type, 1);  convert_element_type = None
        add_6 = arg4_1 + 1;  add_6 = None
        iota_1 = torch.ops.prims.iota.default(arg4_1, start = 0, step = 1, dtype = torch.int64, device = device(type='cpu'), requires_grad = False)
        mul_1 = torch.ops.aten.mul.Tensor(iota_1, 1);  iota_1 = None
        add_7 = torch.ops.aten.add.Tensor(mul_1, 0);  mul_1 = None
        convert_element_type_1 = torch.ops.prims.convert_element_type.default(add_7, torch.float32);  add_7 = None
        unsqueeze_1 = torch.ops.aten.unsqueeze.default(convert_element_type_1, 0);  convert_element_type_1 = None
        mul_2 = torch.ops.aten.mul.Tensor(unsqueeze, unsqueeze_1);  unsqueeze = unsqueeze_1 = None
        add_8 = torch.ops.aten.add.Tensor(mul_2, 1.0);  mul_2 = None
        view = torch.ops.aten.view.default(add_8, [arg4_1, arg6_1]);  add_8 = arg4_1 = arg6_1 = None
        mul_3 = torch.ops.aten.mul.Tensor(view, 3.0)
        sum_5 = torch.ops.aten.sum.dim_IntList(view, [0]);  view = None
        return (add_3, mul_3, sum_5)

def load_args(reader):
    buf0 = reader.storage(None, 4*s75)
    reader.tensor(buf0, (s75,), is_leaf=True)  # arg0_1
    buf1 = reader.storage(None, 4*s57)
    reader.tensor(buf1, (s57,), is_leaf=True)  # arg1_1
    buf2 = reader.storage(None, 4*s86)
    reader.tensor(buf2, (s86,), is_leaf=True)  # arg2_1
    buf3 = reader.storage(None, 4*s67)
    reader.tensor(buf3, (s67,), is_leaf=True)  # arg3_1
    reader.symint(891, expr='(((s57 + s67 + s75 + s86)//160)) + 866')  # arg4_1
    reader.symint(1000, expr='s75')  # arg5_1
    reader.symint(4018, expr='s57 + s67 + s75 + s86')  # arg6_1
load_args._version = 0
mod = Repro()
if __name__ == '__main__':
    from torch._dynamo.repro.after_aot import run_repro
    with torch.no_grad():
        run_repro(mod, load_args, accuracy=False, command='run', save_dir=None, tracing_mode='symbolic', check_str=None)
        # To run it separately, do 
        # mod, args = run_repro(mod, load_args, accuracy=False, command='get_args', save_dir=None, tracing_mode='symbolic', check_str=None)
        # mod(*args)

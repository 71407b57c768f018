s44 = 31
s52 = 25
s57 = 13
s61 = 28
s67 = 19
s75 = 10
s80 = 22
s86 = 16


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



    def forward(self, arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1):
        add = arg8_1 + 1;  add = None
        iota = torch.ops.prims.iota.default(arg8_1, start = 0, step = 1, dtype = torch.int64, device = device(type='cpu'), requires_grad = False)
        mul = torch.ops.aten.mul.Tensor(iota, 1);  iota = None
        add_1 = torch.ops.aten.add.Tensor(mul, 0);  mul = None
        convert_element_type = torch.ops.prims.convert_element_type.default(add_1, torch.float32);  add_1 = None
        add_2 = arg9_1 + 1;  add_2 = None
        iota_1 = torch.ops.prims.iota.default(arg9_1, start = 0, step = 1, dtype = torch.int64, device = device(type='cpu'), requires_grad = False)
        mul_1 = torch.ops.aten.mul.Tensor(iota_1, 1);  iota_1 = None
        add_3 = torch.ops.aten.add.Tensor(mul_1, 0);  mul_1 = None
        convert_element_type_1 = torch.ops.prims.convert_element_type.default(add_3, torch.float32);  add_3 = None
        cat = torch.ops.aten.cat.default([arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1]);  arg0_1 = arg1_1 = arg2_1 = arg3_1 = arg4_1 = arg5_1 = arg6_1 = arg7_1 = None
        sum_1 = torch.ops.aten.sum.default(cat);  cat = None
        add_4 = torch.ops.aten.add.Tensor(convert_element_type_1, sum_1);  convert_element_type_1 = sum_1 = None
        unsqueeze = torch.ops.aten.unsqueeze.default(convert_element_type, 1);  convert_element_type = None
        unsqueeze_1 = torch.ops.aten.unsqueeze.default(add_4, 0);  add_4 = None
        mul_2 = torch.ops.aten.mul.Tensor(unsqueeze, unsqueeze_1);  unsqueeze = unsqueeze_1 = None
        permute = torch.ops.aten.permute.default(mul_2, [1, 0]);  mul_2 = None
        clone = torch.ops.aten.clone.default(permute, memory_format = torch.contiguous_format);  permute = None
        view = torch.ops.aten.view.default(clone, [-1]);  clone = None
        view_1 = torch.ops.aten.view.default(view, [arg8_1, arg9_1]);  view = arg8_1 = arg9_1 = None
        mul_4 = torch.ops.aten.mul.Tensor(view_1, 2.0);  view_1 = None
        return (mul_4,)

def load_args(reader):
    buf0 = reader.storage(None, 4*s75)
    reader.tensor(buf0, (s75,), is_leaf=True)  # arg0_1
    buf1 = reader.storage(None, 4*s57)
    reader.tensor(buf1, (s57,), is_leaf=True)  # arg1_1
    buf2 = reader.storage(None, 4*s86)
    reader.tensor(buf2, (s86,), is_leaf=True)  # arg2_1
    buf3 = reader.storage(None, 4*s67)
    reader.tensor(buf3, (s67,), is_leaf=True)  # arg3_1
    buf4 = reader.storage(None, 4*s80)
    reader.tensor(buf4, (s80,), is_leaf=True)  # arg4_1
    buf5 = reader.storage(None, 4*s52)
    reader.tensor(buf5, (s52,), is_leaf=True)  # arg5_1
    buf6 = reader.storage(None, 4*s61)
    reader.tensor(buf6, (s61,), is_leaf=True)  # arg6_1
    buf7 = reader.storage(None, 4*s44)
    reader.tensor(buf7, (s44,), is_leaf=True)  # arg7_1
    reader.symint(6148, expr='(s44 + s52 + s61 + s80)*(s57 + s67 + s75 + s86)')  # arg8_1
    reader.symint(164, expr='s44 + s52 + s57 + s61 + s67 + s75 + s80 + s86')  # arg9_1
load_args._version = 0
mod = Repro()
if __name__ == '__main__':
    from torch._dynamo.repro.after_aot import run_repro
    with torch.no_grad():
        run_repro(mod, load_args, accuracy=False, command='run', save_dir=None, tracing_mode='symbolic', check_str=None)
        # To run it separately, do 
        # mod, args = run_repro(mod, load_args, accuracy=False, command='get_args', save_dir=None, tracing_mode='symbolic', check_str=None)
        # mod(*args)

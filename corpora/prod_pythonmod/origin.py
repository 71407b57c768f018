s12 = 133
s14 = 127
s23 = 124
s26 = 115
s46 = 121
s49 = 103
s51 = 118
s75 = 112
s77 = 100
s80 = 130
s89 = 106
s90 = 109


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



    def forward(self, arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1):
        add = arg12_1 + 1;  add = None
        iota = torch.ops.prims.iota.default(arg12_1, start = 0, step = 1, dtype = torch.int64, device = device(type='cpu'), requires_grad = False);  arg12_1 = None
        mul = torch.ops.aten.mul.Tensor(iota, 1);  iota = None
        add_1 = torch.ops.aten.add.Tensor(mul, 0);  mul = None
        convert_element_type = torch.ops.prims.convert_element_type.default(add_1, torch.float32);  add_1 = None
        mul_1 = torch.ops.aten.mul.Tensor(convert_element_type, 2.0);  convert_element_type = None
        return (mul_1,)

def load_args(reader):
    reader.symint(100, expr='s77')  # arg0_1
    reader.symint(103, expr='s49')  # arg1_1
    reader.symint(106, expr='s89')  # arg2_1
    reader.symint(109, expr='s90')  # arg3_1
    reader.symint(112, expr='s75')  # arg4_1
    reader.symint(115, expr='s26')  # arg5_1
    reader.symint(118, expr='s51')  # arg6_1
    reader.symint(121, expr='s46')  # arg7_1
    reader.symint(124, expr='s23')  # arg8_1
    reader.symint(127, expr='s14')  # arg9_1
    reader.symint(130, expr='s80')  # arg10_1
    reader.symint(133, expr='s12')  # arg11_1
    reader.symint(5, expr='PythonMod(-1000*s51 + (s12 + s14 + s23 + s46 + s51 + s80)*(s26 + s49 + s75 + s77 + s89 + s90), 160)')  # arg12_1
load_args._version = 0
mod = Repro()
if __name__ == '__main__':
    from torch._dynamo.repro.after_aot import run_repro
    with torch.no_grad():
        run_repro(mod, load_args, accuracy=False, command='run', save_dir=None, tracing_mode='symbolic', check_str=None)
        # To run it separately, do 
        # mod, args = run_repro(mod, load_args, accuracy=False, command='get_args', save_dir=None, tracing_mode='symbolic', check_str=None)
        # mod(*args)

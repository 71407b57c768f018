s23 = 31
s26 = 14
s28 = 17
s40 = 38
s46 = 15
s49 = 12
s50 = 74
s51 = 29
s57 = 18
s75 = 56
s77 = 50
s80 = 16
s86 = 19
s89 = 13
s90 = 27
s94 = 36

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

    def forward(self, arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg10_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1):
        add = arg20_1 + 1
        iota = torch.ops.prims.iota.default(arg20_1, start=0, step=1, dtype=torch.int64, device=device(type='cpu'), requires_grad=False)
        mul = torch.ops.aten.mul.Tensor(iota, 1)
        add_1 = torch.ops.aten.add.Tensor(mul, 0)
        convert_element_type = torch.ops.prims.convert_element_type.default(add_1, torch.float32)
        mul_1 = torch.ops.aten.mul.Tensor(convert_element_type, 2.0)
        return (mul_1,)

def load_args(reader):
    reader.symint(50, expr='s77')  # arg0_1
    reader.symint(12, expr='s49')  # arg1_1
    reader.symint(13, expr='s89')  # arg2_1
    reader.symint(27, expr='s90')  # arg3_1
    reader.symint(56, expr='s75')  # arg4_1
    reader.symint(14, expr='s26')  # arg5_1
    reader.symint(29, expr='s51')  # arg6_1
    reader.symint(15, expr='s46')  # arg7_1
    reader.symint(31, expr='s23')  # arg8_1
    reader.symint(16, expr='s80')  # arg10_1
    reader.symint(17, expr='s28')  # arg14_1
    reader.symint(36, expr='s94')  # arg15_1
    reader.symint(74, expr='s50')  # arg16_1
    reader.symint(18, expr='s57')  # arg17_1
    reader.symint(38, expr='s40')  # arg18_1
    reader.symint(19, expr='s86')  # arg19_1
    reader.symint(224, expr='(((s28 + s40 + s50 + s57 + s80 + s86 + 408)*(s23 + s26 + s46 + s49 + s51 + s75 + s77 + s89 + s90 + 127))//(s23 + s26 + s28 + s40 + s46 + s49 + s50 + s51 + s57 + s75 + s77 + s80 + s89 + s90 + s94 + 535))')  # arg20_1
load_args._version = 0
mod = Repro()
if __name__ == '__main__':
    from torch._dynamo.repro.after_aot import run_repro
    with torch.no_grad():
        run_repro(mod, load_args, accuracy=False, command='run', save_dir=None, tracing_mode='symbolic', check_str=None)

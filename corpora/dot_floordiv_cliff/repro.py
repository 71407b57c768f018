s63 = 188
s69 = 109
s7 = 133
s70 = 194
s72 = 136
s74 = 206
s75 = 179
s76 = 148
s77 = 203
s85 = 100
s87 = 176
s94 = 191
s96 = 121
s97 = 139

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

    def forward(self, arg0_1, arg3_1, arg7_1, arg11_1, arg12_1, arg13_1, arg16_1, arg25_1, arg26_1, arg29_1, arg30_1, arg31_1, arg34_1, arg35_1, arg40_1):
        add = arg40_1 + 1
        iota = torch.ops.prims.iota.default(arg40_1, start=0, step=1, dtype=torch.int64, device=device(type='cpu'), requires_grad=False)
        mul = torch.ops.aten.mul.Tensor(iota, 1)
        add_1 = torch.ops.aten.add.Tensor(mul, 0)
        convert_element_type = torch.ops.prims.convert_element_type.default(add_1, torch.float32)
        mul_1 = torch.ops.aten.mul.Tensor(convert_element_type, 2.0)
        return (mul_1,)

def load_args(reader):
    reader.symint(100, expr='s85')  # arg0_1
    reader.symint(109, expr='s69')  # arg3_1
    reader.symint(121, expr='s96')  # arg7_1
    reader.symint(133, expr='s7')  # arg11_1
    reader.symint(136, expr='s72')  # arg12_1
    reader.symint(139, expr='s97')  # arg13_1
    reader.symint(148, expr='s76')  # arg16_1
    reader.symint(176, expr='s87')  # arg25_1
    reader.symint(179, expr='s75')  # arg26_1
    reader.symint(188, expr='s63')  # arg29_1
    reader.symint(191, expr='s94')  # arg30_1
    reader.symint(194, expr='s70')  # arg31_1
    reader.symint(203, expr='s77')  # arg34_1
    reader.symint(206, expr='s74')  # arg35_1
    reader.symint(96, expr='((127*s63 + 170*s69 + s7*s70 + 145*s74 + 118*s75 + 209*s76 + 142*s77 + s87 + s94 + s96 + 200*s97 + 26792)//(s69 + s7 + s72 + s76 + s85 + s96 + 1684))')  # arg40_1
load_args._version = 0
mod = Repro()
if __name__ == '__main__':
    from torch._dynamo.repro.after_aot import run_repro
    with torch.no_grad():
        run_repro(mod, load_args, accuracy=False, command='run', save_dir=None, tracing_mode='symbolic', check_str=None)

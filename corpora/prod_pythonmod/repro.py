s46 = 3
s49 = 12
s51 = 7
s77 = 25
s80 = 2
s89 = 6
s90 = 13

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

    def forward(self, arg0_1, arg1_1, arg2_1, arg3_1, arg6_1, arg7_1, arg10_1, arg12_1):
        iota = torch.ops.prims.iota.default(arg12_1, start=0, step=1, dtype=torch.int64, device=device(type='cpu'), requires_grad=False)
        add_1 = torch.ops.aten.add.Tensor(iota, 0)
        return (add_1,)

def load_args(reader):
    reader.symint(25, expr='s77')  # arg0_1
    reader.symint(12, expr='s49')  # arg1_1
    reader.symint(6, expr='s89')  # arg2_1
    reader.symint(13, expr='s90')  # arg3_1
    reader.symint(7, expr='s51')  # arg6_1
    reader.symint(3, expr='s46')  # arg7_1
    reader.symint(2, expr='s80')  # arg10_1
    reader.symint(148, expr='PythonMod((s46 + s51 + s80 + 384)*(s49 + s77 + s89 + s90 + 227) - 118000, 160)')  # arg12_1
load_args._version = 0
mod = Repro()
if __name__ == '__main__':
    from torch._dynamo.repro.after_aot import run_repro
    with torch.no_grad():
        run_repro(mod, load_args, accuracy=False, command='run', save_dir=None, tracing_mode='symbolic', check_str=None)

s26 = 15
s46 = 7
s47 = 2
s67 = 4
s74 = 33
s75 = 31
s77 = 62
s80 = 32
s83 = 8
s86 = 66
s89 = 3
s90 = 63
s94 = 16

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

    def forward(self, arg0_1, arg33_1):
        slice_1 = torch.ops.aten.slice.Tensor(arg0_1, 0, 0, arg33_1)
        return (slice_1,)

def load_args(reader):
    buf0 = reader.storage(None, 852)
    reader.tensor(buf0, (213,), is_leaf=True)  # arg0_1
    reader.symint(131, expr='PythonMod(-s26 - s46 - s47 + s67 - s74 + s75 + s77 + s80 + s83 - s86 + s89 - s90 - s94 + 1045, 213)')  # arg33_1
load_args._version = 0
mod = Repro()
if __name__ == '__main__':
    from torch._dynamo.repro.after_aot import run_repro
    with torch.no_grad():
        run_repro(mod, load_args, accuracy=False, command='run', save_dir=None, tracing_mode='symbolic', check_str=None)

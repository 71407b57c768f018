s57 = 13
s67 = 9
s75 = 5
s80 = 11
s86 = 8

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

    def forward(self, arg8_1, arg9_1):
        iota = torch.ops.prims.iota.default(arg8_1, start=0, step=1, dtype=torch.int64, device=device(type='cpu'), requires_grad=False)
        iota_1 = torch.ops.prims.iota.default(arg9_1, start=0, step=1, dtype=torch.int64, device=device(type='cpu'), requires_grad=False)
        unsqueeze = torch.ops.aten.unsqueeze.default(iota, 1)
        mul_2 = torch.ops.aten.mul.Tensor(unsqueeze, iota_1)
        permute = torch.ops.aten.permute.default(mul_2, [1, 0])
        clone = torch.ops.aten.clone.default(permute, memory_format=torch.contiguous_format)
        view_1 = torch.ops.aten.view.default(clone, [arg8_1, arg9_1])
        return (view_1,)

def load_args(reader):
    reader.symint(231, expr='s80*(s57 + s86)')  # arg8_1
    reader.symint(46, expr='s57 + s67 + s75 + s80 + s86')  # arg9_1
load_args._version = 0
mod = Repro()
if __name__ == '__main__':
    from torch._dynamo.repro.after_aot import run_repro
    with torch.no_grad():
        run_repro(mod, load_args, accuracy=False, command='run', save_dir=None, tracing_mode='symbolic', check_str=None)

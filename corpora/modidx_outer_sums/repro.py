s5 = 64
s61 = 63
s67 = 1009
s78 = 256
s80 = 1012
s86 = 1006
s98 = 128

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

    def forward(self, arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1):
        cat = torch.ops.aten.cat.default([arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1])
        cat_1 = torch.ops.aten.cat.default([arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1])
        unsqueeze = torch.ops.aten.unsqueeze.default(cat, 1)
        mul = torch.ops.aten.mul.Tensor(unsqueeze, cat_1)
        permute = torch.ops.aten.permute.default(mul, [1, 0])
        clone = torch.ops.aten.clone.default(permute, memory_format=torch.contiguous_format)
        view_1 = torch.ops.aten.view.default(clone, [arg12_1, arg13_1])
        return (view_1,)

def load_args(reader):
    buf0 = reader.storage(None, 4*s67)
    reader.tensor(buf0, (s67,), is_leaf=True)  # arg0_1
    buf1 = reader.storage(None, 4012)
    reader.tensor(buf1, (1003,), is_leaf=True)  # arg1_1
    buf2 = reader.storage(None, 4*s86)
    reader.tensor(buf2, (s86,), is_leaf=True)  # arg2_1
    buf3 = reader.storage(None, 4*s67)
    reader.tensor(buf3, (s67,), is_leaf=True)  # arg3_1
    buf4 = reader.storage(None, 4*s80)
    reader.tensor(buf4, (s80,), is_leaf=True)  # arg4_1
    buf5 = reader.storage(None, 4060)
    reader.tensor(buf5, (1015,), is_leaf=True)  # arg5_1
    buf6 = reader.storage(None, 4*s61)
    reader.tensor(buf6, (s61,), is_leaf=True)  # arg6_1
    buf7 = reader.storage(None, 4084)
    reader.tensor(buf7, (1021,), is_leaf=True)  # arg7_1
    buf8 = reader.storage(None, 4096)
    reader.tensor(buf8, (1024,), is_leaf=True)  # arg8_1
    buf9 = reader.storage(None, 4*s78)
    reader.tensor(buf9, (s78,), is_leaf=True)  # arg9_1
    buf10 = reader.storage(None, 4*s98)
    reader.tensor(buf10, (s98,), is_leaf=True)  # arg10_1
    buf11 = reader.storage(None, 4*s5)
    reader.tensor(buf11, (s5,), is_leaf=True)  # arg11_1
    reader.symint(6054, expr='6054')  # arg12_1
    reader.symint(2556, expr='s5 + s61 + s78 + s98 + 2045')  # arg13_1
load_args._version = 0
mod = Repro()
if __name__ == '__main__':
    from torch._dynamo.repro.after_aot import run_repro
    with torch.no_grad():
        run_repro(mod, load_args, accuracy=False, command='run', save_dir=None, tracing_mode='symbolic', check_str=None)

s48 = 512
s50 = 265
s57 = 501
s61 = 509
s67 = 504
s68 = 521
s73 = 519
s75 = 500
s77 = 531
s78 = 513
s8 = 262
s80 = 506
s81 = 264
s86 = 251
s87 = 518
s98 = 257

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

    def forward(self, arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1, arg25_1):
        cat = torch.ops.aten.cat.default([arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1])
        constant_pad_nd = torch.ops.aten.constant_pad_nd.default(cat, [0, arg25_1])
        sum_1 = torch.ops.aten.sum.dim_IntList(constant_pad_nd, [0])
        return (sum_1,)

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
    buf5 = reader.storage(None, 4060)
    reader.tensor(buf5, (1015,), is_leaf=True)  # arg5_1
    buf6 = reader.storage(None, 4*s61)
    reader.tensor(buf6, (s61,), is_leaf=True)  # arg6_1
    buf7 = reader.storage(None, 4084)
    reader.tensor(buf7, (1021,), is_leaf=True)  # arg7_1
    buf8 = reader.storage(None, 4*s48)
    reader.tensor(buf8, (s48,), is_leaf=True)  # arg8_1
    buf9 = reader.storage(None, 4*s78)
    reader.tensor(buf9, (s78,), is_leaf=True)  # arg9_1
    buf10 = reader.storage(None, 4*s98)
    reader.tensor(buf10, (s98,), is_leaf=True)  # arg10_1
    buf11 = reader.storage(None, 4*s48)
    reader.tensor(buf11, (s48,), is_leaf=True)  # arg11_1
    buf12 = reader.storage(None, 4*s87)
    reader.tensor(buf12, (s87,), is_leaf=True)  # arg12_1
    buf13 = reader.storage(None, 4*s73)
    reader.tensor(buf13, (s73,), is_leaf=True)  # arg13_1
    buf14 = reader.storage(None, 4*s68)
    reader.tensor(buf14, (s68,), is_leaf=True)  # arg14_1
    buf15 = reader.storage(None, 4180)
    reader.tensor(buf15, (1045,), is_leaf=True)  # arg15_1
    buf16 = reader.storage(None, 4192)
    reader.tensor(buf16, (1048,), is_leaf=True)  # arg16_1
    buf17 = reader.storage(None, 4*s8)
    reader.tensor(buf17, (s8,), is_leaf=True)  # arg17_1
    buf18 = reader.storage(None, 4216)
    reader.tensor(buf18, (1054,), is_leaf=True)  # arg18_1
    buf19 = reader.storage(None, 4*s81)
    reader.tensor(buf19, (s81,), is_leaf=True)  # arg19_1
    buf20 = reader.storage(None, 4*s50)
    reader.tensor(buf20, (s50,), is_leaf=True)  # arg20_1
    buf21 = reader.storage(None, 4*s77)
    reader.tensor(buf21, (s77,), is_leaf=True)  # arg21_1
    buf22 = reader.storage(None, 4264)
    reader.tensor(buf22, (1066,), is_leaf=True)  # arg22_1
    buf23 = reader.storage(None, 4276)
    reader.tensor(buf23, (1069,), is_leaf=True)  # arg23_1
    reader.symint(72, expr='PythonMod(-2*s48 - s50 - s57 - s61 - s67 + s68 - s73 - s75 - s77 - s8 - s80 - s81 - s86 - s87 - s98 - 7318, 160)')  # arg25_1
load_args._version = 0
mod = Repro()
if __name__ == '__main__':
    from torch._dynamo.repro.after_aot import run_repro
    with torch.no_grad():
        run_repro(mod, load_args, accuracy=False, command='run', save_dir=None, tracing_mode='symbolic', check_str=None)

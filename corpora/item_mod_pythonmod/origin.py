s11 = 1087
s12 = 1033
s13 = 1093
s14 = 1027
s16 = 1039
s21 = 1036
s23 = 1024
s26 = 1015
s28 = 1042
s29 = 1075
s38 = 1069
s40 = 1054
s41 = 1084
s46 = 1021
s47 = 1081
s49 = 1003
s50 = 1048
s51 = 1018
s57 = 1051
s58 = 1090
s65 = 1060
s66 = 1066
s67 = 1078
s74 = 1063
s75 = 1012
s77 = 1000
s80 = 1030
s83 = 1072
s86 = 1057
s89 = 1006
s90 = 1009
s94 = 1045


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



    def forward(self, arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1, arg24_1, arg25_1, arg26_1, arg27_1, arg28_1, arg29_1, arg30_1, arg31_1, arg32_1, arg33_1):
        slice_1 = torch.ops.aten.slice.Tensor(arg0_1, 0, 0, arg33_1);  arg0_1 = None
        add = arg33_1 + 1;  add = None
        iota = torch.ops.prims.iota.default(arg33_1, start = 0, step = 1, dtype = torch.int64, device = device(type='cpu'), requires_grad = False);  arg33_1 = None
        mul = torch.ops.aten.mul.Tensor(iota, 1);  iota = None
        add_1 = torch.ops.aten.add.Tensor(mul, 0);  mul = None
        convert_element_type = torch.ops.prims.convert_element_type.default(add_1, torch.float32);  add_1 = None
        mul_1 = torch.ops.aten.mul.Tensor(slice_1, convert_element_type);  slice_1 = convert_element_type = None
        sum_1 = torch.ops.aten.sum.default(mul_1);  mul_1 = None
        return (sum_1,)

def load_args(reader):
    buf0 = reader.storage(None, 852)
    reader.tensor(buf0, (213,), is_leaf=True)  # arg0_1
    reader.symint(1000, expr='s77')  # arg1_1
    reader.symint(1003, expr='s49')  # arg2_1
    reader.symint(1006, expr='s89')  # arg3_1
    reader.symint(1009, expr='s90')  # arg4_1
    reader.symint(1012, expr='s75')  # arg5_1
    reader.symint(1015, expr='s26')  # arg6_1
    reader.symint(1018, expr='s51')  # arg7_1
    reader.symint(1021, expr='s46')  # arg8_1
    reader.symint(1024, expr='s23')  # arg9_1
    reader.symint(1027, expr='s14')  # arg10_1
    reader.symint(1030, expr='s80')  # arg11_1
    reader.symint(1033, expr='s12')  # arg12_1
    reader.symint(1036, expr='s21')  # arg13_1
    reader.symint(1039, expr='s16')  # arg14_1
    reader.symint(1042, expr='s28')  # arg15_1
    reader.symint(1045, expr='s94')  # arg16_1
    reader.symint(1048, expr='s50')  # arg17_1
    reader.symint(1051, expr='s57')  # arg18_1
    reader.symint(1054, expr='s40')  # arg19_1
    reader.symint(1057, expr='s86')  # arg20_1
    reader.symint(1060, expr='s65')  # arg21_1
    reader.symint(1063, expr='s74')  # arg22_1
    reader.symint(1066, expr='s66')  # arg23_1
    reader.symint(1069, expr='s38')  # arg24_1
    reader.symint(1072, expr='s83')  # arg25_1
    reader.symint(1075, expr='s29')  # arg26_1
    reader.symint(1078, expr='s67')  # arg27_1
    reader.symint(1081, expr='s47')  # arg28_1
    reader.symint(1084, expr='s41')  # arg29_1
    reader.symint(1087, expr='s11')  # arg30_1
    reader.symint(1090, expr='s58')  # arg31_1
    reader.symint(1093, expr='s13')  # arg32_1
    reader.symint(165, expr='PythonMod(-s11 - s12 - s13 - s14 - s16 + s21 + s23 - s26 + s28 - s29 - s38 + s40 + s41 - s46 - s47 - s49 + s50 + s51 - s57 + s58 + s65 + s66 + s67 - s74 + s75 + s77 + s80 + s83 - s86 + s89 - s90 - s94, 213)')  # arg33_1
load_args._version = 0
mod = Repro()
if __name__ == '__main__':
    from torch._dynamo.repro.after_aot import run_repro
    with torch.no_grad():
        run_repro(mod, load_args, accuracy=False, command='run', save_dir=None, tracing_mode='symbolic', check_str=None)
        # To run it separately, do 
        # mod, args = run_repro(mod, load_args, accuracy=False, command='get_args', save_dir=None, tracing_mode='symbolic', check_str=None)
        # mod(*args)

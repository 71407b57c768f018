s0 = 1066
s24 = 1054
s27 = 1048
s36 = 1069
s38 = 1045
s44 = 1021
s48 = 1024
s5 = 1033
s50 = 1060
s52 = 1015
s57 = 1003
s61 = 1018
s67 = 1009
s68 = 1042
s73 = 1039
s75 = 1000
s77 = 1063
s78 = 1027
s8 = 1051
s80 = 1012
s81 = 1057
s86 = 1006
s87 = 1036
s98 = 1030


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



    def forward(self, arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1, arg24_1, arg25_1):
        cat = torch.ops.aten.cat.default([arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1]);  arg0_1 = arg1_1 = arg2_1 = arg3_1 = arg4_1 = arg5_1 = arg6_1 = arg7_1 = arg8_1 = arg9_1 = arg10_1 = arg11_1 = arg12_1 = arg13_1 = arg14_1 = arg15_1 = arg16_1 = arg17_1 = arg18_1 = arg19_1 = arg20_1 = arg21_1 = arg22_1 = arg23_1 = None
        add = arg24_1 + 1;  add = None
        iota = torch.ops.prims.iota.default(arg24_1, start = 0, step = 1, dtype = torch.int64, device = device(type='cpu'), requires_grad = False);  arg24_1 = None
        mul = torch.ops.aten.mul.Tensor(iota, 1);  iota = None
        add_1 = torch.ops.aten.add.Tensor(mul, 0);  mul = None
        convert_element_type = torch.ops.prims.convert_element_type.default(add_1, torch.float32);  add_1 = None
        mul_1 = torch.ops.aten.mul.Tensor(cat, convert_element_type);  cat = convert_element_type = None
        constant_pad_nd = torch.ops.aten.constant_pad_nd.default(mul_1, [0, arg25_1]);  mul_1 = arg25_1 = None
        view = torch.ops.aten.view.default(constant_pad_nd, [-1, 160]);  constant_pad_nd = None
        sym_size_int_24 = torch.ops.aten.sym_size.int(view, 0)
        sub_2 = sym_size_int_24 - 0;  sym_size_int_24 = None
        add_2 = sub_2 + 1;  sub_2 = None
        sub_3 = add_2 - 1;  add_2 = None
        floordiv_1 = sub_3 // 1;  sub_3 = None
        iota_1 = torch.ops.prims.iota.default(floordiv_1, start = 0, step = 1, dtype = torch.int64, device = device(type='cpu'), requires_grad = False);  floordiv_1 = None
        mul_2 = torch.ops.aten.mul.Tensor(iota_1, 1);  iota_1 = None
        add_3 = torch.ops.aten.add.Tensor(mul_2, 0);  mul_2 = None
        convert_element_type_1 = torch.ops.prims.convert_element_type.default(add_3, torch.float32);  add_3 = None
        unsqueeze = torch.ops.aten.unsqueeze.default(convert_element_type_1, 1);  convert_element_type_1 = None
        mul_3 = torch.ops.aten.mul.Tensor(view, unsqueeze);  view = unsqueeze = None
        sum_1 = torch.ops.aten.sum.dim_IntList(mul_3, [0]);  mul_3 = None
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
    buf5 = reader.storage(None, 4*s52)
    reader.tensor(buf5, (s52,), is_leaf=True)  # arg5_1
    buf6 = reader.storage(None, 4*s61)
    reader.tensor(buf6, (s61,), is_leaf=True)  # arg6_1
    buf7 = reader.storage(None, 4*s44)
    reader.tensor(buf7, (s44,), is_leaf=True)  # arg7_1
    buf8 = reader.storage(None, 4*s48)
    reader.tensor(buf8, (s48,), is_leaf=True)  # arg8_1
    buf9 = reader.storage(None, 4*s78)
    reader.tensor(buf9, (s78,), is_leaf=True)  # arg9_1
    buf10 = reader.storage(None, 4*s98)
    reader.tensor(buf10, (s98,), is_leaf=True)  # arg10_1
    buf11 = reader.storage(None, 4*s5)
    reader.tensor(buf11, (s5,), is_leaf=True)  # arg11_1
    buf12 = reader.storage(None, 4*s87)
    reader.tensor(buf12, (s87,), is_leaf=True)  # arg12_1
    buf13 = reader.storage(None, 4*s73)
    reader.tensor(buf13, (s73,), is_leaf=True)  # arg13_1
    buf14 = reader.storage(None, 4*s68)
    reader.tensor(buf14, (s68,), is_leaf=True)  # arg14_1
    buf15 = reader.storage(None, 4*s38)
    reader.tensor(buf15, (s38,), is_leaf=True)  # arg15_1
    buf16 = reader.storage(None, 4*s27)
    reader.tensor(buf16, (s27,), is_leaf=True)  # arg16_1
    buf17 = reader.storage(None, 4*s8)
    reader.tensor(buf17, (s8,), is_leaf=True)  # arg17_1
    buf18 = reader.storage(None, 4*s24)
    reader.tensor(buf18, (s24,), is_leaf=True)  # arg18_1
    buf19 = reader.storage(None, 4*s81)
    reader.tensor(buf19, (s81,), is_leaf=True)  # arg19_1
    buf20 = reader.storage(None, 4*s50)
    reader.tensor(buf20, (s50,), is_leaf=True)  # arg20_1
    buf21 = reader.storage(None, 4*s77)
    reader.tensor(buf21, (s77,), is_leaf=True)  # arg21_1
    buf22 = reader.storage(None, 4*s0)
    reader.tensor(buf22, (s0,), is_leaf=True)  # arg22_1
    buf23 = reader.storage(None, 4*s36)
    reader.tensor(buf23, (s36,), is_leaf=True)  # arg23_1
    reader.symint(24828, expr='s0 + s24 + s27 + s36 + s38 + s44 + s48 + s5 + s50 + s52 + s57 + s61 + s67 + s68 + s73 + s75 + s77 + s78 + s8 + s80 + s81 + s86 + s87 + s98')  # arg24_1
    reader.symint(132, expr='PythonMod(-s0 - s24 - s27 - s36 - s38 - s44 - s48 - s5 - s50 - s52 - s57 - s61 - s67 - s68 - s73 - s75 - s77 - s78 - s8 - s80 - s81 - s86 - s87 - s98, 160)')  # arg25_1
load_args._version = 0
mod = Repro()
if __name__ == '__main__':
    from torch._dynamo.repro.after_aot import run_repro
    with torch.no_grad():
        run_repro(mod, load_args, accuracy=False, command='run', save_dir=None, tracing_mode='symbolic', check_str=None)
        # To run it separately, do 
        # mod, args = run_repro(mod, load_args, accuracy=False, command='get_args', save_dir=None, tracing_mode='symbolic', check_str=None)
        # mod(*args)

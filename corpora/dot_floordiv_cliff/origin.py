s10 = 145
s12 = 173
s19 = 151
s20 = 164
s28 = 209
s29 = 182
s3 = 212
s32 = 142
s36 = 185
s41 = 154
s42 = 197
s43 = 200
s47 = 218
s48 = 118
s49 = 106
s5 = 170
s50 = 112
s51 = 215
s53 = 167
s54 = 127
s55 = 124
s56 = 157
s58 = 115
s6 = 161
s62 = 103
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
s99 = 130


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



    def forward(self, arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1, arg24_1, arg25_1, arg26_1, arg27_1, arg28_1, arg29_1, arg30_1, arg31_1, arg32_1, arg33_1, arg34_1, arg35_1, arg36_1, arg37_1, arg38_1, arg39_1, arg40_1):
        add = arg40_1 + 1;  add = None
        iota = torch.ops.prims.iota.default(arg40_1, start = 0, step = 1, dtype = torch.int64, device = device(type='cpu'), requires_grad = False);  arg40_1 = None
        mul = torch.ops.aten.mul.Tensor(iota, 1);  iota = None
        add_1 = torch.ops.aten.add.Tensor(mul, 0);  mul = None
        convert_element_type = torch.ops.prims.convert_element_type.default(add_1, torch.float32);  add_1 = None
        mul_1 = torch.ops.aten.mul.Tensor(convert_element_type, 2.0);  convert_element_type = None
        return (mul_1,)

def load_args(reader):
    reader.symint(100, expr='s85')  # arg0_1
    reader.symint(103, expr='s62')  # arg1_1
    reader.symint(106, expr='s49')  # arg2_1
    reader.symint(109, expr='s69')  # arg3_1
    reader.symint(112, expr='s50')  # arg4_1
    reader.symint(115, expr='s58')  # arg5_1
    reader.symint(118, expr='s48')  # arg6_1
    reader.symint(121, expr='s96')  # arg7_1
    reader.symint(124, expr='s55')  # arg8_1
    reader.symint(127, expr='s54')  # arg9_1
    reader.symint(130, expr='s99')  # arg10_1
    reader.symint(133, expr='s7')  # arg11_1
    reader.symint(136, expr='s72')  # arg12_1
    reader.symint(139, expr='s97')  # arg13_1
    reader.symint(142, expr='s32')  # arg14_1
    reader.symint(145, expr='s10')  # arg15_1
    reader.symint(148, expr='s76')  # arg16_1
    reader.symint(151, expr='s19')  # arg17_1
    reader.symint(154, expr='s41')  # arg18_1
    reader.symint(157, expr='s56')  # arg19_1
    reader.symint(161, expr='s6')  # arg20_1
    reader.symint(164, expr='s20')  # arg21_1
    reader.symint(167, expr='s53')  # arg22_1
    reader.symint(170, expr='s5')  # arg23_1
    reader.symint(173, expr='s12')  # arg24_1
    reader.symint(176, expr='s87')  # arg25_1
    reader.symint(179, expr='s75')  # arg26_1
    reader.symint(182, expr='s29')  # arg27_1
    reader.symint(185, expr='s36')  # arg28_1
    reader.symint(188, expr='s63')  # arg29_1
    reader.symint(191, expr='s94')  # arg30_1
    reader.symint(194, expr='s70')  # arg31_1
    reader.symint(197, expr='s42')  # arg32_1
    reader.symint(200, expr='s43')  # arg33_1
    reader.symint(203, expr='s77')  # arg34_1
    reader.symint(206, expr='s74')  # arg35_1
    reader.symint(209, expr='s28')  # arg36_1
    reader.symint(212, expr='s3')  # arg37_1
    reader.symint(215, expr='s51')  # arg38_1
    reader.symint(218, expr='s47')  # arg39_1
    reader.symint(191, expr='((s10*s74 + s12*s50 + s19*s3 + s20*s62 + s28*s76 + s29*s96 + s32*s77 + s36*s55 + s41*s51 + s42*s72 + s43*s97 + s47*s56 + s48*s75 + s49*s53 + s5*s69 + s54*s63 + s58*s87 + s6*s85 + s7*s70 + s94*s99)//(s10 + s19 + s32 + s41 + s48 + s49 + s50 + s54 + s55 + s56 + s58 + s62 + s69 + s7 + s72 + s76 + s85 + s96 + s97 + s99))')  # arg40_1
load_args._version = 0
mod = Repro()
if __name__ == '__main__':
    from torch._dynamo.repro.after_aot import run_repro
    with torch.no_grad():
        run_repro(mod, load_args, accuracy=False, command='run', save_dir=None, tracing_mode='symbolic', check_str=None)
        # To run it separately, do 
        # mod, args = run_repro(mod, load_args, accuracy=False, command='get_args', save_dir=None, tracing_mode='symbolic', check_str=None)
        # mod(*args)

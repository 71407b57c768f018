s21 = 1009
s53 = 503
s82 = 1015
s93 = 1003

import os
os.environ['TORCHINDUCTOR_CACHE_DIR'] = '/tmp/torchinductor_root'
os.environ.pop('TORCHDYNAMO_REPRO_AFTER', None)
os.environ.pop('TORCHDYNAMO_REPRO_LEVEL', None)

import torch
from torch import tensor, device
import torch.fx as fx
from torch._dynamo.testing import rand_strided
from math import inf
import torch._inductor.inductor_prims



import torch._dynamo.config
import torch._inductor.config
import torch._functorch.config
import torch.fx.experimental._config






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
# torch version: 2.13.0+cpu
# torch cuda version: None
# torch git version: cf30153c4c131c8164ee7798e5022d810682e2cb


# torch.cuda.is_available()==False, no GPU info collected
torch._higher_order_ops.triton_kernel_wrap.kernel_side_table.reset_table()

from torch.nn import *
class Repro(torch.nn.Module):

    def __init__(self) -> None:
        super().__init__()

    def forward(self, arg8_1, arg10_1):
        iota = torch.ops.prims.iota.default(arg10_1, start=0, step=1, dtype=torch.int64, device=device(type='cpu'), requires_grad=False)
        unsqueeze = torch.ops.aten.unsqueeze.default(iota, 1)
        iota_1 = torch.ops.prims.iota.default(arg8_1, start=0, step=1, dtype=torch.int64, device=device(type='cpu'), requires_grad=False)
        mul_2 = torch.ops.aten.mul.Tensor(unsqueeze, iota_1)
        view = torch.ops.aten.view.default(mul_2, [arg8_1, arg10_1])
        return (view,)

def load_args(reader):
    reader.symint(41, expr='((3*s21 + s53 + s82 + s93 + 1012)//160)')  # arg8_1
    reader.symint(6560, expr='3*s21 + s53 + s82 + s93 + 1012')  # arg10_1
load_args._version = 0
mod = Repro()
if __name__ == '__main__':
    from torch._dynamo.repro.after_aot import run_repro
    with torch.no_grad():
        run_repro(mod, load_args, accuracy=False, command='run', save_dir=None, tracing_mode='symbolic', check_str=None)

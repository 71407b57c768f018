s57 = 1003
s75 = 1000


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



    def forward(self, x, y, u, k):
        cat = torch.cat([x, y]);  x = y = None
        mul = cat * u;  cat = u = None
        arange = torch.arange(k, dtype = torch.float32);  k = None
        return (mul, arange)

def load_args(reader):
    buf0 = reader.storage(None, 4*s75)
    reader.tensor(buf0, (s75,), is_leaf=True)  # x
    buf1 = reader.storage(None, 4*s57)
    reader.tensor(buf1, (s57,), is_leaf=True)  # y
    reader.symint(None, expr='u0')  # u
    reader.symint(None, expr='s57 + s75 + u0')  # k
load_args._version = 0
mod = Repro()
if __name__ == '__main__':
    from torch._dynamo.repro.after_aot import run_repro
    with torch.no_grad():
        run_repro(mod, load_args, accuracy=False, command='run', save_dir=None, tracing_mode='symbolic', check_str=None)
        # To run it separately, do 
        # mod, args = run_repro(mod, load_args, accuracy=False, command='get_args', save_dir=None, tracing_mode='symbolic', check_str=None)
        # mod(*args)

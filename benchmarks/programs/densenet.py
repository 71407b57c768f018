"""torch.compile(dynamic=True) of a small DenseNet in training mode (convs, pools, dense cats).

Source: https://github.com/pytorch/pytorch/issues/118492 ("`torch.compile(dynamic=True)`
compiles forever", open). Its repro compiles torchvision's `densenet121()` (train mode,
CUDA) with `dynamic=True` on a (16, 3, 128, 128) input: "dynamic=True compiles forever,
dynamic=False compiles in ~90 seconds" on torch 2.1.2; a maintainer's run on a nightly
(January 2024) finished after 401.7 s in `_compile.compile_inner` (376 s of it in
`create_aot_dispatcher_function`, 224 s in `GraphLowering.compile_to_module`). The issue's
code (a few lines calling torchvision's densenet121, BSD-3-Clause) is not reproduced:
torchvision is not installed here and densenet121 would take far longer than a benchmark
should on 2 cores. This program is a DenseNet of the same form written from scratch.

What it does: `torch.compile(model, dynamic=True)` of a DenseNet kept in training mode, as
the issue's is (BatchNorm with batch statistics; AOTAutograd compiles the forward and the
backward graph, though only the forward is called): a 7x7/2 stem conv and a 3x3/2 max pool,
then N dense blocks of 2 layers (BN-ReLU-1x1 conv-BN-ReLU-3x3 conv, growth 8, each layer
fed the `torch.cat` of every earlier feature map), a transition (BN-ReLU-1x1 conv, 2x2 avg
pool) between blocks, and a linear head, on a (2, 3, 67, 59) input. With dynamic shapes the
batch, height and width are symbols, and every conv and pool nests a floor division of the
spatial sizes into the indexing of the BatchNorm and pooling kernels.
Static twin (`--static`): `dynamic=False`.
Knob: `--n` dense blocks (default 2; each block after the first adds a transition, one more
nesting level).
"""

from __future__ import annotations

from _harness import run


def build(n: int, static: bool):
    import torch
    import torch.nn.functional as F
    from torch import nn

    class DenseLayer(nn.Module):
        def __init__(self, cin: int, growth: int) -> None:
            super().__init__()
            self.bn1, self.bn2 = nn.BatchNorm2d(cin), nn.BatchNorm2d(4 * growth)
            self.conv1 = nn.Conv2d(cin, 4 * growth, 1, bias=False)
            self.conv2 = nn.Conv2d(4 * growth, growth, 3, padding=1, bias=False)

        def forward(self, features):
            x = self.conv1(F.relu(self.bn1(torch.cat(features, 1))))
            return self.conv2(F.relu(self.bn2(x)))

    class DenseNet(nn.Module):
        def __init__(self, blocks: int, layers: int = 2, growth: int = 8) -> None:
            super().__init__()
            channels = 16
            self.stem = nn.Conv2d(3, channels, 7, stride=2, padding=3, bias=False)
            self.blocks, self.transitions = nn.ModuleList(), nn.ModuleList()
            for b in range(blocks):
                block = nn.ModuleList(
                    DenseLayer(channels + i * growth, growth) for i in range(layers)
                )
                self.blocks.append(block)
                channels += layers * growth
                if b < blocks - 1:
                    self.transitions.append(
                        nn.Sequential(
                            nn.BatchNorm2d(channels),
                            nn.ReLU(),
                            nn.Conv2d(channels, channels // 2, 1, bias=False),
                            nn.AvgPool2d(2, stride=2),
                        )
                    )
                    channels //= 2
            self.norm, self.head = nn.BatchNorm2d(channels), nn.Linear(channels, 10)

        def forward(self, x):
            x = F.max_pool2d(self.stem(x), 3, stride=2, padding=1)
            for b, block in enumerate(self.blocks):
                features = [x]
                for layer in block:
                    features.append(layer(features))
                x = torch.cat(features, 1)
                if b < len(self.transitions):
                    x = self.transitions[b](x)
            x = F.adaptive_avg_pool2d(F.relu(self.norm(x)), 1).flatten(1)
            return self.head(x)

    torch.manual_seed(0)
    model = torch.compile(DenseNet(n), dynamic=not static)
    x = torch.randn(2, 3, 67, 59)
    return lambda: model(x)


if __name__ == "__main__":
    run(__doc__, build, default_n=2)

"""float32 convolutions at one and two intra-op threads against PyTorch 2.13's bits: the
forward, input, weight and bias gradients of the layers real CNNs use, where oneDNN's drivers
split work among threads (vecmath/conv_split.py): the avx512 backward-weights kernel cutting
the minibatch or its output rows (MNIST, CIFAR, ResNet), jit:avx2's for 4 to 15 input channels,
the 1x1 kernels' reduce blocks and their backward weights, the depthwise kernel, a grouped 1x1
convolution (oneDNN's direct kernel, not its 1x1 one); and a CNN
program run in fresh processes with no thread setting on either side."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch

F32 = np.float32

# (input, weight, padding, stride, groups)
LAYERS = {
    "mnist conv1": ((64, 1, 28, 28), (32, 1, 3, 3), 0, 1, 1),
    "mnist conv2": ((16, 32, 26, 26), (64, 32, 3, 3), 0, 1, 1),
    "cifar conv1": ((16, 3, 32, 32), (6, 3, 5, 5), 0, 1, 1),
    "cifar conv2": ((16, 6, 14, 14), (16, 6, 5, 5), 0, 1, 1),
    "small images": ((2, 3, 8, 8), (4, 3, 3, 3), 1, 1, 1),
    "avx2 weights": ((32, 8, 13, 26), (6, 8, 3, 3), 1, 1, 1),
    "inception 4->8": ((4, 4, 8, 8), (8, 4, 3, 3), 1, 1, 1),
    "resnet 3x3": ((8, 64, 16, 16), (64, 64, 3, 3), 1, 1, 1),
    "resnet 3x3 stride 2": ((8, 64, 16, 16), (128, 64, 3, 3), 1, 2, 1),
    "resnet 1x1": ((8, 64, 16, 16), (256, 64, 1, 1), 0, 1, 1),
    "resnet 1x1 stride 2": ((4, 16, 16, 16), (32, 16, 1, 1), 0, 2, 1),
    "1x1 tall input": ((32, 32, 17, 5), (128, 32, 1, 1), 0, 1, 1),
    "1x1 few channels": ((16, 4, 28, 18), (8, 4, 1, 1), 0, 1, 1),
    "1x1 large image": ((2, 512, 32, 32), (32, 512, 1, 1), 0, 1, 1),
    "depthwise": ((8, 32, 16, 16), (32, 1, 3, 3), 1, 1, 32),
    "depthwise few channels": ((64, 6, 15, 13), (6, 1, 3, 3), 0, 1, 6),
    "depthwise wide": ((2, 16, 9, 40), (16, 1, 3, 3), 1, 1, 16),
    "grouped": ((8, 32, 16, 16), (32, 8, 3, 3), 1, 1, 4),
    "grouped 1x1": ((16, 64, 8, 8), (128, 16, 1, 1), 0, 1, 4),
}


def _run(module: Any, arrays: list[np.ndarray], dy: np.ndarray, padding: int, stride: int,
         groups: int) -> list[np.ndarray]:
    x, w, b = (module.from_numpy(a.copy()).requires_grad_() for a in arrays)
    y = module.nn.functional.conv2d(x, w, b, stride=stride, padding=padding, groups=groups)
    y.backward(module.from_numpy(dy))
    return [y.detach().numpy(), x.grad.numpy(), w.grad.numpy(), b.grad.numpy()]


@pytest.mark.parametrize("layer", list(LAYERS))
def test_conv2d_and_its_gradients_are_torchs(torch: Any, thread_count: int, layer: str) -> None:
    x_shape, w_shape, padding, stride, groups = LAYERS[layer]
    rng = np.random.default_rng(len(layer))
    arrays = [rng.standard_normal(s).astype(F32) for s in (x_shape, w_shape, w_shape[:1])]
    out = torch.nn.functional.conv2d(torch.from_numpy(arrays[0]), torch.from_numpy(arrays[1]),
                                     stride=stride, padding=padding, groups=groups)
    dy = rng.standard_normal(tuple(out.shape)).astype(F32)
    theirs = _run(torch, arrays, dy, padding, stride, groups)
    ours = _run(gtorch, arrays, dy, padding, stride, groups)
    for name, a, b in zip(("output", "input grad", "weight grad", "bias grad"), theirs, ours,
                          strict=True):
        assert a.shape == b.shape
        differing = int((a.view(np.uint32) != b.view(np.uint32)).sum())
        assert differing == 0, f"{name}: {differing} of {a.size} differ"


PROGRAM = """
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
net = nn.Sequential(nn.Conv2d(1, 32, 3), nn.ReLU(), nn.Conv2d(32, 64, 3), nn.ReLU(),
                    nn.MaxPool2d(2), nn.Flatten(), nn.Linear(64 * 12 * 12, 10))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
x, t = torch.randn(32, 1, 28, 28), torch.randint(0, 10, (32,))
for step in range(2):
    opt.zero_grad()
    loss = F.cross_entropy(net(x), t)
    loss.backward()
    print(step, repr(loss.item()), repr(net[0].weight.grad.sum().item()),
          repr(net[2].weight.grad.abs().sum().item()), repr(net[0].bias.grad[:3].tolist()))
    opt.step()
"""


def test_a_cnn_program_prints_what_torch_prints_at_the_default_threads(torch: Any,
                                                                       tmp_path: Path) -> None:
    """No thread setting on either side: gradsh starts at PyTorch's count (the cores here)."""
    program = tmp_path / "cnn.py"
    program.write_text(PROGRAM)
    env = {k: v for k, v in os.environ.items()
           if k not in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "GRADSH_NUM_THREADS")}
    theirs = subprocess.run([sys.executable, str(program)], capture_output=True, text=True,
                            env=env, check=True).stdout
    ours = subprocess.run([sys.executable, "-m", "gradsh", "run", "--quiet", str(program)],
                          capture_output=True, text=True, env=env, check=True).stdout
    assert ours == theirs

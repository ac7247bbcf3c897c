"""F.fractional_max_pool2d/3d and nn.FractionalMaxPool2d/3d against PyTorch after the same
seed: the random samples as PyTorch draws them, the windows ATen's generate_intervals makes of
them, the values, indices and gradients bit for bit (float32 and float64, batched and not,
output_size and output_ratio), given _random_samples, reprs and errors."""

from __future__ import annotations

import numpy as np
import pytest
from call_outcomes import outcomes

import gradsh.torch as gt

CASES = [
    ((2, 3, 7, 9), 2, {"output_size": (4, 5)}, 2),
    ((3, 8, 8), (3, 2), {"output_ratio": (0.5, 0.5)}, 2),
    ((1, 2, 10, 11), 3, {"output_ratio": (0.7, 0.4)}, 2),
    ((1, 1, 30, 31), 4, {"output_size": (9, 7)}, 2),
    ((2, 2, 5, 6, 7), 2, {"output_ratio": 0.5}, 3),
    ((2, 5, 6, 7), (2, 3, 2), {"output_size": (3, 2, 4)}, 3),
]


def _run(m, dtype, shape, kernel, options, dims):
    m.manual_seed(0)
    x = m.randn(*shape, dtype=getattr(m, dtype), requires_grad=True)
    pool = m.nn.functional.fractional_max_pool2d if dims == 2 else \
        m.nn.functional.fractional_max_pool3d
    out, indices = pool(x, kernel, return_indices=True, **options)
    (out * out).sum().backward()
    layer = (m.nn.FractionalMaxPool2d if dims == 2 else m.nn.FractionalMaxPool3d)(kernel,
                                                                                 **options)
    again = layer(x.detach())
    return ([out.detach().numpy(), indices.numpy(), x.grad.numpy(), again.numpy()],
            [type(out.grad_fn).__name__, repr(layer)])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(("shape", "kernel", "options", "dims"), CASES)
def test_matches_pytorch_after_a_seed(torch, dtype, shape, kernel, options, dims):
    their_values, their_rest = _run(torch, dtype, shape, kernel, options, dims)
    our_values, our_rest = _run(gt, dtype, shape, kernel, options, dims)
    assert our_rest == their_rest
    for i, (ours, theirs) in enumerate(zip(our_values, their_values, strict=True)):
        assert ours.dtype == theirs.dtype and np.array_equal(ours, theirs), i


def _errors(torch):
    F = torch.nn.functional
    x = torch.ones(1, 2, 5, 5)
    samples = torch.full((1, 2, 2), 0.3)
    return outcomes([
        lambda: F.fractional_max_pool2d(x, 2, output_size=(3, 3), _random_samples=samples),
        lambda: F.fractional_max_pool2d(x, 2),
        lambda: F.fractional_max_pool2d(x, 2, output_ratio=0.5),
        lambda: F.fractional_max_pool2d(x, 2, output_ratio=(0.5, 0.5, 0.5)),
        lambda: F.fractional_max_pool2d(x, 3, output_size=(4, 4)),
        lambda: F.fractional_max_pool2d(x, (2, 3), output_size=(3, 4)),
        lambda: F.fractional_max_pool2d(x[0, 0, 0], 2, output_size=(3, 3)),
        lambda: F.fractional_max_pool2d(x[:, :, :0], 2, output_size=(3, 3)),
        lambda: F.fractional_max_pool3d(x, 2),
        lambda: F.fractional_max_pool3d(x[None], 2, output_size=(1, 3, 3)),
        lambda: F.fractional_max_pool3d(torch.ones(1, 1, 5, 4, 5), 2, output_size=(3, 3, 3)),
        lambda: F.fractional_max_pool3d(torch.ones(1, 1, 5, 4, 4), 2, output_size=(3, 3, 3)),
        lambda: F.fractional_max_pool3d(torch.ones(1, 1, 5, 5, 5), 2, output_size=(3, 3, 3)).shape,
        lambda: torch.nn.FractionalMaxPool2d(3, output_ratio=0.5),
        lambda: torch.nn.FractionalMaxPool2d(0, output_ratio=0.5),
        lambda: torch.nn.FractionalMaxPool3d(0, output_ratio=0.5),
        lambda: torch.nn.FractionalMaxPool2d(2),
        lambda: torch.nn.FractionalMaxPool2d(2, output_size=2, output_ratio=0.5),
        lambda: torch.nn.FractionalMaxPool3d(2, output_ratio=1.5),
        lambda: torch.nn.FractionalMaxPool2d(2, output_size=3, _random_samples=samples)(x),
    ])


def test_errors_match(torch):
    for i, (theirs, ours) in enumerate(zip(_errors(torch), _errors(gt), strict=True)):
        assert ours == theirs, i

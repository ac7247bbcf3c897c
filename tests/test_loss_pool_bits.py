"""Float bits found by the Q&A corpus session against PyTorch 2.13: smooth_l1_loss's and
huber_loss's float32 backward (PointwiseOpsKernel.cpp's vector path in blocks of 16 floats,
its scalar tail comparing with and scaling by the double beta / delta; the mean's 1/N rounded
to float first), reductions and widths whose rounding shows it, one and two threads (a range
split across threads has two tails); avg_pool2d's float64 window sums (element by element,
row by row, as the float32 ones); torch.dist as at::norm(self - other, p) (linalg_vector_norm's
kernels on the difference, not a float64 sum)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch


def _loss_grads(lib: Any, name: str, x: np.ndarray, y: np.ndarray, gout: np.ndarray,
                **kwargs: Any) -> list[np.ndarray]:
    a, b = lib.tensor(x, requires_grad=True), lib.tensor(y, requires_grad=True)
    out = getattr(lib.nn.functional, name)(a, b, **kwargs)
    out.backward(lib.tensor(gout))
    return [out.detach().numpy(), a.grad.numpy(), b.grad.numpy()]


@pytest.mark.parametrize("name, width", [("smooth_l1_loss", "beta"), ("huber_loss", "delta")])
def test_piecewise_loss_float32_backward_bits(torch: Any, thread_count: int, name: str,
                                              width: str) -> None:
    rng = np.random.default_rng(3)
    for shape in [(5,), (37, 53), (2, 3, 5), (40003,)]:
        x = rng.standard_normal(shape).astype(np.float32)
        y = rng.standard_normal(shape).astype(np.float32)
        for value in (1.0, 0.3, 1.7):
            for reduction in ("mean", "sum", "none"):
                gout = (rng.standard_normal(shape) if reduction == "none"
                        else np.array(0.37)).astype(np.float32)
                kwargs = {width: value, "reduction": reduction}
                theirs = _loss_grads(torch, name, x, y, gout, **kwargs)
                ours = _loss_grads(gtorch, name, x, y, gout, **kwargs)
                for what, a, b in zip(("loss", "input grad", "target grad"), ours, theirs):
                    assert (a == b).all(), (shape, value, reduction, what)


@pytest.mark.parametrize("kwargs", [{"kernel_size": 3, "stride": 2, "padding": 1},
                                    {"kernel_size": 2, "stride": 2, "padding": 1},
                                    {"kernel_size": 3, "stride": 1, "padding": 1,
                                     "count_include_pad": False}])
def test_avg_pool2d_float64_bits(torch: Any, kwargs: dict[str, Any]) -> None:
    x = np.random.default_rng(0).standard_normal((2, 3, 17, 19))
    theirs = torch.nn.functional.avg_pool2d(torch.tensor(x), **kwargs).numpy()
    ours = gtorch.nn.functional.avg_pool2d(gtorch.tensor(x), **kwargs).numpy()
    assert (ours == theirs).all(), int((ours != theirs).sum())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_dist_bits(torch: Any, dtype: str) -> None:
    rng = np.random.default_rng(4)
    x, y = (rng.standard_normal((4, 7)).astype(dtype) for _ in range(2))
    for p in (1.5, 3.0, 2.0, 1.0, 0.5, 4.5):
        seen = []
        for lib in (torch, gtorch):
            a, b = lib.tensor(x, requires_grad=True), lib.tensor(y, requires_grad=True)
            out = lib.dist(a, b, p)
            out.backward()
            seen.append([out.detach().numpy(), a.grad.numpy(), b.grad.numpy()])
        for ours, theirs in zip(seen[1], seen[0]):
            assert (ours == theirs).all(), p

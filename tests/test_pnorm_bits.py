"""p-norms other than 0, 2 and +-inf (torch.norm(x, p), linalg.vector_norm) against PyTorch
2.13's bits (gradsh/engine/vecmath/norms.py's norm_p): binary_kernel_reduce's serial
accumulation in the dtype (float32 included: L1 regularisation's torch.norm(w, 1)), pow from
the C library, a single output of 32,768 elements or more split among the threads as
parallel_for splits it; and the L1 norm's gradient."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("p", [1, 3, 0.5, 1.5, -1])
def test_p_norm_bits(torch: Any, thread_count: int, dtype: str, p: float) -> None:
    import gradsh.torch as gtorch

    rng = np.random.default_rng(int(p * 10) + 50)
    for shape, dims in (((300, 70), (None, 1, 0)), ((70000,), (None,)),
                        ((5, 7, 9), (None, 1, 0, (0, 1))), ((200, 300), (None, 1))):
        for dim in dims:
            x = rng.standard_normal(shape).astype(dtype)
            theirs = torch.norm(torch.from_numpy(x), p=p, dim=dim).numpy()
            ours = gtorch.norm(gtorch.from_numpy(x), p=p, dim=dim).numpy()
            assert (ours == theirs).all(), (shape, dim)
            theirs = torch.linalg.vector_norm(torch.from_numpy(x), ord=p, dim=dim).numpy()
            ours = gtorch.linalg.vector_norm(gtorch.from_numpy(x), ord=p, dim=dim).numpy()
            assert (ours == theirs).all(), (shape, dim)


def test_l1_regularisation_gradient(torch: Any, thread_count: int) -> None:
    import gradsh.torch as gtorch

    x = np.random.default_rng(1).standard_normal((64, 33)).astype(np.float32)
    results = []
    for lib in (torch, gtorch):
        w = lib.from_numpy(x.copy()).requires_grad_()
        loss = lib.norm(w, 1) * 0.01 + lib.norm(w, p=1, dim=1).sum()
        loss.backward()
        results.append((loss.detach().numpy(), w.grad.numpy()))
    for theirs, ours in zip(*results):
        assert (ours == theirs).all()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("p", [0.5, 0.3, 1.5, 2.5, 3, 4, -1, -0.5])
def test_p_norm_gradient_bits(torch: Any, thread_count: int, dtype: str, p: float) -> None:
    """norm_backward's formula for p other than 0, 1, 2 and inf, its x.abs().pow(p - 1) and
    norm.pow(...) through ATen's pow kernel (NumPy's power differs in the last bit), a zero
    element included; and over dimensions of size 1, where linalg_vector_norm is abs(x)."""
    import gradsh.torch as gtorch

    for shape, dims in (((6, 50), (None, 1, 0)), ((3, 4, 5), (None, 1, (0, 2))),
                        ((1, 7), (0, None)), ((4, 1, 3), (1,))):
        for dim in dims:
            x = np.random.default_rng(len(shape)).standard_normal(shape).astype(dtype)
            x.flat[3] = 0
            results = []
            for lib in (torch, gtorch):
                leaf = lib.from_numpy(x.copy()).requires_grad_()
                norm = lib.norm(leaf, p=p, dim=dim)
                weights = np.random.default_rng(2).standard_normal(tuple(norm.shape))
                norm.backward(lib.from_numpy(weights.astype(dtype)))
                results.append((norm.detach().numpy(), leaf.grad.numpy()))
            for theirs, ours in zip(*results, strict=True):
                np.testing.assert_array_equal(ours, theirs, err_msg=f"{shape} {dim}")


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("p", [2, 1, 3])
def test_norm_of_expanded_input_bits(torch: Any, one_thread: None, dtype: str, p: float) -> None:
    """A norm over an input broadcast along kept dimensions (x[:, None, :].expand(...), as
    F.cosine_similarity(f[:, None], f[None], dim=-1) reduces it) gives each output the norm
    of its un-broadcast row, as PyTorch does; and cosine_similarity's values and gradient."""
    import gradsh.torch as gtorch

    f = np.random.default_rng(7).standard_normal((20, 8)).astype(dtype) * 3
    h = np.random.default_rng(8).standard_normal((4, 1, 13)).astype(dtype)
    for lib_index, lib in enumerate((torch, gtorch)):
        a, b = lib.from_numpy(f.copy()), lib.from_numpy(h.copy())
        cases = [(a[:, None, :].expand(20, 20, 8), -1), (a[None].expand(3, 20, 8), (1, 2)),
                 (a[:, None, :].expand(20, 5, 8), (0, 2)), (b.expand(4, 6, 13), -1)]
        values = [lib.linalg.vector_norm(x, p, dim=dim).numpy() for x, dim in cases]
        x = lib.from_numpy(f.copy()).requires_grad_()
        y = lib.nn.functional.cosine_similarity(x[:, None, :], x[None, :, :], dim=-1)
        (y * lib.arange(400.0, dtype=y.dtype).reshape(20, 20)).sum().backward()
        values += [y.detach().numpy(), x.grad.numpy()]
        if lib_index == 0:
            theirs = values
    for mine, expected in zip(values, theirs, strict=True):
        assert (mine == expected).all()

"""torch.linalg.ldl_factor / ldl_factor_ex / ldl_solve against PyTorch: MKL's sytrf and sytrs
as ATen calls them (factors, pivots, solutions bit for bit, strides; batched and broadcast),
the NotImplemented node that refuses backward, and the errors."""

from __future__ import annotations

import numpy as np
import pytest
from call_outcomes import outcomes

import gradsh.torch as gt
from gradsh.engine.vecmath import lapack

pytestmark = pytest.mark.skipif(not lapack.available(np.dtype(np.float32)),
                                reason="gradsh's ldl_factor needs MKL's sytrf")


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_factors_and_solutions_bit_for_bit(torch, dtype):
    rng = np.random.default_rng(2)
    a = rng.standard_normal((3, 6, 6)).astype(dtype)
    a = a + np.swapaxes(a, -1, -2)
    b = rng.standard_normal((3, 6, 2)).astype(dtype)
    results = []
    for m in (torch, gt):
        ld, pivots, info = m.linalg.ldl_factor_ex(m.tensor(a))
        x = m.linalg.ldl_solve(ld, pivots, m.tensor(b))
        x0 = m.linalg.ldl_solve(ld, pivots, m.tensor(b[0]))
        results.append([(t.numpy(), t.stride()) for t in (ld, pivots, info, x, x0)])
    for (ours, our_stride), (theirs, their_stride) in zip(results[1], results[0], strict=True):
        assert our_stride == their_stride
        assert ours.dtype == theirs.dtype and np.array_equal(ours, theirs)


def _cases(torch):
    torch.manual_seed(0)
    a = torch.randn(4, 4)
    a = a + a.T
    factors = torch.linalg.ldl_factor(a)
    b = torch.randn(4, 2)
    leaf = a.clone().requires_grad_()
    return outcomes([
        lambda: factors,
        lambda: type(torch.linalg.ldl_factor(leaf)[0].grad_fn).__name__,
        lambda: torch.linalg.ldl_factor(leaf)[0].sum().backward(),
        lambda: torch.linalg.ldl_factor(torch.randn(3, 4)),
        lambda: torch.linalg.ldl_factor(torch.randn(3)),
        lambda: torch.linalg.ldl_factor(torch.zeros(3, 3)),
        lambda: torch.linalg.ldl_factor_ex(torch.zeros(3, 3)).info,
        lambda: torch.linalg.ldl_factor(a, hermitian=True).LD,
        lambda: torch.linalg.ldl_factor(a.int()),
        lambda: torch.linalg.ldl_solve(factors.LD, factors.pivots, b, hermitian=True),
        lambda: torch.linalg.ldl_solve(factors.LD, factors.pivots, torch.randn(3, 2)),
        lambda: torch.linalg.ldl_solve(factors.LD, factors.pivots, b.double()),
    ])


def test_results_and_errors_match(torch):
    for i, (theirs, ours) in enumerate(zip(_cases(torch), _cases(gt), strict=True)):
        assert ours == theirs, i

"""nn.MaxUnpool3d, AdaptiveMaxPool3d, LPPool3d and SyncBatchNorm (with convert_sync_batchnorm)
against PyTorch: values, indices and gradients (bit for bit: placements, maxima and their
gradients' sums; LPPool3d's power sums through avg_pool3d), grad_fn names, reprs, the
argument errors; SyncBatchNorm trains as BatchNorm without a process group, as PyTorch's."""

from __future__ import annotations

import numpy as np
import pytest
from call_outcomes import outcomes

import gradsh.torch as gt


def _pool(m, x, g):
    F = m.nn.functional
    t = m.tensor(x, requires_grad=True)
    pooled, indices = F.max_pool3d(t, 2, return_indices=True)
    unpooled = F.max_unpool3d(pooled, indices, 2, output_size=list(x.shape[-3:]))
    adaptive, where = F.adaptive_max_pool3d(t, (2, None, 3), return_indices=True)
    lp = F.lp_pool3d(t.abs() + 0.1, 2.0, (2, 1, 2), stride=(1, 2, 1))
    inf = F.lp_pool3d(t, float("inf"), 2)
    total = ((unpooled * m.tensor(g)).sum() + adaptive.pow(2).sum() + lp.sum()
             + inf.sum())
    total.backward()
    names = [type(v.grad_fn).__name__ for v in (unpooled, adaptive, lp, inf)]
    return [unpooled, adaptive, where, lp, inf, t.grad], names


@pytest.mark.parametrize("shape", [(2, 3, 4, 5, 6), (3, 4, 4, 4)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_values_indices_and_gradients(torch, shape, dtype):
    rng = np.random.default_rng(len(shape))
    x = rng.standard_normal(shape).astype(dtype)
    g = rng.standard_normal(shape).astype(dtype)
    theirs, their_names = _pool(torch, x, g)
    ours, our_names = _pool(gt, x, g)
    assert our_names == their_names
    for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
        a, b = a.detach().numpy(), b.detach().numpy()
        assert a.dtype == b.dtype and a.shape == b.shape, i
        if i == 3 or i == 5:  # (pow and its gradient: within rounding)
            np.testing.assert_allclose(a, b, rtol=1e-5 if dtype == np.float32 else 1e-12)
        else:
            assert np.array_equal(a, b), i


def _errors(torch):
    F = torch.nn.functional
    x = torch.ones(1, 2, 4, 4, 4)
    o, i = F.max_pool3d(x, 2, return_indices=True)
    return outcomes([
        lambda: F.max_unpool3d(o, i.int(), 2),
        lambda: F.max_unpool3d(o[0], i[0], 2).shape,
        lambda: F.max_unpool3d(o[0, 0], i[0, 0], 2),
        lambda: F.max_unpool3d(o, i[:, :1], 2),
        lambda: F.max_unpool3d(o, i + 100, 2),
        lambda: F.max_unpool3d(o, i, 2, output_size=[5, 5, 5]).shape,
        lambda: F.max_unpool3d(o, i, 2, output_size=[9, 9, 9]),
        lambda: F.max_unpool3d(o, i, 2, output_size=[5, 5]),
        lambda: F.max_unpool3d(o, i, 2, stride=0),
        lambda: F.adaptive_max_pool3d(x[0, 0, 0], 2),
        lambda: F.adaptive_max_pool3d(x[:, :, :0], 2),
        lambda: F.adaptive_max_pool3d(x, (2, 2)),
        lambda: torch.nn.MaxUnpool3d(2, stride=2, padding=0),
        lambda: torch.nn.AdaptiveMaxPool3d((2, None, 3)),
        lambda: torch.nn.AdaptiveMaxPool3d(2, return_indices=True),
        lambda: torch.nn.LPPool3d(2, 3),
        lambda: torch.nn.LPPool3d(1.5, (2, 2, 1), stride=1, ceil_mode=True),
        lambda: torch.nn.SyncBatchNorm(3, eps=1e-3, momentum=None, affine=False,
                                       track_running_stats=False, process_group=None),
        lambda: torch.nn.SyncBatchNorm(4)(torch.ones(4)),
        lambda: torch.nn.SyncBatchNorm(4)(torch.ones(1, 4)),
        lambda: torch.nn.SyncBatchNorm(0)(torch.ones(2, 0)),
    ])


def test_errors_and_reprs_match(torch):
    for i, (theirs, ours) in enumerate(zip(_errors(torch), _errors(gt), strict=True)):
        assert ours == theirs, i


def _sync(m):
    m.manual_seed(0)
    net = m.nn.Sequential(m.nn.Conv2d(3, 4, 3), m.nn.BatchNorm2d(4),
                          m.nn.Sequential(m.nn.Flatten(), m.nn.BatchNorm1d(16, affine=False,
                                                                           momentum=None)))
    net[1].running_mean.fill_(0.5)
    converted = m.nn.SyncBatchNorm.convert_sync_batchnorm(net)
    shared = (converted[1].weight is net[1].weight,
              converted[1].running_mean is net[1].running_mean)
    x = m.randn(5, 3, 4, 4)
    outs = []
    for training in (True, True, False):
        converted.train(training)
        y = converted(x)
        outs.append(y.detach().numpy().copy())
        if training:
            y.pow(2).sum().backward()
    outs += [converted[1].running_mean.numpy(), converted[1].running_var.numpy(),
             converted[2][1].running_var.numpy(), net[0].weight.grad.numpy()]
    return repr(converted), shared, int(converted[1].num_batches_tracked), outs


def test_sync_batchnorm_converts_and_trains_as_batchnorm(torch):
    their_repr, their_shared, their_count, theirs = _sync(torch)
    our_repr, our_shared, our_count, ours = _sync(gt)
    assert (our_repr, our_shared, our_count) == (their_repr, their_shared, their_count)
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)

"""The engine's fast paths change nothing anyone can see (benchmarks/ measures their speed)."""

from __future__ import annotations

import numpy as np

from gradsh.engine import ops
from gradsh.engine.tensor import undo_log


def test_the_undo_log_keeps_freed_tensors_of_older_nodes_only() -> None:
    x = ops.rand(3, requires_grad=True)
    old = x.exp().sum()  # ExpBackward0 saves its result
    with undo_log() as log:
        new = x.exp().sum()
        new.backward()
        assert log._freed == []  # the step's own graph: nothing to restore, freed at once
        old.backward()
        assert len(log._freed) == 1  # a graph from before the step: restorable
        log.rollback()
    old.backward()  # the rollback gave the freed result back


def test_accumulating_into_grad_is_in_place_and_bumps_its_version() -> None:
    x = ops.rand(4, requires_grad=True)
    (x * 2).sum().backward()
    grad = x.grad
    assert grad is not None
    version = grad._version
    (x * 3).sum().backward()
    assert x.grad is grad and grad._version == version + 1  # the same tensor, changed
    np.testing.assert_array_equal(grad.numpy(), np.full(4, 5, dtype=np.float32))


def test_a_gradient_buffer_someone_holds_is_never_added_into() -> None:
    x = ops.rand(5, requires_grad=True)
    y = x * 1.0
    seen = []
    y.register_hook(lambda g: seen.append(g.numpy().copy()) or None)
    z = y * 2.0
    (y.sum() + z.sum()).backward()
    # y's gradient is 1 + 2: the first contribution reached the hook unchanged
    assert len(seen) == 1
    np.testing.assert_array_equal(seen[0], np.full(5, 3, dtype=np.float32))
    w = ops.rand(5, requires_grad=True)
    s = w * 1.0
    (s + s).sum().backward()  # the same gradient array along two edges
    np.testing.assert_array_equal(w.grad.numpy(), np.full(5, 2, dtype=np.float32))


def test_relu_and_its_backward_keep_torchs_bits_through_the_bit_mask(torch) -> None:
    # zero_where ANDs bits instead of calling np.where: -0.0, NaN and infinities must come out
    # as torch's, in every float width, including where the gradient is exactly at the kink.
    special = [-0.0, 0.0, np.nan, -np.nan, -1.5, 2.5, np.inf, -np.inf, 1e-40, -1e-40]
    rng = np.random.default_rng(0)
    for dtype in (np.float16, np.float32, np.float64):
        values = np.concatenate([np.array(special), rng.standard_normal(300)]).astype(dtype)
        grads = np.concatenate([np.array(special[::-1]), rng.standard_normal(300)]).astype(dtype)
        x, tx = ops.tensor(values, requires_grad=True), torch.tensor(values, requires_grad=True)
        y, ty = ops.relu(x), torch.relu(tx)
        y.backward(ops.tensor(grads))
        ty.backward(torch.tensor(grads))
        width = f"u{np.dtype(dtype).itemsize}"
        assert y.detach().numpy().view(width).tolist() == ty.detach().numpy().view(width).tolist()
        assert x.grad.numpy().view(width).tolist() == tx.grad.numpy().view(width).tolist()

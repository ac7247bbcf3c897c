"""F.ctc_loss, nn.CTCLoss and torch.ctc_loss against PyTorch: the losses and the gradients of
the log-probabilities bit for bit (float32 and float64, every reduction, zero_infinity, blank
not 0, concatenated targets, short inputs, empty targets), the grad_fn names, the argument
errors; the gradient against float64 finite differences."""

from __future__ import annotations

import numpy as np
import pytest
from call_outcomes import outcomes
from gradcheck import check_grads

import gradsh.torch as gt

CASES = [  # T, C, N, S, options
    (6, 4, 2, 3, {}),
    (30, 10, 4, 8, {}),
    (30, 10, 4, 8, {"reduction": "none"}),
    (30, 10, 4, 8, {"reduction": "sum", "concat": True}),
    (20, 5, 3, 12, {"reduction": "none", "zero_infinity": True, "il": [20, 5, 12]}),
    (20, 5, 3, 12, {"reduction": "mean", "zero_infinity": True, "il": [20, 5, 12]}),
    (20, 5, 3, 12, {"reduction": "none", "il": [20, 5, 12]}),
    (25, 12, 5, 9, {"blank": 3}),
    (10, 4, 3, 3, {"reduction": "none", "il": [10, 0, 4], "tl": [3, 0, 0]}),
    (12, 3, 2, 5, {"repeats": True}),
]


def _inputs(T, C, N, S, seed, dtype, options):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((T, N, C)).astype(dtype)
    x = x - np.log(np.exp(x.astype(np.float64)).sum(-1, keepdims=True)).astype(dtype)
    blank = options.get("blank", 0)
    targets = rng.integers(0, C - 1, (N, S))
    targets = targets + (targets >= blank)  # never the blank
    if options.get("repeats"):
        targets[:, 1::2] = targets[:, ::2][:, :targets[:, 1::2].shape[1]]
    il = options.get("il", [T] * N)
    tl = options.get("tl", [int(v) for v in rng.integers(0, S + 1, N)])
    return x, targets, il, tl


def _loss(m, x, targets, il, tl, options):
    lp = m.tensor(x, requires_grad=True)
    t = m.tensor(targets)
    if options.get("concat"):
        t = m.cat([t[i, :tl[i]] for i in range(len(tl))])
    loss = m.nn.functional.ctc_loss(lp, t, m.tensor(il), m.tensor(tl),
                                    blank=options.get("blank", 0),
                                    reduction=options.get("reduction", "mean"),
                                    zero_infinity=options.get("zero_infinity", False))
    (loss.sum() if loss.ndim else loss).backward()
    return loss, lp.grad


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize(("T", "C", "N", "S", "options"), CASES)
def test_loss_and_gradient_bit_for_bit(torch, T, C, N, S, options, dtype):
    x, targets, il, tl = _inputs(T, C, N, S, T * C + N, dtype, options)
    their_loss, their_grad = _loss(torch, x, targets, il, tl, options)
    our_loss, our_grad = _loss(gt, x, targets, il, tl, options)
    assert type(our_loss.grad_fn).__name__ == type(their_loss.grad_fn).__name__
    assert repr(our_loss) == repr(their_loss)
    assert np.array_equal(our_loss.detach().numpy(), their_loss.detach().numpy(),
                          equal_nan=True)
    assert our_grad.dtype == gt.float32 if dtype == np.float32 else gt.float64
    assert np.array_equal(our_grad.numpy(), their_grad.numpy(), equal_nan=True)


def test_gradient_against_finite_differences():
    """Through log_softmax: ATen's gradient is the logits' one (it takes log_probs to be
    normalised), so only the composition is the true derivative."""
    x, targets, il, tl = _inputs(8, 5, 3, 3, 1, np.float64, {})

    def f(logits):
        return gt.nn.functional.ctc_loss(logits.log_softmax(2), gt.tensor(targets),
                                         gt.tensor(il), gt.tensor(tl), reduction="sum")

    check_grads(f, x)


def test_module_and_torch_function(torch):
    x, targets, il, tl = _inputs(9, 6, 3, 4, 7, np.float32, {})
    for m in (torch, gt):
        assert repr(m.nn.CTCLoss(blank=1, zero_infinity=True)) == "CTCLoss()"
    ours = gt.nn.CTCLoss(blank=5, reduction="sum")(gt.tensor(x), gt.tensor(targets - 1), il, tl)
    theirs = torch.nn.CTCLoss(blank=5, reduction="sum")(torch.tensor(x),
                                                        torch.tensor(targets - 1), il, tl)
    assert np.array_equal(ours.numpy(), theirs.numpy())
    ours = gt.ctc_loss(gt.tensor(x), gt.tensor(targets), il, tl)  # ATen's default: 0, none
    theirs = torch.ctc_loss(torch.tensor(x), torch.tensor(targets), il, tl)
    assert repr(ours) == repr(theirs)


def _outcomes(torch):
    """Every call of a list of right and wrong ones: its result or its error."""
    F = torch.nn.functional
    lp = torch.zeros(6, 2, 4).log_softmax(2).detach().requires_grad_()
    tg = torch.tensor([[1, 2, 3], [2, 2, 0]])
    il, tl = torch.full((2,), 6, dtype=torch.long), torch.tensor([3, 2])
    calls = [
        lambda: torch.ctc_loss(lp, tg, il, tl, 0, 1, False),
        lambda: torch.ctc_loss(lp, tg, il, tl, 0, 2),
        lambda: F.ctc_loss(lp[:, 0], tg[0], torch.tensor(6), torch.tensor(3)),
        lambda: F.ctc_loss(lp[:, 0], tg[0], [6], [3], reduction="none"),
        lambda: F.ctc_loss(lp, tg.float(), il, tl),
        lambda: F.ctc_loss(lp, tg.int(), il, tl),
        lambda: F.ctc_loss(lp, tg, il.float(), tl),
        lambda: F.ctc_loss(lp, tg, il, tl.float()),
        lambda: F.ctc_loss(lp.half(), tg, il, tl),
        lambda: F.ctc_loss(lp, tg, il, tl, blank=4),
        lambda: F.ctc_loss(lp, tg, il, tl, blank=-1),
        lambda: F.ctc_loss(lp, tg, il + 1, tl),
        lambda: F.ctc_loss(lp, tg, il - 7, tl),
        lambda: F.ctc_loss(lp, tg, il, tl + 1),
        lambda: F.ctc_loss(lp, tg, il, tl - 3),
        lambda: F.ctc_loss(lp, tg, il[:1], tl),
        lambda: F.ctc_loss(lp, tg, il, tl[:1]),
        lambda: F.ctc_loss(lp, tg[:1], il, tl),
        lambda: F.ctc_loss(lp, tg.reshape(-1)[:5], il, tl),
        lambda: F.ctc_loss(lp[None], tg, il, tl),
        lambda: F.ctc_loss(lp, tg[None], il, tl),
        lambda: F.ctc_loss(lp[:0], tg, il * 0, tl * 0),
        lambda: F.ctc_loss(lp, tg, il * 0, tl * 0, reduction="none"),
        lambda: F.ctc_loss(lp, tg, il * 0, tl, reduction="none"),
        lambda: F.ctc_loss(lp, tg, il, tl * 0),
        lambda: F.ctc_loss(lp, tg, il, tl, reduction="bad"),
        lambda: F.ctc_loss(lp, tg, (6, 6), (3, 2)),
        lambda: F.ctc_loss(lp, tg, torch.tensor([2, 6]), tl),
        lambda: F.ctc_loss(lp.detach(), tg, il, tl),
    ]
    return outcomes(calls)


def test_results_and_errors_match(torch):
    for i, (theirs, ours) in enumerate(zip(_outcomes(torch), _outcomes(gt), strict=True)):
        assert ours == theirs, i
